#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest the other suites rely on.

@test "the guest booted the patched kernel (uname -r ends in -kcrun)" {
	run uname -r
	[ "$status" -eq 0 ]
	[[ "$output" == *-kcrun ]]
}

@test "the guest root is a tmpfs, not the initramfs rootfs (pivot_root works on it)" {
	run awk '$2 == "/" { print $3 }' /proc/mounts
	[ "$output" = tmpfs ]
}

@test "cgroup v2 is mounted with controllers delegated to children" {
	run cat /sys/fs/cgroup/cgroup.subtree_control
	[ "$status" -eq 0 ]
	[[ "$output" == *memory* ]]
	[[ "$output" == *pids* ]]
}

@test "the built-in busybox bundle is unpacked with relative applet links" {
	bundle=/var/lib/kcrun/bundles/busybox
	[ -f "$bundle/config.json" ]
	[ -x "$bundle/rootfs/bin/busybox" ]
	[ "$(readlink "$bundle/rootfs/usr/bin/awk")" = ../../bin/busybox ]
	run jq -r '.process.args[0]' "$bundle/config.json"
	[ "$output" = /bin/sh ]
}

@test "a reference runtime (runc) runs the busybox bundle in this guest" {
	command -v runc || skip "runc not in the guest"
	dir=$(mktemp -d /run/ref.XXXXXX)
	cp -a /var/lib/kcrun/bundles/busybox/. "$dir/"
	jq '.process.args = ["echo", "ref-ok"]' /var/lib/kcrun/bundles/busybox/config.json > "$dir/config.json"
	run runc run --bundle "$dir" "ref-$$"
	rm -rf "$dir"
	[ "$status" -eq 0 ]
	[[ "$output" == *ref-ok* ]]
}
