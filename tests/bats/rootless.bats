#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Rootless (issue 13, docs/rootless.md): the runtime run by an unprivileged
# user (`rootless`, uid 1000, subordinate ids 100000:65536 in the guest) on
# the config `spec --rootless` writes, its state under $XDG_RUNTIME_DIR.
# bats runs as root, to set up what a host's login and systemd would (the
# runtime dir, a delegated cgroup) and to check from outside; the runtime
# itself always runs as the user.  Where the behaviour is the runtime
# spec's (or runc's), the test passes with RUNTIME=runc too.

load helpers
! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

RL_USER=rootless
RL_UID=1000
RL_GID=1000

setup() {
	requires_runtime
	[ "$(id -u "$RL_USER" 2>/dev/null)" = "$RL_UID" ] || skip "no user $RL_USER ($RL_UID) in this guest"
	SETPRIV=$(command -v setpriv) || skip "no setpriv"
	RL_RUNTIME=$(command -v "$RUNTIME")
	XDG=/run/user/$RL_UID
	mkdir -p "$XDG"
	chown "$RL_UID:$RL_GID" "$XDG"
	chmod 700 "$XDG"
	# the runtime's own default root when unprivileged
	ROOT=$XDG/$(basename "$RUNTIME")
	BUNDLE=$(mktemp -d "${TMPDIR:-/tmp}/rl-bundle.XXXXXX")
	SHARED=$(mktemp -d "${TMPDIR:-/tmp}/rl-shared.XXXXXX")
	cp -a "$BUSYBOX_BUNDLE/rootfs" "$BUNDLE/rootfs"
	chown -R "$RL_UID:$RL_GID" "$BUNDLE" "$SHARED"
	chmod 755 "$BUNDLE"
	ID="rl${BATS_TEST_NUMBER}-$$"
	# the config spec --rootless writes, as the user, then a bind of SHARED
	# (the container says what it is ready for there) and no terminal
	(cd "$BUNDLE" && as_user "$RL_RUNTIME" spec --rootless)
	update_config --arg s "$SHARED" '.process.terminal = false
		| .mounts += [{destination: "/shared", type: "bind", source: $s, options: ["rbind", "rw"]}]'
}

teardown() {
	local id
	if [ -d "${ROOT:-/nonexistent}" ]; then
		for id in $(ls "$ROOT"); do
			urt delete --force "$id" >/dev/null 2>&1 || true
		done
	fi
	rm -rf "$ROOT" "${BUNDLE:-/nonexistent}" "${SHARED:-/nonexistent}"
	if [ -n "${DELEGATED:-}" ]; then
		# the shells that ran the runtime there are gone: the leaf is empty
		rmdir "$DELEGATED/runtime" 2>/dev/null || true
		find "$DELEGATED" -depth -type d -exec rmdir {} \; 2>/dev/null || true
		[ ! -d "$DELEGATED" ] || { echo "delegated cgroup $DELEGATED left behind" >&2; return 1; }
	fi
}

# as_user CMD...: CMD as the unprivileged user, with its runtime dir.
as_user() {
	setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
		env HOME=/home/$RL_USER USER=$RL_USER XDG_RUNTIME_DIR="$XDG" "$@"
}

# urt ARGS...: the runtime as the user, with its default root (no --root),
# bounded.  With DELEGATED set, from a leaf cgroup of the delegated subtree
# (where a user's session runs when systemd delegates one).
urt() {
	if [ -n "${DELEGATED:-}" ]; then
		timeout 120 sh -c 'echo $$ > "$0/runtime/cgroup.procs" && exec "$@"' "$DELEGATED" \
			"$SETPRIV" --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
			env HOME=/home/$RL_USER USER=$RL_USER XDG_RUNTIME_DIR="$XDG" "$RL_RUNTIME" "$@"
	else
		timeout 120 setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
			env HOME=/home/$RL_USER USER=$RL_USER XDG_RUNTIME_DIR="$XDG" "$RL_RUNTIME" "$@"
	fi
}

# urt_bg ARGS...: create / run -d, stdio off bats' pipes.
urt_bg() {
	urt "$@" </dev/null >"$SHARED/.out" 2>"$SHARED/.err" || {
		cat "$SHARED/.out" "$SHARED/.err"
		return 1
	}
}

ustatus() {
	urt state "$1" 2>/dev/null | jq -r .status
}

wait_for_ustatus() {
	wait_for "${3:-30}" ustatus_is "$1" "$2"
}

ustatus_is() {
	[ "$(ustatus "$1")" = "$2" ]
}

# A container that says it is ready (its TERM trap set) and exits 0 on TERM.
set_waiting_args() {
	set_args sh -c 'trap "exit 0" TERM; touch /shared/ready; while :; do sleep 0.1; done'
}

