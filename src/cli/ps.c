/* kcrun ps: the container's processes (its cgroup) as ps(1) shows them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lib/cgroup.h"
#include "lib/state.h"

int kc_cmd_ps(struct kc_global *g, int argc, char **argv)
{
	const char *format = "table";
	struct kc_opt opts[] = {
		{"format", 'f', KC_OPT_STRING, &format, "select one of: table or json (default: \"table\")"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_state st;
	kc_error_t err = NULL;
	pid_t *pids = NULL;
	size_t n = 0, i;
	int first, pid_col = -1, line_no = 0;
	char cmd[4096] = "ps", line[8192];
	FILE *ps;

	if (kc_cli_parse("ps", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	if (st.cgroup_path && *st.cgroup_path && kc_state_status(g->root, &st) != OCI_STATUS_STOPPED &&
	    kc_cgroup_pids(st.cgroup_path, &pids, &n, &err) < 0) {
		kc_state_free(&st);
		return kc_cli_fail(&err);
	}
	kc_state_free(&st);
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
	if (first + 1 >= argc)
		strcat(cmd, " -ef");
	for (i = (size_t)first + 1; i < (size_t)argc; i++) {
		strncat(cmd, " ", sizeof(cmd) - strlen(cmd) - 1);
		strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 1);
	}
	ps = popen(cmd, "r");
	if (ps == NULL) {
		free(pids);
		kc_error_set(&err, errno, "%s", cmd);
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
				pclose(ps);
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
	pclose(ps);
	free(pids);
	return 0;
}
