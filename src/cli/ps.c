/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun ps: the container's processes (its cgroup) as ps(1) shows them. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lib/loaded.h"

/* ps(1) with the user's options as its argv, never through a shell:
 * `kcrun ps ID 'x; cmd'` must not run cmd. */
static FILE *spawn_ps(char **ps_args, int ps_args_len, pid_t *child)
{
	static char default_args[] = "-ef";
	char **argv = calloc((size_t)ps_args_len + 3, sizeof(char *));
	posix_spawn_file_actions_t actions;
	int out[2], i, rc;
	FILE *f;

	if (argv == NULL)
		return NULL;
	argv[0] = (char *)"ps";
	for (i = 0; i < ps_args_len; i++)
		argv[i + 1] = ps_args[i];
	if (ps_args_len == 0)
		argv[1] = default_args;
	if (pipe2(out, O_CLOEXEC) < 0) {
		free(argv);
		return NULL;
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
	rc = posix_spawnp(child, "ps", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	free(argv);
	close(out[1]);
	if (rc != 0) {
		close(out[0]);
		errno = rc;
		return NULL;
	}
	f = fdopen(out[0], "r");
	if (f == NULL)
		close(out[0]);
	return f;
}

static void close_ps(FILE *f, pid_t child)
{
	int status;

	fclose(f);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
}

int kc_cmd_ps(struct kc_global *g, int argc, char **argv)
{
	const char *format = "table";
	struct kc_opt opts[] = {
		{"format", 'f', KC_OPT_STRING, &format, "select one of: table or json (default: \"table\")"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_container c;
	kc_error_t err = NULL;
	pid_t *pids = NULL;
	size_t n = 0, i;
	int first, pid_col = -1, line_no = 0;
	char line[8192];
	pid_t ps_pid;
	FILE *ps;

	if (kc_cli_parse("ps", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_container_load(g->root, argv[first], &c, &err) < 0)
		return kc_cli_fail(&err);
	if (kc_pids(&c, &pids, &n, &err) < 0) {
		kc_container_release(&c);
		return kc_cli_fail(&err);
	}
	kc_container_release(&c);
	if (strcmp(format, "json") != 0 && strcmp(format, "table") != 0) {
		free(pids);
		kc_error_set(&err, 0, "invalid format option");
		return kc_cli_fail(&err);
	}
	if (strcmp(format, "json") == 0) {
		printf("[");
		for (i = 0; i < n; i++)
			printf("%s%d", i ? "," : "", (int)pids[i]);
		printf("]\n");
		free(pids);
		return 0;
	}
	ps = spawn_ps(argv + first + 1, argc - first - 1, &ps_pid);
	if (ps == NULL) {
		free(pids);
		kc_error_set(&err, errno, "exec ps");
		return kc_cli_fail(&err);
	}
	while (fgets(line, sizeof(line), ps)) {
		char copy[8192], *tok, *save = NULL;
		int col = 0;
		long pid = -1;

		if (line_no++ == 0) {
			strcpy(copy, line);
			for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), col++)
				if (strcmp(tok, "PID") == 0)
					pid_col = col;
			if (pid_col < 0) {
				/* runc's wording; e.g. `ps -o pid=` has no header */
				close_ps(ps, ps_pid);
				free(pids);
				kc_error_set(&err, 0, "couldn't find PID field in ps output");
				return kc_cli_fail(&err);
			}
			fputs(line, stdout);
			continue;
		}
		strcpy(copy, line);
		for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save), col++)
			if (col == pid_col)
				pid = strtol(tok, NULL, 10);
		for (i = 0; i < n; i++)
			if (pids[i] == pid)
				fputs(line, stdout);
	}
	close_ps(ps, ps_pid);
	free(pids);
	return 0;
}