# delegate: a cgroup subtree chowned to the user, as systemd's Delegate=yes
# gives user@1000.service: DELEGATED, with a leaf runtime/ the runtime runs
# in and the memory and pids controllers on for the containers below.
delegate() {
	requires_cgroup2
	requires_controller memory
	requires_controller pids
	DELEGATED=/sys/fs/cgroup/rl-$$-$BATS_TEST_NUMBER
	mkdir "$DELEGATED" "$DELEGATED/runtime"
	echo "+memory +pids" > "$DELEGATED/cgroup.subtree_control"
	chown -R "$RL_UID:$RL_GID" "$DELEGATED"
}

@test "spec --rootless maps the caller's own uid and gid" {
	[ "$(jq -c '.linux.uidMappings' "$BUNDLE/config.json")" = '[{"containerID":0,"hostID":1000,"size":1}]' ]
	[ "$(jq -c '.linux.gidMappings' "$BUNDLE/config.json")" = '[{"containerID":0,"hostID":1000,"size":1}]' ]
	[ "$(jq -r '.linux.namespaces[] | select(.type == "user") | .type' "$BUNDLE/config.json")" = user ]
}

@test "run as an unprivileged user: root inside, the user outside, state under \$XDG_RUNTIME_DIR" {
	set_args sh -c 'id -u; id -g; exit 3'
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 3 ]
	[ "${lines[0]}" = 0 ]
	[ "${lines[1]}" = 0 ]
	# the default root was made, the user's, and the container is gone from it
	[ "$(stat -c %u "$ROOT")" = "$RL_UID" ]
	[ ! -e "$ROOT/$ID" ]
	assert_nothing_left "$ID"
}

@test "create, start, kill, delete as an unprivileged user" {
	local pid
	set_waiting_args
	urt_bg create --bundle "$BUNDLE" "$ID"
	[ "$(ustatus "$ID")" = created ]
	[ -d "$ROOT/$ID" ]
	pid=$(urt state "$ID" | jq -r .pid)
	# init is the user's process on the host
	[ "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")" = "$RL_UID" ]
	urt start "$ID"
	wait_for 30 test -e "$SHARED/ready"
	[ "$(ustatus "$ID")" = running ]
	urt kill "$ID" TERM
	wait_for_ustatus "$ID" stopped
	urt delete "$ID"
	assert_nothing_left "$ID" "$pid"
}

