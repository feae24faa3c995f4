#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Docker 20.10 (Debian 12's docker.io) driving kcrun, in the Debian guest
# (vm/run --debian): the suite starts dockerd (its /etc/docker/daemon.json
# from vm/build-debian names kcrun as a runtime and the vfs storage driver)
# and stops it at the end; skipped where dockerd is missing:
#   vm/run --debian -- bats /usr/lib/kcrun/tests/bats/docker.bats
# DOCKER_RUNTIME=runc (or crun) runs the same tests against another runtime.
# Every test proves which runtime ran its container: the container is in
# `RUNTIME --root <Docker's state root> list` while it runs, and for kcrun
# a kernel container object in /proc/containers (for runc/crun: not one).

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=docker.io/library/busybox:latest
RT=${DOCKER_RUNTIME:-kcrun}
# Docker 20.10 gives every runtime the runc shim's root (runtime-runc),
# namespace moby.
STATE=/run/docker/runtime-runc/moby

docker_up() {
	docker version >/dev/null 2>&1
}

setup_file() {
	command -v dockerd >/dev/null || skip "no dockerd here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	[ -r "$BUSYBOX_IMAGE_TAR" ] || skip "no image archive at $BUSYBOX_IMAGE_TAR"
	start_daemon dockerd "$BATS_FILE_TMPDIR/dockerd.log" \
		dockerd --add-runtime crun=/usr/bin/crun
	if ! wait_for 180 docker_up; then
		cat "$BATS_FILE_TMPDIR/dockerd.log" >&2
		return 1
	fi
	docker_archive "$BUSYBOX_IMAGE_TAR" "$BATS_FILE_TMPDIR/busybox-docker.tar" "$IMAGE"
	docker load -q -i "$BATS_FILE_TMPDIR/busybox-docker.tar"
}

teardown_file() {
	docker ps -aq --filter name='^kc-' | xargs -r docker rm -f >/dev/null 2>&1
	docker volume rm kc-dvol >/dev/null 2>&1
	stop_daemon dockerd
}

setup() {
	command -v "$RT" >/dev/null || skip "no $RT here"
	docker_up || skip "dockerd is not running"
}

# A failed test's containers go, so the next test can reuse the names.
teardown() {
	docker ps -aq --filter name='^kc-' | xargs -r docker rm -f >/dev/null 2>&1 || true
}

dkrun() {
	timeout 180 docker run --runtime "$RT" "$@"
}

id_of() {
	docker inspect -f '{{.Id}}' "$1"
}

# logs_have NAME TEXT: docker logs NAME has the line TEXT.
logs_have() {
	docker logs "$1" 2>&1 | grep -qx "$2"
}

# holds NAME: the runtime under test holds Docker's container NAME.
holds() {
	held_by "$RT" "$STATE" "$(id_of "$1")"
}

@test "docker run --rm: the output, exit status 0, and the runtime ran it" {
	new_gate
	gated 'holds kc-d1' dkrun --rm --name kc-d1 -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate echo hi-from-docker
	[ "$status" -eq 0 ]
	[ "$output" = hi-from-docker ]
	run docker inspect kc-d1
	[ "$status" -ne 0 ]
}

@test "docker run: exit codes 42, 126 (a directory) and 127 (no such command)" {
	new_gate
	gated 'holds kc-d42' dkrun --rm --name kc-d42 -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'exit 42'
	[ "$status" -eq 42 ]
	run dkrun --rm "$IMAGE" /etc
	[ "$status" -eq 126 ]
	[[ "$output" == *"permission denied"* ]]
	run -127 dkrun --rm "$IMAGE" no-such-command
	[ "$status" -eq 127 ]
	[[ "$output" == *"executable file not found in \$PATH"* ]]
	run -127 dkrun --rm "$IMAGE" /no/such/file
	[ "$status" -eq 127 ]
	[[ "$output" == *"no such file or directory"* ]]
}

