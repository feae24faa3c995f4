// SPDX-License-Identifier: GPL-2.0-or-later
/* pidfd-receiver SOCKET OUT [SIGNAL]: what an engine does with
 * --pidfd-socket, for pidfd-socket.bats.  Listens on SOCKET, accepts one
 * connection, receives one message and writes to OUT
 *   fds=<fds received> data=<the data bytes> pid=<the pidfd's Pid: in fdinfo>
 * then, with SIGNAL (a number), sends it through the pidfd
 * (pidfd_send_signal), waits up to 60 s for the process to exit (the
 * pidfd polls readable) and appends "exited" or "alive".  Static: the
 * small guest has no compiler. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "fd_receive.h"

static int fdinfo_pid(int fd)
{
	char path[64], line[256];
	int pid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	if (f)
		fclose(f);
	return pid;
}

int main(int argc, char **argv)
{
	struct fd_received got;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: pidfd-receiver SOCKET OUT [SIGNAL]\n");
		return 2;
	}
	if (fd_receive("pidfd-receiver", argv[1], &got) < 0)
		return 2;
	out = fopen(argv[2], "w");
	if (out == NULL)
		return 2;
	fprintf(out, "fds=%d data=%s pid=%d\n", got.count, got.data,
		got.fd >= 0 ? fdinfo_pid(got.fd) : -1);
	fflush(out);
	if (argc > 3 && got.fd >= 0) {
		struct pollfd pfd = { .fd = got.fd, .events = POLLIN };

		if (syscall(SYS_pidfd_send_signal, got.fd, atoi(argv[3]), NULL, 0) < 0)
			perror("pidfd-receiver: pidfd_send_signal");
		fprintf(out, "%s\n", poll(&pfd, 1, 60000) == 1 ? "exited" : "alive");
	}
	fclose(out);
	return got.count == 1 && got.fd >= 0 ? 0 : 1;
}
