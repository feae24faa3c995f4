#include "init.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hooks.h"
#include "mounts.h"
#include "procattrs.h"
#include "procfs.h"
#include "seccomp.h"
#include "state.h"
#include "terminal.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};
#define N_CAP_NAMES ((int)(sizeof(cap_names) / sizeof(cap_names[0])))

int kc_cap_from_name(const char *name)
{
	int i;

	for (i = 0; i < N_CAP_NAMES; i++)
		if (strcasecmp(name, cap_names[i]) == 0)
			return i;
	return -1;
}

static const struct {
	const char *name;
	int resource;
} rlimit_names[] = {
	{"RLIMIT_CPU", RLIMIT_CPU},       {"RLIMIT_FSIZE", RLIMIT_FSIZE},
	{"RLIMIT_DATA", RLIMIT_DATA},     {"RLIMIT_STACK", RLIMIT_STACK},
	{"RLIMIT_CORE", RLIMIT_CORE},     {"RLIMIT_RSS", RLIMIT_RSS},
	{"RLIMIT_NPROC", RLIMIT_NPROC},   {"RLIMIT_NOFILE", RLIMIT_NOFILE},
	{"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK}, {"RLIMIT_AS", RLIMIT_AS},
	{"RLIMIT_LOCKS", RLIMIT_LOCKS},   {"RLIMIT_SIGPENDING", RLIMIT_SIGPENDING},
	{"RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE}, {"RLIMIT_NICE", RLIMIT_NICE},
	{"RLIMIT_RTPRIO", RLIMIT_RTPRIO}, {"RLIMIT_RTTIME", RLIMIT_RTTIME},
};

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

static void set_rlimits(struct kc_init_ctx *ctx)
{
	const struct oci_process *p = ctx->process;
	size_t i, j;

	for (i = 0; i < p->rlimits_len; i++) {
		struct rlimit rl = {.rlim_cur = p->rlimits[i].soft, .rlim_max = p->rlimits[i].hard};
		int resource = -1;

		for (j = 0; j < sizeof(rlimit_names) / sizeof(rlimit_names[0]); j++)
			if (strcmp(p->rlimits[i].type, rlimit_names[j].name) == 0)
				resource = rlimit_names[j].resource;
		if (resource < 0)
			init_fail(ctx, 0, "process.rlimits[%zu]: unknown rlimit type %s", i,
				  p->rlimits[i].type);
		if (setrlimit(resource, &rl) < 0)
			init_fail(ctx, errno, "setrlimit %s", p->rlimits[i].type);
	}
}

static int last_cap(void)
{
	static int last = -1;
	int cap;

	if (last >= 0)
		return last;
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0)
			break;
	last = cap - 1;
	return last;
}

static uint64_t cap_mask(char **names, size_t len)
{
	uint64_t mask = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		int cap = kc_cap_from_name(names[i]);

		if (cap >= 0 && cap <= last_cap())
			mask |= 1ULL << cap;
	}
	return mask;
}

