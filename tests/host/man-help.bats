#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/kcrun.8 against the binary's own help, so that the two cannot drift:
# the man page names every command `kcrun --help` lists and no other, every
# flag of every command's help in that command's section (the keys
# subcommands' in theirs), every global flag in GLOBAL OPTIONS, and each
# section's synopsis names only flags the command takes.  Host side.

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	KCRUN=${KCRUN:-$TOP/src/kcrun}
	MAN=${MAN_PAGE:-$TOP/docs/kcrun.8}
	[ -x "$KCRUN" ] || make -s -C "$TOP/src"
	# the page as plain text, one section a block: "@@ HEADING" then its body
	PLAIN=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/^\.S[SH] /@@ /' "$MAN")
}

# The commands of the global help (without help itself).
help_commands() {
	"$KCRUN" --help | sed -n '/^COMMANDS:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' |
		tr -d , | grep -vx help
}

# The long flags of a help text on stdin (OPTIONS or GLOBAL OPTIONS).
help_flags() {
	sed -n '/^\(GLOBAL \)\?OPTIONS:/,$p' | grep -oE '^   --[a-z0-9-]+' | sed 's/^ *//' |
		{ grep -vx -e --help -e --version || true; }
}

# The headings of the page's command sections: "create [--bundle DIR] ... ID".
man_headings() {
	sed -n '/^@@ COMMANDS$/,/^@@ [A-Z]/p' <<<"$PLAIN" | sed -n 's/^@@ //p' | grep -v '^[A-Z]'
}

# The commands a heading names: the first word of each ", "-separated part
# ("pause ID, resume ID"), "keys SUB" for the keys subcommands.
heading_commands() {
	sed 's/, /\n/g' | awk '$1 == "keys" { print $1 " " $2; next } { print $1 }'
}

# The section (heading and body) whose heading names command $1.
man_section() {
	awk -v want="$1" '
		/^@@ / {
			on = 0
			n = split(substr($0, 4), parts, ", ")
			for (i = 1; i <= n; i++) {
				split(parts[i], w, " ")
				name = w[1] == "keys" ? w[1] " " w[2] : w[1]
				if (name == want)
					on = 1
			}
		}
		on' <<<"$PLAIN"
}

@test "the man page has a section for every command of kcrun --help, and none for others" {
	want=$( (help_commands | grep -vx keys; "$KCRUN" help keys |
		sed -n 's/^   kcrun keys <\([^>]*\)>.*/\1/p' | tr '|' '\n' | sed 's/^/keys /'; echo help) | sort -u)
	have=$(man_headings | heading_commands | sort -u)
	diff <(echo "$want") <(echo "$have")
}

@test "every flag of every command's help is named in its man section" {
	missing=
	for cmd in $(help_commands | grep -vx keys); do
		section=$(man_section "$cmd")
		[ -n "$section" ] || { missing+=" $cmd(no section)"; continue; }
		for flag in $("$KCRUN" help "$cmd" | help_flags); do
			grep -qE -- "$flag([^a-z0-9-]|$)" <<<"$section" || missing+=" $cmd:$flag"
		done
	done
	for sub in $("$KCRUN" help keys | sed -n 's/^   kcrun keys <\([^>]*\)>.*/\1/p' | tr '|' ' '); do
		section=$(man_section "keys $sub")
		for flag in $("$KCRUN" keys "$sub" --help | help_flags); do
			grep -qE -- "$flag([^a-z0-9-]|$)" <<<"$section" || missing+=" keys-$sub:$flag"
		done
	done
	echo "not in the man page:$missing"
	[ -z "$missing" ]
}

@test "every global flag is in GLOBAL OPTIONS" {
	section=$(sed -n '/^@@ GLOBAL OPTIONS$/,/^@@ COMMANDS$/p' <<<"$PLAIN")
	missing=
	for flag in $("$KCRUN" --help | help_flags); do
		grep -qE -- "$flag([^a-z0-9-]|$)" <<<"$section" || missing+=" $flag"
	done
	echo "not in the man page:$missing"
	[ -z "$missing" ]
}

@test "a section's synopsis names only flags its command takes" {
	extra=
	while read -r heading; do
		for part in $(sed 's/, /\n/g' <<<"$heading" | awk '{ print ($1 == "keys" ? $1 "/" $2 : $1) }'); do
			case "$part" in
			keys/*) flags=$("$KCRUN" keys "${part#keys/}" --help | help_flags) ;;
			help) continue ;;
			*) flags=$("$KCRUN" help "$part" | help_flags) ;;
			esac
			# the flags the synopsis gives this part of the heading
			syn=$(sed 's/, /\n/g' <<<"$heading" | awk -v p="${part/\// }" 'index($0, p) == 1')
			for flag in $(grep -oE -- '--[a-z0-9-]+' <<<"$syn"); do
				grep -qx -- "$flag" <<<"$flags" || extra+=" $part:$flag"
			done
		done
	done < <(man_headings)
	echo "named by the man page, not taken:$extra"
	[ -z "$extra" ]
}
