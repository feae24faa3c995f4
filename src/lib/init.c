/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "init.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "creds.h"
#include "fileio.h"
#include "hook_view.h"
#include "hooks.h"
#include "kcontainer.h"
#include "mounts.h"
#include "lsm.h"
#include "procattrs.h"
#include "procfs.h"
#include "seccomp.h"
#include "seccomp_notify.h"
#include "signals.h"
#include "state.h"
#include "terminal.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/* Reports "E<message>" to the parent and exits. */
static _Noreturn void init_fail(struct kc_init_ctx *ctx, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static _Noreturn void init_fail(struct kc_init_ctx *ctx, int errnum, const char *fmt, ...)
{
	char msg[4096];
	size_t n;
	va_list ap;

	msg[0] = 'E';
	va_start(ap, fmt);
	vsnprintf(msg + 1, sizeof(msg) - 1, fmt, ap);
	va_end(ap);
	n = strlen(msg);
	if (errnum) {
		/* Go's (and so runc's) errno texts are lower case: podman matches
		 * "no such file or directory" and "permission denied". */
		snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(errnum));
		if (msg[n + 2] >= 'A' && msg[n + 2] <= 'Z')
			msg[n + 2] = (char)(msg[n + 2] - 'A' + 'a');
	}
	if (ctx->report_fd >= 0) {
		if (write(ctx->report_fd, msg, strlen(msg)) < 0) {
			/* the parent is gone: nobody to tell */
		}
	} else {
		fprintf(stderr, "kcrun: %s\n", msg + 1);
	}
	_exit(1);
}

static void init_fail_err(struct kc_init_ctx *ctx, kc_error_t *err)
{
	init_fail(ctx, 0, "%s", *err ? (*err)->msg : "unknown error");
}

static void write_sysctls(struct kc_init_ctx *ctx)
{
	const struct oci_map *m = &ctx->spec->linux_->sysctl;
	size_t i;

	for (i = 0; i < m->len; i++) {
		char path[4096], *p;
		const char *value = m->entries[i].value;
		int fd;

		snprintf(path, sizeof(path), "/proc/sys/%s", m->entries[i].key);
		/* net.ipv4.conf.eth0/1.rp_filter: dots are separators, slashes stay dots */
		for (p = path + strlen("/proc/sys/"); *p; p++)
			*p = *p == '.' ? '/' : *p == '/' ? '.' : *p;
		fd = kc_procfs_open(path, O_WRONLY | O_TRUNC);
		if (fd < 0 && errno == EXDEV)
			init_fail(ctx, 0, "sysctl %s: %s is not on procfs", m->entries[i].key, path);
		if (fd < 0)
			init_fail(ctx, errno, "sysctl %s: open %s", m->entries[i].key, path);
		if (write(fd, value, strlen(value)) < 0)
			init_fail(ctx, errno, "sysctl %s=%s", m->entries[i].key, value);
		close(fd);
	}
}

