/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forkexit: the cost of fork() + _exit() + waitpid() for a task that never
 * touches a container (kernel series issue: the series must cost such tasks
 * nothing measurable).  Prints the median and the spread of ROUNDS rounds of
 * N forks each, in nanoseconds per fork, from CLOCK_MONOTONIC (boot the guest
 * with --tsc for a fine clock).  A benchmark, not a test: it judges nothing.
 *
 *   forkexit [N [ROUNDS]]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int rounds = argc > 2 ? atoi(argv[2]) : 11;
	long long *per_fork;

	if (n <= 0 || rounds <= 0 || !(per_fork = calloc((size_t)rounds, sizeof(*per_fork))))
		return 2;
	for (int r = 0; r < rounds; r++) {
		long long t0 = now_ns();

		for (int i = 0; i < n; i++) {
			pid_t pid = fork();
			int status;

			if (pid == 0)
				_exit(0);
			if (pid < 0 || waitpid(pid, &status, 0) != pid)
				return 1;
		}
		per_fork[r] = (now_ns() - t0) / n;
	}
	qsort(per_fork, (size_t)rounds, sizeof(*per_fork), by_value);
	printf("fork+exit+wait: median %lld ns, min %lld ns, max %lld ns (%d rounds of %d)\n",
	       per_fork[rounds / 2], per_fork[0], per_fork[rounds - 1], rounds, n);
	free(per_fork);
	return 0;
}
