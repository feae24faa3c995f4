# kcrun: two commands do everything (see README.md):
#   make demo    boot the patched kernel in QEMU and run a busybox container
#   make check   every test: host unit tests, then the bats suites in the guest
#
# The kernel tree, build output, images and the guest live in $(KCRUN_CACHE),
# outside the repository.

KCRUN_CACHE ?= /var/cache/kcrun
export KCRUN_CACHE
DEBUG ?= 0

# make install: the runtime, its man page and its bash completion.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

.PHONY: all deps deps-runtime kernel selftests runtime build-runtime images guest debian deb kernel-deb demo \
	check check-debug check-series unit fuzz bench profile shell install uninstall clean

all: runtime

deps:
	@vm/install-deps

kernel: deps
	@kernel/build $(if $(filter 1,$(DEBUG)),--debug)

selftests: kernel
	@kernel/build-selftests

# The runtime alone needs only a compiler and two libraries
# (vm/install-deps --runtime), none of the kernel's or the guest's packages.
deps-runtime:
	@vm/install-deps --runtime

runtime: deps-runtime
	@$(MAKE) -s build-runtime

build-runtime:
	@echo "[runtime] building oci-spec and kcrun" >&2
	@$(MAKE) -s -C oci-spec
	@$(MAKE) -s -C src

# Builds what is missing (no apt-get: a packager's build has its own
# dependencies), then copies; DESTDIR for a staged install.
install: build-runtime
	install -D -m 0755 src/kcrun $(DESTDIR)$(BINDIR)/kcrun
	install -D -m 0644 docs/kcrun.8 $(DESTDIR)$(MANDIR)/man8/kcrun.8
	install -D -m 0644 contrib/completion/bash/kcrun $(DESTDIR)$(BASHCOMPDIR)/kcrun

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kcrun $(DESTDIR)$(MANDIR)/man8/kcrun.8 \
		$(DESTDIR)$(BASHCOMPDIR)/kcrun

images: deps
	@images/build

guest: runtime images selftests deb
	@vm/build-guest

# The Debian package (debian/, dpkg-buildpackage) in $(KCRUN_CACHE)/deb: the
# Debian guest installs it with dpkg -i and its engines run that binary.
deb: deps
	@contrib/build-deb

# The patched kernel as Debian packages (bindeb-pkg) in
# $(KCRUN_CACHE)/deb-kernel, to boot in a VM of one's own; never installed here.
kernel-deb: kernel
	@kernel/build-deb

# The full Debian guest (podman, conmon): built once, reused afterwards.
debian: deps
	@vm/build-debian

demo: kernel guest
	@vm/run -- /usr/lib/kcrun/tests/demo

# The host unit tests alone (oci-spec, then the runtime library and CLI).
unit: runtime
	@$(MAKE) -s -C oci-spec test
	@$(MAKE) -s -C tests/unit/lib test

check: kernel guest debian kernel-deb
	@tests/run-all

# Every guest suite on the debug kernel (KASAN, lockdep, kmemleak), strict:
# a kernel report fails the run.  The engine suites need the Debian guest.
DEBIAN_SUITES := debian-package.bats cri.bats podman.bats podman-rootless.bats engine-network.bats docker.bats containerd.bats systemd-cgroup.bats systemd-notify.bats systemd-rootless.bats
check-debug: deps
	@$(MAKE) -s kernel DEBUG=1
	@$(MAKE) -s guest
	@KCRUN_VM_STRICT=1 KCRUN_VM_TIMEOUT=$${KCRUN_VM_TIMEOUT:-10800} tests/run-guest --debug \
		$$(cd tests/bats && ls *.bats | grep -vxF $(patsubst %,-e %,$(DEBIAN_SUITES)) | \
		sed 's|^|/usr/lib/kcrun/tests/bats/|')

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
# SCALE=100 for a shorter run (bench/run-lifecycle); then the systemd cgroup
# driver's cost against cgroupfs in the Debian guest under systemd
# (bench/run-systemd-scope).
bench: kernel guest debian
	@bench/run-lifecycle
	@bench/run-systemd-scope

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
