/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun exec: see kcrun(8). */
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lib/exec.h"
#include "lib/log.h"

/* runc: "exec failed: ..." and exit status 255, so that a failure of the
 * runtime is told apart from the exit status of the process. */
static int exec_failed(kc_error_t *err)
{
	kc_error_wrap(err, "exec failed");
	kc_cli_fail(err);
	return 255;
}

int kc_cmd_exec(struct kc_global *g, int argc, char **argv)
{
	struct kc_exec_opts o = {.root = g->root};
	struct kc_strlist env = {0}, caps = {0}, gids = {0};
	struct kc_opt opts[] = {
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the "
		 "master end of the console's pseudoterminal"},
		{"cwd", 0, KC_OPT_STRING, &o.cwd, "current working directory in the container"},
		{"env", 'e', KC_OPT_LIST, &env, "set environment variables"},
		{"tty", 't', KC_OPT_FLAG, &o.tty, "allocate a pseudo-TTY"},
		{"user", 'u', KC_OPT_STRING, &o.user, "UID (format: <uid>[:<gid>])"},
		{"process", 'p', KC_OPT_STRING, &o.process_file, "path to the process.json"},
		{"detach", 'd', KC_OPT_FLAG, &o.detach, "detach from the container's process"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "specify the file to write the process id to"},
		{"pidfd-socket", 0, KC_OPT_STRING, &o.pidfd_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the exec process"},
		{"additional-gids", 'g', KC_OPT_LIST, &gids,
		 "additional gids to add to the process (may be repeated)"},
		{"process-label", 0, KC_OPT_STRING, &o.process_label, "set the asm process label for the process commonly used with selinux"},
		{"apparmor", 0, KC_OPT_STRING, &o.apparmor, "set the apparmor profile for the process"},
		{"no-new-privs", 0, KC_OPT_FLAG, &o.no_new_privs, "set the no new privileges value for the process"},
		{"cap", 'c', KC_OPT_LIST, &caps, "add a capability to the bounding set for the process"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds,
		 "Pass N additional file descriptors to the container (stdio + N in total) (default: 0)"},
		{"cgroup", 0, KC_OPT_STRING, &o.cgroup,
		 "run the process in an (existing) sub-cgroup(s). Format is [<controller>:]<cgroup>."},
		{"ignore-paused", 0, KC_OPT_FLAG, &o.ignore_paused,
		 "allow exec in a paused container"},
		{NULL, 0, 0, NULL, NULL},
	};
	kc_error_t err = NULL;
	int first, pty_master, code;
	pid_t pid;

	if (kc_cli_parse("exec", opts, argc, argv, &first) < 0)
		return 1;
	o.id = argv[first];
	o.args = argv + first + 1;
	o.args_len = argc - first - 1;
	o.env = env.v;
	o.env_len = env.n;
	o.caps = caps.v;
	o.caps_len = caps.n;
	o.additional_gids = gids.v;
	o.additional_gids_len = gids.n;
	if (o.process_file == NULL && o.args_len == 0) {
		kc_error_set(&err, 0, "process args cannot be empty");
		return exec_failed(&err);
	}
	if (!o.detach)
		kc_cli_forward_signals(0);
	if (kc_exec(&o, &pid, &pty_master, &err) < 0)
		return exec_failed(&err);
	/* runc's words, which users grep --debug output for: "child process
	 * in init()" when the process starts, "process exited" at its end */
	kc_log_debug("exec: container %s: child process in init(): process %d started", o.id,
		     (int)pid);
	if (o.detach) {
		if (pty_master >= 0)
			close(pty_master);
		return 0;
	}
	code = kc_cli_wait_process(pid, pty_master);
	kc_log_debug("process exited: pid=%d status=%d", (int)pid, code);
	return code;
}
