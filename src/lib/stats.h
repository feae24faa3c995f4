/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kcrun events`: a container's statistics from its cgroup v2 files, as
 * the JSON event runc prints ({"type":"stats","id":ID,"data":{...}}, the
 * field names of runc's types.Stats), and the OOM-kill counter that
 * `events` watches.
 *
 * Where the numbers come from (runc 1.1's fs2 stats, memory.peak as in
 * runc 1.2):
 *   cpu.usage.total/user/kernel       cpu.stat usage_usec/user_usec/system_usec * 1000
 *   cpu.throttling.*                  cpu.stat nr_periods/nr_throttled/throttled_usec
 *                                     (cgroup v2 has no per-cpu usage: no percpu)
 *   memory.usage.usage/limit/max      memory.current/max/peak ("max": 2^64-1)
 *   memory.swap.usage/limit           memory.swap.current/max plus the memory
 *                                     values (v1's mem+swap, as runc reports it)
 *   memory.cache, memory.raw          memory.stat "file", and all of memory.stat
 *   pids.current/limit                pids.current/max ("max": 0, omitted)
 *   blkio.ioServiceBytesRecursive     io.stat rbytes/wbytes (op Read/Write)
 *   blkio.ioServicedRecursive         io.stat rios/wios
 *   hugetlb.<size>.usage/failcnt      hugetlb.<size>[.rsvd].current, .events max
 * A file whose controller is not enabled is skipped (zeros), as runc does.
 * Zero numbers are left out where runc's omitempty leaves them out. */
#ifndef KCRUN_STATS_H
#define KCRUN_STATS_H

#include <stdint.h>

#include "error.h"

/* The stats event of container id, cgroup directory dir, as one line of
 * JSON (malloc'ed, no trailing newline). */
int kc_stats_event_json(const char *id, const char *dir, char **json, kc_error_t *err);

/* {"type":"oom","id":ID} (malloc'ed). */
int kc_oom_event_json(const char *id, char **json, kc_error_t *err);

/* The oom_kill count of dir/memory.events (0 when there is no such file). */
uint64_t kc_stats_oom_kills(const char *dir);

#endif
