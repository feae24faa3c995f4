/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct oci_spec -> config.json, laid out as runc (Go's runtime-spec
 * specs-go structs) would write it: Go field order, `omitempty` fields left
 * out when empty, map keys sorted, tab indent.  Parsing runc's own output and
 * writing it back gives the same bytes (see the tests). */
#include "spec.h"
#include "emit_fields.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- process ---------- */

static void gen_rlimit(struct gen *gen, const void *item)
{
	const struct oci_rlimit *r = item;

	oci_key_string_always(gen, "type", r->type);
	oci_key_uint(gen, "hard", true, r->hard);
	oci_key_uint(gen, "soft", true, r->soft);
}

static void gen_process(struct gen *gen, const struct oci_process *p)
{
	size_t i;

	oci_gen_key(gen, "process");
	oci_gen_map_open(gen);
	oci_key_bool(gen, "terminal", p->terminal, true);
	if (p->has_console_size) {
		oci_gen_key(gen, "consoleSize");
		oci_gen_map_open(gen);
		oci_key_uint(gen, "height", true, p->console_size.height);
		oci_key_uint(gen, "width", true, p->console_size.width);
		oci_gen_map_close(gen);
	}
	oci_gen_key(gen, "user");
	oci_gen_map_open(gen);
	oci_key_uint(gen, "uid", true, p->user.uid);
	oci_key_uint(gen, "gid", true, p->user.gid);
	oci_key_uint(gen, "umask", p->user.has_umask, p->user.umask);
	if (p->user.additional_gids_len) {
		oci_gen_key(gen, "additionalGids");
		oci_gen_array_open(gen);
		for (i = 0; i < p->user.additional_gids_len; i++)
			oci_gen_uint(gen, p->user.additional_gids[i]);
		oci_gen_array_close(gen);
	}
	oci_gen_map_close(gen);
	oci_key_strv(gen, "args", p->args, p->args_len);
	oci_key_strv(gen, "env", p->env, p->env_len);
	oci_key_string_always(gen, "cwd", p->cwd);
	if (p->capabilities) {
		const struct oci_capabilities *c = p->capabilities;

		oci_gen_key(gen, "capabilities");
		oci_gen_map_open(gen);
		oci_key_strv(gen, "bounding", c->bounding, c->bounding_len);
		oci_key_strv(gen, "effective", c->effective, c->effective_len);
		oci_key_strv(gen, "inheritable", c->inheritable, c->inheritable_len);
		oci_key_strv(gen, "permitted", c->permitted, c->permitted_len);
		oci_key_strv(gen, "ambient", c->ambient, c->ambient_len);
		oci_gen_map_close(gen);
	}
	oci_key_object_array(gen, "rlimits", p->rlimits, p->rlimits_len, sizeof(*p->rlimits),
			     gen_rlimit);
	oci_key_bool(gen, "noNewPrivileges", p->no_new_privileges, true);
	oci_key_string(gen, "apparmorProfile", p->apparmor_profile);
	oci_key_int(gen, "oomScoreAdj", p->has_oom_score_adj, p->oom_score_adj);
	if (p->scheduler) {
		const struct oci_scheduler *s = p->scheduler;

		oci_gen_key(gen, "scheduler");
		oci_gen_map_open(gen);
		oci_key_string_always(gen, "policy", s->policy);
		oci_key_int(gen, "nice", s->has_nice, s->nice);
		oci_key_int(gen, "priority", s->has_priority, s->priority);
		oci_key_strv(gen, "flags", s->flags, s->flags_len);
		oci_key_uint(gen, "runtime", s->has_runtime, s->runtime);
		oci_key_uint(gen, "deadline", s->has_deadline, s->deadline);
		oci_key_uint(gen, "period", s->has_period, s->period);
		oci_gen_map_close(gen);
	}
	oci_key_string(gen, "selinuxLabel", p->selinux_label);
	if (p->io_priority) {
		oci_gen_key(gen, "ioPriority");
		oci_gen_map_open(gen);
		oci_key_string_always(gen, "class", p->io_priority->class);
		oci_key_int(gen, "priority", true, p->io_priority->priority);
		oci_gen_map_close(gen);
	}
	if (p->exec_cpu_affinity) {
		oci_gen_key(gen, "execCPUAffinity");
		oci_gen_map_open(gen);
		oci_key_string(gen, "initial", p->exec_cpu_affinity->initial);
		oci_key_string(gen, "final", p->exec_cpu_affinity->final);
		oci_gen_map_close(gen);
	}
	oci_gen_map_close(gen);
}

/* ---------- mounts, hooks ---------- */

static void gen_mount(struct gen *gen, const void *item)
{
	const struct oci_mount *m = item;

	oci_key_string_always(gen, "destination", m->destination);
	oci_key_string(gen, "type", m->type);
	oci_key_string(gen, "source", m->source);
	oci_key_strv(gen, "options", m->options, m->options_len);
	oci_key_id_mappings(gen, "uidMappings", m->uid_mappings, m->uid_mappings_len);
	oci_key_id_mappings(gen, "gidMappings", m->gid_mappings, m->gid_mappings_len);
}

static void gen_hook(struct gen *gen, const void *item)
{
	const struct oci_hook *h = item;

	oci_key_string_always(gen, "path", h->path);
	oci_key_strv(gen, "args", h->args, h->args_len);
	oci_key_strv(gen, "env", h->env, h->env_len);
	oci_key_int(gen, "timeout", h->has_timeout, h->timeout);
}

static void gen_hook_list(struct gen *gen, const char *key, const struct oci_hook *hooks,
			  size_t len)
{
	oci_key_object_array(gen, key, hooks, len, sizeof(*hooks), gen_hook);
}

static void gen_hooks(struct gen *gen, const struct oci_hooks *h)
{
	oci_gen_key(gen, "hooks");
	oci_gen_map_open(gen);
	gen_hook_list(gen, "prestart", h->prestart, h->prestart_len);
	gen_hook_list(gen, "createRuntime", h->create_runtime, h->create_runtime_len);
	gen_hook_list(gen, "createContainer", h->create_container, h->create_container_len);
	gen_hook_list(gen, "startContainer", h->start_container, h->start_container_len);
	gen_hook_list(gen, "poststart", h->poststart, h->poststart_len);
	gen_hook_list(gen, "poststop", h->poststop, h->poststop_len);
	oci_gen_map_close(gen);
}

int oci_spec_to_json(const struct oci_spec *spec, char **out)
{
	struct gen gen;

	if (oci_gen_begin(&gen) < 0)
		return -1;
	oci_gen_map_open(&gen);
	oci_key_string_always(&gen, "ociVersion", spec->oci_version);
	if (spec->process)
		gen_process(&gen, spec->process);
	if (spec->root) {
		oci_gen_key(&gen, "root");
		oci_gen_map_open(&gen);
		oci_key_string_always(&gen, "path", spec->root->path);
		oci_key_bool(&gen, "readonly", spec->root->readonly, true);
		oci_gen_map_close(&gen);
	}
	oci_key_string(&gen, "hostname", spec->hostname);
	oci_key_string(&gen, "domainname", spec->domainname);
	oci_key_object_array(&gen, "mounts", spec->mounts, spec->mounts_len, sizeof(*spec->mounts),
			     gen_mount);
	if (spec->hooks)
		gen_hooks(&gen, spec->hooks);
	oci_key_map(&gen, "annotations", &spec->annotations);
	if (spec->linux_)
		oci_gen_linux(&gen, spec->linux_);
	oci_gen_map_close(&gen);
	return oci_gen_finish(&gen, "\t", false, out);
}
