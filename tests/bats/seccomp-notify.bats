#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Seccomp notify (SCMP_ACT_NOTIFY, linux.seccomp.listenerPath and
# listenerMetadata; src/lib/seccomp_notify.h): the runtime sends the
# filter's listener fd, with the container process state, to the agent at
# listenerPath; the agent answers the notified calls.  The agent
# (tests/helpers/seccomp-agent) answers each as a success that did
# nothing, so a notified mkdir "works" and makes no directory: only the
# agent can have answered.

load helpers

AGENT=/usr/lib/kcrun/tests/helpers/seccomp-agent

setup() {
	setup_bundle
	[ -x "$AGENT" ] || skip "no seccomp-agent (tests/helpers)"
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/rt-seccomp.XXXXXX")
	SOCK=$OUT/agent.sock
	AGENT_PIDS=
	update_config --arg s "$SOCK" '.linux.seccomp = {"defaultAction": "SCMP_ACT_ALLOW",
		"listenerPath": $s, "listenerMetadata": "kcrun-test",
		"syscalls": [{"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_NOTIFY"}]}'
}

teardown() {
	[ -z "$AGENT_PIDS" ] || kill $AGENT_PIDS 2>/dev/null || true
	teardown_bundle
	rm -rf "$OUT"
}

# agent NAME: an agent listening on $SOCK, its report in $OUT/NAME.
agent() {
	rm -f "$SOCK"
	timeout 300 "$AGENT" "$SOCK" "$OUT/$1" </dev/null >"$OUT/$1.log" 2>&1 &
	AGENT_PIDS="$AGENT_PIDS $!"
	wait_for 30 test -S "$SOCK"
}

@test "seccomp notify: the agent gets the listener with the state and metadata, and answers the container's mkdir" {
	agent run
	run_in_container sh -c 'mkdir /tmp/notified && echo made; [ -d /tmp/notified ] && echo exists || echo absent'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = made ]
	[ "${lines[1]}" = absent ]
	cat "$OUT/run"
	head -1 "$OUT/run" > "$OUT/run.json"
	[ "$(jq -c .fds "$OUT/run.json")" = '["seccompFd"]' ]
	[ "$(jq -r .metadata "$OUT/run.json")" = kcrun-test ]
	[ "$(jq -r .state.id "$OUT/run.json")" = "$ID" ]
	[ "$(jq -r .state.status "$OUT/run.json")" = creating ]
	[ "$(jq -r '.pid == .state.pid and .pid > 0' "$OUT/run.json")" = true ]
	[ "$(sed -n 2p "$OUT/run")" = fds=1 ]
	grep -q '^answered ' "$OUT/run"
}

@test "seccomp notify: exec gets a listener of its own, sent with the running state and its own pid" {
	agent init
	set_args sleep 1000
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 grep -q '^fds=1' "$OUT/init"
	agent exec
	run rt exec "$ID" sh -c 'mkdir /tmp/by-exec && echo made; [ -d /tmp/by-exec ] && echo exists || echo absent'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = made ]
	[ "${lines[1]}" = absent ]
	head -1 "$OUT/exec" > "$OUT/exec.json"
	[ "$(jq -r .state.status "$OUT/exec.json")" = running ]
	[ "$(jq -r .state.pid "$OUT/exec.json")" = "$(pid_of "$ID")" ]
	[ "$(jq -r '.pid != .state.pid' "$OUT/exec.json")" = true ]
	grep -q '^answered ' "$OUT/exec"
	rt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "seccomp notify: no agent at listenerPath fails create, naming the field, and leaves nothing" {
	set_args true
	run rt run --bundle "$BUNDLE" "$ID"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"linux.seccomp.listenerPath"*"$SOCK"* ]]
	assert_nothing_left "$ID"
}

@test "seccomp notify: a notify rule without listenerPath, or as the default action, is refused by name" {
	is_kcrun || skip "kcrun's wording"
	update_config 'del(.linux.seccomp.listenerPath)'
	set_args true
	run rt run --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"linux.seccomp.listenerPath: required by SCMP_ACT_NOTIFY"* ]]
	assert_nothing_left "$ID"
	update_config --arg s "$SOCK" '.linux.seccomp.listenerPath = $s | .linux.seccomp.defaultAction = "SCMP_ACT_NOTIFY"'
	run rt run --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be the default action"* ]]
	assert_nothing_left "$ID"
}
