/* struct oci_spec -> config.json, laid out as runc (Go's runtime-spec
 * specs-go structs) would write it: Go field order, `omitempty` fields left
 * out when empty, map keys sorted, tab indent.  Parsing runc's own output and
 * writing it back gives the same bytes (see the tests). */
#include "spec.h"
#include "emit_gen.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void gen_uint(struct gen *gen, uint64_t value)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%llu", (unsigned long long)value);

	if (!gen->failed && yajl_gen_number(gen->g, buf, (size_t)n) != yajl_gen_status_ok)
		gen->failed = true;
}

/* A Go string with omitempty. */
static void key_string(struct gen *gen, const char *key, const char *value)
{
	if (value == NULL || value[0] == '\0')
		return;
	gen_key(gen, key);
	gen_string(gen, value);
}

/* A Go string without omitempty: always present, "" when NULL. */
static void key_string_always(struct gen *gen, const char *key, const char *value)
{
	gen_key(gen, key);
	gen_string(gen, value ? value : "");
}

static void key_int(struct gen *gen, const char *key, bool present, long long value)
{
	if (!present)
		return;
	gen_key(gen, key);
	gen_int(gen, value);
}

static void key_uint(struct gen *gen, const char *key, bool present, uint64_t value)
{
	if (!present)
		return;
	gen_key(gen, key);
	gen_uint(gen, value);
}

static void key_bool(struct gen *gen, const char *key, bool present, bool value)
{
	if (!present)
		return;
	gen_key(gen, key);
	gen_bool(gen, value);
}

static void key_strv(struct gen *gen, const char *key, char **strv, size_t len)
{
	if (len)
		gen_key_strv(gen, key, (const char *const *)strv, len);
}

static void key_map(struct gen *gen, const char *key, const struct oci_map *map)
{
	if (map->len == 0)
		return;
	gen_key(gen, key);
	gen_sorted_map(gen, map);
}

static void key_id_mappings(struct gen *gen, const char *key, const struct oci_id_mapping *maps,
			    size_t len)
{
	size_t i;

	if (len == 0)
		return;
	gen_key(gen, key);
	gen_array_open(gen);
	for (i = 0; i < len; i++) {
		gen_map_open(gen);
		key_uint(gen, "containerID", true, maps[i].container_id);
		key_uint(gen, "hostID", true, maps[i].host_id);
		key_uint(gen, "size", true, maps[i].size);
		gen_map_close(gen);
	}
	gen_array_close(gen);
}