@test "exec as an unprivileged user: root inside, its exit status" {
	set_waiting_args
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	run urt exec "$ID" id -u
	[ "$status" -eq 0 ]
	[ "$output" = 0 ]
	run urt exec "$ID" sh -c 'exit 7'
	[ "$status" -eq 7 ]
	# the exec'd process is in init's pid namespace
	run urt exec "$ID" cat /proc/1/cmdline
	[ "$status" -eq 0 ]
	[[ "$output" == sh* ]]
	urt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "kcrun: an exec'd process is a member of the rootless container: it dies with init without a pid namespace" {
	is_kcrun || skip "kernel container objects are kcrun's"
	set_waiting_args
	# (no pid namespace of its own: a new proc mount is not the user's to
	# make, the host's /proc is bound instead, as for runc)
	update_config '.linux.namespaces |= map(select(.type != "pid"))
		| .mounts |= map(if .destination == "/proc" then {destination: "/proc",
			type: "bind", source: "/proc", options: ["rbind", "nosuid", "noexec", "nodev"]}
			else . end)'
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	urt exec --detach --pid-file "$SHARED/exec.pid" "$ID" sleep 501 </dev/null >/dev/null 2>&1
	pid=$(cat "$SHARED/exec.pid")
	grep -q sleep "/proc/$pid/cmdline"
	# the control: a process that only joins a namespace of the container
	# (its user namespace; rootless exec joined them all before kernel
	# 0039's rule) is no member
	ipid=$(urt state "$ID" | jq -r .pid)
	# (as_user's setpriv itself, so that $! is the process that becomes sleep)
	setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
		nsenter -t "$ipid" -U --preserve-credentials sleep 502 </dev/null >/dev/null 2>"$SHARED/nsenter.err" 3>&- &
	joined=$!
	wait_for 30 grep -qx sleep "/proc/$joined/comm" || { cat "$SHARED/nsenter.err"; false; }
	[ "$(readlink "/proc/$joined/ns/user")" = "$(readlink "/proc/$ipid/ns/user")" ]
	urt kill "$ID" KILL
	wait_for_ustatus "$ID" stopped
	# init's death kills every member of the container; no pid namespace
	# takes the others down
	wait_for 30 sh -c "! grep -qs '^State:.*[RSD]' /proc/$pid/status"
	grep -qs '^State:.*[RSD]' "/proc/$joined/status"
	kill "$joined"
	urt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "list as an unprivileged user shows its container" {
	set_waiting_args
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	run urt list -q
	[ "$status" -eq 0 ]
	[ "$output" = "$ID" ]
	run urt list -f json
	[ "$(jq -r --arg id "$ID" '.[] | select(.id == $id) | .status' <<< "$output")" = running ]
	urt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "ps without a cgroup lists the container's processes (kcrun: its pid namespace)" {
	is_kcrun || skip "$RUNTIME ps reads the container's cgroup, and there is none without delegation"
	local pid
	set_waiting_args
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	pid=$(urt state "$ID" | jq -r .pid)
	# stdout alone: runc warns on stderr that ps may fail rootless
	run --separate-stderr urt ps --format json "$ID"
	[ "$status" -eq 0 ]
	jq -e --argjson p "$pid" 'index($p) != null' <<< "$output"
	urt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "limits without a delegated cgroup fail and name the field" {
	requires_cgroup2
	update_config '.linux.resources = {memory: {limit: 67108864}}'
	set_args true
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 1 ]
	if is_kcrun; then
		[[ "$output" == *"linux.resources.memory: rootless kcrun cannot apply limits without a delegated cgroup"* ]]
	else
		[[ "$output" == *"rootless needs no limits + no cgrouppath when no permission is granted for cgroups"* ]]
	fi
	assert_nothing_left "$ID"
}

@test "a cgroupsPath that is not delegated fails" {
	requires_cgroup2
	update_config --arg p "/rl-undelegated-$$/$ID" '.linux.cgroupsPath = $p'
	set_args true
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ermission denied"* ]]
	[ ! -e "/sys/fs/cgroup/rl-undelegated-$$" ]
	assert_nothing_left "$ID"
}

@test "a delegated cgroup is used: limits, ps and exec in it" {
	local pid dir
	delegate
	dir=$DELEGATED/$ID
	update_config --arg p "${DELEGATED#/sys/fs/cgroup}/$ID" \
		'.linux.cgroupsPath = $p | .linux.resources = {memory: {limit: 67108864}, pids: {limit: 50}}'
	set_waiting_args
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	pid=$(urt state "$ID" | jq -r .pid)
	[ "$(cat "$dir/memory.max")" = 67108864 ]
	[ "$(cat "$dir/pids.max")" = 50 ]
	grep -qx "$pid" "$dir/cgroup.procs"
	# stdout alone: runc warns on stderr that ps may fail rootless
	run --separate-stderr urt ps --format json "$ID"
	[ "$status" -eq 0 ]
	jq -e --argjson p "$pid" 'index($p) != null' <<< "$output"
	# a process exec'd in is in the container's cgroup, seen from outside
	urt_bg exec -d --pid-file "$SHARED/exec.pid" "$ID" sleep 1000
	grep -qx "$(cat "$SHARED/exec.pid")" "$dir/cgroup.procs"
	urt kill "$ID" TERM
	wait_for_ustatus "$ID" stopped
	urt delete "$ID"
	[ ! -e "$dir" ]
	assert_nothing_left "$ID" "$pid"
}

@test "several mapped ranges through newuidmap/newgidmap: uid 1 inside is 100000 outside" {
	command -v newuidmap >/dev/null || skip "no newuidmap (package uidmap)"
	update_config '.linux.uidMappings = [{containerID: 0, hostID: 1000, size: 1}, {containerID: 1, hostID: 100000, size: 65536}]
		| .linux.gidMappings = [{containerID: 0, hostID: 1000, size: 1}, {containerID: 1, hostID: 100000, size: 65536}]
		| .process.user = {uid: 1, gid: 1}'
	chmod 777 "$SHARED"
	set_args sh -c 'id -u; touch /shared/made-by-1'
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
	[ "$(stat -c %u:%g "$SHARED/made-by-1")" = 100000:100000 ]
	assert_nothing_left "$ID"
}

@test "mapped ranges /etc/subuid does not grant are refused, with newuidmap's word" {
	command -v newuidmap >/dev/null || skip "no newuidmap (package uidmap)"
	update_config '.linux.uidMappings = [{containerID: 0, hostID: 1000, size: 1}, {containerID: 1, hostID: 300000, size: 10}]'
	set_args true
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *newuidmap* ]]
	assert_nothing_left "$ID"
}

@test "mapped ranges without newuidmap in PATH: a clear error" {
	update_config '.linux.uidMappings = [{containerID: 0, hostID: 1000, size: 1}, {containerID: 1, hostID: 100000, size: 10}]'
	set_args true
	run timeout 120 setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
		env -i PATH=/nonexistent HOME=/home/$RL_USER XDG_RUNTIME_DIR="$XDG" "$RL_RUNTIME" run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 1 ]
	if is_kcrun; then
		[[ "$output" == *"linux.uidMappings: mapping more than your own id needs newuidmap (package uidmap), and it is not in PATH"* ]]
	else
		[[ "$output" == *"mapping tool not present"* ]]
	fi
	assert_nothing_left "$ID"
}

