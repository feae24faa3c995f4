/* cgroup v2 (unified hierarchy at /sys/fs/cgroup only): the container's
 * cgroup from linux.cgroupsPath and its limits from linux.resources.
 *
 * Calls, in order (the runtime engineer's side):
 *   create   parent, before container_create():
 *              kc_cgroup_resolve()  -> dir (store it in state.json)
 *              kc_cgroup_create()   mkdir -p, controllers enabled on the way
 *              kc_cgroup_apply()    linux.resources
 *              kc_cgroup_apply_devices()  linux.resources.devices (eBPF;
 *                                   without it every device is allowed)
 *              kc_cgroup_enter(dir, getpid())
 *            Entering before container_create() matters: a new cgroup
 *            namespace (CONTAINER_NEW_CGROUP_NS) is rooted at the caller's
 *            cgroup at creation time, and init (fork_into_container)
 *            inherits the caller's cgroup.  kcrun create exits right after,
 *            so leaving the runtime there is harmless.
 *            On a failed create: kc_cgroup_destroy().
 *   pause/resume  kc_cgroup_freeze() / kc_cgroup_thaw(); state/list report
 *            "paused" when kc_cgroup_is_frozen().
 *   update   kc_cgroup_update_from_file() (`kcrun update --resources FILE`)
 *   ps       kc_cgroup_pids()
 *   delete   kc_cgroup_destroy() (kills what is left, removes the dir).
 *
 * Conversions follow runc 1.1 (libcontainer/cgroups/fs2), so limits read
 * back the same as with runc:
 *   memory.limit -> memory.max, reservation -> memory.low,
 *   swap -> memory.swap.max = swap - limit; disableOOMKiller, kernel,
 *   kernelTCP, swappiness ignored (no v2 equivalent);
 *   cpu.shares -> cpu.weight = 1 + (shares - 2) * 9999 / 262142,
 *   quota/period -> cpu.max, burst -> cpu.max.burst, idle -> cpu.idle,
 *   cpus/mems -> cpuset.cpus/cpuset.mems, realtime* refused;
 *   pids.limit -> pids.max (< 0: max, 0: unchanged);
 *   blockIO.weight -> io.bfq.weight if present, else
 *   io.weight = 1 + (weight - 10) * 9999 / 990; throttle* -> io.max;
 *   hugepageLimits -> hugetlb.<size>.max (and .rsvd.max when present);
 *   rdma -> rdma.max; unified -> the named files, verbatim.
 *   network (classID, priorities) is cgroup v1 only: ignored as runc does.
 * linux.resources.devices: cgroup v2 has no devices.allow file; like runc
 * and crun, kc_cgroup_apply_devices() attaches a BPF_PROG_TYPE_CGROUP_DEVICE
 * program (raw bpf(2), hand-assembled) to the cgroup.
 *
 * Errors name the spec field, e.g.
 *   `linux.resources.memory.limit: write `4096` to memory.max in /sys/fs/cgroup/x: ...`
 *   `linux.resources.unified."memory.foo": no such file in /sys/fs/cgroup/x`
 */
#ifndef KCRUN_CGROUP_H
#define KCRUN_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

#define KC_CGROUP_MOUNT "/sys/fs/cgroup"

/* Where the unified hierarchy is; KC_CGROUP_MOUNT.  Unit tests point it at
 * a scratch directory. */
extern const char *kc_cgroup_root;

/* linux.cgroupsPath -> absolute directory (malloc'ed) under kc_cgroup_root.
 * Empty/NULL: /kcrun/<id>.  Absolute: relative to the cgroup root.
 * Relative: relative to the caller's own cgroup (as runc).  `..` cannot
 * climb above the root.  systemd's "slice:prefix:name" is refused
 * (--systemd-cgroup is unsupported). */
int kc_cgroup_resolve(const char *cgroups_path, const char *container_id, char **dir,
		      kc_error_t *err);

