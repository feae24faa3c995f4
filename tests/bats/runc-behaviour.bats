#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Behaviours where kcrun differed from runc 1.1.5 (issue 13, part 4), each
# a small story a runc user or a tool written for runc relies on.  Every
# test passes with RUNTIME=runc too.

load helpers

CONSOLE_RECEIVER=${CONSOLE_RECEIVER:-$BATS_TEST_DIRNAME/../unit/lib/console-receiver}

setup() {
	setup_cgroup_suite rb
}

teardown() {
	local m
	# host mounts a test made under its bundle (rbind)
	for m in $(awk -v b="$BUNDLE" 'index($2, b) == 1 {print $2}' /proc/self/mounts | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	[ -n "${HELPER_PID:-}" ] && kill "$HELPER_PID" 2>/dev/null && wait "$HELPER_PID" 2>/dev/null
	[ -n "${FROZEN_DIR:-}" ] && echo 0 > "$FROZEN_DIR/cgroup.freeze" 2>/dev/null
	teardown_cgroup_suite
}

run_detached() {
	set_args "$@"
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" running
}

# ---------- devices ----------

@test "devices: a deny-all rule holds for init and exec even when linux.devices lists the node" {
	update_config '.linux.devices = [{path: "/dev/kmsg", type: "c", major: 1, minor: 11, fileMode: 438}]
		| .linux.resources.devices = [{allow: false, access: "rwm"}]'
	run_in_container sh -c 'echo kcrun-test > /dev/kmsg'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]

	ID=$ID-exec
	run_detached sleep 1000
	run rt exec "$ID" sh -c 'echo kcrun-test > /dev/kmsg'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
}

# runc's update.bats "update devices [minimal transition rules]": its rules
# (an access of "rwa") are accepted, and an update never opens a window in
# which the denied device can be read.
@test "devices: runc's minimal-transition rules are accepted and hold across updates" {
	requires_controller pids
	update_config '.linux.devices = [{path: "/dev/kmsg", type: "c", major: 1, minor: 11}]
		| .process.capabilities.bounding += ["CAP_SYSLOG"]
		| .process.capabilities.effective += ["CAP_SYSLOG"]
		| .process.capabilities.permitted += ["CAP_SYSLOG"]'
	# the control: with c 1:11 allowed, the same node and capabilities read
	# the log (an empty .out below then means the rules held)
	update_config '.linux.resources.devices = [{allow: false, access: "rwm"},
			{allow: true, type: "c", major: 1, minor: 11, access: "r"}]'
	set_args head -c 100 /dev/kmsg
	run rt run --bundle "$BUNDLE" "$ID-control" </dev/null
	echo "control: status $status, output: $output"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	rt delete --force "$ID-control"
	update_config '.linux.resources.devices = [{allow: false, access: "rwm"},
			{allow: false, type: "c", major: 1, minor: 11, access: "rwa"}]'
	run_detached sh -c 'while true; do head -c 100 /dev/kmsg 2>/dev/null; done'
	for _ in $(seq 10); do
		rt update --pids-limit 30 "$ID"
	done
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	cat "$BUNDLE/.out" "$BUNDLE/.err"
	[ ! -s "$BUNDLE/.out" ]
}

# ---------- terminal ----------

@test "terminal: the pty of run and exec belongs to process.user's uid" {
	[ -x "$CONSOLE_RECEIVER" ] || skip "console-receiver not built (make -C tests/unit/lib)"
	update_config '.process.terminal = true | .process.user = {uid: 1000, gid: 1000}'
	set_args sh -c 'stat -c "owner=%u" $(tty)'
	timeout 60 "$CONSOLE_RECEIVER" "$OUT/run.sock" "$OUT/run.out" &
	HELPER_PID=$!
	wait_for 10 test -S "$OUT/run.sock"
	rt_bg run -d --console-socket "$OUT/run.sock" --bundle "$BUNDLE" "$ID"
	wait "$HELPER_PID"
	HELPER_PID=
	cat "$OUT/run.out"
	grep -q "owner=1000" "$OUT/run.out"

	update_config '.process.terminal = false'
	ID=$ID-exec
	run_detached sleep 1000
	timeout 60 "$CONSOLE_RECEIVER" "$OUT/exec.sock" "$OUT/exec.out" &
	HELPER_PID=$!
	wait_for 10 test -S "$OUT/exec.sock"
	rt exec -t -d --user 1000:1000 --console-socket "$OUT/exec.sock" "$ID" \
		sh -c 'stat -c "owner=%u" $(tty)' </dev/null
	wait "$HELPER_PID"
	HELPER_PID=
	cat "$OUT/exec.out"
	grep -q "owner=1000" "$OUT/exec.out"
}

