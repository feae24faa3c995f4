/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Free functions for every type in spec.h.  All are NULL-safe, and all cope
 * with partly filled structs (the parser stores as it goes). */
#include "spec.h"

#include <stdlib.h>

#define FREE_ARRAY(array, len, free_item)                \
	do {                                             \
		size_t i_;                               \
		if ((array) != NULL)                     \
			for (i_ = 0; i_ < (len); i_++)   \
				free_item(&(array)[i_]); \
		free(array);                             \
	} while (0)

void oci_user_free(struct oci_user *user)
{
	if (user == NULL)
		return;
	free(user->additional_gids);
	user->additional_gids = NULL;
	user->additional_gids_len = 0;
}

void oci_capabilities_free(struct oci_capabilities *capabilities)
{
	if (capabilities == NULL)
		return;
	oci_strv_free(capabilities->bounding, capabilities->bounding_len);
	oci_strv_free(capabilities->effective, capabilities->effective_len);
	oci_strv_free(capabilities->inheritable, capabilities->inheritable_len);
	oci_strv_free(capabilities->permitted, capabilities->permitted_len);
	oci_strv_free(capabilities->ambient, capabilities->ambient_len);
	free(capabilities);
}

void oci_rlimit_free(struct oci_rlimit *rlimit)
{
	if (rlimit)
		free(rlimit->type);
}

void oci_scheduler_free(struct oci_scheduler *scheduler)
{
	if (scheduler == NULL)
		return;
	free(scheduler->policy);
	oci_strv_free(scheduler->flags, scheduler->flags_len);
	free(scheduler);
}

void oci_io_priority_free(struct oci_io_priority *io_priority)
{
	if (io_priority == NULL)
		return;
	free(io_priority->class);
	free(io_priority);
}

void oci_exec_cpu_affinity_free(struct oci_exec_cpu_affinity *affinity)
{
	if (affinity == NULL)
		return;
	free(affinity->initial);
	free(affinity->final);
	free(affinity);
}

void oci_process_free(struct oci_process *process)
{
	if (process == NULL)
		return;
	oci_user_free(&process->user);
	oci_strv_free(process->args, process->args_len);
	oci_strv_free(process->env, process->env_len);
	free(process->cwd);
	oci_capabilities_free(process->capabilities);
	FREE_ARRAY(process->rlimits, process->rlimits_len, oci_rlimit_free);
	free(process->apparmor_profile);
	free(process->selinux_label);
	oci_scheduler_free(process->scheduler);
	oci_io_priority_free(process->io_priority);
	oci_exec_cpu_affinity_free(process->exec_cpu_affinity);
	free(process);
}

void oci_root_free(struct oci_root *root)
{
	if (root == NULL)
		return;
	free(root->path);
	free(root);
}

void oci_mount_free(struct oci_mount *mount)
{
	if (mount == NULL)
		return;
	free(mount->destination);
	free(mount->type);
	free(mount->source);
	oci_strv_free(mount->options, mount->options_len);
	free(mount->uid_mappings);
	free(mount->gid_mappings);
}

void oci_hook_free(struct oci_hook *hook)
{
	if (hook == NULL)
		return;
	free(hook->path);
	oci_strv_free(hook->args, hook->args_len);
	oci_strv_free(hook->env, hook->env_len);
}

void oci_hooks_free(struct oci_hooks *hooks)
{
	if (hooks == NULL)
		return;
	FREE_ARRAY(hooks->prestart, hooks->prestart_len, oci_hook_free);
	FREE_ARRAY(hooks->create_runtime, hooks->create_runtime_len, oci_hook_free);
	FREE_ARRAY(hooks->create_container, hooks->create_container_len, oci_hook_free);
	FREE_ARRAY(hooks->start_container, hooks->start_container_len, oci_hook_free);
	FREE_ARRAY(hooks->poststart, hooks->poststart_len, oci_hook_free);
	FREE_ARRAY(hooks->poststop, hooks->poststop_len, oci_hook_free);
	free(hooks);
}

void oci_namespace_free(struct oci_namespace *ns)
{
	if (ns)
		free(ns->path);
}

void oci_device_free(struct oci_device *device)
{
	if (device == NULL)
		return;
	free(device->type);
	free(device->path);
}

void oci_device_cgroup_free(struct oci_device_cgroup *device)
{
	if (device == NULL)
		return;
	free(device->type);
	free(device->access);
}

void oci_memory_free(struct oci_memory *memory)
{
	free(memory);
}

void oci_cpu_free(struct oci_cpu *cpu)
{
	if (cpu == NULL)
		return;
	free(cpu->cpus);
	free(cpu->mems);
	free(cpu);
}

void oci_pids_free(struct oci_pids *pids)
{
	free(pids);
}

