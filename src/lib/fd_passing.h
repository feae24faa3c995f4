/* SPDX-License-Identifier: GPL-2.0-or-later */
/* File descriptors handed over AF_UNIX stream sockets, as runc does for
 * --console-socket (the pty master) and --pidfd-socket (a pidfd): one
 * message whose data is a name (at least one byte) and exactly one
 * SCM_RIGHTS fd. */
#ifndef KCRUN_FD_PASSING_H
#define KCRUN_FD_PASSING_H

#include "error.h"

/* A SOCK_STREAM socket connected to path (close-on-exec); errors name the
 * flag that gave it (what: "--console-socket"). */
int kc_unix_connect(const char *path, const char *what, kc_error_t *err);

/* Sends fd over sock_fd with name as the data ("" is sent as "-"). */
int kc_send_fd(int sock_fd, int fd, const char *name, kc_error_t *err);

/* Receives one fd sent so (close-on-exec) into *fd. */
int kc_recv_fd(int sock_fd, int *fd, kc_error_t *err);

#endif
