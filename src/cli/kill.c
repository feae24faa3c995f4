/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun kill: see kcrun(8). */
#include <ctype.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "lib/container.h"
#include "lib/signals.h"
#include "lib/state.h"

/* strconv.Atoi's syntax (an optional sign, decimal digits): runc takes any
 * such number as a signal and lets kill(2) refuse it. */
static bool is_go_int(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int kc_cmd_kill(struct kc_global *g, int argc, char **argv)
{
	bool all = false;
	struct kc_opt opts[] = {
		{"all", 'a', KC_OPT_FLAG, &all,
		 "send the specified signal to all processes inside the container"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_state st;
	kc_error_t err = NULL;
	int first, sig = SIGTERM;

	if (kc_cli_parse("kill", opts, argc, argv, &first) < 0)
		return 1;
	/* runc's order: the container must exist before the signal is read. */
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	kc_state_free(&st);
	if (first + 1 < argc && argv[first + 1][0] != '\0') { /* runc: "" is SIGTERM */
		const char *arg = argv[first + 1];

		sig = kc_parse_signal(arg);
		/* A number no kill(2) takes: KC_KILL_BAD_SIGNAL, refused by
		 * kc_kill as the kernel refuses it (after the status check). */
		if (sig < 0 && is_go_int(arg) && strlen(arg) < 19)
			sig = KC_KILL_BAD_SIGNAL;
		else if (sig < 0) {
			kc_error_set(&err, 0, "unknown signal \"%s\"", arg);
			return kc_cli_fail(&err);
		}
	}
	if (kc_kill(g->root, argv[first], sig, all, &err) < 0)
		return kc_cli_fail(&err);
	return 0;
}
