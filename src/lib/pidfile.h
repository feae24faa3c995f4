/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid-file of create, run and exec: written atomically (a temporary file
 * in the same directory, then rename) and never through a symlink or a file
 * someone planted at the temporary name: the temporary file is made with
 * O_EXCL under a random name. */
#ifndef KCRUN_PIDFILE_H
#define KCRUN_PIDFILE_H

#include <sys/types.h>

#include "error.h"

int kc_pid_file_write(const char *path, pid_t pid, kc_error_t *err);

#endif
