#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line without containers: flags, usage errors, spec, features,
# logging, and the error on a kernel without container objects.  Runs on
# any host: RUNTIME=src/kcrun bats tests/bats/cli.bats

load helpers
bats_require_minimum_version 1.5.0

setup() {
	command -v "$RUNTIME" >/dev/null || skip "$RUNTIME not installed"
	ROOT=$(mktemp -d "${TMPDIR:-/tmp}/rt-root.XXXXXX")
	BUNDLE=$(mktemp -d "${TMPDIR:-/tmp}/rt-bundle.XXXXXX")
}

teardown() {
	rm -rf "$ROOT" "$BUNDLE"
}

@test "without container objects, create says so in one line and exits 1" {
	is_kcrun || skip "kcrun only"
	[ ! -e /proc/containers ] || skip "this kernel has container objects"
	rt spec --bundle "$BUNDLE"
	run rt create --bundle "$BUNDLE" x
	[ "$status" -eq 1 ]
	[ "$output" = "kcrun: this kernel has no container objects (/proc/containers missing); boot the kcrun kernel" ]
	[ ! -e "$ROOT/x" ]
}

@test "without container objects, a bad config.json is reported first, by its JSON path" {
	is_kcrun || skip "kcrun only"
	[ ! -e /proc/containers ] || skip "this kernel has container objects"
	rt spec --bundle "$BUNDLE"
	jq '.process.args = 5' "$BUNDLE/config.json" > "$BUNDLE/c" && mv "$BUNDLE/c" "$BUNDLE/config.json"
	run rt create --bundle "$BUNDLE" x
	[ "$status" -eq 1 ]
	[ "$output" = "kcrun: process.args: expected an array, got number" ]
	[ ! -e "$ROOT/x" ]
}

@test "--systemd-cgroup: a kcrun built without the driver says so before anything else" {
	is_kcrun || skip "kcrun only"
	"$RUNTIME" features | jq -e '.linux.cgroup.systemd == false' >/dev/null ||
		skip "this kcrun has the systemd driver (systemd-cgroup.bats tests it)"
	run "$RUNTIME" --root "$ROOT" --systemd-cgroup create --bundle "$BUNDLE" x
	[ "$status" -eq 1 ]
	[ "$output" = "kcrun: this kcrun was built without the systemd cgroup driver (no libsystemd: the static build); use --cgroup-manager cgroupfs, or the distribution's package" ]
	[ ! -e "$ROOT/x" ]
	run "$RUNTIME" --root "$ROOT" --cgroup-manager systemd run --bundle "$BUNDLE" x
	[ "$status" -eq 1 ]
	[[ "$output" == *"built without the systemd cgroup driver"* ]]
	[ ! -e "$ROOT/x" ]
}

@test "global flags take --x=v and --x v" {
	run "$RUNTIME" --root="$ROOT" list -q
	[ "$status" -eq 0 ]
	run "$RUNTIME" --root "$ROOT" --log-format=json list
	[ "$status" -eq 0 ]
}

@test "help: global and per command" {
	run "$RUNTIME" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"create"*"delete"* ]]
	run "$RUNTIME" kill --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--all"* ]]
}

@test "--log --log-format json writes one JSON line per error" {
	run "$RUNTIME" --root "$ROOT" --log "$BUNDLE/log.json" --log-format json state no-such-id
	[ "$status" -ne 0 ]
	[ "$(wc -l < "$BUNDLE/log.json")" -eq 1 ]
	run jq -r '.level + " " + .msg' "$BUNDLE/log.json"
	[ "$output" = "error container does not exist" ]
	jq -e .time "$BUNDLE/log.json" >/dev/null
}

@test "--version names the spec version" {
	run "$RUNTIME" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"version"* ]]
	[[ "$output" == *"spec: "* ]]
}

@test "wrong argument counts are usage errors" {
	# a usage error: a clean exit (no signal) saying what was wrong
	run rt create
	[ "$status" -ne 0 ]
	[ "$status" -lt 128 ]
	[[ "$output" == *"requires exactly 1 argument"* ]]
	run rt kill a b c
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$status" -lt 128 ]
	# runc's logfmt escapes the quotes around the command's name
	[[ "$output" == *kill*"requires a maximum of 2 argument"* ]]
	run rt --no-such-flag list
	echo "$output"
	[ "$status" -ne 0 ]
	[ "$status" -lt 128 ]
	[[ "$output" == *"flag provided but not defined: -no-such-flag"* ]]
}

