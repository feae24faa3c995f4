/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host's mounts as createRuntime and prestart hooks expect to find them.
 *
 * runc runs these hooks while its init still lives in a copy of the host's
 * mount namespace (pivot_root comes later), and hooks depend on it: runc's
 * own hooks_so.bats and nvidia-container-cli enter init's mount namespace
 * (nsenter -m -t <pid>) and mount there by host paths, below the bundle's
 * rootfs.  kcrun's container namespace only ever holds the container's
 * tree.  So, for containers with such hooks:
 *
 *   - kcrun makes the hook view: a private copy of its own mount namespace,
 *     made a slave of it, in which root.path is bound onto itself and made
 *     shared; the container's root is cloned from that bind and so is a
 *     slave of it (rootfsPropagation slave/rslave, runc's default): what
 *     the hooks mount below root.path there shows in the container;
 *   - init enters the view before the hooks run and waits there; once
 *     released it goes back to the container's namespace, through a
 *     keeper child it forked before it left (no path of the host needed);
 *   - the view ends with the last fd of it: mounts it propagated stay, the
 *     root is a slave of the host's mount again, as without a view.
 *
 * Nothing of the container runs in the view: init is still kcrun's code
 * (not dumpable, no process of the container exists yet).  Only for
 * containers without a user namespace of their own (setns() into the view
 * wants CAP_SYS_ADMIN over the host's user namespace) and with a new mount
 * namespace. */
#ifndef KCRUN_HOOK_VIEW_H
#define KCRUN_HOOK_VIEW_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

/* Runtime side: makes the view.  *view_ns_fd: an nsfs fd of it;
 * *rootfs_clone_fd: a detached recursive clone of root.path taken in it,
 * to install as the container root (both O_CLOEXEC). */
int kc_hook_view_make(const char *rootfs, int *view_ns_fd, int *rootfs_clone_fd,
		      kc_error_t *err);

/* Init side. */
struct kc_hook_view_keeper {
	pid_t pid;   /* a child left in the container's mount namespace */
	int pidfd;
};

/* Forks the keeper, then setns() into the view (and closes view_ns_fd). */
int kc_hook_view_enter(int view_ns_fd, struct kc_hook_view_keeper *keeper, kc_error_t *err);
/* Back into the keeper's mount namespace; the keeper is killed and reaped. */
int kc_hook_view_leave(struct kc_hook_view_keeper *keeper, kc_error_t *err);

#endif
