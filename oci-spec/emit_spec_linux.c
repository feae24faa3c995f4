/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json `linux` section for oci_spec_to_json() (see emit_spec.c). */
#include "emit_fields.h"
#include "spec.h"

#include <stddef.h>

/* ---------- linux.resources ---------- */

static void gen_throttle_item(struct gen *gen, const void *item)
{
	const struct oci_throttle_device *d = item;

	oci_key_int(gen, "major", true, d->major);
	oci_key_int(gen, "minor", true, d->minor);
	oci_key_uint(gen, "rate", true, d->rate);
}

static void gen_throttle(struct gen *gen, const char *key, const struct oci_throttle_device *d,
			 size_t len)
{
	oci_key_object_array(gen, key, d, len, sizeof(*d), gen_throttle_item);
}

static void gen_weight_device(struct gen *gen, const void *item)
{
	const struct oci_weight_device *d = item;

	oci_key_int(gen, "major", true, d->major);
	oci_key_int(gen, "minor", true, d->minor);
	oci_key_uint(gen, "weight", d->has_weight, d->weight);
	oci_key_uint(gen, "leafWeight", d->has_leaf_weight, d->leaf_weight);
}

static void gen_block_io(struct gen *gen, const struct oci_block_io *b)
{
	oci_gen_key(gen, "blockIO");
	oci_gen_map_open(gen);
	oci_key_uint(gen, "weight", b->has_weight, b->weight);
	oci_key_uint(gen, "leafWeight", b->has_leaf_weight, b->leaf_weight);
	oci_key_object_array(gen, "weightDevice", b->weight_device, b->weight_device_len,
			     sizeof(*b->weight_device), gen_weight_device);
	gen_throttle(gen, "throttleReadBpsDevice", b->throttle_read_bps_device,
		     b->throttle_read_bps_device_len);
	gen_throttle(gen, "throttleWriteBpsDevice", b->throttle_write_bps_device,
		     b->throttle_write_bps_device_len);
	gen_throttle(gen, "throttleReadIOPSDevice", b->throttle_read_iops_device,
		     b->throttle_read_iops_device_len);
	gen_throttle(gen, "throttleWriteIOPSDevice", b->throttle_write_iops_device,
		     b->throttle_write_iops_device_len);
	oci_gen_map_close(gen);
}

static void gen_device_cgroup(struct gen *gen, const void *item)
{
	const struct oci_device_cgroup *d = item;

	oci_key_bool(gen, "allow", true, d->allow);
	oci_key_string(gen, "type", d->type);
	oci_key_int(gen, "major", d->has_major, d->major);
	oci_key_int(gen, "minor", d->has_minor, d->minor);
	oci_key_string(gen, "access", d->access);
}

static void gen_hugepage_limit(struct gen *gen, const void *item)
{
	const struct oci_hugepage_limit *h = item;

	oci_key_string_always(gen, "pageSize", h->page_size);
	oci_key_uint(gen, "limit", true, h->limit);
}

static void gen_interface_priority(struct gen *gen, const void *item)
{
	const struct oci_interface_priority *p = item;

	oci_key_string_always(gen, "name", p->name);
	oci_key_uint(gen, "priority", true, p->priority);
}

static void gen_rdma(struct gen *gen, const void *item)
{
	const struct oci_rdma *d = item;

	oci_key_uint(gen, "hcaHandles", d->has_hca_handles, d->hca_handles);
	oci_key_uint(gen, "hcaObjects", d->has_hca_objects, d->hca_objects);
}

