// SPDX-License-Identifier: GPL-2.0-or-later
/* nest N: create up to N kernel containers from inside a container (each a
 * child of the caller's), keep them open, and print how many were made and
 * the errno name of the call that failed ("created 16 EDQUOT"), or "created
 * N ok".  Static, for nesting.bats: it runs inside busybox containers. */
#include <errno.h>
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
	long want = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	char name[32];
	long n;

	for (n = 0; n < want; n++) {
		struct container_args args = { .name = (uintptr_t)name };

		snprintf(name, sizeof(name), "nest-%ld", n);
		if (syscall(NR_container_create, &args, sizeof(args)) < 0) {
			printf("created %ld %s\n", n, errno_name(errno));
			return 0;
		}
	}
	printf("created %ld ok\n", n);
	return 0;
}
