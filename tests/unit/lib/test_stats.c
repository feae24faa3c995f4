/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of stats.c: runc's events JSON from a scratch directory
 * standing in for a cgroup v2 directory. */
#include "tap.h"
#include "src/lib/stats.h"

#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

static void contains(const char *json, const char *needle, const char *what)
{
	bool found = json && strstr(json, needle);

	if (!found)
		printf("# %s not in %s\n", needle, json ? json : "(null)");
	TAP_OK(found, "stats: %s", what);
}

void test_stats(void)
{
	char dir[] = "/tmp/kcrun-stats-XXXXXX";
	kc_error_t err = NULL;
	char *json = NULL;

	if (mkdtemp(dir) == NULL) {
		TAP_OK(0, "stats: scratch directory");
		return;
	}
	tap_put_file(dir, "cpu.stat", "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\nnr_periods 3\nnr_throttled 1\nthrottled_usec 7\n");
	tap_put_file(dir, "memory.stat", "file 4096\nanon 8192\nshmem 0\n");
	tap_put_file(dir, "memory.current", "12288\n");
	tap_put_file(dir, "memory.max", "max\n");
	tap_put_file(dir, "memory.peak", "20000\n");
	tap_put_file(dir, "memory.swap.current", "100\n");
	tap_put_file(dir, "memory.swap.max", "max\n");
	tap_put_file(dir, "pids.current", "3\n");
	tap_put_file(dir, "pids.max", "max\n");
	tap_put_file(dir, "io.stat", "8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0\n");
	tap_put_file(dir, "hugetlb.2MB.current", "0\n");
	tap_put_file(dir, "hugetlb.2MB.events", "max 4\n");
	tap_put_file(dir, "memory.events", "low 0\nhigh 0\nmax 9\noom 2\noom_kill 2\n");

	TAP_CALL_OK(kc_stats_event_json("c1", dir, &json, &err), err, "stats: event of a full cgroup");
	contains(json, "{\"type\":\"stats\",\"id\":\"c1\",\"data\":{\"cpu\":{\"usage\":{\"total\":1500000,"
		       "\"kernel\":500000,\"user\":1000000},\"throttling\":{\"periods\":3,"
		       "\"throttledPeriods\":1,\"throttledTime\":7000}},", "cpu in ns, runc's names");
	contains(json, "\"cpuset\":{\"cpu_exclusive\":0,", "cpuset zeros as runc");
	contains(json, "\"memory\":{\"cache\":4096,\"usage\":{\"limit\":18446744073709551615,"
		       "\"usage\":12288,\"max\":20000,\"failcnt\":0},", "memory usage, max as 2^64-1, peak");
	contains(json, "\"swap\":{\"limit\":18446744073709551615,\"usage\":12388,\"failcnt\":0}",
		 "swap is memory+swap");
	contains(json, "\"kernel\":{\"limit\":0,\"failcnt\":0},\"kernelTCP\":{\"limit\":0,\"failcnt\":0}",
		 "kernel entries");
	contains(json, "\"raw\":{\"anon\":8192,\"file\":4096,\"shmem\":0}", "raw sorted");
	contains(json, "\"pids\":{\"current\":3}", "pids limit max is left out");
	contains(json, "\"blkio\":{\"ioServiceBytesRecursive\":[{\"major\":8,\"op\":\"Read\",\"value\":10},"
		       "{\"major\":8,\"op\":\"Write\",\"value\":20}],\"ioServicedRecursive\":[{\"major\":8,"
		       "\"op\":\"Read\",\"value\":1},{\"major\":8,\"op\":\"Write\",\"value\":2}]}", "blkio from io.stat");
	contains(json, "\"hugetlb\":{\"2MB\":{\"failcnt\":4}}", "hugetlb");
	contains(json, "\"intel_rdt\":{},\"network_interfaces\":null}}", "tail as runc");
	free(json);
	json = NULL;
	TAP_OK(kc_stats_oom_kills(dir) == 2, "stats: oom_kill from memory.events");

	tap_put_file(dir, "memory.max", "1000\n");
	tap_put_file(dir, "memory.swap.max", "500\n");
	tap_put_file(dir, "pids.max", "9\n");
	TAP_CALL_OK(kc_stats_event_json("c1", dir, &json, &err), err, "stats: event with limits");
	contains(json, "\"usage\":{\"limit\":1000,", "memory limit");
	contains(json, "\"swap\":{\"limit\":1500,", "swap limit is memory+swap");
	contains(json, "\"pids\":{\"current\":3,\"limit\":9}", "pids limit");
	free(json);
	json = NULL;

	TAP_CALL_OK(kc_oom_event_json("c1", &json, &err), err, "stats: oom event");
	TAP_OK(json && strcmp(json, "{\"type\":\"oom\",\"id\":\"c1\"}") == 0, "stats: oom event is runc's");
	free(json);
	json = NULL;

	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	}
	TAP_CALL_OK(kc_stats_event_json("c1", "/nonexistent/kcrun", &json, &err), err,
		    "stats: a cgroup without files gives zeros");
	contains(json, "\"pids\":{}", "no pids");
	TAP_OK(kc_stats_oom_kills("/nonexistent/kcrun") == 0, "stats: no memory.events: 0 oom kills");
	free(json);
}
