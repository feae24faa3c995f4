/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, `kcrun update`: new linux.resources written into a live
 * container's cgroup, all or nothing, and what update reads back.
 *
 * A failed update changes nothing: the single-value files the writers of
 * cgroup_resources.h may touch are read first (their own table says
 * which), and put back in reverse order when a write is refused.  Both
 * inputs go through kc_cgroup_update(): runc's flags (turned into a
 * linux.resources object by the CLI) and `--resources FILE` (parsed here
 * by oci-spec's linux.resources parser, so errors name
 * linux.resources.memory.limit ...). */
#ifndef KCRUN_CGROUP_UPDATE_H
#define KCRUN_CGROUP_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "cgroup_resources.h"
#include "error.h"
#include "oci-spec/spec.h"

/* kc_cgroup_apply() with a snapshot taken before and put back on failure. */
int kc_cgroup_update(const char *dir, const struct oci_resources *resources, kc_error_t *err);

/* A linux.resources object (runtime-spec LinuxResources, as podman writes
 * it) from FILE; "-" reads stdin.  Free with oci_resources_free(). */
int kc_cgroup_read_resources_file(const char *resources_file, struct oci_resources **resources,
				  kc_error_t *err);

/* `kcrun update --resources FILE`: kc_cgroup_read_resources_file(), then
 * kc_cgroup_update(). */
int kc_cgroup_update_from_file(const char *dir, const char *resources_file, kc_error_t *err);

/* cpu.max now: *quota -1 for "max".  For `update --cpu-period`, which keeps
 * the quota (runc writes the one it remembers with the new period). */
int kc_cgroup_read_cpu_max(const char *dir, int64_t *quota, uint64_t *period, kc_error_t *err);

/* The files of kc_cgroup_writers[] as they are now (first line of each;
 * files the cgroup lacks are left out). */
#define KC_CGROUP_SNAPSHOT_MAX 32
struct kc_cgroup_snapshot {
	size_t n;
	const char *file[KC_CGROUP_SNAPSHOT_MAX];
	char *value[KC_CGROUP_SNAPSHOT_MAX];
};
void kc_cgroup_snapshot_take(const char *dir, struct kc_cgroup_snapshot *snapshot);
/* Best effort, in the reverse order of kc_cgroup_apply()'s writes; frees. */
void kc_cgroup_snapshot_restore(const char *dir, struct kc_cgroup_snapshot *snapshot);
void kc_cgroup_snapshot_free(struct kc_cgroup_snapshot *snapshot);

#endif
