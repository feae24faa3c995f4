/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "self_exe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "exec_handle.h"

extern char **environ;

#define SELF_EXE "/proc/self/exe"

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
	return seals >= 0 && (seals & KC_EXEC_HANDLE_SEALS) == KC_EXEC_HANDLE_SEALS;
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
	fd = kc_exec_handle_open(AT_FDCWD, SELF_EXE, "kcrun", err);
	if (fd < 0)
		return -1;
	syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH);
	kc_error_set(err, errno, "re-exec kcrun from an unwritable handle");
	close(fd);
	return -1;
}
