/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What kcrun remembers about a container between commands:
 * <root>/<id>/state.json, written atomically (tmp + rename), plus
 * <root>/<id>/exec.fifo while the container is "created", and
 * <root>/<id>/hooks.json when the config has poststart or poststop hooks,
 * <root>/<id>/config.json (the config create validated, exec's only source),
 * and <root>/<id>/cgroup.path from the moment create made a cgroup.
 *
 * A stored pid is never trusted alone: the status is derived from whether
 * that pid is alive AND still has the start time (field 22 of
 * /proc/PID/stat) recorded at create, as runc does. */
#ifndef KCRUN_STATE_H
#define KCRUN_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "error.h"
#include "oci-spec/spec.h"

#define KC_DEFAULT_ROOT "/run/kcrun"
#define KC_STATE_FILE "state.json"
#define KC_EXEC_FIFO "exec.fifo"
/* poststart and poststop hooks as create read them (a spec with only hooks) */
#define KC_HOOKS_FILE "hooks.json"
/* The config create validated, for exec (src/lib/exec.c). */
#define KC_CONFIG_FILE "config.json"
/* the container's cgroup directory, written as soon as create made it, so
 * that delete finds it when create was killed before state.json existed */
#define KC_CGROUP_FILE "cgroup.path"
/* the systemd unit holding that cgroup ("system NAME" or "user NAME"),
 * written as soon as systemd started it (--systemd-cgroup) */
#define KC_UNIT_FILE "systemd.unit"

struct kc_state {
	char *id;
	pid_t pid;                     /* host pid of init (caller's pid ns) */
	unsigned long long start_time; /* /proc/PID/stat field 22 */
	char *bundle;
	char *rootfs;
	struct timespec created;
	char *owner;
	char *cgroup_path;             /* absolute cgroup directory, "" if none */
	char *config_path;             /* bundle/config.json as read at create */
	bool has_poststart_hooks;
	bool has_poststop_hooks;
	bool has_pid_ns;               /* killing init kills every member */
	int32_t keyring;               /* the container keyring's serial, 0: none */
	struct oci_map annotations;
};

void kc_state_free(struct kc_state *st);

/* "<root>/<id>" (malloc'ed). */
char *kc_state_dir(const char *root, const char *id);

/* Checks an id the way runc does (^[\w+-\.]+$, not "." or ".."). */
int kc_state_check_id(const char *id, kc_error_t *err);

/* state.json's text for st (malloc'ed, NUL-terminated, *len bytes):
 * kc_state_parse gives st back (the fuzz target's round trip). */
int kc_state_to_json(const struct kc_state *st, char **out, size_t *len, kc_error_t *err);
/* Writes <root>/<id>/state.json atomically. */
int kc_state_write(const char *root, const struct kc_state *st, kc_error_t *err);
/* Reads <root>/<id>/state.json.  A missing container gives
 * "container does not exist" with errnum ENOENT. */
int kc_state_read(const char *root, const char *id, struct kc_state *st, kc_error_t *err);
/* The parsing half of kc_state_read (json NUL-terminated; source names it
 * in errors).  Any input fails cleanly or fills st (the fuzz target). */
int kc_state_parse(const char *json, const char *id, struct kc_state *st, const char *source,
		   kc_error_t *err);

/* Start time of pid from /proc/PID/stat (0 when the process is gone),
 * and whether it is a zombie. */
unsigned long long kc_proc_start_time(pid_t pid, bool *zombie);
/* The same from an fd of /proc/PID: that fd keeps naming the process it
 * was opened for (ESRCH once it is gone), whatever reuses its pid. */
unsigned long long kc_proc_start_time_at(int proc_dir_fd, bool *zombie);

/* created / running / stopped, derived from the live process and the exec
 * fifo.  Paused is the cgroup's business: kc_container_status() (loaded.h)
 * adds it. */
enum oci_status kc_state_status(const char *root, const struct kc_state *st);
/* True when the recorded init is still the live process of that pid. */
bool kc_state_init_alive(const struct kc_state *st);

/* Fills an oci_state (for `state`, `list` and hook stdin); strings are
 * borrowed from st: release with kc_state_oci_release(). */
void kc_state_to_oci(const struct kc_state *st, enum oci_status status, int pid,
		     struct oci_state *out);

/* Commands that change a container (create, start, kill, delete) hold an
 * exclusive flock on <root>/<id> while they run, so two of them on one id
 * run one after the other and each sees what the other left.  Returns the
 * locked fd (close it to unlock) or -1: a container that does not exist,
 * or was deleted while we waited, is "container does not exist" (errnum
 * ENOENT); a state directory that is a symlink is refused. */
int kc_state_lock(const char *root, const char *id, kc_error_t *err);

/* <root>/<id>/cgroup.path: written by create right after it made the
 * cgroup; read back (NULL if absent) by a delete that has no usable
 * state.json, which checks it with kc_cgroup_dir_valid(). */
int kc_state_record_cgroup(int state_dir_fd, const char *cgroup_path, kc_error_t *err);
char *kc_state_recorded_cgroup(const char *root, const char *id);
/* <root>/<id>/systemd.unit: the same for the systemd unit, and which
 * manager runs it (*user: the caller's user manager). */
int kc_state_record_unit(int state_dir_fd, const char *unit, bool user, kc_error_t *err);
char *kc_state_recorded_unit(const char *root, const char *id, bool *user);

/* The ids under root (every entry not starting with "."), sorted
 * (malloc'ed; free with oci_strv_free()).  A missing root has none. */
int kc_state_ids(const char *root, char ***ids, size_t *n, kc_error_t *err);

/* runc's OWNER: the user name of the uid owning <root>/<id> (from
 * /etc/passwd), or "#UID" when it has none (malloc'ed). */
char *kc_state_owner(const char *root, const char *id);

/* Removes <root>/<id> and everything in it. */
int kc_state_remove(const char *root, const char *id, kc_error_t *err);

/* RFC 3339 with nanoseconds, UTC, as Go prints time.Time: buf >= 40. */
void kc_format_time(const struct timespec *ts, char *buf, size_t len);

#endif
