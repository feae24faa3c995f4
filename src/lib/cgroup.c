/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, the hierarchy: see cgroup.h. */
#include "cgroup.h"
#include "cleanup.h"
#include "log.h"
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

/* How long freeze/thaw/destroy wait for the kernel to settle. */
#define CGROUP_SETTLE_TIMEOUT_MS 10000

const char *kc_cgroup_root = KC_CGROUP_MOUNT;

/* ---------- files ---------- */

int kc_cgroup_write_raw(const char *dir, const char *file, const char *value)
{
	cleanup_free char *path = NULL;
	cleanup_close int fd = -1;
	size_t len = strlen(value);
	ssize_t written;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	written = write(fd, value, len);
	if (written < 0)
		return -errno;
	if ((size_t)written != len)
		return -EIO;
	return 0;
}

int kc_cgroup_write(const char *dir, const char *file, const char *value, const char *field,
		    kc_error_t *err)
{
	int rc = kc_cgroup_write_raw(dir, file, value);

	if (rc < 0) {
		kc_error_set(err, -rc, "%s: write `%s` to %s in %s", field, value, file, dir);
		return kc_error_about(err, field);
	}
	return 0;
}

bool kc_cgroup_has_file(const char *dir, const char *file)
{
	cleanup_free char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return false;
	return access(path, F_OK) == 0;
}

static void sleep_ms(long ms)
{
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&pause, NULL);
}
/* ---------- paths ---------- */

/* Appends the components of path to out (which starts as "" or "/..."),
 * resolving "." and ".." lexically; ".." at the top stays at the top. */
