/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun update: runc's flags (--memory, --cpu-quota, --pids-limit, ...) or
 * --resources FILE, into the container's cgroup.
 *
 * The flags become a linux.resources object, written by kc_update()
 * (loaded.h) with the same writers as create's, so each maps onto cgroup v2
 * the way runc 1.1 does (cgroup_resources.h).  As with runc, a flag left out
 * (or 0) leaves its file alone, and with --resources the other flags are
 * ignored.  Every flag is checked here before anything is written; what was
 * written before a value the kernel refuses is put back, on both inputs: a
 * failed update changes nothing.  An error about a field a flag set names
 * the flag. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/cgroup_resources.h"
#include "lib/loaded.h"
#include "lib/log.h"
#include "lib/units.h"

struct update_flags {
	const char *resources;
	/* integer flags, as runc's: a value that is no integer is a usage
	 * error, before the container is looked up; 0 is "left out" */
	int64_t blkio_weight, pids_limit;
	const char *cpu_period, *cpu_quota, *cpu_share, *cpu_rt_period, *cpu_rt_runtime;
	/* runc 1.2's: given is set, 0 included (cpu.max.burst, cpu.idle) */
	const char *cpu_burst, *cpu_idle;
	const char *cpuset_cpus, *cpuset_mems;
	const char *memory, *memory_reservation, *memory_swap;
	const char *kernel_memory, *kernel_memory_tcp;
	const char *l3_cache_schema, *mem_bw_schema;
};

/* Which flag set a linux.resources field, to name it in write errors. */
static const struct {
	const char *field, *flag;
} field_flags[] = {
	{"linux.resources.memory.limit", "--memory"},
	{"linux.resources.memory.reservation", "--memory-reservation"},
	{"linux.resources.memory.swap", "--memory-swap"},
	{"linux.resources.cpu.shares", "--cpu-share"},
	{"linux.resources.cpu.quota", "--cpu-quota/--cpu-period"},
	{"linux.resources.cpu.period", "--cpu-period"},
	{"linux.resources.cpu.burst", "--cpu-burst"},
	{"linux.resources.cpu.idle", "--cpu-idle"},
	{"linux.resources.cpu.cpus", "--cpuset-cpus"},
	{"linux.resources.cpu.mems", "--cpuset-mems"},
	{"linux.resources.pids.limit", "--pids-limit"},
	{"linux.resources.blockIO.weight", "--blkio-weight"},
};

static int parse_u64(const char *flag, const char *text, uint64_t *out, kc_error_t *err)
{
	char *end;

	errno = 0;
	if (text[0] == '-' || text[0] == '+' || text[0] == '\0')
		goto invalid;
	*out = strtoull(text, &end, 10);
	if (errno == 0 && *end == '\0')
		return 0;
invalid:
	return kc_error_set(err, 0, "invalid value for %s: \"%s\" is not an unsigned integer", flag, text);
}

static int parse_i64(const char *flag, const char *text, int64_t *out, kc_error_t *err)
{
	char *end;

	errno = 0;
	*out = strtoll(text, &end, 10);
	if (text[0] == '\0' || text[0] == '+' || errno != 0 || *end != '\0')
		return kc_error_set(err, 0, "invalid value for %s: \"%s\" is not an integer", flag, text);
	return 0;
}

/* A size ("100M", "1g", ...) or -1 (unlimited), as runc's memory flags. */
static int parse_memory(const char *flag, const char *text, int64_t *out, kc_error_t *err)
{
	if (strcmp(text, "-1") == 0) {
		*out = -1;
		return 0;
	}
	if (kc_parse_ram_in_bytes(text, out, err) < 0)
		return kc_error_wrap(err, "invalid value for %s", flag);
	return 0;
}

/* cpuset lists: "0-3,5", the syntax the kernel takes. */
static int check_cpuset_list(const char *flag, const char *text, kc_error_t *err)
{
	if (kc_cpu_list_parse(text, NULL))
		return 0;
	return kc_error_set(err, 0, "invalid value for %s: \"%s\" is not a list like 0-3,5", flag, text);
}

