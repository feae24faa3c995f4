/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json `linux.resources` -> struct oci_resources. */
#include "spec.h"
#include "parse_ctx.h"

#include <stdlib.h>
#include <string.h>

static int parse_device_cgroup(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_device_cgroup *dev = dst;

	if (oci_get_bool(ctx, obj, "allow", true, NULL, &dev->allow) < 0 ||
	    oci_get_string(ctx, obj, "type", false, 8, &dev->type) < 0)
		return -1;
	if (dev->type && strcmp(dev->type, "a") != 0 && strcmp(dev->type, "c") != 0 &&
	    strcmp(dev->type, "b") != 0)
		return oci_ctx_fail(ctx, "type", "unknown device type \"%s\" (expected a, c or b)",
				    dev->type);
	if (oci_get_i64(ctx, obj, "major", false, &dev->has_major, &dev->major) < 0 ||
	    oci_get_i64(ctx, obj, "minor", false, &dev->has_minor, &dev->minor) < 0 ||
	    oci_get_string(ctx, obj, "access", false, 8, &dev->access) < 0)
		return -1;
	/* access: any string, as runc takes it (its own tests write "rwa"); the
	 * runtime looks for the letters r, w and m in it. */
	return 0;
}

static int parse_memory(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_memory *mem = dst;

	if (oci_get_i64(ctx, obj, "limit", false, &mem->has_limit, &mem->limit) < 0 ||
	    oci_get_i64(ctx, obj, "reservation", false, &mem->has_reservation,
			&mem->reservation) < 0 ||
	    oci_get_i64(ctx, obj, "swap", false, &mem->has_swap, &mem->swap) < 0 ||
	    oci_get_i64(ctx, obj, "kernel", false, &mem->has_kernel, &mem->kernel) < 0 ||
	    oci_get_i64(ctx, obj, "kernelTCP", false, &mem->has_kernel_tcp, &mem->kernel_tcp) < 0 ||
	    oci_get_u64(ctx, obj, "swappiness", false, &mem->has_swappiness,
			&mem->swappiness) < 0 ||
	    oci_get_bool(ctx, obj, "disableOOMKiller", false, &mem->has_disable_oom_killer,
			 &mem->disable_oom_killer) < 0 ||
	    oci_get_bool(ctx, obj, "useHierarchy", false, &mem->has_use_hierarchy,
			 &mem->use_hierarchy) < 0 ||
	    oci_get_bool(ctx, obj, "checkBeforeUpdate", false, &mem->has_check_before_update,
			 &mem->check_before_update) < 0)
		return -1;
	if (mem->has_swappiness && mem->swappiness > 100)
		return oci_ctx_fail(ctx, "swappiness", "%llu is out of range (0..100)",
				    (unsigned long long)mem->swappiness);
	return 0;
}

static int parse_cpu(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_cpu *cpu = dst;

	if (oci_get_u64(ctx, obj, "shares", false, &cpu->has_shares, &cpu->shares) < 0 ||
	    oci_get_i64(ctx, obj, "quota", false, &cpu->has_quota, &cpu->quota) < 0 ||
	    oci_get_u64(ctx, obj, "burst", false, &cpu->has_burst, &cpu->burst) < 0 ||
	    oci_get_u64(ctx, obj, "period", false, &cpu->has_period, &cpu->period) < 0 ||
	    oci_get_i64(ctx, obj, "realtimeRuntime", false, &cpu->has_realtime_runtime,
			&cpu->realtime_runtime) < 0 ||
	    oci_get_u64(ctx, obj, "realtimePeriod", false, &cpu->has_realtime_period,
			&cpu->realtime_period) < 0 ||
	    oci_get_string(ctx, obj, "cpus", false, 4096, &cpu->cpus) < 0 ||
	    oci_get_string(ctx, obj, "mems", false, 4096, &cpu->mems) < 0 ||
	    oci_get_i64(ctx, obj, "idle", false, &cpu->has_idle, &cpu->idle) < 0)
		return -1;
	return 0;
}

static int parse_pids(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_pids *pids = dst;

	return oci_get_i64(ctx, obj, "limit", false, &pids->has_limit, &pids->limit);
}

static int parse_weight_device(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_weight_device *dev = dst;

	if (oci_get_i64(ctx, obj, "major", true, NULL, &dev->major) < 0 ||
	    oci_get_i64(ctx, obj, "minor", true, NULL, &dev->minor) < 0 ||
	    oci_get_u16(ctx, obj, "weight", false, &dev->has_weight, &dev->weight) < 0 ||
	    oci_get_u16(ctx, obj, "leafWeight", false, &dev->has_leaf_weight,
			&dev->leaf_weight) < 0)
		return -1;
	return 0;
}

static int parse_throttle_device(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_throttle_device *dev = dst;

	if (oci_get_i64(ctx, obj, "major", true, NULL, &dev->major) < 0 ||
	    oci_get_i64(ctx, obj, "minor", true, NULL, &dev->minor) < 0 ||
	    oci_get_u64(ctx, obj, "rate", true, NULL, &dev->rate) < 0)
		return -1;
	return 0;
}

