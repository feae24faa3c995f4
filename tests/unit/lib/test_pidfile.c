/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of pidfile.c: --pid-file never writes through a symlink
 * planted at a temporary name, and replaces the file atomically. */
#include "tap.h"
#include "src/lib/pidfile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

void test_pidfile(void)
{
	char dir[] = "/tmp/kcrun-pidfile.XXXXXX", pidfile[128], victim[128], link[128], buf[64];
	kc_error_t err = NULL;
	struct stat st;
	int fd;

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	fd = open(victim, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0 && write(fd, "keep", 4) != 4)
		TAP_OK(0, "write victim");
	if (fd >= 0)
		close(fd);
	/* the names the old code wrote through: ".pid" (create) and "pid.tmp" (exec) */
	snprintf(link, sizeof(link), "%s/.pid", dir);
	TAP_OK(symlink(victim, link) == 0, "planted %s -> victim", link);
	snprintf(link, sizeof(link), "%s/pid.tmp", dir);
	TAP_OK(symlink(victim, link) == 0, "planted %s -> victim", link);

	TAP_CALL_OK(kc_pid_file_write(pidfile, 4242, &err), err, "pid file written");
	TAP_OK(strcmp(slurp(pidfile, buf, sizeof(buf)), "4242") == 0, "pid file holds the pid (%s)",
	       buf);
	TAP_OK(strcmp(slurp(victim, buf, sizeof(buf)), "keep") == 0,
	       "the symlinks' target is untouched (%s)", buf);
	TAP_OK(lstat(pidfile, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0644,
	       "pid file is a regular file, mode 0644");
	TAP_CALL_OK(kc_pid_file_write(pidfile, 7, &err), err, "pid file replaced");
	TAP_OK(strcmp(slurp(pidfile, buf, sizeof(buf)), "7") == 0, "replaced pid file holds 7");

	/* a pid file that is itself a symlink is replaced, not written through */
	unlink(pidfile);
	TAP_OK(symlink(victim, pidfile) == 0, "pid file path planted as a symlink");
	TAP_CALL_OK(kc_pid_file_write(pidfile, 9, &err), err, "pid file written over the symlink");
	TAP_OK(strcmp(slurp(victim, buf, sizeof(buf)), "keep") == 0, "victim still untouched");

	unlink(pidfile);
	unlink(victim);
	unlink(link);
	snprintf(link, sizeof(link), "%s/.pid", dir);
	unlink(link);
	TAP_OK(rmdir(dir) == 0, "no temporary file left behind");
}
