/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Attributes of the container's process: those init sets on itself before
 * execve (they all survive it, or take effect at it): process.rlimits,
 * linux.personality, process.scheduler, process.ioPriority,
 * and process.execCPUAffinity; and process.oomScoreAdj, which the parent
 * writes for init.  The LSM labels are lsm.h's. */
#ifndef KCRUN_PROCATTRS_H
#define KCRUN_PROCATTRS_H

#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

/* execCPUAffinity.initial: first thing in init (runc applies it as soon as
 * the process exists). */
int kc_procattrs_initial(const struct oci_process *p, kc_error_t *err);

/* process.rlimits (setrlimit), before the scheduler and the user change. */
int kc_procattrs_rlimits(const struct oci_process *p, kc_error_t *err);

/* Personality, scheduler and ioPriority: while init still holds its
 * capabilities (SCHED_FIFO needs CAP_SYS_NICE). */
int kc_procattrs_apply(const struct oci_process *p, const struct oci_linux *lx, kc_error_t *err);

/* execCPUAffinity.final: just before execve. */
int kc_procattrs_final(const struct oci_process *p, kc_error_t *err);

/* process.oomScoreAdj: written by the parent into /proc/<init>, right after
 * clone3(CLONE_INTO_CONTAINER). */
int kc_procattrs_oom_score_adj(pid_t pid, int value, kc_error_t *err);

#endif
