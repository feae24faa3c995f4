/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of hooks.c with small shell hooks. */
#include "tap.h"
#include "src/lib/hooks.h"
#include "src/lib/exec_handle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char work_dir[] = "/tmp/kcrun-hooks-XXXXXX";

static char *slurp(const char *name)
{
	static char content[1 << 20];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", work_dir, name);
	f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	n = fread(content, 1, sizeof(content) - 1, f);
	content[n] = '\0';
	fclose(f);
	return content;
}

static struct oci_hook sh_hook(const char *argv0, const char *script)
{
	struct oci_hook hook = { .path = "/bin/sh" };

	hook.args = calloc(3, sizeof(char *));
	hook.args[0] = (char *)argv0;
	hook.args[1] = "-c";
	hook.args[2] = (char *)script;
	hook.args_len = 3;
	return hook;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Appends a byte to PATH's file through /proc/self/fd/FD, as a process that
 * inherited FD could; true when the byte landed (the file grew). */
static bool wrote_through(int fd, const char *path)
{
	char link[64];
	struct stat before, after;
	int w;
	ssize_t n = -1;

	if (stat(path, &before) < 0)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	w = open(link, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (w >= 0) {
		n = write(w, "x", 1);
		close(w);
	}
	return n == 1 && stat(path, &after) == 0 && after.st_size == before.st_size + 1;
}

/* The unwritable handles hooks (and kcrun itself) run from. */
static void test_exec_handles(const char *script)
{
	kc_error_t err = NULL;
	char plain[256];
	int fd, seals, flags;

	fd = kc_exec_handle_open(AT_FDCWD, script, "kcrun-test", &err);
	TAP_OK(fd >= 0, "exec handle: opened");
	if (fd >= 0) {
		flags = fcntl(fd, F_GETFD);
		TAP_OK(flags >= 0 && (flags & FD_CLOEXEC), "exec handle: close-on-exec");
		TAP_OK(!wrote_through(fd, script),
		       "exec handle: no write reaches the file through /proc/self/fd");
		close(fd);
	}
	kc_error_free(&err);
	fd = kc_exec_handle_copy(AT_FDCWD, script, "kcrun-test", &err);
	TAP_OK(fd >= 0, "exec handle: a sealed copy");
	if (fd >= 0) {
		seals = fcntl(fd, F_GET_SEALS);
		TAP_OK(seals >= 0 && (seals & KC_EXEC_HANDLE_SEALS) == KC_EXEC_HANDLE_SEALS,
		       "exec handle: the copy is sealed against writes and resizes");
		TAP_OK(!wrote_through(fd, script), "exec handle: no write reaches the copy");
		close(fd);
	}
	kc_error_free(&err);
	snprintf(plain, sizeof(plain), "%s/not-executable", work_dir);
	fd = open(plain, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	TAP_CALL_FAILS(kc_exec_handle_copy(AT_FDCWD, plain, "kcrun-test", &err), err,
		       "is not an executable file",
		       "exec handle: a copy of a file without x is refused, as execve would");
	TAP_CALL_FAILS(kc_exec_handle_copy(AT_FDCWD, work_dir, "kcrun-test", &err), err,
		       "is not an executable file", "exec handle: a directory is refused");
}

void test_hooks(void)
{
	kc_error_t err = NULL;
	char script[512], *content;
	const char *state = "{\"ociVersion\":\"1.2.0\",\"id\":\"c1\",\"status\":\"creating\",\"pid\":42,\"bundle\":\"/b\"}";
	char *env[] = { "HOOK_DIR=x", "ONLY=this" };
	struct oci_hook hooks[3];
	struct timespec start;
	int *fds = NULL;

	if (mkdtemp(work_dir) == NULL || chdir(work_dir) < 0) {
		TAP_OK(0, "hooks: a scratch directory to work in (%s)", strerror(errno));
		return;
	}

	/* stdin, argv[0], exact env. */
	hooks[0] = sh_hook("my-hook-name",
			   "cat > state; tr '\\0' ' ' < /proc/$$/cmdline > argv; env > env");
	hooks[0].env = env;
	hooks[0].env_len = 2;
	TAP_CALL_OK(kc_hooks_run(hooks, 1, state, "createRuntime", &err), err, "hooks: a hook runs");
	content = slurp("state");
	TAP_OK(content && strcmp(content, state) == 0, "hooks: state JSON on stdin");
	content = slurp("argv");
	TAP_OK(content && strncmp(content, "my-hook-name -c ", 16) == 0,
	       "hooks: args[0] is argv[0] (%s)", content ? content : "");
	content = slurp("env");
	TAP_OK(content && strstr(content, "ONLY=this\n") && strstr(content, "HOOK_DIR=x\n") &&
	       !strstr(content, "PATH=") && !strstr(content, "HOME="),
	       "hooks: env is exactly the hook's env");

	/* No args: argv = { path }. */
	snprintf(script, sizeof(script), "%s/noargs.sh", work_dir);
	{
		FILE *f = fopen(script, "w");

		fprintf(f, "#!/bin/sh\necho \"$0\" > noargs\n");
		fclose(f);
		chmod(script, 0755);
	}
	hooks[1] = (struct oci_hook){ .path = script };
	TAP_CALL_OK(kc_hooks_run(&hooks[1], 1, state, "poststart", &err), err,
		    "hooks: a hook without args runs");
	content = slurp("noargs");
	TAP_OK(content && strncmp(content, script, strlen(script)) == 0, "hooks: without args argv[0] is the path");

	/* Non-zero exit names the phase and the hook. */
	hooks[0] = sh_hook("sh", "exit 3");
	TAP_CALL_FAILS(kc_hooks_run(hooks, 1, state, "prestart", &err), err,
		       "prestart hook #0: /bin/sh exited with status 3",
		       "hooks: non-zero exit is an error naming the hook");

	/* Timeout: SIGKILL and a clear message, well before the hook ends. */
	hooks[0] = sh_hook("sh", "exec sleep 30");
	hooks[0].has_timeout = true;
	hooks[0].timeout = 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	TAP_CALL_FAILS(kc_hooks_run(hooks, 1, state, "createContainer", &err), err,
		       "createContainer hook #0: timed out after 1s",
		       "hooks: timeout kills the hook and says so");
	TAP_OK(seconds_since(&start) < 5, "hooks: timeout took %.1fs", seconds_since(&start));

	/* A timeout that is not reached. */
	hooks[0] = sh_hook("sh", "cat >/dev/null; exit 0");
	hooks[0].has_timeout = true;
	hooks[0].timeout = 5;
	TAP_CALL_OK(kc_hooks_run(hooks, 1, state, "startContainer", &err), err,
		    "hooks: a quick hook with a timeout succeeds");

	/* Missing executable. */
	hooks[0] = (struct oci_hook){ .path = "/nonexistent/hook" };
	TAP_CALL_FAILS(kc_hooks_run(hooks, 1, state, "poststop", &err), err,
		       "poststop hook #0: exec /nonexistent/hook: No such file or directory",
		       "hooks: missing executable is an exec error");

	/* Aborting phase: the hook after a failing one does not run ... */
	unlink("second-ran");
	hooks[0] = sh_hook("sh", "exit 1");
	hooks[1] = sh_hook("sh", "touch second-ran");
	TAP_CALL_FAILS(kc_hooks_run(hooks, 2, state, "createRuntime", &err), err,
		       "createRuntime hook #0", "hooks: createRuntime failure reported");
	TAP_OK(access("second-ran", F_OK) < 0, "hooks: createRuntime stops at the first failure");
	/* ... a logged phase runs them all and reports the first failure. */
	hooks[1] = sh_hook("sh", "exit 2");
	hooks[2] = sh_hook("sh", "touch second-ran");
	TAP_CALL_FAILS(kc_hooks_run(hooks, 3, state, "poststop", &err), err,
		       "poststop hook #0: /bin/sh exited with status 1",
		       "hooks: poststop reports the first failure");
	TAP_OK(access("second-ran", F_OK) == 0, "hooks: poststop runs every hook");
	TAP_OK(kc_hooks_phase_aborts("prestart") && kc_hooks_phase_aborts("startContainer") &&
	       !kc_hooks_phase_aborts("poststart") && !kc_hooks_phase_aborts("poststop"),
	       "hooks: which phases abort");

	/* A state bigger than a pipe buffer, and a hook that never reads it. */
	{
		size_t big_len = 300 * 1024;
		char *big = malloc(big_len + 1);
		struct stat st;

		memset(big, 'x', big_len);
		big[big_len] = '\0';
		hooks[0] = sh_hook("sh", "cat > big");
		TAP_CALL_OK(kc_hooks_run(hooks, 1, big, "poststart", &err), err, "hooks: 300 KiB state");
		TAP_OK(stat("big", &st) == 0 && (size_t)st.st_size == big_len,
		       "hooks: the whole state arrives");
		hooks[0] = sh_hook("sh", "exit 0");
		TAP_CALL_OK(kc_hooks_run(hooks, 1, big, "poststart", &err), err,
			    "hooks: a hook that ignores stdin does not hang or SIGPIPE us");
		free(big);
	}

	/* From fds opened beforehand (createContainer from init). */
	hooks[0] = sh_hook("sh", "cat > from-fd");
	hooks[1] = (struct oci_hook){ .path = script };
	TAP_CALL_OK(kc_hooks_open_executables(hooks, 2, &fds, &err), err, "hooks: open executables");
	unlink("noargs");
	TAP_CALL_OK(kc_hooks_run_fds(hooks, fds, 2, state, "createContainer", &err), err,
		    "hooks: run from fds (binary and #! script)");
	content = slurp("from-fd");
	TAP_OK(content && strcmp(content, state) == 0, "hooks: state on stdin of an fd-run hook");
	TAP_OK(access("noargs", F_OK) == 0, "hooks: #! script ran from its fd");
	test_exec_handles(script);
	kc_hooks_close_executables(fds, 2);
	hooks[0] = (struct oci_hook){ .path = "/nonexistent/hook" };
	TAP_CALL_FAILS(kc_hooks_open_executables(hooks, 1, &fds, &err), err,
		       "open hook #0 `/nonexistent/hook`", "hooks: open of a missing hook fails");

	if (chdir("/") == 0) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", work_dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", work_dir);
	}
}
