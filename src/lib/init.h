/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the container's init does between clone3(CLONE_INTO_CONTAINER) and
 * execve(): everything that has to be done by the process itself, in the
 * container's namespaces and with the container's creds.  The mount tree,
 * devices, network and cgroup are already built from outside. */
#ifndef KCRUN_INIT_H
#define KCRUN_INIT_H

#include <seccomp.h>
#include <stdbool.h>
#include <stddef.h>

#include "oci-spec/spec.h"


struct kc_init_ctx {
	const struct oci_spec *spec;
	const struct oci_process *process;
	int cfd;               /* closed first thing */
	int go_fd;             /* parent writes one byte when set-up is done */
	int report_fd;         /* init writes "R" (ready) or "E<message>" */
	int state_dir_fd;      /* <root>/<id>, for exec.fifo; -1: exec at once */
	int exec_fifo_fd;      /* set by init itself: O_PATH fd of exec.fifo */
	int fifo_proc_fd;      /* set by init itself: the procfs it reopens the
				* fifo through when the container has none at
				* /proc (a detached one of its own); -1: /proc */
	int pty_slave_fd;      /* process.terminal: the slave; -1 otherwise */
	int preserve_fds;      /* fds 3 .. 3+N-1 stay open across exec */
	scmp_filter_ctx seccomp;
	int seccomp_notify_fd; /* seccomp_notify.h: the process's end; -1: none */
	const char *const *deferred_readonly; /* see mounts.h */
	size_t deferred_readonly_len;
	bool joined;           /* kcrun exec: no hostname/sysctl set-up */
	const struct oci_hooks *hooks; /* createContainer, startContainer */
	const int *hook_fds;   /* createContainer executables, opened by the parent */
	int hook_view_fd;      /* >= 0: wait for the go in this view (hook_view.h) */
	int lsm_proc_fd;       /* lsm.h: the procfs of the LSM label's write; -1: none */
	/* create without --no-new-keyring: join a new session keyring
	 * "_ses.<id>" as runc does (NULL: keep the caller's). */
	const char *session_keyring;
};

/* Never returns: execs process.args or _exit()s non-zero after reporting
 * the error on report_fd. */
_Noreturn void kc_init_main(struct kc_init_ctx *ctx);

/* What init reports on report_fd, one byte each, or "E<message>". */
#define KC_INIT_READY        'R' /* the point of no return: exec or the exec fifo */
#define KC_INIT_IN_HOOK_VIEW 'V' /* waiting for the go in the hooks' view */

/* Reads init's report: 0 when it is `expected`, -1 with init's error
 * otherwise (or when it exited without one). */
#include "error.h"
int kc_init_wait_report(int report_fd, char expected, kc_error_t *err);

/* After a failure of the parent's own while init (or an exec'd process)
 * is being set up: the process's error, when it already wrote one (it
 * then exited), replaces *err.  Never waits: the process may be blocked. */
void kc_init_prefer_report(int report_fd, kc_error_t *err);

#endif
