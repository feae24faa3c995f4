/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Valid configs: runc's defaults and a hand-written one with every section. */
#include "helpers.h"

static struct oci_spec *parse_fixture(const char *name)
{
	struct oci_spec *spec = NULL;
	char path[4096], *err = NULL;

	snprintf(path, sizeof(path), "%s/%s", tap_fixtures(), name);
	if (oci_spec_parse_file(path, &spec, &err) < 0) {
		tap_fail(__FILE__, __LINE__, "%s: %s", name, err);
		free(err);
		return NULL;
	}
	return spec;
}

TEST(runc_default_spec_parses)
{
	struct oci_spec *spec = parse_fixture("runc-spec.json");
	const struct oci_linux *l;

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->oci_version, "1.0.2-dev");
	CHECK(spec->process && spec->process->terminal);
	CHECK_INT(spec->process->user.uid, 0);
	CHECK_INT(spec->process->args_len, 1);
	CHECK_STR(spec->process->args[0], "sh");
	CHECK_INT(spec->process->env_len, 2);
	CHECK_STR(spec->process->env[1], "TERM=xterm");
	CHECK_STR(spec->process->cwd, "/");
	CHECK_INT(spec->process->capabilities->bounding_len, 3);
	CHECK_INT(spec->process->capabilities->inheritable_len, 0);
	CHECK_STR(spec->process->capabilities->ambient[2], "CAP_NET_BIND_SERVICE");
	CHECK_INT(spec->process->rlimits_len, 1);
	CHECK_STR(spec->process->rlimits[0].type, "RLIMIT_NOFILE");
	CHECK_INT(spec->process->rlimits[0].hard, 1024);
	CHECK(spec->process->no_new_privileges);
	CHECK(!spec->process->has_oom_score_adj);
	CHECK_STR(spec->root->path, "rootfs");
	CHECK(spec->root->readonly);
	CHECK_STR(spec->hostname, "runc");
	CHECK_INT(spec->mounts_len, 7);
	CHECK_STR(spec->mounts[0].destination, "/proc");
	CHECK_INT(spec->mounts[0].options_len, 0);
	CHECK_STR(spec->mounts[2].options[5], "gid=5");
	CHECK(spec->hooks == NULL);
	l = spec->linux_;
	if (CHECK(l)) {
		CHECK_INT(l->namespaces_len, 5);
		CHECK_INT(l->namespaces[1].type, OCI_NS_NETWORK);
		CHECK(l->namespaces[1].path == NULL);
		CHECK_INT(l->resources->devices_len, 1);
		CHECK(!l->resources->devices[0].allow);
		CHECK(!l->resources->devices[0].has_major);
		CHECK_STR(l->resources->devices[0].access, "rwm");
		CHECK_INT(l->masked_paths_len, 10);
		CHECK_STR(l->readonly_paths[4], "/proc/sysrq-trigger");
		CHECK(oci_linux_find_namespace(l, OCI_NS_USER) == NULL);
		CHECK(oci_linux_find_namespace(l, OCI_NS_MOUNT) == &l->namespaces[4]);
	}
	oci_spec_free(spec);
}

TEST(runc_rootless_spec_parses)
{
	struct oci_spec *spec = parse_fixture("runc-spec-rootless.json");

	if (!CHECK(spec))
		return;
	CHECK_INT(spec->linux_->uid_mappings_len, 1);
	CHECK_INT(spec->linux_->uid_mappings[0].size, 1);
	CHECK_INT(spec->linux_->gid_mappings_len, 1);
	CHECK(spec->linux_->resources == NULL);
	CHECK(oci_linux_find_namespace(spec->linux_, OCI_NS_USER) != NULL);
	CHECK_STR(spec->mounts[5].type, "none");
	oci_spec_free(spec);
}

