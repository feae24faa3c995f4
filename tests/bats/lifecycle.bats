#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# create / start / state / kill / delete / run / list, as a user sees them.
# Written so the same tests pass with RUNTIME=runc or RUNTIME=crun where the
# behaviour is the runtime spec's.

load helpers

setup() {
	setup_bundle
}

teardown() {
	teardown_bundle
}

@test "create parks the container: state says created with a live pid" {
	set_args sleep 100
	run rt_bg create --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	run rt state "$ID"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r .status)" = created ]
	[ "$(echo "$output" | jq -r .id)" = "$ID" ]
	pid=$(echo "$output" | jq -r .pid)
	[ "$pid" -gt 0 ]
	kill -0 "$pid"
	[ "$(echo "$output" | jq -r .bundle)" = "$(cd "$BUNDLE" && pwd -P)" ]
}

@test "/proc/containers lists the container while it runs" {
	is_kcrun || skip "kcrun only"
	set_args sleep 100
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	run awk 'NR > 1 { print $1 }' /proc/containers
	[[ "$output" == *"$ID"* ]]
	rt delete --force "$ID"
	run awk 'NR > 1 { print $1 }' /proc/containers
	[[ "$output" != *"$ID"* ]]
}

@test "start runs the process: created -> running -> stopped after kill" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" "$ID"
	run rt start "$ID"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	wait_for_status "$ID" running
	run rt kill "$ID" KILL
	[ "$status" -eq 0 ]
	wait_for_status "$ID" stopped
	run rt delete "$ID"
	[ "$status" -eq 0 ]
	assert_nothing_left "$ID"
}

@test "the pid file holds the pid that state reports" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" --pid-file "$BUNDLE/pid" "$ID"
	[ -s "$BUNDLE/pid" ]
	[ "$(cat "$BUNDLE/pid")" = "$(pid_of "$ID")" ]
	# the process is init of the container, a sleep once started
	rt start "$ID"
	wait_for_status "$ID" running
	run cat "/proc/$(cat "$BUNDLE/pid")/cmdline"
	[[ "$output" == sleep* ]]
}

@test "run prints the process output and exits with its status" {
	run_in_container echo hello from the container
	[ "$status" -eq 0 ]
	[[ "$output" == *"hello from the container"* ]]
	run_in_container sh -c 'exit 7'
	[ "$status" -eq 7 ]
}

@test "run deletes the container afterwards" {
	run_in_container true
	[ "$status" -eq 0 ]
	assert_nothing_left "$ID"
}

@test "run: a process killed by a signal gives 128+signal" {
	set_args sleep 100
	"$RUNTIME" --root "$ROOT" run --bundle "$BUNDLE" "$ID" </dev/null >"$BUNDLE/.run-out" 2>&1 &
	runner=$!
	wait_for_status "$ID" running
	rt kill "$ID" KILL
	code=0
	wait "$runner" || code=$?
	[ "$code" -eq 137 ]
}

@test "run --detach leaves it running; delete --force stops and removes it" {
	set_args sleep 100
	run rt_bg run --detach --bundle "$BUNDLE" "$ID"
	[ "$status" -eq 0 ]
	wait_for_status "$ID" running
	pid=$(pid_of "$ID")
	run rt delete "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot delete container $ID that is not stopped: running"* ]] ||
		[[ "$output" == *"is not stopped"* ]] || [[ "$output" == *"running"* ]]
	run rt delete --force "$ID"
	[ "$status" -eq 0 ]
	dead "$pid"
	assert_nothing_left "$ID" "$pid"
}

@test "a missing args[0] fails at create: executable file not found in \$PATH" {
	set_args no-such-command
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *'executable file not found in $PATH'* ]]
	assert_nothing_left "$ID"
}

@test "a missing absolute args[0] fails at create: no such file or directory" {
	set_args /no/such/file
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"no such file or directory"* ]]
	assert_nothing_left "$ID"
}

