/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun create: see kcrun(8). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cli.h"
#include "lib/container.h"
#include "lib/log.h"
#include "lib/systemd_scope.h"

/* systemd socket activation: $LISTEN_FDS fds after stdio pass through too,
 * only when $LISTEN_PID names this process (sd_listen_fds(3)): variables
 * inherited from an activated parent do not pass its fds on. */
static int listen_fds(void)
{
	const char *fds = getenv("LISTEN_FDS"), *pid = getenv("LISTEN_PID");
	char *end;
	long n, listen_pid;

	if (fds == NULL || pid == NULL)
		return 0;
	errno = 0;
	listen_pid = strtol(pid, &end, 10);
	if (errno || *pid == '\0' || *end != '\0' || listen_pid != (long)getpid())
		return 0;
	n = strtol(fds, &end, 10);
	if (errno || *fds == '\0' || *end != '\0' || n <= 0 || n > 65536)
		return 0;
	return (int)n;
}

int kc_cli_create_opts(const struct kc_global *g, const char *id, bool no_new_keyring,
		       struct kc_create_opts *o)
{
	kc_error_t err = NULL;

	o->id = id;
	o->no_new_keyring = no_new_keyring;
	o->preserve_fds += listen_fds();
	o->no_cgroup = g->cgroup_manager && strcmp(g->cgroup_manager, "disabled") == 0;
	o->systemd_cgroup = !o->no_cgroup &&
			    (g->systemd_cgroup || (g->cgroup_manager &&
						   strcmp(g->cgroup_manager, "systemd") == 0));
	/* the static build has no sd-bus: said before anything is read */
	if (o->systemd_cgroup && kc_systemd_require(&err) < 0)
		return kc_cli_fail(&err);
	return 0;
}

int kc_cmd_create(struct kc_global *g, int argc, char **argv)
{
	struct kc_create_opts o = {.root = g->root};
	bool no_pivot = false, no_new_keyring = false;
	struct kc_opt opts[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle,
		 "path to the root of the bundle directory, defaults to the current directory"},
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the "
		 "master end of the console's pseudoterminal"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "specify the file to write the process id to"},
		{"pidfd-socket", 0, KC_OPT_STRING, &o.pidfd_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the init process"},
		{"no-pivot", 0, KC_OPT_FLAG, &no_pivot,
		 "accepted for compatibility (kcrun never pivots: the root is moved in from outside)"},
		{"no-new-keyring", 0, KC_OPT_FLAG, &no_new_keyring,
		 "do not create a new session keyring for the container"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds,
		 "Pass N additional file descriptors to the container (stdio + N in total) (default: 0)"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_created created;
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse("create", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_cli_create_opts(g, argv[first], no_new_keyring, &o))
		return 1;
	kc_log_debug("create: container %s from bundle %s", o.id, o.bundle ? o.bundle : ".");
	if (kc_create(&o, &created, &err) < 0)
		return kc_cli_fail(&err);
	kc_log_debug("create: container %s created: init %d waits on the exec fifo", o.id,
		     (int)created.pid);
	close(created.cfd);
	return 0;
}
