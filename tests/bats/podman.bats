#!/usr/bin/env bats
# podman --runtime kcrun, in the Debian guest (vm/run --debian); skipped
# where podman or the busybox image archive is missing:
#   vm/run --debian --share DIR -- env BUSYBOX_IMAGE_TAR=/mnt/share/busybox.tar \
#       bats /usr/lib/kcrun/tests/bats/podman.bats
# (DIR holding $KCRUN_CACHE/images/busybox.tar).

IMAGE=localhost/busybox:latest

setup() {
	command -v podman >/dev/null || skip "no podman here"
	command -v kcrun >/dev/null || skip "no kcrun here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	if ! podman image exists "$IMAGE"; then
		tar=${BUSYBOX_IMAGE_TAR:-/mnt/share/busybox.tar}
		[ -r "$tar" ] || skip "no image archive at $tar"
		podman load -q -i "$tar" >/dev/null
	fi
}

pd() {
	timeout 120 podman --runtime kcrun "$@"
}

@test "podman run --rm prints the output and exits 0" {
	run pd run --rm --network none "$IMAGE" echo hi-from-podman
	[ "$status" -eq 0 ]
	[[ "$output" == *hi-from-podman* ]]
}

@test "podman run: exit status and a missing command (127)" {
	run pd run --rm --network none "$IMAGE" sh -c 'exit 5'
	[ "$status" -eq 5 ]
	run -127 pd run --rm --network none "$IMAGE" no-such-command
	[ "$status" -eq 127 ]
	[[ "$output" == *"executable file not found"* ]]
}

@test "podman run -d, exec, pause/unpause, top, rm -f" {
	pd run -d --name kc-p1 --network none "$IMAGE" sleep 100
	run pd exec kc-p1 echo exec-ok
	[ "$output" = exec-ok ]
	pd pause kc-p1
	[ "$(podman inspect -f '{{.State.Status}}' kc-p1)" = paused ]
	pd unpause kc-p1
	run pd top kc-p1
	[[ "$output" == *"sleep 100"* ]]
	pd rm -f -t 0 kc-p1
	[ ! -e /run/kcrun/"$(podman inspect -f '{{.Id}}' kc-p1 2>/dev/null)" ] || true
}

@test "podman run -t (console socket) and exec -t" {
	run pd run -t --rm --network none "$IMAGE" sh -c 'tty'
	[ "$status" -eq 0 ]
	[[ "$output" == */dev/pts/* ]]
}

@test "podman run --user and --memory" {
	run pd run --rm --network none --user 1000 "$IMAGE" id -u
	[ "$status" -eq 0 ]
	[[ "$output" == *1000* ]]
	run pd run --rm --network none --memory 64m "$IMAGE" cat /sys/fs/cgroup/memory.max
	[[ "$output" == *67108864* ]]
}
