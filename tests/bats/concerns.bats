#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The concern modules seen through the runtime: cgroups (limits, pause,
# update, delete), seccomp, hooks, the terminal and console socket, and the
# container's network namespace.  Where the behaviour is the runtime spec's
# the tests pass with RUNTIME=runc or RUNTIME=crun too; kcrun's own wording
# and defaults are checked only for kcrun.

load helpers

# helpers.bash's rt, bounded: a hung runtime fails its test instead of the
# whole guest run.
rt() {
	timeout 120 "$RUNTIME" --root "$ROOT" "$@"
}

# create_container [ARGS...]: `create` with $status/$output like bats' run,
# but through a file: the parked init inherits create's stdio, and `run`
# would wait for it to close a pipe.
create_container() {
	status=0
	rt create --bundle "$BUNDLE" "$@" "$ID" </dev/null >"$OUT/create.log" 2>&1 || status=$?
	output=$(cat "$OUT/create.log")
	echo "create: status $status: $output"
}

# runc 1.1 runs poststart hooks at the end of `create` (fixed in runc 1.2);
# the spec runs them after `start`.
poststart_after_start() {
	[ "$(basename "$RUNTIME")" != runc ] || skip "runc 1.1 runs poststart hooks during create"
}

CONSOLE_RECEIVER=${CONSOLE_RECEIVER:-$BATS_TEST_DIRNAME/../unit/lib/console-receiver}

setup() {
	setup_cgroup_suite concerns
}

teardown() {
	teardown_cgroup_suite
}

# hook_json SCRIPT [TIMEOUT]: a hook running `sh -c SCRIPT` with a PATH.
hook_json() {
	local sh
	sh=$(command -v sh)
	if [ -n "${2:-}" ]; then
		jq -n --arg sh "$sh" --arg s "$1" --argjson t "$2" \
			'{path: $sh, args: ["sh", "-c", $s], env: ["PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"], timeout: $t}'
	else
		jq -n --arg sh "$sh" --arg s "$1" \
			'{path: $sh, args: ["sh", "-c", $s], env: ["PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"]}'
	fi
}

# add_hook PHASE SCRIPT [TIMEOUT]
add_hook() {
	local hook
	hook=$(hook_json "$2" "${3:-}")
	update_config --arg phase "$1" --argjson h "$hook" '.hooks[$phase] += [$h]'
}

# ---------- cgroups ----------

@test "cgroup: linux.resources become the cgroup v2 files of linux.cgroupsPath" {
	requires_cgroup2
	requires_controller memory
	requires_controller pids
	requires_controller cpu
	use_cgroup
	update_config '.linux.resources = {
		memory: {limit: 67108864, reservation: 33554432},
		pids: {limit: 77},
		cpu: {shares: 1024, quota: 50000, period: 100000}
	}'
	set_args sleep 100
	create_container
	echo "$output"
	[ "$status" -eq 0 ]
	[ -d "$CGROUP_DIR" ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = 67108864 ]
	[ "$(cat "$CGROUP_DIR/memory.low")" = 33554432 ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = 77 ]
	# runc's conversion: weight = 1 + (shares - 2) * 9999 / 262142
	[ "$(cat "$CGROUP_DIR/cpu.weight")" = 39 ]
	[ "$(cat "$CGROUP_DIR/cpu.max")" = "50000 100000" ]
	grep -qx "$(pid_of "$ID")" "$CGROUP_DIR/cgroup.procs"
}

@test "cgroup: the container's processes are limited (pids.max)" {
	requires_cgroup2
	requires_controller pids
	use_cgroup
	update_config '.linux.resources.pids = {limit: 5}'
	# Ten background sleeps: some fork()s must fail with the limit at 5.
	run_in_container sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 5 & done; echo done'
	echo "$output"
	[[ "$output" == *"Resource temporarily unavailable"* || "$output" == *"fork"* ]]
}

