/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test double for kcontainer.c's kc_container_socket(): the host kernel
 * has no container objects, so "the container's network namespace" is a
 * network namespace the test made, entered just for the socket() call. */
#include "stub_kcontainer.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int stub_container_netns_fd = -1;

/* No container objects on the host: none is found by name. */
int kc_container_open(const char *name)
{
	(void)name;
	errno = ENOENT;
	return -1;
}

int kc_container_socket(int cfd, int domain, int type, int protocol)
{
	int own_netns, sock, saved_errno;

	(void)cfd;
	if (stub_container_netns_fd < 0) {
		errno = EBADF;
		return -1;
	}
	own_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (own_netns < 0)
		return -1;
	if (setns(stub_container_netns_fd, CLONE_NEWNET) < 0) {
		saved_errno = errno;
		close(own_netns);
		errno = saved_errno;
		return -1;
	}
	sock = socket(domain, type, protocol);
	saved_errno = errno;
	if (setns(own_netns, CLONE_NEWNET) < 0)
		saved_errno = errno;
	close(own_netns);
	errno = saved_errno;
	return sock;
}

/* The mount API calls kcontainer.c makes (mount_opts.c's tests use them on
 * the host kernel, in a forked child's own mount namespace). */
int kc_move_mount(int from_dfd, const char *from_path, int to_dfd, const char *to_path,
		  unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from_path, to_dfd, to_path, flags);
}

int kc_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

int kc_mount_setattr(int dfd, const char *path, unsigned int flags, struct kc_mount_attr *attr,
		     size_t size)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, size);
}
