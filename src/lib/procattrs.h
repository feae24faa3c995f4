/* Attributes of the container's process that init sets on itself before
 * execve (they all survive it, or take effect at it): linux.personality,
 * process.scheduler, process.ioPriority, process.execCPUAffinity,
 * process.apparmorProfile and process.selinuxLabel. */
#ifndef KCRUN_PROCATTRS_H
#define KCRUN_PROCATTRS_H

#include "error.h"
#include "oci-spec/spec.h"

/* execCPUAffinity.initial: first thing in init (runc applies it as soon as
 * the process exists). */
int kc_procattrs_initial(const struct oci_process *p, kc_error_t *err);

/* AppArmor profile, SELinux label, personality, scheduler and ioPriority:
 * while init still holds its capabilities (SCHED_FIFO needs CAP_SYS_NICE).
 * An LSM attribute on a system without that LSM is an error, as in runc. */
int kc_procattrs_apply(const struct oci_process *p, const struct oci_linux *lx, kc_error_t *err);

/* execCPUAffinity.final: just before execve. */
int kc_procattrs_final(const struct oci_process *p, kc_error_t *err);

#endif