#define GET_THROTTLE(name, field)                                                \
	oci_get_object_array(ctx, obj, name, sizeof(struct oci_throttle_device), \
			     parse_throttle_device, (void **)&blkio->field, &blkio->field##_len)

static int parse_block_io(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_block_io *blkio = dst;

	if (oci_get_u16(ctx, obj, "weight", false, &blkio->has_weight, &blkio->weight) < 0 ||
	    oci_get_u16(ctx, obj, "leafWeight", false, &blkio->has_leaf_weight,
			&blkio->leaf_weight) < 0 ||
	    oci_get_object_array(ctx, obj, "weightDevice", sizeof(struct oci_weight_device),
				 parse_weight_device, (void **)&blkio->weight_device,
				 &blkio->weight_device_len) < 0 ||
	    GET_THROTTLE("throttleReadBpsDevice", throttle_read_bps_device) < 0 ||
	    GET_THROTTLE("throttleWriteBpsDevice", throttle_write_bps_device) < 0 ||
	    GET_THROTTLE("throttleReadIOPSDevice", throttle_read_iops_device) < 0 ||
	    GET_THROTTLE("throttleWriteIOPSDevice", throttle_write_iops_device) < 0)
		return -1;
	return 0;
}

static int parse_hugepage_limit(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_hugepage_limit *limit = dst;

	if (oci_get_string(ctx, obj, "pageSize", true, 64, &limit->page_size) < 0 ||
	    oci_get_u64(ctx, obj, "limit", true, NULL, &limit->limit) < 0)
		return -1;
	return 0;
}

static int parse_interface_priority(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_interface_priority *prio = dst;

	if (oci_get_string(ctx, obj, "name", true, 64, &prio->name) < 0 ||
	    oci_get_u32(ctx, obj, "priority", true, NULL, &prio->priority) < 0)
		return -1;
	return 0;
}

static int parse_network(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_network *net = dst;

	if (oci_get_u32(ctx, obj, "classID", false, &net->has_class_id, &net->class_id) < 0 ||
	    oci_get_object_array(ctx, obj, "priorities", sizeof(struct oci_interface_priority),
				 parse_interface_priority, (void **)&net->priorities,
				 &net->priorities_len) < 0)
		return -1;
	return 0;
}

static int parse_rdma(struct parse_ctx *ctx, const char *key, const struct json_value *obj,
		      void *dst)
{
	struct oci_rdma *rdma = dst;

	rdma->device = strdup(key);
	if (rdma->device == NULL)
		return oci_ctx_fail(ctx, NULL, "out of memory");
	if (oci_get_u32(ctx, obj, "hcaHandles", false, &rdma->has_hca_handles,
			&rdma->hca_handles) < 0 ||
	    oci_get_u32(ctx, obj, "hcaObjects", false, &rdma->has_hca_objects,
			&rdma->hca_objects) < 0)
		return -1;
	return 0;
}

int oci_parse_resources(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_resources *res = dst;

	if (oci_get_object_array(ctx, obj, "devices", sizeof(struct oci_device_cgroup),
				 parse_device_cgroup, (void **)&res->devices,
				 &res->devices_len) < 0 ||
	    oci_get_object(ctx, obj, "memory", false, sizeof(struct oci_memory), parse_memory,
			   (void **)&res->memory) < 0 ||
	    oci_get_object(ctx, obj, "cpu", false, sizeof(struct oci_cpu), parse_cpu,
			   (void **)&res->cpu) < 0 ||
	    oci_get_object(ctx, obj, "pids", false, sizeof(struct oci_pids), parse_pids,
			   (void **)&res->pids) < 0 ||
	    oci_get_object(ctx, obj, "blockIO", false, sizeof(struct oci_block_io), parse_block_io,
			   (void **)&res->block_io) < 0 ||
	    oci_get_object_array(ctx, obj, "hugepageLimits", sizeof(struct oci_hugepage_limit),
				 parse_hugepage_limit, (void **)&res->hugepage_limits,
				 &res->hugepage_limits_len) < 0 ||
	    oci_get_object(ctx, obj, "network", false, sizeof(struct oci_network), parse_network,
			   (void **)&res->network) < 0 ||
	    oci_get_object_map(ctx, obj, "rdma", sizeof(struct oci_rdma), parse_rdma,
			       (void **)&res->rdma, &res->rdma_len) < 0 ||
	    oci_get_string_map(ctx, obj, "unified", &res->unified) < 0)
		return -1;
	return 0;
}

static void free_resources(void *resources)
{
	oci_resources_free(resources);
}

int oci_resources_parse_string(const char *json, size_t len, struct oci_resources **out,
			       char **errmsg)
{
	return oci_parse_document(json, len, "resources", sizeof(struct oci_resources),
				  oci_parse_resources, free_resources, (void **)out, errmsg);
}

int oci_linux_resources_parse_string(const char *json, size_t len, struct oci_resources **out,
				     char **errmsg)
{
	static const char *const keys[] = {"linux", "resources", NULL};

	return oci_parse_document_at(json, len, "linux.resources", keys,
				     sizeof(struct oci_resources), oci_parse_resources,
				     free_resources, (void **)out, errmsg);
}
