/* config.json `linux` section for oci_spec_to_json() (see emit_spec.c). */
#include "emit_fields.h"
#include "spec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---------- linux.resources ---------- */

static void gen_throttle(struct gen *gen, const char *key, const struct oci_throttle_device *d,
			 size_t len)
{
	size_t i;

	if (len == 0)
		return;
	oci_gen_key(gen, key);
	oci_gen_array_open(gen);
	for (i = 0; i < len; i++) {
		oci_gen_map_open(gen);
		oci_key_int(gen, "major", true, d[i].major);
		oci_key_int(gen, "minor", true, d[i].minor);
		oci_key_uint(gen, "rate", true, d[i].rate);
		oci_gen_map_close(gen);
	}
	oci_gen_array_close(gen);
}

static void gen_block_io(struct gen *gen, const struct oci_block_io *b)
{
	size_t i;

	oci_gen_key(gen, "blockIO");
	oci_gen_map_open(gen);
	oci_key_uint(gen, "weight", b->has_weight, b->weight);
	oci_key_uint(gen, "leafWeight", b->has_leaf_weight, b->leaf_weight);
	if (b->weight_device_len) {
		oci_gen_key(gen, "weightDevice");
		oci_gen_array_open(gen);
		for (i = 0; i < b->weight_device_len; i++) {
			const struct oci_weight_device *d = &b->weight_device[i];

			oci_gen_map_open(gen);
			oci_key_int(gen, "major", true, d->major);
			oci_key_int(gen, "minor", true, d->minor);
			oci_key_uint(gen, "weight", d->has_weight, d->weight);
			oci_key_uint(gen, "leafWeight", d->has_leaf_weight, d->leaf_weight);
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
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

static void gen_resources(struct gen *gen, const struct oci_resources *r)
{
	size_t i, *order;

	oci_gen_key(gen, "resources");
	oci_gen_map_open(gen);
	if (r->devices_len) {
		oci_gen_key(gen, "devices");
		oci_gen_array_open(gen);
		for (i = 0; i < r->devices_len; i++) {
			const struct oci_device_cgroup *d = &r->devices[i];

			oci_gen_map_open(gen);
			oci_key_bool(gen, "allow", true, d->allow);
			oci_key_string(gen, "type", d->type);
			oci_key_int(gen, "major", d->has_major, d->major);
			oci_key_int(gen, "minor", d->has_minor, d->minor);
			oci_key_string(gen, "access", d->access);
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
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
	if (r->hugepage_limits_len) {
		oci_gen_key(gen, "hugepageLimits");
		oci_gen_array_open(gen);
		for (i = 0; i < r->hugepage_limits_len; i++) {
			oci_gen_map_open(gen);
			oci_key_string_always(gen, "pageSize", r->hugepage_limits[i].page_size);
			oci_key_uint(gen, "limit", true, r->hugepage_limits[i].limit);
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
	if (r->network) {
		oci_gen_key(gen, "network");
		oci_gen_map_open(gen);
		oci_key_uint(gen, "classID", r->network->has_class_id, r->network->class_id);
		if (r->network->priorities_len) {
			oci_gen_key(gen, "priorities");
			oci_gen_array_open(gen);
			for (i = 0; i < r->network->priorities_len; i++) {
				oci_gen_map_open(gen);
				oci_key_string_always(gen, "name", r->network->priorities[i].name);
				oci_key_uint(gen, "priority", true,
					     r->network->priorities[i].priority);
				oci_gen_map_close(gen);
			}
			oci_gen_array_close(gen);
		}
		oci_gen_map_close(gen);
	}
	if (r->rdma_len) {
		order = oci_sorted_order(r->rdma, r->rdma_len, sizeof(*r->rdma),
					 offsetof(struct oci_rdma, device));
		if (order == NULL)
			gen->failed = true;
		oci_gen_key(gen, "rdma");
		oci_gen_map_open(gen);
		for (i = 0; order && i < r->rdma_len; i++) {
			const struct oci_rdma *d = &r->rdma[order[i]];

			oci_gen_key(gen, d->device);
			oci_gen_map_open(gen);
			oci_key_uint(gen, "hcaHandles", d->has_hca_handles, d->hca_handles);
			oci_key_uint(gen, "hcaObjects", d->has_hca_objects, d->hca_objects);
			oci_gen_map_close(gen);
		}
		oci_gen_map_close(gen);
		free(order);
	}
	oci_key_map(gen, "unified", &r->unified);
	oci_gen_map_close(gen);
}

/* ---------- linux.seccomp ---------- */

static void gen_seccomp(struct gen *gen, const struct oci_seccomp *s)
{
	size_t i, j;

	oci_gen_key(gen, "seccomp");
	oci_gen_map_open(gen);
	oci_key_string_always(gen, "defaultAction", oci_seccomp_action_name(s->default_action));
	oci_key_uint(gen, "defaultErrnoRet", s->has_default_errno_ret, s->default_errno_ret);
	oci_key_strv(gen, "architectures", s->architectures, s->architectures_len);
	oci_key_strv(gen, "flags", s->flags, s->flags_len);
	oci_key_string(gen, "listenerPath", s->listener_path);
	oci_key_string(gen, "listenerMetadata", s->listener_metadata);
	if (s->syscalls_len) {
		oci_gen_key(gen, "syscalls");
		oci_gen_array_open(gen);
		for (i = 0; i < s->syscalls_len; i++) {
			const struct oci_seccomp_syscall *sc = &s->syscalls[i];

			oci_gen_map_open(gen);
			oci_key_strv(gen, "names", sc->names, sc->names_len);
			oci_key_string_always(gen, "action", oci_seccomp_action_name(sc->action));
			oci_key_uint(gen, "errnoRet", sc->has_errno_ret, sc->errno_ret);
			if (sc->args_len) {
				oci_gen_key(gen, "args");
				oci_gen_array_open(gen);
				for (j = 0; j < sc->args_len; j++) {
					const struct oci_seccomp_arg *a = &sc->args[j];

					oci_gen_map_open(gen);
					oci_key_uint(gen, "index", true, a->index);
					oci_key_uint(gen, "value", true, a->value);
					oci_key_uint(gen, "valueTwo", a->has_value_two,
						     a->value_two);
					oci_key_string_always(gen, "op",
							      oci_seccomp_op_name(a->op));
					oci_gen_map_close(gen);
				}
				oci_gen_array_close(gen);
			}
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
	oci_gen_map_close(gen);
}

/* ---------- linux ---------- */

static void gen_linux_tail(struct gen *gen, const struct oci_linux *l)
{
	size_t i, *order;

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
	if (l->time_offsets_len) {
		order = oci_sorted_order(l->time_offsets, l->time_offsets_len,
					 sizeof(*l->time_offsets),
					 offsetof(struct oci_time_offset, clock));
		if (order == NULL)
			gen->failed = true;
		oci_gen_key(gen, "timeOffsets");
		oci_gen_map_open(gen);
		for (i = 0; order && i < l->time_offsets_len; i++) {
			const struct oci_time_offset *t = &l->time_offsets[order[i]];

			oci_gen_key(gen, t->clock);
			oci_gen_map_open(gen);
			oci_key_int(gen, "secs", t->secs != 0, t->secs);
			oci_key_uint(gen, "nanosecs", t->nanosecs != 0, t->nanosecs);
			oci_gen_map_close(gen);
		}
		oci_gen_map_close(gen);
		free(order);
	}
	if (l->net_devices_len) {
		order = oci_sorted_order(l->net_devices, l->net_devices_len,
					 sizeof(*l->net_devices),
					 offsetof(struct oci_net_device, host_name));
		if (order == NULL)
			gen->failed = true;
		oci_gen_key(gen, "netDevices");
		oci_gen_map_open(gen);
		for (i = 0; order && i < l->net_devices_len; i++) {
			const struct oci_net_device *d = &l->net_devices[order[i]];

			oci_gen_key(gen, d->host_name);
			oci_gen_map_open(gen);
			oci_key_string(gen, "name", d->name);
			oci_gen_map_close(gen);
		}
		oci_gen_map_close(gen);
		free(order);
	}
}

void oci_gen_linux(struct gen *gen, const struct oci_linux *l)
{
	size_t i;

	oci_gen_key(gen, "linux");
	oci_gen_map_open(gen);
	oci_key_id_mappings(gen, "uidMappings", l->uid_mappings, l->uid_mappings_len);
	oci_key_id_mappings(gen, "gidMappings", l->gid_mappings, l->gid_mappings_len);
	oci_key_map(gen, "sysctl", &l->sysctl);
	if (l->resources)
		gen_resources(gen, l->resources);
	oci_key_string(gen, "cgroupsPath", l->cgroups_path);
	if (l->namespaces_len) {
		oci_gen_key(gen, "namespaces");
		oci_gen_array_open(gen);
		for (i = 0; i < l->namespaces_len; i++) {
			oci_gen_map_open(gen);
			oci_key_string_always(gen, "type",
					      oci_namespace_type_name(l->namespaces[i].type));
			oci_key_string(gen, "path", l->namespaces[i].path);
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
	if (l->devices_len) {
		oci_gen_key(gen, "devices");
		oci_gen_array_open(gen);
		for (i = 0; i < l->devices_len; i++) {
			const struct oci_device *d = &l->devices[i];

			oci_gen_map_open(gen);
			oci_key_string_always(gen, "path", d->path);
			oci_key_string_always(gen, "type", d->type);
			oci_key_int(gen, "major", true, d->major); /* Go: no omitempty */
			oci_key_int(gen, "minor", true, d->minor);
			oci_key_uint(gen, "fileMode", d->has_file_mode, d->file_mode);
			oci_key_uint(gen, "uid", d->has_uid, d->uid);
			oci_key_uint(gen, "gid", d->has_gid, d->gid);
			oci_gen_map_close(gen);
		}
		oci_gen_array_close(gen);
	}
	if (l->seccomp)
		gen_seccomp(gen, l->seccomp);
	oci_key_string(gen, "rootfsPropagation", l->rootfs_propagation);
	oci_key_strv(gen, "maskedPaths", l->masked_paths, l->masked_paths_len);
	oci_key_strv(gen, "readonlyPaths", l->readonly_paths, l->readonly_paths_len);
	oci_key_string(gen, "mountLabel", l->mount_label);
	gen_linux_tail(gen, l);
	oci_gen_map_close(gen);
}
