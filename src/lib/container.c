/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan (see docs/kcrun.8 and architecture.md): config.json -> ordered
 * steps, each undone in reverse order when a later one fails, so a failed
 * create leaves no state directory, no cgroup, no container object and no
 * process behind. */
#include "container.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup_devices.h"
#include "cgroup_resources.h"
#include "descendants.h"
#include "devices.h"
#include "hook_view.h"
#include "hooks.h"
#include "init.h"
#include "keys.h"
#include "kcontainer.h"
#include "log.h"
#include "mounts.h"
#include "network.h"
#include "notify_socket.h"
#include "pidfile.h"
#include "lsm.h"
#include "pidfd_socket.h"
#include "procattrs.h"
#include "rootless.h"
#include "seccomp.h"
#include "seccomp_notify.h"
#include "state.h"
#include "systemd_scope.h"
#include "systemd_unit.h"
#include "terminal.h"
#include "unsupported.h"
#include "userns.h"
#include "oci-spec/spec.h"

#include "cleanup.h"

int kc_require_kernel(kc_error_t *err)
{
	if (!kc_kernel_has_containers())
		return kc_error_set(err, 0,
				    "this kernel has no container objects (/proc/containers "
				    "missing); boot the kcrun kernel");
	return 0;
}

/* ---- create ---- */

static const struct {
	enum oci_namespace_type type;
	unsigned int create_flag;
	int clone_flag;
} ns_table[] = {
	{OCI_NS_MOUNT, CONTAINER_NEW_EMPTY_FS_NS, CLONE_NEWNS},
	{OCI_NS_PID, CONTAINER_NEW_PID_NS, CLONE_NEWPID},
	{OCI_NS_NETWORK, CONTAINER_NEW_NET_NS, CLONE_NEWNET},
	{OCI_NS_IPC, CONTAINER_NEW_IPC_NS, CLONE_NEWIPC},
	{OCI_NS_UTS, CONTAINER_NEW_UTS_NS, CLONE_NEWUTS},
	{OCI_NS_CGROUP, CONTAINER_NEW_CGROUP_NS, CLONE_NEWCGROUP},
};

/* Everything create acquired, released in reverse order by undo_create. */
struct create_ctx {
	const struct kc_create_opts *opts;
	struct oci_spec *spec;
	char *bundle;
	char *rootfs;
	char *config_path;
	char *state_dir;
	bool state_dir_made;
	int state_dir_fd;
	int lock_fd;          /* kc_state_lock of the state dir, held until create returns */
	int userns_fd;
	int cfd;
	pid_t pid;
	int go_fd, report_fd;
	int pty_master, pty_slave;
	int *hook_fds;
	size_t hook_fds_len;
	int hook_view_fd;     /* hook_view.h: init waits for the go in it; -1: none */
	int lsm_proc_fd;      /* lsm.h: init writes its LSM label through it; -1: none */
	int seccomp_ends[2];  /* seccomp_notify.h: [0] ours, [1] init's; -1: no notify */
	scmp_filter_ctx seccomp;
	struct kc_mount_ctx mounts;
	char *cgroup_path;    /* absolute directory of the container's cgroup */
	bool cgroup_made;
	int cgroup_fd;        /* O_PATH fd of cgroup_path: init starts there */
	/* --systemd-cgroup: the scope holding cgroup_path, and its holder
	 * until init is in it (systemd_scope.h) */
	struct kc_systemd_scope scope;
	char *unit_name;      /* started: stopped again on a failed create */
	bool unit_user;
	int notify_fd;        /* run with $NOTIFY_SOCKET: notify_socket.h */
	int32_t keyring;      /* the container keyring's serial, 0: none (keys.h) */
	bool rootless;        /* unprivileged: rootless.h, decided before anything */
	bool rootless_cgroups; /* a cgroup may be refused (rootless.h) */
};

/* Rootless, a cgroup kcrun may not make (no write access to the nearest
 * directory that exists, or to the cgroup.procs of one that does) is
 * skipped, as runc skips it, unless the config asks for it or for limits:
 * then the error names the field. */
static bool cgroup_writable(const char *dir)
{
	char path[PATH_MAX], *slash;

	if (access(dir, F_OK) == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		return access(path, W_OK) == 0;
	}
	snprintf(path, sizeof(path), "%s", dir);
	while ((slash = strrchr(path, '/')) != NULL && slash != path) {
		*slash = '\0';
		if (access(path, F_OK) == 0)
			return access(path, W_OK) == 0;
	}
	return false;
}

