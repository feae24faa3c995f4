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
#include <unistd.h>

#include "../../helpers/fd_receive.h"

int main(int argc, char **argv)
{
	struct fd_received got;
	int master_fd;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: console-receiver SOCKET OUT\n");
		return 2;
	}
	if (fd_receive("console-receiver", argv[1], &got) < 0)
		return 2;
	master_fd = got.fd;
	out = fopen(argv[2], "w");
	if (out == NULL)
		return 2;
	fprintf(out, "fds=%d cmsg_len_ok=%d data=%s\ntty=%d\noutput:\n", got.count, got.one_per_cmsg, got.data,
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
	return got.count == 1 && master_fd >= 0 && isatty(master_fd) ? 0 : 1;
}
