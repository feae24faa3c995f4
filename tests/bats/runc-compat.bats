#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What test suites written for runc check, beyond the runtime spec: exit
# codes, the key words of runc's error messages, output formats and the
# order of its checks.  Every test passes with RUNTIME=runc (1.1) too.

load helpers

setup() {
	setup_bundle
}

teardown() {
	teardown_bundle
}

# A running container whose init is `sleep 1000`.
run_detached() {
	set_args sleep 1000
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" running
}

@test "help: global, per command, the h alias; an unknown topic is exit status 3" {
	run "$RUNTIME" help
	[ "$status" -eq 0 ]
	[[ "$output" == *"COMMANDS:"*"create"*"delete"*"kill"* ]]
	run "$RUNTIME" h
	[ "$status" -eq 0 ]
	[[ "$output" == *"COMMANDS:"* ]]
	run "$RUNTIME" help kill
	[ "$status" -eq 0 ]
	[[ "$output" == *"kill - kill sends the specified signal"* ]]
	[[ "$output" == *"--all"* ]]
	run "$RUNTIME" help nosuch
	[ "$status" -eq 3 ]
	[[ "$output" == *"No help topic for 'nosuch'"* ]]
	run "$RUNTIME" nosuch
	[ "$status" -eq 3 ]
	[[ "$output" == *"No help topic for 'nosuch'"* ]]
}

@test "-v: version, commit and spec lines" {
	run "$RUNTIME" -v
	[ "$status" -eq 0 ]
	[[ ${lines[0]} =~ version\ [0-9]+\.[0-9]+\.[0-9]+ ]]
	[[ ${lines[1]} =~ commit:+ ]]
	[[ ${lines[2]} =~ spec:\ [0-9]+\.[0-9]+\.[0-9]+ ]]
}

@test "COMMAND -h: help naming the command, for each of runc's commands" {
	cmds="create delete events exec kill list pause ps resume run spec start state update"
	# kcrun's checkpoint and restore refuse even -h (cli.bats): podman
	# takes a zero exit of `checkpoint --help` for checkpoint support
	is_kcrun || cmds="checkpoint restore $cmds"
	for cmd in $cmds; do
		run "$RUNTIME" "$cmd" -h
		[ "$status" -eq 0 ]
		[[ ${lines[1]} =~ $(basename "$RUNTIME")\ $cmd+ ]]
	done
}

@test "state, start, pause, ps of an unknown id: container does not exist" {
	for cmd in state start pause resume ps; do
		run rt "$cmd" nosuch
		[ "$status" -eq 1 ]
		[[ "$output" == *"container does not exist"* ]]
	done
}

@test "delete of a state dir without state.json (an interrupted create) removes it" {
	mkdir "$ROOT/$ID"
	run rt delete "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
	[ ! -e "$ROOT/$ID" ]
	mkdir "$ROOT/$ID"
	: > "$ROOT/$ID/leftover"
	run rt delete --force "$ID"
	[ "$status" -eq 0 ]
	[ ! -e "$ROOT/$ID" ]
}

@test "list skips a state dir without state.json with a note" {
	mkdir "$ROOT/half-created"
	run rt list -q
	[ "$status" -eq 0 ]
	[[ "$output" == *"load container half-created"*"container does not exist"* ]]
	run rt list
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "ID          PID         STATUS      BUNDLE      CREATED     OWNER" ]
}

@test "kill of an unknown id: container does not exist, before the signal is read" {
	run rt kill nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
	run rt kill nosuch NOSUCHSIGNAL
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
	[[ "$output" != *"unknown signal"* ]]
}

@test "kill: an unknown name is refused; a number kill(2) refuses: unable to signal init" {
	run_detached
	run rt kill "$ID" SIGNOSUCH
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown signal"*"SIGNOSUCH"* ]]
	for sig in 999 65 -9; do
		run rt kill "$ID" "$sig"
		[ "$status" -eq 1 ]
		[[ "$output" == *"unable to signal init: invalid argument"* ]]
	done
	[ "$(status_of "$ID")" = running ]
}

@test "kill of a stopped container: container not running; kill --all is no error" {
	set_args true
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" stopped
	run rt kill "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container not running"* ]]
	run rt kill "$ID" 999
	[ "$status" -eq 1 ]
	[[ "$output" == *"container not running"* ]]
	run rt kill --all "$ID" KILL
	[ "$status" -eq 0 ]
	run rt delete "$ID"
	[ "$status" -eq 0 ]
}

@test "delete of a running container without --force names its status" {
	run_detached
	run rt delete "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot delete container $ID that is not stopped: running"* ]]
	run rt delete --force "$ID"
	[ "$status" -eq 0 ]
	run rt state "$ID"
	[[ "$output" == *"container does not exist"* ]]
}

@test "exec: the process's exit status; the runtime's own failures are 255" {
	run_detached
	run rt exec "$ID" sh -c 'exit 42'
	[ "$status" -eq 42 ]
	run rt exec "$ID" false
	[ "$status" -eq 1 ]
	run rt exec "$ID" no-such-binary
	[ "$status" -eq 255 ]
	[[ "$output" == *"exec failed"*"executable file not found in \$PATH"* ]]
	run rt exec --cwd /nonexistent "$ID" true
	[ "$status" -eq 255 ]
	run rt exec --pid-file /nonexistent/dir/pid "$ID" true
	[ "$status" -eq 255 ]
	run rt exec nosuch true
	[ "$status" -eq 255 ]
	[[ "$output" == *"container does not exist"* ]]
	run rt exec "$ID"
	[ "$status" -eq 255 ]
	[[ "$output" == *"process args cannot be empty"* ]]
}

