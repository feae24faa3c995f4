#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# `update` with runc's individual flags (--memory 64M, --cpu-quota, ...) and
# `events` (--stats once; stats every --interval and oom events until the
# container stops).  Where the behaviour is runc's the tests pass with
# RUNTIME=runc too; kcrun's own refusals are checked only for kcrun.

load helpers

setup() {
	setup_cgroup_suite update-events
}

teardown() {
	teardown_cgroup_suite
}

# crun 1.8's update pastes flag values into JSON (no size units: "64M" is a
# parse error), lacks the Intel RDT flags and words errors its own way.
requires_runc_update() {
	[ "$(basename "$RUNTIME")" != crun ] || skip "crun's update flags are not runc's (no size units)"
}

# crun has no events command.
requires_events() {
	"$RUNTIME" events --help >/dev/null 2>&1 || skip "$RUNTIME has no events command"
}

# create_container: `create` the bundle running `sleep 100` (or ARGS), its
# stdio in a file: the parked init would hold bats' pipes.
create_container() {
	[ $# -gt 0 ] || set -- sleep 100
	set_args "$@"
	status=0
	rt create --bundle "$BUNDLE" "$ID" </dev/null >"$OUT/create.log" 2>&1 || status=$?
	output=$(cat "$OUT/create.log")
	echo "create: status $status: $output"
	[ "$status" -eq 0 ]
}

# ---------- update ----------

@test "update: runc's flags become the cgroup v2 files" {
	requires_runc_update
	requires_cgroup2
	requires_controller memory
	requires_controller pids
	requires_controller cpu
	use_cgroup
	create_container
	run rt update --memory 64M --memory-reservation 32m --pids-limit 42 \
		--cpu-share 1024 --cpu-quota 50000 --cpu-period 100000 "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = 67108864 ]
	[ "$(cat "$CGROUP_DIR/memory.low")" = 33554432 ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = 42 ]
	# runc's conversion: weight = 1 + (shares - 2) * 9999 / 262142
	[ "$(cat "$CGROUP_DIR/cpu.weight")" = 39 ]
	[ "$(cat "$CGROUP_DIR/cpu.max")" = "50000 100000" ]
}

# runc 1.2's flags (runc 1.1.5, the guest's, has neither): given is set,
# 0 included; cpu.idle takes 0 or 1 only.
@test "update: --cpu-burst and --cpu-idle set cpu.max.burst and cpu.idle; a bad --cpu-idle changes nothing" {
	"$RUNTIME" update --help 2>&1 | grep -q -- --cpu-burst || skip "$RUNTIME update has no --cpu-burst"
	requires_runc_update
	requires_cgroup2
	requires_controller cpu
	use_cgroup
	create_container
	[ -e "$CGROUP_DIR/cpu.max.burst" ] || skip "no cpu.max.burst in this kernel"
	rt update --cpu-quota 50000 --cpu-period 100000 --cpu-burst 20000 --cpu-idle 1 "$ID"
	[ "$(cat "$CGROUP_DIR/cpu.max.burst")" = 20000 ]
	[ "$(cat "$CGROUP_DIR/cpu.idle")" = 1 ]
	rt update --cpu-burst 0 --cpu-idle 0 "$ID"
	[ "$(cat "$CGROUP_DIR/cpu.max.burst")" = 0 ]
	[ "$(cat "$CGROUP_DIR/cpu.idle")" = 0 ]
	run rt update --cpu-burst 10000 --cpu-idle 2 "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *'invalid value for --cpu-idle: "2" is not 0 or 1'* ]]
	[ "$(cat "$CGROUP_DIR/cpu.max.burst")" = 0 ]
	# a burst above the quota: the kernel refuses it, the flag is named
	run rt update --cpu-burst 60000 "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--cpu-burst"* ]]
	[ "$(cat "$CGROUP_DIR/cpu.max.burst")" = 0 ]
}

@test "update: --memory-swap is memory+swap: memory.swap.max gets the difference" {
	requires_runc_update
	requires_cgroup2
	requires_controller memory
	use_cgroup
	create_container
	[ -e "$CGROUP_DIR/memory.swap.max" ] || skip "no swap accounting (memory.swap.max)"
	run rt update --memory 64MiB --memory-swap 96MB "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = 67108864 ]
	[ "$(cat "$CGROUP_DIR/memory.swap.max")" = 33554432 ]
}

