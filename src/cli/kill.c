/* kcrun kill: see kcrun(8). */
#include <signal.h>

#include "cli.h"
#include "lib/container.h"
#include "lib/signals.h"

int kc_cmd_kill(struct kc_global *g, int argc, char **argv)
{
	bool all = false;
	struct kc_opt opts[] = {
		{"all", 'a', KC_OPT_FLAG, &all,
		 "send the specified signal to all processes inside the container"},
		{NULL, 0, 0, NULL, NULL},
	};
	kc_error_t err = NULL;
	int first, sig = SIGTERM;

	if (kc_cli_parse("kill", opts, argc, argv, &first) < 0)
		return 1;
	if (first + 1 < argc && argv[first + 1][0] != '\0') { /* runc: "" is SIGTERM */
		sig = kc_parse_signal(argv[first + 1]);
		if (sig < 0) {
			kc_error_set(&err, 0, "unknown signal \"%s\"", argv[first + 1]);
			return kc_cli_fail(&err);
		}
	}
	if (kc_kill(g->root, argv[first], sig, all, &err) < 0)
		return kc_cli_fail(&err);
	return 0;
}
