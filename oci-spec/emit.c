/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Serialisers: container state (`runc state` and the hook stdin format) and
 * `features`.  The default config.json is in emit_default.c. */
#include "spec.h"
#include "emit_fields.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef KCRUN_VERSION
#define KCRUN_VERSION "0.1.0"
#endif

/* Go's time.RFC3339Nano for a UTC time: fraction without trailing zeros, and
 * none at all when it is zero. */
static int format_rfc3339_nano(const struct timespec *ts, char *buf, size_t size)
{
	struct tm tm;
	time_t secs = ts->tv_sec;
	char frac[16] = "";
	size_t n;

	if (gmtime_r(&secs, &tm) == NULL || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000L)
		return -1;
	if (ts->tv_nsec) {
		snprintf(frac, sizeof(frac), ".%09ld", ts->tv_nsec);
		n = strlen(frac);
		while (frac[n - 1] == '0')
			frac[--n] = '\0';
	}
	if (snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d%sZ", tm.tm_year + 1900,
		     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		     frac) >= (int)size)
		return -1;
	return 0;
}

/* Opens a state object with the two fields both state layouts start with. */
static int gen_state_begin(struct gen *gen, const struct oci_state *state)
{
	if (oci_gen_begin(gen) < 0)
		return -1;
	oci_gen_map_open(gen);
	oci_key_string_always(gen, "ociVersion", state->oci_version);
	oci_key_string_always(gen, "id", state->id);
	return 0;
}

