/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

int kc_userns_write_map(pid_t pid, const char *file, const struct oci_id_mapping *m, size_t n,
			kc_error_t *err)
{
	char path[64], buf[4096];
	size_t len = 0, i;
	int fd;

	for (i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%u %u %u\n",
					m[i].container_id, m[i].host_id, m[i].size);
	if (len >= sizeof(buf))
		return kc_error_set(err, E2BIG, "linux.%s: too many mappings",
				    strcmp(file, "uid_map") == 0 ? "uidMappings" : "gidMappings");
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "open %s", path);
	if (write(fd, buf, len) != (ssize_t)len) {
		kc_error_set(err, errno, "write %s (%s)", path,
			     strcmp(file, "uid_map") == 0 ? "linux.uidMappings" : "linux.gidMappings");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int write_maps(pid_t pid, const struct oci_linux *lx, kc_error_t *err)
{
	if (lx->uid_mappings_len && kc_userns_write_map(pid, "uid_map", lx->uid_mappings,
						       lx->uid_mappings_len, err) < 0)
		return -1;
	if (lx->gid_mappings_len && kc_userns_write_map(pid, "gid_map", lx->gid_mappings,
						       lx->gid_mappings_len, err) < 0)
		return -1;
	return 0;
}

int kc_userns_create_mapped(const struct oci_linux *lx, kc_error_t *err)
{
	return kc_userns_create_with(lx, write_maps, err);
}

int kc_userns_create_with(const struct oci_linux *lx, kc_userns_map_fn map, kc_error_t *err)
{
	char path[64];
	pid_t pid;
	int status, fd = -1;

	/* clone(CLONE_NEWUSER) directly: the child is in the new namespace the
	 * moment clone returns, so no synchronisation is needed. */
	pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0)
		return kc_error_set(err, errno, "clone(CLONE_NEWUSER)");
	if (pid == 0) {
		for (;;)
			pause();
	}
	if (map(pid, lx, err) < 0)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		kc_error_set(err, errno, "open %s", path);
out:
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return fd;
}

static void become(int64_t uid, int64_t gid, struct kc_fs_ids *saved);

static int64_t map_to_host(const struct oci_id_mapping *m, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (id >= m[i].container_id && id - m[i].container_id < m[i].size)
			return (int64_t)m[i].host_id + (id - m[i].container_id);
	return -1;
}

void kc_userns_become_root(const struct oci_linux *lx, struct kc_fs_ids *saved)
{
	become(map_to_host(lx->uid_mappings, lx->uid_mappings_len, 0),
	       map_to_host(lx->gid_mappings, lx->gid_mappings_len, 0), saved);
}

void kc_userns_become_ns_root(struct kc_fs_ids *saved)
{
	become(0, 0, saved);
}

static void become(int64_t uid, int64_t gid, struct kc_fs_ids *saved)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];

	saved->changed = false;
	if (uid < 0 || gid < 0)
		return;
	saved->gid = (gid_t)setfsgid((gid_t)gid);
	saved->uid = (uid_t)setfsuid((uid_t)uid);
	saved->changed = true;
	if (syscall(SYS_capget, &hdr, data) == 0) {
		data[0].effective = data[0].permitted;
		data[1].effective = data[1].permitted;
		syscall(SYS_capset, &hdr, data);
	}
}

void kc_userns_restore_fs_ids(const struct kc_fs_ids *saved)
{
	if (!saved->changed)
		return;
	setfsuid(saved->uid);
	setfsgid(saved->gid);
}
