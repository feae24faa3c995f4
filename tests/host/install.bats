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

@test "the Debian package (contrib/build-deb) holds what make install lays out, under /usr" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb on this machine"
	local deb
	deb=$(ls "${KCRUN_CACHE:-/var/cache/kcrun}"/deb/kcrun_*_amd64.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { echo "no package in ${KCRUN_CACHE:-/var/cache/kcrun}/deb: make deb" >&2; return 1; }
	run dpkg-deb -c "$deb"
	[ "$status" -eq 0 ]
	local f
	for f in ./usr/bin/kcrun ./usr/share/man/man8/kcrun.8.gz \
		./usr/share/bash-completion/completions/kcrun ./usr/share/doc/kcrun/copyright; do
		awk '{ print $6 }' <<< "$output" | grep -qxF "$f" || { echo "$deb lacks $f" >&2; return 1; }
	done
	[ "$(dpkg-deb -f "$deb" Package)" = kcrun ]
	[ "$(dpkg-deb -f "$deb" Version)" = "$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)" ]
	[[ "$(dpkg-deb -f "$deb" Depends)" == *libseccomp2*libyajl2* ]]
}

@test "the patched kernel as Debian packages (make kernel-deb): the image is the kernel the guest boots" {
	command -v dpkg-deb >/dev/null || skip "no dpkg-deb on this machine"
	local cache=${KCRUN_CACHE:-/var/cache/kcrun} deb release
	deb=$(ls "$cache"/deb-kernel/linux-image-*_amd64.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || { echo "no kernel package in $cache/deb-kernel: make kernel-deb" >&2; return 1; }
	# the release the guest's bzImage reports ("version 6.1.N-kcrun (...")
	release=$(file -b "$cache/bzImage-default" | sed -n 's/.*version \([^ ]*\) .*/\1/p')
	[ -n "$release" ]
	[ "$(dpkg-deb -f "$deb" Package)" = "linux-image-$release" ]
	run dpkg-deb -c "$deb"
	[ "$status" -eq 0 ]
	awk '{ print $6 }' <<< "$output" | grep -qxF "./boot/vmlinuz-$release"
	awk '{ print $6 }' <<< "$output" | grep -qxF "./boot/config-$release"
	# the config it was built from has the container objects
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/kcrun-kdeb.XXXXXX")
	dpkg-deb -x "$deb" "$dir"
	run grep -x 'CONFIG_CONTAINERS=y' "$dir/boot/config-$release"
	rm -rf "$dir"
	[ "$status" -eq 0 ]
	# the UAPI headers, with the container calls, for building against them
	run dpkg-deb -c "$(ls "$cache"/deb-kernel/linux-libc-dev_*_amd64.deb)"
	[ "$status" -eq 0 ]
	[[ "$output" == *"./usr/include/linux/container.h"* ]]
}
