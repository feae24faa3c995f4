/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "devices.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kcontainer.h"
#include "mounts.h"

struct device {
	const char *path;
	char type;
	unsigned int major, minor;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

static const struct device default_devices[] = {
	{"/dev/null", 'c', 1, 3, 0666, 0, 0},
	{"/dev/zero", 'c', 1, 5, 0666, 0, 0},
	{"/dev/full", 'c', 1, 7, 0666, 0, 0},
	{"/dev/random", 'c', 1, 8, 0666, 0, 0},
	{"/dev/urandom", 'c', 1, 9, 0666, 0, 0},
	{"/dev/tty", 'c', 5, 0, 0666, 0, 0},
};

static const struct {
	const char *target, *link;
} default_links[] = {
	{"/proc/self/fd", "dev/fd"},
	{"/proc/self/fd/0", "dev/stdin"},
	{"/proc/self/fd/1", "dev/stdout"},
	{"/proc/self/fd/2", "dev/stderr"},
	{"pts/ptmx", "dev/ptmx"},
};

/* Bind-mounts the host's node at the same path (what runc does where
 * mknod is refused or the node would be unusable). */
static int bind_host_device(int cfd, const struct device *d, kc_error_t *err)
{
	int mfd;

	if (kc_touch_at(cfd, d->path, err) < 0)
		return -1;
	mfd = kc_open_tree(AT_FDCWD, d->path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (mfd < 0)
		return kc_error_set(err, errno, "device `%s`: open_tree of the host's node",
				    d->path);
	if (kc_move_mount(mfd, "", cfd, kc_rel_path(d->path), MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		close(mfd);
		return kc_error_set(err, errno, "device `%s`: move_mount", d->path);
	}
	close(mfd);
	return 0;
}

static int make_device(int cfd, const struct device *d, bool userns, kc_error_t *err)
{
	const char *rel = kc_rel_path(d->path);
	char parent[4096], *slash;
	mode_t type;

	switch (d->type) {
	case 'c':
	case 'u':
		type = S_IFCHR;
		break;
	case 'b':
		type = S_IFBLK;
		break;
	case 'p':
		type = S_IFIFO;
		break;
	default:
		return kc_error_set(err, 0, "device `%s`: unknown type %c", d->path, d->type);
	}
	if (userns && type != S_IFIFO)
		return bind_host_device(cfd, d, err);
	snprintf(parent, sizeof(parent), "%s", rel);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		if (kc_mkdir_p_at(cfd, parent, 0755, err) < 0)
			return -1;
	}
	unlinkat(cfd, rel, 0);
	if (mknodat(cfd, rel, type | (d->mode & 07777), makedev(d->major, d->minor)) < 0) {
		if (errno == EPERM || errno == EACCES)
			return bind_host_device(cfd, d, err);
		return kc_error_set(err, errno, "mknod device `%s`", d->path);
	}
	if (fchmodat(cfd, rel, d->mode & 07777, 0) < 0)
		return kc_error_set(err, errno, "chmod device `%s`", d->path);
	if (fchownat(cfd, rel, d->uid, d->gid, AT_SYMLINK_NOFOLLOW) < 0)
		return kc_error_set(err, errno, "chown device `%s`", d->path);
	return 0;
}

int kc_devices_setup(int cfd, const struct oci_spec *spec, bool dev_is_tmpfs, bool userns,
		     kc_error_t *err)
{
	const struct oci_linux *lx = spec->linux_;
	size_t i;

	if (dev_is_tmpfs) {
		for (i = 0; i < sizeof(default_devices) / sizeof(default_devices[0]); i++) {
			const struct device *d = &default_devices[i];
			bool overridden = false;
			size_t j;

			for (j = 0; lx && j < lx->devices_len; j++)
				overridden |= strcmp(lx->devices[j].path, d->path) == 0;
			if (!overridden && make_device(cfd, d, userns, err) < 0)
				return -1;
		}
		for (i = 0; i < sizeof(default_links) / sizeof(default_links[0]); i++) {
			unlinkat(cfd, default_links[i].link, 0);
			if (symlinkat(default_links[i].target, cfd, default_links[i].link) < 0 &&
			    errno != EEXIST)
				return kc_error_set(err, errno, "symlink `/%s`", default_links[i].link);
		}
		/* runc (and crun) add /dev/core when the host has /proc/kcore. */
		if (access("/proc/kcore", F_OK) == 0) {
			unlinkat(cfd, "dev/core", 0);
			if (symlinkat("/proc/kcore", cfd, "dev/core") < 0 && errno != EEXIST)
				return kc_error_set(err, errno, "symlink `/dev/core`");
		}
	}
	for (i = 0; lx && i < lx->devices_len; i++) {
		const struct oci_device *od = &lx->devices[i];
		struct device d = {
			.path = od->path,
			.type = od->type[0],
			.major = (unsigned int)od->major,
			.minor = (unsigned int)od->minor,
			.mode = od->has_file_mode ? (mode_t)od->file_mode : 0666,
			.uid = od->has_uid ? od->uid : 0,
			.gid = od->has_gid ? od->gid : 0,
		};

		if (make_device(cfd, &d, userns, err) < 0)
			return kc_error_wrap(err, "linux.devices[%zu]", i);
	}
	return 0;
}
