/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A loaded container and the operations on a live one: see loaded.h. */
#include "loaded.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup_update.h"
#include "cleanup.h"
#include "log.h"
#include "rootless.h"
#include "state.h"
#include "stats.h"
#include "systemd_scope.h"
#include "systemd_unit.h"

/* How often the events loop looks at the container's status at the latest. */
#define EVENTS_STATUS_CHECK_MS 500

static bool has_cgroup(const struct kc_state *st)
{
	return st->cgroup_path && *st->cgroup_path;
}

enum oci_status kc_container_status(const char *root, const struct kc_state *st)
{
	enum oci_status status = kc_state_status(root, st);
	kc_error_t err = NULL;
	bool frozen = false;

	if (status == OCI_STATUS_STOPPED || !has_cgroup(st))
		return status;
	if (kc_cgroup_is_frozen(st->cgroup_path, &frozen, &err) < 0)
		kc_error_free(&err); /* a vanished cgroup does not make it paused */
	return frozen ? OCI_STATUS_PAUSED : status;
}

int kc_container_load(const char *root, const char *id, struct kc_container *c,
		      kc_error_t *err)
{
	c->root = root;
	if (kc_state_read(root, id, &c->state, err) < 0)
		return -1;
	c->status = kc_container_status(root, &c->state);
	return 0;
}

void kc_container_release(struct kc_container *c)
{
	kc_state_free(&c->state);
}

enum oci_status kc_container_refresh(struct kc_container *c)
{
	c->status = kc_container_status(c->root, &c->state);
	return c->status;
}

/* ---------- pause, resume ---------- */

int kc_pause(struct kc_container *c, kc_error_t *err)
{
	if (c->status != OCI_STATUS_RUNNING && c->status != OCI_STATUS_CREATED)
		return kc_error_set(err, 0, "container not running");
	if (!has_cgroup(&c->state))
		return kc_error_set(err, 0, "the container has no cgroup to freeze");
	return kc_cgroup_freeze(c->state.cgroup_path, err);
}

int kc_resume(struct kc_container *c, kc_error_t *err)
{
	if (c->status != OCI_STATUS_PAUSED)
		return kc_error_set(err, 0, "container not paused");
	if (!has_cgroup(&c->state))
		return kc_error_set(err, 0, "the container has no cgroup to freeze");
	return kc_cgroup_thaw(c->state.cgroup_path, err);
}

/* ---------- update ---------- */

int kc_update_check(const struct kc_container *c, kc_error_t *err)
{
	if (c->status == OCI_STATUS_STOPPED)
		return kc_error_set(err, 0, "container not running");
	if (!has_cgroup(&c->state))
		return kc_error_set(err, 0, "the container has no cgroup");
	return 0;
}

/* --systemd-cgroup: the scope's unit properties follow what update wrote,
 * or systemd would put its old values back at its next daemon-reload.  The
 * limits are in force already; a failure here is a warning. */
static void update_unit(const struct kc_container *c, const struct oci_resources *resources)
{
	bool user = false;
	cleanup_free char *unit = kc_state_recorded_unit(c->root, c->state.id, &user);
	struct kc_unit_props props = {0};
	kc_error_t err = NULL;

	if (unit == NULL)
		return;
	if (kc_unit_props_from_resources(&props, resources, &err) < 0 ||
	    kc_systemd_unit_set(unit, user, &props, &err) < 0) {
		kc_log_warn("%s (the limits are in the cgroup; systemd keeps its old values)",
			    err->msg);
		kc_error_free(&err);
	}
	kc_unit_props_free(&props);
}