@test "cgroup: linux.resources.unified is written verbatim" {
	requires_cgroup2
	requires_controller pids
	use_cgroup
	update_config '.linux.resources.unified = {"pids.max": "33"}'
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = 33 ]
}

@test "cgroup: an unknown unified key fails create and names the key" {
	requires_cgroup2
	use_cgroup
	update_config '.linux.resources.unified = {"memory.bogus": "1"}'
	set_args true
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *memory.bogus* ]]
	if is_kcrun; then
		[[ "$output" == *'linux.resources.unified."memory.bogus"'* ]]
		assert_nothing_left "$ID"
	fi
}

@test "cgroup: without cgroupsPath kcrun uses /kcrun/<id>" {
	is_kcrun || skip "kcrun's default path"
	requires_cgroup2
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	[ -d "/sys/fs/cgroup/kcrun/$ID" ]
	grep -qx "$(pid_of "$ID")" "/sys/fs/cgroup/kcrun/$ID/cgroup.procs"
	rt delete --force "$ID"
	[ ! -d "/sys/fs/cgroup/kcrun/$ID" ]
}

@test "cgroup: a systemd slice:prefix:name path is refused clearly" {
	is_kcrun || skip "kcrun's wording"
	update_config '.linux.cgroupsPath = "machine.slice:libpod:abc"'
	set_args true
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"systemd"* ]]
	[[ "$output" == *"linux.cgroupsPath"* ]]
}

@test "cgroup: delete --force kills the processes and removes the cgroup" {
	requires_cgroup2
	use_cgroup
	set_args sh -c 'sleep 100 & sleep 100'
	create_container
	[ "$status" -eq 0 ]
	rt start "$ID"
	wait_for_status "$ID" running
	run rt delete --force "$ID"
	[ "$status" -eq 0 ]
	[ ! -d "$CGROUP_DIR" ]
	assert_nothing_left "$ID"
}

@test "cgroup: pause freezes the cgroup, resume thaws it" {
	requires_cgroup2
	use_cgroup
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	rt start "$ID"
	wait_for_status "$ID" running
	run rt pause "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx "frozen 1" "$CGROUP_DIR/cgroup.events"
	[ "$(status_of "$ID")" = paused ]
	run rt resume "$ID"
	[ "$status" -eq 0 ]
	grep -qx "frozen 0" "$CGROUP_DIR/cgroup.events"
	[ "$(status_of "$ID")" = running ]
}

@test "cgroup: update --resources changes the limits of a running container" {
	requires_cgroup2
	requires_controller pids
	requires_controller memory
	use_cgroup
	update_config '.linux.resources.pids = {limit: 50}'
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	echo '{"pids": {"limit": 60}, "memory": {"limit": 134217728}}' > "$OUT/resources.json"
	run rt update --resources "$OUT/resources.json" "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$CGROUP_DIR/pids.max")" = 60 ]
	[ "$(cat "$CGROUP_DIR/memory.max")" = 134217728 ]
}

@test "cgroup: ps lists the container's processes" {
	requires_cgroup2
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	rt start "$ID"
	wait_for_status "$ID" running
	run rt ps --format json "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e --argjson p "$(pid_of "$ID")" 'index($p) != null'
}

@test "cgroup: linux.resources.devices denies a device node not allowed" {
	requires_cgroup2
	# A node for /dev/kmsg (c 1:11) made inside: mknod is allowed, opening
	# it is not (the default rule is deny all).
	update_config '.process.capabilities |= with_entries(.value += ["CAP_MKNOD"])
		| .linux.resources.devices = [{allow: false, access: "rwm"}]'
	run_in_container sh -c 'mknod /tmp/kmsg c 1 11 && echo mknod-ok; head -c 1 /tmp/kmsg; cat /dev/null && echo null-ok'
	echo "$output"
	[[ "$output" == *"mknod-ok"* ]]
	[[ "$output" == *"Operation not permitted"* ]]
	[[ "$output" == *"null-ok"* ]]
}

