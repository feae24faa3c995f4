/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keytool: raw keyctl(2), add_key(2), request_key(2) and fscrypt ioctls for
 * tests/bats/keys.bats (the busybox guest has no keyctl(1)); static.
 *
 * A failing call prints the errno's name alone (EACCES, ENOKEY, ...) on
 * stdout and exits 1; a usage error exits 2.  Keys and keyrings are
 * serials, or @t @p @s @u @us @req for the special keyrings.
 *
 *   add TYPE DESC DATA|- RING [PERM]   add_key (DATA "-": stdin); PERM hex
 *   request TYPE DESC [DEST]           request_key without callout
 *   request2 TYPE DESC CALLOUT [DEST]  with callout (an upcall if not found)
 *   fetch TYPE DESC CALLOUT            request2 into the process keyring, then
 *                                      print the payload (read as its possessor)
 *   describe KEY | read KEY | setperm KEY PERM | invalidate KEY | revoke KEY
 *   link KEY RING | unlink KEY RING | search RING TYPE DESC [DEST]
 *   new_session          a new possessor-only session keyring for the caller's
 *                        parent (the test's shell) and its later children
 *   set_policy DIR DESC  fscrypt v1 policy (AES-256-XTS/CTS, PAD_32), DESC 16 hex
 *   get_policy DIR       its descriptor
 *   fscrypt_key HEX      the 72-byte logon payload of a v1 key (128 hex digits)
 *   now                  CLOCK_MONOTONIC in ms (comparable with the guest's)
 *   poll TYPE DESC MS    request_key every MS ms until SIGTERM; one line per
 *                        try: "<now ms> OK <serial>" or "<now ms> <ERRNO>"
 *   flood TYPE N M KILL_MS   N processes × M requests of hostile descriptions
 *                        and callouts, each requester killed after KILL_MS ms
 *                        (one in four is left to finish); prints the counts
 *   dstate               pids of tasks in D state (uninterruptible), if any
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fscrypt.h>

#define KEYCTL_GET_KEYRING_ID 0
#define KEYCTL_JOIN_SESSION_KEYRING 1
#define KEYCTL_REVOKE 3
#define KEYCTL_SETPERM 5
#define KEYCTL_DESCRIBE 6
#define KEYCTL_LINK 8
#define KEYCTL_UNLINK 9
#define KEYCTL_SEARCH 10
#define KEYCTL_READ 11
#define KEYCTL_SESSION_TO_PARENT 18
#define KEYCTL_INVALIDATE 21

static long keyctl(int op, long a, long b, long c, long d)
{
	return syscall(SYS_keyctl, op, a, b, c, d);
}

static const char *errname(int e)
{
	static char buf[32];

	switch (e) {
	case EACCES: return "EACCES";
	case ENOKEY: return "ENOKEY";
	case EKEYREJECTED: return "EKEYREJECTED";
	case EKEYREVOKED: return "EKEYREVOKED";
	case EKEYEXPIRED: return "EKEYEXPIRED";
	case EDQUOT: return "EDQUOT";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOTDIR: return "ENOTDIR";
	case EBADF: return "EBADF";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ENODATA: return "ENODATA";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int fail(void)
{
	printf("%s\n", errname(errno));
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "keytool: bad usage (see tests/helpers/keytool.c)\n");
	return 2;
}

static long ring_of(const char *s)
{
	if (strcmp(s, "@t") == 0) return -1;
	if (strcmp(s, "@p") == 0) return -2;
	if (strcmp(s, "@s") == 0) return -3;
	if (strcmp(s, "@u") == 0) return -4;
	if (strcmp(s, "@us") == 0) return -5;
	if (strcmp(s, "@req") == 0) return -8;
	if (strcmp(s, "0") == 0) return 0;
	return strtol(s, NULL, 0);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *read_stdin(size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t got;

	while (buf && (got = read(0, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	*len = n;
	return buf;
}

static int hexbytes(const char *hex, unsigned char *out, size_t n)
{
	size_t i;

	if (strlen(hex) != 2 * n)
		return -1;
	for (i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return 0;
}

static int do_fetch(int op, long key)
{
	char buf[65536];
	long n = keyctl(op, key, (long)buf, sizeof(buf), 0);

	if (n < 0)
		return fail();
	if (op == KEYCTL_DESCRIBE) {
		printf("%s\n", buf);
	} else {
		fwrite(buf, 1, (size_t)n, stdout);
	}
	return 0;
}

static volatile sig_atomic_t stop;
static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int do_poll(const char *type, const char *desc, int ms)
{
	struct sigaction sa = {.sa_handler = on_term};

	sigaction(SIGTERM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!stop) {
		/* the time the request started: one that starts after a
		 * revocation returned must fail */
		long long t = now_ms();
		long k = syscall(SYS_request_key, type, desc, NULL, 0);

		if (k < 0)
			printf("%lld %s\n", t, errname(errno));
		else
			printf("%lld OK %ld\n", t, k);
		usleep((useconds_t)ms * 1000);
	}
	return 0;
}

/* Hostile strings: long random bytes, shell and printf syntax, newlines,
 * separators of the describe format, the longest request_key allows. */
static void hostile(char *buf, size_t cap, unsigned int seed, int which)
{
	static const char *const forms[] = {
		"$(reboot)", "`reboot`", "%n%n%n%s%s%s", "a;b;c;d;e", "line\nbreak\r\n",
		"../../../../etc/passwd", "-rf /", "kcrun:greeting", "\\x00\\", "'\"|&;<>",
	};
	size_t len, i;

	switch (which % 4) {
	case 0:
		snprintf(buf, cap, "%s", forms[seed % (sizeof(forms) / sizeof(forms[0]))]);
		break;
	case 1: /* long random printable and control bytes (no NUL) */
		len = 1000 + seed % (cap - 1001);
		for (i = 0; i < len; i++)
			buf[i] = (char)(1 + (rand_r(&seed) % 255));
		buf[len] = '\0';
		break;
	case 2: /* the longest: 4095 bytes */
		memset(buf, 'A' + seed % 26, cap - 1);
		buf[cap - 1] = '\0';
		break;
	default:
		snprintf(buf, cap, "flood:%u:%s", seed, forms[(seed / 7) % 10]);
	}
}

struct counts {
	long ok, edquot, enokey, rejected, killed, other;
};

static int do_flood(const char *type, int nproc, int nreq, int kill_ms)
{
	struct counts *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				-1, 0);
	int p, status;

	if (c == MAP_FAILED)
		return fail();
	memset(c, 0, sizeof(*c));
	for (p = 0; p < nproc; p++) {
		if (fork() != 0)
			continue;
		for (int i = 0; i < nreq; i++) {
			static char desc[4096], callout[4096];
			unsigned int seed = (unsigned int)(p * 100003 + i);
			pid_t pid;
			int pidfd;

			hostile(desc, sizeof(desc), seed, i);
			hostile(callout, sizeof(callout), seed * 31 + 1, i + p);
			pid = fork();
			if (pid == 0) {
				long k = syscall(SYS_request_key, type, desc, callout, -2);

				_exit(k < 0 ? (errno & 0xff) : 0);
			}
			if (pid < 0)
				continue;
			pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
			if (pidfd >= 0 && i % 4 != 0) {
				struct pollfd pf = {.fd = pidfd, .events = POLLIN};

				if (poll(&pf, 1, kill_ms) == 0)
					kill(pid, SIGKILL);
			}
			if (pidfd >= 0)
				close(pidfd);
			waitpid(pid, &status, 0);
			if (WIFSIGNALED(status))
				__atomic_fetch_add(&c->killed, 1, __ATOMIC_SEQ_CST);
			else if (WEXITSTATUS(status) == 0)
				__atomic_fetch_add(&c->ok, 1, __ATOMIC_SEQ_CST);
			else if (WEXITSTATUS(status) == EDQUOT)
				__atomic_fetch_add(&c->edquot, 1, __ATOMIC_SEQ_CST);
			else if (WEXITSTATUS(status) == ENOKEY)
				__atomic_fetch_add(&c->enokey, 1, __ATOMIC_SEQ_CST);
			else if (WEXITSTATUS(status) == EKEYREJECTED)
				__atomic_fetch_add(&c->rejected, 1, __ATOMIC_SEQ_CST);
			else
				__atomic_fetch_add(&c->other, 1, __ATOMIC_SEQ_CST);
		}
		_exit(0);
	}
	while (wait(&status) > 0)
		;
	printf("ok=%ld EDQUOT=%ld ENOKEY=%ld EKEYREJECTED=%ld killed=%ld other=%ld\n", c->ok,
	       c->edquot, c->enokey, c->rejected, c->killed, c->other);
	return 0;
}

static int do_dstate(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)) != NULL) {
		char path[300], buf[512], *p;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ' &&
		    p[2] == 'D') {
			printf("%s\n", e->d_name);
			found = 1;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	long r;

	if (strcmp(cmd, "add") == 0 && (argc == 6 || argc == 7)) {
		size_t len;
		char *data = strcmp(argv[4], "-") == 0 ? read_stdin(&len) : argv[4];

		if (data != argv[4] && data == NULL)
			return fail();
		if (data == argv[4])
			len = strlen(data);
		r = syscall(SYS_add_key, argv[2], argv[3], data, len, ring_of(argv[5]));
		if (r < 0)
			return fail();
		if (argc == 7 && keyctl(KEYCTL_SETPERM, r, strtol(argv[6], NULL, 16), 0, 0) < 0)
			return fail();
		printf("%ld\n", r);
		return 0;
	}
	if ((strcmp(cmd, "request") == 0 && (argc == 4 || argc == 5)) ||
	    (strcmp(cmd, "request2") == 0 && (argc == 5 || argc == 6))) {
		int two = cmd[7] == '2';
		const char *callout = two ? argv[4] : NULL;
		int dest_at = two ? 5 : 4;

		r = syscall(SYS_request_key, argv[2], argv[3], callout,
			    argc > dest_at ? ring_of(argv[dest_at]) : 0);
		if (r < 0)
			return fail();
		printf("%ld\n", r);
		return 0;
	}
	if (strcmp(cmd, "fetch") == 0 && argc == 5) {
		r = syscall(SYS_request_key, argv[2], argv[3], argv[4], -2);
		if (r < 0)
			return fail();
		return do_fetch(KEYCTL_READ, r);
	}
	if (strcmp(cmd, "describe") == 0 && argc == 3)
		return do_fetch(KEYCTL_DESCRIBE, ring_of(argv[2]));
	if (strcmp(cmd, "read") == 0 && argc == 3)
		return do_fetch(KEYCTL_READ, ring_of(argv[2]));
	if (strcmp(cmd, "setperm") == 0 && argc == 4)
		return keyctl(KEYCTL_SETPERM, ring_of(argv[2]), strtol(argv[3], NULL, 16), 0, 0) < 0
			       ? fail() : 0;
	if (strcmp(cmd, "invalidate") == 0 && argc == 3)
		return keyctl(KEYCTL_INVALIDATE, ring_of(argv[2]), 0, 0, 0) < 0 ? fail() : 0;
	if (strcmp(cmd, "revoke") == 0 && argc == 3)
		return keyctl(KEYCTL_REVOKE, ring_of(argv[2]), 0, 0, 0) < 0 ? fail() : 0;
	if (strcmp(cmd, "link") == 0 && argc == 4)
		return keyctl(KEYCTL_LINK, ring_of(argv[2]), ring_of(argv[3]), 0, 0) < 0 ? fail() : 0;
	if (strcmp(cmd, "unlink") == 0 && argc == 4)
		return keyctl(KEYCTL_UNLINK, ring_of(argv[2]), ring_of(argv[3]), 0, 0) < 0 ? fail() : 0;
	if (strcmp(cmd, "search") == 0 && (argc == 5 || argc == 6)) {
		r = keyctl(KEYCTL_SEARCH, ring_of(argv[2]), (long)argv[3], (long)argv[4],
			   argc == 6 ? ring_of(argv[5]) : 0);
		if (r < 0)
			return fail();
		printf("%ld\n", r);
		return 0;
	}
	if (strcmp(cmd, "new_session") == 0 && argc == 2) {
		r = keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0);
		if (r < 0 || keyctl(KEYCTL_SETPERM, r, 0x3f000000, 0, 0) < 0 ||
		    keyctl(KEYCTL_SESSION_TO_PARENT, 0, 0, 0, 0) < 0)
			return fail();
		printf("%ld\n", r);
		return 0;
	}
	if ((strcmp(cmd, "set_policy") == 0 && argc == 4) ||
	    (strcmp(cmd, "get_policy") == 0 && argc == 3)) {
		struct fscrypt_policy_v1 pol = {
			.version = FSCRYPT_POLICY_V1,
			.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
			.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
			.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
		};
		int fd = open(argv[2], O_RDONLY | O_DIRECTORY);

		if (fd < 0)
			return fail();
		if (cmd[0] == 's') {
			if (hexbytes(argv[3], pol.master_key_descriptor, 8) < 0)
				return usage();
			return ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &pol) < 0 ? fail() : 0;
		}
		if (ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, &pol) < 0)
			return fail();
		for (int i = 0; i < 8; i++)
			printf("%02x", pol.master_key_descriptor[i]);
		printf("\n");
		return 0;
	}
	if (strcmp(cmd, "fscrypt_key") == 0 && argc == 3) {
		struct fscrypt_key k = {.mode = 0, .size = FSCRYPT_MAX_KEY_SIZE};

		if (hexbytes(argv[2], k.raw, FSCRYPT_MAX_KEY_SIZE) < 0)
			return usage();
		return fwrite(&k, sizeof(k), 1, stdout) == 1 ? 0 : 1;
	}
	if (strcmp(cmd, "now") == 0 && argc == 2) {
		printf("%lld\n", now_ms());
		return 0;
	}
	if (strcmp(cmd, "poll") == 0 && argc == 5)
		return do_poll(argv[2], argv[3], atoi(argv[4]));
	if (strcmp(cmd, "flood") == 0 && argc == 6)
		return do_flood(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	if (strcmp(cmd, "dstate") == 0 && argc == 2)
		return do_dstate();
	return usage();
}