void oci_block_io_free(struct oci_block_io *block_io)
{
	if (block_io == NULL)
		return;
	free(block_io->weight_device);
	free(block_io->throttle_read_bps_device);
	free(block_io->throttle_write_bps_device);
	free(block_io->throttle_read_iops_device);
	free(block_io->throttle_write_iops_device);
	free(block_io);
}

void oci_hugepage_limit_free(struct oci_hugepage_limit *limit)
{
	if (limit)
		free(limit->page_size);
}

void oci_interface_priority_free(struct oci_interface_priority *priority)
{
	if (priority)
		free(priority->name);
}

void oci_network_free(struct oci_network *network)
{
	if (network == NULL)
		return;
	FREE_ARRAY(network->priorities, network->priorities_len, oci_interface_priority_free);
	free(network);
}

void oci_rdma_free(struct oci_rdma *rdma)
{
	if (rdma)
		free(rdma->device);
}

void oci_resources_free(struct oci_resources *resources)
{
	if (resources == NULL)
		return;
	FREE_ARRAY(resources->devices, resources->devices_len, oci_device_cgroup_free);
	oci_memory_free(resources->memory);
	oci_cpu_free(resources->cpu);
	oci_pids_free(resources->pids);
	oci_block_io_free(resources->block_io);
	FREE_ARRAY(resources->hugepage_limits, resources->hugepage_limits_len,
		   oci_hugepage_limit_free);
	oci_network_free(resources->network);
	FREE_ARRAY(resources->rdma, resources->rdma_len, oci_rdma_free);
	oci_map_free(&resources->unified);
	free(resources);
}

void oci_seccomp_syscall_free(struct oci_seccomp_syscall *syscall)
{
	if (syscall == NULL)
		return;
	oci_strv_free(syscall->names, syscall->names_len);
	free(syscall->args);
}

void oci_seccomp_free(struct oci_seccomp *seccomp)
{
	if (seccomp == NULL)
		return;
	oci_strv_free(seccomp->architectures, seccomp->architectures_len);
	oci_strv_free(seccomp->flags, seccomp->flags_len);
	free(seccomp->listener_path);
	free(seccomp->listener_metadata);
	FREE_ARRAY(seccomp->syscalls, seccomp->syscalls_len, oci_seccomp_syscall_free);
	free(seccomp);
}

void oci_intel_rdt_free(struct oci_intel_rdt *intel_rdt)
{
	if (intel_rdt == NULL)
		return;
	free(intel_rdt->clos_id);
	free(intel_rdt->l3_cache_schema);
	free(intel_rdt->mem_bw_schema);
	free(intel_rdt);
}

void oci_personality_free(struct oci_personality *personality)
{
	if (personality == NULL)
		return;
	oci_strv_free(personality->flags, personality->flags_len);
	free(personality);
}

void oci_time_offset_free(struct oci_time_offset *offset)
{
	if (offset)
		free(offset->clock);
}

void oci_net_device_free(struct oci_net_device *device)
{
	if (device == NULL)
		return;
	free(device->host_name);
	free(device->name);
}

void oci_linux_free(struct oci_linux *linux_)
{
	if (linux_ == NULL)
		return;
	FREE_ARRAY(linux_->namespaces, linux_->namespaces_len, oci_namespace_free);
	free(linux_->uid_mappings);
	free(linux_->gid_mappings);
	FREE_ARRAY(linux_->devices, linux_->devices_len, oci_device_free);
	free(linux_->cgroups_path);
	oci_resources_free(linux_->resources);
	free(linux_->rootfs_propagation);
	oci_seccomp_free(linux_->seccomp);
	oci_map_free(&linux_->sysctl);
	oci_strv_free(linux_->masked_paths, linux_->masked_paths_len);
	oci_strv_free(linux_->readonly_paths, linux_->readonly_paths_len);
	free(linux_->mount_label);
	oci_intel_rdt_free(linux_->intel_rdt);
	oci_personality_free(linux_->personality);
	FREE_ARRAY(linux_->time_offsets, linux_->time_offsets_len, oci_time_offset_free);
	FREE_ARRAY(linux_->net_devices, linux_->net_devices_len, oci_net_device_free);
	free(linux_);
}

void oci_spec_free(struct oci_spec *spec)
{
	if (spec == NULL)
		return;
	free(spec->oci_version);
	oci_process_free(spec->process);
	oci_root_free(spec->root);
	free(spec->hostname);
	free(spec->domainname);
	FREE_ARRAY(spec->mounts, spec->mounts_len, oci_mount_free);
	oci_hooks_free(spec->hooks);
	oci_map_free(&spec->annotations);
	oci_linux_free(spec->linux_);
	free(spec);
}

void oci_state_free(struct oci_state *state)
{
	if (state == NULL)
		return;
	free(state->oci_version);
	free(state->id);
	free(state->bundle);
	oci_map_free(&state->annotations);
	free(state->rootfs);
	free(state->owner);
	free(state);
}
