/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2 (unified hierarchy at /sys/fs/cgroup only), the hierarchy:
 * the container's cgroup from linux.cgroupsPath, moving processes in,
 * freezing, listing and removing it.  The other cgroup concerns have files
 * of their own:
 *   cgroup_resources.h  linux.resources -> the controllers' files (create)
 *   cgroup_update.h     `kcrun update`: a snapshot, the writes, and their
 *                       undo; a resources file read
 *   cgroup_devices.h    linux.resources.devices: the eBPF device filter
 *   stats.h             reading the controllers' files (events, stats)
 *
 * Calls, in order (the runtime engineer's side):
 *   create   parent, before container_create():
 *              kc_cgroup_resolve()  -> dir (store it in state.json)
 *              kc_cgroup_create()   mkdir -p, controllers enabled on the way
 *              kc_cgroup_apply()    linux.resources
 *              kc_cgroup_apply_devices()  linux.resources.devices (eBPF;
 *                                   without it every device is allowed)
 *            init starts in dir: clone3(CLONE_INTO_CONTAINER |
 *            CLONE_INTO_CGROUP, an O_PATH fd of dir), and a new
 *            cgroup namespace is rooted there.  kcrun never enters it.
 *            On a failed create: kc_cgroup_destroy().
 *   pause/resume  kc_cgroup_freeze() / kc_cgroup_thaw(); state/list report
 *            "paused" when kc_cgroup_is_frozen().
 *   update   kc_cgroup_update() (cgroup_update.h)
 *   ps       kc_cgroup_pids()
 *   delete   kc_cgroup_destroy() (kills what is left, removes the dir).
 */
#ifndef KCRUN_CGROUP_H
#define KCRUN_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

#define KC_CGROUP_MOUNT "/sys/fs/cgroup"

/* Where the unified hierarchy is; KC_CGROUP_MOUNT.  Unit tests point it at
 * a scratch directory. */
extern const char *kc_cgroup_root;

/* Is a cgroup v2 (unified) hierarchy mounted at KC_CGROUP_MOUNT? */
bool kc_cgroup_v2_mounted(void);

/* The cgroup v2 directory under kc_cgroup_root of process pid, from the
 * "0::" line of /proc/PID/cgroup (malloc'ed in *dir). */
int kc_cgroup_of(pid_t pid, char **dir, kc_error_t *err);

/* linux.cgroupsPath -> absolute directory (malloc'ed) under kc_cgroup_root.
 * Empty/NULL: /kcrun/<id>.  Absolute: relative to the cgroup root.
 * Relative: relative to the caller's own cgroup (as runc).  `..` cannot
 * climb above the root.  systemd's "slice:prefix:name" is refused
 * (it is --systemd-cgroup's: systemd_unit.h). */
int kc_cgroup_resolve(const char *cgroups_path, const char *container_id, char **dir,
		      kc_error_t *err);

/* Whether dir (read back from a file of the state directory) may name a
 * container's cgroup: a directory below KC_CGROUP_MOUNT, without "/../". */
bool kc_cgroup_dir_valid(const char *dir);

/* mkdir -p dir, enabling in every ancestor's cgroup.subtree_control the
 * controllers it has (each separately; one that cannot be enabled is
 * skipped and shows up as a missing file when a limit needs it).  An
 * existing dir is fine (podman may pre-create parents). */
int kc_cgroup_create(const char *dir, kc_error_t *err);

/* ---------- processes ---------- */

/* Moves pid into the cgroup (cgroup.procs). */
int kc_cgroup_enter(const char *dir, pid_t pid, kc_error_t *err);

/* Kills whatever is still in the cgroup tree (cgroup.kill when the kernel
 * has it, else SIGKILL to every pid) and removes it, sub-cgroups first.
 * A missing dir is not an error. */
int kc_cgroup_destroy(const char *dir, kc_error_t *err);

/* cgroup.freeze = 1 / 0, then waits (up to 10 s) until cgroup.events says
 * "frozen 1" / "frozen 0". */
int kc_cgroup_freeze(const char *dir, kc_error_t *err);
int kc_cgroup_thaw(const char *dir, kc_error_t *err);
int kc_cgroup_is_frozen(const char *dir, bool *frozen, kc_error_t *err);
/* create, on a cgroup that exists (one of the caller's, or a new one under
 * a frozen parent): runc 1.1's checks.  Processes in it are warned about
 * ("container's cgroup is not empty: N process(es) found"); a frozen
 * cgroup is refused ("container's cgroup unexpectedly frozen"), as init
 * would stop there before it could report. */
int kc_cgroup_check_unused(const char *dir, kc_error_t *err);

/* Every pid in the cgroup and its sub-cgroups (malloc'ed array). */
int kc_cgroup_pids(const char *dir, pid_t **pids, size_t *n, kc_error_t *err);

/* ---------- files of a cgroup (for the cgroup_*.c modules) ---------- */

/* Writes value to dir/file.  Returns 0, or -errno without touching err
 * (the caller words the error: it knows which spec field it was). */
int kc_cgroup_write_raw(const char *dir, const char *file, const char *value);
/* The same; errors read "<field>: write `<value>` to <file> in <dir>:
 * <strerror>" and are about field (kc_error_about()). */
int kc_cgroup_write(const char *dir, const char *file, const char *value, const char *field,
		    kc_error_t *err);
bool kc_cgroup_has_file(const char *dir, const char *file);

#endif
