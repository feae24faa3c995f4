/* kcrun events [--stats] [--interval D] ID: runc's events command.  With
 * --stats one stats event, then exit; without, a stats event every interval
 * and an oom event whenever memory.events' oom_kill count goes up, until
 * the container stops (exit 0).  memory.events and cgroup.events are
 * watched with inotify, so an OOM kill is reported when it happens, not at
 * the next tick. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lib/cleanup.h"
#include "lib/state.h"
#include "lib/stats.h"
#include "lib/units.h"

/* How often the loop looks at the container's status at the latest. */
#define EVENTS_STATUS_CHECK_MS 500

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int print_event(int (*make)(const char *, const char *, char **, kc_error_t *), const char *id,
		       const char *dir, kc_error_t *err)
{
	cleanup_free char *json = NULL;

	if (make(id, dir, &json, err) < 0)
		return -1;
	printf("%s\n", json);
	fflush(stdout);
	return 0;
}

static int make_oom(const char *id, const char *dir, char **json, kc_error_t *err)
{
	(void)dir;
	return kc_oom_event_json(id, json, err);
}

/* Events until the container stops. */
static int watch(const char *root, const struct kc_state *st, int64_t interval_ns, kc_error_t *err)
{
	const char *dir = st->cgroup_path;
	cleanup_close int inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	uint64_t oom_kills = kc_stats_oom_kills(dir);
	int64_t next_tick = now_ns() + interval_ns;

	if (inotify_fd >= 0) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/memory.events", dir);
		inotify_add_watch(inotify_fd, path, IN_MODIFY);
		snprintf(path, sizeof(path), "%s/cgroup.events", dir);
		inotify_add_watch(inotify_fd, path, IN_MODIFY);
	}
	for (;;) {
		struct pollfd pfd = { .fd = inotify_fd, .events = POLLIN };
		int64_t wait_ms = (next_tick - now_ns()) / 1000000;
		uint64_t kills;
		char drain[4096];

		if (wait_ms > EVENTS_STATUS_CHECK_MS)
			wait_ms = EVENTS_STATUS_CHECK_MS;
		if (wait_ms > 0)
			poll(&pfd, inotify_fd >= 0 ? 1 : 0, (int)wait_ms);
		while (inotify_fd >= 0 && read(inotify_fd, drain, sizeof(drain)) > 0)
			;
		kills = kc_stats_oom_kills(dir);
		if (kills > oom_kills && print_event(make_oom, st->id, dir, err) < 0)
			return -1;
		oom_kills = kills;
		if (kc_state_status(root, st) == OCI_STATUS_STOPPED || access(dir, F_OK) < 0)
			return 0;
		if (now_ns() >= next_tick) {
			if (print_event(kc_stats_event_json, st->id, dir, err) < 0)
				return -1;
			next_tick += interval_ns;
			if (next_tick < now_ns())
				next_tick = now_ns() + interval_ns;
		}
	}
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
	struct kc_state st;
	kc_error_t err = NULL;
	int64_t interval_ns;
	int first, ret;

	if (kc_cli_parse("events", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_parse_duration(interval, &interval_ns, &err) < 0) {
		kc_error_wrap(&err, "invalid value \"%s\" for flag -interval", interval);
		return kc_cli_fail(&err);
	}
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	if (interval_ns <= 0)
		ret = kc_error_set(&err, 0, "duration interval must be greater than 0");
	else if (kc_state_status(g->root, &st) == OCI_STATUS_STOPPED)
		ret = kc_error_set(&err, 0, "container with id %s is not running", st.id);
	else if (st.cgroup_path == NULL || *st.cgroup_path == '\0')
		ret = kc_error_set(&err, 0, "container with id %s has no cgroup", st.id);
	else if (stats)
		ret = print_event(kc_stats_event_json, st.id, st.cgroup_path, &err);
	else
		ret = watch(g->root, &st, interval_ns, &err);
	kc_state_free(&st);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}
