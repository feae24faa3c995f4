# SPDX-License-Identifier: GPL-2.0-or-later
# Common helpers for the runtime suites (lifecycle.bats, config.bats, ...).
# Every test is a small story: copy the busybox bundle, edit its config.json
# with jq, drive the runtime, check what a user would see.  The same tests
# run against runc or crun with RUNTIME=runc / RUNTIME=crun.

RUNTIME=${RUNTIME:-kcrun}
BUSYBOX_BUNDLE=${BUSYBOX_BUNDLE:-/var/lib/kcrun/bundles/busybox}

# Skips when the runtime cannot run containers here (kcrun needs the
# patched kernel's container objects).
requires_runtime() {
	command -v "$RUNTIME" >/dev/null || skip "$RUNTIME not installed"
	if [ "$(basename "$RUNTIME")" = kcrun ] && [ ! -e /proc/containers ]; then
		skip "this kernel has no container objects (/proc/containers)"
	fi
	[ -d "$BUSYBOX_BUNDLE/rootfs" ] || skip "no busybox bundle at $BUSYBOX_BUNDLE"
}

# Sets ROOT (the runtime's --root), BUNDLE (a private copy of the busybox
# bundle) and ID (a container id unique to the test).
setup_bundle() {
	requires_runtime
	ROOT=$(mktemp -d "${TMPDIR:-/tmp}/rt-root.XXXXXX")
	BUNDLE=$(mktemp -d "${TMPDIR:-/tmp}/rt-bundle.XXXXXX")
	cp -a "$BUSYBOX_BUNDLE/rootfs" "$BUNDLE/rootfs"
	jq '.root.path = "rootfs" | .process.terminal = false' \
		"$BUSYBOX_BUNDLE/config.json" > "$BUNDLE/config.json"
	ID="t${BATS_TEST_NUMBER}-$$"
}

teardown_bundle() {
	local id
	if [ -n "${ROOT:-}" ] && [ -d "$ROOT" ]; then
		for id in $(ls "$ROOT" 2>/dev/null); do
			"$RUNTIME" --root "$ROOT" delete --force "$id" >/dev/null 2>&1 || true
		done
		rm -rf "$ROOT"
	fi
	[ -n "${BUNDLE:-}" ] && rm -rf "$BUNDLE"
	return 0
}

# rt ARGS...: the runtime with the test's --root, bounded: a hung runtime
# fails its test instead of the whole guest run.
rt() {
	timeout 120 "$RUNTIME" --root "$ROOT" "$@"
}

# rt_bg ARGS...: create / run --detach a container whose process outlives
# the command: its stdio must not be bats' pipes, or bats waits for it.
# The runtime's own errors are printed on failure.
rt_bg() {
	rt "$@" </dev/null >"$BUNDLE/.out" 2>"$BUNDLE/.err" || {
		cat "$BUNDLE/.out" "$BUNDLE/.err"
		return 1
	}
}

# update_config JQ-FILTER: edits the bundle's config.json in place.
update_config() {
	jq "$@" "$BUNDLE/config.json" > "$BUNDLE/config.json.new" &&
		mv "$BUNDLE/config.json.new" "$BUNDLE/config.json"
}

# set_args ARG...: process.args.
set_args() {
	local json
	json=$(printf '%s\n' "$@" | jq -R . | jq -s .)
	update_config --argjson a "$json" '.process.args = $a'
}

# status_of ID: the "status" field of `state` ("" if it fails).
status_of() {
	rt state "$1" 2>/dev/null | jq -r .status
}

pid_of() {
	rt state "$1" 2>/dev/null | jq -r .pid
}