/* Field order and names of runc 1.1's containerState (list.go). */
int oci_state_to_json(const struct oci_state *state, char **out)
{
	const char *status = oci_status_name(state->status);
	char created[64];
	struct gen gen;

	if (status == NULL || format_rfc3339_nano(&state->created, created, sizeof(created)) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (gen_state_begin(&gen, state) < 0)
		return -1;
	oci_key_int(&gen, "pid", true, state->pid);
	oci_key_string_always(&gen, "status", status);
	oci_key_string_always(&gen, "bundle", state->bundle);
	oci_key_string_always(&gen, "rootfs", state->rootfs);
	oci_key_string_always(&gen, "created", created);
	oci_key_map(&gen, "annotations", &state->annotations);
	oci_key_string_always(&gen, "owner", state->owner);
	oci_gen_map_close(&gen);
	return oci_gen_finish(&gen, "  ", false, out);
}

/* The fields of specs.State after id, as hooks and listeners get them. */
static void gen_hook_state_rest(struct gen *gen, const struct oci_state *state, const char *status)
{
	oci_key_string_always(gen, "status", status);
	oci_key_int(gen, "pid", state->pid != 0, state->pid);
	oci_key_string_always(gen, "bundle", state->bundle);
	oci_key_map(gen, "annotations", &state->annotations);
	oci_gen_map_close(gen);
}

/* runtime-spec specs.State, marshalled compactly as runc hands it to hooks. */
int oci_state_to_hook_json(const struct oci_state *state, char **out)
{
	const char *status = oci_status_name(state->status);
	struct gen gen;

	if (status == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (gen_state_begin(&gen, state) < 0)
		return -1;
	gen_hook_state_rest(&gen, state, status);
	return oci_gen_finish(&gen, NULL, false, out);
}

/* runtime-spec specs.ContainerProcessState, compact, in runc's field order:
 * what a seccomp listener gets with the fds it names. */
int oci_process_state_to_json(const struct oci_state *state, int pid, const char *const *fds,
			      size_t fds_len, const char *metadata, char **out)
{
	const char *status = oci_status_name(state->status);
	struct gen gen;

	if (status == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (oci_gen_begin(&gen) < 0)
		return -1;
	oci_gen_map_open(&gen);
	oci_key_string_always(&gen, "ociVersion", state->oci_version);
	oci_gen_key_strv(&gen, "fds", fds, fds_len);
	oci_key_int(&gen, "pid", true, pid);
	oci_key_string(&gen, "metadata", metadata);
	oci_gen_key(&gen, "state");
	oci_gen_map_open(&gen);
	oci_key_string_always(&gen, "ociVersion", state->oci_version);
	oci_key_string_always(&gen, "id", state->id);
	gen_hook_state_rest(&gen, state, status);
	oci_gen_map_close(&gen);
	return oci_gen_finish(&gen, NULL, false, out);
}

/* ---------- features ---------- */

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const feature_hooks[] = {
	"prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop",
};

/* What container_create() can make (no time namespace in the kernel API). */
static const char *const feature_namespaces[] = {
	"cgroup", "ipc", "mount", "network", "pid", "user", "uts",
};

/* knownFlags: every linux.seccomp.flags name kcrun recognises;
 * supportedFlags: the ones it applies.  WAIT_KILLABLE_RECV is recognised
 * and refused: libseccomp 2.5 (Debian 12's) cannot set it. */
static const char *const feature_seccomp_known_flags[] = {
	"SECCOMP_FILTER_FLAG_LOG",
	"SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_TSYNC",
	"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
};
static const char *const feature_seccomp_supported_flags[] = {
	"SECCOMP_FILTER_FLAG_LOG",
	"SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_TSYNC",
};

static void gen_enabled(struct gen *gen, const char *key, bool enabled)
{
	oci_gen_key(gen, key);
	oci_gen_map_open(gen);
	oci_gen_key(gen, "enabled");
	oci_gen_bool(gen, enabled);
	oci_gen_map_close(gen);
}

/* Sorted names of an enum table, as runc lists actions and operators;
 * a NULL name is left out. */
static void gen_sorted_names(struct gen *gen, const char *key, const char *(*name)(int), int count)
{
	const char *names[16];
	int i, j, n = 0;

	for (i = 0; i < count && n < 16; i++) {
		const char *s = name(i);

		if (s == NULL)
			continue;
		for (j = n; j > 0 && strcmp(names[j - 1], s) > 0; j--)
			names[j] = names[j - 1];
		names[j] = s;
		n++;
	}
	oci_gen_key_strv(gen, key, names, (size_t)n);
}

/* Every action (SCMP_ACT_NOTIFY with a listenerPath: src/lib/seccomp_notify.h). */
static const char *action_name(int i)
{
	return oci_seccomp_action_name((enum oci_seccomp_action)i);
}

static const char *op_name(int i)
{
	return oci_seccomp_op_name((enum oci_seccomp_op)i);
}

/* Layout of runtime-spec 1.2 specs-go/features, indented as `runc features`
 * prints it (4 spaces, trailing newline). */
int oci_features_to_json(char **out)
{
	return oci_features_to_json_host(NULL, out);
}

int oci_features_to_json_host(const struct oci_features_host *host, char **out)
{
	const struct oci_map *extra = host ? host->annotations : NULL;
	bool systemd = host && host->systemd;
	/* the closed sets of names.c, filtered to what `features` lists */
	const char *names[128];
	struct gen gen;
	size_t i, n;

	if (oci_gen_begin(&gen) < 0)
		return -1;
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "ociVersionMin");
	oci_gen_string(&gen, OCI_SPEC_VERSION_MIN);
	oci_gen_key(&gen, "ociVersionMax");
	oci_gen_string(&gen, OCI_SPEC_VERSION);
	oci_gen_key_strv(&gen, "hooks", feature_hooks, N_ELEMENTS(feature_hooks));
	for (i = 0, n = 0; i < oci_mount_options_len && n < N_ELEMENTS(names); i++)
		if (oci_mount_options[i].feature)
			names[n++] = oci_mount_options[i].name;
	oci_gen_key_strv(&gen, "mountOptions", names, n);

	oci_gen_key(&gen, "linux");
	oci_gen_map_open(&gen);
	oci_gen_key_strv(&gen, "namespaces", feature_namespaces, N_ELEMENTS(feature_namespaces));
	for (n = 0; n < OCI_CAPABILITY_COUNT; n++)
		names[n] = oci_capability_name((int)n);
	oci_gen_key_strv(&gen, "capabilities", names, n);
	oci_gen_key(&gen, "cgroup");
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "v1");
	oci_gen_bool(&gen, false);
	oci_gen_key(&gen, "v2");
	oci_gen_bool(&gen, true);
	oci_gen_key(&gen, "systemd");
	oci_gen_bool(&gen, systemd);
	oci_gen_key(&gen, "systemdUser");
	oci_gen_bool(&gen, systemd);
	oci_gen_key(&gen, "rdma");
	oci_gen_bool(&gen, false);
	oci_gen_map_close(&gen);
	oci_gen_key(&gen, "seccomp");
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "enabled");
	oci_gen_bool(&gen, true);
	gen_sorted_names(&gen, "actions", action_name, OCI_SECCOMP_ACT__COUNT);
	gen_sorted_names(&gen, "operators", op_name, OCI_SECCOMP_CMP__COUNT);
	for (i = 0, n = 0; i < oci_seccomp_archs_len && n < N_ELEMENTS(names); i++)
		if (oci_seccomp_archs[i].feature)
			names[n++] = oci_seccomp_archs[i].name;
	oci_gen_key_strv(&gen, "archs", names, n);
	oci_gen_key_strv(&gen, "knownFlags", feature_seccomp_known_flags,
			 N_ELEMENTS(feature_seccomp_known_flags));
	oci_gen_key_strv(&gen, "supportedFlags", feature_seccomp_supported_flags,
			 N_ELEMENTS(feature_seccomp_supported_flags));
	oci_gen_map_close(&gen);
	/* process.apparmorProfile and process.selinuxLabel are applied
	 * (src/lib/procattrs.c); the spec asks whether the runtime supports
	 * them, whatever the host has */
	gen_enabled(&gen, "apparmor", true);
	gen_enabled(&gen, "selinux", true);
	/* linux.intelRdt and idmapped mounts are refused (src/lib/unsupported.c) */
	gen_enabled(&gen, "intelRdt", false);
	oci_gen_key(&gen, "mountExtensions");
	oci_gen_map_open(&gen);
	gen_enabled(&gen, "idmap", false);
	oci_gen_map_close(&gen);
	gen_enabled(&gen, "netDevices", true);
	oci_gen_map_close(&gen);

	oci_gen_key(&gen, "annotations");
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "org.kcrun.version");
	oci_gen_string(&gen, KCRUN_VERSION);
	for (i = 0; extra && i < extra->len; i++) {
		oci_gen_key(&gen, extra->entries[i].key);
		oci_gen_string(&gen, extra->entries[i].value);
	}
	oci_gen_map_close(&gen);
	oci_gen_map_close(&gen);
	return oci_gen_finish(&gen, "    ", true, out);
}