# ---------- hooks ----------

@test "hooks: startContainer runs after the seccomp filter applies" {
	update_config '.process.noNewPrivileges = true
		| .linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW",
			syscalls: [{names: ["mkdir", "mkdirat"], action: "SCMP_ACT_ERRNO"}]}
		| .hooks.startContainer = [{path: "/bin/sh", args: ["sh", "-c",
			"if mkdir /hook-dir 2>/dev/null; then echo allowed; else echo blocked; fi > /hook-result"]}]'
	run_in_container cat /hook-result
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = blocked ]
}

# add_nsenter_mount_hook PHASE: a hook of PHASE that enters init's mount
# namespace and bind-mounts $BUNDLE/hook-source onto rootfs/hook-file there,
# both named by their host paths.
add_nsenter_mount_hook() {
	command -v nsenter >/dev/null || skip "no nsenter"
	echo from-the-hook > "$BUNDLE/hook-source"
	local hook="pid=\$(jq -r .pid); touch $BUNDLE/rootfs/hook-file && nsenter -m -t \$pid mount --bind $BUNDLE/hook-source $BUNDLE/rootfs/hook-file"
	update_config --arg h "$hook" --arg sh "$(command -v sh)" --arg phase "$1" \
		'.hooks[$phase] = [{path: $sh, args: ["sh", "-c", $h],
			env: ["PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"]}]'
}

# runc's hooks_so.bats: a createRuntime hook bind-mounts a file into the
# bundle's rootfs from inside the container's mount namespace, naming both
# by their host paths.  runc's namespace still has the host's tree at that
# point (pivot_root comes later); kcrun's init waits for these hooks in a
# view of the host's mounts whose rootfs bind is the master of the
# container's root (src/lib/hook_view.h).
@test "hooks: a createRuntime hook bind-mounts a file into the rootfs through nsenter" {
	add_nsenter_mount_hook createRuntime
	run_in_container cat /hook-file
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = from-the-hook ]
}

# The same through a prestart hook, and what the container sees once it
# runs: its own tree (no host path, no bundle), its own processes (init
# only: nothing kcrun used while the hooks ran is left), the hook's mount;
# the host's mount table has none of it.
@test "hooks: after a prestart hook mounted by host paths, the container has its own tree only" {
	add_nsenter_mount_hook prestart
	run_in_container sh -c "echo /proc/[0-9]*; ls $BUNDLE 2>&1 >/dev/null | wc -l; cat /hook-file"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '/proc/1\n1\nfrom-the-hook')" ]
	! grep -q hook-file /proc/self/mountinfo
}

# ---------- mounts ----------

@test "mounts: rbind,ro makes only the top mount read-only" {
	mkdir -p "$BUNDLE/src/sub"
	mount -t tmpfs tmpfs "$BUNDLE/src/sub"
	update_config --arg s "$BUNDLE/src" \
		'.mounts += [{destination: "/mnt", type: "bind", source: $s, options: ["rbind", "ro"]}]'
	run_in_container sh -c 'touch /mnt/sub/f && echo sub=rw; touch /mnt/f 2>/dev/null || echo top=ro'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"sub=rw"* ]]
	[[ "$output" == *"top=ro"* ]]
}

@test "mounts: a read-only /dev with /dev/pts below it" {
	update_config '.mounts |= map(if .destination == "/dev" then .options += ["ro"] else . end)'
	run_in_container sh -c 'ls -d /dev/pts /dev/null; touch /dev/x 2>/dev/null || echo dev=ro'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/dev/pts"* ]]
	[[ "$output" == *"dev=ro"* ]]
}

# ---------- cgroups ----------

@test "cgroup: exec after init moved to a sub-cgroup and enabled controllers joins init's cgroup" {
	requires_cgroup2
	requires_controller pids
	use_cgroup
	update_config '.linux.namespaces += [{type: "cgroup"}] | .linux.resources.pids = {limit: 100}
		| .mounts |= map(if .type == "cgroup" or .type == "cgroup2"
			then .options = (.options - ["ro"] + ["rw"]) else . end)'
	# (one line: set_args takes one argument a line)
	set_args sh -c 'set -x; cd /sys/fs/cgroup && mkdir foo && echo $$ > foo/cgroup.procs && echo +pids > cgroup.subtree_control && exec sleep 1000'
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 grep -qw pids "$CGROUP_DIR/cgroup.subtree_control" || {
		cat "$BUNDLE/.out" "$BUNDLE/.err"
		false
	}
	run rt exec "$ID" cat /proc/self/cgroup
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "0::/foo" ]
}