@test "update: -1 lifts the memory and pids limits" {
	requires_cgroup2
	requires_controller memory
	requires_controller pids
	use_cgroup
	update_config '.linux.resources = {memory: {limit: 67108864}, pids: {limit: 10}}'
	create_container
	[ "$(cat "$CGROUP_DIR/memory.max")" = 67108864 ]
	run rt update --memory -1 --pids-limit -1 "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = max ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = max ]
	if [ -e "$CGROUP_DIR/memory.swap.max" ]; then
		[ "$(cat "$CGROUP_DIR/memory.swap.max")" = max ]
	fi
}

@test "update: a flag left out leaves its limit alone; --cpu-period alone keeps the quota" {
	requires_runc_update
	requires_cgroup2
	requires_controller cpu
	requires_controller pids
	use_cgroup
	update_config '.linux.resources = {cpu: {quota: 50000, period: 100000}, pids: {limit: 33}}'
	create_container
	run rt update --cpu-period 200000 "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/cpu.max")" = "50000 200000" ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = 33 ]
	run rt update --cpu-quota 25000 "$ID"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/cpu.max")" = "25000 200000" ]
}

@test "update: --cpuset-cpus and --cpuset-mems" {
	requires_cgroup2
	requires_controller cpuset
	use_cgroup
	create_container
	run rt update --cpuset-cpus 0 --cpuset-mems 0 "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/cpuset.cpus")" = 0 ]
	[ "$(cat "$CGROUP_DIR/cpuset.mems")" = 0 ]
}

@test "update: --blkio-weight goes to io.bfq.weight, else io.weight converted" {
	requires_cgroup2
	requires_controller io
	use_cgroup
	create_container
	if [ -e "$CGROUP_DIR/io.bfq.weight" ]; then
		expected="default 500"
		file=io.bfq.weight
	elif [ -e "$CGROUP_DIR/io.weight" ]; then
		# runc's conversion: 1 + (weight - 10) * 9999 / 990
		expected="default 4950"
		file=io.weight
	else
		skip "neither io.bfq.weight nor io.weight (no bfq, no iocost)"
	fi
	run rt update --blkio-weight 500 "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(head -n1 "$CGROUP_DIR/$file")" = "$expected" ]
}

@test "update: a bad value fails, names the flag and changes nothing" {
	requires_runc_update
	requires_cgroup2
	requires_controller pids
	requires_controller memory
	use_cgroup
	update_config '.linux.resources = {pids: {limit: 50}}'
	create_container
	before=$(cat "$CGROUP_DIR/memory.max")

	run rt update --pids-limit 99 --memory abc "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"invalid value for "*"memory"* ]]
	[[ "$output" == *"invalid size: 'abc'"* ]]

	run rt update --pids-limit 99 --memory 12x "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *memory* ]]

	run rt update --pids-limit 99 --cpu-quota 1.5 "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *cpu-quota* ]]

	run rt update --memory 64M --pids-limit lots "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *pids-limit* ]]

	[ "$(cat "$CGROUP_DIR/pids.max")" = 50 ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = "$before" ]
}

@test "update: a value the kernel refuses puts back what was written before it" {
	is_kcrun || skip "kcrun's own guarantee (runc leaves the earlier writes and warns)"
	requires_cgroup2
	requires_controller memory
	requires_controller cpuset
	use_cgroup
	update_config '.linux.resources = {memory: {limit: 67108864}}'
	create_container
	run rt update --memory 128M --cpuset-cpus 4095 "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"--cpuset-cpus"*"cpuset.cpus"* ]]
	[ "$(cat "$CGROUP_DIR/memory.max")" = 67108864 ]
}

@test "update: --memory-swap without --memory is refused" {
	requires_runc_update
	requires_cgroup2
	requires_controller memory
	use_cgroup
	create_container
	run rt update --memory-swap 100M "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"unable to set swap limit without memory limit"* ]]
}

@test "update: --l3-cache-schema and --mem-bw-schema fail without Intel RDT" {
	requires_runc_update
	requires_cgroup2
	[ ! -d /sys/fs/resctrl/info ] || skip "this machine has Intel RDT"
	use_cgroup
	create_container
	run rt update --l3-cache-schema "L3:0=ff" "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"l3 cache schema is not enabled"* ]]
	run rt update --mem-bw-schema "MB:0=70" "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"memory bandwidth schema is not enabled"* ]]
}

@test "update: --kernel-memory is accepted and ignored, with runc's warning" {
	requires_runc_update
	requires_cgroup2
	use_cgroup
	create_container
	run rt update --kernel-memory 10M --kernel-memory-tcp 1M "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Kernel memory settings are ignored"* ]]
	run rt update --kernel-memory tons "$ID"
	[ "$status" -eq 1 ]
	[[ "$output" == *kernel-memory* ]]
}

