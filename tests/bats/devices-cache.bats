#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The eBPF device filter is verified once per rule set and pinned in bpffs
# (src/lib/bpf_cache.h): a second container with the same rules gets the
# same program, which still enforces them; other rules get another
# program; a pin that is not the program its name promises is never used;
# without bpffs (or with a pin directory others may reach) every container
# loads its own.  kcrun's own mechanism: skipped for runc and crun.

load helpers

BPF_QUERY=${BPF_QUERY:-$BATS_TEST_DIRNAME/../unit/lib/bpf-query}
PINS=/sys/fs/bpf/kcrun

setup_file() {
	# systemd mounts bpffs at /sys/fs/bpf; the fast guest does not: mount
	# one for the suite, and take it away afterwards (its pins with it).
	if [ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" != bpf_fs ] && [ -d /sys/fs/bpf ]; then
		mount -t bpf bpf /sys/fs/bpf && touch "$BATS_FILE_TMPDIR/mounted"
	fi
	return 0
}

teardown_file() {
	[ ! -e "$BATS_FILE_TMPDIR/mounted" ] || umount /sys/fs/bpf
}

setup() {
	setup_cgroup_suite devices-cache
	is_kcrun || skip "the pinned device filter is kcrun's"
	requires_cgroup2
	[ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" = bpf_fs ] || skip "no bpffs at /sys/fs/bpf"
	[ -x "$BPF_QUERY" ] || skip "bpf-query not built (make -C tests/unit/lib)"
	rm -f "$PINS"/devices-* 2>/dev/null || true
	update_config '.process.capabilities |= with_entries(.value += ["CAP_MKNOD"])'
	set_args sleep 1000
}

teardown() {
	# the tmpfs a test mounted over /sys/fs/bpf
	[ ! -e "$OUT/umount-bpf" ] || umount /sys/fs/bpf
	# a planted or loosened pin directory must not outlive its test
	[ ! -e "$OUT/restore-mode" ] || chmod 0700 "$PINS"
	rm -f "$PINS"/devices-* 2>/dev/null
	teardown_cgroup_suite
}

# start_with_rules NAME RULES-JSON: a running container NAME whose
# linux.resources.devices is RULES-JSON and whose cgroup is
# $CGROUP_PARENT/NAME, with exactly one device filter, whose "<prog id> <tag>"
# goes to $OUT/NAME.prog (prog_of NAME).  Called as a plain command, never in
# $(...) or before ||, so that each check in it can fail the test.
start_with_rules() {
	local name=$1 dir
	update_config --argjson r "$2" --arg p "$CGROUP_PARENT/$name" \
		'.linux.resources.devices = $r | .linux.cgroupsPath = $p'
	rt_bg create --bundle "$BUNDLE" "$name"
	rt start "$name"
	dir=/sys/fs/cgroup$CGROUP_PARENT/$name
	"$BPF_QUERY" cgroup "$dir" > "$OUT/$name.prog"
	cat "$OUT/$name.prog"
	[ "$(wc -l < "$OUT/$name.prog")" -eq 1 ]
}

# prog_of NAME: "<prog id> <tag>" of NAME's device filter.
prog_of() {
	cat "$OUT/$1.prog"
}

DENY_ALL='[{"allow": false, "access": "rwm"}]'
ALLOW_KMSG='[{"allow": false, "access": "rwm"}, {"allow": true, "type": "c", "major": 1, "minor": 11, "access": "r"}]'

# reads_kmsg NAME: a c 1:11 node made inside NAME, then read; prints
# "read=STATUS" (mknod is always allowed, the read only by a rule).
reads_kmsg() {
	rt exec "$1" sh -c 'mknod /tmp/kmsg c 1 11 2>/dev/null; head -c 1 /tmp/kmsg >/dev/null; echo read=$?'
}

@test "devices cache: a second container with the same rules gets the pinned program, which still enforces them" {
	local first second
	rm -f "$PINS"/devices-*
	start_with_rules a "$DENY_ALL"
	first=$(prog_of a)
	start_with_rules b "$DENY_ALL"
	second=$(prog_of b)
	echo "first: $first, second: $second"
	[ -n "$first" ]
	[ "$second" = "$first" ]
	# pinned under the kernel's own tag, in a directory only root reaches
	[ "$(ls "$PINS")" = "devices-${first#* }" ]
	[ "$(stat -c '%a %u' "$PINS")" = "700 0" ]
	[ "$("$BPF_QUERY" pin "$PINS/devices-${first#* }")" = "$first" ]
	# the shared program denies what the rules deny, in both containers,
	# and allows the defaults
	run reads_kmsg b
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "read=1" ]
	[[ "$output" == *"Operation not permitted"* ]]
	run reads_kmsg a
	[ "${lines[-1]}" = "read=1" ]
	run rt exec b sh -c 'head -c 1 /dev/zero >/dev/null && echo zero-ok'
	[ "$output" = zero-ok ]
}

@test "devices cache: different rules get a different program, each enforcing its own" {
	local deny allow
	start_with_rules deny "$DENY_ALL"
	deny=$(prog_of deny)
	start_with_rules allow "$ALLOW_KMSG"
	allow=$(prog_of allow)
	echo "deny: $deny, allow: $allow"
	[ "${allow% *}" != "${deny% *}" ]
	[ "${allow#* }" != "${deny#* }" ]
	[ "$(ls "$PINS" | sort)" = "$(printf 'devices-%s\n' "${allow#* }" "${deny#* }" | sort)" ]
	run reads_kmsg allow
	[ "$output" = "read=0" ]
	run reads_kmsg deny
	[ "${lines[-1]}" = "read=1" ]
}

@test "devices cache: a pin that is not the program its name promises is not used" {
	local deny allow planted
	start_with_rules deny "$DENY_ALL"
	deny=$(prog_of deny)
	start_with_rules allow "$ALLOW_KMSG"
	allow=$(prog_of allow)
	rt delete --force deny
	# the permissive program, renamed to the tag of the deny-all rules
	mv "$PINS/devices-${allow#* }" "$PINS/devices-${deny#* }"
	[ "$("$BPF_QUERY" pin "$PINS/devices-${deny#* }")" = "$allow" ]
	start_with_rules again "$DENY_ALL"
	planted=$(prog_of again)
	echo "deny: $deny, allow: $allow, after the plant: $planted"
	[ "${planted% *}" != "${allow% *}" ]
	[ "${planted#* }" = "${deny#* }" ]
	run reads_kmsg again
	[ "${lines[-1]}" = "read=1" ]
	# the planted pin is left as it was, not replaced
	[ "$("$BPF_QUERY" pin "$PINS/devices-${deny#* }")" = "$allow" ]
}

@test "devices cache: a pin directory that group or others may reach is not used" {
	local first second
	start_with_rules a "$DENY_ALL"
	first=$(prog_of a)
	touch "$OUT/restore-mode"
	chmod 0755 "$PINS"
	start_with_rules b "$DENY_ALL"
	second=$(prog_of b)
	echo "first: $first, second: $second"
	[ "${second% *}" != "${first% *}" ]
	[ "${second#* }" = "${first#* }" ]
	[ "$(stat -c %a "$PINS")" = 755 ]
	run reads_kmsg b
	[ "${lines[-1]}" = "read=1" ]
}

@test "devices cache: without bpffs every container loads its own program" {
	local first second
	# a tmpfs over /sys/fs/bpf, with a pin directory as kcrun would make it
	mount -t tmpfs -o mode=1777 tmpfs /sys/fs/bpf
	touch "$OUT/umount-bpf"
	mkdir -m 0700 /sys/fs/bpf/kcrun
	start_with_rules a "$DENY_ALL"
	first=$(prog_of a)
	start_with_rules b "$DENY_ALL"
	second=$(prog_of b)
	run ls -A /sys/fs/bpf/kcrun
	umount /sys/fs/bpf
	rm "$OUT/umount-bpf"
	[ "$output" = "" ]
	echo "first: $first, second: $second"
	[ "${second% *}" != "${first% *}" ]
	[ "${second#* }" = "${first#* }" ]
	run reads_kmsg b
	[ "${lines[-1]}" = "read=1" ]
}

@test "devices cache: a second container in the same cgroup with the same rules keeps its one program" {
	local first dir=/sys/fs/cgroup$CGROUP_PARENT/shared
	start_with_rules shared "$DENY_ALL"
	first=$(prog_of shared)
	# b joins a's cgroup (runc 1.1: a warning for a non-empty cgroup);
	# the pinned program is attached there already and is not attached twice
	update_config --arg p "$CGROUP_PARENT/shared" '.linux.cgroupsPath = $p'
	rt_bg create --bundle "$BUNDLE" b
	[ "$("$BPF_QUERY" cgroup "$dir")" = "$first" ]
	rt start b
	run reads_kmsg b
	[ "${lines[-1]}" = "read=1" ]
	rt delete --force b
	rt delete --force shared
}
