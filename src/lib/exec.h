/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun exec: a new process in a running container, joined through
 * setns(2) on /proc/<init>/ns/<type>, set up by the same init code as the
 * container's first process (init.c). */
#ifndef KCRUN_EXEC_H
#define KCRUN_EXEC_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

struct kc_exec_opts {
	const char *root;
	const char *id;
	const char *process_file;   /* --process: a runtime-spec process object */
	const char *pid_file;
	const char *console_socket;
	const char *pidfd_socket;   /* pidfd_socket.h */
	bool detach;
	bool tty;
	char **args;                /* without --process: the command */
	int args_len;
	char **env;                 /* --env additions */
	int env_len;
	const char *cwd;
	const char *user;           /* "uid[:gid]" */
	int preserve_fds;
	char **caps;                /* --cap: added to bounding, effective, permitted, ambient */
	int caps_len;
	char **additional_gids;     /* --additional-gids */
	int additional_gids_len;
	bool no_new_privs;          /* --no-new-privs */
	bool ignore_paused;         /* --ignore-paused: exec into a paused container */
	const char *apparmor;       /* --apparmor: process.apparmorProfile */
	const char *process_label;  /* --process-label: process.selinuxLabel */
	const char *cgroup;         /* --cgroup [CONTROLLER:]PATH: a sub-cgroup to join */
};

/* Starts the process; *pid gets its host pid.  With detach the caller is
 * done; otherwise it waits for *pid (its child). */
int kc_exec(const struct kc_exec_opts *opts, pid_t *pid, int *pty_master, kc_error_t *err);

#endif
