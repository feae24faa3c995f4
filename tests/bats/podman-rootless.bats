#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Rootless podman --runtime kcrun (issue 13, docs/rootless.md), in the Debian
# guest: the user `rootless` (uid 1000, subordinate ids 100000:65536,
# vm/build-debian) runs podman, which runs conmon and the runtime as root of
# its own user namespace.  bats runs as root, to make what a login would
# (the runtime dir) and to check from outside who holds the containers:
#   vm/run --debian -- env BUSYBOX_IMAGE_TAR=/var/lib/kcrun/images/busybox.tar \
#       bats /usr/lib/kcrun/tests/bats/podman-rootless.bats
# PODMAN_RUNTIME=crun (or runc) runs the same tests against another runtime.
# Skipped where podman, newuidmap, the user or the image archive is missing.

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=localhost/busybox:latest
RT=${PODMAN_RUNTIME:-kcrun}
RL_USER=rootless
RL_UID=1000
RL_GID=1000
XDG=/run/user/$RL_UID
# the runtime's state root: $XDG_RUNTIME_DIR/<runtime> (podman passes no
# --root; the runtime, root of podman's user namespace, picks it)
RT_ROOT=$XDG/$(basename "$RT")

# podman's cgroup manager: the one it picks (systemd where the user's own
# manager runs, as in the Debian guest under systemd, where the user
# lingers; cgroupfs without a user session), or RL_CGROUP_MANAGER
# (tests/run-all runs the suite again with cgroupfs)
RL_CGROUP_MANAGER=${RL_CGROUP_MANAGER:-}

# up ARGS...: podman as the user, with a login's environment and nothing of
# root's, bounded; fd 3 (bats') closed, or podman's pause process and
# conmon would keep it.
up() {
	timeout 180 setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
		env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/home/$RL_USER USER=$RL_USER LOGNAME=$RL_USER XDG_RUNTIME_DIR="$XDG" \
		DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG/bus" \
		podman ${RL_CGROUP_MANAGER:+--cgroup-manager "$RL_CGROUP_MANAGER"} "$@" 3>&-
}

pd() {
	up --runtime "$RT" "$@"
}

setup_file() {
	command -v podman >/dev/null || skip "no podman here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	command -v newuidmap >/dev/null || skip "no newuidmap (package uidmap)"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	[ "$(id -u "$RL_USER" 2>/dev/null)" = "$RL_UID" ] || skip "no user $RL_USER ($RL_UID) here"
	grep -q "^$RL_USER:" /etc/subuid || skip "no subordinate ids for $RL_USER"
	[ -r "$BUSYBOX_IMAGE_TAR" ] || skip "no image archive at $BUSYBOX_IMAGE_TAR"
	# what a login (pam_systemd) would make
	mkdir -p "$XDG"
	chown "$RL_UID:$RL_GID" "$XDG"
	chmod 700 "$XDG"
	# the user's scratch space (bats' own tmpdir is root's, mode 0700)
	RL_TMP=$(mktemp -d /tmp/kc-rootless.XXXXXX)
	chown "$RL_UID:$RL_GID" "$RL_TMP"
	export RL_TMP
	if ! up image exists "$IMAGE"; then
		install -o "$RL_UID" -g "$RL_GID" -m 0600 "$BUSYBOX_IMAGE_TAR" "$RL_TMP/busybox.tar"
		up load -q -i "$RL_TMP/busybox.tar"
		rm -f "$RL_TMP/busybox.tar"
	fi
}

teardown_file() {
	[ -z "${RL_TMP:-}" ] || rm -rf "$RL_TMP"
}

setup() {
	# setup_file's skip skips the tests too; its variables are exported
	[ -n "${RL_TMP:-}" ] || skip "rootless podman not set up"
}

# The user's containers of a failed test (all named kc-*) go.
teardown() {
	local c
	for c in $(up ps -aq --filter name='^kc-'); do
		up rm -f -t 0 "$c" >/dev/null 2>&1 || true
	done
	rm -rf "$RL_TMP"/gate.* "$RL_TMP"/id.* "$RL_TMP"/vol
}

# rl_gate: a gate (engines.bash) where the user's container can see it.
rl_gate() {
	GATE=$(mktemp -d "$RL_TMP/gate.XXXXXX")
	chown "$RL_UID:$RL_GID" "$GATE"
	chmod 1777 "$GATE"
}

# held NAME: the running container NAME is the runtime's: state under the
# user's runtime root, and for kcrun a kernel container object of its id
# (seen by root in /proc/containers), for another runtime none (held_by).
held() {
	local id
	id=$(up inspect -f '{{.Id}}' "$1") || return 1
	echo "$id" > "$RL_TMP/id.$1"
	held_by "$RT" "$RT_ROOT" "$id"
}

# gone NAME: what held saw of NAME is gone (state dir and kernel object).
gone() {
	gone_from "$RT" "$RT_ROOT" "$(cat "$RL_TMP/id.$1")"
}

# logs_are NAME TEXT: podman logs NAME prints exactly TEXT.
logs_are() {
	[ "$(up logs "$1" 2>&1)" = "$2" ]
}

@test "rootless podman run --rm: the output, exit 0, and the runtime held it while it ran" {
	rl_gate
	gated "held kc-rm" pd run --rm --name kc-rm --network none -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate echo hi-from-rootless
	[ "$status" -eq 0 ]
	[[ "$output" == *hi-from-rootless* ]]
	gone kc-rm
	run up container exists kc-rm
	[ "$status" -eq 1 ]
}