/* Indices 0..len-1 ordered by the string at `offset` in each element. */
static size_t *sorted_order(const void *items, size_t len, size_t size, size_t offset)
{
	size_t *order = calloc(len ? len : 1, sizeof(*order));
	size_t i, j;

	if (order == NULL)
		return NULL;
	for (i = 0; i < len; i++) {
		const char *key = *(char *const *)((const char *)items + i * size + offset);

		for (j = i; j > 0; j--) {
			const char *prev =
				*(char *const *)((const char *)items + order[j - 1] * size + offset);

			if (strcmp(prev, key) <= 0)
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
	return order;
}

/* ---------- process ---------- */

static void gen_process(struct gen *gen, const struct oci_process *p)
{
	size_t i;

	gen_key(gen, "process");
	gen_map_open(gen);
	key_bool(gen, "terminal", p->terminal, true);
	if (p->has_console_size) {
		gen_key(gen, "consoleSize");
		gen_map_open(gen);
		key_uint(gen, "height", true, p->console_size.height);
		key_uint(gen, "width", true, p->console_size.width);
		gen_map_close(gen);
	}
	gen_key(gen, "user");
	gen_map_open(gen);
	key_uint(gen, "uid", true, p->user.uid);
	key_uint(gen, "gid", true, p->user.gid);
	key_uint(gen, "umask", p->user.has_umask, p->user.umask);
	if (p->user.additional_gids_len) {
		gen_key(gen, "additionalGids");
		gen_array_open(gen);
		for (i = 0; i < p->user.additional_gids_len; i++)
			gen_uint(gen, p->user.additional_gids[i]);
		gen_array_close(gen);
	}
	gen_map_close(gen);
	key_strv(gen, "args", p->args, p->args_len);
	key_strv(gen, "env", p->env, p->env_len);
	key_string_always(gen, "cwd", p->cwd);
	if (p->capabilities) {
		const struct oci_capabilities *c = p->capabilities;

		gen_key(gen, "capabilities");
		gen_map_open(gen);
		key_strv(gen, "bounding", c->bounding, c->bounding_len);
		key_strv(gen, "effective", c->effective, c->effective_len);
		key_strv(gen, "inheritable", c->inheritable, c->inheritable_len);
		key_strv(gen, "permitted", c->permitted, c->permitted_len);
		key_strv(gen, "ambient", c->ambient, c->ambient_len);
		gen_map_close(gen);
	}
	if (p->rlimits_len) {
		gen_key(gen, "rlimits");
		gen_array_open(gen);
		for (i = 0; i < p->rlimits_len; i++) {
			gen_map_open(gen);
			key_string_always(gen, "type", p->rlimits[i].type);
			key_uint(gen, "hard", true, p->rlimits[i].hard);
			key_uint(gen, "soft", true, p->rlimits[i].soft);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	key_bool(gen, "noNewPrivileges", p->no_new_privileges, true);
	key_string(gen, "apparmorProfile", p->apparmor_profile);
	key_int(gen, "oomScoreAdj", p->has_oom_score_adj, p->oom_score_adj);
	if (p->scheduler) {
		const struct oci_scheduler *s = p->scheduler;

		gen_key(gen, "scheduler");
		gen_map_open(gen);
		key_string_always(gen, "policy", s->policy);
		key_int(gen, "nice", s->has_nice, s->nice);
		key_int(gen, "priority", s->has_priority, s->priority);
		key_strv(gen, "flags", s->flags, s->flags_len);
		key_uint(gen, "runtime", s->has_runtime, s->runtime);
		key_uint(gen, "deadline", s->has_deadline, s->deadline);
		key_uint(gen, "period", s->has_period, s->period);
		gen_map_close(gen);
	}
	key_string(gen, "selinuxLabel", p->selinux_label);
	if (p->io_priority) {
		gen_key(gen, "ioPriority");
		gen_map_open(gen);
		key_string_always(gen, "class", p->io_priority->class);
		key_int(gen, "priority", true, p->io_priority->priority);
		gen_map_close(gen);
	}
	if (p->exec_cpu_affinity) {
		gen_key(gen, "execCPUAffinity");
		gen_map_open(gen);
		key_string(gen, "initial", p->exec_cpu_affinity->initial);
		key_string(gen, "final", p->exec_cpu_affinity->final);
		gen_map_close(gen);
	}
	gen_map_close(gen);
}

/* ---------- mounts, hooks ---------- */

static void gen_mounts(struct gen *gen, const struct oci_mount *mounts, size_t len)
{
	size_t i;

	if (len == 0)
		return;
	gen_key(gen, "mounts");
	gen_array_open(gen);
	for (i = 0; i < len; i++) {
		const struct oci_mount *m = &mounts[i];

		gen_map_open(gen);
		key_string_always(gen, "destination", m->destination);
		key_string(gen, "type", m->type);
		key_string(gen, "source", m->source);
		key_strv(gen, "options", m->options, m->options_len);
		key_id_mappings(gen, "uidMappings", m->uid_mappings, m->uid_mappings_len);
		key_id_mappings(gen, "gidMappings", m->gid_mappings, m->gid_mappings_len);
		gen_map_close(gen);
	}
	gen_array_close(gen);
}

static void gen_hook_list(struct gen *gen, const char *key, const struct oci_hook *hooks,
			  size_t len)
{
	size_t i;

	if (len == 0)
		return;
	gen_key(gen, key);
	gen_array_open(gen);
	for (i = 0; i < len; i++) {
		gen_map_open(gen);
		key_string_always(gen, "path", hooks[i].path);
		key_strv(gen, "args", hooks[i].args, hooks[i].args_len);
		key_strv(gen, "env", hooks[i].env, hooks[i].env_len);
		key_int(gen, "timeout", hooks[i].has_timeout, hooks[i].timeout);
		gen_map_close(gen);
	}
	gen_array_close(gen);
}

static void gen_hooks(struct gen *gen, const struct oci_hooks *h)
{
	gen_key(gen, "hooks");
	gen_map_open(gen);
	gen_hook_list(gen, "prestart", h->prestart, h->prestart_len);
	gen_hook_list(gen, "createRuntime", h->create_runtime, h->create_runtime_len);
	gen_hook_list(gen, "createContainer", h->create_container, h->create_container_len);
	gen_hook_list(gen, "startContainer", h->start_container, h->start_container_len);
	gen_hook_list(gen, "poststart", h->poststart, h->poststart_len);
	gen_hook_list(gen, "poststop", h->poststop, h->poststop_len);
	gen_map_close(gen);
}

/* ---------- linux.resources ---------- */

static void gen_throttle(struct gen *gen, const char *key, const struct oci_throttle_device *d,
			 size_t len)
{
	size_t i;

	if (len == 0)
		return;
	gen_key(gen, key);
	gen_array_open(gen);
	for (i = 0; i < len; i++) {
		gen_map_open(gen);
		key_int(gen, "major", true, d[i].major);
		key_int(gen, "minor", true, d[i].minor);
		key_uint(gen, "rate", true, d[i].rate);
		gen_map_close(gen);
	}
	gen_array_close(gen);
}

static void gen_block_io(struct gen *gen, const struct oci_block_io *b)
{
	size_t i;

	gen_key(gen, "blockIO");
	gen_map_open(gen);
	key_uint(gen, "weight", b->has_weight, b->weight);
	key_uint(gen, "leafWeight", b->has_leaf_weight, b->leaf_weight);
	if (b->weight_device_len) {
		gen_key(gen, "weightDevice");
		gen_array_open(gen);
		for (i = 0; i < b->weight_device_len; i++) {
			const struct oci_weight_device *d = &b->weight_device[i];

			gen_map_open(gen);
			key_int(gen, "major", true, d->major);
			key_int(gen, "minor", true, d->minor);
			key_uint(gen, "weight", d->has_weight, d->weight);
			key_uint(gen, "leafWeight", d->has_leaf_weight, d->leaf_weight);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	gen_throttle(gen, "throttleReadBpsDevice", b->throttle_read_bps_device,
		     b->throttle_read_bps_device_len);
	gen_throttle(gen, "throttleWriteBpsDevice", b->throttle_write_bps_device,
		     b->throttle_write_bps_device_len);
	gen_throttle(gen, "throttleReadIOPSDevice", b->throttle_read_iops_device,
		     b->throttle_read_iops_device_len);
	gen_throttle(gen, "throttleWriteIOPSDevice", b->throttle_write_iops_device,
		     b->throttle_write_iops_device_len);
	gen_map_close(gen);
}

static void gen_resources(struct gen *gen, const struct oci_resources *r)
{
	size_t i, *order;

	gen_key(gen, "resources");
	gen_map_open(gen);
	if (r->devices_len) {
		gen_key(gen, "devices");
		gen_array_open(gen);
		for (i = 0; i < r->devices_len; i++) {
			const struct oci_device_cgroup *d = &r->devices[i];

			gen_map_open(gen);
			key_bool(gen, "allow", true, d->allow);
			key_string(gen, "type", d->type);
			key_int(gen, "major", d->has_major, d->major);
			key_int(gen, "minor", d->has_minor, d->minor);
			key_string(gen, "access", d->access);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	if (r->memory) {
		const struct oci_memory *m = r->memory;

		gen_key(gen, "memory");
		gen_map_open(gen);
		key_int(gen, "limit", m->has_limit, m->limit);
		key_int(gen, "reservation", m->has_reservation, m->reservation);
		key_int(gen, "swap", m->has_swap, m->swap);
		key_int(gen, "kernel", m->has_kernel, m->kernel);
		key_int(gen, "kernelTCP", m->has_kernel_tcp, m->kernel_tcp);
		key_uint(gen, "swappiness", m->has_swappiness, m->swappiness);
		key_bool(gen, "disableOOMKiller", m->has_disable_oom_killer, m->disable_oom_killer);
		key_bool(gen, "useHierarchy", m->has_use_hierarchy, m->use_hierarchy);
		key_bool(gen, "checkBeforeUpdate", m->has_check_before_update,
			 m->check_before_update);
		gen_map_close(gen);
	}
	if (r->cpu) {
		const struct oci_cpu *c = r->cpu;

		gen_key(gen, "cpu");
		gen_map_open(gen);
		key_uint(gen, "shares", c->has_shares, c->shares);
		key_int(gen, "quota", c->has_quota, c->quota);
		key_uint(gen, "burst", c->has_burst, c->burst);
		key_uint(gen, "period", c->has_period, c->period);
		key_int(gen, "realtimeRuntime", c->has_realtime_runtime, c->realtime_runtime);
		key_uint(gen, "realtimePeriod", c->has_realtime_period, c->realtime_period);
		key_string(gen, "cpus", c->cpus);
		key_string(gen, "mems", c->mems);
		key_int(gen, "idle", c->has_idle, c->idle);
		gen_map_close(gen);
	}
	if (r->pids) {
		gen_key(gen, "pids");
		gen_map_open(gen);
		key_int(gen, "limit", true, r->pids->limit); /* Go: no omitempty */
		gen_map_close(gen);
	}
	if (r->block_io)
		gen_block_io(gen, r->block_io);
	if (r->hugepage_limits_len) {
		gen_key(gen, "hugepageLimits");
		gen_array_open(gen);
		for (i = 0; i < r->hugepage_limits_len; i++) {
			gen_map_open(gen);
			key_string_always(gen, "pageSize", r->hugepage_limits[i].page_size);
			key_uint(gen, "limit", true, r->hugepage_limits[i].limit);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	if (r->network) {
		gen_key(gen, "network");
		gen_map_open(gen);
		key_uint(gen, "classID", r->network->has_class_id, r->network->class_id);
		if (r->network->priorities_len) {
			gen_key(gen, "priorities");
			gen_array_open(gen);
			for (i = 0; i < r->network->priorities_len; i++) {
				gen_map_open(gen);
				key_string_always(gen, "name", r->network->priorities[i].name);
				key_uint(gen, "priority", true, r->network->priorities[i].priority);
				gen_map_close(gen);
			}
			gen_array_close(gen);
		}
		gen_map_close(gen);
	}
	if (r->rdma_len) {
		order = sorted_order(r->rdma, r->rdma_len, sizeof(*r->rdma),
				     offsetof(struct oci_rdma, device));
		if (order == NULL)
			gen->failed = true;
		gen_key(gen, "rdma");
		gen_map_open(gen);
		for (i = 0; order && i < r->rdma_len; i++) {
			const struct oci_rdma *d = &r->rdma[order[i]];

			gen_key(gen, d->device);
			gen_map_open(gen);
			key_uint(gen, "hcaHandles", d->has_hca_handles, d->hca_handles);
			key_uint(gen, "hcaObjects", d->has_hca_objects, d->hca_objects);
			gen_map_close(gen);
		}
		gen_map_close(gen);
		free(order);
	}
	key_map(gen, "unified", &r->unified);
	gen_map_close(gen);
}

/* ---------- linux.seccomp ---------- */

static void gen_seccomp(struct gen *gen, const struct oci_seccomp *s)
{
	size_t i, j;

	gen_key(gen, "seccomp");
	gen_map_open(gen);
	key_string_always(gen, "defaultAction", oci_seccomp_action_name(s->default_action));
	key_uint(gen, "defaultErrnoRet", s->has_default_errno_ret, s->default_errno_ret);
	key_strv(gen, "architectures", s->architectures, s->architectures_len);
	key_strv(gen, "flags", s->flags, s->flags_len);
	key_string(gen, "listenerPath", s->listener_path);
	key_string(gen, "listenerMetadata", s->listener_metadata);
	if (s->syscalls_len) {
		gen_key(gen, "syscalls");
		gen_array_open(gen);
		for (i = 0; i < s->syscalls_len; i++) {
			const struct oci_seccomp_syscall *sc = &s->syscalls[i];

			gen_map_open(gen);
			key_strv(gen, "names", sc->names, sc->names_len);
			key_string_always(gen, "action", oci_seccomp_action_name(sc->action));
			key_uint(gen, "errnoRet", sc->has_errno_ret, sc->errno_ret);
			if (sc->args_len) {
				gen_key(gen, "args");
				gen_array_open(gen);
				for (j = 0; j < sc->args_len; j++) {
					const struct oci_seccomp_arg *a = &sc->args[j];

					gen_map_open(gen);
					key_uint(gen, "index", true, a->index);
					key_uint(gen, "value", true, a->value);
					key_uint(gen, "valueTwo", a->has_value_two, a->value_two);
					key_string_always(gen, "op", oci_seccomp_op_name(a->op));
					gen_map_close(gen);
				}
				gen_array_close(gen);
			}
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	gen_map_close(gen);
}

/* ---------- linux ---------- */

static void gen_linux_tail(struct gen *gen, const struct oci_linux *l)
{
	size_t i, *order;

	if (l->intel_rdt) {
		const struct oci_intel_rdt *r = l->intel_rdt;

		gen_key(gen, "intelRdt");
		gen_map_open(gen);
		key_string(gen, "closID", r->clos_id);
		key_string(gen, "l3CacheSchema", r->l3_cache_schema);
		key_string(gen, "memBwSchema", r->mem_bw_schema);
		key_bool(gen, "enableCMT", r->enable_cmt, true);
		key_bool(gen, "enableMBM", r->enable_mbm, true);
		gen_map_close(gen);
	}
	if (l->personality) {
		gen_key(gen, "personality");
		gen_map_open(gen);
		key_string_always(gen, "domain", l->personality->domain == OCI_PERSONALITY_LINUX32 ?
							 "LINUX32" : "LINUX");
		key_strv(gen, "flags", l->personality->flags, l->personality->flags_len);
		gen_map_close(gen);
	}
	if (l->time_offsets_len) {
		order = sorted_order(l->time_offsets, l->time_offsets_len, sizeof(*l->time_offsets),
				     offsetof(struct oci_time_offset, clock));
		if (order == NULL)
			gen->failed = true;
		gen_key(gen, "timeOffsets");
		gen_map_open(gen);
		for (i = 0; order && i < l->time_offsets_len; i++) {
			const struct oci_time_offset *t = &l->time_offsets[order[i]];

			gen_key(gen, t->clock);
			gen_map_open(gen);
			key_int(gen, "secs", t->secs != 0, t->secs);
			key_uint(gen, "nanosecs", t->nanosecs != 0, t->nanosecs);
			gen_map_close(gen);
		}
		gen_map_close(gen);
		free(order);
	}
	if (l->net_devices_len) {
		order = sorted_order(l->net_devices, l->net_devices_len, sizeof(*l->net_devices),
				     offsetof(struct oci_net_device, host_name));
		if (order == NULL)
			gen->failed = true;
		gen_key(gen, "netDevices");
		gen_map_open(gen);
		for (i = 0; order && i < l->net_devices_len; i++) {
			const struct oci_net_device *d = &l->net_devices[order[i]];

			gen_key(gen, d->host_name);
			gen_map_open(gen);
			key_string(gen, "name", d->name);
			gen_map_close(gen);
		}
		gen_map_close(gen);
		free(order);
	}
}

static void gen_linux(struct gen *gen, const struct oci_linux *l)
{
	size_t i;

	gen_key(gen, "linux");
	gen_map_open(gen);
	key_id_mappings(gen, "uidMappings", l->uid_mappings, l->uid_mappings_len);
	key_id_mappings(gen, "gidMappings", l->gid_mappings, l->gid_mappings_len);
	key_map(gen, "sysctl", &l->sysctl);
	if (l->resources)
		gen_resources(gen, l->resources);
	key_string(gen, "cgroupsPath", l->cgroups_path);
	if (l->namespaces_len) {
		gen_key(gen, "namespaces");
		gen_array_open(gen);
		for (i = 0; i < l->namespaces_len; i++) {
			gen_map_open(gen);
			key_string_always(gen, "type", oci_namespace_type_name(l->namespaces[i].type));
			key_string(gen, "path", l->namespaces[i].path);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	if (l->devices_len) {
		gen_key(gen, "devices");
		gen_array_open(gen);
		for (i = 0; i < l->devices_len; i++) {
			const struct oci_device *d = &l->devices[i];

			gen_map_open(gen);
			key_string_always(gen, "path", d->path);
			key_string_always(gen, "type", d->type);
			key_int(gen, "major", true, d->major); /* Go: no omitempty */
			key_int(gen, "minor", true, d->minor);
			key_uint(gen, "fileMode", d->has_file_mode, d->file_mode);
			key_uint(gen, "uid", d->has_uid, d->uid);
			key_uint(gen, "gid", d->has_gid, d->gid);
			gen_map_close(gen);
		}
		gen_array_close(gen);
	}
	if (l->seccomp)
		gen_seccomp(gen, l->seccomp);
	key_string(gen, "rootfsPropagation", l->rootfs_propagation);
	key_strv(gen, "maskedPaths", l->masked_paths, l->masked_paths_len);
	key_strv(gen, "readonlyPaths", l->readonly_paths, l->readonly_paths_len);
	key_string(gen, "mountLabel", l->mount_label);
	gen_linux_tail(gen, l);
	gen_map_close(gen);
}

int oci_spec_to_json(const struct oci_spec *spec, char **out)
{
	struct gen gen;

	if (gen_begin(&gen) < 0)
		return -1;
	gen_map_open(&gen);
	key_string_always(&gen, "ociVersion", spec->oci_version);
	if (spec->process)
		gen_process(&gen, spec->process);
	if (spec->root) {
		gen_key(&gen, "root");
		gen_map_open(&gen);
		key_string_always(&gen, "path", spec->root->path);
		key_bool(&gen, "readonly", spec->root->readonly, true);
		gen_map_close(&gen);
	}
	key_string(&gen, "hostname", spec->hostname);
	key_string(&gen, "domainname", spec->domainname);
	gen_mounts(&gen, spec->mounts, spec->mounts_len);
	if (spec->hooks)
		gen_hooks(&gen, spec->hooks);
	key_map(&gen, "annotations", &spec->annotations);
	if (spec->linux_)
		gen_linux(&gen, spec->linux_);
	gen_map_close(&gen);
	return gen_finish(&gen, "\t", false, out);
}