TEST(full_spec_process)
{
	struct oci_spec *spec = parse_fixture("full.json");
	const struct oci_process *p;

	if (!CHECK(spec))
		return;
	p = spec->process;
	CHECK(!p->terminal);
	CHECK(p->has_console_size);
	CHECK_INT(p->console_size.height, 25);
	CHECK_INT(p->console_size.width, 80);
	CHECK_INT(p->user.uid, 1000);
	CHECK_INT(p->user.gid, 1001);
	CHECK(p->user.has_umask);
	CHECK_INT(p->user.umask, 18);
	CHECK_INT(p->user.additional_gids_len, 3);
	CHECK_INT(p->user.additional_gids[2], 4294967294u);
	CHECK_INT(p->args_len, 3);
	CHECK_STR(p->args[2], "echo hello");
	CHECK_STR(p->env[1], "EMPTY=");
	CHECK_STR(p->cwd, "/home/user");
	CHECK_INT(p->capabilities->bounding_len, 2);
	CHECK_INT(p->capabilities->effective_len, 1);
	CHECK_INT(p->capabilities->inheritable_len, 0);
	CHECK_INT(p->capabilities->permitted_len, 2);
	CHECK_STR(p->capabilities->ambient[0], "CAP_KILL");
	CHECK_INT(p->rlimits_len, 2);
	CHECK(p->rlimits[1].hard == UINT64_MAX);
	CHECK_INT(p->rlimits[1].soft, 0);
	CHECK(p->no_new_privileges);
	CHECK_STR(p->apparmor_profile, "docker-default");
	CHECK(p->has_oom_score_adj);
	CHECK_INT(p->oom_score_adj, -500);
	CHECK_STR(p->selinux_label, "system_u:system_r:svirt_lxc_net_t:s0:c124,c675");
	CHECK_STR(p->scheduler->policy, "SCHED_BATCH");
	CHECK(p->scheduler->has_nice);
	CHECK_INT(p->scheduler->nice, -5);
	CHECK(!p->scheduler->has_priority);
	CHECK_INT(p->scheduler->flags_len, 1);
	CHECK_STR(p->io_priority->class, "IOPRIO_CLASS_BE");
	CHECK_INT(p->io_priority->priority, 4);
	CHECK_STR(p->exec_cpu_affinity->initial, "0");
	CHECK_STR(p->exec_cpu_affinity->final, "0-3");
	oci_spec_free(spec);
}

TEST(full_spec_root_mounts_hooks_annotations)
{
	struct oci_spec *spec = parse_fixture("full.json");
	const struct oci_hooks *h;

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->oci_version, "1.2.0");
	CHECK_STR(spec->root->path, "/var/lib/rootfs");
	CHECK(spec->root->readonly);
	CHECK_STR(spec->hostname, "box");
	CHECK_STR(spec->domainname, "example.org");
	CHECK_INT(spec->mounts_len, 2);
	CHECK_STR(spec->mounts[1].destination, "/data");
	CHECK_STR(spec->mounts[1].type, "bind");
	CHECK_STR(spec->mounts[1].source, "/srv/data");
	CHECK_INT(spec->mounts[1].options_len, 2);
	CHECK_STR(spec->mounts[1].options[1], "ro");
	CHECK_INT(spec->mounts[1].uid_mappings_len, 1);
	CHECK_INT(spec->mounts[1].uid_mappings[0].host_id, 100000);
	CHECK_INT(spec->mounts[1].gid_mappings[0].host_id, 200000);
	CHECK_INT(spec->mounts[1].gid_mappings[0].size, 65536);
	h = spec->hooks;
	if (CHECK(h)) {
		CHECK_INT(h->prestart_len, 1);
		CHECK_STR(h->prestart[0].args[1], "arg1");
		CHECK_STR(h->prestart[0].env[0], "K=V");
		CHECK(!h->prestart[0].has_timeout);
		CHECK_INT(h->create_runtime_len, 1);
		CHECK(h->create_runtime[0].has_timeout);
		CHECK_INT(h->create_runtime[0].timeout, 5);
		CHECK_STR(h->create_container[0].path, "/usr/bin/cc-hook");
		CHECK_STR(h->start_container[0].path, "/usr/bin/sc-hook");
		CHECK_STR(h->poststart[0].args[1], "started");
		CHECK_INT(h->poststop[0].timeout, 30);
	}
	CHECK_INT(spec->annotations.len, 2);
	CHECK_STR(spec->annotations.entries[0].key, "com.example.key1");
	CHECK_STR(oci_map_get(&spec->annotations, "com.example.key2"), "value2");
	CHECK(oci_map_get(&spec->annotations, "nope") == NULL);
	oci_spec_free(spec);
}

