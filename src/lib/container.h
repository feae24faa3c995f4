/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's lifecycle: config.json -> ordered steps -> a kernel
 * container object with a parked init (create), released (start),
 * signalled (kill), torn down (delete).  The CLI only parses arguments and
 * calls these. */
#ifndef KCRUN_CONTAINER_H
#define KCRUN_CONTAINER_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

struct kc_create_opts {
	const char *root;
	const char *id;
	const char *bundle;         /* NULL: current directory */
	const char *pid_file;
	const char *console_socket;
	const char *pidfd_socket;   /* pidfd_socket.h */
	int preserve_fds;
	bool no_new_keyring;
	/* `run`: no exec fifo, init execs as soon as it is set up. */
	bool run;
	/* --cgroup-manager disabled: no cgroup at all. */
	bool no_cgroup;
	/* --systemd-cgroup / --cgroup-manager systemd: linux.cgroupsPath is
	 * "slice:prefix:name", the cgroup a transient scope's (systemd_unit.h) */
	bool systemd_cgroup;
};

struct kc_created {
	pid_t pid;        /* host pid of init */
	int cfd;          /* container fd (caller closes) */
	int pty_master;   /* process.terminal without --console-socket (run), else -1 */
	int notify_fd;    /* run with $NOTIFY_SOCKET: kc_notify_relay() it, else -1 */
};

int kc_create(const struct kc_create_opts *opts, struct kc_created *out, kc_error_t *err);
/* Releases init of a created container (exec fifo), runs poststart hooks. */
int kc_start(const char *root, const char *id, kc_error_t *err);
/* sig KC_KILL_BAD_SIGNAL: a number kill(2) refuses; a live container then
 * gives runc's "unable to signal init: invalid argument".  With all, a
 * stopped container is no error (its remaining cgroup members, if any, are
 * signalled), as with runc. */
#define KC_KILL_BAD_SIGNAL (-1)
int kc_kill(const char *root, const char *id, int sig, bool all, kc_error_t *err);
/* force: kill a running container first; an unknown id is then no error. */
int kc_delete(const char *root, const char *id, bool force, kc_error_t *err);
/* Tear-down once init is known dead (used by delete and by run). */
int kc_destroy(const char *root, const char *id, kc_error_t *err);

/* "this kernel has no container objects ..." when /proc/containers is missing. */
int kc_require_kernel(kc_error_t *err);

#endif
