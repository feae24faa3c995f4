/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The systemd cgroup driver, its bus half: a container's transient scope
 * made, changed and stopped through systemd's D-Bus API (sd-bus, from
 * libsystemd), on the system manager, or the caller's user manager
 * rootless.  Names and properties come from systemd_unit.h.
 *
 * The order at create (docs/architecture.md, "The systemd cgroup driver"):
 * systemd makes no empty scope, and kcrun's init must start inside the
 * cgroup (clone3's CLONE_INTO_CGROUP, its cgroup namespace rooted there),
 * so a holder, a child of kcrun that only waits, is the scope's first
 * process:
 *   kc_systemd_scope_start()    fork the holder; StartTransientUnit with
 *                               PIDs=[holder], Delegate=yes; wait for the
 *                               job (JobRemoved); read the unit's
 *                               ControlGroup
 *   ... clone3 init into that cgroup ...
 *   kc_systemd_scope_release()  the holder exits and is reaped (init closed
 *                               its copy of the pipe with kcrun's other
 *                               fds); init keeps the scope alive
 * Built without libsystemd (the static build), every call fails with
 * "this kcrun was built without the systemd cgroup driver". */
#ifndef KCRUN_SYSTEMD_SCOPE_H
#define KCRUN_SYSTEMD_SCOPE_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "systemd_unit.h"

/* Whether this build has the driver (features' "systemd"). */
bool kc_systemd_built(void);
/* 0, or "this kcrun was built without the systemd cgroup driver ..." */
int kc_systemd_require(kc_error_t *err);

struct kc_systemd_scope {
	pid_t holder;    /* the scope's first process until released, else 0 */
	int holder_fd;   /* closing it lets the holder exit */
	char *cgroup;    /* absolute cgroup directory of the scope */
};
#define KC_SYSTEMD_SCOPE_INIT {.holder = 0, .holder_fd = -1, .cgroup = NULL}

/* Starts unit (its slice, name and props) on the system manager, or the
 * user's one with user, and waits until it runs; scope->cgroup gets its
 * cgroup directory.  A unit of that name left failed by an earlier
 * container is reset and started again; one still active is an error. */
int kc_systemd_scope_start(const struct kc_systemd_unit *unit, const struct kc_unit_props *props,
			   bool user, struct kc_systemd_scope *scope, kc_error_t *err);
/* Lets the holder go (once init is in the scope, or on failure) and frees
 * what scope holds.  Safe on a KC_SYSTEMD_SCOPE_INIT or released scope. */
void kc_systemd_scope_release(struct kc_systemd_scope *scope);

/* StopUnit (systemd kills what is left in the scope and removes its
 * cgroup), waits for the job, then ResetFailedUnit.  A unit that no longer
 * exists is no error. */
int kc_systemd_unit_stop(const char *name, bool user, kc_error_t *err);
/* ResetFailedUnit without waiting for the reply: for a scope whose cgroup
 * is gone, which systemd has stopped already; only a failed record (an OOM
 * kill fails a scope) may be left, and it would keep the name taken. */
int kc_systemd_unit_forget(const char *name, bool user, kc_error_t *err);
/* SetUnitProperties(name, runtime, props): `kcrun update`. */
int kc_systemd_unit_set(const char *name, bool user, const struct kc_unit_props *props,
			kc_error_t *err);

#endif
