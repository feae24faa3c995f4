/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where kcrun's messages go: stderr always, and the --log file in the
 * --log-format (text or json, one line per message, as runc writes them). */
#ifndef KCRUN_LOG_H
#define KCRUN_LOG_H

#include <stdbool.h>
#include <stddef.h>

void kc_log_init(const char *path, bool json, bool debug);
bool kc_log_debug_enabled(void);

/* An error for the user: "kcrun: MSG" on stderr, and a line in the log file. */
void kc_log_error(const char *msg);

/* Debug messages go to the log file (or stderr without one) only with --debug. */
void kc_log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* KCRUN_TRACE=1: "kcrun: trace: +N us WHAT" on stderr (time since the
 * first call), to see where a command spends its time.  The steps are also
 * fault-injection points: KCRUN_KILL_AT=WHAT makes kcrun SIGKILL itself
 * there (tests/bats/faults.bats). */
void kc_trace(const char *what);

/* Warnings: like errors, but level "warning". */
void kc_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
