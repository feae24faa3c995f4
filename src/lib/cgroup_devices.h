/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, linux.resources.devices: cgroup v2 has no devices.allow file;
 * like runc and crun, kc_cgroup_apply_devices() attaches a
 * BPF_PROG_TYPE_CGROUP_DEVICE program (raw bpf(2), hand-assembled) to the
 * container's cgroup. */
#ifndef KCRUN_CGROUP_DEVICES_H
#define KCRUN_CGROUP_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

/* One device access rule; access bits are BPF_DEVCG_ACC_* (mknod 1,
 * read 2, write 4). */
struct kc_device_rule {
	char type;      /* 'a' (any), 'c' or 'b' */
	int64_t major;  /* -1: any */
	int64_t minor;  /* -1: any */
	unsigned int access;
	bool allow;
};

/* Parent, during create, after kc_cgroup_create() (before or after the
 * device nodes are made: mknod is always allowed, as with runc).  The
 * rules, last match wins, default deny (runc's order):
 *   linux.resources.devices in order (access: the letters r, w, m of it,
 *   others ignored),
 *   then runc's always-allowed devices: mknod of any c/b node, /dev/null,
 *   zero, full, random, urandom, tty, ptmx, pts/N (136:*), net/tun.
 * A linux.devices node gets no rule of its own: as with runc, a
 * deny-all rule holds for it unless linux.resources.devices allows it.
 * The program comes from the pinned cache when it has these rules
 * (bpf_cache.h: verified once per rule set, one program shared by every
 * container with them); otherwise it is loaded and pinned.  A program
 * attached earlier (a second call, or another container in the same
 * cgroup) is replaced, unless it is that same program, which stays.  Not
 * applied by kc_cgroup_update(): it has no linux.devices to go with it. */
int kc_cgroup_apply_devices(const char *dir, const struct oci_linux *linux_, kc_error_t *err);

/* The rule list above (malloc'ed); errors name linux.resources.devices[i]. */
int kc_cgroup_device_rules(const struct oci_linux *linux_, struct kc_device_rule **rules,
			   size_t *n, kc_error_t *err);

/* The eBPF program for rules (malloc'ed array of struct bpf_insn, 8 bytes
 * each), exposed so tests can run it through an interpreter. */
int kc_cgroup_device_program(const struct kc_device_rule *rules, size_t n, void **insns,
			     size_t *insn_count, kc_error_t *err);

#endif
