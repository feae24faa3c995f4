/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, the resource writers: see cgroup_resources.h. */
#include "cgroup_resources.h"
#include "cgroup.h"
#include "cleanup.h"
#include "fileio.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t kc_cgroup_cpu_shares_to_weight(uint64_t shares)
{
	if (shares == 0)
		return 0;
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + ((shares - 2) * 9999) / 262142;
}

uint64_t kc_cgroup_blkio_weight_to_io_weight(uint64_t weight)
{
	if (weight == 0)
		return 0;
	if (weight < 10)
		weight = 10;
	if (weight > 1000)
		weight = 1000;
	return 1 + (weight - 10) * 9999 / 990;
}

int kc_cgroup_swap_max(int64_t swap, int64_t limit, char out[32], kc_error_t *err)
{
	out[0] = '\0';
	/* Unlimited memory and no swap setting: unlimited swap too (v1 compat). */
	if (limit == -1 && swap == 0) {
		strcpy(out, "max");
		return 0;
	}
	if (swap == -1) {
		strcpy(out, "max");
		return 0;
	}
	if (swap == 0)
		return 0;
	if (limit == 0 || limit == -1) {
		kc_error_set(err, EINVAL,
			     "linux.resources.memory.swap: unable to set swap limit without memory limit");
		return kc_error_about(err, "linux.resources.memory.swap");
	}
	if (limit < 0) {
		kc_error_set(err, EINVAL, "linux.resources.memory.limit: invalid value %" PRId64, limit);
		return kc_error_about(err, "linux.resources.memory.limit");
	}
	if (swap < limit) {
		kc_error_set(err, EINVAL,
			     "linux.resources.memory.swap: memory+swap limit (%" PRId64
			     ") should be >= memory limit (%" PRId64 ")", swap, limit);
		return kc_error_about(err, "linux.resources.memory.swap");
	}
	snprintf(out, 32, "%" PRId64, swap - limit);
	return 0;
}

/* "max" for -1 (unlimited), the number otherwise. */
static void limit_text(int64_t value, char out[32])
{
	if (value == -1)
		strcpy(out, "max");
	else
		snprintf(out, 32, "%" PRId64, value);
}
static int apply_memory(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	const struct oci_memory *memory = resources->memory;
	int64_t limit, swap;
	char value[32];
	int rc;

	if (memory == NULL)
		return 0;
	limit = memory->has_limit ? memory->limit : 0;
	swap = memory->has_swap ? memory->swap : 0;

	if (memory->has_check_before_update && memory->check_before_update && limit > 0) {
		cleanup_free char *current = NULL;

		if (kc_read_file_in(dir, "memory.current", &current) == 0 &&
		    strtoll(current, NULL, 10) > limit)
		{
			kc_error_set(err, EBUSY,
				     "linux.resources.memory.limit: %" PRId64 " is below the current usage %lld",
				     limit, strtoll(current, NULL, 10));
			return kc_error_about(err, "linux.resources.memory.limit");
		}
	}
	if (kc_cgroup_swap_max(swap, limit, value, err) < 0)
		return -1;
	if (value[0]) {
		rc = kc_cgroup_write_raw(dir, "memory.swap.max", value);
		/* No swap accounting: asking for none or for unlimited is moot. */
		if (rc < 0 && !(rc == -ENOENT && (strcmp(value, "max") == 0 || strcmp(value, "0") == 0))) {
			kc_error_set(err, -rc, "linux.resources.memory.swap: write `%s` to memory.swap.max in %s",
				     value, dir);
			return kc_error_about(err, "linux.resources.memory.swap");
		}
	}
	if (limit != 0) {
		limit_text(limit, value);
		if (kc_cgroup_write(dir, "memory.max", value, "linux.resources.memory.limit", err) < 0)
			return -1;
	}
	if (memory->has_reservation && memory->reservation != 0) {
		limit_text(memory->reservation, value);
		if (kc_cgroup_write(dir, "memory.low", value, "linux.resources.memory.reservation", err) < 0)
			return -1;
	}
	return 0;
}