TEST(full_spec_linux)
{
	struct oci_spec *spec = parse_fixture("full.json");
	const struct oci_linux *l;

	if (!CHECK(spec))
		return;
	l = spec->linux_;
	CHECK_INT(l->namespaces_len, 8);
	CHECK_INT(l->namespaces[7].type, OCI_NS_TIME);
	CHECK_STR(l->namespaces[1].path, "/var/run/netns/blue");
	CHECK_INT(l->uid_mappings_len, 2);
	CHECK_INT(l->uid_mappings[1].container_id, 1);
	CHECK_INT(l->uid_mappings[1].size, 65535);
	CHECK_INT(l->gid_mappings_len, 1);
	CHECK_INT(l->devices_len, 3);
	CHECK_STR(l->devices[0].type, "c");
	CHECK_INT(l->devices[0].major, 10);
	CHECK_INT(l->devices[0].minor, 229);
	CHECK(l->devices[0].has_file_mode);
	CHECK_INT(l->devices[0].file_mode, 0666);
	CHECK(l->devices[0].has_uid && l->devices[0].has_gid);
	CHECK(!l->devices[1].has_file_mode);
	CHECK_STR(l->devices[2].type, "p");
	CHECK_STR(l->cgroups_path, "/myRuntime/myContainer");
	CHECK_STR(l->rootfs_propagation, "rslave");
	CHECK_INT(l->sysctl.len, 2);
	CHECK_STR(oci_map_get(&l->sysctl, "net.core.somaxconn"), "256");
	CHECK_INT(l->masked_paths_len, 2);
	CHECK_INT(l->readonly_paths_len, 2);
	CHECK_STR(l->mount_label, "system_u:object_r:svirt_sandbox_file_t:s0:c715,c811");
	CHECK_STR(l->intel_rdt->clos_id, "guaranteed_group");
	CHECK_STR(l->intel_rdt->l3_cache_schema, "L3:0=7f0;1=1f");
	CHECK_STR(l->intel_rdt->mem_bw_schema, "MB:0=20;1=70");
	CHECK(l->intel_rdt->enable_cmt && !l->intel_rdt->enable_mbm);
	CHECK_INT(l->personality->domain, OCI_PERSONALITY_LINUX32);
	CHECK_INT(l->personality->flags_len, 0);
	CHECK_INT(l->time_offsets_len, 2);
	CHECK_STR(l->time_offsets[0].clock, "monotonic");
	CHECK_INT(l->time_offsets[0].secs, -3600);
	CHECK_INT(l->time_offsets[0].nanosecs, 5);
	CHECK_STR(l->time_offsets[1].clock, "boottime");
	CHECK_INT(l->time_offsets[1].secs, 86400);
	CHECK_INT(l->net_devices_len, 2);
	CHECK_STR(l->net_devices[0].host_name, "eth1");
	CHECK_STR(l->net_devices[0].name, "ctr1");
	CHECK_STR(l->net_devices[1].host_name, "ens4");
	CHECK(l->net_devices[1].name == NULL);
	oci_spec_free(spec);
}

