/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tmpcopyup mount option (runc's and crun's extension, which podman
 * puts on every --tmpfs): a tmpfs mounted over a directory of the image
 * starts with a copy of what that directory held.
 *
 * The tree is the image's: every entry is judged on the fd it was opened
 * or looked up with, never by path, and no symlink is followed (a link is
 * copied as a link).  Directories, regular files, symlinks, FIFOs and
 * device nodes are copied with their mode and owner; sockets are skipped
 * (nothing listens on a copy).  Hard links become separate files, as with
 * runc. */
#ifndef KCRUN_COPYUP_H
#define KCRUN_COPYUP_H

#include "error.h"

/* Copies the contents of the directory src_dir_fd into the directory
 * dst_dir_fd (the detached tmpfs's root, from fsmount); `what` names the
 * mount in errors.  Nesting deeper than KC_COPYUP_MAX_DEPTH is refused. */
#define KC_COPYUP_MAX_DEPTH 128
int kc_copyup(int src_dir_fd, int dst_dir_fd, const char *what, kc_error_t *err);

#endif