static int apply_cpu(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	const struct oci_cpu *cpu = resources->cpu;
	int64_t quota;
	uint64_t period;
	char value[64];

	if (cpu == NULL)
		return 0;
	quota = cpu->has_quota ? cpu->quota : 0;
	period = cpu->has_period ? cpu->period : 0;

	if ((cpu->has_realtime_runtime && cpu->realtime_runtime != 0) ||
	    (cpu->has_realtime_period && cpu->realtime_period != 0))
		return kc_error_set(err, ENOTSUP,
				    "linux.resources.cpu.realtimeRuntime/realtimePeriod: not supported on cgroup v2");
	if (cpu->has_shares && cpu->shares != 0) {
		snprintf(value, sizeof(value), "%" PRIu64, kc_cgroup_cpu_shares_to_weight(cpu->shares));
		if (kc_cgroup_write(dir, "cpu.weight", value, "linux.resources.cpu.shares", err) < 0)
			return -1;
	}
	if (quota != 0 || period != 0) {
		if (quota > 0)
			snprintf(value, sizeof(value), "%" PRId64, quota);
		else
			strcpy(value, "max");
		if (period != 0)
			snprintf(value + strlen(value), sizeof(value) - strlen(value), " %" PRIu64, period);
		if (kc_cgroup_write(dir, "cpu.max", value, "linux.resources.cpu.quota", err) < 0)
			return -1;
	}
	if (cpu->has_burst) {
		snprintf(value, sizeof(value), "%" PRIu64, cpu->burst);
		if (kc_cgroup_write(dir, "cpu.max.burst", value, "linux.resources.cpu.burst", err) < 0)
			return -1;
	}
	if (cpu->has_idle) {
		snprintf(value, sizeof(value), "%" PRId64, cpu->idle);
		if (kc_cgroup_write(dir, "cpu.idle", value, "linux.resources.cpu.idle", err) < 0)
			return -1;
	}
	if (cpu->cpus && cpu->cpus[0] &&
	    kc_cgroup_write(dir, "cpuset.cpus", cpu->cpus, "linux.resources.cpu.cpus", err) < 0)
		return -1;
	if (cpu->mems && cpu->mems[0] &&
	    kc_cgroup_write(dir, "cpuset.mems", cpu->mems, "linux.resources.cpu.mems", err) < 0)
		return -1;
	return 0;
}

static int apply_pids(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	const struct oci_pids *pids = resources->pids;
	char value[32];

	if (pids == NULL || !pids->has_limit || pids->limit == 0)
		return 0;
	limit_text(pids->limit < 0 ? -1 : pids->limit, value);
	return kc_cgroup_write(dir, "pids.max", value, "linux.resources.pids.limit", err);
}

