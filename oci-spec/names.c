/* The closed sets of config.json names (namespace types, seccomp actions and
 * operators, container status) and the ordered string map. */
#include "spec.h"

#include <stdlib.h>
#include <string.h>

static const char *const namespace_names[OCI_NS__COUNT] = {
	[OCI_NS_PID] = "pid",	    [OCI_NS_NETWORK] = "network", [OCI_NS_MOUNT] = "mount",
	[OCI_NS_IPC] = "ipc",	    [OCI_NS_UTS] = "uts",	  [OCI_NS_USER] = "user",
	[OCI_NS_CGROUP] = "cgroup", [OCI_NS_TIME] = "time",
};

static const char *const seccomp_action_names[OCI_SECCOMP_ACT__COUNT] = {
	[OCI_SECCOMP_ACT_KILL] = "SCMP_ACT_KILL",
	[OCI_SECCOMP_ACT_KILL_PROCESS] = "SCMP_ACT_KILL_PROCESS",
	[OCI_SECCOMP_ACT_KILL_THREAD] = "SCMP_ACT_KILL_THREAD",
	[OCI_SECCOMP_ACT_TRAP] = "SCMP_ACT_TRAP",
	[OCI_SECCOMP_ACT_ERRNO] = "SCMP_ACT_ERRNO",
	[OCI_SECCOMP_ACT_TRACE] = "SCMP_ACT_TRACE",
	[OCI_SECCOMP_ACT_ALLOW] = "SCMP_ACT_ALLOW",
	[OCI_SECCOMP_ACT_LOG] = "SCMP_ACT_LOG",
	[OCI_SECCOMP_ACT_NOTIFY] = "SCMP_ACT_NOTIFY",
};

static const char *const seccomp_op_names[OCI_SECCOMP_CMP__COUNT] = {
	[OCI_SECCOMP_CMP_NE] = "SCMP_CMP_NE",
	[OCI_SECCOMP_CMP_LT] = "SCMP_CMP_LT",
	[OCI_SECCOMP_CMP_LE] = "SCMP_CMP_LE",
	[OCI_SECCOMP_CMP_EQ] = "SCMP_CMP_EQ",
	[OCI_SECCOMP_CMP_GE] = "SCMP_CMP_GE",
	[OCI_SECCOMP_CMP_GT] = "SCMP_CMP_GT",
	[OCI_SECCOMP_CMP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

static const char *const status_names[] = {
	[OCI_STATUS_CREATING] = "creating", [OCI_STATUS_CREATED] = "created",
	[OCI_STATUS_RUNNING] = "running",   [OCI_STATUS_STOPPED] = "stopped",
	[OCI_STATUS_PAUSED] = "paused",
};

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

static const char *name_of(const char *const *names, size_t n, unsigned value)
{
	return value < n ? names[value] : NULL;
}

static int value_of(const char *const *names, size_t n, const char *name, int *out)
{
	size_t i;

	if (name == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (names[i] && strcmp(names[i], name) == 0) {
			*out = (int)i;
			return 0;
		}
	}
	return -1;
}

const char *oci_namespace_type_name(enum oci_namespace_type type)
{
	return name_of(namespace_names, N_ELEMENTS(namespace_names), type);
}

int oci_namespace_type_from_name(const char *name, enum oci_namespace_type *out)
{
	int v;

	if (value_of(namespace_names, N_ELEMENTS(namespace_names), name, &v) < 0)
		return -1;
	*out = (enum oci_namespace_type)v;
	return 0;
}

const char *oci_seccomp_action_name(enum oci_seccomp_action action)
{
	return name_of(seccomp_action_names, N_ELEMENTS(seccomp_action_names), action);
}

int oci_seccomp_action_from_name(const char *name, enum oci_seccomp_action *out)
{
	int v;

	if (value_of(seccomp_action_names, N_ELEMENTS(seccomp_action_names), name, &v) < 0)
		return -1;
	*out = (enum oci_seccomp_action)v;
	return 0;
}

const char *oci_seccomp_op_name(enum oci_seccomp_op op)
{
	return name_of(seccomp_op_names, N_ELEMENTS(seccomp_op_names), op);
}

int oci_seccomp_op_from_name(const char *name, enum oci_seccomp_op *out)
{
	int v;

	if (value_of(seccomp_op_names, N_ELEMENTS(seccomp_op_names), name, &v) < 0)
		return -1;
	*out = (enum oci_seccomp_op)v;
	return 0;
}

const char *oci_status_name(enum oci_status status)
{
	return name_of(status_names, N_ELEMENTS(status_names), status);
}

int oci_status_from_name(const char *name, enum oci_status *out)
{
	int v;

	if (value_of(status_names, N_ELEMENTS(status_names), name, &v) < 0)
		return -1;
	*out = (enum oci_status)v;
	return 0;
}

const struct oci_namespace *oci_linux_find_namespace(const struct oci_linux *linux_,
						     enum oci_namespace_type type)
{
	size_t i;

	if (linux_ == NULL)
		return NULL;
	for (i = 0; i < linux_->namespaces_len; i++)
		if (linux_->namespaces[i].type == type)
			return &linux_->namespaces[i];
	return NULL;
}

/* ---------- ordered string map ---------- */

const char *oci_map_get(const struct oci_map *map, const char *key)
{
	size_t i;

	for (i = 0; map && i < map->len; i++)
		if (strcmp(map->entries[i].key, key) == 0)
			return map->entries[i].value;
	return NULL;
}

int oci_map_set(struct oci_map *map, const char *key, const char *value)
{
	struct oci_map_entry *entries;
	char *value_copy, *key_copy;
	size_t i;

	value_copy = strdup(value);
	if (value_copy == NULL)
		return -1;
	for (i = 0; i < map->len; i++) {
		if (strcmp(map->entries[i].key, key) == 0) {
			free(map->entries[i].value);
			map->entries[i].value = value_copy;
			return 0;
		}
	}
	entries = reallocarray(map->entries, map->len + 1, sizeof(*entries));
	if (entries == NULL) {
		free(value_copy);
		return -1;
	}
	map->entries = entries;
	key_copy = strdup(key);
	if (key_copy == NULL) {
		free(value_copy);
		return -1;
	}
	map->entries[map->len].key = key_copy;
	map->entries[map->len].value = value_copy;
	map->len++;
	return 0;
}

void oci_map_free(struct oci_map *map)
{
	size_t i;

	if (map == NULL)
		return;
	for (i = 0; i < map->len; i++) {
		free(map->entries[i].key);
		free(map->entries[i].value);
	}
	free(map->entries);
	map->entries = NULL;
	map->len = 0;
}

void oci_strv_free(char **strv, size_t len)
{
	size_t i;

	if (strv == NULL)
		return;
	for (i = 0; i < len; i++)
		free(strv[i]);
	free(strv);
}
