// SPDX-License-Identifier: GPL-2.0-or-later
/* nest [-u] [-w] N: create up to N kernel containers from inside a
 * container (each a child of the caller's), keep them open, and print how
 * many were made and the errno name of the call that failed ("created 16
 * EDQUOT"), or "created N ok".  -u: first unshare a user namespace (whose
 * root has CAP_SYS_ADMIN over it without any capability in the container:
 * runtime review 2, 4.7); -w: then hold the containers until killed.
 * Static, for nesting.bats: it runs inside busybox containers. */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_container_create 451

struct container_args {
	uint64_t flags;
	uint64_t name;
	uint64_t userns_fd;
};

static const char *errno_name(int e)
{
	switch (e) {
	case EDQUOT: return "EDQUOT";
	case ENOSPC: return "ENOSPC";
	case EPERM: return "EPERM";
	case ENOSYS: return "ENOSYS";
	case EEXIST: return "EEXIST";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	bool own_userns = false, hold = false;
	char name[32];
	long want, n;
	int opt;

	while ((opt = getopt(argc, argv, "uw")) != -1) {
		if (opt == 'u')
			own_userns = true;
		else if (opt == 'w')
			hold = true;
		else
			return 2;
	}
	want = optind < argc ? strtol(argv[optind], NULL, 10) : 1;
	if (own_userns && unshare(CLONE_NEWUSER) < 0) {
		printf("unshare %s\n", errno_name(errno));
		return 1;
	}

	for (n = 0; n < want; n++) {
		struct container_args args = { .name = (uintptr_t)name };

		snprintf(name, sizeof(name), "nest-%ld", n);
		if (syscall(NR_container_create, &args, sizeof(args)) < 0)
			break;
	}
	printf("created %ld %s\n", n, n < want ? errno_name(errno) : "ok");
	fflush(stdout);
	while (hold)
		pause();
	return 0;
}
