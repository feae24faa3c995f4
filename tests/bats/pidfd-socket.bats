#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --pidfd-socket (runc 1.2's flag, on create, run and exec): the runtime
# sends a pidfd of the container's init, or of the exec'd process, to an
# AF_UNIX socket, as --console-socket gets the pty master.  The receiver
# (tests/helpers/pidfd-receiver) checks what came and signals the process
# through it, as runc's own test does.  Skipped for a runtime without the
# flag (runc before 1.2, crun 1.8).

load helpers

RECEIVER=/usr/lib/kcrun/tests/helpers/pidfd-receiver

setup() {
	setup_bundle
	"$RUNTIME" create --help 2>&1 | grep -q -- --pidfd-socket || skip "$RUNTIME has no --pidfd-socket"
	[ -x "$RECEIVER" ] || skip "no pidfd-receiver (tests/helpers)"
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/rt-pidfd.XXXXXX")
	SOCK=$OUT/pidfd.sock
	RECEIVER_PID=
}

teardown() {
	[ -z "$RECEIVER_PID" ] || kill "$RECEIVER_PID" 2>/dev/null || true
	teardown_bundle
	rm -rf "$OUT"
}

# receive [SIGNAL]: a receiver listening on $SOCK, its report in $OUT/got.
receive() {
	timeout 120 "$RECEIVER" "$SOCK" "$OUT/got" "$@" </dev/null >"$OUT/receiver.log" 2>&1 &
	RECEIVER_PID=$!
	wait_for 30 test -S "$SOCK"
}

# got_pidfd_of PID: one fd came, named "pidfd", for PID.
got_pidfd_of() {
	wait_for 60 grep -q '^fds=' "$OUT/got"
	cat "$OUT/got"
	[ "$(head -1 "$OUT/got")" = "fds=1 data=pidfd pid=$1" ]
}

@test "create --pidfd-socket: a pidfd of init; SIGKILL through it stops the container" {
	set_args sleep 1000
	receive 9
	rt_bg create --pid-file "$OUT/init.pid" --pidfd-socket "$SOCK" --bundle "$BUNDLE" "$ID"
	# the pid file, not state: the receiver may have killed init already
	got_pidfd_of "$(cat "$OUT/init.pid")"
	wait_for 60 grep -q exited "$OUT/got"
	wait_for_status "$ID" stopped
	rt delete "$ID"
	assert_nothing_left "$ID"
}

# SIGKILL: a SIGTERM could come before the container's sh has its trap, and
# a pid namespace's init ignores a signal it has no handler for
@test "run -d --pidfd-socket: a pidfd of init; SIGKILL through it ends the container" {
	set_args sleep 1000
	receive 9
	rt_bg run -d --pid-file "$OUT/init.pid" --pidfd-socket "$SOCK" --bundle "$BUNDLE" "$ID"
	got_pidfd_of "$(cat "$OUT/init.pid")"
	wait_for 60 grep -q exited "$OUT/got"
	wait_for_status "$ID" stopped
	rt delete "$ID"
	assert_nothing_left "$ID"
}

@test "exec --pidfd-socket: a pidfd of the exec'd process, not of init" {
	set_args sleep 1000
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	receive 9
	rt exec -d --pid-file "$OUT/exec.pid" --pidfd-socket "$SOCK" "$ID" sleep 999 \
		</dev/null >"$OUT/exec.log" 2>&1 || { cat "$OUT/exec.log"; false; }
	got_pidfd_of "$(cat "$OUT/exec.pid")"
	wait_for 60 grep -q exited "$OUT/got"
	[ "$(status_of "$ID")" = running ]
	rt delete --force "$ID"
	assert_nothing_left "$ID"
}

@test "create --pidfd-socket with nobody listening fails, naming the flag, and leaves nothing" {
	set_args sleep 1000
	run rt create --pidfd-socket "$OUT/nobody.sock" --bundle "$BUNDLE" "$ID"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--pidfd-socket"*"$OUT/nobody.sock"* ]]
	assert_nothing_left "$ID"
}
