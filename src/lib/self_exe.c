/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "self_exe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <linux/mount.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "kcontainer.h"

extern char **environ;

#define SELF_EXE "/proc/self/exe"
#define MEMFD_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* On a read-only mount, or a memfd sealed against writes. */
static bool self_exe_unwritable(void)
{
	struct statvfs sv;
	cleanup_close int fd = -1;
	int seals;

	if (statvfs(SELF_EXE, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		return true;
	fd = open(SELF_EXE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	seals = fcntl(fd, F_GET_SEALS);
	return seals >= 0 && (seals & MEMFD_SEALS) == MEMFD_SEALS;
}

/* A detached, read-only bind mount of the binary itself: an O_PATH fd. */
static int readonly_bind_of_self(void)
{
	struct kc_mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};
	int fd = kc_open_tree(AT_FDCWD, SELF_EXE, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (fd < 0)
		return -1;
	if (kc_mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int sealed_copy_of_self(kc_error_t *err)
{
	cleanup_close int src = open(SELF_EXE, O_RDONLY | O_CLOEXEC);
	struct stat st;
	off_t off = 0;
	int fd;

	if (src < 0 || fstat(src, &st) < 0)
		return kc_error_set(err, errno, "open %s", SELF_EXE);
	fd = memfd_create("kcrun", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return kc_error_set(err, errno, "memfd_create");
	while (off < st.st_size) {
		ssize_t n = sendfile(fd, src, &off, (size_t)(st.st_size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			kc_error_set(err, n < 0 ? errno : EIO, "copy %s to a memfd", SELF_EXE);
			close(fd);
			return -1;
		}
	}
	if (fcntl(fd, F_ADD_SEALS, MEMFD_SEALS) < 0) {
		kc_error_set(err, errno, "seal the memfd copy of kcrun");
		close(fd);
		return -1;
	}
	return fd;
}

/* Set across the re-exec: a second pass never re-execs again, whatever
 * the checks above say (no exec loop). */
#define REEXEC_MARK "_KCRUN_SELF_EXE_PROTECTED"

int kc_self_exe_protect(char **argv, kc_error_t *err)
{
	int fd;

	if (getenv(REEXEC_MARK)) {
		unsetenv(REEXEC_MARK);
		if (self_exe_unwritable())
			return 0;
		return kc_error_set(err, 0, "kcrun re-executed itself, but its binary is still "
					    "writable");
	}
	if (self_exe_unwritable())
		return 0;
	if (setenv(REEXEC_MARK, "1", 1) < 0)
		return kc_error_set(err, errno, "setenv");
	fd = readonly_bind_of_self();
	if (fd >= 0) {
		syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
		close(fd);
	}
	fd = sealed_copy_of_self(err);
	if (fd < 0)
		return -1;
	syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
	kc_error_set(err, errno, "re-exec kcrun from a sealed copy");
	close(fd);
	return -1;
}
