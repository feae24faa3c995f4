#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The systemd cgroup driver (--systemd-cgroup, --cgroup-manager systemd;
# docs/architecture.md "The systemd cgroup driver"): a container's cgroup is
# a transient scope of systemd's, made with its limits as unit properties,
# stopped by delete.  Runs where systemd is PID 1: the Debian guest booted
# with vm/run --systemd (tests/run-all); skipped elsewhere.
#   vm/run --systemd -- bats /usr/lib/kcrun/tests/bats/systemd-cgroup.bats

load helpers
load engines

setup() {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	command -v systemctl >/dev/null || skip "no systemctl here"
	setup_bundle
	if [ "$(basename "$RUNTIME")" = kcrun ]; then
		"$RUNTIME" features | jq -e '.linux.cgroup.systemd' >/dev/null ||
			skip "this kcrun was built without the systemd driver"
	fi
}

teardown() {
	local id
	for id in $(ls "$ROOT" 2>/dev/null); do
		"$RUNTIME" --root "$ROOT" --systemd-cgroup delete --force "$id" >/dev/null 2>&1 || true
	done
	teardown_bundle
}

sd() {
	rt --systemd-cgroup "$@"
}

# unit_prop UNIT PROPERTY: what systemctl show says of it (value only).
unit_prop() {
	systemctl show -p "$2" --value "$1"
}

# unit_gone UNIT: systemd no longer has it loaded (not failed, not
# active): its name is free.  A stopped transient unit is unloaded by
# systemd's next garbage collection, so this waits for that.
unit_gone() {
	wait_for 30 unit_unloaded "$1" ||
		{ echo "$1: ActiveState $(unit_prop "$1" ActiveState), Result $(unit_prop "$1" Result)" >&2; return 1; }
}

@test "systemd driver: create makes kcrun-<id>.scope in system.slice, init runs in it, delete stops it" {
	set_args sleep 1000
	rt_bg --systemd-cgroup create --bundle "$BUNDLE" "$ID"
	local unit="kcrun-$ID.scope" pid
	[ "$(unit_prop "$unit" ActiveState)" = active ]
	[ "$(unit_prop "$unit" Slice)" = system.slice ]
	[ "$(unit_prop "$unit" Delegate)" = yes ]
	[ "$(unit_prop "$unit" ControlGroup)" = "/system.slice/$unit" ]
	pid=$(pid_of "$ID")
	grep -qx "0::/system.slice/$unit" "/proc/$pid/cgroup"
	# the kernel object is kcrun's, not a plain process tree
	in_proc_containers "$ID"
	# the holder that started the scope is gone: init is its only process
	[ "$(cat "/sys/fs/cgroup/system.slice/$unit/cgroup.procs")" = "$pid" ]
	run sd ps "$ID"
	[ "$status" = 0 ]
	[ "$(tail -n +2 <<< "$output" | wc -l)" = 1 ]
	sd start "$ID"
	wait_for_status "$ID" running
	sd kill "$ID" KILL
	wait_for_status "$ID" stopped
	sd delete "$ID"
	unit_gone "$unit"
	[ ! -e "/sys/fs/cgroup/system.slice/$unit" ]
	assert_nothing_left_of "$ID"
}

@test "systemd driver: slice:prefix:name with a nested slice; the limits are unit properties and cgroup files" {
	update_config --arg path "kcrun-test.slice:kt:$ID" '.linux.cgroupsPath = $path
		| .linux.resources.memory = {"limit": 67108864}
		| .linux.resources.pids = {"limit": 42}
		| .linux.resources.cpu = {"quota": 50000, "period": 100000}'
	set_args sleep 1000
	rt_bg --systemd-cgroup create --bundle "$BUNDLE" "$ID"
	local unit="kt-$ID.scope" dir="/sys/fs/cgroup/kcrun.slice/kcrun-test.slice/kt-$ID.scope"
	[ "$(unit_prop "$unit" Slice)" = kcrun-test.slice ]
	[ "$(unit_prop "$unit" ControlGroup)" = "/kcrun.slice/kcrun-test.slice/$unit" ]
	[ "$(unit_prop "$unit" MemoryMax)" = 67108864 ]
	[ "$(unit_prop "$unit" TasksMax)" = 42 ]
	[ "$(unit_prop "$unit" CPUQuotaPerSecUSec)" = 500ms ]
	[ "$(cat "$dir/memory.max")" = 67108864 ]
	[ "$(cat "$dir/pids.max")" = 42 ]
	[ "$(cat "$dir/cpu.max")" = "50000 100000" ]
	grep -qx "0::/kcrun.slice/kcrun-test.slice/$unit" "/proc/$(pid_of "$ID")/cgroup"
	# update: the cgroup file and systemd's own record of the unit
	sd update --memory 134217728 --pids-limit 50 "$ID"
	[ "$(cat "$dir/memory.max")" = 134217728 ]
	[ "$(unit_prop "$unit" MemoryMax)" = 134217728 ]
	[ "$(unit_prop "$unit" TasksMax)" = 50 ]
	# a daemon-reload re-applies systemd's values: still the updated ones
	systemctl daemon-reload
	[ "$(cat "$dir/memory.max")" = 134217728 ]
	sd delete --force "$ID"
	unit_gone "$unit"
	[ ! -e "$dir" ]
	assert_nothing_left_of "$ID"
}