static int rootless_cgroup_refused(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;
	const char *field = lx ? kc_rootless_resources_field(lx->resources) : NULL;

	if (lx && lx->cgroups_path && *lx->cgroups_path)
		return kc_error_set(err, EACCES, "linux.cgroupsPath: rootless: cgroup %s is not "
						 "delegated to you (it or its parent must be yours)",
				    c->cgroup_path);
	if (field)
		return kc_error_set(err, 0, "%s: rootless kcrun cannot apply limits without a "
					    "delegated cgroup (set linux.cgroupsPath to a cgroup "
					    "below one chowned to you; %s is not writable)",
				    field, c->cgroup_path);
	kc_log_debug("rootless: no cgroup (%s is not writable), none asked for", c->cgroup_path);
	free(c->cgroup_path);
	c->cgroup_path = NULL;
	return 1;
}

/* The limits systemd does not know, and the device filter, written into
 * the container's cgroup as cgroupfs does; then the fd init starts in. */
static int apply_cgroup(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;

	if (lx && lx->resources && kc_cgroup_apply(c->cgroup_path, lx->resources, err) < 0)
		return -1;
	/* The eBPF device filter, always (as runc): linux.resources.devices,
	 * then the default allowlist; the rest is denied.  Rootless, none (as
	 * runc): an unprivileged user cannot attach one, and the container
	 * has only the host's device nodes bound, with the user's rights. */
	if (!c->rootless_cgroups && kc_cgroup_apply_devices(c->cgroup_path, lx, err) < 0)
		return -1;
	c->cgroup_fd = open(c->cgroup_path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->cgroup_fd < 0)
		return kc_error_set(err, errno, "open cgroup %s", c->cgroup_path);
	return 0;
}

/* --systemd-cgroup: a transient scope (slice:prefix:name) started with the
 * resources systemd knows and the org.systemd.property.* annotations as
 * unit properties, a holder as its first process (systemd makes no empty
 * scope); init is forked into the scope's cgroup, and the holder let go
 * (docs/architecture.md, "The systemd cgroup driver"). */
static int setup_systemd_cgroup(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;
	struct kc_systemd_unit unit = {0};
	struct kc_unit_props props = {0};
	int rc = -1;

	/* the user's manager when unprivileged or root of a user namespace
	 * that is not the initial one (rootless podman runs the runtime so),
	 * as runc and crun decide it */
	if (kc_systemd_unit_from_path(lx ? lx->cgroups_path : NULL, c->opts->id,
				      c->rootless_cgroups, &unit, err) < 0)
		return -1;
	if (kc_unit_props_for_scope(&props, &unit, c->opts->id, err) < 0 ||
	    kc_unit_props_from_resources(&props, lx ? lx->resources : NULL, err) < 0 ||
	    kc_unit_props_from_annotations(&props, &c->spec->annotations, err) < 0)
		goto out;
	c->unit_user = c->rootless_cgroups;
	if (kc_systemd_scope_start(&unit, &props, c->unit_user, &c->scope, err) < 0)
		goto out;
	c->unit_name = unit.name;
	unit.name = NULL;
	if (kc_state_record_unit(c->state_dir_fd, c->unit_name, c->unit_user, err) < 0)
		goto out;
	c->cgroup_path = strdup(c->scope.cgroup);
	if (c->cgroup_path == NULL) {
		kc_error_set(err, ENOMEM, "cgroup of %s", c->unit_name);
		goto out;
	}
	if (kc_state_record_cgroup(c->state_dir_fd, c->cgroup_path, err) < 0 ||
	    apply_cgroup(c, err) < 0)
		goto out;
	rc = 0;
out:
	kc_unit_props_free(&props);
	kc_systemd_unit_free(&unit);
	return rc;
}

/* linux.cgroupsPath and linux.resources.  Init starts directly in the
 * container's cgroup (clone3's CLONE_INTO_CGROUP beside CLONE_INTO_CONTAINER,
 * as clone3's CLONE_INTO_CGROUP), and a new cgroup namespace is rooted
 * there; kcrun itself never enters it. */
