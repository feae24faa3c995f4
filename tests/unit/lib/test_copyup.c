/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of copyup.c (tmpcopyup): contents, modes and owners copied,
 * a symlink copied as a link (never followed), FIFOs made, a read-only
 * directory still filled, nesting bounded. */
#include "tap.h"
#include "src/lib/copyup.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

/* nftw's FTW_PHYS never follows a link; a directory (FTW_DP, after its
 * contents) may be 0500 and is made writable only to be removed. */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		chmod(path, 0700);
	remove(path);
	return 0;
}

static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool file_is(const char *path, const char *content, mode_t mode, uid_t uid, gid_t gid)
{
	char buf[64];
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0 || lstat(path, &st) < 0)
		return false;
	buf[n] = '\0';
	return strcmp(buf, content) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == mode &&
	       st.st_uid == uid && st.st_gid == gid;
}

static int open_dir(const char *path)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void test_copyup(void)
{
	char src[] = "/tmp/kcrun-copyup-src.XXXXXX", dst[] = "/tmp/kcrun-copyup-dst.XXXXXX";
	char path[PATH_MAX], target[PATH_MAX];
	kc_error_t err = NULL;
	struct stat st;
	ssize_t len;
	int s, d, i;

	if (!mkdtemp(src) || !mkdtemp(dst)) {
		for (i = 0; i < 7; i++)
			TAP_OK(0, "copyup: mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/a", src);
	tap_put_file(src, "a", "alpha");
	if (chown(path, 1234, 5678) < 0 || chmod(path, 0640) < 0)
		TAP_OK(0, "copyup: set up a");
	snprintf(path, sizeof(path), "%s/sub", src);
	mkdir(path, 0755);
	tap_put_file(path, "b", "beta");
	snprintf(path, sizeof(path), "%s/sub/b", src);
	chmod(path, 04755);
	snprintf(path, sizeof(path), "%s/sub", src);
	chmod(path, 0500);
	snprintf(path, sizeof(path), "%s/link", src);
	if (symlink("/etc/passwd", path) < 0)
		TAP_OK(0, "copyup: set up link");
	snprintf(path, sizeof(path), "%s/pipe", src);
	mkfifo(path, 0620);
	chmod(path, 0620);

	s = open_dir(src);
	d = open_dir(dst);
	TAP_CALL_OK(kc_copyup(s, d, "/x", &err), err, "copyup: a tree is copied");
	snprintf(path, sizeof(path), "%s/a", dst);
	TAP_OK(file_is(path, "alpha", 0640, 1234, 5678), "copyup: a file keeps its contents, mode and owner");
	snprintf(path, sizeof(path), "%s/sub/b", dst);
	TAP_OK(file_is(path, "beta", 04755, 0, 0) ||
	       file_is(path, "beta", 04755, getuid(), getgid()),
	       "copyup: a file in a read-only directory is copied, its set-uid bit kept");
	snprintf(path, sizeof(path), "%s/sub", dst);
	TAP_OK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0500,
	       "copyup: the directory gets its mode (0500) once filled");
	snprintf(path, sizeof(path), "%s/link", dst);
	len = readlink(path, target, sizeof(target) - 1);
	if (len >= 0)
		target[len] = '\0';
	TAP_OK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && len > 0 &&
	       strcmp(target, "/etc/passwd") == 0,
	       "copyup: a symlink is copied as a link, not followed");
	snprintf(path, sizeof(path), "%s/pipe", dst);
	TAP_OK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode) && (st.st_mode & 07777) == 0620,
	       "copyup: a FIFO is made, not opened");
	close(s);
	close(d);
	snprintf(path, sizeof(path), "%s/sub", dst);
	chmod(path, 0700);
	snprintf(path, sizeof(path), "%s/sub", src);
	chmod(path, 0700);
	remove_tree(dst);
	remove_tree(src);

	/* deeper than KC_COPYUP_MAX_DEPTH: refused, not a stack overflow */
	if (!mkdtemp(strcpy(src, "/tmp/kcrun-copyup-src.XXXXXX")) ||
	    !mkdtemp(strcpy(dst, "/tmp/kcrun-copyup-dst.XXXXXX"))) {
		TAP_OK(0, "copyup: mkdtemp");
		return;
	}
	s = open_dir(src);
	for (i = 0, d = dup(s); i <= KC_COPYUP_MAX_DEPTH && d >= 0; i++) {
		int next;

		mkdirat(d, "n", 0755);
		next = openat(d, "n", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(d);
		d = next;
	}
	if (d >= 0)
		close(d);
	d = open_dir(dst);
	TAP_CALL_FAILS(kc_copyup(s, d, "/deep", &err), err, "nested too deep",
		       "copyup: nesting deeper than %d directories is refused", KC_COPYUP_MAX_DEPTH);
	close(s);
	close(d);
	remove_tree(dst);
	remove_tree(src);
}
