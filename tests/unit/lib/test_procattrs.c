/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of procattrs.c: execCPUAffinity's CPU lists, and the process
 * attributes applied to a forked child (personality, SCHED_IDLE, an idle
 * I/O class: nothing a test process may not do to itself). */
#include "tap.h"
#include "src/lib/procattrs.h"
#include "src/lib/units.h"

#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_cpu_lists(void)
{
	static const struct {
		const char *list;
		int cpus[8];
		int count;
	} good[] = {
		{"0", {0}, 1},
		{"0-3", {0, 1, 2, 3}, 4},
		{"0-1,7", {0, 1, 7}, 3},
		{"2,4-5", {2, 4, 5}, 3},
		{"5-5", {5}, 1},
	};
	static const char *const bad[] = {
		"", "a", "-1", "1-", "3-1", "1,", ",1", "1,,2", "1 2", " 1", "0-99999", "1-2-3",
	};
	size_t i;
	int j;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		cpu_set_t set;
		int ok = kc_cpu_list_parse(good[i].list, &set) && CPU_COUNT(&set) == good[i].count;

		for (j = 0; ok && j < good[i].count; j++)
			ok = CPU_ISSET(good[i].cpus[j], &set);
		TAP_OK(ok, "procattrs: cpu list \"%s\"", good[i].list);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct oci_exec_cpu_affinity affinity = {.final = (char *)bad[i]};
		struct oci_process p = {.exec_cpu_affinity = &affinity};
		kc_error_t err = NULL;
		int rc = kc_procattrs_final(&p, &err);

		TAP_OK(rc < 0 && err && strstr(err->msg, "process.execCPUAffinity.final"),
		       "procattrs: cpu list \"%s\" is refused, naming the field", bad[i]);
		kc_error_free(&err);
	}
	/* Without a set only the syntax counts: the kernel judges the numbers. */
	TAP_OK(kc_cpu_list_parse("0-99999", NULL), "units: a cpuset list is not bounded without a set");
	TAP_OK(!kc_cpu_list_parse("1,,2", NULL), "units: a cpuset list's syntax is checked without a set");
}

/* Runs kc_procattrs_apply in a child; returns what the child saw packed
 * as personality | policy << 8 | ioprio class << 16, or -1. */
static int applied_in_child(const struct oci_process *p, const struct oci_linux *lx)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		kc_error_t err = NULL;
		int pers, policy, prio;

		if (kc_procattrs_apply(p, lx, &err) < 0)
			_exit(255);
		pers = personality(0xffffffff) & 0xff;
		policy = sched_getscheduler(0);
		prio = (int)syscall(SYS_ioprio_get, 1, 0) >> 13;
		_exit((pers ? 1 : 0) | policy << 1 | prio << 4);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

void test_procattrs(void)
{
	struct oci_scheduler idle = {.policy = "SCHED_IDLE"};
	struct oci_scheduler bogus = {.policy = "SCHED_BOGUS"};
	struct oci_io_priority io_idle = {.class = "IOPRIO_CLASS_IDLE", .priority = 0};
	struct oci_io_priority io_bad = {.class = "IOPRIO_CLASS_BE", .priority = 9};
	char *flag = "SOME_FLAG";
	struct oci_personality linux32 = {.domain = OCI_PERSONALITY_LINUX32};
	struct oci_personality flagged = {.domain = OCI_PERSONALITY_LINUX, .flags = &flag, .flags_len = 1};
	struct oci_linux lx = {.personality = &linux32};
	struct oci_linux lx_flagged = {.personality = &flagged};
	struct oci_process p = {0};
	int got;

	test_cpu_lists();

	p.scheduler = &idle;
	p.io_priority = &io_idle;
	got = applied_in_child(&p, &lx);
	TAP_OK(got == (1 | 5 << 1 | 3 << 4),
	       "procattrs: LINUX32, SCHED_IDLE and IOPRIO_CLASS_IDLE applied (got %#x)", got);

	p.scheduler = &bogus;
	p.io_priority = NULL;
	TAP_OK(applied_in_child(&p, NULL) == 255, "procattrs: an unknown policy is refused");
	p.scheduler = NULL;
	p.io_priority = &io_bad;
	TAP_OK(applied_in_child(&p, NULL) == 255, "procattrs: I/O priority 9 is refused");
	p.io_priority = NULL;
	TAP_OK(applied_in_child(&p, &lx_flagged) == 255, "procattrs: personality flags are refused");
}
