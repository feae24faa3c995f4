/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the signal names `kcrun kill` takes (signals.c), against
 * runc 1.1's parseSignal: a number as is, else the name upper-cased, with
 * or without "SIG".  kcrun also takes RTMIN+N / RTMAX-N (as kill(1) does)
 * and refuses numbers no kill(2) would take. */
#include "tap.h"
#include "src/lib/signals.h"

#include <signal.h>

void test_signals(void)
{
	const struct {
		const char *text;
		int sig;
	} good[] = {
		{"KILL", SIGKILL}, {"SIGKILL", SIGKILL}, {"kill", SIGKILL}, {"sigkill", SIGKILL},
		{"SigTerm", SIGTERM}, {"TERM", SIGTERM}, {"HUP", SIGHUP}, {"SIGUSR1", SIGUSR1},
		{"usr2", SIGUSR2}, {"WINCH", SIGWINCH}, {"SIGCHLD", SIGCHLD}, {"STOP", SIGSTOP},
		{"CONT", SIGCONT}, {"PWR", SIGPWR}, {"SYS", SIGSYS}, {"STKFLT", SIGSTKFLT},
		{"9", 9}, {"15", 15}, {"1", 1}, {"+9", 9},
		/* 0 sends nothing and checks that init exists, as runc's kill 0 does. */
		{"0", 0},
		{"64", 64},
	};
	static const char *bad[] = {
		"", "SIG", "sig", "FOO", "SIGFOO", "KILLX", "SIGSIGKILL", "SIG KILL", " KILL", "KILL ",
		"-1", "-9", "65", "1000", "99999999999999999999", " 9", "9 ", "9x", "0x9", "SIG9",
		"RTMIN3", "RTMIN+", "RTMIN+ 3", "RTMIN+-3", "RTMIN-1", "RTMAX+1", "RTMIN+31", "RTMINX",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int got = kc_parse_signal(good[i].text);

		TAP_OK(got == good[i].sig, "signals: \"%s\" is %d (got %d)", good[i].text, good[i].sig, got);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int got = kc_parse_signal(bad[i]);

		TAP_OK(got == -1, "signals: \"%s\" is refused (got %d)", bad[i], got);
	}
	TAP_OK(kc_parse_signal(NULL) == -1, "signals: NULL is refused");
	TAP_OK(kc_parse_signal("RTMIN") == SIGRTMIN && kc_parse_signal("SIGRTMIN") == SIGRTMIN,
	       "signals: RTMIN and SIGRTMIN are SIGRTMIN (%d)", SIGRTMIN);
	TAP_OK(kc_parse_signal("SIGRTMIN+3") == SIGRTMIN + 3 && kc_parse_signal("rtmin+3") == SIGRTMIN + 3,
	       "signals: SIGRTMIN+3 and rtmin+3");
	TAP_OK(kc_parse_signal("RTMAX-2") == SIGRTMAX - 2 && kc_parse_signal("SIGRTMAX") == SIGRTMAX,
	       "signals: RTMAX-2 and SIGRTMAX");
	TAP_OK(kc_parse_signal("RTMIN+30") == SIGRTMAX && SIGRTMIN + 30 == SIGRTMAX,
	       "signals: RTMIN+30 is the last real-time signal");
}
