/* SPDX-License-Identifier: GPL-2.0-or-later */
/* start, kill, delete: what happens to an existing container (the kernel
 * object is reopened by name with container_open). */
#include "container.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup.h"
#include "hooks.h"
#include "kcontainer.h"
#include "loaded.h"
#include "log.h"
#include "notify_socket.h"
#include "rootless.h"
#include "state.h"
#include "systemd_scope.h"
#include "oci-spec/spec.h"

/* The kernel object by name; a rootless container's name is scoped in
 * its supervisor user namespace, joined first (rootless.h).  -1 when it is
 * not found: the callers then fall back on init's pid. */
static int open_by_name(const struct kc_state *st)
{
	kc_error_t join_err = NULL;

	if (kc_rootless_join(st->pid, &join_err) < 0) {
		kc_log_debug("%s", join_err->msg);
		kc_error_free(&join_err);
	}
	return kc_container_open(st->id);
}

/* Hooks recorded at create (poststart, poststop): <root>/<id>/hooks.json,
 * never the bundle's config.json, which may have changed since. */
static void run_late_hooks(const char *root, const struct kc_state *st, enum oci_status status,
			   bool poststart)
{
	struct oci_spec *spec = NULL;
	struct oci_state os;
	kc_error_t err = NULL;
	char *msg = NULL, *json = NULL, path[4096];

	snprintf(path, sizeof(path), "%s/%s/%s", root, st->id, KC_HOOKS_FILE);
	if (oci_spec_parse_file(path, &spec, &msg) < 0) {
		kc_log_warn("%s hooks: %s", poststart ? "poststart" : "poststop", msg);
		free(msg);
		return;
	}
	kc_state_to_oci(st, status, status == OCI_STATUS_STOPPED ? 0 : st->pid, &os);
	if (spec->hooks && oci_state_to_hook_json(&os, &json) == 0) {
		int ret = poststart
			? kc_hooks_run(spec->hooks->poststart, spec->hooks->poststart_len, json,
				       "poststart", &err)
			: kc_hooks_run(spec->hooks->poststop, spec->hooks->poststop_len, json,
				       "poststop", &err);
		if (ret < 0)
			kc_log_warn("%s", err->msg);
	}
	kc_error_free(&err);
	free(json);
	oci_spec_free(spec);
}

int kc_start(const char *root, const char *id, kc_error_t *err)
{
	struct kc_state st;
	enum oci_status status;
	char fifo[4096], byte;
	int fd, notify_fd = -1, ret = -1;
	cleanup_free char *state_dir = NULL;
	cleanup_close int lock = kc_state_lock(root, id, err);

	if (lock < 0 || kc_state_read(root, id, &st, err) < 0)
		return -1;
	kc_trace("start: locked");
	status = kc_container_status(root, &st);
	if (status == OCI_STATUS_STOPPED) {
		kc_error_set(err, 0, "cannot start a container that has stopped");
		goto out;
	}
	if (status != OCI_STATUS_CREATED) {
		kc_error_set(err, 0, "cannot start an already running container");
		goto out;
	}
	/* $NOTIFY_SOCKET: listening before the process runs (notify_socket.h) */
	if (kc_notify_host_socket()) {
		state_dir = kc_state_dir(root, id);
		if (state_dir == NULL) {
			kc_error_set(err, ENOMEM, "state");
			goto out;
		}
		if (kc_notify_listen(state_dir, &notify_fd, err) < 0)
			goto out;
	}
	snprintf(fifo, sizeof(fifo), "%s/%s/%s", root, id, KC_EXEC_FIFO);
	/* Non-blocking, so a dead init cannot hang us: init is blocked in
	 * open(O_WRONLY) and writes one byte as soon as we are here. */
	fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			kc_error_set(err, 0, "cannot start an already running container");
		else
			kc_error_set(err, errno, "open exec fifo");
		goto out;
	}
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, 100) < 0 && errno != EINTR) {
			kc_error_set(err, errno, "poll exec fifo");
			break;
		}
		n = read(fd, &byte, 1);
		if (n == 1) {
			ret = 0;
			break;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			kc_error_set(err, errno, "read exec fifo");
			break;
		}
		if (!kc_state_init_alive(&st)) {
			kc_error_set(err, 0, "cannot start a container that has stopped");
			break;
		}
	}
	close(fd);
	if (ret == 0) {
		kc_trace("start: released");
		unlink(fifo);
		if (st.has_poststart_hooks)
			run_late_hooks(root, &st, OCI_STATUS_RUNNING, true);
		/* the wait for READY holds no lock: kill and delete go on */
		close(lock);
		lock = -1;
		ret = kc_notify_relay(notify_fd, st.pid, st.start_time, err);
		notify_fd = -1;
	}
