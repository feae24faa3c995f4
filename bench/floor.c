/* SPDX-License-Identifier: GPL-2.0-or-later */
/* floor: what the kernel itself costs for the work a runtime does, so that
 * bench/lifecycle can print every figure as a multiple of it (issue 12).
 * Built statically on the host (bench/run-lifecycle) and run in the same
 * guest boot as the runtimes.  A benchmark, not a test: it judges nothing.
 *
 *   floor run N ROOTFS [nonet]
 *       N times: clone with the bundle's namespaces (pid, mount, uts, ipc,
 *       and net unless "nonet"), chroot(ROOTFS), exec /bin/true, wait.
 *       Prints "run: median U us" (microseconds per container).
 *   floor spawn N
 *       N times: fork, exec /bin/true, wait, with no namespace at all: a
 *       plain process, as every runtime command and its children are.
 *       Prints "spawn: median U us".
 *   floor exec N PID
 *       N times: a child opens /proc/PID/ns/{ipc,uts,net,pid,mnt}, setns()s
 *       into each, forks, and the grandchild execs /bin/true; both waited
 *       for (what `exec` into a running container needs at least).
 *       Prints "exec: median U us".
 *   floor par N P ROOTFS
 *       P processes share N floor runs; prints "par: R per second".
 *   floor hold N ROOTFS READY
 *       N idle namespaced processes (as "run", but exec /bin/sleep), then
 *       writes READY and waits for SIGTERM, which kills them all.  For the
 *       memory per container: an idle container without any runtime.
 *
 * Times come from CLOCK_MONOTONIC (boot the guest with --tsc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STACK_SIZE (64 * 1024)

struct child_args {
	const char *rootfs;
	char *const *argv;
};

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

static long long median(long long *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int contained(void *data)
{
	const struct child_args *args = data;
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	if (chroot(args->rootfs) < 0 || chdir("/") < 0)
		_exit(126);
	execv(args->argv[0], args->argv);
	_exit(127);
}

/* One namespaced child running argv in rootfs; returns its pid. */
static pid_t spawn(const char *rootfs, char *const *argv, int net)
{
	static char *stack;
	struct child_args args = { rootfs, argv };
	int flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | SIGCHLD;

	if (!stack && !(stack = malloc(STACK_SIZE)))
		return -1;
	if (net)
		flags |= CLONE_NEWNET;
	/* the stack is only used until exec; CLONE_VM is not set */
	return clone(contained, stack + STACK_SIZE, flags, &args);
}

static int wait_ok(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int floor_run(int n, const char *rootfs, int net)
{
	char *argv[] = { "/bin/true", NULL };
	long long *t = calloc((size_t)n, sizeof(*t));

	if (!t)
		return 1;
	for (int i = 0; i < n; i++) {
		long long t0 = now_ns();

		if (wait_ok(spawn(rootfs, argv, net)) < 0) {
			fprintf(stderr, "floor: run %d failed: %s\n", i, strerror(errno));
			return 1;
		}
		t[i] = now_ns() - t0;
	}
	printf("run%s: median %lld us\n", net ? "" : " (no net)", median(t, n) / 1000);
	return 0;
}

/* fork + exec /bin/true, its stdout on /dev/null; the child's pid */
static pid_t fork_true(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0)
			dup2(null, 1);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int floor_spawn(int n)
{
	long long *t = calloc((size_t)n, sizeof(*t));

	if (!t)
		return 1;
	for (int i = 0; i < n; i++) {
		long long t0 = now_ns();

		if (wait_ok(fork_true()) < 0) {
			fprintf(stderr, "floor: spawn %d failed\n", i);
			return 1;
		}
		t[i] = now_ns() - t0;
	}
	printf("spawn: median %lld us\n", median(t, n) / 1000);
	return 0;
}

static int floor_exec(int n, pid_t target)
{
	static const char *const names[] = { "ipc", "uts", "net", "pid", "mnt" };
	long long *t = calloc((size_t)n, sizeof(*t));

	if (!t)
		return 1;
	for (int i = 0; i < n; i++) {
		long long t0 = now_ns();
		pid_t pid = fork();

		if (pid == 0) {
			char path[64];

			for (size_t j = 0; j < sizeof(names) / sizeof(names[0]); j++) {
				int fd;

				snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)target, names[j]);
				fd = open(path, O_RDONLY | O_CLOEXEC);
				if (fd < 0 || setns(fd, 0) < 0)
					_exit(125);
				close(fd);
			}
			_exit(wait_ok(fork_true()) < 0 ? 1 : 0);
		}
		if (wait_ok(pid) < 0) {
			fprintf(stderr, "floor: exec %d into %d failed\n", i, (int)target);
			return 1;
		}
		t[i] = now_ns() - t0;
	}
	printf("exec: median %lld us\n", median(t, n) / 1000);
	return 0;
}

static int floor_par(int n, int p, const char *rootfs)
{
	char *argv[] = { "/bin/true", NULL };
	long long t0 = now_ns(), t1;
	int failed = 0;

	for (int w = 0; w < p; w++) {
		if (fork() == 0) {
			for (int i = w; i < n; i += p) {
				if (wait_ok(spawn(rootfs, argv, 1)) < 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < p; w++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;
	}
	t1 = now_ns();
	if (failed)
		return 1;
	printf("par: %.1f per second\n", n * 1e9 / (double)(t1 - t0));
	return 0;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int floor_hold(int n, const char *rootfs, const char *ready)
{
	char *argv[] = { "/bin/sleep", "1000000", NULL };
	pid_t *pids = calloc((size_t)n, sizeof(*pids));
	FILE *f;

	if (!pids)
		return 1;
	signal(SIGTERM, on_term);
	for (int i = 0; i < n; i++) {
		pids[i] = spawn(rootfs, argv, 1);
		if (pids[i] < 0) {
			fprintf(stderr, "floor: hold %d: %s\n", i, strerror(errno));
			n = i;
			break;
		}
	}
	f = fopen(ready, "w");
	if (f) {
		for (int i = 0; i < n; i++)
			fprintf(f, "%d\n", (int)pids[i]);
		fclose(f);
	}
	while (!stop)
		pause();
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 0;

	if (argc >= 4 && strcmp(argv[1], "run") == 0 && n > 0)
		return floor_run(n, argv[3], !(argc > 4 && strcmp(argv[4], "nonet") == 0));
	if (argc == 3 && strcmp(argv[1], "spawn") == 0 && n > 0)
		return floor_spawn(n);
	if (argc == 4 && strcmp(argv[1], "exec") == 0 && n > 0)
		return floor_exec(n, (pid_t)atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "par") == 0 && n > 0 && atoi(argv[3]) > 0)
		return floor_par(n, atoi(argv[3]), argv[4]);
	if (argc == 5 && strcmp(argv[1], "hold") == 0 && n > 0)
		return floor_hold(n, argv[3], argv[4]);
	fprintf(stderr, "usage: floor run N ROOTFS [nonet] | spawn N | exec N PID | par N P ROOTFS | hold N ROOTFS READY\n");
	return 2;
}
