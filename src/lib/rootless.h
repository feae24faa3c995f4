/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rootless kcrun: an unprivileged user runs containers (docs/rootless.md).
 *
 * container_create() needs CAP_SYS_ADMIN in the caller's user namespace
 * and open_tree()/fsopen() need it over the caller's mount namespace, so
 * an unprivileged kcrun first becomes root of a user namespace of its own:
 *
 *   supervisor ns  mapped as linux.uidMappings/gidMappings say, in host
 *                  ids (the caller's own id written directly, more ranges
 *                  through newuidmap/newgidmap); kcrun setns()es into it
 *                  and unshare()s a mount namespace, where it builds the
 *                  mounts.  The container's name is scoped here.
 *   container ns   a child of it mapped onto the same ids (identity), the
 *                  container's (CONTAINER_USER_NS_FD).  The mounts kcrun
 *                  moves in come from a namespace of another owner, so the
 *                  kernel slaves and locks them (patch 0024): the
 *                  container's root cannot unmount a mask or make a
 *                  read-only mount writable, as with root kcrun.
 *
 * Every later command that opens the container by name (kill, delete,
 * exec, keys) joins the supervisor namespace first: the parent of init's
 * user namespace (kc_rootless_join()).
 *
 * cgroups: a cgroup kcrun may not make is skipped unless the config asks
 * for one (linux.cgroupsPath) or for limits (kc_rootless_resources_field()),
 * as runc does; a delegated subtree (chowned to the user) is used. */
#ifndef KCRUN_ROOTLESS_H
#define KCRUN_ROOTLESS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

/* kcrun runs unprivileged (euid != 0): containers are made as above. */
bool kc_rootless(void);

/* cgroups may be refused: unprivileged, or root of a user namespace that
 * is not the initial one (rootless podman runs the runtime there). */
bool kc_rootless_cgroups(void);

/* The default --root: $XDG_RUNTIME_DIR/kcrun when XDG_RUNTIME_DIR is set
 * and kcrun is unprivileged, or root of a user namespace that is not the
 * initial one with USER other than root (rootless podman's conmon), as runc
 * uses $XDG_RUNTIME_DIR/runc; else NULL. */
const char *kc_rootless_default_root(void);

/* create, before container_create(): checks the config (a user namespace
 * with the caller's own uid and gid mapped), makes the supervisor
 * namespace, enters it with a mount namespace of its own, and returns an
 * fd of the container's user namespace. */
int kc_rootless_enter(const struct oci_linux *lx, kc_error_t *err);

/* Before container_open() of a container made rootless: joins the parent
 * of init's user namespace.  Nothing when not rootless; an init that is
 * gone is not an error (the container is gone with it). */
int kc_rootless_join(pid_t init_pid, kc_error_t *err);

/* The first linux.resources field that needs a cgroup controller
 * ("linux.resources.memory", ...), NULL when none does (devices are not
 * counted: a rootless container gets the host's device nodes bound). */
const char *kc_rootless_resources_field(const struct oci_resources *r);

/* A container without a cgroup (rootless): the processes in init's pid
 * namespace (a container without one: init alone), for ps. */
int kc_rootless_members(pid_t init_pid, pid_t **pids, size_t *n, kc_error_t *err);

#endif
