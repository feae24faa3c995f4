/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux.uidMappings / linux.gidMappings: a user namespace is mapped before
 * the container exists, since a user namespace can only be mapped while a
 * task is in it.  A helper child unshares it, the parent writes its maps
 * and opens /proc/<helper>/ns/user, the helper dies, and the fd goes to
 * container_create(..., CONTAINER_USER_NS_FD, fd). */
#ifndef KCRUN_USERNS_H
#define KCRUN_USERNS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

/* Returns an fd of a new user namespace mapped as linux.{uid,gid}Mappings. */
int kc_userns_create_mapped(const struct oci_linux *lx, kc_error_t *err);

/* The same, with the maps of the helper pid's namespace written by map
 * (rootless.c: newuidmap/newgidmap). */
typedef int (*kc_userns_map_fn)(pid_t pid, const struct oci_linux *lx, kc_error_t *err);
int kc_userns_create_with(const struct oci_linux *lx, kc_userns_map_fn map, kc_error_t *err);

/* Writes /proc/PID/<file> ("uid_map", "gid_map") from n mappings. */
int kc_userns_write_map(pid_t pid, const char *file, const struct oci_id_mapping *m, size_t n,
			kc_error_t *err);

/* With a mapped user namespace, the container's filesystems (tmpfs /dev,
 * ...) belong to it: kcrun's root ids are not mapped there (EOVERFLOW on
 * create).  Files are made as the host ids of the container's root instead;
 * changing the fsuid from 0 drops the filesystem capabilities from the
 * effective set, so they are raised again from the permitted set.
 * kc_userns_become_root() does that (nothing when the container's root is not
 * mapped); kc_userns_restore_fs_ids() goes back. */
struct kc_fs_ids {
	bool changed;
	uid_t uid;
	gid_t gid;
};
void kc_userns_become_root(const struct oci_linux *lx, struct kc_fs_ids *saved);
void kc_userns_restore_fs_ids(const struct kc_fs_ids *saved);
/* Rootless kcrun, inside the supervisor namespace (rootless.h): the
 * container's root is id 0 there, whatever its host id. */
void kc_userns_become_ns_root(struct kc_fs_ids *saved);

#endif