TEST(full_spec_resources)
{
	struct oci_spec *spec = parse_fixture("full.json");
	const struct oci_resources *r;

	if (!CHECK(spec))
		return;
	r = spec->linux_->resources;
	CHECK_INT(r->devices_len, 2);
	CHECK(r->devices[1].allow);
	CHECK_STR(r->devices[1].type, "c");
	CHECK(r->devices[1].has_major && r->devices[1].has_minor);
	CHECK_INT(r->devices[1].minor, 229);
	CHECK(r->memory->has_limit);
	CHECK_INT(r->memory->limit, 536870912);
	CHECK_INT(r->memory->swap, -1);
	CHECK(r->memory->has_kernel_tcp);
	CHECK_INT(r->memory->kernel_tcp, -1);
	CHECK(r->memory->has_swappiness);
	CHECK_INT(r->memory->swappiness, 0);
	CHECK(r->memory->has_disable_oom_killer && !r->memory->disable_oom_killer);
	CHECK(r->memory->has_use_hierarchy && r->memory->use_hierarchy);
	CHECK(r->memory->has_check_before_update && r->memory->check_before_update);
	CHECK_INT(r->cpu->shares, 1024);
	CHECK_INT(r->cpu->quota, 1000000);
	CHECK_INT(r->cpu->burst, 1000000);
	CHECK_INT(r->cpu->period, 500000);
	CHECK_INT(r->cpu->realtime_runtime, 950000);
	CHECK_INT(r->cpu->realtime_period, 1000000);
	CHECK_STR(r->cpu->cpus, "2-3");
	CHECK_STR(r->cpu->mems, "0-7");
	CHECK(r->cpu->has_idle);
	CHECK_INT(r->cpu->idle, 0);
	CHECK(r->pids->has_limit);
	CHECK_INT(r->pids->limit, 32771);
	CHECK_INT(r->block_io->weight, 10);
	CHECK_INT(r->block_io->leaf_weight, 10);
	CHECK_INT(r->block_io->weight_device_len, 2);
	CHECK(r->block_io->weight_device[0].has_leaf_weight);
	CHECK(!r->block_io->weight_device[1].has_leaf_weight);
	CHECK_INT(r->block_io->weight_device[1].minor, 16);
	CHECK_INT(r->block_io->throttle_read_bps_device[0].rate, 600);
	CHECK_INT(r->block_io->throttle_write_bps_device[0].rate, 700);
	CHECK_INT(r->block_io->throttle_read_iops_device[0].rate, 800);
	CHECK_INT(r->block_io->throttle_write_iops_device[0].minor, 16);
	CHECK_INT(r->hugepage_limits_len, 2);
	CHECK_STR(r->hugepage_limits[1].page_size, "64KB");
	CHECK(r->network->has_class_id);
	CHECK_INT(r->network->class_id, 1048577);
	CHECK_INT(r->network->priorities_len, 2);
	CHECK_STR(r->network->priorities[1].name, "eth1");
	CHECK_INT(r->network->priorities[1].priority, 1000);
	CHECK_INT(r->rdma_len, 2);
	CHECK_STR(r->rdma[0].device, "mlx5_1");
	CHECK(r->rdma[0].has_hca_handles);
	CHECK_INT(r->rdma[0].hca_objects, 10000);
	CHECK(!r->rdma[1].has_hca_handles);
	CHECK_STR(oci_map_get(&r->unified, "io.max"), "259:0 rbps=2097152");
	oci_spec_free(spec);
}

TEST(full_spec_seccomp)
{
	struct oci_spec *spec = parse_fixture("full.json");
	const struct oci_seccomp *s;

	if (!CHECK(spec))
		return;
	s = spec->linux_->seccomp;
	CHECK_INT(s->default_action, OCI_SECCOMP_ACT_ERRNO);
	CHECK(s->has_default_errno_ret);
	CHECK_INT(s->default_errno_ret, 38);
	CHECK_INT(s->architectures_len, 3);
	CHECK_STR(s->architectures[2], "SCMP_ARCH_X32");
	CHECK_STR(s->flags[0], "SECCOMP_FILTER_FLAG_LOG");
	CHECK_STR(s->listener_path, "/run/seccomp-agent.socket");
	CHECK_STR(s->listener_metadata, "metadata");
	CHECK_INT(s->syscalls_len, 4);
	CHECK_INT(s->syscalls[0].names_len, 2);
	CHECK_STR(s->syscalls[0].names[1], "chmod");
	CHECK_INT(s->syscalls[0].action, OCI_SECCOMP_ACT_ALLOW);
	CHECK_INT(s->syscalls[1].args_len, 2);
	CHECK_INT(s->syscalls[1].args[0].op, OCI_SECCOMP_CMP_EQ);
	CHECK(!s->syscalls[1].args[0].has_value_two);
	CHECK_INT(s->syscalls[1].args[1].index, 1);
	CHECK_INT(s->syscalls[1].args[1].value, 255);
	CHECK(s->syscalls[1].args[1].has_value_two);
	CHECK_INT(s->syscalls[1].args[1].value_two, 4);
	CHECK_INT(s->syscalls[1].args[1].op, OCI_SECCOMP_CMP_MASKED_EQ);
	CHECK(s->syscalls[2].has_errno_ret);
	CHECK_INT(s->syscalls[2].errno_ret, 1);
	CHECK_INT(s->syscalls[3].action, OCI_SECCOMP_ACT_NOTIFY);
	oci_spec_free(spec);
}

TEST(minimal_spec_has_no_optional_sections)
{
	struct oci_spec *spec = parse_ok(MINIMAL(""));

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->oci_version, "1.2.0");
	CHECK(spec->process == NULL && spec->root == NULL && spec->linux_ == NULL);
	CHECK(spec->hooks == NULL && spec->mounts == NULL && spec->mounts_len == 0);
	CHECK(spec->hostname == NULL && spec->annotations.len == 0);
	oci_spec_free(spec);
}

