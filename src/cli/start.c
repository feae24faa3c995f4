/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun start: see kcrun(8). */
#include "cli.h"
#include "lib/container.h"
#include "lib/log.h"

int kc_cmd_start(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse("start", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_start(g->root, argv[first], &err) < 0)
		return kc_cli_fail(&err);
	kc_log_debug("start: container %s released from the exec fifo", argv[first]);
	return 0;
}
