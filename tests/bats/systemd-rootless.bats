#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The systemd cgroup driver rootless (docs/architecture.md "The systemd
# cgroup driver"): the user `rootless` (uid 1000) lingers (vm/build-debian),
# so logind starts user@1000.service, the user's own systemd with its D-Bus
# at /run/user/1000/bus, which delegates cpu, memory and pids to it.
# kcrun run by the user, or by rootless podman with its default cgroup
# manager, asks that manager for the container's scope.  Runs where systemd
# is PID 1 (the Debian guest of vm/run --systemd, tests/run-all).
#   vm/run --systemd -- env BUSYBOX_IMAGE_TAR=/var/lib/kcrun/images/busybox.tar \
#       bats /usr/lib/kcrun/tests/bats/systemd-rootless.bats

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

RL_USER=rootless
RL_UID=1000
RL_GID=1000
XDG=/run/user/$RL_UID
USER_TREE=/sys/fs/cgroup/user.slice/user-$RL_UID.slice/user@$RL_UID.service
IMAGE=localhost/busybox:latest

# user_manager_up: the user's systemd runs and its bus listens.
user_manager_up() {
	[ "$(systemctl is-active "user@$RL_UID.service")" = active ] && [ -S "$XDG/bus" ]
}

setup_file() {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	[ "$(id -u "$RL_USER" 2>/dev/null)" = "$RL_UID" ] || skip "no user $RL_USER ($RL_UID) here"
	[ -e "/var/lib/systemd/linger/$RL_USER" ] || skip "$RL_USER does not linger here"
	# logind starts the lingering user's manager at boot: wait for it
	wait_for 120 user_manager_up
}

setup() {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	user_manager_up || skip "no user manager for $RL_USER"
	is_kcrun || skip "kcrun's systemd driver"
	kcrun features | jq -e '.linux.cgroup.systemdUser' >/dev/null ||
		skip "this kcrun was built without the systemd driver"
	RL_RUNTIME=$(command -v "$RUNTIME")
	BUNDLE=$(mktemp -d "${TMPDIR:-/tmp}/rl-bundle.XXXXXX")
	cp -a "$BUSYBOX_BUNDLE/rootfs" "$BUNDLE/rootfs"
	chown -R "$RL_UID:$RL_GID" "$BUNDLE"
	chmod 755 "$BUNDLE"
	ID="sdrl${BATS_TEST_NUMBER}-$$"
	(cd "$BUNDLE" && as_user "$RL_RUNTIME" spec --rootless)
	update_config '.process.terminal = false'
}

teardown() {
	local id
	for id in $(ls "$XDG/kcrun" 2>/dev/null); do
		as_user "$RL_RUNTIME" --systemd-cgroup delete --force "$id" >/dev/null 2>&1 || true
	done
	for id in $(as_podman ps -aq --filter name='^kc-' 2>/dev/null); do
		as_podman rm -f -t 0 "$id" >/dev/null 2>&1 || true
	done
	rm -rf "${BUNDLE:-/nonexistent}"
}

# as_user CMD...: CMD as the user, with what a login gives it (its runtime
# dir and session bus) and nothing of root's, bounded.
as_user() {
	timeout 120 setpriv --reuid="$RL_UID" --regid="$RL_GID" --init-groups \
		env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/home/$RL_USER USER=$RL_USER LOGNAME=$RL_USER XDG_RUNTIME_DIR="$XDG" \
		DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG/bus" "$@" 3>&-
}

# in_user_scope CMD...: CMD as the user in a scope of its own manager, as a
# shell of a desktop session or podman's conmon runs.
in_user_scope() {
	as_user systemd-run --user --scope --quiet "$@"
}

# user_prop UNIT PROPERTY: what the user's manager says of it.
user_prop() {
	as_user systemctl --user show -p "$2" --value "$1"
}

user_unit_unloaded() {
	[ "$(user_prop "$1" LoadState)" = not-found ]
}

# as_podman ARGS...: rootless podman with the manager it ships with.
as_podman() {
	as_user podman --cgroup-manager systemd "$@"
}

# user_sees ID: the user finds the kernel container ID in /proc/containers
# (rootless containers are named in the user's own scope).
user_sees() {
	as_user awk 'NR > 1 { print $1 }' /proc/containers | grep -qx "$1"
}

