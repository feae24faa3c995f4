#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kcrun killed (SIGKILL) at every step of create, start, run, exec and
# delete, and at random moments from outside: afterwards `delete --force`
# leaves no state dir, cgroup, kernel container object or process, and the
# same id can be created again.  The steps are kcrun's trace points
# (KCRUN_KILL_AT=STEP, src/lib/log.h): the production binary, no test build.

load helpers

setup() {
	setup_bundle
	is_kcrun || skip "KCRUN_KILL_AT is kcrun's"
	# a command line no other process has
	TAG=$((7000 + BATS_TEST_NUMBER * 10 + RANDOM % 10))
	set_args sleep "$TAG"
}

teardown() {
	teardown_bundle
}

# init_alone_in_cgroup: $ID's cgroup holds init and nothing else.
init_alone_in_cgroup() {
	[ "$(cgroup_procs_of "$ID")" = "$(pid_of "$ID")" ]
}

# no_process_left: no process runs the container's `sleep TAG`.
no_process_left() {
	local f
	for f in /proc/[0-9]*/cmdline; do
		if [ "$(tr '\0' ' ' < "$f" 2>/dev/null)" = "sleep $TAG " ]; then
			echo "process ${f#/proc/} (sleep $TAG) left behind" >&2
			return 1
		fi
	done
}

# killed_at STEP CMD...: the runtime, killed when it reaches STEP.
# Its output goes to a file, not to bats' `run`: an init left behind keeps
# the fds it inherited, and `run` would wait for that pipe forever.
killed_at() {
	local status=0
	env KCRUN_KILL_AT="$1" timeout 120 "$RUNTIME" --root "$ROOT" "${@:2}" \
		</dev/null >"$BUNDLE/.out" 2>&1 || status=$?
	if [ "$status" -ne 137 ]; then
		echo "kcrun $2 was not killed at \"$1\" (status $status): $(cat "$BUNDLE/.out")"
		return 1
	fi
}

# cleaned_and_reusable ID: delete --force, nothing left, the id works again.
cleaned_and_reusable() {
	rt delete --force "$1"
	assert_nothing_left "$1"
	no_process_left
	rt_bg create --bundle "$BUNDLE" "$1"
	[ "$(status_of "$1")" = created ]
	rt delete --force "$1"
	assert_nothing_left "$1"
}

@test "kcrun create killed at each step: delete --force leaves nothing, the id is reusable" {
	local step
	for step in "config parsed" "state dir" "cgroup" "container_create" \
		"mounts, devices, network" "init released" "init ready" "state written"; do
		killed_at "$step" create --bundle "$BUNDLE" "$ID"
		cleaned_and_reusable "$ID"
	done
}

@test "kcrun run killed at each step: delete --force leaves nothing" {
	local step
	for step in "container_create" "init released" "created"; do
		killed_at "$step" run --bundle "$BUNDLE" "$ID"
		cleaned_and_reusable "$ID"
	done
}

@test "kcrun start killed at each step: delete --force leaves nothing" {
	local step
	for step in "start: locked" "start: released"; do
		rt_bg create --bundle "$BUNDLE" "$ID"
		killed_at "$step" start "$ID"
		cleaned_and_reusable "$ID"
	done
}

@test "kcrun delete killed at each step: a second delete --force finishes the job" {
	local step
	for step in "delete: init dead" "delete: cgroup removed"; do
		rt_bg run -d --bundle "$BUNDLE" "$ID"
		killed_at "$step" delete --force "$ID"
		cleaned_and_reusable "$ID"
	done
}

@test "kcrun exec killed before it released the process: no process is left in the container" {
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	local tag=$TAG
	TAG=$((TAG + 1))
	killed_at "exec: joined" exec "$ID" sleep "$TAG"
	no_process_left
	# nor a member parked in kcrun's code, or one that execs later: the
	# container's cgroup comes back to init alone
	wait_for 30 init_alone_in_cgroup || {
		echo "in $ID's cgroup: $(cgroup_procs_of "$ID"), init: $(pid_of "$ID")"
		return 1
	}
	[ "$(status_of "$ID")" = running ]
	TAG=$tag
	cleaned_and_reusable "$ID"
}

@test "kcrun create killed from outside at random moments: delete --force leaves nothing" {
	local i pid
	for i in $(seq 8); do
		# kcrun itself, not a wrapper: the kill must reach it
		"$RUNTIME" --root "$ROOT" create --bundle "$BUNDLE" "$ID" </dev/null >/dev/null 2>&1 &
		pid=$!
		# 0 to 150 ms into the create
		sleep "0.$(printf '%03d' $((RANDOM % 150)))"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" || true
		cleaned_and_reusable "$ID"
	done
}
