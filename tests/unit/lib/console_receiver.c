/* SPDX-License-Identifier: GPL-2.0-or-later */
/* console-receiver SOCKET OUT: what conmon does with --console-socket, for
 * tests/bats/concerns.bats.  Listens on SOCKET, accepts one connection,
 * receives one message and writes to OUT:
 *   fds=<number of fds received> cmsg_len_ok=<1|0> data=<the data bytes>
 *   tty=<1 if the fd is a terminal>
 *   output:
 *   <what the container wrote to its terminal, until it closed or 10 s>
 * Exits 0 when exactly one terminal fd arrived. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} control;
	char data[256] = "";
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control.buf, .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *cmsg;
	int listen_fd, conn_fd, master_fd = -1, fd_count = 0, cmsg_len_ok = 1;
	FILE *out;

	if (argc != 3 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: console-receiver SOCKET OUT\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(argv[1]);
	if (bind(listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(listen_fd, 1) < 0) {
		perror("console-receiver: bind/listen");
		return 2;
	}
	conn_fd = accept(listen_fd, NULL, NULL);
	if (conn_fd < 0 || recvmsg(conn_fd, &msg, 0) < 0) {
		perror("console-receiver: accept/recvmsg");
		return 2;
	}
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		if (cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
			cmsg_len_ok = 0;
		fd_count += (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(&master_fd, CMSG_DATA(cmsg), sizeof(int));
	}
	out = fopen(argv[2], "w");
	if (out == NULL)
		return 2;
	fprintf(out, "fds=%d cmsg_len_ok=%d data=%s\ntty=%d\noutput:\n", fd_count, cmsg_len_ok, data,
		master_fd >= 0 && isatty(master_fd));
	fflush(out);
	while (master_fd >= 0) {
		struct pollfd pfd = { .fd = master_fd, .events = POLLIN };
		char buf[512];
		ssize_t n;

		if (poll(&pfd, 1, 10000) <= 0)
			break;
		n = read(master_fd, buf, sizeof(buf));
		if (n <= 0) /* EIO once the last slave fd is closed */
			break;
		fwrite(buf, 1, n, out);
		fflush(out);
	}
	fclose(out);
	return fd_count == 1 && master_fd >= 0 && isatty(master_fd) ? 0 : 1;
}
