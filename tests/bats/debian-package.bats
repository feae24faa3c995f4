#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# kcrun as Debian users get it: the package debian/ builds (contrib/build-deb),
# installed with dpkg -i when the Debian guest boots (vm/guest-init), is the
# kcrun the engines' suites run.  Debian guest only (vm/run --debian); skipped
# where dpkg is missing.

load helpers

setup() {
	command -v dpkg >/dev/null || skip "no dpkg here (the Debian guest has it)"
}

@test "debian package: installed, and the kcrun on PATH and in the engines' configs is its file" {
	run dpkg-query -W -f '${Status} ${Version} ${Architecture}' kcrun
	[ "$status" = 0 ]
	[[ "$output" == "install ok installed "*" amd64" ]]
	[ "$(command -v kcrun)" = /usr/bin/kcrun ]
	run dpkg -S /usr/bin/kcrun
	[ "$status" = 0 ]
	[ "$output" = "kcrun: /usr/bin/kcrun" ]
	# dpkg's md5sums of the package against the files on disk: nothing
	# replaced the packaged binary after the install.
	run dpkg --verify kcrun
	[ "$status" = 0 ]
	[ -z "$output" ]
	grep -q '"/usr/bin/kcrun"' /etc/containers/containers.conf
	jq -e '.runtimes.kcrun.path == "/usr/bin/kcrun"' /etc/docker/daemon.json
	grep -q 'BinaryName = "/usr/bin/kcrun"' /etc/containerd/config.toml
}

@test "debian package: the man page, the completion and the copyright are where Debian puts them" {
	run dpkg -L kcrun
	[ "$status" = 0 ]
	local f
	for f in /usr/bin/kcrun /usr/share/man/man8/kcrun.8.gz \
		/usr/share/bash-completion/completions/kcrun /usr/share/doc/kcrun/copyright; do
		grep -qxF "$f" <<< "$output" || { echo "dpkg -L kcrun lacks $f" >&2; return 1; }
	done
	gzip -dc /usr/share/man/man8/kcrun.8.gz | grep -q '^\.TH KCRUN 8'
	grep -q '^License: GPL-2.0-or-later' /usr/share/doc/kcrun/copyright
}

@test "debian package: linked against Debian's libyajl2, libseccomp2 and libsystemd0, and says so in Depends" {
	run dpkg-query -W -f '${Depends}' kcrun
	[ "$status" = 0 ]
	[[ "$output" == *libyajl2* ]]
	[[ "$output" == *libseccomp2* ]]
	# sd-bus for the systemd cgroup driver, which features then lists
	[[ "$output" == *libsystemd0* ]]
	kcrun features | jq -e '.linux.cgroup.systemd and .linux.cgroup.systemdUser'
	run kcrun --version
	[ "$status" = 0 ]
	[[ "${lines[0]}" == "kcrun version $(dpkg-query -W -f '${Version}' kcrun)" ]]
	[[ "$output" == *"libseccomp: "* ]]
}

@test "debian package: the packaged binary runs a container as a kernel object" {
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	setup_bundle
	set_args sh -c 'echo ran'
	rt_bg create --bundle "$BUNDLE" "$ID"
	# the kernel's list of container objects names it before it ran anything
	awk 'NR > 1 { print $1 }' /proc/containers | grep -qx "$ID"
	rt start "$ID"
	wait_for_status "$ID" stopped
	grep -qx ran "$BUNDLE/.out"
	rt delete "$ID"
	assert_nothing_left "$ID"
}

teardown() {
	teardown_bundle
}