static const char *env_get(char **env, size_t len, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i < len; i++)
		if (strncmp(env[i], name, n) == 0 && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

/* Go's exec.LookPath, as runc uses it: the messages are runc's. */
static char *resolve_executable(struct kc_init_ctx *ctx)
{
	const char *arg0 = ctx->process->args[0];
	const char *path_env;
	char *paths, *dir, *save = NULL, *candidate = NULL;
	struct stat st;

	if (strchr(arg0, '/')) {
		if (stat(arg0, &st) < 0)
			init_fail(ctx, errno, "exec: \"%s\": stat %s", arg0, arg0);
		/* Go 1.19's LookPath (Debian's runc 1.1.5) calls a directory
		 * "permission denied", as execve does: podman maps it to 126. */
		if (S_ISDIR(st.st_mode))
			init_fail(ctx, EACCES, "exec: \"%s\"", arg0);
		if (faccessat(AT_FDCWD, arg0, X_OK, AT_EACCESS) < 0)
			init_fail(ctx, errno, "exec: \"%s\"", arg0);
		return strdup(arg0);
	}
	path_env = env_get(ctx->process->env, ctx->process->env_len, "PATH");
	if (path_env == NULL)
		path_env = DEFAULT_PATH;
	paths = strdup(path_env);
	for (dir = strtok_r(paths, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		free(candidate);
		if (asprintf(&candidate, "%s/%s", *dir ? dir : ".", arg0) < 0)
			break;
		if (stat(candidate, &st) == 0 && !S_ISDIR(st.st_mode) &&
		    faccessat(AT_FDCWD, candidate, X_OK, AT_EACCESS) == 0) {
			free(paths);
			return candidate;
		}
	}
	free(paths);
	init_fail(ctx, 0, "exec: \"%s\": executable file not found in $PATH", arg0);
}

/* Files of the image that init reads (/etc/passwd) are the image author's:
 * a FIFO must not block init, /dev/zero must not feed it forever. */
#define KC_IMAGE_FILE_MAX (4 << 20)

static FILE *open_image_file(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (f == NULL)
		close(fd);
	return f;
}

/* runc sets HOME from the user's /etc/passwd entry when process.env has none. */
static char **build_env(struct kc_init_ctx *ctx)
{
	const struct oci_process *p = ctx->process;
	char **env = calloc(p->env_len + 2, sizeof(char *));
	size_t i;

	if (env == NULL)
		init_fail(ctx, ENOMEM, "environment");
	for (i = 0; i < p->env_len; i++)
		env[i] = p->env[i];
	if (env_get(p->env, p->env_len, "HOME") == NULL) {
		char line[1024], *home = NULL;
		FILE *f = open_image_file("/etc/passwd");
		size_t read_total = 0;

		while (f && read_total < KC_IMAGE_FILE_MAX && fgets(line, sizeof(line), f)) {
			read_total += strlen(line) + 1;
			char *fields[7], *s = line, *q;
			int n = 0;

			while (n < 7 && (q = strsep(&s, ":")) != NULL)
				fields[n++] = q;
			if (n == 7 && strtoul(fields[2], NULL, 10) == p->user.uid) {
				fields[5][strcspn(fields[5], "\n")] = '\0';
				if (asprintf(&home, "HOME=%s", fields[5]) < 0)
					home = NULL;
				break;
			}
		}
		if (f)
			fclose(f);
		env[i++] = home ? home : (char *)"HOME=/";
	}
	return env;
}

/* A procfs of init's own, never attached anywhere: its pid namespace is
 * the container's (init's), so "self" is init. */
static int private_procfs(void)
{
	cleanup_close int fsfd = kc_fsopen("proc", FSOPEN_CLOEXEC);

	if (fsfd < 0 || kc_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -1;
	return kc_fsmount(fsfd, FSMOUNT_CLOEXEC,
			  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
}

/* The container's /proc is a procfs, and PATH is there. */
static bool procfs_at_proc_has(const char *path)
{
	cleanup_close int proc_dir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);

	return proc_dir >= 0 && kc_fd_on_procfs(proc_dir) &&
	       faccessat(proc_dir, path, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

/* The state directory is a host directory: init must not hold it while it
 * runs in the container (process.cwd = /proc/self/fd/N would reach the
 * host's tree through it, CVE-2024-21626; so would a procfs a process of
 * the container mounts itself, with CAP_SYS_PTRACE).  Init keeps an O_PATH
 * fd of the exec fifo alone, which is no directory, and reopens it through
 * /proc/self/fd when it parks, or, in a container without a procfs at /proc
 * (a config's tmpfs there), through a procfs of its own.  Only where it
 * cannot make one (a user namespace whose /proc is covered: the kernel
 * refuses a procfs less masked than the one it has) does it keep the
 * directory, and there no process of the container has CAP_SYS_PTRACE over
 * init, whose creds are the host's user namespace's. */
static void hold_exec_fifo(struct kc_init_ctx *ctx)
{
	char path[64];
	int fd, proc_fd = -1;

	if (ctx->state_dir_fd < 0)
		return;
	fd = openat(ctx->state_dir_fd, KC_EXEC_FIFO, O_PATH | O_CLOEXEC);
	if (fd < 0)
		init_fail(ctx, errno, "open exec fifo");
	snprintf(path, sizeof(path), "self/fd/%d", fd);
	if (!procfs_at_proc_has(path)) {
		proc_fd = private_procfs();
		if (proc_fd < 0 || faccessat(proc_fd, path, F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
			if (proc_fd >= 0)
				close(proc_fd);
			close(fd);
			return;
		}
	}
	close(ctx->state_dir_fd);
	ctx->state_dir_fd = -1;
	ctx->exec_fifo_fd = fd;
	ctx->fifo_proc_fd = proc_fd;
}

static void wait_exec_fifo(struct kc_init_ctx *ctx)
{
	char path[64];
	int fd;

	/* Blocks until `kcrun start` opens the fifo for reading. */
	if (ctx->exec_fifo_fd >= 0) {
		snprintf(path, sizeof(path), "%sself/fd/%d", ctx->fifo_proc_fd >= 0 ? "" : "/proc/",
			 ctx->exec_fifo_fd);
		fd = openat(ctx->fifo_proc_fd >= 0 ? ctx->fifo_proc_fd : AT_FDCWD, path,
			    O_WRONLY | O_CLOEXEC);
	} else {
		fd = openat(ctx->state_dir_fd, KC_EXEC_FIFO, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "kcrun: init: open exec fifo: %s\n", strerror(errno));
		_exit(1);
	}
	if (write(fd, "0", 1) != 1)
		_exit(1);
	close(fd);
	if (ctx->exec_fifo_fd >= 0)
		close(ctx->exec_fifo_fd);
	if (ctx->fifo_proc_fd >= 0)
		close(ctx->fifo_proc_fd);
	if (ctx->state_dir_fd >= 0)
		close(ctx->state_dir_fd);
}

/* As runc after CVE-2024-21626: a cwd reached through an fd of the host
 * (process.cwd or exec --cwd = /proc/self/fd/N) lies outside the
 * container's root, and getcwd() says so ("(unreachable)", ENOENT). */
static void verify_cwd(struct kc_init_ctx *ctx)
{
	char cwd[PATH_MAX];

	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		if (errno == ENOENT)
			init_fail(ctx, 0, "current working directory is outside of container "
					  "mount namespace root -- possible container breakout "
					  "detected");
		init_fail(ctx, errno, "getcwd");
	}
	if (cwd[0] != '/')
		init_fail(ctx, 0, "current working directory is outside of container mount "
				  "namespace root -- possible container breakout detected");
}

static int compare_fds(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Until execve, init holds what create (or exec) had open, and a process
 * of the container with CAP_SYS_PTRACE reaches it through /proc/1/fd: a
 * directory of the host there (the cgroup directory clone3 started init
 * in, a user namespace, a mount tree) leads out of the container by "..".
 * Everything but stdio, --preserve-fds and what init still uses is closed
 * before init can be seen.  Close-on-exec is not enough: a created
 * container's init waits, before its execve, for as long as start waits. */
static void close_unneeded_fds(struct kc_init_ctx *ctx)
{
	size_t n_hooks = ctx->hooks && ctx->hook_fds ? ctx->hooks->create_container_len : 0;
	size_t n = 0, i;
	unsigned int low = 3 + (unsigned int)ctx->preserve_fds;
	int *keep = malloc((9 + n_hooks) * sizeof(*keep));

	if (keep == NULL)
		init_fail(ctx, ENOMEM, "close the runtime's fds");
	keep[n++] = ctx->go_fd;
	keep[n++] = ctx->report_fd;
	keep[n++] = ctx->state_dir_fd;
	keep[n++] = ctx->exec_fifo_fd;
	keep[n++] = ctx->fifo_proc_fd;
	keep[n++] = ctx->pty_slave_fd;
	keep[n++] = ctx->hook_view_fd;
	keep[n++] = ctx->lsm_proc_fd;
	keep[n++] = ctx->seccomp_notify_fd;
	for (i = 0; i < n_hooks; i++)
		keep[n++] = ctx->hook_fds[i];
	qsort(keep, n, sizeof(*keep), compare_fds);
	for (i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < low)
			continue;
		if ((unsigned int)keep[i] > low &&
		    syscall(SYS_close_range, low, (unsigned int)keep[i] - 1, 0) < 0)
			init_fail(ctx, errno, "close the runtime's fds");
		low = (unsigned int)keep[i] + 1;
	}
	if (syscall(SYS_close_range, low, ~0U, 0) < 0)
		init_fail(ctx, errno, "close the runtime's fds");
	free(keep);
}

_Noreturn void kc_init_main(struct kc_init_ctx *ctx)
{
	const struct oci_process *p = ctx->process;
	struct kc_hook_view_keeper keeper = {.pidfd = -1};
	kc_error_t err = NULL;
	bool chdir_done, seccomp_loaded = false;
	char **env, **argv, *exe, *state_json;
	size_t state_len;

	if (ctx->cfd >= 0)
		close(ctx->cfd);
	/* Until execve, init runs kcrun's image with host fds: no process of the
	 * container may open /proc/<init>/{exe,fd,mem} (CVE-2019-5736).  execve
	 * makes the process dumpable again as usual. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		init_fail(ctx, errno, "prctl PR_SET_DUMPABLE");
	/* A session and process group of its own, as runc's and crun's
	 * processes have: conmon's --timeout kills getpgid(pid) with
	 * kill(-pgid), which was conmon's own group (and conmon) otherwise.
	 * EPERM: already a group leader, which is what we want. */
	if (setsid() < 0 && errno != EPERM)
		init_fail(ctx, errno, "setsid");
	ctx->exec_fifo_fd = -1;
	ctx->fifo_proc_fd = -1;
	hold_exec_fifo(ctx);
	close_unneeded_fds(ctx);
	/* What init still holds goes at execve: only stdio and --preserve-fds
	 * reach the process. */
	syscall(SYS_close_range, 3 + ctx->preserve_fds, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */);

	if (kc_procattrs_initial(p, &err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->hook_view_fd >= 0) {
		if (kc_hook_view_enter(ctx->hook_view_fd, &keeper, &err) < 0)
			init_fail_err(ctx, &err);
		if (write(ctx->report_fd, (char[]){KC_INIT_IN_HOOK_VIEW}, 1) != 1)
			_exit(1);
	}
	/* The parent sends the hook state JSON and closes: that is the go. */
	if (kc_read_fd(ctx->go_fd, 0, &state_json, &state_len) < 0 || state_len == 0)
		_exit(1); /* the parent died before releasing us */
	close(ctx->go_fd);
	if (ctx->hook_view_fd >= 0 && kc_hook_view_leave(&keeper, &err) < 0)
		init_fail_err(ctx, &err);

	if (!ctx->joined) {
		if (ctx->spec->hostname &&
		    sethostname(ctx->spec->hostname, strlen(ctx->spec->hostname)) < 0)
			init_fail(ctx, errno, "sethostname %s", ctx->spec->hostname);
		if (ctx->spec->domainname &&
		    setdomainname(ctx->spec->domainname, strlen(ctx->spec->domainname)) < 0)
			init_fail(ctx, errno, "setdomainname %s", ctx->spec->domainname);
		if (ctx->spec->linux_)
			write_sysctls(ctx);
		if (ctx->deferred_readonly_len &&
		    kc_mounts_readonly_inside(ctx->deferred_readonly, ctx->deferred_readonly_len,
					      &err) < 0)
			init_fail_err(ctx, &err);
	}
	if (ctx->hooks && ctx->hooks->create_container_len) {
		size_t i;

		if (kc_hooks_run_fds(ctx->hooks->create_container, ctx->hook_fds,
				     ctx->hooks->create_container_len, state_json,
				     "createContainer", &err) < 0)
			init_fail_err(ctx, &err);
		for (i = 0; i < ctx->hooks->create_container_len; i++)
			close(ctx->hook_fds[i]);
	}
	if (!ctx->joined && kc_mounts_remount_dev_readonly(ctx->spec, &err) < 0)
		init_fail_err(ctx, &err);
	if (!ctx->joined && ctx->spec->root && ctx->spec->root->readonly &&
	    kc_mounts_remount_root_readonly(&err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->session_keyring) {
		char name[300];

		snprintf(name, sizeof(name), "_ses.%s", ctx->session_keyring);
		/* KEYCTL_JOIN_SESSION_KEYRING; a kernel without keys is fine */
		if (syscall(SYS_keyctl, 1, name) < 0 && errno != ENOSYS && errno != EDQUOT)
			init_fail(ctx, errno, "join session keyring %s", name);
	}
	if (kc_procattrs_rlimits(p, &err) < 0 || kc_lsm_apply(p, ctx->lsm_proc_fd, &err) < 0 ||
	    kc_procattrs_apply(p, ctx->spec ? ctx->spec->linux_ : NULL, &err) < 0)
		init_fail_err(ctx, &err);
	ctx->lsm_proc_fd = -1; /* closed by kc_lsm_apply() */
	if (ctx->pty_slave_fd >= 0 && kc_terminal_setup_slave(ctx->pty_slave_fd, &err) < 0)
		init_fail_err(ctx, &err);

	chdir_done = chdir(p->cwd) == 0;
	if (!chdir_done && errno != EACCES && errno != EPERM)
		init_fail(ctx, errno, "chdir to cwd (\"%s\") set in config.json failed", p->cwd);

	/* Without no_new_privs, a filter can only be loaded while init still has
	 * CAP_SYS_ADMIN (seccomp.h).  One that notifies is loaded here either
	 * way: its listener goes to kcrun now, while kcrun waits for us. */
	if (ctx->seccomp && (!p->no_new_privileges || ctx->seccomp_notify_fd >= 0)) {
		if (kc_seccomp_load(ctx->seccomp, &err) < 0 ||
		    (ctx->seccomp_notify_fd >= 0 &&
		     kc_seccomp_notify_hand_over(ctx->seccomp, ctx->seccomp_notify_fd, &err) < 0))
			init_fail_err(ctx, &err);
		ctx->seccomp_notify_fd = -1;
		seccomp_loaded = true;
	}

	if (kc_creds_drop_bounding(p, &err) < 0 || kc_creds_set_user(p, &err) < 0)
		init_fail_err(ctx, &err);
	if (!chdir_done && chdir(p->cwd) < 0)
		init_fail(ctx, errno, "chdir to cwd (\"%s\") set in config.json failed", p->cwd);
	verify_cwd(ctx);
	if (kc_creds_set_capabilities(p, &err) < 0)
		init_fail_err(ctx, &err);
	if (p->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		init_fail(ctx, errno, "prctl PR_SET_NO_NEW_PRIVS");

	env = build_env(ctx);
	exe = resolve_executable(ctx);
	/* process.args is args_len long, without a NULL at the end */
	argv = calloc(p->args_len + 1, sizeof(char *));
	if (argv == NULL)
		init_fail(ctx, ENOMEM, "args");
	memcpy(argv, p->args, p->args_len * sizeof(char *));

	/* Point of no return: tell the parent we are ready. */
	if (write(ctx->report_fd, (char[]){KC_INIT_READY}, 1) != 1)
		_exit(1);
	close(ctx->report_fd);
	ctx->report_fd = -1;

	if (ctx->state_dir_fd >= 0 || ctx->exec_fifo_fd >= 0)
		wait_exec_fifo(ctx);
	if (kc_procattrs_final(p, &err) < 0)
		init_fail_err(ctx, &err);
	kc_signals_reset();
	/* runc's order: the filter as close to execve as it can be, then the
	 * startContainer hooks, which run under it as the process will. */
	if (ctx->seccomp && !seccomp_loaded && kc_seccomp_load(ctx->seccomp, &err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->hooks && ctx->hooks->start_container_len &&
	    kc_hooks_run(ctx->hooks->start_container, ctx->hooks->start_container_len, state_json,
			 "startContainer", &err) < 0) {
		fprintf(stderr, "kcrun: %s\n", err->msg);
		_exit(1);
	}
	execve(exe, argv, env);
	init_fail(ctx, errno, "exec: \"%s\"", p->args[0]);
}

void kc_init_prefer_report(int report_fd, kc_error_t *err)
{
	struct pollfd report = {.fd = report_fd, .events = POLLIN};
	kc_error_t init_err = NULL;

	if (poll(&report, 1, 0) == 1 &&
	    kc_init_wait_report(report_fd, KC_INIT_READY, &init_err) < 0 && init_err) {
		kc_error_free(err);
		*err = init_err;
		return;
	}
	kc_error_free(&init_err);
}

int kc_init_wait_report(int report_fd, char expected, kc_error_t *err)
{
	char buf[4097];
	size_t len = 0;
	ssize_t n;

	/* init writes nothing after the byte until the parent acts on it */
	while (len < sizeof(buf) - 1) {
		n = read(report_fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (buf[0] == expected)
			return 0;
	}
	buf[len] = '\0';
	if (len > 1 && buf[0] == 'E')
		return kc_error_set(err, 0, "unable to start container process: %s", buf + 1);
	return kc_error_set(err, 0, "unable to start container process: init exited during set-up");
}