/* process.capabilities.bounding: dropped while init still has CAP_SETPCAP. */
static void drop_bounding(struct kc_init_ctx *ctx)
{
	const struct oci_capabilities *c = ctx->process->capabilities;
	uint64_t keep = c ? cap_mask(c->bounding, c->bounding_len) : 0;
	int cap;

	for (cap = 0; cap <= last_cap(); cap++) {
		if (keep & (1ULL << cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			init_fail(ctx, errno, "drop capability %d from the bounding set", cap);
	}
}

/* effective, permitted, inheritable, then ambient. */
static void set_capabilities(struct kc_init_ctx *ctx)
{
	const struct oci_capabilities *c = ctx->process->capabilities;
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];
	uint64_t eff = 0, perm = 0, inh = 0, amb = 0;
	int cap;

	if (c) {
		eff = cap_mask(c->effective, c->effective_len);
		perm = cap_mask(c->permitted, c->permitted_len);
		inh = cap_mask(c->inheritable, c->inheritable_len);
		amb = cap_mask(c->ambient, c->ambient_len);
	}
	memset(data, 0, sizeof(data));
	data[0].effective = (uint32_t)eff;
	data[1].effective = (uint32_t)(eff >> 32);
	data[0].permitted = (uint32_t)perm;
	data[1].permitted = (uint32_t)(perm >> 32);
	data[0].inheritable = (uint32_t)inh;
	data[1].inheritable = (uint32_t)(inh >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		init_fail(ctx, errno, "capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		init_fail(ctx, errno, "clear ambient capabilities");
	for (cap = 0; cap <= last_cap(); cap++) {
		if (!(amb & (1ULL << cap)))
			continue;
		/* runc ignores ambient capabilities that are not also
		 * permitted and inheritable */
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0 && errno != EPERM)
			init_fail(ctx, errno, "raise ambient capability %s", cap_names[cap]);
	}
}

static void set_user(struct kc_init_ctx *ctx)
{
	const struct oci_user *u = &ctx->process->user;
	gid_t *groups = NULL;
	size_t i;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		init_fail(ctx, errno, "prctl PR_SET_KEEPCAPS");
	if (u->additional_gids_len) {
		groups = calloc(u->additional_gids_len, sizeof(gid_t));
		if (groups == NULL)
			init_fail(ctx, ENOMEM, "setgroups");
		for (i = 0; i < u->additional_gids_len; i++)
			groups[i] = u->additional_gids[i];
	}
	if (setgroups(u->additional_gids_len, groups) < 0 && !(errno == EPERM && !groups))
		init_fail(ctx, errno, "setgroups");
	free(groups);
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		init_fail(ctx, errno, "setresgid %u", u->gid);
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		init_fail(ctx, errno, "setresuid %u", u->uid);
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		init_fail(ctx, errno, "prctl PR_SET_KEEPCAPS");
	umask(u->has_umask ? (mode_t)u->umask : 0022);
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

/* root.readonly, last of the mount set-up as with runc: the root mount stays
 * writable while the mount points of mounts[] (/var/tmp, /etc/hosts, ...) are
 * created in it.  Only the root mount itself (MS_BIND | MS_REMOUNT is not
 * recursive); the flags it has are kept (in a user namespace they are locked). */
static int remount_root_readonly(kc_error_t *err)
{
	unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY;
	struct statvfs sv;

	if (statvfs("/", &sv) == 0)
		flags |= (sv.f_flag & ST_NOSUID ? MS_NOSUID : 0) |
			 (sv.f_flag & ST_NODEV ? MS_NODEV : 0) |
			 (sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0) |
			 (sv.f_flag & ST_NOATIME ? MS_NOATIME : 0) |
			 (sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0) |
			 (sv.f_flag & ST_RELATIME ? MS_RELATIME : 0);
	if (mount(NULL, "/", NULL, flags, NULL) < 0)
		return kc_error_set(err, errno, "root.readonly: remount / read-only");
	return 0;
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

static char *read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	while (buf) {
		if (len + 1 >= cap) {
			char *p = realloc(buf, cap * 2);

			if (p == NULL)
				break;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			if (len == 0)
				break; /* the parent died before releasing us */
			buf[len] = '\0';
			return buf;
		}
		len += (size_t)n;
	}
	free(buf);
	return NULL;
}

/* The state directory is a host directory: init must not hold it while it
 * runs in the container (process.cwd = /proc/self/fd/N would reach the
 * host's tree through it, CVE-2024-21626).  Init keeps an O_PATH fd of the
 * exec fifo alone, which is no directory, and reopens it through
 * /proc/self/fd when it parks.  A container without /proc keeps the
 * directory fd (it has no /proc/self/fd to abuse it with). */
static void hold_exec_fifo(struct kc_init_ctx *ctx)
{
	char path[64];
	int fd;

	if (ctx->state_dir_fd < 0)
		return;
	fd = openat(ctx->state_dir_fd, KC_EXEC_FIFO, O_PATH | O_CLOEXEC);
	if (fd < 0)
		init_fail(ctx, errno, "open exec fifo");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
		close(fd);
		return;
	}
	close(ctx->state_dir_fd);
	ctx->state_dir_fd = -1;
	ctx->exec_fifo_fd = fd;
}

static void wait_exec_fifo(struct kc_init_ctx *ctx)
{
	char path[64];
	int fd;

	/* Blocks until `kcrun start` opens the fifo for reading. */
	if (ctx->exec_fifo_fd >= 0) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", ctx->exec_fifo_fd);
		fd = open(path, O_WRONLY | O_CLOEXEC);
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

_Noreturn void kc_init_main(struct kc_init_ctx *ctx)
{
	const struct oci_process *p = ctx->process;
	kc_error_t err = NULL;
	bool chdir_done;
	char **env, **argv, *exe, *state_json;

	if (ctx->cfd >= 0)
		close(ctx->cfd);
	/* Until execve, init runs kcrun's image with host fds: no process of the
	 * container may open /proc/<init>/{exe,fd,mem} (CVE-2019-5736).  execve
	 * makes the process dumpable again as usual. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		init_fail(ctx, errno, "prctl PR_SET_DUMPABLE");
	ctx->exec_fifo_fd = -1;
	hold_exec_fifo(ctx);
	/* Nothing the caller left open beyond stdio + --preserve-fds reaches the process. */
	syscall(SYS_close_range, 3 + ctx->preserve_fds, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */);

	if (kc_procattrs_initial(p, &err) < 0)
		init_fail_err(ctx, &err);
	/* The parent sends the hook state JSON and closes: that is the go. */
	state_json = read_all(ctx->go_fd);
	if (state_json == NULL)
		_exit(1);
	close(ctx->go_fd);

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

		for (i = 0; i < ctx->hooks->create_container_len; i++)
			fcntl(ctx->hook_fds[i], F_SETFD, 0);
		if (kc_hooks_run_fds(ctx->hooks->create_container, ctx->hook_fds,
				     ctx->hooks->create_container_len, state_json,
				     "createContainer", &err) < 0)
			init_fail_err(ctx, &err);
		for (i = 0; i < ctx->hooks->create_container_len; i++)
			close(ctx->hook_fds[i]);
	}
	if (!ctx->joined && ctx->spec->root && ctx->spec->root->readonly &&
	    remount_root_readonly(&err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->session_keyring) {
		char name[300];

		snprintf(name, sizeof(name), "_ses.%s", ctx->session_keyring);
		/* KEYCTL_JOIN_SESSION_KEYRING; a kernel without keys is fine */
		if (syscall(SYS_keyctl, 1, name) < 0 && errno != ENOSYS && errno != EDQUOT)
			init_fail(ctx, errno, "join session keyring %s", name);
	}
	set_rlimits(ctx);
	if (kc_procattrs_apply(p, ctx->spec ? ctx->spec->linux_ : NULL, &err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->pty_slave_fd >= 0 && kc_terminal_setup_slave(ctx->pty_slave_fd, &err) < 0)
		init_fail_err(ctx, &err);

	chdir_done = chdir(p->cwd) == 0;
	if (!chdir_done && errno != EACCES && errno != EPERM)
		init_fail(ctx, errno, "chdir to cwd (\"%s\") set in config.json failed", p->cwd);

	/* Without no_new_privs, a filter can only be loaded while init still has
	 * CAP_SYS_ADMIN (seccomp.h). */
	if (ctx->seccomp && !p->no_new_privileges && kc_seccomp_load(ctx->seccomp, &err) < 0)
		init_fail_err(ctx, &err);

	drop_bounding(ctx);
	set_user(ctx);
	if (!chdir_done && chdir(p->cwd) < 0)
		init_fail(ctx, errno, "chdir to cwd (\"%s\") set in config.json failed", p->cwd);
	verify_cwd(ctx);
	set_capabilities(ctx);
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
	if (write(ctx->report_fd, "R", 1) != 1)
		_exit(1);
	close(ctx->report_fd);
	ctx->report_fd = -1;

	if (ctx->state_dir_fd >= 0 || ctx->exec_fifo_fd >= 0)
		wait_exec_fifo(ctx);
	if (ctx->hooks && ctx->hooks->start_container_len &&
	    kc_hooks_run(ctx->hooks->start_container, ctx->hooks->start_container_len, state_json,
			 "startContainer", &err) < 0) {
		fprintf(stderr, "kcrun: %s\n", err->msg);
		_exit(1);
	}

	if (kc_procattrs_final(p, &err) < 0)
		init_fail_err(ctx, &err);
	if (ctx->seccomp && p->no_new_privileges && kc_seccomp_load(ctx->seccomp, &err) < 0)
		init_fail_err(ctx, &err);
	execve(exe, argv, env);
	init_fail(ctx, errno, "exec: \"%s\"", p->args[0]);
}

int kc_init_wait_ready(int report_fd, kc_error_t *err)
{
	char buf[4097];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(buf) - 1) {
		n = read(report_fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (buf[0] == 'R')
			return 0;
	}
	buf[len] = '\0';
	if (len > 0 && buf[0] == 'R')
		return 0;
	if (len > 1 && buf[0] == 'E')
		return kc_error_set(err, 0, "unable to start container process: %s", buf + 1);
	return kc_error_set(err, 0, "unable to start container process: init exited during set-up");
}
