#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sd_notify through a container (src/lib/notify_socket.h), as runc relays
# it: with $NOTIFY_SOCKET, the container gets /run/notify/notify.sock, and
# its READY=1 reaches the given socket as READY=1 + MAINPID=<init>.  The
# first tests need only python3 (a listener standing in for systemd); the
# last one a real Type=notify unit, where systemd is PID 1 (vm/run --systemd).

load helpers

SD_NOTIFY=${SD_NOTIFY:-/usr/lib/kcrun/tests/helpers/sd-notify}

setup() {
	setup_bundle
	[ -x "$SD_NOTIFY" ] || skip "no sd-notify helper at $SD_NOTIFY"
	cp "$SD_NOTIFY" "$BUNDLE/rootfs/sd-notify"
	GATE=$(mktemp -d "$BATS_TEST_TMPDIR/gate.XXXXXX")
	update_config --arg g "$GATE" '.mounts += [{"destination": "/gate", "type": "bind",
		"source": $g, "options": ["rbind", "rw"]}]'
}

teardown() {
	[ -n "${UNIT:-}" ] && systemctl stop "$UNIT" >/dev/null 2>&1
	[ -n "${LISTENER:-}" ] && kill "$LISTENER" 2>/dev/null
	command -v podman >/dev/null && podman rm -f -t 0 "kc-sdn-$$" >/dev/null 2>&1
	teardown_bundle
}

# listen SOCKET OUT: a datagram socket standing in for systemd's: every
# message on a line of OUT ("|" for newlines), then the fds passed with
# BARRIER=1 closed (what systemd does to answer the barrier), so that a
# relay that returned has every line written.
listen() {
	command -v python3 >/dev/null || skip "no python3 here (the Debian guest has it)"
	python3 - "$1" "$2" <<'X' >/dev/null 2>&1 3>&- &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2] + ".ready", "w").close()
while True:
    msg, fds, _, _ = socket.recv_fds(s, 4096, 4)
    # the line before the answer: the relay returns once the fd is closed
    with open(sys.argv[2], "a") as out:
        out.write(msg.decode().replace("\n", "|") + "\n")
    for fd in fds:
        os.close(fd)
X
	LISTENER=$!
	wait_for 120 test -e "$2.ready"
}