out:
	if (notify_fd >= 0)
		close(notify_fd);
	kc_state_free(&st);
	return ret;
}

/* kill --all of a stopped container: whatever is left in its cgroup (a
 * container without its own pid namespace can outlive its init). */
static void kill_cgroup_members(const struct kc_state *st, int sig)
{
	kc_error_t err = NULL;
	pid_t *pids = NULL;
	size_t n = 0, i;

	if (st->cgroup_path == NULL || *st->cgroup_path == '\0')
		return;
	if (kc_cgroup_pids(st->cgroup_path, &pids, &n, &err) < 0) {
		kc_error_free(&err); /* no cgroup left: nothing to signal */
		return;
	}
	for (i = 0; i < n; i++)
		kill(pids[i], sig);
	free(pids);
}

int kc_kill(const char *root, const char *id, int sig, bool all, kc_error_t *err)
{
	struct kc_state st;
	enum oci_status status;
	int cfd, ret = 0;
	cleanup_close int lock = kc_state_lock(root, id, err);

	if (lock < 0 || kc_state_read(root, id, &st, err) < 0)
		return -1;
	status = kc_container_status(root, &st);
	if (status == OCI_STATUS_STOPPED) {
		if (all && sig != KC_KILL_BAD_SIGNAL)
			kill_cgroup_members(&st, sig);
		else if (!all)
			ret = kc_error_set(err, 0, "container not running");
		kc_state_free(&st);
		return ret;
	}
	if (sig == KC_KILL_BAD_SIGNAL) {
		kc_state_free(&st);
		return kc_error_set(err, EINVAL, "unable to signal init");
	}
	cfd = open_by_name(&st);
	if (cfd >= 0) {
		if (kc_container_kill(cfd, sig, all ? CONTAINER_KILL_ALL : 0) < 0 && errno != ESRCH)
			ret = kc_error_set(err, errno, "unable to signal init");
		close(cfd);
	} else if (kill(st.pid, sig) < 0 && errno != ESRCH) {
		ret = kc_error_set(err, errno, "unable to signal init");
	}
	kc_state_free(&st);
	return ret;
}

/* Waits until init is dead: POLLHUP on the container fd, or (no fd)
 * polling the pid; SIGKILL every member first. */
static int kill_and_wait(const struct kc_state *st, kc_error_t *err)
{
	int cfd = open_by_name(st);
	int i;

	if (cfd >= 0) {
		struct pollfd pfd = {.fd = cfd, .events = POLLIN};

		if (kc_container_kill(cfd, SIGKILL, CONTAINER_KILL_ALL) < 0 && errno != ESRCH)
			kc_log_debug("container_kill: %s", strerror(errno));
		if (poll(&pfd, 1, 10000) < 0)
			kc_log_debug("poll container fd: %s", strerror(errno));
		close(cfd);
	} else {
		kill(st->pid, SIGKILL);
	}
	for (i = 0; i < 1000 && kc_state_init_alive(st); i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};

		nanosleep(&ts, NULL);
	}
	if (kc_state_init_alive(st))
		return kc_error_set(err, 0, "container init %d did not die", (int)st->pid);
	return 0;
}

/* --systemd-cgroup: the container's scope is stopped (systemd kills what
 * is left in it and removes its cgroup) and, if it failed, reset, so that
 * its name is free again.  Without systemd the cgroup is still removed by
 * the caller.  A scope whose cgroup is gone was stopped by systemd when
 * init, its last process, died (the usual end of `run`): only a failed
 * record is reset then, without a stop job to wait for. */
static void stop_recorded_unit(const char *root, const char *id, const char *cgroup)
{
	bool user = false;
	cleanup_free char *unit = kc_state_recorded_unit(root, id, &user);
	kc_error_t unit_err = NULL;
	int rc;

	if (unit == NULL)
		return;
	if (cgroup && *cgroup && access(cgroup, F_OK) < 0 && errno == ENOENT)
		rc = kc_systemd_unit_forget(unit, user, &unit_err);
	else
		rc = kc_systemd_unit_stop(unit, user, &unit_err);
	if (rc < 0) {
		kc_log_warn("%s", unit_err->msg);
		kc_error_free(&unit_err);
	}
	kc_trace("delete: unit stopped");
}

