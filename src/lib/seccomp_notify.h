/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seccomp notify (SCMP_ACT_NOTIFY, linux.seccomp.listenerPath): the
 * listener fd of the process's filter goes to the agent at listenerPath
 * with the container's state, as runc sends it: one message whose data is
 * a runtime-spec ContainerProcessState ({"ociVersion", "fds":
 * ["seccompFd"], "pid", "metadata": listenerMetadata, "state"}) and whose
 * one SCM_RIGHTS fd is the listener.
 *
 *   parent, before fork   kc_seccomp_notify_open(): a socketpair; init (or
 *                         the exec'd member) gets one end by fork
 *   the process           kc_seccomp_notify_hand_over() right after it
 *                         loaded the filter: the listener fd, sent over
 *                         its end, which it then closes with its copy of
 *                         the fd (the container's program never has it)
 *   parent, once ready    kc_seccomp_notify_forward(): receives the fd and
 *                         sends it, with the state, to listenerPath
 * The agent must be listening when create (or exec) runs: a failure to
 * reach it fails the command, which leaves nothing behind. */
#ifndef KCRUN_SECCOMP_NOTIFY_H
#define KCRUN_SECCOMP_NOTIFY_H

#include <sys/types.h>

#include "error.h"
#include "seccomp.h"

/* ends[0] the parent's, ends[1] the process's; both close-on-exec. */
int kc_seccomp_notify_open(int ends[2], kc_error_t *err);

int kc_seccomp_notify_hand_over(scmp_filter_ctx ctx, int end, kc_error_t *err);

/* state: the container's; pid: the process whose filter it is.  Called
 * before the process is waited for (it may be blocked in a call only the
 * agent answers); on failure, an error the process already reported on
 * report_fd (init.h) replaces kcrun's. */
int kc_seccomp_notify_forward(int end, const struct oci_seccomp *seccomp,
			      const struct oci_state *state, pid_t pid, int report_fd,
			      kc_error_t *err);

#endif
