#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Load: 200 containers created and started in parallel from one shell loop,
# then listed, killed and deleted in parallel.  Every command succeeds, list
# is consistent, nothing is left.  The figures go to the TAP stream as
# comments (runc and crun run the same test with RUNTIME=...).

load helpers

N=${LOAD_CONTAINERS:-200}

setup() {
	setup_bundle
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/rt-out.XXXXXX")
	set_args sleep 100000
}

teardown() {
	teardown_bundle
	rm -rf "$OUT"
}

# in_parallel NAME CMD...: CMD with {} replaced by 1..N, all at once; each
# one's status in $OUT/NAME.<i>.rc, its output in $OUT/NAME.<i>.log.
in_parallel() {
	local name=$1 i
	shift
	for i in $(seq "$N"); do
		(
			"${@//\{\}/$i}" </dev/null >"$OUT/$name.$i.log" 2>&1
			echo $? > "$OUT/$name.$i.rc"
		) &
	done
	wait
}

# failures NAME: how many of the N commands did not exit 0 (their output shown).
failures() {
	local i bad=0
	for i in $(seq "$N"); do
		if [ "$(cat "$OUT/$1.$i.rc" 2>/dev/null)" != 0 ]; then
			bad=$((bad + 1))
			echo "$1 $i: $(cat "$OUT/$1.$i.log" 2>/dev/null)" >&2
		fi
	done
	echo "$bad"
}

now_ms() {
	local t=$EPOCHREALTIME
	echo $(( ${t%.*} * 1000 + 10#${t#*.} / 1000 ))
}

@test "200 containers at once: create+start, list, kill, delete all succeed and leave nothing" {
	local t0 t1 t2 t3 t4
	t0=$(now_ms)
	in_parallel up sh -c "timeout 600 $RUNTIME --root $ROOT create --bundle $BUNDLE $ID-{} && timeout 600 $RUNTIME --root $ROOT start $ID-{}"
	t1=$(now_ms)
	[ "$(failures up)" = 0 ]

	run rt list --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq 'length')" = "$N" ]
	[ "$(echo "$output" | jq '[.[] | select(.status == "running")] | length')" = "$N" ]
	[ "$(echo "$output" | jq '[.[] | .id] | unique | length')" = "$N" ]
	t2=$(now_ms)

	in_parallel kill timeout 600 "$RUNTIME" --root "$ROOT" kill "$ID-{}" KILL
	[ "$(failures kill)" = 0 ]
	t3=$(now_ms)
	in_parallel delete timeout 600 "$RUNTIME" --root "$ROOT" delete --force "$ID-{}"
	t4=$(now_ms)
	[ "$(failures delete)" = 0 ]

	run rt list -q
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	local i ids=()
	for i in $(seq "$N"); do ids+=("$ID-$i"); done
	assert_nothing_left_of "${ids[@]}"
	echo "# $RUNTIME, $N containers: create+start $((t1 - t0)) ms, list $((t2 - t1)) ms, kill $((t3 - t2)) ms, delete $((t4 - t3)) ms, failures 0" >&3
}
