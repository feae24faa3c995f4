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
