#include "signals.h"

#include <signal.h>
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

	if (s == NULL || *s == '\0')
		return -1;
	n = strtol(s, &end, 10);
	if (*end == '\0')
		return n > 0 && n < NSIG ? (int)n : -1;
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(name, names[i].name) == 0)
			return names[i].sig;
	if (strncasecmp(name, "RTMIN", 5) == 0 || strncasecmp(name, "RTMAX", 5) == 0) {
		long off = name[5] ? strtol(name + 5, &end, 10) : 0;

		if (*end == '\0' || name[5] == '\0') {
			int sig = strncasecmp(name, "RTMIN", 5) == 0 ? SIGRTMIN + (int)off
								     : SIGRTMAX + (int)off;
			if (sig >= SIGRTMIN && sig <= SIGRTMAX)
				return sig;
		}
	}
	return -1;
}
