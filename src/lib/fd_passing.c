/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fd_passing.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* One message of data with room for one SCM_RIGHTS fd. */
struct fd_message {
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov;
	struct msghdr msg;
};

static void fd_message_init(struct fd_message *m, void *data, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->iov.iov_base = data;
	m->iov.iov_len = len;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->control.buf;
	m->msg.msg_controllen = sizeof(m->control.buf);
}

int kc_unix_connect(const char *path, const char *what, kc_error_t *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sock_fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		return kc_error_set(err, ENAMETOOLONG, "%s `%s`", what, path);
	strcpy(addr.sun_path, path);
	sock_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock_fd < 0)
		return kc_error_set(err, errno, "%s: socket", what);
	if (connect(sock_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		kc_error_set(err, errno, "connect to %s `%s`", what, path);
		close(sock_fd);
		return -1;
	}
	return sock_fd;
}

int kc_send_fd(int sock_fd, int fd, const char *name, kc_error_t *err)
{
	struct fd_message m;
	struct cmsghdr *cmsg;
	ssize_t sent;

	if (name[0] == '\0')
		name = "-";
	fd_message_init(&m, (void *)name, strlen(name));
	cmsg = CMSG_FIRSTHDR(&m.msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));

	do
		sent = sendmsg(sock_fd, &m.msg, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return kc_error_set(err, errno, "send %s", name);
	return 0;
}

int kc_recv_fd(int sock_fd, int *fd, kc_error_t *err)
{
	struct fd_message m;
	char data[256];
	struct cmsghdr *cmsg;
	ssize_t received;

	fd_message_init(&m, data, sizeof(data));
	do
		received = recvmsg(sock_fd, &m.msg, MSG_CMSG_CLOEXEC);
	while (received < 0 && errno == EINTR);
	if (received < 0)
		return kc_error_set(err, errno, "receive a file descriptor");
	cmsg = CMSG_FIRSTHDR(&m.msg);
	if (received == 0 || cmsg == NULL || cmsg->cmsg_level != SOL_SOCKET ||
	    cmsg->cmsg_type != SCM_RIGHTS || cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
		return kc_error_set(err, 0, "receive a file descriptor: no fd in the message");
	memcpy(fd, CMSG_DATA(cmsg), sizeof(int));
	return 0;
}
