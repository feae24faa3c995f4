/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's mount tree, built from outside through the container fd
 * (docs/kernel-api.md "Mounts from outside"): root.path, mounts[],
 * linux.maskedPaths, linux.readonlyPaths, linux.rootfsPropagation. */
#ifndef KCRUN_MOUNTS_H
#define KCRUN_MOUNTS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

struct kc_mount_ctx {
	int cfd;                  /* container fd, dirfd of every path inside */
	const char *bundle;       /* absolute bundle path */
	const char *rootfs;       /* absolute root.path */
	const char *cgroup_path;  /* absolute dir of the container's cgroup, or NULL */
	bool userns;              /* container has its own user namespace */
	bool dev_is_tmpfs;        /* set by kc_mounts_setup: /dev is a new mount */
	bool rootfs_shared;       /* rootfsPropagation is shared or rshared */
	/* a detached clone of root.path made elsewhere (hook_view.h), taken
	 * and closed by kc_mounts_setup_rootfs; -1: it clones root.path */
	int rootfs_clone_fd;
	/* readonlyPaths the kernel would not clone from outside (open_tree
	 * EINVAL): init remounts them read-only from inside before exec. */
	const char **deferred_readonly;
	size_t deferred_readonly_len;
};

/* True when linux.rootfsPropagation makes the root a slave of the mount
 * it is cloned from (unset: runc's rslave, or slave/rslave). */
bool kc_mounts_rootfs_is_slave(const struct oci_spec *spec);
/* root.path and root.readonly: installs the container's root mount. */
int kc_mounts_setup_rootfs(struct kc_mount_ctx *ctx, const struct oci_spec *spec,
			   kc_error_t *err);
/* mounts[] in order. */
int kc_mounts_setup(struct kc_mount_ctx *ctx, const struct oci_spec *spec, kc_error_t *err);
/* linux.maskedPaths and linux.readonlyPaths (after the devices, as runc
 * does).  Propagation (rootfsPropagation, the mounts' own options) is set on
 * each detached tree before it is attached. */
int kc_mounts_finish(struct kc_mount_ctx *ctx, const struct oci_spec *spec, kc_error_t *err);

void kc_mount_ctx_release(struct kc_mount_ctx *ctx);

/* Init side: bind + remount read-only of the deferred readonlyPaths. */
int kc_mounts_readonly_inside(const char *const *paths, size_t len, kc_error_t *err);
/* Init side: a mounts[] entry on /dev with "ro" is mounted writable and
 * made read-only here, once the mount points below it (/dev/pts, ...) and
 * the device nodes exist (runc's finalizeRootfs). */
int kc_mounts_remount_dev_readonly(const struct oci_spec *spec, kc_error_t *err);
/* Init side, root.readonly: last of the mount set-up as with runc (the root
 * mount stays writable while the mount points of mounts[] -- /var/tmp,
 * /etc/hosts, ... -- are created in it).  Only the root mount itself
 * (MS_BIND | MS_REMOUNT is not recursive); the flags it has are kept. */
int kc_mounts_remount_root_readonly(kc_error_t *err);

/* mkdir -p of path (absolute or not) inside the container. */
int kc_mkdir_p_at(int cfd, const char *path, mode_t mode, kc_error_t *err);
/* Creates an empty file at path (and its parents) if nothing is there. */
int kc_touch_at(int cfd, const char *path, kc_error_t *err);
/* "a/b" for "/a/b", "." for "/". */
const char *kc_rel_path(const char *path);

#endif
