#!/usr/bin/env bats
# Used by tests/harness/run only: one test passes, one fails on purpose, to
# prove that a failure inside the guest fails the run.

@test "harness self-test: this one passes" {
	true
}

@test "harness self-test: this one fails on purpose" {
	false
}
