/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procfs as a place kcrun writes to or mounts over.
 *
 * An image (or a mount of the config) can put something else where /proc
 * should be (runc's CVE-2019-16884): every write that must land in procfs
 * (sysctls, LSM attributes) checks that the file it opened is on procfs,
 * and mounts[] may not cover /proc with something that is not procfs. */
#ifndef KCRUN_PROCFS_H
#define KCRUN_PROCFS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* open(path, flags | O_NOFOLLOW): the fd, or -1 with errno (EXDEV when the
 * file is not on procfs). */
int kc_procfs_open(const char *path, int flags);

/* True when fd's file lies on a procfs. */
bool kc_fd_on_procfs(int fd);

/* runc's checkProcMount for mounts[index]: a mount whose destination is
 * /proc must be procfs (a proc mount, or a bind of a procfs path); one
 * inside /proc is refused except for the files lxcfs emulates.  proc and
 * tmpfs mounts are not checked (as runc 1.1).  dest_fd,
 * when >= 0, is an O_PATH fd of the destination as it resolves in the
 * container (after symlinks): a destination that resolves into a procfs
 * already mounted there counts as inside /proc. */
int kc_procfs_check_mount(size_t index, const char *destination, const char *type, bool bind,
			  const char *bind_source, int dest_fd, kc_error_t *err);

#endif