@test "cgroup: without linux.resources.devices only the default devices can be opened" {
	requires_cgroup2
	# runc always installs its allowlist: mknod works, opening a device
	# that is not on it (c 1:11, /dev/kmsg) does not.
	update_config '.process.capabilities |= with_entries(.value += ["CAP_MKNOD"])
		| del(.linux.resources.devices)'
	run_in_container sh -c 'mknod /tmp/kmsg c 1 11 && echo mknod-ok; head -c 1 /tmp/kmsg; echo x > /dev/null && head -c 1 /dev/zero >/dev/null && echo defaults-ok'
	echo "$output"
	[[ "$output" == *"mknod-ok"* ]]
	[[ "$output" == *"Operation not permitted"* ]]
	[[ "$output" == *"defaults-ok"* ]]
}

@test "cgroup: an allow rule lets the container open that device" {
	requires_cgroup2
	update_config '.process.capabilities |= with_entries(.value += ["CAP_MKNOD"])
		| .linux.resources.devices = [{allow: false, access: "rwm"},
			{allow: true, type: "c", major: 1, minor: 11, access: "r"}]'
	run_in_container sh -c 'mknod /tmp/kmsg c 1 11; head -c 1 /tmp/kmsg >/dev/null; echo read=$?; echo x > /tmp/kmsg; echo write=$?'
	echo "$output"
	[[ "$output" == *"read=0"* ]]
	[[ "$output" == *"write=1"* ]]
}

# ---------- seccomp ----------

@test "seccomp: a denied syscall returns errnoRet inside the container" {
	update_config '.linux.seccomp = {
		defaultAction: "SCMP_ACT_ALLOW",
		architectures: ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
		syscalls: [
			{names: ["mkdir", "mkdirat"], action: "SCMP_ACT_ERRNO", errnoRet: 18},
			{names: ["no_such_syscall_in_any_kernel"], action: "SCMP_ACT_ERRNO"}
		]
	}'
	run_in_container sh -c 'mkdir /tmp/denied; echo status=$?; touch /tmp/allowed && echo touch-ok'
	echo "$output"
	[ "$status" -eq 0 ]
	# EXDEV
	[[ "$output" == *"cross-device"* ]]
	[[ "$output" == *"status=1"* ]]
	[[ "$output" == *"touch-ok"* ]]
}

@test "seccomp: conditions on arguments select what is denied" {
	# chmod to 0777 (511) is denied, any other mode is not.
	update_config '.linux.seccomp = {
		defaultAction: "SCMP_ACT_ALLOW",
		syscalls: [
			{names: ["chmod"], action: "SCMP_ACT_ERRNO", errnoRet: 1,
			 args: [{index: 1, value: 511, op: "SCMP_CMP_EQ"}]},
			{names: ["fchmodat"], action: "SCMP_ACT_ERRNO", errnoRet: 1,
			 args: [{index: 2, value: 511, op: "SCMP_CMP_EQ"}]}
		]
	}'
	run_in_container sh -c 'touch /tmp/f; chmod 644 /tmp/f && echo chmod-644-ok; chmod 777 /tmp/f || echo chmod-777-denied'
	echo "$output"
	[[ "$output" == *"chmod-644-ok"* ]]
	[[ "$output" == *"chmod-777-denied"* ]]
}

@test "seccomp: an unknown flag fails create naming linux.seccomp.flags[i]" {
	is_kcrun || skip "kcrun's wording"
	update_config '.linux.seccomp = {defaultAction: "SCMP_ACT_ALLOW", flags: ["SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_BOGUS"]}'
	set_args true
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"linux.seccomp.flags[1]"* ]]
}

# ---------- hooks ----------

