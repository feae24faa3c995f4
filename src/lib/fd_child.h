/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening fds from namespaces kcrun must not enter itself.
 *
 * Some fds can only be opened by a process in a namespace of its own (a
 * sysfs superblock from a network namespace kcrun owns, a clone of a mount
 * of a private copy of the mount namespace).  A child that shares kcrun's
 * fd table -- but not its memory, cwd, root or namespaces -- opens them
 * and dup3()s them into slots kcrun reserved; its namespaces end with it,
 * or live on through the fds it left. */
#ifndef KCRUN_FD_CHILD_H
#define KCRUN_FD_CHILD_H

#include <stddef.h>

/* Runs in the child: fills slots[0..n) (dup3 with O_CLOEXEC) and returns 0,
 * or returns an errno value. */
typedef int (*kc_fd_child_fn)(void *arg, const int *slots, size_t n);

/* Reserves n slots, runs fn in the child and waits for it.  0 with slots
 * filled (O_CLOEXEC), or -1 with errno (fn's) and no slot left open. */
int kc_fd_child_run(kc_fd_child_fn fn, void *arg, int *slots, size_t n);

/* In fn: dup3(fd, slot, O_CLOEXEC) and close(fd); 0 or an errno value. */
int kc_fd_child_fill(int fd, int slot);

#endif
