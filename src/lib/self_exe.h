/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun's own binary, as the processes it puts into a container see it.
 *
 * Until it execs process.args, a container's init (and the child of
 * `kcrun exec`) runs kcrun's image: /proc/PID/exe is kcrun.  A process of
 * the container that keeps an fd of it could reopen it for writing once no
 * kcrun runs any more and overwrite the host's runtime (runc's
 * CVE-2019-5736).  So create, run and exec first re-execute kcrun from a
 * binary that cannot be written: a read-only detached bind mount of the
 * same file (no copy), or, where that is refused, a sealed memfd copy. */
#ifndef KCRUN_SELF_EXE_H
#define KCRUN_SELF_EXE_H

#include "error.h"

/* Returns 0 when the running binary is already unwritable; otherwise
 * execs it from an unwritable copy with the same argv and environment
 * (and so does not return), or returns -1 with *err set. */
int kc_self_exe_protect(char **argv, kc_error_t *err);

#endif
