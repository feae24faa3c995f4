/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See rootless.h and docs/rootless.md. */
#include "rootless.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "fileio.h"
#include "log.h"
#include "userns.h"

extern char **environ;

/* Decided once, as kcrun started (main asks first): after
 * kc_rootless_join() kcrun is root of the supervisor namespace. */
bool kc_rootless(void)
{
	static int rootless = -1;

	if (rootless < 0)
		rootless = geteuid() != 0;
	return rootless;
}

/* Root of a user namespace that is not the initial one (rootless podman
 * runs conmon and the runtime there, as uid 0): the initial namespace maps
 * every id onto itself.  Decided once, before any setns. */
static bool in_user_ns(void)
{
	static int inside = -1;
	cleanup_free char *map = NULL;
	unsigned long first, outside, count;

	if (inside >= 0)
		return inside;
	if (kc_read_file("/proc/self/uid_map", 4096, &map, NULL) < 0)
		return (inside = 0);
	inside = !(sscanf(map, "%lu %lu %lu", &first, &outside, &count) == 3 && first == 0 &&
		   outside == 0 && count == 4294967295UL);
	return inside;
}

bool kc_rootless_cgroups(void)
{
	return kc_rootless() || in_user_ns();
}

/* As runc's shouldHonorXDGRuntimeDir(): unprivileged, or root of a user
 * namespace that is not the initial one whose USER is not root (rootless
 * podman and Docker keep the user's environment; a root login inside a user
 * namespace keeps /run/kcrun). */
const char *kc_rootless_default_root(void)
{
	static char root[PATH_MAX];
	const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
	const char *user = getenv("USER");

	if (runtime_dir == NULL || *runtime_dir == '\0')
		return NULL;
	if (!kc_rootless() && !(in_user_ns() && (user == NULL || strcmp(user, "root") != 0)))
		return NULL;
	if (snprintf(root, sizeof(root), "%s/kcrun", runtime_dir) >= (int)sizeof(root))
		return NULL;
	return root;
}

/* ---------- the supervisor namespace's maps ---------- */

/* Only the caller's own id, once: what an unprivileged process may write
 * itself (user_namespaces(7)). */
static bool own_id_only(const struct oci_id_mapping *m, size_t n, uint32_t id)
{
	return n == 1 && m[0].host_id == id && m[0].size == 1;
}

static bool maps_id(const struct oci_id_mapping *m, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (id >= m[i].host_id && id - m[i].host_id < m[i].size)
			return true;
	return false;
}

/* newuidmap/newgidmap PID ID HOST SIZE...: setuid helpers that write what
 * /etc/subuid and /etc/subgid grant.  Their complaint ends the message. */
