/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container calls' cost against the number of live containers.
 *
 *   kernelscale [MAX [REPS]]
 *
 * For N = 0, 100, 1,000, 10,000 (up to MAX) other containers alive (made
 * and held open, not started: an object, its creds and an nsproxy each),
 * the median over REPS (1001: medians of 201 moved by up to 2x under TCG)
 * of: container_create + close of a new name (the sibling-name check),
 * container_open + close of an existing name (the lookup), and a read of
 * /proc/containers (which lists every one, so it grows with N by nature).
 * Prints one line per N and the ratios to N = 0.  A benchmark: it judges
 * nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NR_container_create 451
#define NR_container_open   455

struct container_args {
	uint64_t flags;
	uint64_t name;
	uint64_t userns_fd;
};

static int create(const char *name)
{
	struct container_args a = { .flags = 0, .name = (uintptr_t)name };

	return (int)syscall(NR_container_create, &a, sizeof(a));
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

static long long proc_read(void)
{
	static char buf[1 << 16];
	long long t = now_ns();
	int fd = open("/proc/containers", O_RDONLY);

	if (fd < 0)
		return -1;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return now_ns() - t;
}

int main(int argc, char **argv)
{
	static const int points[] = { 0, 100, 1000, 10000 };
	int max = argc > 1 ? atoi(argv[1]) : 10000;
	int reps = argc > 2 ? atoi(argv[2]) : 1001;
	long long *t_create = calloc(reps, sizeof(long long));
	long long *t_open = calloc(reps, sizeof(long long));
	long long *t_proc = calloc(reps, sizeof(long long));
	long long base_create = 0, base_open = 0;
	struct rlimit rl = { max + 1000, max + 1000 };
	int alive = 0, fd;
	char name[64];
	FILE *f;

	if (!t_create || !t_open || !t_proc)
		return 1;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		perror("setrlimit");
	f = fopen("/proc/sys/user/max_containers", "w");
	if (f) {
		fprintf(f, "%d\n", max + 1000);
		fclose(f);
	}
	if (create("scale-probe") < 0 && errno == ENOSYS) {
		fprintf(stderr, "no container objects on this kernel\n");
		return 1;
	}
	printf("%-8s %14s %14s %16s\n", "alive", "create+close", "open+close", "/proc/containers");
	for (size_t p = 0; p < sizeof(points) / sizeof(points[0]) && points[p] <= max; p++) {
		for (; alive < points[p]; alive++) {
			snprintf(name, sizeof(name), "scale-%d", alive);
			if (create(name) < 0) {
				perror(name);
				return 1;
			}
		}
		for (int r = 0; r < reps; r++) {
			long long t;

			snprintf(name, sizeof(name), "scale-new-%d", r);
			t = now_ns();
			fd = create(name);
			close(fd);
			t_create[r] = now_ns() - t;

			t = now_ns();
			fd = (int)syscall(NR_container_open, "scale-probe", 0u);
			close(fd);
			t_open[r] = now_ns() - t;
			if (fd < 0) {
				perror("container_open");
				return 1;
			}
			t_proc[r] = r < 21 ? proc_read() : t_proc[r % 21];
		}
		long long c = median(t_create, reps), o = median(t_open, reps);
		long long pr = median(t_proc, reps < 21 ? reps : 21);

		if (points[p] == 0) {
			base_create = c;
			base_open = o;
		}
		printf("%-8d %11lld ns %11lld ns %13lld ns   (create x%.2f, open x%.2f of N=0)\n",
		       points[p], c, o, pr, (double)c / base_create, (double)o / base_open);
		fflush(stdout);
	}
	return 0;
}
