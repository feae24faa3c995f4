/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun delete: see kcrun(8). */
#include "cli.h"
#include "lib/container.h"
#include "lib/log.h"

int kc_cmd_delete(struct kc_global *g, int argc, char **argv)
{
	bool force = false;
	struct kc_opt opts[] = {
		{"force", 'f', KC_OPT_FLAG, &force,
		 "Forcibly deletes the container if it is still running (uses SIGKILL)"},
		{NULL, 0, 0, NULL, NULL},
	};
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse("delete", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_delete(g->root, argv[first], force, &err) < 0)
		return kc_cli_fail(&err);
	kc_log_debug("delete: container %s deleted", argv[first]);
	return 0;
}
