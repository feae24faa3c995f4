# kcrun: two commands do everything (see README.md):
#   make demo    boot the patched kernel in QEMU and run a busybox container
#   make check   every test: host unit tests, then the bats suites in the guest
#
# The kernel tree, build output, images and the guest live in $(KCRUN_CACHE),
# outside the repository.

KCRUN_CACHE ?= /var/cache/kcrun
export KCRUN_CACHE
DEBUG ?= 0

.PHONY: all deps kernel selftests runtime images guest debian demo check check-debug \
	check-series unit fuzz bench profile shell clean

all: runtime

deps:
	@vm/install-deps

kernel: deps
	@kernel/build $(if $(filter 1,$(DEBUG)),--debug)

selftests: kernel
	@kernel/build-selftests

runtime: deps
	@echo "[runtime] building oci-spec and kcrun" >&2
	@$(MAKE) -s -C oci-spec
	@$(MAKE) -s -C src

images: deps
	@images/build

guest: runtime images selftests
	@vm/build-guest

# The full Debian guest (podman, conmon): built once, reused afterwards.
debian: deps
	@vm/build-debian

demo: kernel guest
	@vm/run -- /usr/lib/kcrun/tests/demo

# The host unit tests alone (oci-spec, then the runtime library and CLI).
unit: runtime
	@$(MAKE) -s -C oci-spec test
	@$(MAKE) -s -C tests/unit/lib test

check: kernel guest debian
	@tests/run-all

check-debug: deps
	@$(MAKE) -s kernel DEBUG=1
	@$(MAKE) -s guest
	@KCRUN_VM_STRICT=1 KCRUN_VM_TIMEOUT=$${KCRUN_VM_TIMEOUT:-5400} tests/run-guest --debug /usr/lib/kcrun/tests/bats/kernel.bats \
		/usr/lib/kcrun/tests/bats/keys.bats /usr/lib/kcrun/tests/bats/exec.bats

# Every patch of kernel/series on its own: checkpatch --strict, full bzImage.
check-series: kernel
	@kernel/check-series

# libFuzzer over config.json, state.json and the command line (fuzz/):
# RUNS executions per target; `make -C fuzz regress` is the corpus replay
# `make check` runs.
RUNS ?= 100000
fuzz: deps
	@$(MAKE) -s -C fuzz run RUNS=$(RUNS)

# bench/lifecycle and the kernel's floor (bench/floor.c) in one boot:
# SCALE=100 for a shorter run (bench/run-lifecycle).
bench: kernel guest
	@bench/run-lifecycle

# The guest kernel's profile (a static perf, built once into $(KCRUN_CACHE)/perf)
# of a process start and of create+start+delete, at 0 and beside SCALE live
# containers (bench/run-profile).
profile: kernel guest
	@bench/run-profile

# A shell in the guest (needs a terminal).
shell: kernel guest
	@vm/run -- /bin/bash -i

clean:
	-@$(MAKE) -s -C oci-spec clean
	-@$(MAKE) -s -C src clean
	-@$(MAKE) -s -C fuzz clean