@test "exec --cap adds a capability; an unknown one is ignored with a warning" {
	run_detached
	run rt exec "$ID" grep CapEff /proc/self/status
	[ "$status" -eq 0 ]
	before=$(echo "$output" | awk '{ print $2 }')
	# CAP_SYS_ADMIN is bit 21: not in the default set
	(( (16#$before & (1 << 21)) == 0 ))
	run rt exec --cap CAP_SYS_ADMIN "$ID" grep CapEff /proc/self/status
	[ "$status" -eq 0 ]
	after=$(echo "$output" | awk '{ print $2 }')
	(( (16#$after & (1 << 21)) != 0 ))
	run rt exec --cap CAP_NOSUCH "$ID" true
	[ "$status" -eq 0 ]
	[[ "$output" == *"ignoring unknown or unavailable capabilities"*"CAP_NOSUCH"* ]]
}

@test "exec --no-new-privs, --additional-gids, --user" {
	update_config '.process.noNewPrivileges = false'
	run_detached
	run rt exec "$ID" grep NoNewPrivs /proc/self/status
	[[ "$output" == *"0" ]]
	run rt exec --no-new-privs "$ID" grep NoNewPrivs /proc/self/status
	[ "$status" -eq 0 ]
	[[ "$output" == *"1" ]]
	run rt exec --user 1000:1000 --additional-gids 10 --additional-gids 20 "$ID" \
		sh -c 'id -u; id -g; sed -n "s/^Groups:[[:space:]]*//p" /proc/self/status'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1000 ]
	[ "${lines[1]}" = 1000 ]
	# exactly 10 and 20 (a glob *10*20* took 1000,20)
	[ "$(echo ${lines[2]})" = "10 20" ]
}

@test "exec into a paused container is refused; --ignore-paused is a known flag" {
	run_detached
	run rt exec --ignore-paused "$ID" true
	[ "$status" -eq 0 ]
	rt pause "$ID"
	run rt exec "$ID" true
	[ "$status" -eq 255 ]
	[[ "$output" == *"paused"* ]]
	rt resume "$ID"
}

@test "exec --pid-file: a relative path is relative to the current directory" {
	run_detached
	mkdir "$BUNDLE/here"
	cd "$BUNDLE/here"
	rt exec -d --pid-file exec.pid "$ID" sleep 100 </dev/null >/dev/null 2>&1
	[ -s "$BUNDLE/here/exec.pid" ]
	pid=$(cat "$BUNDLE/here/exec.pid")
	[ "$(tr -d '\0' < "/proc/$pid/cmdline")" = sleep100 ]
}

@test "create --pid-file: a relative path; no newline; the pid state reports" {
	set_args sleep 100
	mkdir "$BUNDLE/here"
	cd "$BUNDLE/here"
	rt_bg create --bundle "$BUNDLE" --pid-file pid.txt "$ID"
	[ -s "$BUNDLE/here/pid.txt" ]
	[ "$(cat "$BUNDLE/here/pid.txt")" = "$(pid_of "$ID")" ]
	[ "$(tail -c 1 "$BUNDLE/here/pid.txt" | od -An -c | tr -d ' ')" != '\n' ]
	run rt delete "$ID"
	[ "$status" -eq 0 ]
}

@test "ps: --format json, ps options, a bad format, no PID column" {
	run_detached
	run rt ps --format json "$ID"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e 'length == 1'
	[ "$(echo "$output" | jq '.[0]')" = "$(pid_of "$ID")" ]
	run rt ps "$ID" -o pid,comm
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *PID*COMMAND* ]]
	[[ "${lines[1]}" == *sleep* ]]
	run rt ps --format bad "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *"invalid format option"* ]]
	run rt ps "$ID" -o pid=
	[ "$status" -eq 1 ]
	[[ "$output" == *"couldn't find PID field in ps output"* ]]
}

@test "list: OWNER is the user owning the state dir" {
	run_detached
	run rt list
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "$ID "*" running "*" root" ]]
	run rt list --format json
	echo "$output" | jq -e '.[0].owner == "root"'
}

@test "run --keep: the exit status, and a stopped container left to delete" {
	set_args sh -c 'exit 3'
	run rt run --keep --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 3 ]
	[ "$(status_of "$ID")" = stopped ]
	[ "$(pid_of "$ID")" = 0 ]
	run rt delete "$ID"
	[ "$status" -eq 0 ]
	[ ! -e "$ROOT/$ID" ]
}

@test "--debug: debug lines on stderr in logrus text" {
	set_args true
	run rt --debug run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[[ "$output" == *"level=debug"* ]]
}

@test "--debug --log --log-format json: every line is JSON with level, msg, time" {
	set_args true
	run rt --debug --log "$BUNDLE/log.json" --log-format json run --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	[[ "$output" != *"level=debug"* ]]
	[ -s "$BUNDLE/log.json" ]
	jq -e -s 'all(has("level") and has("msg") and has("time"))' "$BUNDLE/log.json"
	jq -e -s 'any(.level == "debug")' "$BUNDLE/log.json"
	run rt --debug --log "$BUNDLE/log.txt" run --bundle "$BUNDLE" "$ID-text"
	[ "$status" -eq 0 ]
	grep -q 'level=debug' "$BUNDLE/log.txt"
}

@test "an invalid --log-format is refused" {
	run rt --log-format yaml list
	[ "$status" -ne 0 ]
	[[ "$output" == *"invalid log-format"*"yaml"* ]]
}
