/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "signals.h"

#include <ctype.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int kc_parse_signal(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = {
		{"HUP", SIGHUP},   {"INT", SIGINT},     {"QUIT", SIGQUIT}, {"ILL", SIGILL},
		{"TRAP", SIGTRAP}, {"ABRT", SIGABRT},   {"IOT", SIGIOT},   {"BUS", SIGBUS},
		{"FPE", SIGFPE},   {"KILL", SIGKILL},   {"USR1", SIGUSR1}, {"SEGV", SIGSEGV},
		{"USR2", SIGUSR2}, {"PIPE", SIGPIPE},   {"ALRM", SIGALRM}, {"TERM", SIGTERM},
		{"STKFLT", SIGSTKFLT}, {"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP},
		{"TSTP", SIGTSTP}, {"TTIN", SIGTTIN},   {"TTOU", SIGTTOU}, {"URG", SIGURG},
		{"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ},   {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF},
		{"WINCH", SIGWINCH}, {"IO", SIGIO},     {"POLL", SIGPOLL}, {"PWR", SIGPWR},
		{"SYS", SIGSYS},
	};
	const char *name = s;
	char *end;
	long n;
	size_t i;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	/* As runc: a number as is (0 probes that init exists); numbers no
	 * kill(2) takes are refused here rather than by the kernel. */
	n = strtol(s, &end, 10);
	if (*end == '\0')
		return n >= 0 && n < NSIG ? (int)n : -1;
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i].name) == 0)
			return names[i].sig;
	if (strncasecmp(name, "RTMIN", 5) == 0 || strncasecmp(name, "RTMAX", 5) == 0) {
		/* RTMIN, RTMIN+N, RTMAX-N: a sign, then digits only. */
		bool sign = name[5] == '+' || name[5] == '-';
		long off = sign && isdigit((unsigned char)name[6]) ? strtol(name + 5, &end, 10) : 0;

		if (name[5] == '\0' || (sign && isdigit((unsigned char)name[6]) && *end == '\0')) {
			int sig = strncasecmp(name, "RTMIN", 5) == 0 ? SIGRTMIN + (int)off
								     : SIGRTMAX + (int)off;
			if (sig >= SIGRTMIN && sig <= SIGRTMAX)
				return sig;
		}
	}
	return -1;
}

void kc_signals_reset(void)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	int sig;

	/* SIGKILL, SIGSTOP and glibc's internal signals refuse: nothing to do */
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