@test "cgroup: exec --cgroup takes a path relative to the container's cgroup; runc's errors" {
	requires_cgroup2
	use_cgroup
	run_detached sleep 1000
	mkdir "$CGROUP_DIR/sub"
	for sub in sub /sub ./sub/../sub; do
		run rt exec --cgroup "$sub" "$ID" cat /proc/self/cgroup
		echo "--cgroup $sub: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == "0::"*"/$ID/sub" ]]
	done
	run rt exec --cgroup nosuch "$ID" true
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"error adding pid"*"no such file or directory"* ]]
	run rt exec --cgroup ../x "$ID" true
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"../x is not a sub cgroup path"* ]]
	run rt exec --cgroup pids:sub "$ID" true
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"unknown controller pids"* ]]
	run rt exec --cgroup a:b:c "$ID" true
	echo "$output"
	[ "$status" -eq 255 ]
	[[ "$output" == *"invalid --cgroup argument: a:b:c"* ]]
}

@test "cgroup: run into an existing frozen cgroup is refused, not hung" {
	requires_cgroup2
	use_cgroup
	mkdir -p "$CGROUP_DIR"
	FROZEN_DIR=$CGROUP_DIR
	echo 1 > "$CGROUP_DIR/cgroup.freeze"
	set_args sleep 1000
	# through a file: an init left frozen would hold a pipe open for ever
	status=0
	timeout 60 "$RUNTIME" --root "$ROOT" run -d --bundle "$BUNDLE" "$ID" </dev/null \
		>"$OUT/run.log" 2>&1 || status=$?
	output=$(cat "$OUT/run.log")
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container's cgroup unexpectedly frozen"* ]]
	echo 0 > "$CGROUP_DIR/cgroup.freeze"
	rmdir "$CGROUP_DIR"
}

@test "cgroup: run into a cgroup that has processes warns" {
	requires_cgroup2
	use_cgroup
	mkdir -p "$CGROUP_DIR"
	sleep 1000 </dev/null >/dev/null 2>&1 &
	HELPER_PID=$!
	echo "$HELPER_PID" > "$CGROUP_DIR/cgroup.procs"
	set_args true
	run rt run --bundle "$BUNDLE" "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"container's cgroup is not empty: 1 process(es) found"* ]]
	# runc leaves the stranger in the cgroup, kcrun's delete kills it
	kill "$HELPER_PID" 2>/dev/null || true
	wait "$HELPER_PID" 2>/dev/null || true
	HELPER_PID=
	rmdir "$CGROUP_DIR" 2>/dev/null || true
}

# ---------- debug ----------

@test "--debug exec prints the exec's start and exit" {
	run_detached sleep 1000
	run timeout 60 "$RUNTIME" --root "$ROOT" --debug exec "$ID" true
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"level=debug"*"child process in init()"* ]]
	[[ "$output" == *"level=debug"*"process exited"* ]]
}

# ---------- signals ----------

@test "signals: init and exec start with no signal ignored or blocked" {
	# the caller (conmon, a shell) may ignore SIGPIPE: the process must not
	update_config '.process.args = ["grep", "^Sig\\(Ign\\|Blk\\)", "/proc/self/status"]'
	run bash -c "trap '' PIPE; timeout 60 $RUNTIME --root $ROOT run --bundle $BUNDLE $ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c ':[[:space:]]*0000000000000000$')" -eq 2 ]

	ID=$ID-exec
	run_detached sleep 1000
	run bash -c "trap '' PIPE; timeout 60 $RUNTIME --root $ROOT exec $ID grep '^Sig\\(Ign\\|Blk\\)' /proc/self/status"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c ':[[:space:]]*0000000000000000$')" -eq 2 ]
}

# conmon's --timeout kills the process group of the container's process
# (kill(-getpgid(pid))): that group must be the process's own, not
# conmon's, as with runc, whose init and exec'd processes call setsid.
@test "sessions: init and exec lead a session and process group of their own" {
	run_in_container cat /proc/self/stat
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | awk '{print $1, $5, $6}')" = "1 1 1" ]

	ID=$ID-exec
	run_detached sleep 1000
	run rt exec "$ID" cat /proc/self/stat
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | awk '$1 == $5 && $1 == $6 {ok = 1} END {exit !ok}'
}
