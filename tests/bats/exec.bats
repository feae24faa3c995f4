#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# exec, pause/resume, ps, update on a running container.

load helpers

setup() {
	setup_bundle
	set_args sleep 1000
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" running
}

teardown() {
	teardown_bundle
}

@test "exec runs a command in the container's namespaces and returns its status" {
	run rt exec "$ID" sh -c 'echo $$ > /dev/null; hostname; exit 3'
	[ "$status" -eq 3 ]
	[ "$output" = umoci-default ]
}

@test "exec sees the container's processes and filesystem" {
	echo marker > "$BUNDLE/rootfs/marker"
	run rt exec "$ID" sh -c 'cat /marker; ps -o pid,comm | grep -c sleep'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = marker ]
	[ "${lines[1]}" = 1 ]
}

@test "exec --env, --cwd and --user" {
	run rt exec --env FOO=bar --cwd /tmp --user 1000:1000 "$ID" sh -c 'echo $FOO; pwd; id -u; id -g'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = bar ]
	[ "${lines[1]}" = /tmp ]
	[ "${lines[2]}" = 1000 ]
	[ "${lines[3]}" = 1000 ]
}

@test "exec --process takes a process.json" {
	jq '.process | .args = ["echo", "from-process-json"]' "$BUNDLE/config.json" > "$BUNDLE/process.json"
	run rt exec --process "$BUNDLE/process.json" "$ID"
	[ "$status" -eq 0 ]
	[ "$output" = from-process-json ]
}

@test "exec --detach --pid-file: the pid is a process of the container" {
	rt exec --detach --pid-file "$BUNDLE/exec.pid" "$ID" sleep 500 </dev/null >/dev/null 2>&1
	pid=$(cat "$BUNDLE/exec.pid")
	kill -0 "$pid"
	[ "$(readlink /proc/$pid/ns/pid)" = "$(readlink /proc/$(pid_of "$ID")/ns/pid)" ]
	[ "$(readlink /proc/$pid/ns/mnt)" = "$(readlink /proc/$(pid_of "$ID")/ns/mnt)" ]
}

@test "exec of a missing command fails with runc's message" {
	run rt exec "$ID" no-such-command
	[ "$status" -ne 0 ]
	[[ "$output" == *'executable file not found in $PATH'* ]]
}

@test "an exec'd process is a member of the container: /proc/containers shows it first" {
	# (CAP_SYS_ADMIN: /proc/containers shows what its reader may administer)
	run rt exec --cap CAP_SYS_ADMIN "$ID" sh -c 'sed -n 2p /proc/containers'
	echo "$output"
	[ "$status" -eq 0 ]
	# (a process that only joined the namespaces sees the host's <init>)
	[[ "$output" == "$ID "* ]]
}

@test "an exec'd process dies with init even without a pid namespace" {
	rt delete -f "$ID"
	update_config '.linux.namespaces |= map(select(.type != "pid"))'
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" running
	rt exec --detach --pid-file "$BUNDLE/exec.pid" "$ID" sleep 501 </dev/null >/dev/null 2>&1
	pid=$(cat "$BUNDLE/exec.pid")
	grep -q 'sleep' "/proc/$pid/cmdline"
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	# init's death kills every member (a process that only joined the
	# namespaces would run on: no pid namespace takes it down)
	wait_for 30 sh -c "! grep -qs '^State:.*[RSD]' /proc/$pid/status"
}

@test "an exec'd process is in the container's session keyring, as runc's exec" {
	cp /usr/lib/kcrun/tests/helpers/keytool "$BUNDLE/rootfs/keytool"
	run rt exec "$ID" /keytool describe @s
	echo "$output"
	[ "$status" -eq 0 ]
	# (without it, @s falls back to root's user-session keyring: the host's)
	[[ "$output" == *";_ses.$ID" ]]
}

@test "exec in a stopped container fails" {
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	run rt exec "$ID" true
	[ "$status" -ne 0 ]
	[[ "$output" == *stopped* ]]
}

@test "pause and resume: state says paused, then running" {
	[ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no cgroup v2"
	run rt pause "$ID"
	[ "$status" -eq 0 ]
	[ "$(status_of "$ID")" = paused ]
	run rt resume "$ID"
	[ "$status" -eq 0 ]
	[ "$(status_of "$ID")" = running ]
}

@test "ps lists the container's processes" {
	[ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no cgroup v2"
	run rt ps --format json "$ID"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.[0]')" = "$(pid_of "$ID")" ]
	run rt ps "$ID"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *PID* ]]
	[[ "$output" == *sleep* ]]
}

@test "update --resources writes the new limits" {
	[ -f /sys/fs/cgroup/cgroup.controllers ] || skip "no cgroup v2"
	echo '{"pids": {"limit": 77}}' > "$BUNDLE/res.json"
	run rt update --resources "$BUNDLE/res.json" "$ID"
	[ "$status" -eq 0 ]
	cg=$(awk -F: '$1 == "0" { print $3 }' /proc/$(pid_of "$ID")/cgroup)
	[ "$(cat /sys/fs/cgroup$cg/pids.max)" = 77 ]
}