static int setup_cgroup(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;
	bool existed;

	if (c->opts->no_cgroup)
		return 0;
	if (!kc_cgroup_v2_mounted()) {
		if (lx && (lx->resources || lx->cgroups_path))
			return kc_error_set(err, 0, "linux.resources: no cgroup v2 hierarchy at %s",
					    KC_CGROUP_MOUNT);
		return 0;
	}
	if (c->opts->systemd_cgroup)
		return setup_systemd_cgroup(c, err);
	if (kc_cgroup_resolve(lx ? lx->cgroups_path : NULL, c->opts->id, &c->cgroup_path, err) < 0)
		return -1;
	if (c->rootless_cgroups && !cgroup_writable(c->cgroup_path)) {
		int refused = rootless_cgroup_refused(c, err);

		return refused < 0 ? -1 : 0;
	}
	/* one of the caller's is checked before it is touched (and left as it
	 * is when refused); a new one after it is made */
	existed = access(c->cgroup_path, F_OK) == 0;
	if (existed && kc_cgroup_check_unused(c->cgroup_path, err) < 0)
		return -1;
	if (kc_cgroup_create(c->cgroup_path, err) < 0)
		return -1;
	c->cgroup_made = true;
	if (!existed && kc_cgroup_check_unused(c->cgroup_path, err) < 0)
		return -1;
	if (kc_state_record_cgroup(c->state_dir_fd, c->cgroup_path, err) < 0)
		return -1;
	return apply_cgroup(c, err);
}

static void release_create(struct create_ctx *c, bool failed)
{
	if (failed && c->pid > 0) {
		int status;

		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->report_fd >= 0)
		close(c->report_fd);
	if (c->pty_slave >= 0)
		close(c->pty_slave);
	if (failed && c->pty_master >= 0)
		close(c->pty_master);
	if (c->hook_fds)
		kc_hooks_close_executables(c->hook_fds, c->hook_fds_len);
	if (c->hook_view_fd >= 0)
		close(c->hook_view_fd);
	if (c->lsm_proc_fd >= 0)
		close(c->lsm_proc_fd);
	for (int i = 0; i < 2; i++)
		if (c->seccomp_ends[i] >= 0)
			close(c->seccomp_ends[i]);
	kc_seccomp_release(c->seccomp);
	kc_mount_ctx_release(&c->mounts);
	if (c->cgroup_fd >= 0)
		close(c->cgroup_fd);
	if (failed && c->cfd >= 0)
		close(c->cfd); /* a never-started container dies with its last fd */
	kc_systemd_scope_release(&c->scope);
	if (failed && c->unit_name) {
		kc_error_t ignored = NULL;

		kc_systemd_unit_stop(c->unit_name, c->unit_user, &ignored);
		kc_error_free(&ignored);
	}
	if (failed && c->cgroup_made) {
		kc_error_t ignored = NULL;

		kc_cgroup_destroy(c->cgroup_path, &ignored);
		kc_error_free(&ignored);
	}
	if (c->userns_fd >= 0)
		close(c->userns_fd);
	if (c->state_dir_fd >= 0)
		close(c->state_dir_fd);
	if (failed && c->state_dir_made) {
		kc_error_t ignored = NULL;

		kc_state_remove(c->opts->root, c->opts->id, &ignored);
		kc_error_free(&ignored);
	}
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	if (c->notify_fd >= 0)
		close(c->notify_fd);
	oci_spec_free(c->spec);
	free(c->bundle);
	free(c->rootfs);
	free(c->config_path);
	free(c->state_dir);
	free(c->cgroup_path);
	free(c->unit_name);
}

static int mkdir_p(const char *path, mode_t mode, kc_error_t *err)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return kc_error_set(err, errno, "mkdir %s", buf);
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return kc_error_set(err, errno, "mkdir %s", buf);
	return 0;
}

