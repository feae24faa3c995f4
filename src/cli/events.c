/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun events [--stats] [--interval D] ID: runc's events command.  With
 * --stats one stats event, then exit; without, a stats event every interval
 * and an oom event whenever the container's cgroup counts an OOM kill,
 * until the container stops (exit 0).  The loop is kc_events() (loaded.h);
 * each event is one line of JSON on stdout. */
#include <stdio.h>

#include "cli.h"
#include "lib/loaded.h"
#include "lib/units.h"

static int print_event(const char *json, void *data)
{
	(void)data;
	printf("%s\n", json);
	fflush(stdout);
	return 0;
}

int kc_cmd_events(struct kc_global *g, int argc, char **argv)
{
	const char *interval = "5s";
	bool stats = false;
	struct kc_opt opts[] = {
		{"interval", 0, KC_OPT_STRING, &interval, "set the stats collection interval (default: 5s)"},
		{"stats", 0, KC_OPT_FLAG, &stats, "display the container's stats then exit"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_container c;
	kc_error_t err = NULL;
	int64_t interval_ns;
	int first, ret;

	if (kc_cli_parse("events", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_parse_duration(interval, &interval_ns, &err) < 0) {
		kc_error_wrap(&err, "invalid value \"%s\" for flag -interval", interval);
		return kc_cli_fail(&err);
	}
	if (kc_container_load(g->root, argv[first], &c, &err) < 0)
		return kc_cli_fail(&err);
	if (interval_ns <= 0)
		ret = kc_error_set(&err, 0, "duration interval must be greater than 0");
	else
		ret = kc_events(&c, interval_ns, stats, print_event, NULL, &err);
	kc_container_release(&c);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}
