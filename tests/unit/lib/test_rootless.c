/* Host tests of rootless.c: which linux.resources need a cgroup, the
 * default --root, and the config checks made before any namespace (the
 * rest needs an unprivileged user and the kernel: tests/bats/rootless.bats). */
#include "tap.h"
#include "src/lib/rootless.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void resources_field(void)
{
	struct oci_device_cgroup dev = {0};
	struct oci_memory memory = {0};
	struct oci_pids pids = {0};
	struct oci_map_entry entry = {(char *)"memory.high", (char *)"1G"};
	struct oci_resources r = {0};
	const char *field;

	TAP_OK(kc_rootless_resources_field(NULL) == NULL, "resources_field: none asked for");
	r.devices = &dev;
	r.devices_len = 1;
	TAP_OK(kc_rootless_resources_field(&r) == NULL,
	       "resources_field: devices alone need no cgroup (no filter rootless)");
	r.pids = &pids;
	field = kc_rootless_resources_field(&r);
	TAP_OK(field && strcmp(field, "linux.resources.pids") == 0,
	       "resources_field: pids named (%s)", field ? field : "NULL");
	r.memory = &memory;
	field = kc_rootless_resources_field(&r);
	TAP_OK(field && strcmp(field, "linux.resources.memory") == 0,
	       "resources_field: memory named first (%s)", field ? field : "NULL");
	r.memory = NULL;
	r.pids = NULL;
	r.unified.entries = &entry;
	r.unified.len = 1;
	field = kc_rootless_resources_field(&r);
	TAP_OK(field && strcmp(field, "linux.resources.unified") == 0,
	       "resources_field: unified named (%s)", field ? field : "NULL");
}

static void config_checks(void)
{
	struct oci_namespace user = {.type = OCI_NS_USER};
	struct oci_namespace pid = {.type = OCI_NS_PID};
	struct oci_id_mapping other = {0, 4000000, 1};
	struct oci_linux lx = {.namespaces = &pid, .namespaces_len = 1};
	kc_error_t err = NULL;

	TAP_CALL_FAILS(kc_rootless_enter(&lx, &err), err, "rootless container requires user namespaces",
		       "enter: a config without a user namespace is refused");
	lx.namespaces = &user;
	user.path = (char *)"/proc/1/ns/user";
	TAP_CALL_FAILS(kc_rootless_enter(&lx, &err), err, "joining one (path",
		       "enter: a user namespace to join is refused");
	user.path = NULL;
	TAP_CALL_FAILS(kc_rootless_enter(&lx, &err), err, "linux.uidMappings: rootless containers requires at least one UID mapping",
		       "enter: no uid mapping is refused");
	lx.uid_mappings = &other;
	lx.uid_mappings_len = 1;
	lx.gid_mappings = &other;
	lx.gid_mappings_len = 1;
	TAP_CALL_FAILS(kc_rootless_enter(&lx, &err), err, "rootless kcrun needs your uid",
		       "enter: mappings without the caller's own uid are refused");
}

static void default_root(void)
{
	const char *saved = getenv("XDG_RUNTIME_DIR");
	char *copy = saved ? strdup(saved) : NULL;
	const char *root;

	setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
	root = kc_rootless_default_root();
	if (geteuid() == 0)
		TAP_OK(root == NULL, "default root: root keeps /run/kcrun whatever XDG_RUNTIME_DIR says");
	else
		TAP_OK(root && strcmp(root, "/run/user/4242/kcrun") == 0,
		       "default root: $XDG_RUNTIME_DIR/kcrun when unprivileged (%s)", root ? root : "NULL");
	if (copy)
		setenv("XDG_RUNTIME_DIR", copy, 1);
	else
		unsetenv("XDG_RUNTIME_DIR");
	free(copy);
}

void test_rootless(void)
{
	resources_field();
	config_checks();
	default_root();
}