# wait_for_status ID STATUS [SECONDS]: polls state until it says STATUS,
# for at most SECONDS (30: a runtime under TCG on a loaded host is slow;
# a status that never comes still fails, just later).
wait_for_status() {
	local deadline=$((SECONDS + ${3:-30}))
	while [ "$SECONDS" -lt "$deadline" ]; do
		[ "$(status_of "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	echo "container $1: status $(status_of "$1"), expected $2 (waited ${3:-30} s)" >&2
	return 1
}

# wait_for TIMEOUT CMD...: runs CMD every 0.1 s until it succeeds, for at
# most TIMEOUT seconds; the synchronisation for anything a test waits on
# (a file, a line in a log), never a bare sleep.
wait_for() {
	local timeout=$1 deadline=$((SECONDS + $1))
	shift
	while [ "$SECONDS" -lt "$deadline" ]; do
		"$@" && return 0
		sleep 0.1
	done
	"$@" && return 0
	echo "waited ${timeout} s in vain for: $*" >&2
	return 1
}

# has_lines FILE N: FILE exists and has at least N lines.
has_lines() {
	[ -f "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ]
}

# wait_for_lines FILE N [TIMEOUT]: until FILE has at least N lines.
wait_for_lines() {
	wait_for "${3:-30}" has_lines "$1" "$2"
}

# dead PID: the process is gone (a zombie counts as gone).  Use it as
# `dead "$pid"`, never `! kill -0 "$pid"`: bats ignores a `!` command's
# status on any line but the last.
dead() {
	local state
	[ -e "/proc/$1" ] || return 0
	state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] || { echo "process $1 is still alive ($state)" >&2; return 1; }
}

# run_in_container CMD...: `run` the bundle with process.args = CMD and
# leave $status/$output like bats' run.
run_in_container() {
	set_args "$@"
	run rt run --bundle "$BUNDLE" "$ID"
}

# cgroup_procs_of ID: the pids whose cgroup (v2) is named ID or lies
# below one that is, whatever the runtime's default path.
cgroup_procs_of() {
	grep -l -e "^0::.*/$1\$" -e "^0::.*/$1/" /proc/[0-9]*/cgroup 2>/dev/null |
		sed 's|^/proc/\([0-9]*\)/cgroup$|\1|'
}

# assert_nothing_left ID [PID...]: nothing left after a failure or a
# delete: no state dir, no kernel container of that name, no cgroup named
# ID anywhere (kcrun's /kcrun/<id>, runc's /<id>, a cgroupsPath's), no
# process in such a cgroup or with ID on its command line, the PIDs given
# dead, not listed.
assert_nothing_left() {
	local id=$1 pid left
	shift
	[ ! -e "$ROOT/$id" ] || { echo "state dir $ROOT/$id left behind" >&2; return 1; }
	if [ -e /proc/containers ] && is_kcrun; then
		if awk 'NR > 1 { print $1 }' /proc/containers | grep -qx "$id"; then
			echo "kernel container $id left behind:" >&2
			cat /proc/containers >&2
			return 1
		fi
	fi
	left=$(cgroup_procs_of "$id")
	[ -z "$left" ] || { echo "processes left in a cgroup named $id: $left" >&2; ps -o pid,args 2>/dev/null | grep -wF "$left" >&2; return 1; }
	left=$(procs_matching "$id")
	[ -z "$left" ] || { echo "processes with $id on their command line: $left" >&2; return 1; }
	left=$(find /sys/fs/cgroup -type d -name "$id" 2>/dev/null)
	[ -z "$left" ] || { echo "cgroup left behind: $left" >&2; return 1; }
	for pid in "$@"; do
		dead "$pid" || return 1
	done
	run rt list -q
	[[ "$output" != *"$id"* ]] || { echo "list still shows $id" >&2; return 1; }
}

# procs_matching ERE: the pids whose command line (arguments joined by
# spaces) matches ERE, but this shell's.  Not pgrep: the small guest's
# busybox has none, and `pgrep ... || true` there found nothing, ever.
# Read with bash's own mapfile: a `tr` per process cost a fork each, and
# the load test's 200 checks over ~400 processes took 12 minutes under TCG.
procs_matching() {
	local f pid cmd args
	for f in /proc/[0-9]*/cmdline; do
		pid=${f#/proc/}
		pid=${pid%/cmdline}
		{ [ "$pid" = "$$" ] || [ "$pid" = "$BASHPID" ]; } && continue
		mapfile -d '' args 2>/dev/null < "$f" || continue
		cmd="${args[*]}"
		[[ "$cmd" =~ $1 ]] && echo "$pid"
	done
	return 0
}

# assert_nothing_left_of ID...: assert_nothing_left for many ids at once,
# each source (/proc/containers, the processes, the cgroup tree, list) read
# once for all of them.
assert_nothing_left_of() {
	local id f pid args cmd
	local -A kernel_names=() cgroup_names=() listed=()
	local -a cmdlines=() cgroup_lines=()
	if [ -e /proc/containers ] && is_kcrun; then
		while read -r id _; do kernel_names[$id]=1; done < <(awk 'NR > 1 { print $1 }' /proc/containers)
	fi
	for f in /proc/[0-9]*/cmdline; do
		pid=${f#/proc/}
		pid=${pid%/cmdline}
		{ [ "$pid" = "$$" ] || [ "$pid" = "$BASHPID" ]; } && continue
		mapfile -d '' args 2>/dev/null < "$f" || continue
		cmdlines+=("$pid ${args[*]}")
		mapfile -t args 2>/dev/null < "/proc/$pid/cgroup" || continue
		cgroup_lines+=("$pid ${args[*]}")
	done
	while read -r f; do cgroup_names[${f##*/}]=1; done < <(find /sys/fs/cgroup -type d 2>/dev/null)
	while read -r id; do listed[$id]=1; done < <(rt list -q)
	for id in "$@"; do
		[ ! -e "$ROOT/$id" ] || { echo "state dir $ROOT/$id left behind" >&2; return 1; }
		[ -z "${kernel_names[$id]:-}" ] || { echo "kernel container $id left behind" >&2; return 1; }
		[ -z "${cgroup_names[$id]:-}" ] || { echo "cgroup named $id left behind" >&2; return 1; }
		[ -z "${listed[$id]:-}" ] || { echo "list still shows $id" >&2; return 1; }
		for cmd in "${cmdlines[@]}"; do
			[[ " ${cmd#* } " != *" $id "* && " ${cmd#* } " != *"/$id "* ]] ||
				{ echo "process left with $id on its command line: $cmd" >&2; return 1; }
		done
		for cmd in "${cgroup_lines[@]}"; do
			[[ "$cmd" != *"/$id" && "$cmd" != *"/$id/"* && "$cmd" != *"/$id "* ]] ||
				{ echo "process left in a cgroup named $id: $cmd" >&2; return 1; }
		done
	done
}

# is_kcrun: the runtime under test is kcrun (not runc or crun).
is_kcrun() {
	[ "$(basename "$RUNTIME")" = kcrun ]
}

requires_cgroup2() {
	[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] || skip "no cgroup v2 at /sys/fs/cgroup"
}

# requires_controller NAME: skips unless the cgroup root offers it.
requires_controller() {
	grep -qw "$1" /sys/fs/cgroup/cgroup.controllers || skip "no $1 controller"
}

# setup_cgroup_suite NAME / teardown_cgroup_suite: setup_bundle plus
# CGROUP_PARENT (a cgroup of the suite's own, removed afterwards) and OUT
# (a scratch directory).
setup_cgroup_suite() {
	setup_bundle
	CGROUP_PARENT=/kcrun-$1-$$
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/rt-out.XXXXXX")
}

# use_cgroup: a cgroupsPath of the test's own under CGROUP_PARENT, so the
# test knows where to look (CGROUP_DIR).
use_cgroup() {
	CGROUP_DIR=/sys/fs/cgroup$CGROUP_PARENT/$ID
	update_config --arg p "$CGROUP_PARENT/$ID" '.linux.cgroupsPath = $p'
}

# A cgroup left under CGROUP_PARENT once every container is deleted is a
# leak: the test fails (teardown's failure is the test's).
teardown_cgroup_suite() {
	local parent=/sys/fs/cgroup$CGROUP_PARENT
	teardown_bundle
	rm -rf "$OUT"
	[ -d "$parent" ] || return 0
	rmdir "$parent" 2>/dev/null && return 0
	echo "cgroups left behind under $parent:" >&2
	find "$parent" -mindepth 1 -type d >&2
	# leave the machine clean for the next test, then fail this one
	find "$parent" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
	rmdir "$parent" 2>/dev/null
	return 1
}