static void gen_resources(struct gen *gen, const struct oci_resources *r)
{
	oci_gen_key(gen, "resources");
	oci_gen_map_open(gen);
	oci_key_object_array(gen, "devices", r->devices, r->devices_len, sizeof(*r->devices),
			     gen_device_cgroup);
	if (r->memory) {
		const struct oci_memory *m = r->memory;

		oci_gen_key(gen, "memory");
		oci_gen_map_open(gen);
		oci_key_int(gen, "limit", m->has_limit, m->limit);
		oci_key_int(gen, "reservation", m->has_reservation, m->reservation);
		oci_key_int(gen, "swap", m->has_swap, m->swap);
		oci_key_int(gen, "kernel", m->has_kernel, m->kernel);
		oci_key_int(gen, "kernelTCP", m->has_kernel_tcp, m->kernel_tcp);
		oci_key_uint(gen, "swappiness", m->has_swappiness, m->swappiness);
		oci_key_bool(gen, "disableOOMKiller", m->has_disable_oom_killer,
			     m->disable_oom_killer);
		oci_key_bool(gen, "useHierarchy", m->has_use_hierarchy, m->use_hierarchy);
		oci_key_bool(gen, "checkBeforeUpdate", m->has_check_before_update,
			     m->check_before_update);
		oci_gen_map_close(gen);
	}
	if (r->cpu) {
		const struct oci_cpu *c = r->cpu;

		oci_gen_key(gen, "cpu");
		oci_gen_map_open(gen);
		oci_key_uint(gen, "shares", c->has_shares, c->shares);
		oci_key_int(gen, "quota", c->has_quota, c->quota);
		oci_key_uint(gen, "burst", c->has_burst, c->burst);
		oci_key_uint(gen, "period", c->has_period, c->period);
		oci_key_int(gen, "realtimeRuntime", c->has_realtime_runtime, c->realtime_runtime);
		oci_key_uint(gen, "realtimePeriod", c->has_realtime_period, c->realtime_period);
		oci_key_string(gen, "cpus", c->cpus);
		oci_key_string(gen, "mems", c->mems);
		oci_key_int(gen, "idle", c->has_idle, c->idle);
		oci_gen_map_close(gen);
	}
	if (r->pids) {
		oci_gen_key(gen, "pids");
		oci_gen_map_open(gen);
		oci_key_int(gen, "limit", true, r->pids->limit); /* Go: no omitempty */
		oci_gen_map_close(gen);
	}
	if (r->block_io)
		gen_block_io(gen, r->block_io);
	oci_key_object_array(gen, "hugepageLimits", r->hugepage_limits, r->hugepage_limits_len,
			     sizeof(*r->hugepage_limits), gen_hugepage_limit);
	if (r->network) {
		oci_gen_key(gen, "network");
		oci_gen_map_open(gen);
		oci_key_uint(gen, "classID", r->network->has_class_id, r->network->class_id);
		oci_key_object_array(gen, "priorities", r->network->priorities,
				     r->network->priorities_len, sizeof(*r->network->priorities),
				     gen_interface_priority);
		oci_gen_map_close(gen);
	}
	oci_key_object_map(gen, "rdma", r->rdma, r->rdma_len, sizeof(*r->rdma),
			   offsetof(struct oci_rdma, device), gen_rdma);
	oci_key_map(gen, "unified", &r->unified);
	oci_gen_map_close(gen);
}

/* ---------- linux.seccomp ---------- */

static void gen_seccomp_arg(struct gen *gen, const void *item)
{
	const struct oci_seccomp_arg *a = item;

	oci_key_uint(gen, "index", true, a->index);
	oci_key_uint(gen, "value", true, a->value);
	oci_key_uint(gen, "valueTwo", a->has_value_two, a->value_two);
	oci_key_string_always(gen, "op", oci_seccomp_op_name(a->op));
}

static void gen_seccomp_syscall(struct gen *gen, const void *item)
{
	const struct oci_seccomp_syscall *sc = item;

	oci_key_strv(gen, "names", sc->names, sc->names_len);
	oci_key_string_always(gen, "action", oci_seccomp_action_name(sc->action));
	oci_key_uint(gen, "errnoRet", sc->has_errno_ret, sc->errno_ret);
	oci_key_object_array(gen, "args", sc->args, sc->args_len, sizeof(*sc->args),
			     gen_seccomp_arg);
}

static void gen_seccomp(struct gen *gen, const struct oci_seccomp *s)
{
	oci_gen_key(gen, "seccomp");
	oci_gen_map_open(gen);
	oci_key_string_always(gen, "defaultAction", oci_seccomp_action_name(s->default_action));
	oci_key_uint(gen, "defaultErrnoRet", s->has_default_errno_ret, s->default_errno_ret);
	oci_key_strv(gen, "architectures", s->architectures, s->architectures_len);
	oci_key_strv(gen, "flags", s->flags, s->flags_len);
	oci_key_string(gen, "listenerPath", s->listener_path);
	oci_key_string(gen, "listenerMetadata", s->listener_metadata);
	oci_key_object_array(gen, "syscalls", s->syscalls, s->syscalls_len, sizeof(*s->syscalls),
			     gen_seccomp_syscall);
	oci_gen_map_close(gen);
}

