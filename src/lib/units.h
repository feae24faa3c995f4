/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Values as runc's command line takes them: sizes the way
 * github.com/docker/go-units' RAMInBytes reads them ("100M", "1g",
 * "512KiB", "1.5G": binary multiples, case-insensitive) and durations the
 * way Go's time.ParseDuration does ("5s", "1m30s", "250ms"). */
#ifndef KCRUN_UNITS_H
#define KCRUN_UNITS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* RAMInBytes: ^(\d+(\.\d+)?) ?([kKmMgGtTpP])?[iI]?[bB]?$, the number times
 * 1024^unit, truncated.  A negative or out-of-range size is refused;
 * errors read "invalid size: 'TEXT'" (go-units' wording). */
int kc_parse_ram_in_bytes(const char *text, int64_t *bytes, kc_error_t *err);

/* time.ParseDuration: an optional sign, then one or more NUMBER UNIT with
 * units ns, us (µs, μs), ms, s, m, h; "0" alone is allowed.  *ns gets
 * nanoseconds.  Errors read `time: invalid duration "TEXT"`. */
int kc_parse_duration(const char *text, int64_t *ns, kc_error_t *err);

/* A CPU or memory-node list as cpuset.cpus takes it ("0-3,7"): numbers and
 * ascending ranges, comma-separated, nothing else.  With set, the CPUs go
 * into it and each must be below CPU_SETSIZE; without, only the syntax is
 * checked (the kernel judges the numbers). */
bool kc_cpu_list_parse(const char *list, cpu_set_t *set);

#endif
