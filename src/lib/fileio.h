/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole files in and out: the one place that reads a file to its end and
 * the one that replaces a file atomically.
 *
 * The readers return 0 or -errno and leave the wording of errors to the
 * caller, which knows what the file was for; the content is malloc'ed and
 * NUL-terminated, *len (may be NULL) its length. */
#ifndef KCRUN_FILEIO_H
#define KCRUN_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"

/* Reads fd to EOF (EINTR retried).  max > 0 bounds the size: -EFBIG once
 * the content reaches max bytes. */
int kc_read_fd(int fd, size_t max, char **content, size_t *len);

/* Opens path (O_RDONLY | O_CLOEXEC) and reads it whole. */
int kc_read_file(const char *path, size_t max, char **content, size_t *len);

/* dir/file, read whole (cgroup and /proc files). */
int kc_read_file_in(const char *dir, const char *file, char **content);

/* Replaces path with data atomically: written to a temporary file in the
 * same directory, chmod'ed to mode, then renamed over path, so a reader
 * sees the old file or the new one, whole.  fixed_tmp NULL: the temporary
 * is ".<name>.XXXXXX", made O_EXCL under a random name (never a file
 * someone planted there, never through a symlink): for files in the
 * caller's directories (pid files).  Otherwise ".<name><fixed_tmp>",
 * truncated if a crashed writer left it: for kcrun's own directories
 * (state.json).  Errors name `what` and the file. */
/* Opens the inode an O_PATH handle names, with flags (through
 * /proc/self/fd: never the path again); -1 with errno on failure.  A file
 * judged on its handle (fstat) is then the one opened. */
int kc_reopen(int handle, int flags);

int kc_write_file_atomic(const char *path, const char *fixed_tmp, const void *data, size_t len,
			 mode_t mode, const char *what, kc_error_t *err);

#endif
