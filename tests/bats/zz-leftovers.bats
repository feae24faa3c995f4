#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The last suite of a guest run (bats runs the files in the order given,
# and tests/run-all gives them sorted): whatever a test made and forgot, in
# any suite before this one, is found here: container objects, the
# suites' cgroups, state and scratch directories, mounts and the long
# sleeps the tests run as container processes.  Per-test checks
# (assert_nothing_left, teardown_cgroup_suite) cover what each test knows
# it made; this covers what a test did not know to look for.

load helpers

# containers_gone: /proc/containers lists <init> alone.
containers_gone() {
	[ "$(awk 'NR > 1' /proc/containers | wc -l)" -eq 1 ]
}

@test "leftovers: no container object but <init>" {
	[ -e /proc/containers ] || skip "this kernel has no container objects"
	# a container ends once its last member is reaped: bounded wait
	wait_for 60 containers_gone || { cat /proc/containers; return 1; }
}

@test "leftovers: no cgroup of a suite or of a test's container" {
	local left
	# the suites' parents (kcrun-<suite>-<pid>, rl-*), a test's container
	# (t<N>-<pid>), and anything under kcrun's default parent
	left=$(find /sys/fs/cgroup -mindepth 1 -type d \( -name 'kcrun-*' -o -name 'rl-*' \
		-o -regex '.*/t[0-9]+-[0-9]+\(-.*\)?' -o -path '/sys/fs/cgroup/kcrun/*' \) 2>/dev/null)
	[ -z "$left" ] || { echo "cgroups left behind:"; echo "$left"; return 1; }
}

@test "leftovers: no state or scratch directory of a test" {
	local left
	left=$(find "${TMPDIR:-/tmp}" -maxdepth 1 \( -name 'rt-root.*' -o -name 'rt-bundle.*' \
		-o -name 'rt-out.*' -o -name 'rl-bundle.*' -o -name 'rl-shared.*' \) 2>/dev/null)
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
	# kcrun's default --root: every test passes its own
	if [ -d /run/kcrun ]; then
		left=$(ls -A /run/kcrun)
		[ -z "$left" ] || { echo "state left in /run/kcrun: $left"; return 1; }
	fi
}

@test "leftovers: no mount in a test's directory" {
	local left
	left=$(awk '$5 ~ "^/tmp/(rt|rl)-" { print $5 }' /proc/self/mountinfo)
	[ -z "$left" ] || { echo "mounts left behind:"; echo "$left"; return 1; }
}

@test "leftovers: no process a test started as a container's" {
	local left
	# the tests' container processes are sleeps of 100 s and more
	left=$(procs_matching '^sleep (100|1000|10000|100000)$')
	[ -z "$left" ] || { echo "processes left behind: $left"; ps -o pid,ppid,args; return 1; }
}