static int run_map_tool(const char *tool, const char *field, pid_t pid,
			const struct oci_id_mapping *m, size_t n, kc_error_t *err)
{
	char **argv = calloc(3 * n + 3, sizeof(char *));
	char text[3 * 16 * 64 + 16], complaint[512] = "";
	posix_spawn_file_actions_t actions;
	size_t i, used = 0, argc = 0, got = 0;
	int pipe_fd[2], rc, status;
	pid_t child;
	ssize_t len;

	if (argv == NULL || n > 64) {
		free(argv);
		return kc_error_set(err, n > 64 ? E2BIG : ENOMEM, "%s: %zu mappings", field, n);
	}
	argv[argc++] = (char *)tool;
	argv[argc++] = text;
	used = (size_t)snprintf(text, sizeof(text), "%d", (int)pid) + 1;
	for (i = 0; i < n; i++) {
		uint32_t v[3] = {m[i].container_id, m[i].host_id, m[i].size};

		for (int k = 0; k < 3; k++) {
			argv[argc++] = text + used;
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%u", v[k]) + 1;
		}
	}
	if (pipe2(pipe_fd, O_CLOEXEC) < 0) {
		free(argv);
		return kc_error_set(err, errno, "%s: pipe", tool);
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDERR_FILENO);
	posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
	rc = posix_spawnp(&child, tool, &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	free(argv);
	close(pipe_fd[1]);
	if (rc != 0) {
		close(pipe_fd[0]);
		if (rc == ENOENT)
			return kc_error_set(err, 0,
					    "%s: mapping more than your own id needs %s (package "
					    "uidmap), and it is not in PATH",
					    field, tool);
		return kc_error_set(err, rc, "%s: run %s", field, tool);
	}
	while (got + 1 < sizeof(complaint) &&
	       ((len = read(pipe_fd[0], complaint + got, sizeof(complaint) - 1 - got)) > 0 ||
		(len < 0 && errno == EINTR)))
		if (len > 0)
			got += (size_t)len;
	complaint[got] = '\0';
	close(pipe_fd[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	complaint[strcspn(complaint, "\n")] = '\0';
	return kc_error_set(err, 0, "%s: %s refused the mappings (%s %d): %s", field, tool,
			    WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			    *complaint ? complaint : "no message");
}

static int write_setgroups_deny(pid_t pid, kc_error_t *err)
{
	char path[64];
	cleanup_close int fd = -1;

	snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "deny", 4) != 4)
		return kc_error_set(err, errno, "write %s", path);
	return 0;
}

static int write_supervisor_maps(pid_t pid, const struct oci_linux *lx, kc_error_t *err)
{
	if (own_id_only(lx->uid_mappings, lx->uid_mappings_len, geteuid())) {
		if (kc_userns_write_map(pid, "uid_map", lx->uid_mappings, lx->uid_mappings_len,
					err) < 0)
			return -1;
	} else if (run_map_tool("newuidmap", "linux.uidMappings", pid, lx->uid_mappings,
				lx->uid_mappings_len, err) < 0) {
		return -1;
	}
	/* An unprivileged gid_map needs setgroups denied first: the
	 * container cannot set supplementary groups then (as with runc). */
	if (own_id_only(lx->gid_mappings, lx->gid_mappings_len, getegid()))
		return write_setgroups_deny(pid, err) < 0 ||
				       kc_userns_write_map(pid, "gid_map", lx->gid_mappings,
							   lx->gid_mappings_len, err) < 0
			       ? -1
			       : 0;
	return run_map_tool("newgidmap", "linux.gidMappings", pid, lx->gid_mappings,
			    lx->gid_mappings_len, err);
}

/* ---------- entering ---------- */

static int check_config(const struct oci_linux *lx, kc_error_t *err)
{
	const struct oci_namespace *user = lx ? oci_linux_find_namespace(lx, OCI_NS_USER) : NULL;

	if (user == NULL)
		return kc_error_set(err, 0, "linux.namespaces: rootless container requires user "
					    "namespaces");
	if (user->path)
		return kc_error_set(err, 0, "linux.namespaces: rootless kcrun makes the user "
					    "namespace itself; joining one (path \"%s\") is not "
					    "supported", user->path);
	if (lx->uid_mappings_len == 0)
		return kc_error_set(err, 0, "linux.uidMappings: rootless containers requires at "
					    "least one UID mapping");
	if (lx->gid_mappings_len == 0)
		return kc_error_set(err, 0, "linux.gidMappings: rootless containers requires at "
					    "least one GID mapping");
	/* kcrun builds the mounts and writes its state as the caller: both
	 * ids must mean something in the supervisor namespace */
	if (!maps_id(lx->uid_mappings, lx->uid_mappings_len, geteuid()))
		return kc_error_set(err, 0, "linux.uidMappings: rootless kcrun needs your uid %u "
					    "mapped", (unsigned)geteuid());
	if (!maps_id(lx->gid_mappings, lx->gid_mappings_len, getegid()))
		return kc_error_set(err, 0, "linux.gidMappings: rootless kcrun needs your gid %u "
					    "mapped", (unsigned)getegid());
	return 0;
}

/* The supervisor namespace's ids onto themselves: the container sees the
 * ids of linux.uidMappings/gidMappings, one level further down. */
static struct oci_id_mapping *identity(const struct oci_id_mapping *m, size_t n)
{
	struct oci_id_mapping *out = calloc(n, sizeof(*out));
	size_t i;

	for (i = 0; out && i < n; i++) {
		out[i] = m[i];
		out[i].host_id = m[i].container_id;
	}
	return out;
}

int kc_rootless_enter(const struct oci_linux *lx, kc_error_t *err)
{
	struct oci_linux inner = {0};
	cleanup_close int supervisor = -1;
	int fd;

	if (check_config(lx, err) < 0)
		return -1;
	supervisor = kc_userns_create_with(lx, write_supervisor_maps, err);
	if (supervisor < 0)
		return -1;
	if (setns(supervisor, CLONE_NEWUSER) < 0)
		return kc_error_set(err, errno, "rootless: enter the supervisor user namespace");
	/* a mount namespace owned by it: open_tree, fsopen and move_mount
	 * judge CAP_SYS_ADMIN over that owner.  The host's mounts in the copy
	 * are slaves and locked (copy_mnt_ns for a less privileged owner). */
	if (unshare(CLONE_NEWNS) < 0)
		return kc_error_set(err, errno, "rootless: unshare a mount namespace");
	inner.uid_mappings = identity(lx->uid_mappings, lx->uid_mappings_len);
	inner.uid_mappings_len = lx->uid_mappings_len;
	inner.gid_mappings = identity(lx->gid_mappings, lx->gid_mappings_len);
	inner.gid_mappings_len = lx->gid_mappings_len;
	if (inner.uid_mappings == NULL || inner.gid_mappings == NULL)
		fd = kc_error_set(err, ENOMEM, "rootless: mappings");
	else
		fd = kc_userns_create_mapped(&inner, err);
	free(inner.uid_mappings);
	free(inner.gid_mappings);
	if (fd >= 0)
		kc_log_debug("rootless: in the supervisor user namespace, container's is fd %d", fd);
	return fd;
}

static bool same_ns(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int kc_rootless_join(pid_t init_pid, kc_error_t *err)
{
	char path[64];
	cleanup_close int init_ns = -1;
	cleanup_close int supervisor = -1;

	if (!kc_rootless() || init_pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)init_pid);
	init_ns = open(path, O_RDONLY | O_CLOEXEC);
	if (init_ns < 0)
		return 0; /* init is gone, and the container with it */
	supervisor = ioctl(init_ns, NS_GET_PARENT);
	if (supervisor < 0)
		return kc_error_set(err, errno, "rootless: the parent of %s", path);
	if (same_ns(supervisor, "/proc/self/ns/user"))
		return 0;
	if (setns(supervisor, CLONE_NEWUSER) < 0)
		return kc_error_set(err, errno, "rootless: join the container's supervisor user "
					      "namespace");
	return 0;
}

/* ---------- cgroups ---------- */

const char *kc_rootless_resources_field(const struct oci_resources *r)
{
	if (r == NULL)
		return NULL;
	if (r->memory)
		return "linux.resources.memory";
	if (r->cpu)
		return "linux.resources.cpu";
	if (r->pids)
		return "linux.resources.pids";
	if (r->block_io)
		return "linux.resources.blockIO";
	if (r->hugepage_limits_len)
		return "linux.resources.hugepageLimits";
	if (r->network)
		return "linux.resources.network";
	if (r->rdma_len)
		return "linux.resources.rdma";
	if (r->unified.len)
		return "linux.resources.unified";
	return NULL;
}

/* ---------- members without a cgroup ---------- */

static int scan_pid_ns(pid_t init_pid, int out)
{
	char path[64], target[64], link[64];
	struct dirent *entry;
	DIR *proc;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init_pid);
	if (readlink(path, target, sizeof(target) - 1) < 0)
		return -1;
	target[sizeof(target) - 1] = '\0';
	if (readlink("/proc/self/ns/pid", link, sizeof(link) - 1) >= 0 &&
	    strncmp(link, target, sizeof(link)) == 0)
		/* no pid namespace of its own: init alone */
		return write(out, &init_pid, sizeof(init_pid)) == sizeof(init_pid) ? 0 : -1;
	proc = opendir("/proc");
	if (proc == NULL)
		return -1;
	while ((entry = readdir(proc)) != NULL) {
		pid_t pid = (pid_t)strtol(entry->d_name, NULL, 10);
		ssize_t len;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
		memset(link, 0, sizeof(link));
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0 && strcmp(link, target) == 0 &&
		    write(out, &pid, sizeof(pid)) != sizeof(pid))
			break;
	}
	closedir(proc);
	return 0;
}