@test "spec writes runc's default config.json; refuses to overwrite" {
	dir=$(mktemp -d)
	run rt spec --bundle "$dir"
	[ "$status" -eq 0 ]
	jq -e '.process.args == ["sh"]' "$dir/config.json"
	if command -v runc >/dev/null; then
		ref=$(mktemp -d)
		(cd "$ref" && runc spec)
		diff <(jq -S . "$dir/config.json") <(jq -S . "$ref/config.json")
		rm -rf "$ref"
	fi
	run rt spec --bundle "$dir"
	[ "$status" -ne 0 ]
	[[ "$output" == *"exists"* ]]
	rm -rf "$dir"
}

@test "features is JSON naming the namespaces and hooks" {
	run rt features
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.hooks | index("prestart")'
	echo "$output" | jq -e '.linux.namespaces | index("pid")'
}

@test "features: no seccomp action or flag kcrun refuses; apparmor and selinux on, intelRdt and idmap off" {
	is_kcrun || skip "kcrun only (what kcrun applies and refuses)"
	run rt features
	[ "$status" -eq 0 ]
	# every action of the spec is listed (SCMP_ACT_NOTIFY with a listenerPath);
	# WAIT_KILLABLE_RECV is refused (libseccomp 2.5 cannot set it)
	[ "$(echo "$output" | jq -c '.linux.seccomp.actions')" = \
		'["SCMP_ACT_ALLOW","SCMP_ACT_ERRNO","SCMP_ACT_KILL","SCMP_ACT_KILL_PROCESS","SCMP_ACT_KILL_THREAD","SCMP_ACT_LOG","SCMP_ACT_NOTIFY","SCMP_ACT_TRACE","SCMP_ACT_TRAP"]' ]
	[ "$(echo "$output" | jq -c '.linux.seccomp.supportedFlags')" = \
		'["SECCOMP_FILTER_FLAG_LOG","SECCOMP_FILTER_FLAG_SPEC_ALLOW","SECCOMP_FILTER_FLAG_TSYNC"]' ]
	# known (recognised, refused with its JSON path), not supported
	[ "$(echo "$output" | jq '.linux.seccomp.knownFlags | index("SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV") != null')" = true ]
	# process.apparmorProfile and selinuxLabel are applied (procattrs.c)
	[ "$(echo "$output" | jq -c '[.linux.apparmor.enabled, .linux.selinux.enabled]')" = '[true,true]' ]
	# linux.intelRdt, mounts[].uidMappings/gidMappings, idmap, ridmap: refused
	[ "$(echo "$output" | jq -c '[.linux.intelRdt.enabled, .linux.mountExtensions.idmap.enabled]')" = '[false,false]' ]
	[ "$(echo "$output" | jq -c '[.mountOptions[] | select(. == "idmap" or . == "ridmap")]')" = '[]' ]
	# the recursive options are applied (mount_setattr AT_RECURSIVE)
	[ "$(echo "$output" | jq -c '[.mountOptions[] | select(. == "rro" or . == "rnosuid" or . == "rnodev" or . == "rnoexec" or . == "rnoatime")]')" = \
		'["rnoatime","rnodev","rnoexec","rnosuid","rro"]' ]
}

@test "checkpoint --help and restore fail: podman must not take kcrun for a checkpointing runtime" {
	is_kcrun || skip "kcrun only (runc checkpoints)"
	# podman: a zero exit of `RUNTIME checkpoint --help` means checkpoint
	# support; runc's "flag needs an argument" from `restore
	# --lsm-mount-context`, pod restore support
	for args in "checkpoint --help" "checkpoint -h" "checkpoint x"; do
		run "$RUNTIME" $args
		[ "$status" -eq 1 ]
		[ "$output" = "kcrun: checkpoint is not supported by kcrun (no CRIU support)" ]
	done
	for args in "restore --help" "restore --lsm-mount-context" "restore x"; do
		run "$RUNTIME" $args
		[ "$status" -eq 1 ]
		[ "$output" = "kcrun: restore is not supported by kcrun (no CRIU support)" ]
	done
	# runc's flags are still documented
	run "$RUNTIME" help checkpoint
	[ "$status" -eq 0 ]
	[[ "$output" == *"--leave-running"* ]]
	# and features does not claim CRIU as runc does
	[ "$("$RUNTIME" features | jq -r '.annotations["org.opencontainers.runc.checkpoint.enabled"]')" = null ]
}


