/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A host executable as a handle nobody can write through.
 *
 * The runtime runs some host executables inside a container: itself (init
 * and exec's child run kcrun's image until they exec) and createContainer
 * hooks (opened on the host at create, run in the container's mount
 * namespace).  A process of the container that gets such a handle, or an
 * fd to it from /proc/PID/fd, could reopen it for writing and overwrite the
 * host's file (runc's CVE-2019-5736).  The handle is either a read-only,
 * detached bind mount of the file (no copy; /proc/PID/fd/N reopens it on a
 * read-only mount) or, where making one is refused (no CAP_SYS_ADMIN over
 * the mount namespace: rootless), a memfd copy sealed against writes.
 * Both are close-on-exec: a caller that runs a #! script from one clears
 * that in the child, for its own handle only. */
#ifndef KCRUN_EXEC_HANDLE_H
#define KCRUN_EXEC_HANDLE_H

#include <fcntl.h>

#include "error.h"

/* The seals of a memfd copy: no write, no resize, no unsealing. */
#define KC_EXEC_HANDLE_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* PATH (relative to DIRFD, symlinks followed) as an unwritable handle
 * for execveat(fd, "", ..., AT_EMPTY_PATH); NAME names a memfd copy.
 * Returns the fd, or -1 with *err set. */
int kc_exec_handle_open(int dirfd, const char *path, const char *name, kc_error_t *err);

/* The same, always as a sealed memfd copy.  A file that is not regular, or
 * that the caller may not execute, is refused with EACCES as execve would. */
int kc_exec_handle_copy(int dirfd, const char *path, const char *name, kc_error_t *err);

#endif
