/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pidfd_socket.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd_passing.h"

int kc_pidfd_socket_send(const char *path, pid_t pid, kc_error_t *err)
{
	cleanup_close int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	cleanup_close int sock_fd = -1;

	if (pidfd < 0)
		return kc_error_set(err, errno, "--pidfd-socket: pidfd_open(%d)", (int)pid);
	sock_fd = kc_unix_connect(path, "pidfd socket", err);
	if (sock_fd < 0 || kc_send_fd(sock_fd, pidfd, "pidfd", err) < 0)
		return kc_error_wrap(err, "--pidfd-socket");
	return 0;
}
