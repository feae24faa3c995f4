/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unwritable handles on host executables: see exec_handle.h. */
#include "exec_handle.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "kcontainer.h"

/* A detached bind mount of the file, made read-only before anyone sees it. */
static int readonly_bind(int dirfd, const char *path)
{
	struct kc_mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};
	int fd = kc_open_tree(dirfd, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (fd < 0)
		return -1;
	if (kc_mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int kc_exec_handle_copy(int dirfd, const char *path, const char *name, kc_error_t *err)
{
	cleanup_close int src = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	off_t off = 0;
	int fd;

	if (src < 0 || fstat(src, &st) < 0)
		return kc_error_set(err, errno, "open %s", path);
	/* A memfd is executable by anyone: judge the original as execve would. */
	if (!S_ISREG(st.st_mode) || faccessat(src, "", X_OK, AT_EACCESS | AT_EMPTY_PATH) < 0)
		return kc_error_set(err, S_ISREG(st.st_mode) ? errno : EACCES,
				    "%s is not an executable file", path);
	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return kc_error_set(err, errno, "memfd_create for %s", path);
	while (off < st.st_size) {
		ssize_t n = sendfile(fd, src, &off, (size_t)(st.st_size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			kc_error_set(err, n < 0 ? errno : EIO, "copy %s to a memfd", path);
			close(fd);
			return -1;
		}
	}
	if (fcntl(fd, F_ADD_SEALS, KC_EXEC_HANDLE_SEALS) < 0) {
		kc_error_set(err, errno, "seal the memfd copy of %s", path);
		close(fd);
		return -1;
	}
	return fd;
}

int kc_exec_handle_open(int dirfd, const char *path, const char *name, kc_error_t *err)
{
	int fd = readonly_bind(dirfd, path);

	if (fd >= 0)
		return fd;
	/* ENOENT and its like are the file's fault, not the bind's: say so
	 * about the file, as the copy's open will. */
	return kc_exec_handle_copy(dirfd, path, name, err);
}
