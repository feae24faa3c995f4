/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tmpcopyup: see copyup.h. */
#include "copyup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "fileio.h"

static int copy_dir(int src_fd, int dst_fd, unsigned int depth, const char *what,
		    kc_error_t *err);

/* The owner, then the mode (a chown clears set-id bits), of an entry the
 * copy made: fd, or name in dir_fd when fd < 0 (a node or a link). */
static int set_owner_mode(int fd, int dir_fd, const char *name, const struct stat *st,
			  const char *what, kc_error_t *err)
{
	if (fd >= 0 ? fchown(fd, st->st_uid, st->st_gid)
		    : fchownat(dir_fd, name, st->st_uid, st->st_gid, AT_SYMLINK_NOFOLLOW))
		return kc_error_set(err, errno, "tmpcopyup `%s`: owner of `%s`", what, name);
	if (S_ISLNK(st->st_mode))
		return 0;
	/* the entry is in the detached tmpfs, which nothing else reaches yet:
	 * fchmodat by name cannot be redirected */
	if (fd >= 0 ? fchmod(fd, st->st_mode & 07777) : fchmodat(dir_fd, name, st->st_mode & 07777, 0))
		return kc_error_set(err, errno, "tmpcopyup `%s`: mode of `%s`", what, name);
	return 0;
}

static int copy_file(int src_dir, int dst_dir, const char *name, const char *what,
		     kc_error_t *err)
{
	cleanup_close int handle = -1;
	cleanup_close int in = -1;
	cleanup_close int out = -1;
	char buf[65536];
	struct stat st;
	ssize_t n;

	/* judged on an O_PATH handle, which opens nothing, then that inode is
	 * opened: a device node swapped in after the look is never opened */
	handle = openat(src_dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (handle < 0 || fstat(handle, &st) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: open `%s`", what, name);
	if (!S_ISREG(st.st_mode))
		return kc_error_set(err, 0, "tmpcopyup `%s`: `%s` changed while it was copied", what,
				    name);
	in = kc_reopen(handle, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (in < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: open `%s`", what, name);
	out = openat(dst_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: create `%s`", what, name);
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		ssize_t done = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kc_error_set(err, errno, "tmpcopyup `%s`: read `%s`", what, name);
		}
		while (done < n) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return kc_error_set(err, errno, "tmpcopyup `%s`: write `%s`", what,
						    name);
			done += w;
		}
	}
	return set_owner_mode(out, -1, name, &st, what, err);
}

static int copy_subdir(int src_dir, int dst_dir, const char *name, unsigned int depth,
		       const char *what, kc_error_t *err)
{
	cleanup_close int in = -1;
	cleanup_close int out = -1;
	struct stat st;

	if (depth >= KC_COPYUP_MAX_DEPTH)
		return kc_error_set(err, ELOOP, "tmpcopyup `%s`: `%s` is nested too deep", what,
				    name);
	in = openat(src_dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: open `%s`", what, name);
	if (mkdirat(dst_dir, name, 0700) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: mkdir `%s`", what, name);
	out = openat(dst_dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (out < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: open the copy of `%s`", what, name);
	/* filled first, then given its mode: a 0500 directory still takes its
	 * contents */
	if (copy_dir(in, out, depth + 1, what, err) < 0)
		return -1;
	return set_owner_mode(out, -1, name, &st, what, err);
}

static int copy_link(int src_dir, int dst_dir, const char *name, const struct stat *st,
		     const char *what, kc_error_t *err)
{
	char target[PATH_MAX];
	ssize_t len = readlinkat(src_dir, name, target, sizeof(target) - 1);

	if (len < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: readlink `%s`", what, name);
	target[len] = '\0';
	if (symlinkat(target, dst_dir, name) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: symlink `%s`", what, name);
	return set_owner_mode(-1, dst_dir, name, st, what, err);
}

static int copy_node(int dst_dir, const char *name, const struct stat *st, const char *what,
		     kc_error_t *err)
{
	if (mknodat(dst_dir, name, (st->st_mode & S_IFMT) | 0600, st->st_rdev) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: mknod `%s`", what, name);
	return set_owner_mode(-1, dst_dir, name, st, what, err);
}

static int copy_entry(int src_fd, int dst_fd, const char *name, unsigned int depth,
		      const char *what, kc_error_t *err)
{
	struct stat st;

	if (fstatat(src_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: stat `%s`", what, name);
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		return copy_subdir(src_fd, dst_fd, name, depth, what, err);
	case S_IFREG:
		return copy_file(src_fd, dst_fd, name, what, err);
	case S_IFLNK:
		return copy_link(src_fd, dst_fd, name, &st, what, err);
	case S_IFIFO:
	case S_IFCHR:
	case S_IFBLK:
		return copy_node(dst_fd, name, &st, what, err);
	default: /* a socket: nothing would listen on its copy */
		return 0;
	}
}

static int copy_dir(int src_fd, int dst_fd, unsigned int depth, const char *what,
		    kc_error_t *err)
{
	cleanup_dir DIR *dir = NULL;
	struct dirent *de;
	int fd = fcntl(src_fd, F_DUPFD_CLOEXEC, 0);

	/* fdopendir takes the fd; src_fd stays the caller's */
	if (fd < 0 || (dir = fdopendir(fd)) == NULL) {
		kc_error_set(err, errno, "tmpcopyup `%s`: read its directory", what);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	errno = 0;
	while ((de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (copy_entry(src_fd, dst_fd, de->d_name, depth, what, err) < 0)
			return -1;
		errno = 0;
	}
	if (errno)
		return kc_error_set(err, errno, "tmpcopyup `%s`: read its directory", what);
	return 0;
}

int kc_copyup(int src_dir_fd, int dst_dir_fd, const char *what, kc_error_t *err)
{
	return copy_dir(src_dir_fd, dst_dir_fd, 0, what, err);
}
