// SPDX-License-Identifier: GPL-2.0-or-later
/* seccomp-agent SOCKET OUT: a seccomp notify agent, for
 * seccomp-notify.bats.  Listens on SOCKET (a filter's listenerPath),
 * takes one message: writes its data (the runtime's container process
 * state JSON) as the first line of OUT, then answers every notification
 * on the listener fd that came with it as a success that did nothing
 * (val 0, error 0), appending "answered <syscall number>" for each (written
 * before the answer, so it is in OUT once the caller goes on), until
 * the filter's processes are gone.  Static: the small guest has no
 * compiler. */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "fd_receive.h"

int main(int argc, char **argv)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct fd_received got;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: seccomp-agent SOCKET OUT\n");
		return 2;
	}
	if (fd_receive("seccomp-agent", argv[1], &got) < 0)
		return 2;
	out = fopen(argv[2], "w");
	if (out == NULL)
		return 2;
	fprintf(out, "%s\nfds=%d\n", got.data, got.count);
	fflush(out);
	while (got.fd >= 0) {
		memset(&req, 0, sizeof(req));
		if (ioctl(got.fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			break; /* ENOENT: nobody left under the filter */
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		fprintf(out, "answered %d\n", req.data.nr);
		fflush(out);
		if (ioctl(got.fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0)
			perror("seccomp-agent: SECCOMP_IOCTL_NOTIF_SEND");
	}
	fclose(out);
	return 0;
}
