/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of `kcrun list` (src/cli/list.c) over a temporary --root:
 * which directories are containers, what status each has (the recorded
 * pid is checked against its start time), and the three output forms. */
#include "tap.h"
#include "src/cli/cli.h"
#include "src/lib/log.h"
#include "src/lib/state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[] = "/tmp/kcrun-list-XXXXXX";

/* main.c's, which is not linked here. */
int kc_cli_fail(kc_error_t *err)
{
	kc_log_error(*err ? (*err)->msg : "unknown error");
	kc_error_free(err);
	return 1;
}

static void add_container(const char *id, pid_t pid, unsigned long long start_time,
			  bool with_fifo)
{
	struct kc_state st = {0};
	kc_error_t err = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, id);
	mkdir(path, 0700);
	st.id = (char *)id;
	st.pid = pid;
	st.start_time = start_time;
	st.bundle = "/bundles/b";
	st.rootfs = "/bundles/b/rootfs";
	st.created.tv_sec = 1700000000;
	st.owner = "root";
	st.cgroup_path = "";
	if (kc_state_write(root, &st, &err) < 0) {
		printf("# %s\n", err->msg);
		kc_error_free(&err);
	}
	if (with_fifo) {
		snprintf(path, sizeof(path), "%s/%s/%s", root, id, KC_EXEC_FIFO);
		close(open(path, O_CREAT | O_WRONLY, 0600));
	}
}

static int list(const char *root_dir, const char **out, const char **err, ...)
{
	struct kc_global g = {.root = root_dir};
	char *argv[8] = {"list"};
	const char *word;
	va_list ap;
	int argc = 1, rc;

	va_start(ap, err);
	while ((word = va_arg(ap, const char *)) != NULL && argc < 7)
		argv[argc++] = (char *)word;
	va_end(ap);
	capture_begin();
	rc = kc_cmd_list(&g, argc, argv);
	capture_end(out, err);
	return rc;
}

void test_list(void)
{
	unsigned long long me = kc_proc_start_time(getpid(), NULL);
	const char *out, *err;
	char path[512], line[256], cmd[600];
	pid_t dead;
	int rc;

	if (mkdtemp(root) == NULL) {
		TAP_OK(0, "list: mkdtemp: %s", strerror(errno));
		return;
	}
	rc = list("/nonexistent/kcrun-root", &out, &err, NULL);
	TAP_OK(rc == 0 && strncmp(out, "ID ", 3) == 0 && strchr(out, '\n') == out + strlen(out) - 1,
	       "list: a missing root lists nothing (the header alone)");
	rc = list(root, &out, &err, "--format", "json", NULL);
	TAP_OK(rc == 0 && strcmp(out, "null\n") == 0, "list: no containers in JSON is null, as runc prints");

	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	add_container("c-running", getpid(), me, false);
	add_container("b-created", getpid(), me, true);
	add_container("a-reused", getpid(), me + 1, false); /* pid reused by another process */
	add_container("d-dead", dead, me, false);
	snprintf(path, sizeof(path), "%s/e-half", root); /* create in progress */
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/.hidden", root);
	mkdir(path, 0700);

	rc = list(root, &out, &err, "-q", NULL);
	TAP_OK(rc == 0 && strcmp(out, "a-reused\nb-created\nc-running\nd-dead\n") == 0,
	       "list: -q: the ids, sorted, without half-made or hidden directories");
	if (rc != 0 || strcmp(out, "a-reused\nb-created\nc-running\nd-dead\n") != 0)
		printf("# got: %s# stderr: %s\n", out, err);

	rc = list(root, &out, &err, NULL);
	TAP_OK(rc == 0 && strstr(out, "ID          PID         STATUS      BUNDLE") == out,
	       "list: runc's table header");
	snprintf(line, sizeof(line), "\nc-running   %-12drunning     /bundles/b   ", (int)getpid());
	TAP_OK(strstr(out, line) != NULL, "list: a live init is running, with its pid");
	snprintf(line, sizeof(line), "\nb-created   %-12dcreated     ", (int)getpid());
	TAP_OK(strstr(out, line) != NULL, "list: a live init with its exec fifo is created");
	TAP_OK(strstr(out, "\na-reused    0           stopped     ") != NULL,
	       "list: a pid with another start time is stopped, pid 0");
	TAP_OK(strstr(out, "\nd-dead      0           stopped     ") != NULL,
	       "list: a dead pid is stopped, pid 0");
	TAP_OK(strstr(out, "2023-11-14T22:13:20Z   root\n") != NULL,
	       "list: created and owner columns");
	if (strstr(out, "\nd-dead      0           stopped     ") == NULL)
		printf("# got:\n%s", out);

	rc = list(root, &out, &err, "--format=json", NULL);
	snprintf(line, sizeof(line), "\"id\":\"c-running\",\"pid\":%d,\"status\":\"running\"", (int)getpid());
	TAP_OK(rc == 0 && out[0] == '[' && strstr(out, line) &&
	       strstr(out, "\"id\":\"d-dead\",\"pid\":0,\"status\":\"stopped\"") &&
	       strstr(out, "\"owner\":\"root\""),
	       "list: --format=json");
	rc = list(root, &out, &err, "--format", "yaml", NULL);
	TAP_OK(rc == 1 && strstr(err, "kcrun: invalid format option"), "list: --format yaml is refused");
	rc = list(root, &out, &err, "--bogus", NULL);
	TAP_OK(rc == 1 && strstr(out, "Incorrect Usage: flag provided but not defined: -bogus"),
	       "list: an unknown flag is a usage error");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}