@test "--version prints the commit the binary was built from, not the version again" {
	is_kcrun || skip "kcrun only"
	run "$RUNTIME" --version
	[ "$status" -eq 0 ]
	version=$(echo "$output" | sed -n 's/^kcrun version //p')
	commit=$(echo "$output" | sed -n 's/^commit: //p')
	[ -n "$version" ]
	[ -n "$commit" ]
	[ "$commit" != "$version" ]
	# git describe --always --dirty, or "unknown" outside a git tree
	[[ "$commit" =~ ^(unknown|[0-9A-Za-z._-]*[0-9a-f]{7,}(-dirty)?)$ ]]
}

@test "--cgroup-manager: an unknown manager is refused, whatever the command" {
	is_kcrun || skip "kcrun only"
	run "$RUNTIME" --root "$ROOT" --cgroup-manager=bogus list
	[ "$status" -eq 1 ]
	[ "$output" = "kcrun: unknown cgroup manager specified: bogus (cgroupfs, systemd or disabled)" ]
	run "$RUNTIME" --root "$ROOT" --cgroup-manager bogus state x
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown cgroup manager specified: bogus"* ]]
	run "$RUNTIME" --root "$ROOT" --cgroup-manager cgroupfs list -q
	[ "$status" -eq 0 ]
	run "$RUNTIME" --root "$ROOT" --cgroup-manager disabled list -q
	[ "$status" -eq 0 ]
}

@test "update: a value --pids-limit or --blkio-weight cannot take is a usage error, before the container" {
	# runc: both are integer flags, parsed with the command line
	run rt update --pids-limit x nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == *'invalid value "x" for flag -pids-limit: parse error'* ]]
	[[ "$output" != *"does not exist"* ]]
	run rt update --blkio-weight x nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == *'invalid value "x" for flag -blkio-weight: parse error'* ]]
	# the string flags are read after the container is found, as runc does
	run rt update --memory x nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == *"container does not exist"* ]]
}

@test "help checkpoint lists checkpoint's flags, help restore restore's" {
	run "$RUNTIME" help checkpoint
	[ "$status" -eq 0 ]
	[[ "$output" == *"--leave-running"* ]]
	[[ "$output" == *"--image-path"* ]]
	for f in --bundle --detach --pid-file --console-socket --no-pivot; do
		[[ "$output" != *"$f"* ]]
	done
	run "$RUNTIME" help restore
	[ "$status" -eq 0 ]
	[[ "$output" == *"--bundle"* ]]
	[[ "$output" == *"--detach"* ]]
	[[ "$output" != *"--leave-running"* ]]
	[[ "$output" != *"--pre-dump"* ]]
}

@test "help: every command's OPTIONS start their descriptions in one column" {
	is_kcrun || skip "kcrun only (runc's update help breaks its own column)"
	for cmd in $("$RUNTIME" --help | sed -n '/^COMMANDS:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | tr -d ,); do
		[ "$cmd" = help ] && continue
		# the column where each option's description starts
		columns=$("$RUNTIME" help "$cmd" | sed -n '/^OPTIONS:/,$p' | grep '^   -' |
			awk '{ match($0, /^   -[^ ]*( value)?(, -[^ ]*( value)?)? +/); print RLENGTH }' | sort -u)
		echo "$cmd: $columns"
		[ "$(echo "$columns" | wc -l)" -le 1 ]
	done
}

@test "--log-format json without --log: the error on stderr is one JSON object" {
	run --separate-stderr rt --log-format json state nosuch
	[ "$status" -eq 1 ]
	echo "$stderr"
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	echo "$stderr" | jq -e '.level == "error" and .msg == "container does not exist" and (.time | type == "string")'
	# text, the default: the plain line
	run --separate-stderr rt state nosuch
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"container does not exist"* ]]
	run jq -e . <<<"$stderr"
	[ "$status" -ne 0 ]
}
