/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks that only matter when a container is to be created from the spec
 * (create/run), as opposed to merely reading config.json.  The wording of
 * the cross-field checks follows runc's libcontainer/configs/validate. */
#include "spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 2, 3))) static int fail(char **errmsg, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (errmsg)
		*errmsg = msg ? msg : strdup("out of memory");
	else
		free(msg);
	return -1;
}

/* A namespace the container gets a new one of (not joined by path). */
static bool has_new_namespace(const struct oci_linux *linux_, enum oci_namespace_type type)
{
	const struct oci_namespace *ns = oci_linux_find_namespace(linux_, type);

	return ns != NULL && ns->path == NULL;
}

/* runc's rule for linux.sysctl: a sysctl is only written in a namespace of
 * the container's own (ipc, net or uts), never in the host's. */
static int validate_sysctl(const struct oci_linux *linux_, char **errmsg)
{
	static const char *const ipc_sysctls[] = {
		"kernel.msgmax", "kernel.msgmnb", "kernel.msgmni",  "kernel.sem",
		"kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
	};
	size_t i, j;

	for (i = 0; i < linux_->sysctl.len; i++) {
		const char *key = linux_->sysctl.entries[i].key;
		bool ipc = strncmp(key, "fs.mqueue.", 10) == 0;

		for (j = 0; j < sizeof(ipc_sysctls) / sizeof(ipc_sysctls[0]); j++)
			ipc = ipc || strcmp(key, ipc_sysctls[j]) == 0;
		if (ipc) {
			if (oci_linux_find_namespace(linux_, OCI_NS_IPC))
				continue;
			return fail(errmsg, "linux.sysctl.\"%s\": sysctl \"%s\" is not allowed in "
					    "the hosts ipc namespace", key, key);
		}
		if (strncmp(key, "net.", 4) == 0) {
			if (oci_linux_find_namespace(linux_, OCI_NS_NETWORK))
				continue;
			return fail(errmsg, "linux.sysctl.\"%s\": sysctl \"%s\" is not allowed in "
					    "the hosts network namespace", key, key);
		}
		if (oci_linux_find_namespace(linux_, OCI_NS_UTS)) {
			if (strcmp(key, "kernel.domainname") == 0)
				continue;
			if (strcmp(key, "kernel.hostname") == 0)
				return fail(errmsg, "linux.sysctl.\"%s\": sysctl \"%s\" is not "
						    "allowed as it conflicts with the OCI \"hostname\" "
						    "field", key, key);
		}
		return fail(errmsg, "linux.sysctl.\"%s\": sysctl \"%s\" is not in a separate "
				    "kernel namespace", key, key);
	}
	return 0;
}

int oci_spec_validate_for_create(const struct oci_spec *spec, char **errmsg)
{
	const struct oci_linux *linux_;

	if (errmsg)
		*errmsg = NULL;
	if (spec == NULL)
		return fail(errmsg, "config.json: no spec");
	if (spec->process == NULL)
		return fail(errmsg, "process: required field is missing");
	if (spec->process->args_len == 0)
		return fail(errmsg, "process.args: must be a non-empty array");
	if (spec->process->cwd == NULL || spec->process->cwd[0] != '/')
		return fail(errmsg, "process.cwd: must be an absolute path");
	if (spec->root == NULL || spec->root->path == NULL || spec->root->path[0] == '\0')
		return fail(errmsg, "root.path: required field is missing");

	linux_ = spec->linux_; /* may be NULL: no namespaces, no cgroup settings */
	if (spec->hostname && spec->hostname[0] && !has_new_namespace(linux_, OCI_NS_UTS))
		return fail(errmsg,
			    "hostname: unable to set hostname without a private UTS namespace");
	if (spec->domainname && spec->domainname[0] && !has_new_namespace(linux_, OCI_NS_UTS))
		return fail(errmsg,
			    "domainname: unable to set domainname without a private UTS namespace");
	if (linux_ == NULL)
		return 0;
	if (oci_linux_find_namespace(linux_, OCI_NS_USER) == NULL &&
	    (linux_->uid_mappings_len || linux_->gid_mappings_len))
		return fail(errmsg, "linux.uidMappings: user namespaces not enabled in "
				    "linux.namespaces, but uid/gid mappings present");
	if (has_new_namespace(linux_, OCI_NS_USER)) {
		if (linux_->uid_mappings_len == 0)
			return fail(errmsg, "linux.uidMappings: a new user namespace needs at "
					    "least one mapping");
		if (linux_->gid_mappings_len == 0)
			return fail(errmsg, "linux.gidMappings: a new user namespace needs at "
					    "least one mapping");
	}
	if (linux_->time_offsets_len && !has_new_namespace(linux_, OCI_NS_TIME))
		return fail(errmsg, "linux.timeOffsets: time offsets need a new time namespace");
	if (linux_->net_devices_len && oci_linux_find_namespace(linux_, OCI_NS_NETWORK) == NULL)
		return fail(errmsg, "linux.netDevices: network devices need a network namespace");
	return validate_sysctl(linux_, errmsg);
}
