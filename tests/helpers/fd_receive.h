/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The listening end of --console-socket and --pidfd-socket, for the test
 * helpers (console-receiver, pidfd-receiver): listen on path, accept one
 * connection, receive one message.  Header-only: the helpers are built by
 * two Makefiles, one of them static. */
#ifndef KCRUN_TESTS_FD_RECEIVE_H
#define KCRUN_TESTS_FD_RECEIVE_H

#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct fd_received {
	char data[8192];   /* the message's bytes, NUL-terminated */
	int fd;            /* the last SCM_RIGHTS fd, or -1 */
	int count;         /* how many fds came */
	int one_per_cmsg;  /* 1 when every SCM_RIGHTS header held one fd */
};

/* 0 with *got filled, or -1 (perror'd as prog) when the socket could not be
 * bound or nothing was received. */
static inline int fd_receive(const char *prog, const char *path, struct fd_received *got)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = got->data, .iov_len = sizeof(got->data) - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control.buf, .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *cmsg;
	int listen_fd, conn_fd;

	memset(got, 0, sizeof(*got));
	got->fd = -1;
	got->one_per_cmsg = 1;
	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "%s: socket path too long\n", prog);
		return -1;
	}
	strcpy(addr.sun_path, path);
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(path);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(listen_fd, 1) < 0) {
		perror(prog);
		return -1;
	}
	conn_fd = accept(listen_fd, NULL, NULL);
	if (conn_fd < 0 || recvmsg(conn_fd, &msg, 0) < 0) {
		perror(prog);
		return -1;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		if (cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
			got->one_per_cmsg = 0;
		got->count += (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(&got->fd, CMSG_DATA(cmsg), sizeof(int));
	}
	close(conn_fd);
	close(listen_fd);
	return 0;
}

#endif
