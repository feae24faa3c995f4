/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

bool kc_fd_on_procfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

int kc_procfs_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	if (!kc_fd_on_procfs(fd)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

/* destination with "", "." and ".." components resolved lexically and
 * without the leading slash: "/proc/./sys/../x" -> "proc/x". */
static void clean_path(const char *path, char *out, size_t size)
{
	size_t len = 0;
	const char *p = path;

	out[0] = '\0';
	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t n = (size_t)(end - p);

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
		} else if (len + n + 2 < size) {
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
			out[len] = '\0';
		}
		p = *end ? end + 1 : end;
	}
}

/* What lxcfs bind-mounts over procfs files (runc's list). */
static const char *const lxcfs_proc_files[] = {
	"proc/cpuinfo", "proc/diskstats", "proc/meminfo", "proc/stat",
	"proc/swaps",   "proc/uptime",    "proc/loadavg", "proc/slabinfo",
	"proc/net/dev", "proc/sys/kernel/ns_last_pid",
};

int kc_procfs_check_mount(size_t index, const char *destination, const char *type, bool bind,
			  const char *bind_source, int dest_fd, kc_error_t *err)
{
	char clean[4096];
	size_t i;
	bool inside;

	/* tmpfs anywhere, as runc: an empty mount hides procfs files, it
	 * cannot fake them (sysctl and attribute writes check for procfs) */
	if (!bind && type && strcmp(type, "tmpfs") == 0)
		return 0;
	clean_path(destination, clean, sizeof(clean));
	/* procfs at /proc only: another procfs inside it (/proc/sys/net) would
	 * take kcrun's own sysctl writes (net.* keys) wherever the config
	 * pointed it, and stay unmasked and writable (runtime review 2, 4.4;
	 * runc 1.2.8 refuses it too) */
	if (!bind && type && strcmp(type, "proc") == 0 && strcmp(clean, "proc") == 0)
		return 0;
	if (strcmp(clean, "proc") == 0) {
		int fd = bind && bind_source ? open(bind_source, O_PATH | O_CLOEXEC) : -1;
		bool is_proc = fd >= 0 && kc_fd_on_procfs(fd);

		if (fd >= 0)
			close(fd);
		if (is_proc)
			return 0;
		return kc_error_set(err, 0, "mounts[%zu].destination: \"%s\" cannot be mounted "
					    "because it is not of type proc", index, destination);
	}
	inside = strncmp(clean, "proc/", 5) == 0 || (dest_fd >= 0 && kc_fd_on_procfs(dest_fd));
	if (!inside)
		return 0;
	for (i = 0; i < sizeof(lxcfs_proc_files) / sizeof(lxcfs_proc_files[0]); i++)
		if (strcmp(clean, lxcfs_proc_files[i]) == 0)
			return 0;
	return kc_error_set(err, 0, "mounts[%zu].destination: \"%s\" cannot be mounted because "
				    "it is inside /proc", index, destination);
}
