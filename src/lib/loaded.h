/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loaded container: what every command but create starts from -- its
 * state.json and its live status -- and the operations on a live one that
 * go through its cgroup.  The CLI parses, calls one of these and prints
 * (youki's "load, then container.pause()" shape):
 *
 *   kc_container_load()   state.json + status (created, running, paused,
 *                         stopped); "container does not exist" (ENOENT)
 *   kc_pause/kc_resume()  freeze / thaw its cgroup
 *   kc_update()           new linux.resources, all or nothing
 *                         (cgroup_update.h), from runc's flags or a file
 *   kc_pids()             every process of its cgroup
 *   kc_events()           runc's events stream: stats every interval, oom
 *                         when memory.events says so, until it stops
 *
 * Paused is the cgroup's word (cgroup.events "frozen 1"): state.c knows the
 * process and the exec fifo, this layer adds the freezer. */
#ifndef KCRUN_LOADED_H
#define KCRUN_LOADED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"
#include "state.h"
#include "oci-spec/spec.h"

struct kc_container {
	const char *root;        /* --root, borrowed */
	struct kc_state state;
	enum oci_status status;  /* as of the load (kc_container_refresh()) */
};

int kc_container_load(const char *root, const char *id, struct kc_container *c,
		      kc_error_t *err);
void kc_container_release(struct kc_container *c);
/* The status again, from the live system. */
enum oci_status kc_container_refresh(struct kc_container *c);

/* The status of a container state.json describes: kc_state_status(), and
 * paused when its cgroup is frozen.  For the commands that read the state
 * themselves (start, kill, delete, exec, list). */
enum oci_status kc_container_status(const char *root, const struct kc_state *st);

/* pause: a created or running container ("container not running");
 * resume: a paused one ("container not paused"). */
int kc_pause(struct kc_container *c, kc_error_t *err);
int kc_resume(struct kc_container *c, kc_error_t *err);

/* What `kcrun update` asks for: a linux.resources object (runc's flags,
 * turned into one by the CLI) or a file holding one. */
struct kc_update_request {
	const char *resources_file;             /* --resources FILE, "-": stdin */
	const struct oci_resources *resources;  /* without a file */
	/* runc's --cpu-period alone keeps the quota cpu.max has now */
	bool keep_cpu_quota;
};
/* "container not running" / "the container has no cgroup": checked by
 * kc_update() too; the CLI calls it first to keep runc's order of errors
 * (the container's before the flags'). */
int kc_update_check(const struct kc_container *c, kc_error_t *err);
/* Writes the resources; a write the kernel refuses puts back what was
 * written before it.  Errors are about (kc_error_about()) the
 * linux.resources field they concern, when there is one. */
int kc_update(struct kc_container *c, const struct kc_update_request *req, kc_error_t *err);

/* The processes of its cgroup (malloc'ed); none for a stopped container or
 * one without a cgroup. */
int kc_pids(const struct kc_container *c, pid_t **pids, size_t *n, kc_error_t *err);

/* `kcrun events`: with stats_once one stats event; otherwise a stats event
 * every interval_ns and an oom event whenever memory.events' oom_kill
 * count goes up (watched with inotify, so an OOM kill is reported when it
 * happens), until the container stops (0).  Each event, one line of JSON,
 * goes to emit. */
int kc_events(struct kc_container *c, int64_t interval_ns, bool stats_once,
	      int (*emit)(const char *json, void *data), void *data, kc_error_t *err);

#endif