@test "notify: start relays the container's READY=1 with init as MAINPID, then BARRIER=1" {
	listen "$BATS_TEST_TMPDIR/host.sock" "$BATS_TEST_TMPDIR/got"
	# (set_args splits on newlines: the container's printf makes the one
	# in its message)
	set_args sh -c 'ls /run/notify > /gate/seen; echo "$NOTIFY_SOCKET" > /gate/env; /sd-notify "STATUS=almost"; /sd-notify "$(printf "MAINPID=1\nREADY=1")"; exec sleep 1000'
	NOTIFY_SOCKET=$BATS_TEST_TMPDIR/host.sock rt_bg create --bundle "$BUNDLE" "$ID"
	NOTIFY_SOCKET=$BATS_TEST_TMPDIR/host.sock rt start "$ID"
	# start returned after the relay: systemd's side has it all already
	[ "$(cat "$BATS_TEST_TMPDIR/got")" = "READY=1|MAINPID=$(pid_of "$ID")
BARRIER=1" ]
	# the container sees its own socket, not the host's
	[ "$(cat "$GATE/env")" = /run/notify/notify.sock ]
	[ "$(cat "$GATE/seen")" = notify.sock ]
	rt delete --force "$ID"
	assert_nothing_left_of "$ID"
}

@test "notify: run -d waits for READY=1 as runc does; an init that dies first relays nothing" {
	listen "$BATS_TEST_TMPDIR/host.sock" "$BATS_TEST_TMPDIR/got"
	set_args sh -c '/sd-notify READY=1; exec sleep 1000'
	NOTIFY_SOCKET=$BATS_TEST_TMPDIR/host.sock rt_bg run -d --bundle "$BUNDLE" "$ID"
	[ "$(head -1 "$BATS_TEST_TMPDIR/got")" = "READY=1|MAINPID=$(pid_of "$ID")" ]
	rt delete --force "$ID"
	set_args sh -c 'exit 4'
	: > "$BATS_TEST_TMPDIR/got"
	NOTIFY_SOCKET=$BATS_TEST_TMPDIR/host.sock run rt run --bundle "$BUNDLE" "$ID"
	[ "$status" = 4 ]
	[ ! -s "$BATS_TEST_TMPDIR/got" ]
	assert_nothing_left_of "$ID"
}

@test "notify: without NOTIFY_SOCKET the container has no /run/notify" {
	set_args sh -c 'test ! -e /run/notify && test -z "$NOTIFY_SOCKET"'
	run env -u NOTIFY_SOCKET timeout 120 "$RUNTIME" --root "$ROOT" run --bundle "$BUNDLE" "$ID"
	[ "$status" = 0 ]
}

podman_running() {
	[ "$(podman inspect -f '{{.State.Status}}' "$1" 2>/dev/null)" = running ]
}

unit_state() {
	systemctl show -p ActiveState --value "$UNIT"
}

unit_active() {
	[ "$(unit_state)" = active ]
}

unit_done() {
	local s
	s=$(unit_state)
	[ "$s" = inactive ] || [ "$s" = failed ]
}

@test "notify: a Type=notify unit running kcrun run is active once the container is ready, its MainPID init" {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	UNIT=kc-notify-$$.service
	set_args sh -c 'trap "exit 0" TERM; while [ ! -e /gate/go ]; do sleep 0.1; done; /sd-notify READY=1; while :; do sleep 1; done'
	systemd-run --unit "$UNIT" --no-block -p Type=notify -p TimeoutStartSec=300 \
		"$(command -v "$RUNTIME")" --root "$ROOT" run --bundle "$BUNDLE" "$ID"
	wait_for_status "$ID" running 120
	# the container runs but has not said it is ready: the unit is starting
	[ "$(unit_state)" = activating ]
	touch "$GATE/go"
	wait_for 120 unit_active
	[ "$(systemctl show -p MainPID --value "$UNIT")" = "$(pid_of "$ID")" ]
	systemctl stop "$UNIT"
	wait_for 120 unit_done
	wait_for 60 test ! -e "$ROOT/$ID"
	assert_nothing_left_of "$ID"
}

@test "notify: podman --sdnotify=container in a Type=notify unit: active once the container says READY=1" {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	command -v podman >/dev/null || skip "no podman here"
	is_kcrun || skip "podman drives kcrun here"
	local image=localhost/busybox:latest
	if ! podman image exists "$image"; then
		[ -r "${BUSYBOX_IMAGE_TAR:-}" ] || skip "no image archive (BUSYBOX_IMAGE_TAR)"
		podman load -q -i "$BUSYBOX_IMAGE_TAR" >/dev/null
	fi
	UNIT=kc-podman-notify-$$.service
	systemd-run --unit "$UNIT" --no-block -p Type=notify -p NotifyAccess=all -p TimeoutStartSec=300 \
		"$(command -v podman)" --runtime "$(command -v "$RUNTIME")" run --rm --sdnotify=container \
		--network none --name "kc-sdn-$$" -v "$GATE:/gate" -v "$SD_NOTIFY:/sd-notify:ro" "$image" \
		sh -c 'trap "exit 0" TERM; while [ ! -e /gate/go ]; do sleep 0.1; done; /sd-notify READY=1; while :; do sleep 1; done'
	wait_for 180 podman container exists "kc-sdn-$$"
	wait_for 120 podman_running "kc-sdn-$$"
	# kcrun holds it, and systemd still waits for the container's word
	awk 'NR > 1 { print $1 }' /proc/containers | grep -qx "$(podman inspect -f '{{.Id}}' "kc-sdn-$$")"
	[ "$(unit_state)" = activating ]
	touch "$GATE/go"
	wait_for 120 unit_active
	systemctl stop "$UNIT"
	wait_for 120 unit_done
	wait_for 60 bash -c "! podman container exists kc-sdn-$$"
}