static void append_clean(char *out, size_t out_size, const char *path)
{
	cleanup_free char *copy = strdup(path);
	char *component, *save = NULL;

	if (copy == NULL)
		return;
	for (component = strtok_r(copy, "/", &save); component;
	     component = strtok_r(NULL, "/", &save)) {
		if (strcmp(component, ".") == 0)
			continue;
		if (strcmp(component, "..") == 0) {
			char *slash = strrchr(out, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		if (strlen(out) + 1 + strlen(component) < out_size) {
			strcat(out, "/");
			strcat(out, component);
		}
	}
}

/* A process's cgroup v2 path, from the "0::" line of its /proc/PID/cgroup
 * (proc_file), cleaned of "." and "..". */
static int proc_cgroup(const char *proc_file, char *out, size_t out_size)
{
	cleanup_free char *content = NULL;
	char *line;
	int rc = kc_read_file(proc_file, 64 << 10, &content, NULL);

	if (rc < 0)
		return rc;
	for (line = strtok(content, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "0::", 3) == 0) {
			out[0] = '\0';
			append_clean(out, out_size, line + 3);
			return 0;
		}
	}
	return -ENOENT;
}

static int own_cgroup(char *out, size_t out_size)
{
	return proc_cgroup("/proc/self/cgroup", out, out_size);
}

int kc_cgroup_of(pid_t pid, char **dir, kc_error_t *err)
{
	char proc_file[64], relative[PATH_MAX] = "";
	int rc;

	snprintf(proc_file, sizeof(proc_file), "/proc/%d/cgroup", (int)pid);
	rc = proc_cgroup(proc_file, relative, sizeof(relative));
	if (rc < 0)
		return kc_error_set(err, -rc, "%s: no cgroup v2 entry", proc_file);
	if (asprintf(dir, "%s%s", kc_cgroup_root, relative) < 0)
		return kc_error_set(err, ENOMEM, "cgroup of %d", (int)pid);
	return 0;
}

bool kc_cgroup_v2_mounted(void)
{
	struct statfs fs;

	return statfs(KC_CGROUP_MOUNT, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
}

bool kc_cgroup_dir_valid(const char *dir)
{
	return strncmp(dir, KC_CGROUP_MOUNT "/", strlen(KC_CGROUP_MOUNT) + 1) == 0 &&
	       !strstr(dir, "/../");
}

static bool is_systemd_path(const char *cgroups_path)
{
	const char *first = strchr(cgroups_path, ':');

	return cgroups_path[0] != '/' && first && strchr(first + 1, ':') &&
	       !strchr(strchr(first + 1, ':') + 1, ':');
}

int kc_cgroup_resolve(const char *cgroups_path, const char *container_id, char **dir,
		      kc_error_t *err)
{
	char relative[PATH_MAX] = "";

	if (cgroups_path == NULL || *cgroups_path == '\0') {
		append_clean(relative, sizeof(relative), "/kcrun");
		append_clean(relative, sizeof(relative), container_id);
	} else if (is_systemd_path(cgroups_path)) {
		return kc_error_set(err, EINVAL,
				    "linux.cgroupsPath: \"%s\" is a systemd cgroup path (slice:prefix:name); "
				    "the cgroupfs manager takes a path (run with --systemd-cgroup for a systemd scope)",
				    cgroups_path);
	} else if (cgroups_path[0] == '/') {
		append_clean(relative, sizeof(relative), cgroups_path);
	} else {
		int rc = own_cgroup(relative, sizeof(relative));

		if (rc < 0)
			return kc_error_set(err, -rc, "linux.cgroupsPath: \"%s\" is relative, and our own cgroup v2 path is unknown",
					    cgroups_path);
		append_clean(relative, sizeof(relative), cgroups_path);
	}
	if (relative[0] == '\0')
		return kc_error_set(err, EINVAL, "linux.cgroupsPath: \"%s\" names the cgroup root",
				    cgroups_path ? cgroups_path : "");
	if (asprintf(dir, "%s%s", kc_cgroup_root, relative) < 0)
		return kc_error_set(err, ENOMEM, "linux.cgroupsPath");
	return 0;
}
/* ---------- create, enter, destroy ---------- */

/* Is name one of the space-separated words of list? */
static bool has_word(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ' || p[len] == '\n'))
			return true;
		p += len;
	}
	return false;
}

/* Enables in parent/cgroup.subtree_control every controller listed in
 * parent/cgroup.controllers that is not enabled yet, one at a time (a
 * controller that cannot be enabled, e.g. cpuset with a busy parent, must
 * not block the others).  Controllers already on are not written again: a
 * write waits for every dying cgroup below parent to go offline, which
 * after a delete costs an RCU grace period each time. */
static void enable_controllers(const char *parent)
{
	cleanup_free char *available = NULL;
	cleanup_free char *enabled = NULL;
	char *controller, *save = NULL;

	if (kc_read_file_in(parent, "cgroup.controllers", &available) < 0)
		return;
	if (kc_read_file_in(parent, "cgroup.subtree_control", &enabled) < 0)
		enabled = NULL;
	for (controller = strtok_r(available, " \n", &save); controller;
	     controller = strtok_r(NULL, " \n", &save)) {
		char request[64];

		if (enabled && has_word(enabled, controller))
			continue;
		snprintf(request, sizeof(request), "+%s", controller);
		kc_cgroup_write_raw(parent, "cgroup.subtree_control", request);
	}
}

int kc_cgroup_create(const char *dir, kc_error_t *err)
{
	size_t root_len = strlen(kc_cgroup_root);
	cleanup_free char *path = strdup(dir);
	char *next;

	if (path == NULL)
		return kc_error_set(err, ENOMEM, "create cgroup");
	if (strncmp(dir, kc_cgroup_root, root_len) != 0 || dir[root_len] != '/')
		return kc_error_set(err, EINVAL, "cgroup `%s` is not under %s", dir, kc_cgroup_root);
	if (strcmp(kc_cgroup_root, KC_CGROUP_MOUNT) == 0 && !kc_cgroup_v2_mounted())
		return kc_error_set(err, ENOTSUP,
				    "cgroup v2 is not mounted at %s: kcrun supports only the unified hierarchy",
				    kc_cgroup_root);
	/* Walk down from the root: enable controllers in each level, then
	 * create the next one. */
	for (next = path + root_len + 1;; next++) {
		char saved;

		next = strchrnul(next, '/');
		saved = *next;
		*next = '\0';
		{
			char *slash = strrchr(path, '/');

			*slash = '\0';
			enable_controllers(path);
			*slash = '/';
		}
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return kc_error_set(err, errno, "create cgroup %s", path);
		*next = saved;
		if (saved == '\0')
			break;
	}
	return 0;
}

int kc_cgroup_enter(const char *dir, pid_t pid, kc_error_t *err)
{
	char pid_text[32];
	int rc;

	snprintf(pid_text, sizeof(pid_text), "%d", (int)pid);
	rc = kc_cgroup_write_raw(dir, "cgroup.procs", pid_text);
	if (rc < 0)
		return kc_error_set(err, -rc, "move pid %d into cgroup %s", (int)pid, dir);
	return 0;
}

/* Calls visit(dir) for dir and every sub-cgroup below it, children first. */
static int walk_cgroups(const char *dir, int (*visit)(const char *dir, void *data), void *data)
{
	cleanup_dir DIR *listing = opendir(dir);
	struct dirent *entry;
	int rc;

	if (listing == NULL)
		return -errno;
	while ((entry = readdir(listing)) != NULL) {
		cleanup_free char *child = NULL;

		if (entry->d_type != DT_DIR || strcmp(entry->d_name, ".") == 0 ||
		    strcmp(entry->d_name, "..") == 0)
			continue;
		if (asprintf(&child, "%s/%s", dir, entry->d_name) < 0)
			return -ENOMEM;
		rc = walk_cgroups(child, visit, data);
		if (rc < 0)
			return rc;
	}
	return visit(dir, data);
}

struct pid_list {
	pid_t *pids;
	size_t len, cap;
};

static int collect_pids(const char *dir, void *data)
{
	struct pid_list *list = data;
	cleanup_free char *content = NULL;
	char *line, *save = NULL;
	int rc = kc_read_file_in(dir, "cgroup.procs", &content);

	if (rc < 0)
		return rc;
	for (line = strtok_r(content, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (list->len == list->cap) {
			size_t cap = list->cap ? list->cap * 2 : 16;
			pid_t *bigger = realloc(list->pids, cap * sizeof(pid_t));

			if (bigger == NULL)
				return -ENOMEM;
			list->pids = bigger;
			list->cap = cap;
		}
		list->pids[list->len++] = (pid_t)strtol(line, NULL, 10);
	}
	return 0;
}

int kc_cgroup_pids(const char *dir, pid_t **pids, size_t *n, kc_error_t *err)
{
	struct pid_list list = { 0 };
	int rc = walk_cgroups(dir, collect_pids, &list);

	if (rc < 0) {
		free(list.pids);
		return kc_error_set(err, -rc, "list the processes of cgroup %s", dir);
	}
	*pids = list.pids;
	*n = list.len;
	return 0;
}

static int remove_cgroup(const char *dir, void *data)
{
	(void)data;
	if (rmdir(dir) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static int kill_cgroup_members(const char *dir)
{
	pid_t *pids = NULL;
	size_t n = 0, i;
	kc_error_t ignored = NULL;

	if (kc_cgroup_pids(dir, &pids, &n, &ignored) < 0) {
		kc_error_free(&ignored);
		return 0;
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	free(pids);
	return (int)n;
}

int kc_cgroup_destroy(const char *dir, kc_error_t *err)
{
	bool has_kill_file = kc_cgroup_has_file(dir, "cgroup.kill");
	int waited_ms = 0, rc;

	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (has_kill_file)
		kc_cgroup_write_raw(dir, "cgroup.kill", "1");
	for (;;) {
		if (!has_kill_file)
			kill_cgroup_members(dir);
		rc = walk_cgroups(dir, remove_cgroup, NULL);
		if (rc == 0 || rc == -ENOENT)
			return 0;
		/* EBUSY while killed processes are still exiting. */
		if (rc != -EBUSY || waited_ms >= CGROUP_SETTLE_TIMEOUT_MS)
			return kc_error_set(err, -rc, "remove cgroup %s", dir);
		sleep_ms(10);
		waited_ms += 10;
	}
}

/* ---------- freezer ---------- */

int kc_cgroup_is_frozen(const char *dir, bool *frozen, kc_error_t *err)
{
	cleanup_free char *events = NULL;
	const char *line;
	int rc = kc_read_file_in(dir, "cgroup.events", &events);

	if (rc < 0)
		return kc_error_set(err, -rc, "read cgroup.events in %s", dir);
	for (line = events; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "frozen ", 7) == 0) {
			*frozen = line[7] == '1';
			return 0;
		}
	}
	*frozen = false;
	return 0;
}

static int set_frozen(const char *dir, bool freeze, kc_error_t *err)
{
	const char *what = freeze ? "freeze" : "thaw";
	int waited_ms;
	int rc = kc_cgroup_write_raw(dir, "cgroup.freeze", freeze ? "1" : "0");

	if (rc < 0)
		return kc_error_set(err, -rc, "%s cgroup %s: write cgroup.freeze", what, dir);
	for (waited_ms = 0; waited_ms < CGROUP_SETTLE_TIMEOUT_MS; waited_ms += 5) {
		bool frozen;

		if (kc_cgroup_is_frozen(dir, &frozen, err) < 0)
			return kc_error_wrap(err, "%s", what);
		if (frozen == freeze)
			return 0;
		sleep_ms(5);
	}
	return kc_error_set(err, ETIMEDOUT, "%s cgroup %s: cgroup.events never said \"frozen %d\"",
			    what, dir, freeze ? 1 : 0);
}

int kc_cgroup_check_unused(const char *dir, kc_error_t *err)
{
	cleanup_free pid_t *pids = NULL;
	size_t n = 0;
	bool frozen;

	/* runc 1.1: a warning only (runc 1.2 refuses) */
	if (kc_cgroup_pids(dir, &pids, &n, err) < 0)
		return -1;
	if (n > 0)
		kc_log_warn("container's cgroup is not empty: %zu process(es) found", n);
	/* init forked into a frozen cgroup would never report: refuse */
	if (kc_cgroup_is_frozen(dir, &frozen, err) < 0)
		return -1;
	if (frozen)
		return kc_error_set(err, 0, "container's cgroup unexpectedly frozen");
	return 0;
}

int kc_cgroup_freeze(const char *dir, kc_error_t *err)
{
	return set_frozen(dir, true, err);
}

int kc_cgroup_thaw(const char *dir, kc_error_t *err)
{
	return set_frozen(dir, false, err);
}