/* The flags as a linux.resources object; nothing is written yet. */
static int resources_from_flags(const struct update_flags *f, struct oci_resources *r,
				kc_error_t *err)
{
	struct oci_memory *memory = r->memory;
	struct oci_cpu *cpu = r->cpu;
	int64_t ignored;

	if (f->l3_cache_schema && *f->l3_cache_schema)
		return kc_error_set(err, 0, "Intel RDT/CAT: l3 cache schema is not enabled (--l3-cache-schema: kcrun has no Intel RDT support)");
	if (f->mem_bw_schema && *f->mem_bw_schema)
		return kc_error_set(err, 0, "Intel RDT/MBA: memory bandwidth schema is not enabled (--mem-bw-schema: kcrun has no Intel RDT support)");
	if (f->blkio_weight) {
		if (f->blkio_weight < 10 || f->blkio_weight > 1000)
			return kc_error_set(err, 0, "invalid value for --blkio-weight: %" PRId64 " is not in 10..1000",
					    f->blkio_weight);
		r->block_io->has_weight = true;
		r->block_io->weight = (uint16_t)f->blkio_weight;
	}
	if (f->cpu_share && parse_u64("--cpu-share", f->cpu_share, &cpu->shares, err) < 0)
		return -1;
	cpu->has_shares = cpu->shares != 0;
	if (f->cpu_period && parse_u64("--cpu-period", f->cpu_period, &cpu->period, err) < 0)
		return -1;
	if (f->cpu_quota && parse_i64("--cpu-quota", f->cpu_quota, &cpu->quota, err) < 0)
		return -1;
	if (f->cpu_rt_period && parse_u64("--cpu-rt-period", f->cpu_rt_period, &cpu->realtime_period, err) < 0)
		return -1;
	if (f->cpu_rt_runtime &&
	    parse_i64("--cpu-rt-runtime", f->cpu_rt_runtime, &cpu->realtime_runtime, err) < 0)
		return -1;
	if (f->cpu_burst) {
		if (parse_u64("--cpu-burst", f->cpu_burst, &cpu->burst, err) < 0)
			return -1;
		cpu->has_burst = true;
	}
	if (f->cpu_idle) {
		if (strcmp(f->cpu_idle, "0") != 0 && strcmp(f->cpu_idle, "1") != 0)
			return kc_error_set(err, 0, "invalid value for --cpu-idle: \"%s\" is not 0 or 1",
					    f->cpu_idle);
		cpu->idle = f->cpu_idle[0] - '0';
		cpu->has_idle = true;
	}
	if (cpu->realtime_period != 0 || cpu->realtime_runtime != 0)
		return kc_error_set(err, 0, "--cpu-rt-period/--cpu-rt-runtime: the cgroup v2 cpu controller has no realtime budget");
	if (f->cpuset_cpus && *f->cpuset_cpus) {
		if (check_cpuset_list("--cpuset-cpus", f->cpuset_cpus, err) < 0)
			return -1;
		cpu->cpus = strdup(f->cpuset_cpus);
	}
	if (f->cpuset_mems && *f->cpuset_mems) {
		if (check_cpuset_list("--cpuset-mems", f->cpuset_mems, err) < 0)
			return -1;
		cpu->mems = strdup(f->cpuset_mems);
	}
	if ((f->cpuset_cpus && *f->cpuset_cpus && !cpu->cpus) ||
	    (f->cpuset_mems && *f->cpuset_mems && !cpu->mems))
		return kc_error_set(err, ENOMEM, "update");
	if (f->memory && parse_memory("--memory", f->memory, &memory->limit, err) < 0)
		return -1;
	if (f->memory_swap && parse_memory("--memory-swap", f->memory_swap, &memory->swap, err) < 0)
		return -1;
	if (f->memory_reservation &&
	    parse_memory("--memory-reservation", f->memory_reservation, &memory->reservation, err) < 0)
		return -1;
	if (f->kernel_memory && parse_memory("--kernel-memory", f->kernel_memory, &ignored, err) < 0)
		return -1;
	if (f->kernel_memory_tcp &&
	    parse_memory("--kernel-memory-tcp", f->kernel_memory_tcp, &ignored, err) < 0)
		return -1;
	memory->has_limit = memory->limit != 0;
	memory->has_swap = memory->swap != 0;
	memory->has_reservation = memory->reservation != 0;
	r->pids->limit = f->pids_limit;
	r->pids->has_limit = r->pids->limit != 0;

	/* memory.swap.max = swap - memory: checked here, before any write. */
	{
		char swap_max[32];

		if (kc_cgroup_swap_max(memory->swap, memory->limit, swap_max, err) < 0)
			return kc_error_wrap(err, "--memory-swap");
	}
	cpu->has_period = cpu->period != 0;
	cpu->has_quota = cpu->quota != 0;
	if (f->kernel_memory || f->kernel_memory_tcp)
		kc_log_warn("Kernel memory settings are ignored and will be removed");
	return 0;
}

