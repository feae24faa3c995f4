#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# containerd 1.6 (Debian 12) through its runc shim (io.containerd.runc.v2)
# with kcrun as the shim's binary (`ctr run --runc-binary`, the BinaryName
# option Kubernetes nodes set in config.toml), in the Debian guest
# (vm/run --debian).  The suite starts containerd and stops it at the end;
# skipped where containerd is missing:
#   vm/run --debian -- bats /usr/lib/kcrun/tests/bats/containerd.bats
# CTR_RUNTIME=runc (or crun) runs the same tests against another binary.
# Every test proves which binary ran its container: it is in
# `RUNTIME --root /run/containerd/runc/default list` while it runs, and for
# kcrun a kernel container object in /proc/containers.

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=docker.io/library/busybox:latest
RT=${CTR_RUNTIME:-kcrun}
# the shim's default root, namespace "default"
STATE=/run/containerd/runc/default

containerd_up() {
	ctr version >/dev/null 2>&1
}

setup_file() {
	command -v containerd >/dev/null || skip "no containerd here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	[ -r "$BUSYBOX_IMAGE_TAR" ] || skip "no image archive at $BUSYBOX_IMAGE_TAR"
	# A containerd left by Docker (docker.bats) would be Docker's: its own
	# socket under /run/docker; this one is the system's.
	start_daemon containerd "$BATS_FILE_TMPDIR/containerd.log" containerd
	if ! wait_for 180 containerd_up; then
		cat "$BATS_FILE_TMPDIR/containerd.log" >&2
		return 1
	fi
	docker_archive "$BUSYBOX_IMAGE_TAR" "$BATS_FILE_TMPDIR/busybox-docker.tar" "$IMAGE"
	ctr images import "$BATS_FILE_TMPDIR/busybox-docker.tar" >/dev/null
}

# ctr_clean: every kc-* task and container goes (a failed test's, too).
ctr_clean() {
	local c
	for c in $(ctr containers ls -q 2>/dev/null | grep '^kc-'); do
		ctr tasks kill -s KILL "$c" >/dev/null 2>&1
		ctr tasks rm -f "$c" >/dev/null 2>&1
		ctr containers rm "$c" >/dev/null 2>&1
	done
	return 0
}

teardown_file() {
	ctr_clean
	stop_daemon containerd
}

setup() {
	command -v "$RT" >/dev/null || skip "no $RT here"
	containerd_up || skip "containerd is not running"
	RT_BIN=$(command -v "$RT")
}

teardown() {
	ctr_clean
}

# ctrrun [OPTIONS] IMAGE ID CMD...: ctr run with the runtime under test
# as the runc shim's binary.
ctrrun() {
	timeout 180 ctr run --runc-binary "$RT_BIN" "$@"
}

# gated_mount: a bind of $GATE on /gate for ctr.
gate_mount() {
	echo "type=bind,src=$GATE,dst=/gate,options=rbind:rw"
}

task_status() {
	ctr tasks ls 2>/dev/null | awk -v id="$1" '$1 == id { print $3 }'
}

task_is() {
	[ "$(task_status "$1")" = "$2" ]
}

@test "ctr run --rm: the output, exit status 0, and the runtime ran it" {
	new_gate
	gated 'held_by "$RT" "$STATE" kc-c1' ctrrun --rm --mount "$(gate_mount)" "$IMAGE" kc-c1 \
		sh -c "$GATE_SH" gate echo hi-from-ctr
	[ "$status" -eq 0 ]
	[ "$output" = hi-from-ctr ]
	gone_from "$RT" "$STATE" kc-c1
	run ctr containers info kc-c1
	[ "$status" -ne 0 ]
}

@test "ctr run: exit codes 42 and a missing command" {
	new_gate
	gated 'held_by "$RT" "$STATE" kc-c42' ctrrun --rm --mount "$(gate_mount)" "$IMAGE" kc-c42 \
		sh -c "$GATE_SH" gate sh -c 'exit 42'
	[ "$status" -eq 42 ]
	run ctrrun --rm "$IMAGE" kc-c127 no-such-command
	[ "$status" -eq 1 ]
	[[ "$output" == *"OCI runtime create failed"*"executable file not found in \$PATH"* ]]
	gone_from "$RT" "$STATE" kc-c127
}

