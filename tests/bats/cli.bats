#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line without containers: flags, usage errors, spec, features,
# logging, and the error on a kernel without container objects.  Runs on
# any host: RUNTIME=src/kcrun bats tests/bats/cli.bats

load helpers

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

@test "--systemd-cgroup is refused clearly by create" {
	is_kcrun || skip "kcrun only"
	run "$RUNTIME" --root "$ROOT" --systemd-cgroup create --bundle "$BUNDLE" x
	[ "$status" -ne 0 ]
	[[ "$output" == *"systemd"*"not supported"* ]]
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

