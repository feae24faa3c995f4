/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of rootless.c: which linux.resources need a cgroup, the
 * default --root, and the config checks made before any namespace (the
 * rest needs an unprivileged user and the kernel: tests/bats/rootless.bats). */
#include "tap.h"
#include "src/lib/rootless.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Root of a user namespace of its own (as rootless podman runs conmon and
 * the runtime): $XDG_RUNTIME_DIR/kcrun unless USER is root, as runc.  In a
 * child, before this process asks (the answer is kept).  Exit status: 0
 * right, 1 wrong, 2 no user namespace here. */
static int userns_root_child(void)
{
	char map[64];
	const char *root;
	int fd, len;
	uid_t euid = geteuid();

	if (unshare(CLONE_NEWUSER) < 0)
		return 2;
	len = snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)euid);
	fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, map, (size_t)len) != len || geteuid() != 0)
		return 2;
	close(fd);
	setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
	setenv("USER", "root", 1);
	if (kc_rootless_default_root() != NULL)
		return 1;
	setenv("USER", "someone", 1);
	root = kc_rootless_default_root();
	if (root == NULL || strcmp(root, "/run/user/4242/kcrun") != 0)
		return 1;
	unsetenv("USER");
	root = kc_rootless_default_root();
	return root && strcmp(root, "/run/user/4242/kcrun") == 0 && kc_rootless_cgroups() ? 0 : 1;
}

static void default_root_in_userns(void)
{
	int status = -1;
	pid_t child;

	if (geteuid() != 0) {
		/* unprivileged: rootless whatever the namespace */
		printf("ok %d - # SKIP default root in a user namespace: not root\n", ++tap_count);
		return;
	}
	fflush(stdout);
	child = fork();
	if (child == 0)
		_exit(userns_root_child());
	if (child > 0)
		while (waitpid(child, &status, 0) < 0)
			;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		printf("ok %d - # SKIP default root in a user namespace: none here\n", ++tap_count);
		return;
	}
	TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "default root: root of a user namespace uses $XDG_RUNTIME_DIR/kcrun unless "
	       "USER=root (status %d)", status);
}

static void default_root(void)
{
	const char *saved = getenv("XDG_RUNTIME_DIR");
	const char *saved_user = getenv("USER");
	char *copy = saved ? strdup(saved) : NULL;
	char *copy_user = saved_user ? strdup(saved_user) : NULL;
	const char *root;

	setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
	/* root in whatever user namespace these tests run */
	setenv("USER", "root", 1);
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
	if (copy_user)
		setenv("USER", copy_user, 1);
	else
		unsetenv("USER");
	free(copy);
	free(copy_user);
}

void test_rootless(void)
{
	resources_field();
	config_checks();
	default_root_in_userns();
	default_root();
}
