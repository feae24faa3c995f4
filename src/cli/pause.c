/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun pause / resume: freeze and thaw the container's cgroup. */
#include "cli.h"
#include "lib/loaded.h"

static int freeze(struct kc_global *g, const char *cmd, int argc, char **argv, bool on)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_container c;
	kc_error_t err = NULL;
	int first, ret;

	if (kc_cli_parse(cmd, opts, argc, argv, &first) < 0)
		return 1;
	if (kc_container_load(g->root, argv[first], &c, &err) < 0)
		return kc_cli_fail(&err);
	ret = on ? kc_pause(&c, &err) : kc_resume(&c, &err);
	kc_container_release(&c);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}

int kc_cmd_pause(struct kc_global *g, int argc, char **argv)
{
	return freeze(g, "pause", argc, argv, true);
}

int kc_cmd_resume(struct kc_global *g, int argc, char **argv)
{
	return freeze(g, "resume", argc, argv, false);
}
