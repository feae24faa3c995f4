#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` / `make uninstall` with PREFIX and DESTDIR, and the
# installed bash completion.  Host side, from the repository (tests/run-all):
#   bats tests/host/install.bats

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	DEST=$(mktemp -d "${TMPDIR:-/tmp}/kcrun-install.XXXXXX")
}

teardown() {
	rm -rf "$DEST"
}

@test "make install lays out the binary, the man page and the completion under DESTDIR/PREFIX" {
	run make -s -C "$TOP" install DESTDIR="$DEST" PREFIX=/usr
	echo "$output"
	[ "$status" -eq 0 ]
	[ -x "$DEST/usr/bin/kcrun" ]
	[ -f "$DEST/usr/share/man/man8/kcrun.8" ]
	[ -f "$DEST/usr/share/bash-completion/completions/kcrun" ]
	run "$DEST/usr/bin/kcrun" --version
	[ "$status" -eq 0 ]
	if command -v man >/dev/null; then
		MANWIDTH=80 run man -l "$DEST/usr/share/man/man8/kcrun.8"
		[ "$status" -eq 0 ]
		[[ "$output" == *"OCI runtime"* ]]
	fi
}

@test "PREFIX defaults to /usr/local; make uninstall removes what install laid" {
	make -s -C "$TOP" install DESTDIR="$DEST"
	[ -x "$DEST/usr/local/bin/kcrun" ]
	[ -f "$DEST/usr/local/share/man/man8/kcrun.8" ]
	[ -f "$DEST/usr/local/share/bash-completion/completions/kcrun" ]
	make -s -C "$TOP" uninstall DESTDIR="$DEST"
	[ -z "$(find "$DEST" -type f)" ]
}

# complete WORD...: COMPREPLY for the last word, one a line.
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_kcrun
	printf '%s\n' "${COMPREPLY[@]}"
}

@test "the bash completion completes commands, global and command flags from kcrun's help" {
	make -s -C "$TOP" install DESTDIR="$DEST" PREFIX=/usr
	source "$DEST/usr/share/bash-completion/completions/kcrun"
	k=$DEST/usr/bin/kcrun
	[ "$(complete_words "$k" cre)" = create ]
	[ "$(complete_words "$k" --log-f)" = --log-format ]
	[ "$(complete_words "$k" --log-format j)" = json ]
	[ "$(complete_words "$k" --root /tmp ex)" = exec ]
	[ "$(complete_words "$k" exec --cw)" = --cwd ]
	[ "$(complete_words "$k" kill --a)" = --all ]
	[ "$(complete_words "$k" keys gr)" = grant ]
	[ "$(complete_words "$k" keys grant --k)" = --keep-perms ]
	[ "$(complete_words "$k" help upd)" = update ]
	[ "$(complete_words "$k" kill c1 KI)" = KILL ]
	# every command of the global help is offered
	run complete_words "$k" ""
	for c in $("$k" --help | sed -n '/^COMMANDS:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | tr -d ,); do
		echo "$output" | grep -qx "$c"
	done
}