/* An error about a field a flag set: "<flag>: <error>". */
static void name_flag(kc_error_t *err)
{
	size_t i;

	for (i = 0; *err && (*err)->field && i < sizeof(field_flags) / sizeof(field_flags[0]); i++) {
		if (strcmp((*err)->field, field_flags[i].field) == 0) {
			kc_error_wrap(err, "%s", field_flags[i].flag);
			return;
		}
	}
}

int kc_cmd_update(struct kc_global *g, int argc, char **argv)
{
	struct update_flags f = {0};
	struct kc_opt opts[] = {
		{"resources", 'r', KC_OPT_STRING, &f.resources,
		 "path to a file containing the resources to update or '-' to read from the standard input"},
		{"blkio-weight", 0, KC_OPT_INT64, &f.blkio_weight,
		 "Specifies per cgroup weight, range is from 10 to 1000 (default: 0)"},
		{"cpu-period", 0, KC_OPT_STRING, &f.cpu_period,
		 "CPU CFS period to be used for hardcapping (in usecs). 0 to use system default"},
		{"cpu-quota", 0, KC_OPT_STRING, &f.cpu_quota,
		 "CPU CFS hardcap limit (in usecs). Allowed cpu time in a given period"},
		{"cpu-share", 0, KC_OPT_STRING, &f.cpu_share, "CPU shares (relative weight vs. other containers)"},
		{"cpu-burst", 0, KC_OPT_STRING, &f.cpu_burst,
		 "CPU CFS hardcap burst limit (in usecs). Allowed accumulated cpu time additionally for burst a given period"},
		{"cpu-idle", 0, KC_OPT_STRING, &f.cpu_idle,
		 "set cgroup SCHED_IDLE or not, 0: default behavior, 1: SCHED_IDLE"},
		{"cpu-rt-period", 0, KC_OPT_STRING, &f.cpu_rt_period,
		 "CPU realtime period to be used for hardcapping (in usecs). 0 to use system default (refused: cgroup v2)"},
		{"cpu-rt-runtime", 0, KC_OPT_STRING, &f.cpu_rt_runtime,
		 "CPU realtime hardcap limit (in usecs). Allowed cpu time in a given period (refused: cgroup v2)"},
		{"cpuset-cpus", 0, KC_OPT_STRING, &f.cpuset_cpus, "CPU(s) to use"},
		{"cpuset-mems", 0, KC_OPT_STRING, &f.cpuset_mems, "Memory node(s) to use"},
		{"kernel-memory", 0, KC_OPT_STRING, &f.kernel_memory, "(obsoleted; do not use)"},
		{"kernel-memory-tcp", 0, KC_OPT_STRING, &f.kernel_memory_tcp, "(obsoleted; do not use)"},
		{"memory", 0, KC_OPT_STRING, &f.memory, "Memory limit (in bytes)"},
		{"memory-reservation", 0, KC_OPT_STRING, &f.memory_reservation, "Memory reservation or soft_limit (in bytes)"},
		{"memory-swap", 0, KC_OPT_STRING, &f.memory_swap, "Total memory usage (memory + swap); set '-1' to enable unlimited swap"},
		{"pids-limit", 0, KC_OPT_INT64, &f.pids_limit, "Maximum number of pids allowed in the container (default: 0)"},
		{"l3-cache-schema", 0, KC_OPT_STRING, &f.l3_cache_schema,
		 "The string of Intel RDT/CAT L3 cache schema (refused: no Intel RDT support)"},
		{"mem-bw-schema", 0, KC_OPT_STRING, &f.mem_bw_schema,
		 "The string of Intel RDT/MBA memory bandwidth schema (refused: no Intel RDT support)"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct oci_memory memory = {0};
	struct oci_cpu cpu = {0};
	struct oci_pids pids = {0};
	struct oci_block_io block_io = {0};
	struct oci_resources r = {.memory = &memory, .cpu = &cpu, .pids = &pids, .block_io = &block_io};
	struct kc_update_request req = {0};
	struct kc_container c;
	kc_error_t err = NULL;
	int first, ret;

	if (kc_cli_parse("update", opts, argc, argv, &first) < 0)
		return 1;
	req.resources_file = f.resources;
	if (kc_container_load(g->root, argv[first], &c, &err) < 0)
		return kc_cli_fail(&err);
	/* runc's order: what is wrong with the container before the flags */
	ret = kc_update_check(&c, &err);
	if (ret == 0 && f.resources == NULL) {
		ret = resources_from_flags(&f, &r, &err);
		req.resources = &r;
		req.keep_cpu_quota = true;
	}
	if (ret == 0 && (ret = kc_update(&c, &req, &err)) < 0 && f.resources == NULL)
		name_flag(&err);
	free(cpu.cpus);
	free(cpu.mems);
	kc_container_release(&c);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}