int kc_rootless_members(pid_t init_pid, pid_t **pids, size_t *n, kc_error_t *err)
{
	int pipe_fd[2], status;
	size_t cap = 0;
	pid_t child, pid;

	*pids = NULL;
	*n = 0;
	if (pipe2(pipe_fd, O_CLOEXEC) < 0)
		return kc_error_set(err, errno, "pipe");
	/* a child joins the supervisor namespace (where it may look at every
	 * id of the container), so that kcrun and ps(1) see the host's ids */
	child = fork();
	if (child < 0) {
		close(pipe_fd[0]);
		close(pipe_fd[1]);
		return kc_error_set(err, errno, "fork");
	}
	if (child == 0) {
		kc_error_t ignored = NULL;

		close(pipe_fd[0]);
		if (kc_rootless_join(init_pid, &ignored) < 0)
			kc_log_debug("%s", ignored->msg);
		_exit(scan_pid_ns(init_pid, pipe_fd[1]) < 0 ? 1 : 0);
	}
	close(pipe_fd[1]);
	while (read(pipe_fd[0], &pid, sizeof(pid)) == sizeof(pid)) {
		if (*n == cap) {
			pid_t *bigger = realloc(*pids, (cap = cap ? 2 * cap : 16) * sizeof(pid_t));

			if (bigger == NULL)
				break;
			*pids = bigger;
		}
		(*pids)[(*n)++] = pid;
	}
	close(pipe_fd[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}
