/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid-file: see pidfile.h. */
#include "pidfile.h"
#include "fileio.h"

#include <stdio.h>

int kc_pid_file_write(const char *path, pid_t pid, kc_error_t *err)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d", (int)pid);

	return kc_write_file_atomic(path, NULL, buf, (size_t)n, 0644, "pid file", err);
}