@test "docker run -d, exec and its exit status, stop (TERM), rm" {
	dkrun -d --name kc-d2 "$IMAGE" sh -c 'trap "exit 7" TERM; while :; do sleep 0.1; done'
	id=$(id_of kc-d2)
	held_by "$RT" "$STATE" "$id"
	run docker exec kc-d2 echo exec-ok
	[ "$status" -eq 0 ]
	[ "$output" = exec-ok ]
	run docker exec kc-d2 sh -c 'exit 3'
	[ "$status" -eq 3 ]
	run docker exec -u 1000:1001 -w /tmp kc-d2 sh -c 'echo $(id -u):$(id -g) $(pwd)'
	[ "$output" = "1000:1001 /tmp" ]
	# Docker 20.10 gives 126 for any exec the runtime refuses (runc too)
	run docker exec kc-d2 no-such-command
	[ "$status" -eq 126 ]
	[[ "$output" == *"executable file not found in \$PATH"* ]]
	run sh -c 'echo piped | docker exec -i kc-d2 cat'
	[ "$output" = piped ]
	timeout 120 docker stop -t 60 kc-d2
	[ "$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' kc-d2)" = "exited 7" ]
	docker rm kc-d2
	gone_from "$RT" "$STATE" "$id"
}

@test "docker pause/unpause, update, top, stats, kill -s, restart, --init" {
	dkrun -d --init --memory 64m --pids-limit 50 --name kc-d9 "$IMAGE" \
		sh -c 'trap "echo got-usr1" USR1; while :; do sleep 0.1; done'
	id=$(id_of kc-d9)
	held_by "$RT" "$STATE" "$id"
	# --init: Docker's init (tini) is pid 1, the command its child
	run docker exec kc-d9 cat /proc/1/cmdline
	[[ "$output" == /sbin/docker-init* ]]
	run docker exec kc-d9 sh -c 'cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max'
	[ "$output" = "$(printf '67108864\n50')" ]
	docker pause kc-d9
	[ "$(docker inspect -f '{{.State.Status}}' kc-d9)" = paused ]
	[ "$("$RT" --root "$STATE" state "$id" | jq -r .status)" = paused ]
	docker unpause kc-d9
	[ "$(docker inspect -f '{{.State.Status}}' kc-d9)" = running ]
	docker update --memory 96m --memory-swap 192m kc-d9
	run docker exec kc-d9 cat /sys/fs/cgroup/memory.max
	[ "$output" = 100663296 ]
	run docker top kc-d9
	[[ "$output" == *"sh -c trap"* ]]
	run docker stats --no-stream --format '{{.Name}} {{.PIDs}}' kc-d9
	[[ "$output" == "kc-d9 "[1-9]* ]]
	docker kill -s USR1 kc-d9
	wait_for 30 logs_have kc-d9 got-usr1
	timeout 120 docker restart -t 1 kc-d9
	[ "$(docker inspect -f '{{.State.Status}} {{.RestartCount}}' kc-d9)" = "running 0" ]
	held_by "$RT" "$STATE" "$id"
	docker rm -f kc-d9
	gone_from "$RT" "$STATE" "$id"
}