static int destroy_state(const char *root, struct kc_state *st, kc_error_t *err)
{
	kc_trace("delete: init dead");
	stop_recorded_unit(root, st->id, st->cgroup_path);
	if (st->cgroup_path && *st->cgroup_path) {
		kc_error_t cg_err = NULL;

		if (kc_cgroup_destroy(st->cgroup_path, &cg_err) < 0) {
			kc_log_warn("%s", cg_err->msg);
			kc_error_free(&cg_err);
		}
	}
	kc_trace("delete: cgroup removed");
	if (st->has_poststop_hooks)
		run_late_hooks(root, st, OCI_STATUS_STOPPED, false);
	return kc_state_remove(root, st->id, err);
}

int kc_destroy(const char *root, const char *id, kc_error_t *err)
{
	struct kc_state st;
	int ret;
	cleanup_close int lock = kc_state_lock(root, id, err);

	if (lock < 0 || kc_state_read(root, id, &st, err) < 0)
		return -1;
	ret = destroy_state(root, &st, err);
	kc_state_free(&st);
	return ret;
}

/* delete --force of a container whose state cannot be read (truncated,
 * empty, not JSON, a symlink): what is left is found by its name, the
 * kernel object is killed, and the state dir goes. */
static void remove_leftovers(const char *root, const char *id)
{
	int cfd = kc_container_open(id);
	cleanup_free char *cgroup = kc_state_recorded_cgroup(root, id);

	if (cfd >= 0) {
		struct pollfd pfd = {.fd = cfd, .events = POLLIN};

		if (kc_container_kill(cfd, SIGKILL, CONTAINER_KILL_ALL) == 0)
			poll(&pfd, 1, 10000);
		close(cfd);
	}
	stop_recorded_unit(root, id, cgroup);
	if (cgroup && kc_cgroup_dir_valid(cgroup)) {
		kc_error_t cg_err = NULL;

		if (kc_cgroup_destroy(cgroup, &cg_err) < 0) {
			kc_log_warn("%s", cg_err->msg);
			kc_error_free(&cg_err);
		}
	}
}

static int force_remove_unreadable(const char *root, const char *id, kc_error_t *err)
{
	kc_log_warn("%s; removing what is left of container %s", (*err)->msg, id);
	kc_error_free(err);
	remove_leftovers(root, id);
	return kc_state_remove(root, id, err);
}

int kc_delete(const char *root, const char *id, bool force, kc_error_t *err)
{
	struct kc_state st;
	enum oci_status status;
	kc_error_t rm_err = NULL;
	int ret = -1;
	cleanup_close int lock = kc_state_lock(root, id, err);

	if (lock < 0) {
		if (force && *err && (*err)->errnum == ENOENT) {
			kc_error_free(err);
			return 0;
		}
		/* a state dir that is a symlink: --force removes the link alone */
		if (force && kc_state_check_id(id, NULL) == 0)
			return force_remove_unreadable(root, id, err);
		return -1;
	}
	if (kc_state_read(root, id, &st, err) < 0) {
		if (force && *err && (*err)->errnum != ENOENT)
			return force_remove_unreadable(root, id, err);
		if (*err == NULL || (*err)->errnum != ENOENT)
			return -1;
		/* As runc: <root>/<id> without state.json is what an interrupted
		 * create leaves; remove it, and still report that the container
		 * does not exist (with --force, no error at all).  What create
		 * made before it was killed goes too. */
		remove_leftovers(root, id);
		if (kc_state_remove(root, id, &rm_err) < 0) {
			kc_log_warn("%s", rm_err->msg);
			kc_error_free(&rm_err);
		}
		if (force)
			kc_error_free(err);
		return force ? 0 : -1;
	}
	status = kc_container_status(root, &st);
	switch (status) {
	case OCI_STATUS_STOPPED:
		break;
	case OCI_STATUS_CREATED:
	case OCI_STATUS_CREATING:
		if (kill_and_wait(&st, err) < 0)
			goto out;
		break;
	case OCI_STATUS_RUNNING:
	case OCI_STATUS_PAUSED:
		if (!force) {
			kc_error_set(err, 0, "cannot delete container %s that is not stopped: %s",
				     id, oci_status_name(status));
			goto out;
		}
		if (kill_and_wait(&st, err) < 0)
			goto out;
		break;
	}
	ret = destroy_state(root, &st, err);
out:
	kc_state_free(&st);
	return ret;
}