@test "update: kcrun refuses --cpu-rt-runtime/--cpu-rt-period on cgroup v2 (runc ignores them)" {
	is_kcrun || skip "kcrun's own refusal"
	requires_cgroup2
	use_cgroup
	create_container
	run rt update --cpu-rt-runtime 1000 --cpu-rt-period 10000 "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"--cpu-rt-period/--cpu-rt-runtime"* ]]
}

@test "update: an unknown container" {
	requires_runc_update
	run rt update --memory 64M nosuch
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
}

# ---------- events ----------

@test "events --stats: one stats event with runc's field names, then exit" {
	requires_events
	requires_cgroup2
	requires_controller memory
	requires_controller pids
	use_cgroup
	update_config '.linux.resources = {memory: {limit: 67108864}, pids: {limit: 77}}'
	create_container
	current_before=$(cat "$CGROUP_DIR/memory.current")
	run rt events --stats "$ID"
	current_after=$(cat "$CGROUP_DIR/memory.current")
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	e=$output
	[ "$(jq -r .type <<<"$e")" = stats ]
	[ "$(jq -r .id <<<"$e")" = "$ID" ]
	[ "$(jq -r '.data.cpu.usage.kernel | type' <<<"$e")" = number ]
	[ "$(jq -r '.data.cpu.usage.user | type' <<<"$e")" = number ]
	[ "$(jq -r '.data.memory.usage.limit' <<<"$e")" = 67108864 ]
	# memory.current of the (parked, idle) cgroup, read just before or after
	usage=$(jq -r '.data.memory.usage.usage' <<<"$e")
	[ "$usage" -gt 0 ]
	[[ "$usage" = "$current_before" || "$usage" = "$current_after" ]]
	[ "$(jq -r '.data.memory.swap | has("limit")' <<<"$e")" = true ]
	[ "$(jq -r '.data.memory.raw.anon | type' <<<"$e")" = number ]
	[ "$(jq -r '.data.pids.current' <<<"$e")" -ge 1 ]
	[ "$(jq -r '.data.pids.limit' <<<"$e")" = 77 ]
	[ "$(jq -r '.data | has("blkio") and has("hugetlb") and has("cpuset")' <<<"$e")" = true ]
}

@test "events: an unknown container" {
	requires_events
	run rt events --stats nosuch
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
}

@test "events: a stopped container is not running" {
	requires_events
	requires_cgroup2
	use_cgroup
	create_container
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	run rt events --stats "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"container with id $ID is not running"* ]]
}

@test "events: --interval must be a positive duration" {
	requires_events
	requires_cgroup2
	use_cgroup
	create_container
	run rt events --interval 0s "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"duration interval must be greater than 0"* ]]
	run rt events --interval soon "$ID"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *'invalid value "soon" for flag -interval'* ]]
}

@test "events: a stats event every interval until the container stops, then exit 0" {
	requires_events
	requires_cgroup2
	use_cgroup
	create_container
	rt start "$ID"
	timeout 60 "$RUNTIME" --root "$ROOT" events --interval 1s "$ID" >"$OUT/events" 2>"$OUT/events.err" &
	events_pid=$!
	wait_for_lines "$OUT/events" 2 30
	rt kill "$ID" KILL
	status=0
	wait "$events_pid" || status=$?
	cat "$OUT/events" "$OUT/events.err"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$OUT/events")" -ge 2 ]
	[ "$(jq -r .type "$OUT/events" | sort -u)" = stats ]
	[ "$(jq -r .id "$OUT/events" | sort -u)" = "$ID" ]
}

@test "events: an OOM kill in the container becomes an oom event" {
	requires_events
	requires_cgroup2
	requires_controller memory
	use_cgroup
	# No swap to spill into: the memory limit is a hard wall.
	update_config '.linux.resources.memory = {limit: 33554432, swap: 33554432}'
	# the OOM comes only once events is seen running (its first stats
	# line) and /go appears: no head start to guess
	create_container sh -c 'while [ ! -e /go ]; do sleep 0.1; done; tail /dev/zero; sleep 100'
	timeout 90 "$RUNTIME" --root "$ROOT" events --interval 1s "$ID" >"$OUT/events" 2>"$OUT/events.err" &
	events_pid=$!
	rt start "$ID"
	wait_for_lines "$OUT/events" 1 30
	touch "$BUNDLE/rootfs/go"
	wait_for 60 grep -q '"type":"oom"' "$OUT/events" || true
	rt kill "$ID" KILL || true
	status=0
	wait "$events_pid" || status=$?
	cat "$OUT/events" "$OUT/events.err"
	[ "$status" -eq 0 ]
	grep -q '"type":"oom"' "$OUT/events"
	[ "$(grep '"type":"oom"' "$OUT/events" | head -n1 | jq -r .id)" = "$ID" ]
}
