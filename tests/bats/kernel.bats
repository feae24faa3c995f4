#!/usr/bin/env bats
# The kernel series: the guest runs the patched kernel and its selftests
# (tools/testing/selftests/containers, built by kernel/build-selftests and
# copied to /usr/lib/kcrun/selftests/containers).

SELFTESTS=${SELFTESTS:-/usr/lib/kcrun/selftests/containers}

load helpers

LIMIT=/proc/sys/user/max_containers

# containers_at_most N: /proc/containers lists at most N containers (a
# container a selftest made is gone once its last member is reaped).
containers_at_most() {
	[ "$(awk 'NR > 1' /proc/containers | wc -l)" -le "$1" ]
}

# Run one selftest binary; show its TAP output if it fails.  A selftest that
# lowers max_containers and fails before it restores it would break every
# suite after it: the limit is put back whatever happened, and a binary that
# changed it, or left a container behind, fails.
run_selftest() {
	local bin="$SELFTESTS/$1" limit_before limit_after containers_before
	[ -x "$bin" ] || skip "$1 not built"
	limit_before=$(cat "$LIMIT")
	containers_before=$(awk 'NR > 1' /proc/containers | wc -l)
	run "$bin"
	limit_after=$(cat "$LIMIT")
	echo "$limit_before" > "$LIMIT"
	if [ "$status" -ne 0 ]; then
		echo "$1 exited with status $status:"
		echo "$output"
		return 1
	fi
	if [ "$limit_after" != "$limit_before" ]; then
		echo "$1 left $LIMIT at $limit_after (it was $limit_before)"
		return 1
	fi
	wait_for 60 containers_at_most "$containers_before" || { echo "$1 left containers behind:"; cat /proc/containers; return 1; }
}

@test "the guest runs the patched kernel (uname -r ends in -kcrun)" {
	run uname -r
	[ "$status" -eq 0 ]
	[[ "$output" == *-kcrun ]]
}

@test "/proc/containers has the header and the <init> container" {
	[ -r /proc/containers ]
	run cat /proc/containers
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "NAME                             ID       USE FL OWNER    GROUP" ]
	[[ "${lines[1]}" =~ ^\<init\>\ +1\ +[0-9]+\ I\ +0\ +0$ ]]
}

@test "selftest: container_create_test" {
	run_selftest container_create_test
}

@test "selftest: container_fork_test" {
	run_selftest container_fork_test
}

@test "selftest: container_fs_test" {
	run_selftest container_fs_test
}

@test "selftest: container_socket_test" {
	run_selftest container_socket_test
}

@test "selftest: container_open_test" {
	run_selftest container_open_test
}

@test "selftest: container_setns_test" {
	run_selftest container_setns_test
}

@test "selftest: container_keys_test" {
	run_selftest container_keys_test
}

@test "selftest: container_stress_test (10,000 containers leave nothing behind)" {
	run_selftest container_stress_test
}
