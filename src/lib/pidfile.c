#include "pidfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kc_pid_file_write(const char *path, pid_t pid, kc_error_t *err)
{
	char tmp[PATH_MAX], buf[32];
	const char *slash = strrchr(path, '/');
	int fd, n, len;

	if (slash)
		len = snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX", (int)(slash - path), path,
			       slash + 1);
	else
		len = snprintf(tmp, sizeof(tmp), ".%s.XXXXXX", path);
	if (len < 0 || (size_t)len >= sizeof(tmp))
		return kc_error_set(err, ENAMETOOLONG, "pid file %s", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "pid file %s", path);
	n = snprintf(buf, sizeof(buf), "%d", (int)pid);
	if (fchmod(fd, 0644) < 0 || write(fd, buf, (size_t)n) != n) {
		kc_error_set(err, errno ? errno : EIO, "write pid file %s", tmp);
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		kc_error_set(err, errno, "rename pid file to %s", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
