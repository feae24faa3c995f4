/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "exec.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup.h"
#include "init.h"
#include "kcontainer.h"
#include "loaded.h"
#include "buf.h"
#include "fileio.h"
#include "log.h"
#include "lsm.h"
#include "pidfd_socket.h"
#include "pidfile.h"
#include "rootless.h"
#include "seccomp.h"
#include "seccomp_notify.h"
#include "state.h"
#include "terminal.h"
#include "oci-spec/spec.h"

/* --process FILE: a process object, checked by oci-spec's parser. */
static int parse_process_file(const char *path, struct oci_process **out, kc_error_t *err)
{
	cleanup_free char *json = NULL;
	char *msg = NULL;
	size_t len;
	int ret = kc_read_file(path, 0, &json, &len);

	if (ret < 0)
		return kc_error_set(err, -ret, "open %s", path);
	if (oci_process_parse_string(json, len, out, &msg) < 0) {
		kc_error_set(err, 0, "--process %s: %s", path, msg ? msg : "invalid");
		free(msg);
		return -1;
	}
	if ((*out)->args_len == 0)
		return kc_error_set(err, 0, "--process %s: args must not be empty", path);
	return 0;
}

static int append_name(char ***v, size_t *len, const char *name)
{
	char **more = realloc(*v, (*len + 2) * sizeof(char *));

	if (more == NULL)
		return -1;
	*v = more;
	if ((more[*len] = strdup(name)) == NULL)
		return -1;
	more[++*len] = NULL;
	return 0;
}

/* --cap NAME: added to the bounding, effective, permitted and ambient sets
 * (ambient only takes hold when inheritable too), as runc does; unknown
 * names are ignored with runc's warning. */
static int add_caps(const struct kc_exec_opts *o, struct oci_process *p, kc_error_t *err)
{
	struct kc_buf unknown = {0};
	struct oci_capabilities *c;
	int i;

	if (o->caps_len == 0)
		return 0;
	if (p->capabilities == NULL && (p->capabilities = calloc(1, sizeof(*c))) == NULL)
		return kc_error_set(err, ENOMEM, "--cap");
	c = p->capabilities;
	for (i = 0; i < o->caps_len; i++) {
		if (oci_capability_from_name(o->caps[i]) < 0) {
			kc_buf_printf(&unknown, "%s%s", unknown.len ? " " : "", o->caps[i]);
			continue;
		}
		if (append_name(&c->bounding, &c->bounding_len, o->caps[i]) < 0 ||
		    append_name(&c->effective, &c->effective_len, o->caps[i]) < 0 ||
		    append_name(&c->permitted, &c->permitted_len, o->caps[i]) < 0 ||
		    append_name(&c->ambient, &c->ambient_len, o->caps[i]) < 0) {
			free(unknown.data);
			return kc_error_set(err, ENOMEM, "--cap");
		}
	}
	if (unknown.len)
		kc_log_warn("ignoring unknown or unavailable capabilities: [%s]", unknown.data);
	free(unknown.data);
	return 0;
}

/* --additional-gids N (repeatable): appended to process.user.additionalGids. */
static int add_gids(const struct kc_exec_opts *o, struct oci_user *u, kc_error_t *err)
{
	uint32_t *gids;
	int i;

	if (o->additional_gids_len == 0)
		return 0;
	gids = realloc(u->additional_gids,
		       (u->additional_gids_len + (size_t)o->additional_gids_len) * sizeof(*gids));
	if (gids == NULL)
		return kc_error_set(err, ENOMEM, "--additional-gids");
	u->additional_gids = gids;
	for (i = 0; i < o->additional_gids_len; i++) {
		const char *s = o->additional_gids[i];
		char *end;
		unsigned long long gid;

		errno = 0;
		gid = strtoull(s, &end, 10);
		if (*s == '\0' || *s == '-' || *end != '\0' || errno || gid > UINT32_MAX)
			return kc_error_set(err, 0, "invalid value \"%s\" for flag -additional-gids", s);
		gids[u->additional_gids_len++] = (uint32_t)gid;
	}
	return 0;
}