@test "rootless systemd driver: kcrun-<id>.scope in the user's user.slice, with its limits; update and delete through the user's manager" {
	update_config '.linux.resources = {"memory": {"limit": 67108864}, "pids": {"limit": 42}}
		| .process.args = ["sleep", "1000"]'
	in_user_scope "$RL_RUNTIME" --systemd-cgroup run -d --bundle "$BUNDLE" "$ID" \
		</dev/null >"$BUNDLE/.out" 2>&1 || { cat "$BUNDLE/.out"; false; }
	local unit="kcrun-$ID.scope" dir="$USER_TREE/user.slice/kcrun-$ID.scope" pid
	[ "$(user_prop "$unit" ActiveState)" = active ]
	[ "$(user_prop "$unit" Slice)" = user.slice ]
	[ "$(user_prop "$unit" Delegate)" = yes ]
	[ "$(user_prop "$unit" MemoryMax)" = 67108864 ]
	[ "$(user_prop "$unit" TasksMax)" = 42 ]
	[ "$(cat "$dir/memory.max")" = 67108864 ]
	[ "$(cat "$dir/pids.max")" = 42 ]
	pid=$(as_user "$RL_RUNTIME" state "$ID" | jq -r .pid)
	grep -qx "0::${dir#/sys/fs/cgroup}" "/proc/$pid/cgroup"
	[ "$(cat "$dir/cgroup.procs")" = "$pid" ]
	user_sees "$ID"
	# the system manager has no such unit: the user's made it
	unit_unloaded "$unit"
	as_user "$RL_RUNTIME" --systemd-cgroup update --memory 134217728 "$ID"
	[ "$(cat "$dir/memory.max")" = 134217728 ]
	[ "$(user_prop "$unit" MemoryMax)" = 134217728 ]
	as_user "$RL_RUNTIME" --systemd-cgroup delete --force "$ID"
	wait_for 30 user_unit_unloaded "$unit"
	[ ! -e "$dir" ]
	[ ! -e "$XDG/kcrun/$ID" ]
	dead "$pid"
}

@test "rootless systemd driver: run outside the user's delegated tree fails clearly and leaves nothing" {
	update_config '.process.args = ["true"]'
	# bats' service is in system.slice: the user cannot move init from there
	run as_user "$RL_RUNTIME" --systemd-cgroup run --bundle "$BUNDLE" "$ID"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"kcrun runs outside the tree it delegates to the user: run kcrun in a unit of that manager"* ]]
	wait_for 30 user_unit_unloaded "kcrun-$ID.scope"
	[ ! -e "$USER_TREE/user.slice/kcrun-$ID.scope" ]
	[ ! -e "$XDG/kcrun/$ID" ]
	run user_sees "$ID"
	[ "$status" -ne 0 ]
}

@test "rootless podman --runtime kcrun with the systemd cgroup manager: libpod-<id>.scope of the user's manager, with its limits" {
	command -v podman >/dev/null || skip "no podman here"
	if ! as_user podman image exists "$IMAGE"; then
		[ -r "${BUSYBOX_IMAGE_TAR:-}" ] || skip "no image archive (BUSYBOX_IMAGE_TAR)"
		install -o "$RL_UID" -g "$RL_GID" -m 0600 "$BUSYBOX_IMAGE_TAR" "$BUNDLE/busybox.tar"
		as_user podman load -q -i "$BUNDLE/busybox.tar" >/dev/null
	fi
	local cid unit dir
	cid=$(as_podman --runtime kcrun run -d --network none --memory 64m --pids-limit 42 \
		--name "kc-sdrl-$$" "$IMAGE" sleep 1000)
	held_by kcrun "$XDG/kcrun" "$cid"
	unit="libpod-$cid.scope"
	dir="$USER_TREE/user.slice/$unit"
	[ "$(user_prop "$unit" ActiveState)" = active ]
	[ "$(user_prop "$unit" MemoryMax)" = 67108864 ]
	[ "$(user_prop "$unit" TasksMax)" = 42 ]
	[ "$(cat "$dir/memory.max")" = 67108864 ]
	[ "$(cat "$dir/pids.max")" = 42 ]
	[ "$(as_podman exec "kc-sdrl-$$" cat /proc/self/cgroup)" = "0::/" ]
	as_podman rm -f -t 0 "kc-sdrl-$$"
	wait_for 30 user_unit_unloaded "$unit"
	gone_from kcrun "$XDG/kcrun" "$cid"
}