@test "ctr run -d, task exec and its exit status, kill, rm" {
	ctrrun -d "$IMAGE" kc-c2 sh -c 'trap "exit 7" TERM; while :; do sleep 0.1; done'
	held_by "$RT" "$STATE" kc-c2
	task_is kc-c2 RUNNING
	run timeout 120 ctr tasks exec --exec-id e1 kc-c2 echo exec-ok
	[ "$status" -eq 0 ]
	[ "$output" = exec-ok ]
	run timeout 120 ctr tasks exec --exec-id e2 kc-c2 sh -c 'exit 3'
	[ "$status" -eq 3 ]
	run timeout 120 ctr tasks exec --exec-id e3 --user 1000 kc-c2 id -u
	[ "$output" = 1000 ]
	run timeout 120 ctr tasks exec --exec-id e4 kc-c2 no-such-command
	[ "$status" -ne 0 ]
	[[ "$output" == *"executable file not found in \$PATH"* ]]
	ctr tasks kill -s TERM kc-c2
	wait_for 60 task_is kc-c2 STOPPED
	run ctr tasks rm kc-c2
	[ "$status" -eq 0 ]
	[[ "$output" == *"exit code 7"* || "$output" == *"exit status 7"* ]]
	ctr containers rm kc-c2
	gone_from "$RT" "$STATE" kc-c2
}

@test "ctr task pause/resume, metrics, kill -a, and a memory limit" {
	# init ignores TERM (set after its child is forked, kept across exec)
	ctrrun -d --memory-limit 67108864 "$IMAGE" kc-c5 \
		sh -c 'sleep 1000 & trap "" TERM; exec sleep 1001'
	held_by "$RT" "$STATE" kc-c5
	# ctr's spec mounts no cgroupfs: the limit is read from the guest side
	pid=$(ctr tasks ls | awk '$1 == "kc-c5" { print $2 }')
	cg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	[ "$cg" = /default/kc-c5 ]
	[ "$(cat "/sys/fs/cgroup$cg/memory.max")" = 67108864 ]
	ctr tasks pause kc-c5
	task_is kc-c5 PAUSED
	[ "$("$RT" --root "$STATE" state kc-c5 | jq -r .status)" = paused ]
	ctr tasks resume kc-c5
	task_is kc-c5 RUNNING
	run ctr tasks metrics kc-c5
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"memory.usage_in_bytes"* || "$output" == *"memory.usage"* ]]
	# kill -a reaches every process, not init alone: TERM ends the child
	# while init, which ignores it, runs on (KILL to init alone would end
	# them all with the pid namespace, and prove nothing)
	wait_for 30 pgrep -P "$pid" -f '^sleep 1000$'
	child=$(pgrep -P "$pid" -f '^sleep 1000$')
	ctr tasks kill -a -s TERM kc-c5
	wait_for 60 dead "$child"
	task_is kc-c5 RUNNING
	ctr tasks kill -a -s KILL kc-c5
	wait_for 60 task_is kc-c5 STOPPED
	ctr tasks rm kc-c5
	ctr containers rm kc-c5
	gone_from "$RT" "$STATE" kc-c5
}

@test "ctr run -t: a pseudo-terminal, and task exec -t" {
	command -v script >/dev/null || skip "no script(1)"
	new_gate
	gated 'held_by "$RT" "$STATE" kc-c3' tty_run ctr run -t --rm --runc-binary "$RT_BIN" \
		--mount "$(gate_mount)" "$IMAGE" kc-c3 \
		sh -c "$GATE_SH" gate sh -c 'tty; [ -t 0 ] && echo stdin-tty; exit 3'
	[ "$status" -eq 3 ]
	[ "$output" = "$(printf '/dev/pts/0\nstdin-tty')" ]
	ctrrun -d "$IMAGE" kc-c4 sleep 1000
	held_by "$RT" "$STATE" kc-c4
	run tty_run ctr tasks exec -t --exec-id t1 kc-c4 sh -c 'tty; exit 4'
	[ "$status" -eq 4 ]
	[[ "$output" == /dev/pts/* ]]
}
