/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pidfd-socket PATH (runc 1.2, create/run/exec): a pidfd of the
 * container's init, or of the exec'd process, sent to the AF_UNIX socket
 * at PATH as --console-socket sends the pty master (fd_passing.h), with
 * the data "pidfd".  An engine then signals and waits for the process
 * without a pid that could be reused. */
#ifndef KCRUN_PIDFD_SOCKET_H
#define KCRUN_PIDFD_SOCKET_H

#include <sys/types.h>

#include "error.h"

int kc_pidfd_socket_send(const char *path, pid_t pid, kc_error_t *err);

#endif