static int load_config(struct create_ctx *c, kc_error_t *err)
{
	const char *bundle = c->opts->bundle ? c->opts->bundle : ".";
	char *msg = NULL;

	c->bundle = realpath(bundle, NULL);
	if (c->bundle == NULL)
		return kc_error_set(err, errno, "chdir %s", bundle);
	if (asprintf(&c->config_path, "%s/config.json", c->bundle) < 0)
		return kc_error_set(err, ENOMEM, "config");
	if (access(c->config_path, F_OK) < 0 && errno == ENOENT)
		return kc_error_set(err, 0, "JSON specification file config.json not found");
	if (oci_spec_parse_file(c->config_path, &c->spec, &msg) < 0 ||
	    oci_spec_validate_for_create(c->spec, &msg) < 0) {
		kc_error_set(err, 0, "%s", msg ? msg : "invalid config.json");
		free(msg);
		return -1;
	}
	if (kc_refuse_unsupported(c->spec, err) < 0)
		return -1;
	if (c->spec->root == NULL || c->spec->root->path == NULL)
		return kc_error_set(err, 0, "root.path: required");
	if (c->spec->root->path[0] == '/')
		c->rootfs = strdup(c->spec->root->path);
	else if (asprintf(&c->rootfs, "%s/%s", c->bundle, c->spec->root->path) < 0)
		c->rootfs = NULL;
	if (c->rootfs == NULL)
		return kc_error_set(err, ENOMEM, "root.path");
	return 0;
}

static int make_state_dir(struct create_ctx *c, kc_error_t *err)
{
	if (mkdir_p(c->opts->root, 0700, err) < 0)
		return -1;
	c->state_dir = kc_state_dir(c->opts->root, c->opts->id);
	if (c->state_dir == NULL)
		return kc_error_set(err, ENOMEM, "state");
	if (mkdir(c->state_dir, 0711) < 0) {
		if (errno == EEXIST)
			return kc_error_set(err, 0, "container with given ID already exists");
		return kc_error_set(err, errno, "mkdir %s", c->state_dir);
	}
	c->state_dir_made = true;
	/* 0711 whatever the umask: init, as process.user, opens exec.fifo in it */
	if (chmod(c->state_dir, 0711) < 0)
		return kc_error_set(err, errno, "chmod %s", c->state_dir);
	c->lock_fd = kc_state_lock(c->opts->root, c->opts->id, err);
	if (c->lock_fd < 0)
		return -1;
	c->state_dir_fd = open(c->state_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->state_dir_fd < 0)
		return kc_error_set(err, errno, "open %s", c->state_dir);
	/* 0622 whatever the umask: init opens it after switching to process.user */
	if (!c->opts->run && (mkfifoat(c->state_dir_fd, KC_EXEC_FIFO, 0622) < 0 ||
			      fchmodat(c->state_dir_fd, KC_EXEC_FIFO, 0622, 0) < 0))
		return kc_error_set(err, errno, "mkfifo %s/%s", c->state_dir, KC_EXEC_FIFO);
	return 0;
}

/* linux.namespaces without a path -> container_create flags; the user
 * namespace -> a mapped namespace fd (CONTAINER_USER_NS_FD). */
static int namespace_flags(struct create_ctx *c, unsigned int *flags, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;
	size_t i, j;

	*flags = 0;	/* container fds are always close-on-exec */
	for (i = 0; lx && i < lx->namespaces_len; i++) {
		const struct oci_namespace *ns = &lx->namespaces[i];

		if (ns->type == OCI_NS_USER) {
			if (c->rootless) {
				c->userns_fd = kc_rootless_enter(lx, err);
				if (c->userns_fd < 0)
					return -1;
			} else if (ns->path) {
				c->userns_fd = open(ns->path, O_RDONLY | O_CLOEXEC);
				if (c->userns_fd < 0)
					return kc_error_set(err, errno,
							    "linux.namespaces[%zu]: open %s", i,
							    ns->path);
			} else {
				c->userns_fd = kc_userns_create_mapped(lx, err);
				if (c->userns_fd < 0)
					return -1;
			}
			*flags |= CONTAINER_USER_NS_FD;
			continue;
		}
		if (ns->type == OCI_NS_TIME)
			return kc_error_set(err, 0,
					    "linux.namespaces[%zu]: time namespaces are not "
					    "supported by kernel containers", i);
		if (ns->path)
			continue;
		for (j = 0; j < sizeof(ns_table) / sizeof(ns_table[0]); j++)
			if (ns_table[j].type == ns->type)
				*flags |= ns_table[j].create_flag;
	}
	if (c->rootless && !(*flags & CONTAINER_USER_NS_FD))
		return kc_error_set(err, 0, "linux.namespaces: rootless container requires user "
					    "namespaces");
	if (!(*flags & CONTAINER_NEW_EMPTY_FS_NS) &&
	    !(lx && oci_linux_find_namespace(lx, OCI_NS_MOUNT)))
		return kc_error_set(err, 0, "linux.namespaces: a mount namespace is required");
	return 0;
}