@test "the container's root cannot write to a read-only bind nor unmount a mask (/proc/keys)" {
	mkdir "$SHARED/ro"
	chown "$RL_UID:$RL_GID" "$SHARED/ro"
	update_config --arg s "$SHARED/ro" '.mounts += [{destination: "/ro", type: "bind", source: $s, options: ["rbind", "ro"]}]'
	# /proc/keys: a mask of the config that is there (this guest's kernel has
	# no /proc/kcore); the container first shows it is mounted
	set_args sh -c 'grep -c " /proc/keys " /proc/self/mountinfo; touch /ro/x && echo wrote; umount /proc/keys && echo unmasked; mount -o remount,rw /ro && echo remounted; touch /ro/y && echo wrote; echo end'
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1 ]
	[ "${lines[-1]}" = end ]
	[[ "$output" != *wrote* ]]
	[[ "$output" != *unmasked* ]]
	[[ "$output" != *remounted* ]]
	[ ! -e "$SHARED/ro/x" ]
	assert_nothing_left "$ID"
}

@test "kcrun: even with CAP_SYS_ADMIN in its namespace, the container's root cannot unmount a mask nor make a read-only bind writable" {
	is_kcrun || skip "the mounts are locked because kcrun makes them outside the container's user namespace (runc makes them inside)"
	mkdir "$SHARED/ro"
	chown "$RL_UID:$RL_GID" "$SHARED/ro"
	update_config --arg s "$SHARED/ro" '.mounts += [{destination: "/ro", type: "bind", source: $s, options: ["rbind", "ro"]}]
		| .process.capabilities |= with_entries(.value += ["CAP_SYS_ADMIN"])'
	set_args sh -c 'grep ^CapEff /proc/self/status; grep -c " /proc/keys " /proc/self/mountinfo; umount /proc/keys; echo "umount $?"; mount -o remount,rw /ro; echo "remount $?"; touch /ro/x; echo "touch $?"'
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = 1 ]
	# CAP_SYS_ADMIN (21) is in the effective set: the refusals are the locks'
	[ $(( 0x$(awk '/^CapEff/ { print $2 }' <<< "$output") >> 21 & 1 )) = 1 ]
	[[ "$output" == *"umount 1"* ]]
	[[ "$output" == *"remount 1"* ]]
	[[ "$output" == *"touch 1"* ]]
	[ ! -e "$SHARED/ro/x" ]
	assert_nothing_left "$ID"
}

@test "kcrun: a rootless container is a kernel object its user sees, scoped in its own user namespace" {
	is_kcrun || skip "kernel container objects are kcrun's"
	set_waiting_args
	urt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$SHARED/ready"
	# the user sees it in /proc/containers (it may administer it) ...
	run as_user awk 'NR > 1 { print $1 }' /proc/containers
	printf '%s\n' "$output" | grep -qx "$ID"
	# ... and root of the initial namespace does not find it by name (another
	# scope): container_open says ENOENT, which keys words as a container gone
	run "$RL_RUNTIME" --root "$ROOT" keys list "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container $ID is not running: its keyring is gone"* ]]
	# while the user, in the container's scope, does
	run urt keys list "$ID"
	[ "$status" -eq 0 ]
	urt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "a sysfs mount in a network namespace of its own shows only the container's devices" {
	# the host has more than lo (dummy0), or "only lo" proves nothing
	[ "$(ls /sys/class/net | wc -l)" -gt 1 ]
	# sysfs instead of spec --rootless's bind of the host's /sys; kcrun,
	# outside the new network namespace, is refused fsopen("sysfs") in the
	# host's and opens it from one of its own (mounts.c)
	update_config '.linux.namespaces += [{type: "network"}]
		| .mounts |= map(if .destination == "/sys" then {destination: "/sys",
			type: "sysfs", source: "sysfs", options: ["nosuid", "noexec", "nodev", "ro"]}
			else . end)'
	set_args sh -c 'ls /sys/class/net; grep " /sys " /proc/mounts | cut -d" " -f3'
	run urt run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'lo\nsysfs')" ]
	assert_nothing_left "$ID"
}