/* runtime-spec 1.2: relative to the container's root */
TEST(relative_mount_destination_is_under_the_root)
{
	struct oci_spec *spec = parse_ok(
		MINIMAL(", \"mounts\": [{\"destination\": \"dev/shm\", \"type\": \"tmpfs\"}]"));

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->mounts[0].destination, "/dev/shm");
	oci_spec_free(spec);
}

TEST(unknown_fields_are_ignored)
{
	struct oci_spec *spec = parse_ok(
		MINIMAL(", \"fooBar\": {\"x\": [1, 2.5e10, null, true, \"s\"]}, \"linux\": "
			"{\"futureField\": 1, \"resources\": {\"newController\": {}}}"));

	CHECK(spec && spec->linux_ && spec->linux_->resources);
	oci_spec_free(spec);
}

TEST(null_counts_as_absent)
{
	struct oci_spec *spec =
		parse_ok(MINIMAL(", \"hostname\": null, \"root\": null, \"mounts\": null"));

	CHECK(spec && spec->hostname == NULL && spec->root == NULL && spec->mounts_len == 0);
	oci_spec_free(spec);
}

TEST(duplicate_keys_last_wins)
{
	struct oci_spec *spec =
		parse_ok("{\"ociVersion\": \"1.0.0\", \"hostname\": \"a\", \"hostname\": \"b\", "
			 "\"annotations\": {\"k\": \"1\", \"j\": \"x\", \"k\": \"2\"}, "
			 "\"linux\": {\"netDevices\": {\"eth0\": {\"name\": \"a\"}, \"eth0\": "
			 "{\"name\": \"b\"}}}, "
			 "\"ociVersion\": \"1.2.0\"}");

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->oci_version, "1.2.0");
	CHECK_STR(spec->hostname, "b");
	CHECK_INT(spec->annotations.len, 2);
	CHECK_STR(spec->annotations.entries[0].key, "j");
	CHECK_STR(oci_map_get(&spec->annotations, "k"), "2");
	CHECK_INT(spec->linux_->net_devices_len, 1);
	CHECK_STR(spec->linux_->net_devices[0].name, "b");
	oci_spec_free(spec);
}

TEST(unicode_strings_and_escapes)
{
	struct oci_spec *spec =
		parse_ok(MINIMAL(", \"hostname\": \"h\\u00e9\\/x\", \"annotations\": "
				 "{\"\\u2603\": \"snow \\ud83d\\ude00\"}"));

	if (!CHECK(spec))
		return;
	CHECK_STR(spec->hostname, "h\xc3\xa9/x");
	CHECK_STR(spec->annotations.entries[0].key, "\xe2\x98\x83");
	CHECK_STR(spec->annotations.entries[0].value, "snow \xf0\x9f\x98\x80");
	oci_spec_free(spec);
}

TEST(boundary_numbers_accepted)
{
	struct oci_spec *spec = parse_ok(WITH_LINUX(
		"\"uidMappings\": [{\"containerID\": 0, \"hostID\": 4294967295, \"size\": 1}],"
		"\"resources\": {\"memory\": {\"limit\": -9223372036854775808, "
		"\"reservation\": 9223372036854775807}, \"cpu\": {\"shares\": "
		"18446744073709551615}}"));

	if (!CHECK(spec))
		return;
	CHECK(spec->linux_->uid_mappings[0].host_id == UINT32_MAX);
	CHECK(spec->linux_->resources->memory->limit == INT64_MIN);
	CHECK(spec->linux_->resources->memory->reservation == INT64_MAX);
	CHECK(spec->linux_->resources->cpu->shares == UINT64_MAX);
	oci_spec_free(spec);
}

TEST(empty_arrays_give_null)
{
	struct oci_spec *spec = parse_ok(
		MINIMAL(", \"mounts\": [], \"linux\": {\"namespaces\": [], \"maskedPaths\": []}"));

	if (!CHECK(spec))
		return;
	CHECK(spec->mounts == NULL && spec->mounts_len == 0);
	CHECK(spec->linux_->namespaces == NULL && spec->linux_->masked_paths_len == 0);
	oci_spec_free(spec);
}