@test "hooks: createRuntime and prestart get the state on stdin" {
	add_hook createRuntime "cat > $OUT/createRuntime.json"
	add_hook prestart "cat > $OUT/prestart.json"
	set_args sleep 100
	create_container
	echo "$output"
	[ "$status" -eq 0 ]
	for phase in createRuntime prestart; do
		cat "$OUT/$phase.json"
		[ "$(jq -r .id "$OUT/$phase.json")" = "$ID" ]
		[ "$(jq -r .bundle "$OUT/$phase.json")" = "$(cd "$BUNDLE" && pwd -P)" ]
		[ -n "$(jq -r .ociVersion "$OUT/$phase.json")" ]
		# runc says "creating", crun "created": the spec leaves it open.
		[[ "$(jq -r .status "$OUT/$phase.json")" == creat* ]]
		# pid is optional while creating; when given it is init's.
		pid=$(jq -r '.pid // 0' "$OUT/$phase.json")
		[ "$pid" = 0 ] || [ "$pid" = "$(pid_of "$ID")" ]
	done
}

@test "hooks: poststart runs after start, poststop after delete" {
	poststart_after_start
	add_hook poststart "cat > $OUT/poststart.json"
	add_hook poststop "cat > $OUT/poststop.json"
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	[ ! -e "$OUT/poststart.json" ]
	rt start "$ID"
	[ "$(jq -r .id "$OUT/poststart.json")" = "$ID" ]
	[ ! -e "$OUT/poststop.json" ]
	rt delete --force "$ID"
	[ "$(jq -r .id "$OUT/poststop.json")" = "$ID" ]
}

@test "hooks: args and env reach the hook exactly" {
	# bash, not sh: busybox would take argv[0] for an applet name.
	command -v bash >/dev/null || skip "no bash"
	# the hook's own argv and environ, as exec'd (env(1) would add bash's
	# PWD, SHLVL and _)
	hook=$(jq -n --arg sh "$(command -v bash)" --arg out "$OUT" \
		'{path: $sh, args: ["my-hook", "-c", "tr \"\\\\0\" \"\\\\n\" < /proc/$$/cmdline > \($out)/args; tr \"\\\\0\" \"\\\\n\" < /proc/$$/environ > \($out)/env"],
		  env: ["ONLY=this", "PATH=/usr/local/bin:/usr/bin:/bin"]}')
	update_config --argjson h "$hook" '.hooks.createRuntime = [$h]'
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	cat "$OUT/args" "$OUT/env"
	[ "$(cat "$OUT/args")" = "$(jq -r '.args[]' <<<"$hook")" ]
	[ "$(sort "$OUT/env")" = "$(printf '%s\n' ONLY=this PATH=/usr/local/bin:/usr/bin:/bin)" ]
}

@test "hooks: a failing createRuntime hook aborts create and leaves nothing" {
	add_hook createRuntime "exit 3"
	add_hook createRuntime "touch $OUT/second-hook-ran"
	set_args sleep 100
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[ ! -e "$OUT/second-hook-ran" ]
	if is_kcrun; then
		[[ "$output" == *"createRuntime hook #0"* ]]
		assert_nothing_left "$ID"
	fi
}

@test "hooks: a hook past its timeout is killed and create fails" {
	add_hook createRuntime "sleep 30" 1
	set_args sleep 100
	SECONDS=0
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$SECONDS" -lt 20 ]
	if is_kcrun; then
		[[ "$output" == *"createRuntime hook #0: timed out"* ]]
	fi
}

@test "hooks: a failing poststart hook is only a warning" {
	poststart_after_start
	add_hook poststart "exit 1"
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	run rt start "$ID"
	echo "$output"
	[ "$status" -eq 0 ]
	if is_kcrun; then
		[[ "$output" == *"poststart hook #0"*"exited with status 1"* ]]
	fi
	wait_for_status "$ID" running
}

