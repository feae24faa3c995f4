/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cache of loaded BPF programs, pinned in bpffs: the eBPF device filter
 * is the same few instructions for nearly every container, and the
 * verifier costs more than the rest of the cgroup step (~10 ms under TCG).
 *
 * A program is pinned as <dir>/<prefix>-<tag>, where <tag> is the kernel's
 * own program tag (the first 8 bytes of the SHA-1 of the instructions, in
 * hex: `bpftool prog` shows it).  A pin is reused only when the program
 * behind it has the expected type, that tag, and translated instructions
 * equal, byte for byte, to the ones asked for: a file planted under that
 * name cannot stand in for the filter.  The directory is made 0700 and is
 * used only when it is a bpffs directory owned by the caller's euid with
 * no group or other permissions; otherwise (no bpffs at /sys/fs/bpf, as in
 * a container or a host without systemd) nothing is cached and the caller
 * loads the program itself.
 *
 * Pins are never removed by kcrun: one per distinct rule set, a few KiB
 * each (kernel memory), and a program attached to a cgroup lives on without
 * its pin, so removing any of them (`rm /sys/fs/bpf/kcrun/<name>`) is
 * always safe; the next container with those rules loads and pins again. */
#ifndef KCRUN_BPF_CACHE_H
#define KCRUN_BPF_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* Where kcrun pins its programs (under systemd's bpffs mount). */
#define KC_BPF_CACHE_DIR "/sys/fs/bpf/kcrun"

/* The kernel's tag of a program (bpf_prog_calc_tag: SHA-1 of the
 * instructions, first 8 bytes; there are no map fds to blank here). */
void kc_bpf_prog_tag(const void *insns, size_t insn_count, uint8_t tag[8]);

/* The SHA-1 of len bytes (exposed for the unit tests' known answers). */
void kc_sha1(const void *data, size_t len, uint8_t digest[20]);

/* An fd of the program pinned for (prog_type, insns) in dir, checked as
 * above, or -1 with errno set: ENOENT when nothing usable is pinned
 * (including a directory that may not be used), EINVAL when the pin does
 * not match. */
int kc_bpf_cache_get(const char *dir, const char *prefix, uint32_t prog_type, const void *insns,
		     size_t insn_count);

/* The id of the program behind fd (bpftool's), 0 when unknown. */
uint32_t kc_bpf_prog_id(int fd);

/* Pins prog_fd for the next kc_bpf_cache_get(); best effort (a pin made
 * by a concurrent kcrun first is as good).  Returns 0 when a pin of that
 * name exists afterwards, -1 with errno otherwise. */
int kc_bpf_cache_put(const char *dir, const char *prefix, int prog_fd, const void *insns,
		     size_t insn_count);

#endif
