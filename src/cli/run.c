/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun run: create + start + wait, see kcrun(8). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "lib/container.h"
#include "lib/log.h"
#include "lib/notify_socket.h"

int kc_cmd_run(struct kc_global *g, int argc, char **argv)
{
	struct kc_create_opts o = {.root = g->root, .run = true};
	bool detach = false, keep = false, no_subreaper = false, no_pivot = false,
	     no_new_keyring = false;
	struct kc_opt opts[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle,
		 "path to the root of the bundle directory, defaults to the current directory"},
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the "
		 "master end of the console's pseudoterminal"},
		{"detach", 'd', KC_OPT_FLAG, &detach, "detach from the container's process"},
		{"keep", 0, KC_OPT_FLAG, &keep, "do not delete the container after it exits"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "specify the file to write the process id to"},
		{"pidfd-socket", 0, KC_OPT_STRING, &o.pidfd_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the init process"},
		{"no-subreaper", 0, KC_OPT_FLAG, &no_subreaper,
		 "disable the use of the subreaper used to reap reparented processes"},
		{"no-pivot", 0, KC_OPT_FLAG, &no_pivot, "accepted for compatibility"},
		{"no-new-keyring", 0, KC_OPT_FLAG, &no_new_keyring,
		 "do not create a new session keyring for the container"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds,
		 "Pass N additional file descriptors to the container (stdio + N in total) (default: 0)"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_created created;
	kc_error_t err = NULL;
	int first, code;

	if (kc_cli_parse("run", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_cli_create_opts(g, argv[first], no_new_keyring, &o))
		return 1;
	if (!detach && !no_subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (!detach)
		kc_cli_forward_signals(0);
	kc_log_debug("run: creating container %s from bundle %s", o.id, o.bundle ? o.bundle : ".");
	if (kc_create(&o, &created, &err) < 0)
		return kc_cli_fail(&err);
	kc_log_debug("run: container %s: init %d started the process", o.id, (int)created.pid);
	close(created.cfd);
	/* $NOTIFY_SOCKET: READY passed on once the process says it (also
	 * with --detach, as runc) */
	if (kc_notify_relay(created.notify_fd, created.pid, 0, &err) < 0) {
		kc_log_warn("%s", err->msg);
		kc_error_free(&err);
	}
	if (detach) {
		if (created.pty_master >= 0)
			close(created.pty_master);
		return 0;
	}
	kc_trace("created");
	code = kc_cli_wait_process(created.pid, created.pty_master);
	kc_trace("process exited");
	kc_log_debug("run: container %s: process exited, exit status %d", o.id, code);
	if (!keep && kc_delete(g->root, o.id, true, &err) < 0)
		kc_cli_fail(&err);
	kc_trace("deleted");
	if (!keep)
		kc_log_debug("run: container %s deleted", o.id);
	return code;
}