/* Command-line args/env/cwd/user on top of the container's process. */
static int apply_cli(const struct kc_exec_opts *o, struct oci_process *p, kc_error_t *err)
{
	int i;

	if (o->args_len) {
		char **args = calloc((size_t)o->args_len + 1, sizeof(char *));

		if (args == NULL)
			return kc_error_set(err, ENOMEM, "args");
		for (i = 0; i < o->args_len; i++)
			args[i] = strdup(o->args[i]);
		oci_strv_free(p->args, p->args_len);
		p->args = args;
		p->args_len = (size_t)o->args_len;
	}
	if (o->env_len) {
		char **env = realloc(p->env, (p->env_len + (size_t)o->env_len + 1) * sizeof(char *));

		if (env == NULL)
			return kc_error_set(err, ENOMEM, "env");
		for (i = 0; i < o->env_len; i++)
			env[p->env_len++] = strdup(o->env[i]);
		p->env = env;
	}
	if (o->cwd) {
		free(p->cwd);
		p->cwd = strdup(o->cwd);
	}
	if (o->user && *o->user) {
		char *end;

		p->user.uid = (uint32_t)strtoul(o->user, &end, 10);
		if (*end == ':')
			p->user.gid = (uint32_t)strtoul(end + 1, &end, 10);
		if (*end != '\0' || !isdigit((unsigned char)o->user[0]))
			return kc_error_set(err, 0, "parsing %s as int for uid failed: expected uid[:gid]",
					    o->user);
	}
	if (o->tty)
		p->terminal = true;
	if (o->no_new_privs)
		p->no_new_privileges = true;
	if (o->apparmor) {
		free(p->apparmor_profile);
		p->apparmor_profile = strdup(o->apparmor);
	}
	if (o->process_label) {
		free(p->selinux_label);
		p->selinux_label = strdup(o->process_label);
	}
	if (add_gids(o, &p->user, err) < 0 || add_caps(o, p, err) < 0)
		return -1;
	return 0;
}

/* runc on cgroup v2: a cgroup that has enabled controllers for its
 * children takes no process (EBUSY), as when init moved itself to a
 * sub-cgroup and enabled them.  The process then joins init's own cgroup
 * (from /proc/INIT/cgroup). */
static int enter_init_cgroup(pid_t init, pid_t pid, kc_error_t *err)
{
	cleanup_free char *dir = NULL;

	if (kc_cgroup_of(init, &dir, err) < 0)
		return -1;
	kc_log_debug("exec: joining the container's cgroup failed (EBUSY), joining init's %s",
		     dir);
	return kc_cgroup_enter(dir, pid, err);
}

/* --cgroup SUB as runc 1.1 reads it on cgroup v2: a path relative to the
 * container's cgroup (a leading / too) that must stay inside it once
 * cleaned ("../x": not a sub cgroup path); CONTROLLER:PATH names a
 * controller, and cgroup v2 has no hierarchy of one ("unknown controller");
 * more than one colon is an invalid argument. */
static int sub_cgroup_path(const char *dir, const char *sub, char *path, size_t size,
			   kc_error_t *err)
{
	const char *colon = strchr(sub, ':');
	size_t len;
	char *copy, *part, *save = NULL;
	int ret = 0;

	if (colon && strchr(colon + 1, ':'))
		return kc_error_set(err, 0, "invalid --cgroup argument: %s", sub);
	if (colon)
		return kc_error_set(err, 0, "unknown controller %.*s in SubCgroupPaths",
				    (int)(colon - sub), sub);
	copy = strdup(sub);
	if (copy == NULL)
		return kc_error_set(err, ENOMEM, "--cgroup");
	snprintf(path, size, "%s", dir);
	len = strlen(dir);
	for (part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (strcmp(part, ".") == 0)
			continue;
		if (strcmp(part, "..") == 0) {
			char *slash = strrchr(path, '/');

			if (strlen(path) <= len || slash == NULL) {
				ret = kc_error_set(err, 0, "%s is not a sub cgroup path", sub);
				break;
			}
			*slash = '\0';
			continue;
		}
		if (strlen(path) + 1 + strlen(part) >= size) {
			ret = kc_error_set(err, ENAMETOOLONG, "--cgroup %s", sub);
			break;
		}
		strcat(path, "/");
		strcat(path, part);
	}
	free(copy);
	return ret;
}