/* ---------- linux ---------- */

static void gen_time_offset(struct gen *gen, const void *item)
{
	const struct oci_time_offset *t = item;

	oci_key_int(gen, "secs", t->secs != 0, t->secs);
	oci_key_uint(gen, "nanosecs", t->nanosecs != 0, t->nanosecs);
}

static void gen_net_device(struct gen *gen, const void *item)
{
	const struct oci_net_device *d = item;

	oci_key_string(gen, "name", d->name);
}

static void gen_linux_tail(struct gen *gen, const struct oci_linux *l)
{
	if (l->intel_rdt) {
		const struct oci_intel_rdt *r = l->intel_rdt;

		oci_gen_key(gen, "intelRdt");
		oci_gen_map_open(gen);
		oci_key_string(gen, "closID", r->clos_id);
		oci_key_string(gen, "l3CacheSchema", r->l3_cache_schema);
		oci_key_string(gen, "memBwSchema", r->mem_bw_schema);
		oci_key_bool(gen, "enableCMT", r->enable_cmt, true);
		oci_key_bool(gen, "enableMBM", r->enable_mbm, true);
		oci_gen_map_close(gen);
	}
	if (l->personality) {
		oci_gen_key(gen, "personality");
		oci_gen_map_open(gen);
		oci_key_string_always(gen, "domain",
				      l->personality->domain == OCI_PERSONALITY_LINUX32 ? "LINUX32"
											: "LINUX");
		oci_key_strv(gen, "flags", l->personality->flags, l->personality->flags_len);
		oci_gen_map_close(gen);
	}
	oci_key_object_map(gen, "timeOffsets", l->time_offsets, l->time_offsets_len,
			   sizeof(*l->time_offsets), offsetof(struct oci_time_offset, clock),
			   gen_time_offset);
	oci_key_object_map(gen, "netDevices", l->net_devices, l->net_devices_len,
			   sizeof(*l->net_devices), offsetof(struct oci_net_device, host_name),
			   gen_net_device);
}

static void gen_namespace(struct gen *gen, const void *item)
{
	const struct oci_namespace *n = item;

	oci_key_string_always(gen, "type", oci_namespace_type_name(n->type));
	oci_key_string(gen, "path", n->path);
}

static void gen_device(struct gen *gen, const void *item)
{
	const struct oci_device *d = item;

	oci_key_string_always(gen, "path", d->path);
	oci_key_string_always(gen, "type", d->type);
	oci_key_int(gen, "major", true, d->major); /* Go: no omitempty */
	oci_key_int(gen, "minor", true, d->minor);
	oci_key_uint(gen, "fileMode", d->has_file_mode, d->file_mode);
	oci_key_uint(gen, "uid", d->has_uid, d->uid);
	oci_key_uint(gen, "gid", d->has_gid, d->gid);
}

void oci_gen_linux(struct gen *gen, const struct oci_linux *l)
{
	oci_gen_key(gen, "linux");
	oci_gen_map_open(gen);
	oci_key_id_mappings(gen, "uidMappings", l->uid_mappings, l->uid_mappings_len);
	oci_key_id_mappings(gen, "gidMappings", l->gid_mappings, l->gid_mappings_len);
	oci_key_map(gen, "sysctl", &l->sysctl);
	if (l->resources)
		gen_resources(gen, l->resources);
	oci_key_string(gen, "cgroupsPath", l->cgroups_path);
	oci_key_object_array(gen, "namespaces", l->namespaces, l->namespaces_len,
			     sizeof(*l->namespaces), gen_namespace);
	oci_key_object_array(gen, "devices", l->devices, l->devices_len, sizeof(*l->devices),
			     gen_device);
	if (l->seccomp)
		gen_seccomp(gen, l->seccomp);
	oci_key_string(gen, "rootfsPropagation", l->rootfs_propagation);
	oci_key_strv(gen, "maskedPaths", l->masked_paths, l->masked_paths_len);
	oci_key_strv(gen, "readonlyPaths", l->readonly_paths, l->readonly_paths_len);
	oci_key_string(gen, "mountLabel", l->mount_label);
	gen_linux_tail(gen, l);
	oci_gen_map_close(gen);
}
