/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "procattrs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "units.h"

/* sched_setattr(2)'s first layout (SCHED_ATTR_SIZE_VER0, 48 bytes): glibc
 * has no wrapper, and <linux/sched/types.h> clashes with <sched.h>. */
struct kc_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

/* <linux/ioprio.h> only from 6.0's uapi; the values are ABI. */
#define KC_IOPRIO_WHO_PROCESS 1
#define KC_IOPRIO_CLASS_SHIFT 13

static const struct {
	const char *name;
	uint32_t policy;
} sched_policies[] = {
	{"SCHED_OTHER", 0}, {"SCHED_FIFO", 1},  {"SCHED_RR", 2},       {"SCHED_BATCH", 3},
	{"SCHED_ISO", 4},   {"SCHED_IDLE", 5},  {"SCHED_DEADLINE", 6},
};

static const struct {
	const char *name;
	uint64_t flag;
} sched_flags[] = {
	{"SCHED_FLAG_RESET_ON_FORK", 0x01}, {"SCHED_FLAG_RECLAIM", 0x02},
	{"SCHED_FLAG_DL_OVERRUN", 0x04},    {"SCHED_FLAG_KEEP_POLICY", 0x08},
	{"SCHED_FLAG_KEEP_PARAMS", 0x10},   {"SCHED_FLAG_UTIL_CLAMP_MIN", 0x20},
	{"SCHED_FLAG_UTIL_CLAMP_MAX", 0x40},
};

static const struct {
	const char *name;
	int class;
} io_classes[] = {
	{"IOPRIO_CLASS_RT", 1}, {"IOPRIO_CLASS_BE", 2}, {"IOPRIO_CLASS_IDLE", 3},
};

static int set_affinity(const char *list, const char *what, kc_error_t *err)
{
	cpu_set_t set;

	if (list == NULL)
		return 0;
	if (!kc_cpu_list_parse(list, &set))
		return kc_error_set(err, EINVAL, "%s: invalid CPU list \"%s\"", what, list);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return kc_error_set(err, errno, "%s: sched_setaffinity \"%s\"", what, list);
	return 0;
}

int kc_procattrs_initial(const struct oci_process *p, kc_error_t *err)
{
	if (p->exec_cpu_affinity == NULL)
		return 0;
	return set_affinity(p->exec_cpu_affinity->initial, "process.execCPUAffinity.initial", err);
}

int kc_procattrs_final(const struct oci_process *p, kc_error_t *err)
{
	if (p->exec_cpu_affinity == NULL)
		return 0;
	return set_affinity(p->exec_cpu_affinity->final, "process.execCPUAffinity.final", err);
}

static int set_personality(const struct oci_personality *pers, kc_error_t *err)
{
	unsigned long domain = pers->domain == OCI_PERSONALITY_LINUX32 ? PER_LINUX32 : PER_LINUX;

	/* The spec defines no flag yet: refuse rather than ignore one. */
	if (pers->flags_len)
		return kc_error_set(err, EINVAL, "linux.personality.flags: \"%s\" is not supported",
				    pers->flags[0]);
	if (personality(domain) < 0)
		return kc_error_set(err, errno, "linux.personality: personality(%s)",
				    pers->domain == OCI_PERSONALITY_LINUX32 ? "LINUX32" : "LINUX");
	return 0;
}

static int set_scheduler(const struct oci_scheduler *s, kc_error_t *err)
{
	struct kc_sched_attr attr = {.size = sizeof(attr)};
	size_t i, j;

	for (i = 0; i < sizeof(sched_policies) / sizeof(sched_policies[0]); i++)
		if (strcmp(s->policy, sched_policies[i].name) == 0)
			break;
	if (i == sizeof(sched_policies) / sizeof(sched_policies[0]))
		return kc_error_set(err, EINVAL, "process.scheduler.policy: unknown policy \"%s\"",
				    s->policy);
	attr.sched_policy = sched_policies[i].policy;
	for (i = 0; i < s->flags_len; i++) {
		for (j = 0; j < sizeof(sched_flags) / sizeof(sched_flags[0]); j++)
			if (strcmp(s->flags[i], sched_flags[j].name) == 0)
				break;
		if (j == sizeof(sched_flags) / sizeof(sched_flags[0]))
			return kc_error_set(err, EINVAL, "process.scheduler.flags[%zu]: unknown flag \"%s\"",
					    i, s->flags[i]);
		attr.sched_flags |= sched_flags[j].flag;
	}
	attr.sched_nice = s->has_nice ? s->nice : 0;
	attr.sched_priority = s->has_priority ? (uint32_t)s->priority : 0;
	attr.sched_runtime = s->has_runtime ? s->runtime : 0;
	attr.sched_deadline = s->has_deadline ? s->deadline : 0;
	attr.sched_period = s->has_period ? s->period : 0;
	if (syscall(SYS_sched_setattr, 0, &attr, 0) < 0)
		return kc_error_set(err, errno, "process.scheduler: sched_setattr(%s)", s->policy);
	return 0;
}

static int set_io_priority(const struct oci_io_priority *prio, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < sizeof(io_classes) / sizeof(io_classes[0]); i++)
		if (strcmp(prio->class, io_classes[i].name) == 0)
			break;
	if (i == sizeof(io_classes) / sizeof(io_classes[0]))
		return kc_error_set(err, EINVAL, "process.ioPriority.class: unknown class \"%s\"",
				    prio->class);
	if (prio->priority < 0 || prio->priority > 7)
		return kc_error_set(err, EINVAL, "process.ioPriority.priority: %d is not in 0..7",
				    (int)prio->priority);
	if (syscall(SYS_ioprio_set, KC_IOPRIO_WHO_PROCESS, 0,
		    (io_classes[i].class << KC_IOPRIO_CLASS_SHIFT) | prio->priority) < 0)
		return kc_error_set(err, errno, "process.ioPriority: ioprio_set(%s, %d)",
				    prio->class, (int)prio->priority);
	return 0;
}

int kc_procattrs_apply(const struct oci_process *p, const struct oci_linux *lx, kc_error_t *err)
{
	if (lx && lx->personality && set_personality(lx->personality, err) < 0)
		return -1;
	if (p->scheduler && set_scheduler(p->scheduler, err) < 0)
		return -1;
	if (p->io_priority && set_io_priority(p->io_priority, err) < 0)
		return -1;
	return 0;
}

int kc_procattrs_oom_score_adj(pid_t pid, int value, kc_error_t *err)
{
	char path[64], buf[16];
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)pid);
	n = snprintf(buf, sizeof(buf), "%d", value);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "process.oomScoreAdj: open %s", path);
	if (write(fd, buf, (size_t)n) != n) {
		close(fd);
		return kc_error_set(err, errno, "process.oomScoreAdj: write %s", path);
	}
	close(fd);
	return 0;
}

int kc_procattrs_rlimits(const struct oci_process *p, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < p->rlimits_len; i++) {
		struct rlimit rl = {.rlim_cur = p->rlimits[i].soft, .rlim_max = p->rlimits[i].hard};

		/* the parser accepted only names of the same table */
		if (setrlimit(oci_rlimit_from_name(p->rlimits[i].type), &rl) < 0)
			return kc_error_set(err, errno, "setrlimit %s", p->rlimits[i].type);
	}
	return 0;
}