@test "hooks: startContainer runs inside the container before the process" {
	update_config '.hostname = "kc-concerns" | .root.readonly = false'
	hook=$(jq -n '{path: "/bin/sh", args: ["sh", "-c", "hostname > /start-container-ran"]}')
	update_config --argjson h "$hook" '.hooks.startContainer = [$h]'
	run_in_container cat /start-container-ran
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = kc-concerns ]
}

@test "hooks: createContainer runs in the container's namespaces" {
	is_kcrun || skip "where its file writes land differs between runtimes"
	update_config '.hostname = "kc-concerns" | .root.readonly = false'
	add_hook createContainer "hostname > /create-container-ran"
	set_args sleep 100
	create_container
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$BUNDLE/rootfs/create-container-ran")" = kc-concerns ]
}

# ---------- terminal ----------

@test "terminal: --console-socket receives the pty master (one fd, data)" {
	[ -x "$CONSOLE_RECEIVER" ] || skip "console-receiver not built (make -C tests/unit/lib)"
	update_config '.process.terminal = true | .process.consoleSize = {height: 30, width: 101}'
	set_args sh -c 'tty; stty size; echo hello-from-the-pty'
	timeout 60 "$CONSOLE_RECEIVER" "$OUT/console.sock" "$OUT/console.out" &
	receiver=$!
	wait_for 30 test -S "$OUT/console.sock"
	create_container --console-socket "$OUT/console.sock"
	echo "$output"
	[ "$status" -eq 0 ]
	rt start "$ID"
	wait "$receiver"
	cat "$OUT/console.out"
	grep -q "^fds=1 cmsg_len_ok=1 data=." "$OUT/console.out"
	grep -qx "tty=1" "$OUT/console.out"
	grep -q "/dev/pts/" "$OUT/console.out"
	grep -q "30 101" "$OUT/console.out"
	grep -q "hello-from-the-pty" "$OUT/console.out"
}

@test "terminal: create with terminal but no console socket fails" {
	update_config '.process.terminal = true'
	set_args true
	create_container
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *console*socket* ]]
	assert_nothing_left "$ID"
}

# ---------- network ----------

@test "network: lo is up in a new network namespace" {
	# the host's other devices (the guest's dummy0) are not in it
	[ "$(ls /sys/class/net | grep -vx lo)" != "" ] || skip "the host has only lo: nothing to tell the namespaces apart"
	run_in_container sh -c 'echo $(ls /sys/class/net); ip link show lo'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = lo ]
	[[ "${lines[1]}" == *"LOWER_UP"* ]]
}

@test "network: linux.netDevices moves and renames a host device" {
	is_kcrun || skip "netDevices (runtime-spec 1.2): not in runc 1.1 / crun 1.8"
	command -v ip >/dev/null || skip "no ip"
	dev=kcd$$
	ip link add "$dev" type dummy || skip "cannot create a dummy device"
	ip addr add 10.77.0.1/24 dev "$dev"
	ip link set "$dev" up
	update_config --arg d "$dev" '.linux.netDevices = {($d): {name: "eth7"}}'
	run_in_container ip addr show eth7
	echo "$output"
	ip link del "$dev" 2>/dev/null || true
	[ "$status" -eq 0 ]
	[[ "$output" == *"10.77.0.1/24"* ]]
}

@test "network: a device moved into the container is gone from the host" {
	is_kcrun || skip "netDevices (runtime-spec 1.2): not in runc 1.1 / crun 1.8"
	command -v ip >/dev/null || skip "no ip"
	dev=kce$$
	ip link add "$dev" type dummy || skip "cannot create a dummy device"
	update_config --arg d "$dev" '.linux.netDevices = {($d): {name: "eth8"}}'
	set_args sleep 100
	create_container
	[ "$status" -eq 0 ]
	run ip link show "$dev"
	[ "$status" -ne 0 ]
	# and it is in the container, renamed
	rt start "$ID"
	run rt exec "$ID" cat /sys/class/net/eth8/ifindex
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" -gt 1 ]
}