@test "a non-executable args[0] fails at create: permission denied" {
	set_args /etc/passwd
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"permission denied"* ]]
	assert_nothing_left "$ID"
}

@test "a failed create leaves no process behind" {
	set_args /no/such/file
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	run rt state "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"does not exist"* ]]
	# no init parked on the exec fifo: no process in a cgroup named $ID
	# or with $ID on its command line (the parked init's is the runtime's)
	assert_nothing_left "$ID"
}

@test "create with an id in use fails and keeps the first container" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" "$ID"
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"container with given ID already exists"* ]]
	[ "$(status_of "$ID")" = created ]
}

@test "start twice: cannot start an already running container" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" "$ID"
	rt start "$ID"
	run rt start "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot start an already running container"* ]]
}

@test "start after exit: cannot start a container that has stopped" {
	set_args true
	rt_bg create --bundle "$BUNDLE" "$ID"
	rt start "$ID"
	wait_for_status "$ID" stopped
	run rt start "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot start a container that has stopped"* ]]
}

@test "unknown ids: container does not exist; delete --force is silent" {
	for cmd in state start kill delete; do
		run rt $cmd no-such-id
		[ "$status" -ne 0 ]
		[[ "$output" == *"does not exist"* ]]
	done
	run rt delete --force no-such-id
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "delete of a created container removes it (init never runs)" {
	set_args sh -c 'echo ran > /ran'
	rt_bg create --bundle "$BUNDLE" "$ID"
	pid=$(pid_of "$ID")
	run rt delete "$ID"
	[ "$status" -eq 0 ]
	dead "$pid"
	[ ! -e "$BUNDLE/rootfs/ran" ]
	assert_nothing_left "$ID" "$pid"
}

@test "kill takes signal names and numbers; the default is SIGTERM" {
	# /got gets "ready" once the traps are set, a line per signal after;
	# each kill waits for the line of the one before (two pending USR1s
	# would merge into one).
	set_args sh -c 'trap "echo term >> /got; exit 0" TERM; trap "echo usr1 >> /got" USR1; echo ready > /got; while :; do sleep 0.1; done'
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	got=$BUNDLE/rootfs/got
	wait_for_lines "$got" 1
	rt kill "$ID" USR1
	wait_for_lines "$got" 2
	rt kill "$ID" SIGUSR1
	wait_for_lines "$got" 3
	rt kill "$ID" 10
	wait_for_lines "$got" 4
	rt kill "$ID"
	wait_for_status "$ID" stopped
	run cat "$got"
	[ "$output" = "$(printf 'ready\nusr1\nusr1\nusr1\nterm')" ]
}

@test "kill of an unknown signal fails; kill of a stopped container fails" {
	set_args sleep 100
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	run rt kill "$ID" NOTASIGNAL
	echo "$output"
	[ "$status" -eq 1 ]
	# runc: "invalid signal: NOTASIGNAL"; crun: "unknown signal NOTASIGNAL"
	[[ "$output" == *"signal"*NOTASIGNAL* ]]
	[ "$(status_of "$ID")" = running ]
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	run rt kill "$ID" KILL
	[ "$status" -ne 0 ]
	[[ "$output" == *"not running"* ]]
}

@test "kill --all signals every process of the container" {
	# init (pid 1 of its namespace, TERM at its default) ignores TERM; its
	# children do not.  Killing init alone would leave them running.
	set_args sh -c 'sleep 100 & sleep 100 & echo started > /started; wait; echo children-gone > /gone; exec sleep 100'
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 30 test -e "$BUNDLE/rootfs/started"
	run rt kill --all "$ID" TERM
	[ "$status" -eq 0 ]
	wait_for 30 test -e "$BUNDLE/rootfs/gone"
	[ "$(status_of "$ID")" = running ]
}

@test "list shows containers in a table, as JSON, and ids with -q" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" "$ID"
	run rt list
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ID"*"PID"*"STATUS"*"BUNDLE"*"CREATED"*"OWNER"* ]]
	[[ "${lines[1]}" == "$ID "*" created "* ]]
	run rt list -q
	[ "$output" = "$ID" ]
	run rt list --format json
	[ "$(echo "$output" | jq -r '.[0].id')" = "$ID" ]
	[ "$(echo "$output" | jq -r '.[0].status')" = created ]
	[ "$(echo "$output" | jq -r '.[0].pid')" = "$(pid_of "$ID")" ]
}

