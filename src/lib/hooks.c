/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OCI hooks: see hooks.h. */
#include "hooks.h"
#include "cleanup.h"
#include "exec_handle.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const aborting_phases[] = {
	"prestart", "createRuntime", "createContainer", "startContainer",
};

bool kc_hooks_phase_aborts(const char *phase_name)
{
	size_t i;

	for (i = 0; i < sizeof(aborting_phases) / sizeof(aborting_phases[0]); i++) {
		if (strcmp(aborting_phases[i], phase_name) == 0)
			return true;
	}
	return false;
}

static int64_t monotonic_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The child: stdin from the state pipe, stdout onto our stderr, a clean
 * signal state, then exec.  On failure the errno goes up exec_error_fd. */
static void __attribute__((noreturn))
exec_hook(const struct oci_hook *hook, int exec_fd, char *const argv[], char *const envp[],
	  int stdin_fd, int exec_error_fd)
{
	sigset_t no_signals;
	int saved_errno;

	sigemptyset(&no_signals);
	sigprocmask(SIG_SETMASK, &no_signals, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(stdin_fd, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		saved_errno = errno;
		goto fail;
	}
	/* The handle is close-on-exec, so that no other hook inherits it; a
	 * #! script's interpreter opens it again as /dev/fd/N, so this one
	 * hook keeps its own. */
	if (exec_fd >= 0 && fcntl(exec_fd, F_SETFD, 0) < 0) {
		saved_errno = errno;
		goto fail;
	}
	if (exec_fd >= 0)
		syscall(SYS_execveat, exec_fd, "", argv, envp, AT_EMPTY_PATH);
	else
		execve(hook->path, argv, envp);
	saved_errno = errno;
fail:
	if (write(exec_error_fd, &saved_errno, sizeof(saved_errno)) < 0)
		_exit(126);
	_exit(127);
}

/* Writes the state to the hook's stdin with SIGPIPE blocked (a hook may
 * exit without reading it: that is not our failure), giving up at
 * deadline_ms (0: none).  Returns 0, or -ETIMEDOUT. */
static int write_state(int fd, const char *state_json, int64_t deadline_ms)
{
	size_t len = strlen(state_json), done = 0;
	sigset_t sigpipe, old_mask, pending;
	bool was_pending;
	int rc = 0;

	sigemptyset(&sigpipe);
	sigaddset(&sigpipe, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &sigpipe, &old_mask);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (done < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		int wait_ms = -1;
		ssize_t n;

		if (deadline_ms) {
			int64_t left = deadline_ms - monotonic_ms();

			if (left <= 0) {
				rc = -ETIMEDOUT;
				break;
			}
			wait_ms = left > INT32_MAX ? INT32_MAX : (int)left;
		}
		if (poll(&pfd, 1, wait_ms) < 0 && errno != EINTR)
			break;
		n = write(fd, state_json + done, len - done);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break; /* EPIPE: the hook closed its stdin */
		done += n;
	}
	if (!was_pending) {
		struct timespec no_wait = { 0, 0 };

		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&sigpipe, NULL, &no_wait);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return rc;
}

/* Waits for the hook until deadline_ms (0: forever).  Returns 0 and its
 * status, or -ETIMEDOUT after killing and reaping it. */
static int wait_hook(pid_t pid, int64_t deadline_ms, int *status)
{
	for (;;) {
		pid_t rc = waitpid(pid, status, deadline_ms ? WNOHANG : 0);

		if (rc == pid)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (deadline_ms && monotonic_ms() >= deadline_ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		if (rc == 0)
			usleep(5000);
	}
}

static int run_hook(const struct oci_hook *hook, int exec_fd, const char *state_json,
		    const char *phase_name, size_t index, kc_error_t *err)
{
	cleanup_free char **argv = calloc(hook->args_len + 2, sizeof(char *));
	cleanup_free char **envp = calloc(hook->env_len + 1, sizeof(char *));
	cleanup_close int stdin_read = -1, stdin_write = -1;
	cleanup_close int error_read = -1, error_write = -1;
	int pipe_fds[2], exec_errno = 0, status = 0, rc;
	int64_t deadline_ms = 0;
	pid_t pid;

	if (argv == NULL || envp == NULL)
		return kc_error_set(err, ENOMEM, "%s hook #%zu", phase_name, index);
	if (hook->args_len)
		memcpy(argv, hook->args, hook->args_len * sizeof(char *));
	else
		argv[0] = hook->path;
	if (hook->env_len)
		memcpy(envp, hook->env, hook->env_len * sizeof(char *));

	if (pipe2(pipe_fds, O_CLOEXEC) < 0)
		return kc_error_set(err, errno, "%s hook #%zu: pipe", phase_name, index);
	stdin_read = pipe_fds[0];
	stdin_write = pipe_fds[1];
	if (pipe2(pipe_fds, O_CLOEXEC) < 0)
		return kc_error_set(err, errno, "%s hook #%zu: pipe", phase_name, index);
	error_read = pipe_fds[0];
	error_write = pipe_fds[1];

	if (hook->has_timeout && hook->timeout > 0)
		deadline_ms = monotonic_ms() + (int64_t)hook->timeout * 1000;
	pid = fork();
	if (pid < 0)
		return kc_error_set(err, errno, "%s hook #%zu: fork", phase_name, index);
	if (pid == 0)
		exec_hook(hook, exec_fd, argv, envp, stdin_read, error_write);
	close(stdin_read);
	stdin_read = -1;
	close(error_write);
	error_write = -1;

	/* EOF: exec succeeded (the pipe is close-on-exec); else its errno. */
	while ((rc = read(error_read, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	if (rc == sizeof(exec_errno)) {
		waitpid(pid, &status, 0);
		return kc_error_set(err, exec_errno, "%s hook #%zu: exec %s", phase_name, index,
				    hook->path);
	}

	rc = write_state(stdin_write, state_json ? state_json : "", deadline_ms);
	close(stdin_write);
	stdin_write = -1;
	if (rc == 0)
		rc = wait_hook(pid, deadline_ms, &status);
	else
		wait_hook(pid, 1, &status); /* deadline passed: kill and reap */
	if (rc == -ETIMEDOUT)
		return kc_error_set(err, 0, "%s hook #%zu: timed out after %ds (%s)", phase_name,
				    index, hook->timeout, hook->path);
	if (rc < 0)
		return kc_error_set(err, -rc, "%s hook #%zu: wait for %s", phase_name, index,
				    hook->path);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return kc_error_set(err, 0, "%s hook #%zu: %s exited with status %d", phase_name,
				    index, hook->path, WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return kc_error_set(err, 0, "%s hook #%zu: %s killed by signal %d", phase_name,
				    index, hook->path, WTERMSIG(status));
	return 0;
}

static int run_phase(const struct oci_hook *hooks, const int *fds, size_t n,
		     const char *state_json, const char *phase_name, kc_error_t *err)
{
	bool aborts = kc_hooks_phase_aborts(phase_name);
	int result = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		/* After a failure in a logged phase, keep running the rest but
		 * report only the first failure. */
		kc_error_t later_err = NULL;
		kc_error_t *this_err = result < 0 ? &later_err : err;

		if (run_hook(&hooks[i], fds ? fds[i] : -1, state_json, phase_name, i, this_err) < 0) {
			result = -1;
			if (aborts)
				break;
		}
		kc_error_free(&later_err);
	}
	return result;
}

int kc_hooks_run(const struct oci_hook *hooks, size_t n, const char *state_json,
		 const char *phase_name, kc_error_t *err)
{
	return run_phase(hooks, NULL, n, state_json, phase_name, err);
}

int kc_hooks_run_fds(const struct oci_hook *hooks, const int *fds, size_t n,
		     const char *state_json, const char *phase_name, kc_error_t *err)
{
	return run_phase(hooks, fds, n, state_json, phase_name, err);
}

int kc_hooks_open_executables(const struct oci_hook *hooks, size_t n, int **fds,
			      kc_error_t *err)
{
	int *opened = calloc(n ? n : 1, sizeof(int));
	size_t i;

	if (opened == NULL)
		return kc_error_set(err, ENOMEM, "open hooks");
	for (i = 0; i < n; i++) {
		opened[i] = kc_exec_handle_open(AT_FDCWD, hooks[i].path, "kcrun-hook", err);
		if (opened[i] < 0) {
			kc_hooks_close_executables(opened, i);
			return kc_error_wrap(err, "open hook #%zu `%s`", i, hooks[i].path);
		}
	}
	*fds = opened;
	return 0;
}

void kc_hooks_close_executables(int *fds, size_t n)
{
	size_t i;

	if (fds == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
	}
	free(fds);
}
