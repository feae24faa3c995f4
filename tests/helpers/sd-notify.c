// SPDX-License-Identifier: GPL-2.0-or-later
/* sd-notify MESSAGE: sends MESSAGE as one datagram to $NOTIFY_SOCKET, as
 * sd_notify(3) does (a path, or "@name" for an abstract socket).  Static:
 * systemd-notify.bats runs it inside busybox containers, which have
 * neither systemd-notify nor a libc of their own. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	const char *path = getenv("NOTIFY_SOCKET");
	size_t len;
	int fd;

	if (argc != 2 || path == NULL || *path == '\0') {
		fprintf(stderr, "usage: NOTIFY_SOCKET=PATH sd-notify MESSAGE\n");
		return 2;
	}
	len = strlen(path);
	if (len >= sizeof(addr.sun_path)) {
		fprintf(stderr, "sd-notify: NOTIFY_SOCKET too long\n");
		return 1;
	}
	memcpy(addr.sun_path, path, len);
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || sendto(fd, argv[1], strlen(argv[1]), 0, (struct sockaddr *)&addr,
			     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0) {
		fprintf(stderr, "sd-notify: send to %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
