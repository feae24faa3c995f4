/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The LSM attributes of the container's process: process.apparmorProfile
 * (runc's change_onexec) and process.selinuxLabel, both taking effect at
 * execve.  A process of the container with CAP_SYS_ADMIN in its user
 * namespace can rearrange the mount namespace an exec'd process joins: a
 * tmpfs over /proc with a writable procfs file bound at attr/exec, a fake
 * /sys/module/apparmor (runtime review 2, 4.5).  So nothing here looks at
 * the container's files: whether an LSM runs is decided by kcrun on the
 * host, and the attribute is written through a procfs kcrun made for the
 * container, never attached anywhere. */
#ifndef KCRUN_LSM_H
#define KCRUN_LSM_H

#include "error.h"
#include "oci-spec/spec.h"

/* The parent, before the process exists: an error naming the field when p
 * asks for an LSM the host does not run (as runc); otherwise *proc_fd is a
 * detached procfs that shows the pid namespace of the container cfd (-1
 * when p asks for no label).  The process gets it by fork. */
int kc_lsm_prepare(const struct oci_process *p, int cfd, int *proc_fd, kc_error_t *err);

/* The process itself, before it gives up its capabilities: writes p's
 * labels into its own attributes through proc_fd (from kc_lsm_prepare()),
 * which it then closes. */
int kc_lsm_apply(const struct oci_process *p, int proc_fd, kc_error_t *err);

#endif