/* linux.namespaces with a path: container_setns before init exists. */
static int join_namespaces(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_linux *lx = c->spec->linux_;
	size_t i, j;

	for (i = 0; lx && i < lx->namespaces_len; i++) {
		const struct oci_namespace *ns = &lx->namespaces[i];
		int fd, clone_flag = 0;

		if (ns->path == NULL || ns->type == OCI_NS_USER)
			continue;
		for (j = 0; j < sizeof(ns_table) / sizeof(ns_table[0]); j++)
			if (ns_table[j].type == ns->type)
				clone_flag = ns_table[j].clone_flag;
		fd = open(ns->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return kc_error_set(err, errno, "linux.namespaces[%zu]: open %s", i,
					    ns->path);
		if (kc_container_setns(c->cfd, fd, clone_flag) < 0) {
			kc_error_set(err, errno, "linux.namespaces[%zu]: join %s namespace %s", i,
				     oci_namespace_type_name(ns->type), ns->path);
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* createRuntime/prestart hooks see the host's mounts as with runc
 * (hook_view.h), where init can enter them and mounts there reach the root. */
static bool needs_hook_view(const struct create_ctx *c)
{
	const struct oci_hooks *h = c->spec->hooks;

	return h && (h->prestart_len || h->create_runtime_len) && !c->rootless &&
	       !oci_linux_find_namespace(c->spec->linux_, OCI_NS_USER) &&
	       kc_mounts_rootfs_is_slave(c->spec);
}

static int build_mount_tree_as(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_namespace *mnt = oci_linux_find_namespace(c->spec->linux_, OCI_NS_MOUNT);
	const struct oci_namespace *user = oci_linux_find_namespace(c->spec->linux_, OCI_NS_USER);

	if (mnt == NULL || mnt->path)
		return 0; /* a joined mount namespace is used as it is */
	c->mounts.cfd = c->cfd;
	c->mounts.bundle = c->bundle;
	c->mounts.rootfs = c->rootfs;
	c->mounts.cgroup_path = c->cgroup_path;
	c->mounts.userns = user != NULL;
	if (needs_hook_view(c) && kc_hook_view_make(c->rootfs, &c->hook_view_fd,
						    &c->mounts.rootfs_clone_fd, err) < 0)
		return -1;
	if (kc_mounts_setup_rootfs(&c->mounts, c->spec, err) < 0 ||
	    kc_mounts_setup(&c->mounts, c->spec, err) < 0 ||
	    kc_devices_setup(c->cfd, c->spec, c->mounts.dev_is_tmpfs, c->mounts.userns, err) < 0 ||
	    kc_mounts_finish(&c->mounts, c->spec, err) < 0)
		return -1;
	/* runc creates a missing process.cwd */
	if (c->spec->process && c->spec->process->cwd) {
		kc_error_t ignored = NULL;

		kc_mkdir_p_at(c->cfd, c->spec->process->cwd, 0755, &ignored);
		kc_error_free(&ignored);
	}
	return 0;
}

static int build_mount_tree(struct create_ctx *c, kc_error_t *err)
{
	struct kc_fs_ids saved = {0};
	int ret;

	if (c->rootless)
		kc_userns_become_ns_root(&saved);
	else if (oci_linux_find_namespace(c->spec->linux_, OCI_NS_USER) &&
		 c->spec->linux_->uid_mappings_len)
		kc_userns_become_root(c->spec->linux_, &saved);
	ret = build_mount_tree_as(c, err);
	kc_userns_restore_fs_ids(&saved);
	return ret;
}

static int setup_terminal(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_process *p = c->spec->process;

	if (!p->terminal) {
		if (c->opts->console_socket)
			return kc_error_set(err, 0,
					    "cannot use console socket if kcrun will not detach "
					    "or allocate tty");
		return 0;
	}
	if (c->opts->console_socket == NULL && !c->opts->run)
		return kc_error_set(err, 0,
				    "cannot allocate tty if kcrun will detach without setting "
				    "console socket");
	return kc_terminal_setup(c->cfd, p, c->opts->console_socket, &c->pty_master,
				 &c->pty_slave, err);
}

/* The runtime-spec state of the container being made, for hooks and a
 * seccomp listener (status "creating" until init is parked). */
static struct oci_state spec_state(const struct create_ctx *c, enum oci_status status)
{
	return (struct oci_state){
		.oci_version = (char *)OCI_SPEC_VERSION,
		.id = (char *)c->opts->id,
		.status = status,
		.pid = c->pid,
		.bundle = c->bundle,
		.annotations = c->spec->annotations,
	};
}

static char *hook_state(struct create_ctx *c, enum oci_status status)
{
	struct oci_state st = spec_state(c, status);
	char *json = NULL;

	if (oci_state_to_hook_json(&st, &json) < 0)
		return NULL;
	return json;
}

/* Writes snapshot as <state dir>/name (a new file, 0600). */
static int record_spec(struct create_ctx *c, const char *name, const struct oci_spec *snapshot,
		       kc_error_t *err)
{
	cleanup_free char *json = NULL;
	size_t len;
	int fd;

	if (oci_spec_to_json(snapshot, &json) < 0)
		return kc_error_set(err, ENOMEM, "record %s", name);
	fd = openat(c->state_dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return kc_error_set(err, errno, "create %s/%s", c->state_dir, name);
	len = strlen(json);
	errno = 0;
	if (write(fd, json, len) != (ssize_t)len) {
		kc_error_set(err, errno ? errno : EIO, "write %s/%s", c->state_dir, name);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* poststart and poststop run after create has returned (start, delete):
 * they are the hooks create read, recorded in the state directory, never
 * the bundle's config.json read again (it may have been edited since). */
static int record_late_hooks(struct create_ctx *c, kc_error_t *err)
{
	const struct oci_hooks *h = c->spec->hooks;
	struct oci_hooks late = {0};
	struct oci_spec snapshot = {.oci_version = c->spec->oci_version, .hooks = &late};

	if (h == NULL || (h->poststart_len == 0 && h->poststop_len == 0))
		return 0;
	late.poststart = h->poststart;
	late.poststart_len = h->poststart_len;
	late.poststop = h->poststop;
	late.poststop_len = h->poststop_len;
	return record_spec(c, KC_HOOKS_FILE, &snapshot, err);
}

static int write_state(struct create_ctx *c, kc_error_t *err)
{
	struct kc_state st = {
		.id = (char *)c->opts->id,
		.pid = c->pid,
		.bundle = c->bundle,
		.rootfs = c->rootfs,
		.owner = (char *)"",
		.cgroup_path = c->cgroup_path ? c->cgroup_path : (char *)"",
		.config_path = c->config_path,
		.has_poststart_hooks = c->spec->hooks && c->spec->hooks->poststart_len,
		.has_poststop_hooks = c->spec->hooks && c->spec->hooks->poststop_len,
		.has_pid_ns = oci_linux_find_namespace(c->spec->linux_, OCI_NS_PID) != NULL,
		.annotations = c->spec->annotations,
		.keyring = c->keyring,
	};

	/* exec's defaults (process, linux.seccomp, personality, LSM labels)
	 * are what create validated, never config.json read again */
	if (record_late_hooks(c, err) < 0 || record_spec(c, KC_CONFIG_FILE, c->spec, err) < 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &st.created);
	st.start_time = kc_proc_start_time(c->pid, NULL);
	return kc_state_write(c->opts->root, &st, err);
}

/* The child side of clone3(CLONE_INTO_CONTAINER). */
static _Noreturn void run_init(struct create_ctx *c, int go_fd, int report_fd)
{
	struct kc_init_ctx ic = {
		.spec = c->spec,
		.process = c->spec->process,
		.cfd = c->cfd,
		.go_fd = go_fd,
		.report_fd = report_fd,
		.state_dir_fd = c->opts->run ? -1 : c->state_dir_fd,
		.pty_slave_fd = c->pty_slave,
		.preserve_fds = c->opts->preserve_fds,
		.seccomp = c->seccomp,
		.deferred_readonly = c->mounts.deferred_readonly,
		.deferred_readonly_len = c->mounts.deferred_readonly_len,
		.hooks = c->spec->hooks,
		.hook_fds = c->hook_fds,
		.hook_view_fd = c->hook_view_fd,
		.lsm_proc_fd = c->lsm_proc_fd,
		.seccomp_notify_fd = c->seccomp_ends[1],
		.session_keyring = c->opts->no_new_keyring ? NULL : c->opts->id,
	};

	if (c->pty_master >= 0)
		close(c->pty_master);
	close(c->lock_fd); /* a flock lives as long as any fd of it: not init's */
	kc_init_main(&ic);
}

int kc_create(const struct kc_create_opts *opts, struct kc_created *out, kc_error_t *err)
{
	struct create_ctx c = {
		.opts = opts,
		.state_dir_fd = -1,
		.lock_fd = -1,
		.userns_fd = -1,
		.cfd = -1,
		.cgroup_fd = -1,
		.scope = KC_SYSTEMD_SCOPE_INIT,
		.go_fd = -1,
		.report_fd = -1,
		.pty_master = -1,
		.notify_fd = -1,
		.pty_slave = -1,
		.hook_view_fd = -1,
		.lsm_proc_fd = -1,
		.seccomp_ends = {-1, -1},
		.mounts = {.rootfs_clone_fd = -1},
		.rootless = kc_rootless(),
		.rootless_cgroups = kc_rootless_cgroups(),
	};
	const struct oci_hooks *hooks;
	uint32_t max_descendants;
	unsigned int flags;
	int go[2], report[2];
	char *state_json = NULL;

	if (kc_state_check_id(opts->id, err) < 0)
		return -1;
	kc_trace("create");
	/* The config before the kernel: its errors show on any host. */
	if (load_config(&c, err) < 0 || kc_require_kernel(err) < 0)
		goto fail;
	kc_trace("config parsed");
	hooks = c.spec->hooks;
	if (make_state_dir(&c, err) < 0 || kc_notify_prepare(c.spec, c.state_dir, err) < 0 ||
	    (opts->run && kc_notify_listen(c.state_dir, &c.notify_fd, err) < 0))
		goto fail;
	if (c.spec->linux_ && c.spec->linux_->seccomp &&
	    (kc_seccomp_build(c.spec->linux_->seccomp, &c.seccomp, err) < 0 ||
	     (kc_seccomp_notifies(c.spec->linux_->seccomp) &&
	      kc_seccomp_notify_open(c.seccomp_ends, err) < 0)))
		goto fail;
	kc_trace("state dir");
	if (kc_max_descendants(&c.spec->annotations, &max_descendants, err) < 0 ||
	    namespace_flags(&c, &flags, err) < 0 || setup_cgroup(&c, err) < 0)
		goto fail;
	kc_trace("cgroup");

	c.cfd = kc_container_create(opts->id, flags | CONTAINER_MAX_DESCENDANTS, c.userns_fd,
				    max_descendants);
	if (c.cfd < 0) {
		if (errno == EEXIST)
			kc_error_set(err, 0, "container with given ID already exists");
		else
			kc_error_set(err, errno, "container_create");
		goto fail;
	}
	kc_trace("container_create");
	if (join_namespaces(&c, err) < 0 || build_mount_tree(&c, err) < 0 ||
	    kc_network_setup(c.cfd, c.spec, err) < 0 || setup_terminal(&c, err) < 0 ||
	    kc_keys_at_create(c.cfd, opts->id, &c.spec->annotations, &c.keyring, err) < 0 ||
	    kc_lsm_prepare(c.spec->process, c.cfd, &c.lsm_proc_fd, err) < 0)
		goto fail;
	if (hooks && hooks->create_container_len &&
	    kc_hooks_open_executables(hooks->create_container, hooks->create_container_len,
				      &c.hook_fds, err) < 0)
		goto fail;
	if (hooks)
		c.hook_fds_len = hooks->create_container_len;

	if (pipe2(go, O_CLOEXEC) < 0)
		goto fail_errno;
	if (pipe2(report, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		goto fail_errno;
	}
	c.go_fd = go[1];
	c.report_fd = report[0];

	kc_trace("mounts, devices, network");
	c.pid = kc_fork_into_container(c.cfd, c.cgroup_fd, NULL);
	if (c.pid < 0) {
		close(go[0]);
		close(report[1]);
		if (errno == EACCES && c.unit_user)
			kc_error_set(err, errno, "clone3 into container and cgroup %s (the user's "
				     "systemd manager made the scope, but kcrun runs outside the "
				     "tree it delegates to the user: run kcrun in a unit of that "
				     "manager, as podman runs it in its libpod-conmon scope, for "
				     "example with systemd-run --user --scope)", c.cgroup_path);
		else if (errno == EACCES && c.rootless_cgroups && c.cgroup_path)
			kc_error_set(err, errno, "clone3 into container and cgroup %s (rootless: "
				     "kcrun must run in the delegated subtree, which holds the "
				     "common ancestor of its cgroup and this one)", c.cgroup_path);
		else
			kc_error_set(err, errno, "clone3 into the container");
		goto fail;
	}
	if (c.pid == 0) {
		close(go[1]);
		close(report[0]);
		run_init(&c, go[0], report[1]);
	}
	close(go[0]);
	close(report[1]);
	close(c.pty_slave);
	c.pty_slave = -1;
	if (c.lsm_proc_fd >= 0) {
		close(c.lsm_proc_fd);
		c.lsm_proc_fd = -1;
	}
	if (c.seccomp_ends[1] >= 0) {
		close(c.seccomp_ends[1]);
		c.seccomp_ends[1] = -1;
	}
	/* init is in the scope: the holder goes (systemd keeps the scope) */
	kc_systemd_scope_release(&c.scope);

	if (c.spec->process->has_oom_score_adj &&
	    kc_procattrs_oom_score_adj(c.pid, c.spec->process->oom_score_adj, err) < 0)
		goto fail;
	state_json = hook_state(&c, OCI_STATUS_CREATING);
	if (state_json == NULL) {
		kc_error_set(err, ENOMEM, "state JSON for hooks");
		goto fail;
	}
	if (c.hook_view_fd >= 0 && kc_init_wait_report(c.report_fd, KC_INIT_IN_HOOK_VIEW, err) < 0)
		goto fail;
	if (hooks && (kc_hooks_run(hooks->prestart, hooks->prestart_len, state_json, "prestart",
				   err) < 0 ||
		      kc_hooks_run(hooks->create_runtime, hooks->create_runtime_len, state_json,
				   "createRuntime", err) < 0))
		goto fail;
	if (c.hook_view_fd >= 0) {
		close(c.hook_view_fd); /* the view ends when init leaves it */
		c.hook_view_fd = -1;
	}
	/* Release init; it gets the hook state for createContainer/startContainer. */
	if (write(c.go_fd, state_json, strlen(state_json)) < 0) {
		kc_error_set(err, errno, "release init");
		goto fail;
	}
	close(c.go_fd);
	c.go_fd = -1;
	kc_trace("init released");
	if (c.seccomp_ends[0] >= 0) {
		struct oci_state creating = spec_state(&c, OCI_STATUS_CREATING);

		if (kc_seccomp_notify_forward(c.seccomp_ends[0], c.spec->linux_->seccomp, &creating,
					      c.pid, c.report_fd, err) < 0)
			goto fail;
	}
	if (kc_init_wait_report(c.report_fd, KC_INIT_READY, err) < 0)
		goto fail;
	kc_trace("init ready");
	if (write_state(&c, err) < 0)
		goto fail;
	kc_trace("state written");
	if ((opts->pid_file && kc_pid_file_write(opts->pid_file, c.pid, err) < 0) ||
	    (opts->pidfd_socket && kc_pidfd_socket_send(opts->pidfd_socket, c.pid, err) < 0))
		goto fail;

	/* run: init execs right away, so this is already after "start". */
	if (opts->run && hooks && hooks->poststart_len) {
		char *running = hook_state(&c, OCI_STATUS_RUNNING);
		kc_error_t hook_err = NULL;

		if (running && kc_hooks_run(hooks->poststart, hooks->poststart_len, running,
					    "poststart", &hook_err) < 0) {
			kc_log_warn("%s", hook_err->msg);
			kc_error_free(&hook_err);
		}
		free(running);
	}
	out->pid = c.pid;
	out->cfd = c.cfd;
	out->pty_master = c.pty_master;
	out->notify_fd = c.notify_fd;
	c.notify_fd = -1;
	c.cfd = -1;
	free(state_json);
	release_create(&c, false);
	return 0;

fail_errno:
	kc_error_set(err, errno, "create");
fail:
	free(state_json);
	release_create(&c, true);
	return -1;
}
