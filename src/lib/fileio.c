/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole files in and out: see fileio.h. */
#include "fileio.h"
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kc_read_fd(int fd, size_t max, char **content, size_t *len)
{
	size_t used = 0, cap = 4096;
	char *buf = malloc(cap);

	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (max && used >= max) {
			free(buf);
			return -EFBIG;
		}
		if (cap - used < 2) {
			char *bigger = realloc(buf, cap * 2);

			if (bigger == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved_errno = errno;

			free(buf);
			return -saved_errno;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	*content = buf;
	if (len)
		*len = used;
	return 0;
}

int kc_read_file(const char *path, size_t max, char **content, size_t *len)
{
	cleanup_close int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return kc_read_fd(fd, max, content, len);
}

int kc_read_file_in(const char *dir, const char *file, char **content)
{
	cleanup_free char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	return kc_read_file(path, 0, content, NULL);
}

int kc_reopen(int handle, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", handle);
	return open(path, flags);
}

int kc_write_file_atomic(const char *path, const char *fixed_tmp, const void *data, size_t len,
			 mode_t mode, const char *what, kc_error_t *err)
{
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *suffix = fixed_tmp ? fixed_tmp : ".XXXXXX";
	int fd, n;

	if (slash)
		n = snprintf(tmp, sizeof(tmp), "%.*s/.%s%s", (int)(slash - path), path, slash + 1,
			     suffix);
	else
		n = snprintf(tmp, sizeof(tmp), ".%s%s", path, suffix);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return kc_error_set(err, ENAMETOOLONG, "%s %s", what, path);
	if (fixed_tmp)
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	else
		fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "%s: create `%s`", what, tmp);
	errno = 0;
	if (fchmod(fd, mode) < 0 || write(fd, data, len) != (ssize_t)len) {
		kc_error_set(err, errno ? errno : EIO, "%s: write `%s`", what, tmp);
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		kc_error_set(err, errno, "%s: rename `%s` to `%s`", what, tmp, path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
