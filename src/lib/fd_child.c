/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See fd_child.h. */
#include "fd_child.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_slots(int *slots, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (slots[i] >= 0)
			close(slots[i]);
		slots[i] = -1;
	}
}

int kc_fd_child_fill(int fd, int slot)
{
	int ret;

	if (fd < 0)
		return errno > 0 ? errno : EIO;
	ret = dup3(fd, slot, O_CLOEXEC) < 0 ? errno : 0;
	close(fd);
	return ret;
}

int kc_fd_child_run(kc_fd_child_fn fn, void *arg, int *slots, size_t n)
{
	int status = 0, saved;
	size_t i;
	pid_t pid;

	for (i = 0; i < n; i++)
		slots[i] = -1;
	for (i = 0; i < n; i++) {
		slots[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (slots[i] < 0)
			goto fail;
	}
	pid = (pid_t)syscall(SYS_clone, CLONE_FILES | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		status = fn(arg, slots, n);
		_exit(status > 0 && status < 256 ? status : status ? EIO : 0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	close_slots(slots, n);
	errno = WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
	return -1;
fail:
	saved = errno;
	close_slots(slots, n);
	errno = saved;
	return -1;
}
