/* kcrun update: runc's flags (--memory, --cpu-quota, --pids-limit, ...) or
 * --resources FILE, into the container's cgroup.
 *
 * The flags become a linux.resources object, written by the same
 * kc_cgroup_apply() as create's, so each maps onto cgroup v2 the way runc
 * 1.1 does (see cgroup.h).  As with runc, a flag left out (or 0) leaves its
 * file alone, and with --resources the other flags are ignored.  Every value
 * is checked before the first write, and what was written before a value
 * the kernel refuses is put back: a failed update changes nothing. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/cgroup_update.h"
#include "lib/log.h"
#include "lib/state.h"
#include "lib/units.h"

struct update_flags {
	const char *resources;
	const char *blkio_weight;
	const char *cpu_period, *cpu_quota, *cpu_share, *cpu_rt_period, *cpu_rt_runtime;
	const char *cpuset_cpus, *cpuset_mems;
	const char *memory, *memory_reservation, *memory_swap;
	const char *kernel_memory, *kernel_memory_tcp;
	const char *pids_limit;
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

/* cpu.max's quota now (-1: max), kept when only --cpu-period is given:
 * runc writes the quota it remembers together with the new period. */
static int current_cpu_quota(const char *dir, int64_t *quota, kc_error_t *err)
{
	uint64_t period;

	return kc_cgroup_read_cpu_max(dir, quota, &period, err);
}

/* The flags as a linux.resources object; nothing is written yet. */
static int resources_from_flags(const struct update_flags *f, const char *dir,
				struct oci_resources *r, kc_error_t *err)
{
	struct oci_memory *memory = r->memory;
	struct oci_cpu *cpu = r->cpu;
	int64_t ignored;

	if (f->l3_cache_schema && *f->l3_cache_schema)
		return kc_error_set(err, 0, "Intel RDT/CAT: l3 cache schema is not enabled (--l3-cache-schema: kcrun has no Intel RDT support)");
	if (f->mem_bw_schema && *f->mem_bw_schema)
		return kc_error_set(err, 0, "Intel RDT/MBA: memory bandwidth schema is not enabled (--mem-bw-schema: kcrun has no Intel RDT support)");
	if (f->blkio_weight) {
		uint64_t weight;

		if (parse_u64("--blkio-weight", f->blkio_weight, &weight, err) < 0)
			return -1;
		if (weight != 0 && (weight < 10 || weight > 1000))
			return kc_error_set(err, 0, "invalid value for --blkio-weight: %" PRIu64 " is not in 10..1000", weight);
		r->block_io->has_weight = weight != 0;
		r->block_io->weight = (uint16_t)weight;
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
	if (f->pids_limit && parse_i64("--pids-limit", f->pids_limit, &r->pids->limit, err) < 0)
		return -1;
	r->pids->has_limit = r->pids->limit != 0;

	/* memory.swap.max = swap - memory: checked here, before any write. */
	{
		char swap_max[32];

		if (kc_cgroup_swap_max(memory->swap, memory->limit, swap_max, err) < 0)
			return kc_error_wrap(err, "--memory-swap");
	}
	if (cpu->period != 0 && cpu->quota == 0 && current_cpu_quota(dir, &cpu->quota, err) < 0)
		return kc_error_wrap(err, "--cpu-period");
	cpu->has_period = cpu->period != 0;
	cpu->has_quota = cpu->quota != 0;
	if (f->kernel_memory || f->kernel_memory_tcp)
		kc_log_warn("Kernel memory settings are ignored and will be removed");
	return 0;
}

static int update_from_flags(const struct update_flags *f, const char *dir, kc_error_t *err)
{
	struct oci_memory memory = {0};
	struct oci_cpu cpu = {0};
	struct oci_pids pids = {0};
	struct oci_block_io block_io = {0};
	struct oci_resources r = {.memory = &memory, .cpu = &cpu, .pids = &pids, .block_io = &block_io};
	struct kc_cgroup_snapshot before;
	size_t i;
	int ret = resources_from_flags(f, dir, &r, err);

	if (ret < 0)
		goto out;
	/* The kernel may still refuse a value (cpus that do not exist): put
	 * back what was written before it, so a failed update changes nothing. */
	kc_cgroup_snapshot_take(dir, &before);
	if ((ret = kc_cgroup_apply(dir, &r, err)) == 0) {
		kc_cgroup_snapshot_free(&before);
	} else {
		kc_cgroup_snapshot_restore(dir, &before);
		for (i = 0; i < sizeof(field_flags) / sizeof(field_flags[0]); i++) {
			if (*err && strncmp((*err)->msg, field_flags[i].field, strlen(field_flags[i].field)) == 0 &&
			    (*err)->msg[strlen(field_flags[i].field)] == ':') {
				kc_error_wrap(err, "%s", field_flags[i].flag);
				break;
			}
		}
	}
out:
	free(cpu.cpus);
	free(cpu.mems);
	return ret;
}

int kc_cmd_update(struct kc_global *g, int argc, char **argv)
{
	struct update_flags f = {0};
	struct kc_opt opts[] = {
		{"resources", 'r', KC_OPT_STRING, &f.resources,
		 "path to a file containing the resources to update or '-' to read from the standard input"},
		{"blkio-weight", 0, KC_OPT_STRING, &f.blkio_weight,
		 "Specifies per cgroup weight, range is from 10 to 1000 (default: 0)"},
		{"cpu-period", 0, KC_OPT_STRING, &f.cpu_period,
		 "CPU CFS period to be used for hardcapping (in usecs). 0 to use system default"},
		{"cpu-quota", 0, KC_OPT_STRING, &f.cpu_quota,
		 "CPU CFS hardcap limit (in usecs). Allowed cpu time in a given period"},
		{"cpu-share", 0, KC_OPT_STRING, &f.cpu_share, "CPU shares (relative weight vs. other containers)"},
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
		{"pids-limit", 0, KC_OPT_STRING, &f.pids_limit, "Maximum number of pids allowed in the container (default: 0)"},
		{"l3-cache-schema", 0, KC_OPT_STRING, &f.l3_cache_schema,
		 "The string of Intel RDT/CAT L3 cache schema (refused: no Intel RDT support)"},
		{"mem-bw-schema", 0, KC_OPT_STRING, &f.mem_bw_schema,
		 "The string of Intel RDT/MBA memory bandwidth schema (refused: no Intel RDT support)"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_state st;
	kc_error_t err = NULL;
	int first, ret;

	if (kc_cli_parse("update", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	if (kc_state_status(g->root, &st) == OCI_STATUS_STOPPED)
		ret = kc_error_set(&err, 0, "container not running");
	else if (st.cgroup_path == NULL || *st.cgroup_path == '\0')
		ret = kc_error_set(&err, 0, "the container has no cgroup");
	else if (f.resources)
		ret = kc_cgroup_update_from_file(st.cgroup_path, f.resources, &err);
	else
		ret = update_from_flags(&f, st.cgroup_path, &err);
	kc_state_free(&st);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}