/* mkdir -p dir, enabling in every ancestor's cgroup.subtree_control the
 * controllers it has (each separately; one that cannot be enabled is
 * skipped and shows up as a missing file when a limit needs it).  An
 * existing dir is fine (podman may pre-create parents). */
int kc_cgroup_create(const char *dir, kc_error_t *err);

/* Writes linux.resources into dir; only the fields present are written,
 * so the same function serves create and update.  NULL: nothing to do. */
int kc_cgroup_apply(const char *dir, const struct oci_resources *resources, kc_error_t *err);

/* `kcrun update --resources FILE`: FILE holds a linux.resources object
 * (runtime-spec LinuxResources, as podman writes it); "-" reads stdin. */
int kc_cgroup_update_from_file(const char *dir, const char *resources_file, kc_error_t *err);

/* cpu.max now: *quota -1 for "max".  For `update --cpu-period`, which keeps
 * the quota (runc writes the one it remembers with the new period). */
int kc_cgroup_read_cpu_max(const char *dir, int64_t *quota, uint64_t *period, kc_error_t *err);

/* The files kc_cgroup_apply() writes for memory, cpu, cpuset, pids and
 * blockIO.weight, as they are now, so a failed update can put them back
 * (first line of each; files the cgroup lacks are left out). */
struct kc_cgroup_snapshot {
	size_t n;
	char *file[16];
	char *value[16];
};
void kc_cgroup_snapshot_take(const char *dir, struct kc_cgroup_snapshot *snapshot);
/* Best effort, in the reverse order of kc_cgroup_apply()'s writes; frees. */
void kc_cgroup_snapshot_restore(const char *dir, struct kc_cgroup_snapshot *snapshot);
void kc_cgroup_snapshot_free(struct kc_cgroup_snapshot *snapshot);

/* ---------- devices ---------- */

/* One device access rule; access bits are BPF_DEVCG_ACC_* (mknod 1,
 * read 2, write 4). */
struct kc_device_rule {
	char type;      /* 'a' (any), 'c' or 'b' */
	int64_t major;  /* -1: any */
	int64_t minor;  /* -1: any */
	unsigned int access;
	bool allow;
};

/* Parent, during create, after kc_cgroup_create() (before or after the
 * device nodes are made: mknod is always allowed, as with runc).  The
 * rules, last match wins, default deny (runc's order):
 *   linux.resources.devices in order,
 *   then "allow rwm" for every linux.devices node,
 *   then runc's always-allowed devices: mknod of any c/b node, /dev/null,
 *   zero, full, random, urandom, tty, ptmx, pts/N (136:*), net/tun.
 * A program attached earlier (a second call) is replaced.  Not applied by
 * kc_cgroup_update_from_file(): it has no linux.devices to go with it. */
int kc_cgroup_apply_devices(const char *dir, const struct oci_linux *linux_, kc_error_t *err);

/* The rule list above (malloc'ed); errors name linux.resources.devices[i]. */
int kc_cgroup_device_rules(const struct oci_linux *linux_, struct kc_device_rule **rules,
			   size_t *n, kc_error_t *err);

/* The eBPF program for rules (malloc'ed array of struct bpf_insn, 8 bytes
 * each), exposed so tests can run it through an interpreter. */
int kc_cgroup_device_program(const struct kc_device_rule *rules, size_t n, void **insns,
			     size_t *insn_count, kc_error_t *err);

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

/* Every pid in the cgroup and its sub-cgroups (malloc'ed array). */
int kc_cgroup_pids(const char *dir, pid_t **pids, size_t *n, kc_error_t *err);

/* Pure conversions (runc's), exposed for tests and `update`. */
uint64_t kc_cgroup_cpu_shares_to_weight(uint64_t shares);
uint64_t kc_cgroup_blkio_weight_to_io_weight(uint64_t weight);
/* memory.swap.max from spec swap (memory+swap) and limit: sets *out to the
 * value to write ("max" for -1), or "" when nothing is to be written. */
int kc_cgroup_swap_max(int64_t swap, int64_t limit, char out[32], kc_error_t *err);

#endif
