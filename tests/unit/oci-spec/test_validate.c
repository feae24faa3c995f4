/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci_spec_validate_for_create(): what create/run need beyond a valid file. */
#include "helpers.h"

static bool validate_fails_at(const char *file, int line, const char *json, const char *expected)
{
	struct oci_spec *spec = parse_ok_at(file, line, json);
	char *err = NULL;
	bool ok = true;

	if (spec == NULL)
		return false;
	if (oci_spec_validate_for_create(spec, &err) == 0)
		ok = tap_fail(file, line, "validation passed, expected: %s", expected);
	else if (err == NULL || strcmp(err, expected) != 0)
		ok = tap_fail(file, line, "error message:\n#   got:      %s\n#   expected: %s",
			      err ? err : "(null)", expected);
	free(err);
	oci_spec_free(spec);
	return ok;
}
#define validate_fails(json, expected) validate_fails_at(__FILE__, __LINE__, json, expected)

#define CREATABLE(extra)                                                                  \
	"{\"ociVersion\": \"1.2.0\", \"process\": {\"args\": [\"sh\"], \"cwd\": \"/\"}, " \
	"\"root\": {\"path\": \"rootfs\"}" extra "}"

TEST(validate_accepts_runc_defaults)
{
	char *json = tap_read_fixture("runc-spec.json", NULL), *err = NULL;
	struct oci_spec *spec;

	if (!CHECK(json))
		return;
	spec = parse_ok(json);
	CHECK(spec && oci_spec_validate_for_create(spec, &err) == 0);
	CHECK(err == NULL);
	oci_spec_free(spec);
	free(json);
	json = tap_read_fixture("runc-spec-rootless.json", NULL);
	spec = json ? parse_ok(json) : NULL;
	CHECK(spec && oci_spec_validate_for_create(spec, NULL) == 0);
	oci_spec_free(spec);
	free(json);
}

TEST(validate_requires_process_and_root)
{
	validate_fails(MINIMAL(", \"root\": {\"path\": \"rootfs\"}"),
		       "process: required field is missing");
	validate_fails(WITH_PROCESS(""), "root.path: required field is missing");
	CHECK(oci_spec_validate_for_create(NULL, NULL) == -1);
}

TEST(validate_cross_field_rules)
{
	validate_fails(CREATABLE(", \"hostname\": \"h\""),
		       "hostname: unable to set hostname without a private UTS namespace");
	validate_fails(CREATABLE(", \"hostname\": \"h\", \"linux\": {\"namespaces\": "
				 "[{\"type\": \"uts\", \"path\": \"/proc/1/ns/uts\"}]}"),
		       "hostname: unable to set hostname without a private UTS namespace");
	validate_fails(CREATABLE(", \"linux\": {\"uidMappings\": [{\"containerID\": 0, \"hostID\": "
				 "1, \"size\": 1}]}"),
		       "linux.uidMappings: user namespaces not enabled in linux.namespaces, but "
		       "uid/gid mappings present");
	validate_fails(CREATABLE(", \"linux\": {\"namespaces\": [{\"type\": \"user\"}]}"),
		       "linux.uidMappings: a new user namespace needs at least one mapping");
	validate_fails(
		CREATABLE(", \"linux\": {\"namespaces\": [{\"type\": \"user\"}], "
			  "\"uidMappings\": [{\"containerID\": 0, \"hostID\": 1, \"size\": 1}]}"),
		"linux.gidMappings: a new user namespace needs at least one mapping");
	validate_fails(CREATABLE(", \"linux\": {\"timeOffsets\": {\"boottime\": {\"secs\": 1}}}"),
		       "linux.timeOffsets: time offsets need a new time namespace");
	validate_fails(CREATABLE(", \"linux\": {\"netDevices\": {\"eth0\": {}}}"),
		       "linux.netDevices: network devices need a network namespace");
}

TEST(validate_accepts_joined_user_namespace_without_mappings)
{
	struct oci_spec *spec = parse_ok(CREATABLE(", \"linux\": {\"namespaces\": [{\"type\": "
						   "\"user\", \"path\": \"/proc/1/ns/user\"}]}"));

	CHECK(spec && oci_spec_validate_for_create(spec, NULL) == 0);
	oci_spec_free(spec);
}

/* A config without "linux" (a hostile or hand-written one) is checked, not
 * dereferenced: kcrun create crashed with SIGSEGV here. */
TEST(validate_accepts_config_without_linux)
{
	struct oci_spec *spec = parse_ok(CREATABLE(""));
	char *err = NULL;

	CHECK(spec && spec->linux_ == NULL);
	CHECK(spec && oci_spec_validate_for_create(spec, &err) == 0);
	CHECK(err == NULL);
	free(err);
	oci_spec_free(spec);
}

/* runc's sysctl rule: never written in a namespace the container shares
 * with the host (a config could otherwise turn on the host's ip_forward). */
TEST(validate_sysctl_needs_the_container_namespace)
{
	struct oci_spec *spec;

	validate_fails(CREATABLE(", \"linux\": {\"sysctl\": {\"net.ipv4.ip_forward\": \"1\"}}"),
		       "linux.sysctl.\"net.ipv4.ip_forward\": sysctl \"net.ipv4.ip_forward\" is not "
		       "allowed in the hosts network namespace");
	validate_fails(CREATABLE(", \"linux\": {\"sysctl\": {\"kernel.shmmax\": \"1\"}}"),
		       "linux.sysctl.\"kernel.shmmax\": sysctl \"kernel.shmmax\" is not allowed in the "
		       "hosts ipc namespace");
	validate_fails(CREATABLE(", \"linux\": {\"sysctl\": {\"fs.mqueue.msg_max\": \"1\"}}"),
		       "linux.sysctl.\"fs.mqueue.msg_max\": sysctl \"fs.mqueue.msg_max\" is not allowed "
		       "in the hosts ipc namespace");
	validate_fails(CREATABLE(", \"linux\": {\"sysctl\": {\"vm.swappiness\": \"1\"}, "
				 "\"namespaces\": [{\"type\": \"uts\"}]}"),
		       "linux.sysctl.\"vm.swappiness\": sysctl \"vm.swappiness\" is not in a separate "
		       "kernel namespace");
	validate_fails(CREATABLE(", \"linux\": {\"sysctl\": {\"kernel.hostname\": \"x\"}, "
				 "\"namespaces\": [{\"type\": \"uts\"}]}"),
		       "linux.sysctl.\"kernel.hostname\": sysctl \"kernel.hostname\" is not allowed as "
		       "it conflicts with the OCI \"hostname\" field");
	spec = parse_ok(CREATABLE(", \"linux\": {\"sysctl\": {\"net.ipv4.ip_forward\": \"1\", "
				  "\"kernel.shmmax\": \"1\", \"kernel.domainname\": \"d\"}, "
				  "\"namespaces\": [{\"type\": \"network\"}, {\"type\": \"ipc\"}, "
				  "{\"type\": \"uts\"}]}"));
	CHECK(spec && oci_spec_validate_for_create(spec, NULL) == 0);
	oci_spec_free(spec);
}