/* The container's cgroup (or init's own, see above), or with --cgroup SUB
 * its sub-cgroup SUB, which must exist. */
static int enter_cgroup(const char *dir, const char *sub, pid_t init, pid_t pid,
			kc_error_t *err)
{
	char path[4096];

	if (sub == NULL || *sub == '\0') {
		if (kc_cgroup_enter(dir, pid, err) == 0)
			return 0;
		if ((*err)->errnum != EBUSY)
			return -1;
		kc_error_free(err);
		return enter_init_cgroup(init, pid, err);
	}
	if (sub_cgroup_path(dir, sub, path, sizeof(path), err) < 0)
		return -1;
	if (kc_cgroup_enter(path, pid, err) < 0)
		return kc_error_wrap(err, "error adding pid %d to cgroups", (int)pid);
	return 0;
}

/* The config create validated and recorded (<root>/<id>/config.json): the
 * bundle's config.json may have been edited since (runtime review 2, 4.6:
 * a filter dropped from every later exec).  A container made by a kcrun
 * that recorded nothing falls back to the bundle's. */
static int read_create_config(const char *root, const struct kc_state *st,
			      struct oci_spec **spec, kc_error_t *err)
{
	cleanup_free char *msg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s/%s", root, st->id, KC_CONFIG_FILE);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		snprintf(path, sizeof(path), "%s", st->config_path);
	if (oci_spec_parse_file(path, spec, &msg) < 0)
		return kc_error_set(err, 0, "%s", msg ? msg : path);
	return 0;
}

