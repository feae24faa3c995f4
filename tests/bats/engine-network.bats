#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# podman's networks with kcrun, in the Debian guest (vm/run --debian): the
# default bridge network (CNI: bridge, portmap, firewall; iptables-nft),
# published ports and the host's network.  The guest's containers.conf says
# `netns = "none"` for podman.bats, so these tests ask for `--network bridge`
# (the default network of a root podman elsewhere).  Docker's networks are
# tested in docker.bats (its daemon is started once there).
#   vm/run --debian -- bats /usr/lib/kcrun/tests/bats/engine-network.bats
# PODMAN_RUNTIME=runc (or crun) runs the same tests against another runtime.
# Each test checks that the runtime under test holds the containers
# (`RUNTIME --root /run/RUNTIME list`; for kcrun /proc/containers too).

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=localhost/busybox:latest
RT=${PODMAN_RUNTIME:-kcrun}

setup() {
	command -v podman >/dev/null || skip "no podman here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	if ! podman image exists "$IMAGE"; then
		[ -r "$BUSYBOX_IMAGE_TAR" ] || skip "no image archive at $BUSYBOX_IMAGE_TAR"
		podman load -q -i "$BUSYBOX_IMAGE_TAR" >/dev/null
	fi
}

teardown() {
	podman ps -aq --filter name='^kc-' | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
}

pd() {
	timeout 180 podman --runtime "$RT" "$@"
}

# holds NAME: the runtime under test holds podman's container NAME (podman
# gives a runtime the root /run/<its name>).
holds() {
	held_by "$RT" "/run/$RT" "$(podman inspect -f '{{.Id}}' "$1")"
}

@test "podman default network: a container reaches a server in another by address" {
	pd run -d --network bridge --name kc-nsrv "$IMAGE" sh -c "$(httpd_cmd 8080 podman-served)"
	holds kc-nsrv
	ip=$(podman inspect -f '{{.NetworkSettings.IPAddress}}' kc-nsrv)
	[[ "$ip" == 10.88.* ]]
	# the guest reaches it over the bridge once httpd listens
	wait_for 60 answers "http://$ip:8080/" podman-served
	new_gate
	gated 'holds kc-ncli' pd run --rm --network bridge --name kc-ncli -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c "ip -o -4 addr show eth0 | grep -q ' 10\.88\.' && timeout 10 wget -q -O - http://$ip:8080/"
	[ "$status" -eq 0 ]
	[ "$output" = podman-served ]
	pd rm -f -t 0 kc-nsrv
}

@test "podman run -p: a published port answers on the guest's 127.0.0.1" {
	pd run -d --network bridge -p 18090:8080 --name kc-npub "$IMAGE" sh -c "$(httpd_cmd 8080 podman-published)"
	holds kc-npub
	wait_for 60 answers http://127.0.0.1:18090/ podman-published
	run podman port kc-npub 8080
	[[ "$output" == *":18090" ]]
	pd rm -f -t 0 kc-npub
	run http_get http://127.0.0.1:18090/
	[ "$status" -ne 0 ]
}

@test "podman run --network host: the guest's network namespace and its ports" {
	pd run -d --network host --name kc-nhost "$IMAGE" sh -c "$(httpd_cmd 18091 podman-host)"
	holds kc-nhost
	wait_for 60 answers http://127.0.0.1:18091/ podman-host
	run pd exec kc-nhost readlink /proc/self/ns/net
	[ "$output" = "$(readlink /proc/self/ns/net)" ]
	pd rm -f -t 0 kc-nhost
}