@test "docker run -it under a pseudo-terminal; exec -it" {
	command -v script >/dev/null || skip "no script(1)"
	new_gate
	gated 'holds kc-d3' tty_run docker run -it --rm --runtime "$RT" --name kc-d3 \
		-v "$GATE:/gate" "$IMAGE" sh -c "$GATE_SH" gate sh -c 'tty; [ -t 0 ] && echo stdin-tty; exit 3'
	[ "$status" -eq 3 ]
	[ "$output" = "$(printf '/dev/pts/0\nstdin-tty')" ]
	dkrun -d --name kc-d4 "$IMAGE" sleep 1000
	holds kc-d4
	run tty_run docker exec -it kc-d4 sh -c 'tty; exit 4'
	[ "$status" -eq 4 ]
	[[ "$output" == /dev/pts/* ]]
	docker rm -f kc-d4
}

@test "docker run --read-only: / refuses writes, a volume takes them" {
	new_gate
	mkdir -p "$BATS_TEST_TMPDIR/rw"
	gated 'holds kc-d5' dkrun --rm --read-only --name kc-d5 -v "$GATE:/gate" \
		-v "$BATS_TEST_TMPDIR/rw:/data" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'touch /x 2>&1; echo rc=$?; touch /data/ok && echo data-ok'
	[ "$status" -eq 0 ]
	# (touch's message goes to stdout in the container: Docker streams
	# stderr apart from stdout, so their order would be left to chance)
	[[ "$output" == *"Read-only file system"*"rc=1"*data-ok* ]]
	[ -e "$BATS_TEST_TMPDIR/rw/ok" ]
}

@test "docker run --user: ids and no capabilities" {
	new_gate
	gated 'holds kc-d6' dkrun --rm --user 1000:1001 --name kc-d6 -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'id; grep CapEff /proc/self/status'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'uid=1000 gid=1001 groups=1001\nCapEff:\t0000000000000000')" ]
}

@test "docker run --cap-drop: the capability is gone, the others stay" {
	new_gate
	# Docker 20.10's default set is 0xa80425fb; CHOWN is bit 0.
	gated 'holds kc-d7' dkrun --rm --cap-drop CHOWN --name kc-d7 -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'grep -E "^Cap(Eff|Bnd)" /proc/self/status; chown 1 /etc/passwd 2>&1; echo rc=$?'
	[ "$status" -eq 0 ]
	[[ "$output" == "$(printf 'CapEff:\t00000000a80425fa\nCapBnd:\t00000000a80425fa')"* ]]
	[[ "$output" == *"Operation not permitted"*"rc=1" ]]
	run dkrun --rm --cap-drop ALL "$IMAGE" grep CapEff /proc/self/status
	[ "$output" = "$(printf 'CapEff:\t0000000000000000')" ]
}

@test "docker run -v: a bind mount and a named volume" {
	new_gate
	mkdir -p "$BATS_TEST_TMPDIR/hv"
	echo hostfile > "$BATS_TEST_TMPDIR/hv/f"
	docker volume create kc-dvol
	gated 'holds kc-d8' dkrun --rm --name kc-d8 -v "$GATE:/gate" \
		-v "$BATS_TEST_TMPDIR/hv:/data" -v kc-dvol:/vol "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'cat /data/f; echo w > /data/g; echo in-volume > /vol/x'
	[ "$status" -eq 0 ]
	[ "$output" = hostfile ]
	[ "$(cat "$BATS_TEST_TMPDIR/hv/g")" = w ]
	run dkrun --rm -v kc-dvol:/vol:ro "$IMAGE" sh -c 'cat /vol/x; touch /vol/y 2>&1; echo rc=$?'
	[[ "$output" == in-volume*"Read-only file system"*"rc=1" ]]
	docker volume rm kc-dvol
}

@test "docker run: env, workdir, hostname, tmpfs, shm-size, ulimit, sysctl, cgroupns, no-new-privileges" {
	new_gate
	gated 'holds kc-d10' dkrun --rm --name kc-d10 -v "$GATE:/gate" -e KCE='a b' -w /tmp \
		--hostname kchost --tmpfs /mnt/t:size=1m --shm-size 8m --ulimit nofile=100:200 \
		--sysctl net.ipv4.ip_unprivileged_port_start=80 --security-opt no-new-privileges "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'echo "$KCE|$(pwd)|$(hostname)"
			grep -E " /mnt/t | /dev/shm " /proc/mounts | cut -d" " -f2,3,4
			echo "$(ulimit -n) $(ulimit -Hn)"
			cat /proc/sys/net/ipv4/ip_unprivileged_port_start /proc/self/cgroup
			grep NoNewPrivs /proc/self/status'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'a b|/tmp|kchost' \
		'/dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=8192k' \
		'/mnt/t tmpfs rw,nosuid,nodev,noexec,relatime,size=1024k' \
		'100 200' 80 0::/ 'NoNewPrivs:	1')" ]
}

@test "docker run --network/--pid/--ipc container:X joins another container's namespaces" {
	dkrun -d --ipc shareable --name kc-d11 "$IMAGE" sh -c "$(httpd_cmd 8080 shared-netns)"
	holds kc-d11
	new_gate
	gated 'holds kc-d12' dkrun --rm --name kc-d12 -v "$GATE:/gate" \
		--network container:kc-d11 --pid container:kc-d11 --ipc container:kc-d11 "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'for n in net pid ipc; do readlink /proc/self/ns/$n; done
			ps -o comm | grep -c httpd
			timeout 10 wget -q -O - http://127.0.0.1:8080/'
	[ "$status" -eq 0 ]
	pid=$(docker inspect -f '{{.State.Pid}}' kc-d11)
	[ "$output" = "$(readlink /proc/$pid/ns/net /proc/$pid/ns/pid /proc/$pid/ns/ipc; echo 1; echo shared-netns)" ]
}

@test "docker run --privileged: all capabilities, the host's devices, a writable /sys" {
	# every capability Docker 20.10 knows (0-37), as with runc
	new_gate
	gated 'holds kc-d13' dkrun --rm --privileged --name kc-d13 -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate sh -c 'grep CapEff /proc/self/status; test -c /dev/kmsg && echo kmsg
			grep -E " /sys " /proc/mounts | cut -d" " -f4 | cut -d, -f1'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'CapEff:\t0000003fffffffff\nkmsg\nrw')" ]
}

# Networking as Docker sets it up: docker0, veth, iptables (Debian's
# iptables-nft) NAT, docker-proxy for published ports.

@test "docker default bridge: a container reaches a server in another by address" {
	dkrun -d --name kc-dsrv "$IMAGE" sh -c "$(httpd_cmd 8080 docker-served)"
	holds kc-dsrv
	ip=$(docker inspect -f '{{.NetworkSettings.IPAddress}}' kc-dsrv)
	[[ "$ip" == 172.17.* ]]
	# the guest reaches it over docker0 once httpd listens
	wait_for 60 answers "http://$ip:8080/" docker-served
	new_gate
	gated 'holds kc-dcli' dkrun --rm --name kc-dcli -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate timeout 10 wget -q -O - "http://$ip:8080/"
	[ "$status" -eq 0 ]
	[ "$output" = docker-served ]
	docker rm -f kc-dsrv
}

@test "docker run -p: a published port answers on the guest's 127.0.0.1" {
	dkrun -d -p 18080:8080 --name kc-dpub "$IMAGE" sh -c "$(httpd_cmd 8080 docker-published)"
	holds kc-dpub
	wait_for 60 answers http://127.0.0.1:18080/ docker-published
	run docker port kc-dpub 8080
	[[ "$output" == *"0.0.0.0:18080"* ]]
	docker rm -f kc-dpub
	run http_get http://127.0.0.1:18080/
	[ "$status" -ne 0 ]
}

@test "docker run --network host: the guest's network namespace" {
	dkrun -d --network host --name kc-dhost "$IMAGE" sh -c "$(httpd_cmd 18081 docker-host)"
	holds kc-dhost
	wait_for 60 answers http://127.0.0.1:18081/ docker-host
	run docker exec kc-dhost readlink /proc/self/ns/net
	[ "$output" = "$(readlink /proc/self/ns/net)" ]
	docker rm -f kc-dhost
}

@test "docker on a systemd host: its default cgroup driver is systemd, and the runtime puts the container in docker-<id>.scope with its limit" {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	[ "$(docker info -f '{{.CgroupDriver}}')" = systemd ]
	dkrun -d --memory 64m --name kc-dsd "$IMAGE" sleep 1000
	holds kc-dsd
	local id unit
	id=$(id_of kc-dsd)
	unit=docker-$id.scope
	[ "$(systemctl show -p ActiveState --value "$unit")" = active ]
	[ "$(systemctl show -p MemoryMax --value "$unit")" = 67108864 ]
	[ "$(cat "/sys/fs/cgroup/system.slice/$unit/memory.max")" = 67108864 ]
	grep -qx "0::/system.slice/$unit" "/proc/$(docker inspect -f '{{.State.Pid}}' kc-dsd)/cgroup"
	docker rm -f kc-dsd
	wait_for 60 unit_unloaded "$unit"
	gone_from "$RT" "$STATE" "$id"
}