int kc_exec(const struct kc_exec_opts *o, pid_t *pid_out, int *pty_master, kc_error_t *err)
{
	struct oci_spec *spec = NULL;
	struct oci_process *pprocess = NULL;
	struct oci_process *p;
	struct kc_state st;
	enum oci_status status;
	scmp_filter_ctx seccomp = NULL;
	int go[2] = {-1, -1}, report[2] = {-1, -1};
	int master = -1, slave = -1, lsm_proc_fd = -1, ret = -1, wstatus;
	int seccomp_ends[2] = {-1, -1};
	cleanup_close int cfd = -1;
	pid_t child = -1;
	char *msg = NULL;

	*pty_master = -1;
	if (kc_state_read(o->root, o->id, &st, err) < 0)
		return -1;
	status = kc_container_status(o->root, &st);
	if (status == OCI_STATUS_STOPPED) {
		kc_error_set(err, 0, "cannot exec in a stopped container");
		goto out;
	}
	if (status == OCI_STATUS_PAUSED && !o->ignore_paused) {
		kc_error_set(err, 0, "cannot exec in a paused container");
		goto out;
	}
	if (read_create_config(o->root, &st, &spec, err) < 0)
		goto out;
	if (o->process_file) {
		if (parse_process_file(o->process_file, &pprocess, err) < 0)
			goto out;
		p = pprocess;
		if (o->tty)
			p->terminal = true;
	} else {
		if (spec->process == NULL) {
			kc_error_set(err, 0, "config.json has no process");
			goto out;
		}
		p = spec->process;
		p->terminal = false;
		if (apply_cli(o, p, err) < 0)
			goto out;
	}
	if (p->terminal && o->console_socket == NULL && o->detach) {
		kc_error_set(err, 0, "cannot allocate tty if kcrun will detach without "
				     "setting console socket");
		goto out;
	}
	if (spec->linux_ && spec->linux_->seccomp &&
	    (kc_seccomp_build(spec->linux_->seccomp, &seccomp, err) < 0 ||
	     (kc_seccomp_notifies(spec->linux_->seccomp) &&
	      kc_seccomp_notify_open(seccomp_ends, err) < 0)))
		goto out;
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(report, O_CLOEXEC) < 0) {
		kc_error_set(err, errno, "pipe");
		goto out;
	}
	if (kc_rootless_join(st.pid, err) < 0)
		goto out;
	cfd = kc_container_open_by_name(o->id, err);
	if (cfd < 0)
		goto out;
	/* The pty of exec -t, resolved in the container's root through the
	 * container fd: not through /proc/<init pid>/root, which names another
	 * process's root once init's pid is reused (runtime review 2, 4.8). */
	if (p->terminal &&
	    kc_terminal_setup(cfd, p, o->console_socket, &master, &slave, err) < 0)
		goto out;
	/* the label is written through kcrun's procfs, not the container's
	 * /proc, which its processes can rearrange (runtime review 2, 4.5) */
	if (kc_lsm_prepare(p, cfd, &lsm_proc_fd, err) < 0)
		goto out;

	/* A member of the container (docs/kernel-api.md): init's namespaces,
	 * the container's creds and root; container_kill() and init's death
	 * reach it, and it gets the keys granted to the container. */
	child = kc_fork_member(cfd, NULL);
	if (child < 0) {
		if (errno == ESRCH)
			kc_error_set(err, 0, "cannot exec in a stopped container");
		else
			kc_error_set(err, errno, "fork into container %s", o->id);
		goto out;
	}
	if (child == 0) {
		struct kc_init_ctx ic = {
			.spec = spec,
			.process = p,
			.cfd = -1,
			.go_fd = go[0],
			.report_fd = report[1],
			.state_dir_fd = -1,
			.pty_slave_fd = slave,
			.preserve_fds = o->preserve_fds,
			.seccomp = seccomp,
			.hook_view_fd = -1,
			.lsm_proc_fd = lsm_proc_fd,
			.seccomp_notify_fd = seccomp_ends[1],
			.joined = true,
			/* as runc's exec: the container's session keyring, not kcrun's
			 * (nor, with none, root's user-session keyring) */
			.session_keyring = o->id,
		};

		close(cfd);
		close(go[1]);
		close(report[0]);
		if (master >= 0)
			close(master);
		kc_init_main(&ic);
	}
	close(go[0]);
	go[0] = -1;
	close(report[1]);
	report[1] = -1;
	if (slave >= 0) {
		close(slave);
		slave = -1;
	}
	if (lsm_proc_fd >= 0) {
		close(lsm_proc_fd);
		lsm_proc_fd = -1;
	}
	if (seccomp_ends[1] >= 0) {
		close(seccomp_ends[1]);
		seccomp_ends[1] = -1;
	}
	kc_trace("exec: joined");
	if (st.cgroup_path && *st.cgroup_path && enter_cgroup(st.cgroup_path, o->cgroup, st.pid, child, err) < 0)
		goto kill_child;
	if (write(go[1], "{}", 2) != 2) {
		kc_error_set(err, errno, "release the process");
		goto kill_child;
	}
	close(go[1]);
	go[1] = -1;
	if (seccomp_ends[0] >= 0) {
		struct oci_state running = {
			.oci_version = (char *)OCI_SPEC_VERSION,
			.id = st.id,
			.status = OCI_STATUS_RUNNING,
			.pid = st.pid,
			.bundle = st.bundle,
			.annotations = st.annotations,
		};

		/* the exec'd process's listener, with the container's state */
		if (kc_seccomp_notify_forward(seccomp_ends[0], spec->linux_->seccomp, &running, child,
					      report[0], err) < 0)
			goto kill_child;
	}
	if (kc_init_wait_report(report[0], KC_INIT_READY, err) < 0)
		goto kill_child;
	kc_trace("exec: ready");
	if ((o->pid_file && kc_pid_file_write(o->pid_file, child, err) < 0) ||
	    (o->pidfd_socket && kc_pidfd_socket_send(o->pidfd_socket, child, err) < 0))
		goto kill_child;
	*pid_out = child;
	*pty_master = master;
	master = -1;
	ret = 0;
	goto out;

kill_child:
	kill(child, SIGKILL);
	while (waitpid(child, &wstatus, 0) < 0 && errno == EINTR)
		;
out:
	free(msg);
	if (master >= 0)
		close(master);
	if (slave >= 0)
		close(slave);
	if (lsm_proc_fd >= 0)
		close(lsm_proc_fd);
	for (int i = 0; i < 2; i++) {
		if (seccomp_ends[i] >= 0)
			close(seccomp_ends[i]);
		if (go[i] >= 0)
			close(go[i]);
		if (report[i] >= 0)
			close(report[i]);
	}
	kc_seccomp_release(seccomp);
	oci_process_free(pprocess);
	oci_spec_free(spec);
	kc_state_free(&st);
	return ret;
}