@test "systemd driver: org.systemd.property.* annotations reach the unit, a bad one is refused with its name" {
	update_config '.annotations["org.systemd.property.CollectMode"] = "'"'inactive-or-failed'"'"
		| .annotations["org.systemd.property.TimeoutStopSec"] = "uint64 7"'
	set_args sleep 1000
	rt_bg --systemd-cgroup create --bundle "$BUNDLE" "$ID"
	[ "$(unit_prop "kcrun-$ID.scope" CollectMode)" = inactive-or-failed ]
	[ "$(unit_prop "kcrun-$ID.scope" TimeoutStopUSec)" = 7s ]
	sd delete --force "$ID"
	unit_gone "kcrun-$ID.scope"

	update_config '.annotations["org.systemd.property.TimeoutStopSec"] = "soon"'
	run sd create --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	[[ "$output" == *'annotations."org.systemd.property.TimeoutStopSec"'*'"soon" is not a value'* ]]
	unit_gone "kcrun-$ID.scope"
	assert_nothing_left_of "$ID"
}

@test "systemd driver: a cgroupsPath that is not slice:prefix:name is refused, naming the field, leaving nothing" {
	update_config '.linux.cgroupsPath = "/kcrun/plain"'
	run sd create --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	[[ "$output" == *'linux.cgroupsPath: expected "slice:prefix:name"'* ]]
	update_config '.linux.cgroupsPath = "system.slice:kcrun:x.slice"'
	run sd create --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	[[ "$output" == *"names a slice"* ]]
	assert_nothing_left_of "$ID"
	# the other way round: the cgroupfs driver names the flag it lacks
	update_config '.linux.cgroupsPath = "system.slice:kcrun:'"$ID"'"'
	run rt create --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	[[ "$output" == *"--systemd-cgroup"* ]]
	assert_nothing_left_of "$ID"
}

@test "systemd driver: a failed create stops the unit it started" {
	# a scope is made before the process: a missing executable fails after it
	set_args /no/such/binary
	run sd run --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	unit_gone "kcrun-$ID.scope"
	[ ! -e "/sys/fs/cgroup/system.slice/kcrun-$ID.scope" ]
	assert_nothing_left_of "$ID"
}

@test "systemd driver: run, exit, run again: the scope's name is free after delete (and after a failure)" {
	set_args sh -c 'exit 3'
	run sd run --bundle "$BUNDLE" "$ID"
	[ "$status" = 3 ]
	unit_gone "kcrun-$ID.scope"
	# killed by the kernel's OOM killer: systemd marks such a scope failed
	update_config '.linux.resources.memory = {"limit": 16777216, "swap": 16777216}'
	set_args sh -c 'x=a; while :; do x=$x$x; done'
	run sd run --bundle "$BUNDLE" "$ID"
	[ "$status" != 0 ]
	unit_gone "kcrun-$ID.scope"
	set_args echo again
	run sd run --bundle "$BUNDLE" "$ID"
	[ "$status" = 0 ]
	[ "$output" = again ]
	assert_nothing_left_of "$ID"
}

@test "systemd driver: --cgroup-manager systemd is the same driver, cgroupfs stays cgroupfs on this host" {
	set_args sleep 1000
	rt_bg --cgroup-manager systemd create --bundle "$BUNDLE" "$ID"
	[ "$(unit_prop "kcrun-$ID.scope" ActiveState)" = active ]
	rt --cgroup-manager systemd delete --force "$ID"
	unit_gone "kcrun-$ID.scope"
	rt_bg --cgroup-manager cgroupfs create --bundle "$BUNDLE" "$ID"
	grep -qx "0::/kcrun/$ID" "/proc/$(pid_of "$ID")/cgroup"
	[ "$(unit_prop "kcrun-$ID.scope" LoadState)" = not-found ]
	rt delete --force "$ID"
	assert_nothing_left_of "$ID"
}

@test "systemd driver: podman --cgroup-manager systemd --runtime kcrun puts the container in libpod-<id>.scope" {
	command -v podman >/dev/null || skip "no podman here"
	[ "$(basename "$RUNTIME")" = kcrun ] || skip "podman drives kcrun here"
	local image=localhost/busybox:latest cid
	if ! podman image exists "$image"; then
		[ -r "${BUSYBOX_IMAGE_TAR:-}" ] || skip "no image archive (BUSYBOX_IMAGE_TAR)"
		podman load -q -i "$BUSYBOX_IMAGE_TAR" >/dev/null
	fi
	cid=$(timeout 120 podman --cgroup-manager systemd --runtime kcrun run -d --network none \
		--memory 64m --name "kc-sd-$$" "$image" sleep 1000)
	held_by kcrun /run/kcrun "$cid"
	[ "$(unit_prop "libpod-$cid.scope" ActiveState)" = active ]
	[ "$(unit_prop "libpod-$cid.scope" MemoryMax)" = 67108864 ]
	[ "$(cat "/sys/fs/cgroup/machine.slice/libpod-$cid.scope/memory.max")" = 67108864 ]
	timeout 120 podman --cgroup-manager systemd rm -f -t 0 "kc-sd-$$"
	unit_gone "libpod-$cid.scope"
	gone_from kcrun /run/kcrun "$cid"
}