@test "list of an empty root prints only the header" {
	run rt list
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	run rt list --format json
	[ "$output" = null ]
}

@test "the state dir is <root>/<id> and goes away on delete" {
	set_args sleep 100
	rt_bg create --bundle "$BUNDLE" "$ID"
	[ -d "$ROOT/$ID" ]
	rt delete --force "$ID"
	[ ! -e "$ROOT/$ID" ]
}

@test "a dead init is reported stopped, with pid 0" {
	set_args true
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" stopped
	run rt state "$ID"
	[ "$(echo "$output" | jq -r .pid)" = 0 ]
}

@test "state survives a reused pid: another process on init's pid is not the container" {
	case $(basename "$RUNTIME") in
	kcrun) field=.pid ;;
	runc) field=.init_process_pid ;;
	*) skip "edits the runtime's state.json (kcrun's or runc's)" ;;
	esac
	set_args true
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" stopped
	# init's pid now names an unrelated live process: a sleep of ours
	sleep 100 </dev/null >/dev/null 2>&1 &
	other=$!
	jq --argjson p "$other" "$field = \$p" "$ROOT/$ID/state.json" > "$ROOT/$ID/state.json.new"
	mv "$ROOT/$ID/state.json.new" "$ROOT/$ID/state.json"
	run rt state "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r .status)" = stopped ]
	run rt kill "$ID" KILL
	echo "$output"
	[ "$status" -ne 0 ]
	# the signal did not reach the process now holding the pid
	kill -0 "$other"
	kill "$other"
}

@test "run forwards signals to the container process" {
	set_args sh -c 'trap "exit 42" TERM; touch /trapped; while :; do sleep 0.1; done'
	"$RUNTIME" --root "$ROOT" run --bundle "$BUNDLE" "$ID" </dev/null >"$BUNDLE/.run-out" 2>&1 &
	runner=$!
	wait_for 30 test -e "$BUNDLE/rootfs/trapped"
	kill -TERM "$runner"
	code=0
	wait "$runner" || code=$?
	[ "$code" -eq 42 ]
}

@test "create then start then the process writes into the rootfs" {
	set_args sh -c 'echo created-and-started > /out'
	rt_bg create --bundle "$BUNDLE" "$ID"
	[ ! -e "$BUNDLE/rootfs/out" ]
	rt start "$ID"
	wait_for_status "$ID" stopped
	[ "$(cat "$BUNDLE/rootfs/out")" = created-and-started ]
}

@test "create + start with a non-root process.user (the exec fifo is 0622)" {
	update_config '.process.user = {"uid": 1000, "gid": 1000}'
	set_args sh -c 'id -u > /tmp/uid'
	chmod 1777 "$BUNDLE/rootfs/tmp"
	(umask 077 && rt_bg create --bundle "$BUNDLE" "$ID")
	rt start "$ID"
	wait_for_status "$ID" stopped
	[ "$(cat "$BUNDLE/rootfs/tmp/uid")" = 1000 ]
}

@test "run with process.terminal and no console socket relays the pty" {
	[ "$(basename "$RUNTIME")" = runc ] && skip "runc's relay needs a controlling terminal (/dev/tty)"
	update_config '.process.terminal = true'
	set_args sh -c 'tty; echo on-a-tty'
	run rt run --bundle "$BUNDLE" "$ID" </dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == */dev/pts/* ]]
	[[ "$output" == *on-a-tty* ]]
}

@test "create with process.terminal needs --console-socket" {
	update_config '.process.terminal = true'
	set_args sleep 100
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"console socket"* ]]
	assert_nothing_left "$ID"
}
