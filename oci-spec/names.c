/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The closed sets of config.json names, each one table that the parser,
 * the runtime and `features` all read: namespace types, seccomp actions,
 * operators and architectures, container status, mount options,
 * capabilities and rlimits; and the ordered string map. */
#include "spec.h"

#include <linux/capability.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/resource.h>

#ifndef MOUNT_ATTR_NOSYMFOLLOW
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000
#endif

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

/* ---------- mount options ---------- */

/* Every mounts[].options name kcrun knows, sorted; `feature` marks what
 * `features` reports: runc 1.1's list, each applied (the r* ones with
 * mount_setattr(AT_RECURSIVE), on every mount of a bind's tree), and not
 * idmap/ridmap, which kcrun refuses (idmapped mounts).  sync, dirsync,
 * lazytime and their opposites are superblock flags, handed to fsconfig; a
 * bind shares its source's superblock, and they mean nothing there (the
 * kernel ignores them on runc's bind remount too).  As with runc, defaults,
 * iversion/noiversion (the filesystem decides), silent/loud (its log) and
 * mand/nomand (gone since 5.15: the kernel only warns) change nothing. */
const struct oci_mount_option oci_mount_options[] = {
	{"acl", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"async", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"atime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, false, true},
	{"auto", OCI_MOUNT_OPT_IGNORED, 0, false, false, false},
	{"bind", OCI_MOUNT_OPT_BIND, 0, false, false, true},
	{"copy-symlink", OCI_MOUNT_OPT_IGNORED, 0, false, false, false},
	{"defaults", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"dev", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODEV, true, false, true},
	{"diratime", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODIRATIME, true, false, true},
	{"dirsync", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"exec", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOEXEC, true, false, true},
	{"idmap", OCI_MOUNT_OPT_IDMAP, 0, false, false, false},
	{"iversion", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"lazytime", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"loud", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"mand", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"noacl", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"noatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_NOATIME, false, false, true},
	{"noauto", OCI_MOUNT_OPT_IGNORED, 0, false, false, false},
	{"nodev", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODEV, false, false, true},
	{"nodiratime", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODIRATIME, false, false, true},
	{"noexec", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOEXEC, false, false, true},
	{"noiversion", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"nolazytime", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"nomand", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"norelatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_STRICTATIME, false, false, true},
	{"nostrictatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, false, true},
	{"nosuid", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSUID, false, false, true},
	{"nosymfollow", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSYMFOLLOW, false, false, true},
	{"nouser", OCI_MOUNT_OPT_IGNORED, 0, false, false, false},
	{"private", OCI_MOUNT_OPT_PROPAGATION, MS_PRIVATE, false, false, true},
	{"ratime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, true, true},
	{"rbind", OCI_MOUNT_OPT_BIND, 0, false, true, true},
	{"rdev", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODEV, true, true, true},
	{"rdiratime", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODIRATIME, true, true, true},
	{"relatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, false, true},
	{"remount", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"rexec", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOEXEC, true, true, true},
	{"ridmap", OCI_MOUNT_OPT_IDMAP, 0, false, true, false},
	{"rnoatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_NOATIME, false, true, true},
	{"rnodev", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODEV, false, true, true},
	{"rnodiratime", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NODIRATIME, false, true, true},
	{"rnoexec", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOEXEC, false, true, true},
	{"rnorelatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_STRICTATIME, false, true, true},
	{"rnostrictatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, true, true},
	{"rnosuid", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSUID, false, true, true},
	{"rnosymfollow", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSYMFOLLOW, false, true, true},
	{"ro", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_RDONLY, false, false, true},
	{"rprivate", OCI_MOUNT_OPT_PROPAGATION, MS_PRIVATE, false, true, true},
	{"rrelatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_RELATIME, false, true, true},
	{"rro", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_RDONLY, false, true, true},
	{"rrw", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_RDONLY, true, true, true},
	{"rshared", OCI_MOUNT_OPT_PROPAGATION, MS_SHARED, false, true, true},
	{"rslave", OCI_MOUNT_OPT_PROPAGATION, MS_SLAVE, false, true, true},
	{"rstrictatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_STRICTATIME, false, true, true},
	{"rsuid", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSUID, true, true, true},
	{"rsymfollow", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSYMFOLLOW, true, true, true},
	{"runbindable", OCI_MOUNT_OPT_PROPAGATION, MS_UNBINDABLE, false, true, true},
	{"rw", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_RDONLY, true, false, true},
	{"shared", OCI_MOUNT_OPT_PROPAGATION, MS_SHARED, false, false, true},
	{"silent", OCI_MOUNT_OPT_IGNORED, 0, false, false, true},
	{"slave", OCI_MOUNT_OPT_PROPAGATION, MS_SLAVE, false, false, true},
	{"strictatime", OCI_MOUNT_OPT_ATIME, MOUNT_ATTR_STRICTATIME, false, false, true},
	{"suid", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSUID, true, false, true},
	{"symfollow", OCI_MOUNT_OPT_ATTR, MOUNT_ATTR_NOSYMFOLLOW, true, false, true},
	{"sync", OCI_MOUNT_OPT_DATA, 0, false, false, true},
	{"tmpcopyup", OCI_MOUNT_OPT_TMPCOPYUP, 0, false, false, true},
	{"unbindable", OCI_MOUNT_OPT_PROPAGATION, MS_UNBINDABLE, false, false, true},
	{"user", OCI_MOUNT_OPT_IGNORED, 0, false, false, false},
};
const size_t oci_mount_options_len = N_ELEMENTS(oci_mount_options);

const struct oci_mount_option *oci_mount_option_find(const char *name)
{
	size_t i;

	for (i = 0; i < oci_mount_options_len; i++)
		if (strcmp(oci_mount_options[i].name, name) == 0)
			return &oci_mount_options[i];
	return NULL;
}

/* ---------- capabilities ---------- */

static const char *const capability_names[OCI_CAPABILITY_COUNT] = {
	[CAP_CHOWN] = "CAP_CHOWN",
	[CAP_DAC_OVERRIDE] = "CAP_DAC_OVERRIDE",
	[CAP_DAC_READ_SEARCH] = "CAP_DAC_READ_SEARCH",
	[CAP_FOWNER] = "CAP_FOWNER",
	[CAP_FSETID] = "CAP_FSETID",
	[CAP_KILL] = "CAP_KILL",
	[CAP_SETGID] = "CAP_SETGID",
	[CAP_SETUID] = "CAP_SETUID",
	[CAP_SETPCAP] = "CAP_SETPCAP",
	[CAP_LINUX_IMMUTABLE] = "CAP_LINUX_IMMUTABLE",
	[CAP_NET_BIND_SERVICE] = "CAP_NET_BIND_SERVICE",
	[CAP_NET_BROADCAST] = "CAP_NET_BROADCAST",
	[CAP_NET_ADMIN] = "CAP_NET_ADMIN",
	[CAP_NET_RAW] = "CAP_NET_RAW",
	[CAP_IPC_LOCK] = "CAP_IPC_LOCK",
	[CAP_IPC_OWNER] = "CAP_IPC_OWNER",
	[CAP_SYS_MODULE] = "CAP_SYS_MODULE",
	[CAP_SYS_RAWIO] = "CAP_SYS_RAWIO",
	[CAP_SYS_CHROOT] = "CAP_SYS_CHROOT",
	[CAP_SYS_PTRACE] = "CAP_SYS_PTRACE",
	[CAP_SYS_PACCT] = "CAP_SYS_PACCT",
	[CAP_SYS_ADMIN] = "CAP_SYS_ADMIN",
	[CAP_SYS_BOOT] = "CAP_SYS_BOOT",
	[CAP_SYS_NICE] = "CAP_SYS_NICE",
	[CAP_SYS_RESOURCE] = "CAP_SYS_RESOURCE",
	[CAP_SYS_TIME] = "CAP_SYS_TIME",
	[CAP_SYS_TTY_CONFIG] = "CAP_SYS_TTY_CONFIG",
	[CAP_MKNOD] = "CAP_MKNOD",
	[CAP_LEASE] = "CAP_LEASE",
	[CAP_AUDIT_WRITE] = "CAP_AUDIT_WRITE",
	[CAP_AUDIT_CONTROL] = "CAP_AUDIT_CONTROL",
	[CAP_SETFCAP] = "CAP_SETFCAP",
	[CAP_MAC_OVERRIDE] = "CAP_MAC_OVERRIDE",
	[CAP_MAC_ADMIN] = "CAP_MAC_ADMIN",
	[CAP_SYSLOG] = "CAP_SYSLOG",
	[CAP_WAKE_ALARM] = "CAP_WAKE_ALARM",
	[CAP_BLOCK_SUSPEND] = "CAP_BLOCK_SUSPEND",
	[CAP_AUDIT_READ] = "CAP_AUDIT_READ",
	[CAP_PERFMON] = "CAP_PERFMON",
	[CAP_BPF] = "CAP_BPF",
	[CAP_CHECKPOINT_RESTORE] = "CAP_CHECKPOINT_RESTORE",
};

const char *oci_capability_name(int cap)
{
	return cap >= 0 && cap < OCI_CAPABILITY_COUNT ? capability_names[cap] : NULL;
}

int oci_capability_from_name(const char *name)
{
	int cap;

	for (cap = 0; cap < OCI_CAPABILITY_COUNT; cap++)
		if (strcasecmp(name, capability_names[cap]) == 0)
			return cap;
	return -1;
}

/* ---------- rlimits ---------- */

static const struct {
	const char *name;
	int resource;
} rlimits[] = {
	{"RLIMIT_AS", RLIMIT_AS},
	{"RLIMIT_CORE", RLIMIT_CORE},
	{"RLIMIT_CPU", RLIMIT_CPU},
	{"RLIMIT_DATA", RLIMIT_DATA},
	{"RLIMIT_FSIZE", RLIMIT_FSIZE},
	{"RLIMIT_LOCKS", RLIMIT_LOCKS},
	{"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK},
	{"RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE},
	{"RLIMIT_NICE", RLIMIT_NICE},
	{"RLIMIT_NOFILE", RLIMIT_NOFILE},
	{"RLIMIT_NPROC", RLIMIT_NPROC},
	{"RLIMIT_RSS", RLIMIT_RSS},
	{"RLIMIT_RTPRIO", RLIMIT_RTPRIO},
	{"RLIMIT_RTTIME", RLIMIT_RTTIME},
	{"RLIMIT_SIGPENDING", RLIMIT_SIGPENDING},
	{"RLIMIT_STACK", RLIMIT_STACK},
};

int oci_rlimit_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < N_ELEMENTS(rlimits); i++)
		if (strcmp(rlimits[i].name, name) == 0)
			return rlimits[i].resource;
	return -1;
}

/* ---------- seccomp architectures ---------- */

/* What libseccomp 2.5 knows (what runc accepts), sorted; `feature` marks
 * the ones `features` reports (runc 1.1's list). */
const struct oci_seccomp_arch oci_seccomp_archs[] = {
	{"SCMP_ARCH_AARCH64", true},
	{"SCMP_ARCH_ARM", true},
	{"SCMP_ARCH_LOONGARCH64", false},
	{"SCMP_ARCH_M68K", false},
	{"SCMP_ARCH_MIPS", true},
	{"SCMP_ARCH_MIPS64", true},
	{"SCMP_ARCH_MIPS64N32", true},
	{"SCMP_ARCH_MIPSEL", true},
	{"SCMP_ARCH_MIPSEL64", true},
	{"SCMP_ARCH_MIPSEL64N32", true},
	{"SCMP_ARCH_PARISC", false},
	{"SCMP_ARCH_PARISC64", false},
	{"SCMP_ARCH_PPC", true},
	{"SCMP_ARCH_PPC64", true},
	{"SCMP_ARCH_PPC64LE", true},
	{"SCMP_ARCH_RISCV64", false},
	{"SCMP_ARCH_S390", true},
	{"SCMP_ARCH_S390X", true},
	{"SCMP_ARCH_SH", false},
	{"SCMP_ARCH_SHEB", false},
	{"SCMP_ARCH_X32", true},
	{"SCMP_ARCH_X86", true},
	{"SCMP_ARCH_X86_64", true},
};
const size_t oci_seccomp_archs_len = N_ELEMENTS(oci_seccomp_archs);

bool oci_seccomp_arch_known(const char *name)
{
	size_t i;

	for (i = 0; i < oci_seccomp_archs_len; i++)
		if (strcmp(oci_seccomp_archs[i].name, name) == 0)
			return true;
	return false;
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
