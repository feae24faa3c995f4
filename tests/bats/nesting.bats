#!/usr/bin/env bats
# Containers inside a kcrun container (docs/kernel-api.md "Charging"): kcrun
# bounds how many kernel containers may exist below each container it makes
# (CONTAINER_MAX_DESCENDANTS), 16 unless the annotation
# org.kcrun.max-containers says otherwise, so that the root of a container
# without a user namespace of its own cannot use up the host root's
# /proc/sys/user/max_containers.  nest (tests/helpers) calls
# container_create() from inside; the process gets CAP_SYS_ADMIN for it.

load helpers

NEST=/usr/lib/kcrun/tests/helpers/nest

setup() {
	is_kcrun || skip "kernel container objects are kcrun's"
	setup_bundle
	cp "$NEST" "$BUNDLE/rootfs/bin/nest"
	update_config '.process.capabilities |= with_entries(.value += ["CAP_SYS_ADMIN"] | .value |= unique)'
}

teardown() {
	teardown_bundle
	[ -z "${SAVED_MAX:-}" ] || echo "$SAVED_MAX" > /proc/sys/user/max_containers
}

@test "a container can make 16 containers below it by default, no more" {
	run_in_container nest 40
	[ "$status" -eq 0 ]
	[ "$output" = "created 16 EDQUOT" ]
}

@test "org.kcrun.max-containers raises the bound" {
	update_config '.annotations["org.kcrun.max-containers"] = "40"'
	run_in_container nest 40
	[ "$status" -eq 0 ]
	[ "$output" = "created 40 ok" ]
}

@test "org.kcrun.max-containers 0 forbids nested containers" {
	update_config '.annotations["org.kcrun.max-containers"] = "0"'
	run_in_container nest 1
	[ "$status" -eq 0 ]
	[ "$output" = "created 0 EDQUOT" ]
}

@test "a bad org.kcrun.max-containers is refused by name, leaving nothing" {
	update_config '.annotations["org.kcrun.max-containers"] = "many"'
	set_args true
	run rt run --bundle "$BUNDLE" "$ID"
	[ "$status" -ne 0 ]
	[[ "$output" == *'annotations["org.kcrun.max-containers"]: "many" is not a number'* ]]
	assert_nothing_left "$ID"
}

# Runtime review 2, 4.7: a root without CAP_SYS_ADMIN, in a container
# without a user namespace of its own, unshares one (whose root has every
# capability over it) and makes containers there.  They are charged to
# kuid 0, against the max_containers that host root's `kcrun create` draws
# from; the bound kcrun sets on its container stops them at 16 while they
# are held, so the host still creates.  max_containers is set 24 above the
# containers that exist (earlier tests' may still be being freed): the
# holder, its 16 and the host's next leave room to spare; without the bound
# nest would take it all (more than 16) and the second run would fail.
@test "a container's root in a user namespace of its own cannot use up root's max_containers" {
	update_config '.process.capabilities |= with_entries(.value -= ["CAP_SYS_ADMIN"])'
	SAVED_MAX=$(cat /proc/sys/user/max_containers)
	echo $(($(awk 'NR > 1' /proc/containers | wc -l) + 24)) > /proc/sys/user/max_containers
	set_args nest -u -w 40
	rt_bg run -d --bundle "$BUNDLE" "$ID"
	wait_for 60 grep -q created "$BUNDLE/.out"
	cat "$BUNDLE/.out"
	[ "$(cat "$BUNDLE/.out")" = "created 16 EDQUOT" ]
	# host root's next container, while the 16 are held
	mkdir "$BUNDLE/second"
	jq --arg root "$BUNDLE/rootfs" '.root.path = $root | .process.args = ["true"]' \
		"$BUNDLE/config.json" > "$BUNDLE/second/config.json"
	run rt run --bundle "$BUNDLE/second" "$ID-second"
	[ "$status" -eq 0 ]
	[ "$(cat "$BUNDLE/.out")" = "created 16 EDQUOT" ]
	rt kill "$ID" KILL
	wait_for_status "$ID" stopped
	rt delete "$ID"
	assert_nothing_left "$ID"
}
