#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What only the repository can check: the commit `kcrun --version` names is
# one of this repository's (src/Makefile's `git describe --always --dirty`).

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git tree"
}

@test "--version's commit is a commit of this repository" {
	make -s -C "$TOP/src"
	run "$TOP/src/kcrun" --version
	[ "$status" -eq 0 ]
	commit=$(echo "$output" | sed -n 's/^commit: //p')
	echo "commit: $commit"
	hash=$(echo "$commit" | grep -oE '[0-9a-f]{7,}' | tail -1)
	[ -n "$hash" ]
	git -C "$TOP" cat-file -e "$hash^{commit}"
}