static int apply_throttle(const char *dir, const struct oci_throttle_device *devices, size_t n,
			  const char *key, const char *field, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char value[96], path[96];

		if (devices[i].rate == 0)
			snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %s=max",
				 devices[i].major, devices[i].minor, key);
		else
			snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %s=%" PRIu64,
				 devices[i].major, devices[i].minor, key, devices[i].rate);
		snprintf(path, sizeof(path), "linux.resources.blockIO.%s[%zu]", field, i);
		if (kc_cgroup_write(dir, "io.max", value, path, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_block_io(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	const struct oci_block_io *block_io = resources->block_io;
	bool has_bfq;
	char value[96];
	size_t i;

	if (block_io == NULL)
		return 0;
	has_bfq = kc_cgroup_has_file(dir, "io.bfq.weight");

	if (block_io->has_weight && block_io->weight != 0) {
		if (has_bfq) {
			snprintf(value, sizeof(value), "%u", block_io->weight);
			if (kc_cgroup_write(dir, "io.bfq.weight", value, "linux.resources.blockIO.weight", err) < 0)
				return -1;
		} else {
			snprintf(value, sizeof(value), "%" PRIu64,
				 kc_cgroup_blkio_weight_to_io_weight(block_io->weight));
			if (kc_cgroup_write(dir, "io.weight", value, "linux.resources.blockIO.weight", err) < 0)
				return -1;
		}
	}
	for (i = 0; i < block_io->weight_device_len; i++) {
		const struct oci_weight_device *device = &block_io->weight_device[i];
		char field[64];

		if (!device->has_weight)
			continue;
		snprintf(field, sizeof(field), "linux.resources.blockIO.weightDevice[%zu]", i);
		snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %" PRIu64, device->major,
			 device->minor,
			 has_bfq ? device->weight : kc_cgroup_blkio_weight_to_io_weight(device->weight));
		if (kc_cgroup_write(dir, has_bfq ? "io.bfq.weight" : "io.weight", value, field, err) < 0)
			return -1;
	}
	if (apply_throttle(dir, block_io->throttle_read_bps_device, block_io->throttle_read_bps_device_len,
			   "rbps", "throttleReadBpsDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_write_bps_device, block_io->throttle_write_bps_device_len,
			   "wbps", "throttleWriteBpsDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_read_iops_device, block_io->throttle_read_iops_device_len,
			   "riops", "throttleReadIOPSDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_write_iops_device,
			   block_io->throttle_write_iops_device_len, "wiops", "throttleWriteIOPSDevice", err) < 0)
		return -1;
	return 0;
}

static int apply_hugepages(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < resources->hugepage_limits_len; i++) {
		const struct oci_hugepage_limit *limit = &resources->hugepage_limits[i];
		char file[96], rsvd_file[96], value[32], field[64];

		snprintf(file, sizeof(file), "hugetlb.%s.max", limit->page_size);
		snprintf(rsvd_file, sizeof(rsvd_file), "hugetlb.%s.rsvd.max", limit->page_size);
		snprintf(value, sizeof(value), "%" PRIu64, limit->limit);
		snprintf(field, sizeof(field), "linux.resources.hugepageLimits[%zu]", i);
		if (!kc_cgroup_has_file(dir, file))
			return kc_error_set(err, ENOENT, "%s: no %s in %s (page size \"%s\" unsupported, or no hugetlb controller)",
					    field, file, dir, limit->page_size);
		if (kc_cgroup_write(dir, file, value, field, err) < 0)
			return -1;
		if (kc_cgroup_has_file(dir, rsvd_file) && kc_cgroup_write(dir, rsvd_file, value, field, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_rdma(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < resources->rdma_len; i++) {
		const struct oci_rdma *rdma = &resources->rdma[i];
		char value[256], handles[32] = "max", objects[32] = "max", field[300];

		if (rdma->has_hca_handles)
			snprintf(handles, sizeof(handles), "%u", rdma->hca_handles);
		if (rdma->has_hca_objects)
			snprintf(objects, sizeof(objects), "%u", rdma->hca_objects);
		snprintf(value, sizeof(value), "%s hca_handle=%s hca_object=%s", rdma->device, handles,
			 objects);
		snprintf(field, sizeof(field), "linux.resources.rdma.\"%s\"", rdma->device);
		if (kc_cgroup_write(dir, "rdma.max", value, field, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_unified(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	const struct oci_map *unified = &resources->unified;
	size_t i;

	for (i = 0; i < unified->len; i++) {
		const char *key = unified->entries[i].key;
		int rc;

		if (key[0] == '\0' || strchr(key, '/') || strcmp(key, ".") == 0 || strcmp(key, "..") == 0)
			return kc_error_set(err, EINVAL,
					    "linux.resources.unified.\"%s\": must be a file name in the cgroup", key);
		rc = kc_cgroup_write_raw(dir, key, unified->entries[i].value);
		if (rc == -ENOENT)
			return kc_error_set(err, ENOENT,
					    "linux.resources.unified.\"%s\": no such file in %s (controller not available?)",
					    key, dir);
		if (rc < 0)
			return kc_error_set(err, -rc, "linux.resources.unified.\"%s\": write `%s` in %s", key,
					    unified->entries[i].value, dir);
	}
	return 0;
}

/* kc_cgroup_apply()'s order; unified last: it may deliberately override
 * what the fields before it wrote.  The files are those a snapshot can put
 * back (one value each); io.max, hugetlb and rdma lines are per device. */
const struct kc_cgroup_writer kc_cgroup_writers[] = {
	{"memory", apply_memory, {"memory.swap.max", "memory.max", "memory.low"}},
	{"cpu", apply_cpu,
	 {"cpu.weight", "cpu.max", "cpu.max.burst", "cpu.idle", "cpuset.cpus", "cpuset.mems"}},
	{"pids", apply_pids, {"pids.max"}},
	{"blockIO", apply_block_io, {"io.bfq.weight", "io.weight"}},
	{"hugepageLimits", apply_hugepages, {NULL}},
	{"rdma", apply_rdma, {NULL}},
	{"unified", apply_unified, {NULL}},
};
const size_t kc_cgroup_writers_len = sizeof(kc_cgroup_writers) / sizeof(kc_cgroup_writers[0]);

int kc_cgroup_apply(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	size_t i;

	if (resources == NULL)
		return 0;
	for (i = 0; i < kc_cgroup_writers_len; i++)
		if (kc_cgroup_writers[i].apply(dir, resources, err) < 0)
			return -1;
	return 0;
}