# The options of the host's cgroup2 superblock at /sys/fs/cgroup.
host_cgroup2_options() {
	awk '$5 == "/sys/fs/cgroup" && $0 ~ / - cgroup2 / { sub(/.* - cgroup2 [^ ]* /, ""); print }' \
		/proc/self/mountinfo
}

@test "rootless podman run: the container sees a cgroup tree and the host's cgroup2 flags stay as they were" {
	orig=$(host_cgroup2_options)
	[ -n "$orig" ]
	# nsdelegate, as systemd mounts it: a cgroup2 superblock made from the
	# initial cgroup namespace without it would clear it host-wide.
	mount -o remount,nsdelegate /sys/fs/cgroup
	before=$(host_cgroup2_options)
	[[ ",$before," == *,nsdelegate,* ]]
	run pd run --rm --network none "$IMAGE" sh -c 'test -e /sys/fs/cgroup/cgroup.controllers && echo tree'
	echo "$output"
	after=$(host_cgroup2_options)
	mount -o "remount,$orig" /sys/fs/cgroup
	[ "$status" -eq 0 ]
	[[ "$output" == *tree* ]]
	echo "before: $before; after: $after"
	[ "$after" = "$before" ]
}

@test "rootless podman run: exit codes 1, 5, 126 and 127" {
	run pd run --rm --network none "$IMAGE" false
	[ "$status" -eq 1 ]
	run pd run --rm --network none "$IMAGE" sh -c 'exit 5'
	[ "$status" -eq 5 ]
	run -127 pd run --rm --network none "$IMAGE" no-such-command
	[ "$status" -eq 127 ]
	[[ "$output" == *"executable file"*"not found in \$PATH"* ]]
	run pd run --rm --network none "$IMAGE" /etc
	[ "$status" -eq 126 ]
}

@test "rootless podman run -d, exec (output, exit codes, stdin), stop, rm" {
	pd run -d --name kc-d --network none "$IMAGE" sh -c \
		'trap "echo got-term; exit 7" TERM; echo ready; while :; do sleep 0.2; done'
	wait_for 60 logs_are kc-d ready
	held kc-d
	[ "$(up inspect -f '{{.State.Status}} {{.OCIRuntime}}' kc-d)" = "running $RT" ]
	run pd exec kc-d echo exec-ok
	[ "$status" -eq 0 ]
	[ "$output" = exec-ok ]
	run pd exec kc-d sh -c 'exit 3'
	[ "$status" -eq 3 ]
	run -127 pd exec kc-d no-such-command
	[ "$status" -eq 127 ]
	run pd exec -i kc-d cat <<< piped
	[ "$output" = piped ]
	# the exec'd process sees the container's processes, as root of them
	run pd exec kc-d sh -c 'id -u; cat /proc/1/cmdline | tr "\0" " "'
	[ "${lines[0]}" = 0 ]
	[[ "${lines[1]}" == "sh -c trap"* ]]
	pd stop -t 60 kc-d
	[ "$(up inspect -f '{{.State.Status}} {{.State.ExitCode}}' kc-d)" = "exited 7" ]
	[ "$(up logs kc-d)" = "$(printf 'ready\ngot-term')" ]
	pd rm kc-d
	gone kc-d
	run up container exists kc-d
	[ "$status" -eq 1 ]
}

@test "rootless podman stop: SIGKILL after the timeout (137), rm -f of a running one" {
	pd run -d --name kc-k --network none "$IMAGE" sleep 1000
	held kc-k
	pd stop -t 1 kc-k
	[ "$(up inspect -f '{{.State.Status}} {{.State.ExitCode}}' kc-k)" = "exited 137" ]
	pd rm kc-k
	gone kc-k
	pd run -d --name kc-f --network none "$IMAGE" sleep 1000
	held kc-f
	pd rm -f -t 0 kc-f
	gone kc-f
}

@test "rootless podman: the user's subordinate ids, and root inside is the user outside" {
	mkdir "$RL_TMP/vol"
	chown "$RL_UID:$RL_GID" "$RL_TMP/vol"
	chmod 777 "$RL_TMP/vol"
	pd run --rm --network none -v "$RL_TMP/vol:/data" "$IMAGE" touch /data/by-root
	pd run --rm --network none --user 1000 -v "$RL_TMP/vol:/data" "$IMAGE" touch /data/by-1000
	run pd run --rm --network none "$IMAGE" cat /proc/self/uid_map
	# podman's user namespace: 0 is the user, 1..65536 its subordinate ids
	[ "$(echo $output)" = "0 1000 1 1 100000 65536" ]
	[ "$(stat -c %u "$RL_TMP/vol/by-root")" = "$RL_UID" ]
	[ "$(stat -c %u "$RL_TMP/vol/by-1000")" = 100999 ]
}

@test "rootless podman: /sys of --network none shows only lo; --network host the host's devices" {
	run pd run --rm --network none "$IMAGE" ls /sys/class/net
	[ "$status" -eq 0 ]
	[ "$output" = lo ]
	# the host has more than lo (dummy0), or the comparison proves nothing
	[ "$(ls /sys/class/net | wc -l)" -gt 1 ]
	run pd run --rm --network host "$IMAGE" ls /sys/class/net
	[ "$status" -eq 0 ]
	[ "$output" = "$(ls /sys/class/net)" ]
}
