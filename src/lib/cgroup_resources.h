/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, the resource writers: linux.resources -> the controllers'
 * files of the container's cgroup.
 *
 * Conversions follow runc 1.1 (libcontainer/cgroups/fs2), so limits read
 * back the same as with runc:
 *   memory.limit -> memory.max, reservation -> memory.low,
 *   swap -> memory.swap.max = swap - limit; disableOOMKiller, kernel,
 *   kernelTCP, swappiness ignored (no v2 equivalent);
 *   cpu.shares -> cpu.weight = 1 + (shares - 2) * 9999 / 262142,
 *   quota/period -> cpu.max, burst -> cpu.max.burst, idle -> cpu.idle,
 *   cpus/mems -> cpuset.cpus/cpuset.mems, realtime* refused;
 *   pids.limit -> pids.max (< 0: max, 0: unchanged);
 *   blockIO.weight -> io.bfq.weight if present, else
 *   io.weight = 1 + (weight - 10) * 9999 / 990; throttle* -> io.max;
 *   hugepageLimits -> hugetlb.<size>.max (and .rsvd.max when present);
 *   rdma -> rdma.max; unified -> the named files, verbatim.
 *   network (classID, priorities) is cgroup v1 only: ignored as runc does.
 * linux.resources.devices: see cgroup_devices.h.
 *
 * Errors name the spec field, e.g.
 *   `linux.resources.memory.limit: write `4096` to memory.max in /sys/fs/cgroup/x: ...`
 *   `linux.resources.unified."memory.foo": no such file in /sys/fs/cgroup/x`
 */
#ifndef KCRUN_CGROUP_RESOURCES_H
#define KCRUN_CGROUP_RESOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

/* Writes linux.resources into dir; only the fields present are written,
 * so the same function serves create and update.  NULL: nothing to do. */
int kc_cgroup_apply(const char *dir, const struct oci_resources *resources, kc_error_t *err);

/* The writers kc_cgroup_apply() runs, in order, and the single-value files
 * each may write: kc_cgroup_snapshot_take() reads those files from this
 * same table, so a snapshot covers what apply writes. */
#define KC_CGROUP_WRITER_FILES 6
struct kc_cgroup_writer {
	const char *what; /* the linux.resources member */
	int (*apply)(const char *dir, const struct oci_resources *resources, kc_error_t *err);
	const char *files[KC_CGROUP_WRITER_FILES]; /* NULL-terminated when shorter */
};
extern const struct kc_cgroup_writer kc_cgroup_writers[];
extern const size_t kc_cgroup_writers_len;

/* Pure conversions (runc's), exposed for tests and `update`. */
uint64_t kc_cgroup_cpu_shares_to_weight(uint64_t shares);
uint64_t kc_cgroup_blkio_weight_to_io_weight(uint64_t weight);
/* memory.swap.max from spec swap (memory+swap) and limit: sets *out to the
 * value to write ("max" for -1), or "" when nothing is to be written. */
int kc_cgroup_swap_max(int64_t swap, int64_t limit, char out[32], kc_error_t *err);

#endif