int kc_update(struct kc_container *c, const struct kc_update_request *req, kc_error_t *err)
{
	const char *dir = c->state.cgroup_path;
	struct oci_resources *from_file = NULL, resources;
	struct oci_cpu cpu;
	int rc;

	if (kc_update_check(c, err) < 0)
		return -1;
	if (req->resources_file) {
		if (kc_cgroup_read_resources_file(req->resources_file, &from_file, err) < 0)
			return -1;
		resources = *from_file;
	} else if (req->resources) {
		resources = *req->resources;
	} else {
		return 0;
	}
	if (req->keep_cpu_quota && resources.cpu && resources.cpu->has_period &&
	    !resources.cpu->has_quota) {
		uint64_t period;

		cpu = *resources.cpu;
		if (kc_cgroup_read_cpu_max(dir, &cpu.quota, &period, err) < 0) {
			oci_resources_free(from_file);
			return kc_error_about(err, "linux.resources.cpu.period");
		}
		cpu.has_quota = cpu.quota != 0;
		resources.cpu = &cpu;
	}
	rc = kc_cgroup_update(dir, &resources, err);
	if (rc == 0)
		update_unit(c, &resources);
	oci_resources_free(from_file);
	return rc;
}

/* ---------- pids ---------- */

int kc_pids(const struct kc_container *c, pid_t **pids, size_t *n, kc_error_t *err)
{
	*pids = NULL;
	*n = 0;
	if (c->status == OCI_STATUS_STOPPED)
		return 0;
	if (!has_cgroup(&c->state))
		return kc_rootless() ? kc_rootless_members(c->state.pid, pids, n, err) : 0;
	return kc_cgroup_pids(c->state.cgroup_path, pids, n, err);
}

/* ---------- events ---------- */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int emit_stats(const struct kc_container *c, int (*emit)(const char *, void *), void *data,
		      kc_error_t *err)
{
	cleanup_free char *json = NULL;

	if (kc_stats_event_json(c->state.id, c->state.cgroup_path, &json, err) < 0)
		return -1;
	return emit(json, data);
}

static int emit_oom(const struct kc_container *c, int (*emit)(const char *, void *), void *data,
		    kc_error_t *err)
{
	cleanup_free char *json = NULL;

	if (kc_oom_event_json(c->state.id, &json, err) < 0)
		return -1;
	return emit(json, data);
}

int kc_events(struct kc_container *c, int64_t interval_ns, bool stats_once,
	      int (*emit)(const char *json, void *data), void *data, kc_error_t *err)
{
	const char *dir = c->state.cgroup_path;
	cleanup_close int inotify_fd = -1;
	uint64_t oom_kills;
	int64_t next_tick;

	if (c->status == OCI_STATUS_STOPPED)
		return kc_error_set(err, 0, "container with id %s is not running", c->state.id);
	if (!has_cgroup(&c->state))
		return kc_error_set(err, 0, "container with id %s has no cgroup", c->state.id);
	if (stats_once)
		return emit_stats(c, emit, data, err);

	inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	oom_kills = kc_stats_oom_kills(dir);
	next_tick = now_ns() + interval_ns;
	if (inotify_fd >= 0) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/memory.events", dir);
		inotify_add_watch(inotify_fd, path, IN_MODIFY);
		snprintf(path, sizeof(path), "%s/cgroup.events", dir);
		inotify_add_watch(inotify_fd, path, IN_MODIFY);
	}
	for (;;) {
		struct pollfd pfd = { .fd = inotify_fd, .events = POLLIN };
		int64_t wait_ms = (next_tick - now_ns()) / 1000000;
		uint64_t kills;
		char drain[4096];

		if (wait_ms > EVENTS_STATUS_CHECK_MS)
			wait_ms = EVENTS_STATUS_CHECK_MS;
		if (wait_ms > 0)
			poll(&pfd, inotify_fd >= 0 ? 1 : 0, (int)wait_ms);
		while (inotify_fd >= 0 && read(inotify_fd, drain, sizeof(drain)) > 0)
			;
		kills = kc_stats_oom_kills(dir);
		if (kills > oom_kills && emit_oom(c, emit, data, err) < 0)
			return -1;
		oom_kills = kills;
		if (kc_container_refresh(c) == OCI_STATUS_STOPPED || access(dir, F_OK) < 0)
			return 0;
		if (now_ns() >= next_tick) {
			if (emit_stats(c, emit, data, err) < 0)
				return -1;
			next_tick += interval_ns;
			if (next_tick < now_ns())
				next_tick = now_ns() + interval_ns;
		}
	}
}
