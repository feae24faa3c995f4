/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See mounts.h.  Every mount is made as a detached mount on the host side
 * (open_tree(OPEN_TREE_CLONE) or fsopen/fsconfig/fsmount) and then moved
 * into the container's mount tree with move_mount() onto a path resolved
 * from the container root through the container fd. */
#include "mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "copyup.h"
#include "fd_child.h"
#include "kcontainer.h"
#include "log.h"
#include "mount_opts.h"
#include "procfs.h"

#include "cleanup.h"

const char *kc_rel_path(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int kc_mkdir_p_at(int cfd, const char *path, mode_t mode, kc_error_t *err)
{
	char buf[4096], *p;
	const char *rel = kc_rel_path(path);

	if (strcmp(rel, ".") == 0)
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf))
		return kc_error_set(err, ENAMETOOLONG, "mkdir `%s`", path);
	for (p = buf;; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;

			*p = '\0';
			if (mkdirat(cfd, buf, mode) < 0 && errno != EEXIST)
				return kc_error_set(err, errno, "mkdir `/%s` in the container", buf);
			*p = saved;
			if (saved == '\0')
				break;
			while (p[1] == '/')
				p++;
		}
	}
	return 0;
}

int kc_touch_at(int cfd, const char *path, kc_error_t *err)
{
	const char *rel = kc_rel_path(path);
	char parent[4096], *slash;

	snprintf(parent, sizeof(parent), "%s", rel);
	slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		if (kc_mkdir_p_at(cfd, parent, 0755, err) < 0)
			return -1;
	}
	/* mknod, not open: whatever the image has there (a FIFO, a device
	 * node) is only mounted over, never opened by kcrun. */
	if (mknodat(cfd, rel, S_IFREG | 0644, 0) < 0) {
		if (errno == EEXIST || errno == EACCES || errno == EROFS || errno == EPERM) {
			struct stat st;

			if (fstatat(cfd, rel, &st, 0) == 0)
				return 0;
		}
		return kc_error_set(err, errno, "create mount point `%s` in the container", path);
	}
	return 0;
}

/* Propagation of a detached tree (an open_tree() clone or an fsmount()),
 * set before it is attached: mount_setattr() changes only mounts of the
 * caller's namespace or of an anonymous one. */
static int set_propagation(int mfd, const char *what, uint64_t propagation, bool recursive,
			   kc_error_t *err)
{
	struct kc_mount_attr attr = {.propagation = propagation};

	if (propagation == 0)
		return 0;
	if (kc_mount_setattr(mfd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &attr,
			     sizeof(attr)) < 0)
		return kc_error_set(err, errno, "mount_setattr propagation of `%s`", what);
	return 0;
}

/* A bind mount's propagation.  A clone of a shared host mount is a peer of
 * it; runc's container namespace is an rslave copy of the host's, so by
 * default the bind becomes a slave (host mounts show inside, the
 * container's do not leak out), and a propagation option applies on top of
 * that -- unless the root itself is shared, as runc then keeps the peers. */
static int set_bind_propagation(const struct kc_mount_ctx *ctx, int mfd, const char *what,
				const struct kc_mount_opts *o, kc_error_t *err)
{
	if (!ctx->rootfs_shared && set_propagation(mfd, what, MS_SLAVE, o->recursive, err) < 0)
		return -1;
	return set_propagation(mfd, what, o->propagation, o->rec_propagation, err);
}

static int attach(int mfd, int cfd, const char *dest, kc_error_t *err)
{
	if (kc_move_mount(mfd, "", cfd, kc_rel_path(dest), MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return kc_error_set(err, errno, "move_mount onto `%s` in the container", dest);
	return 0;
}

/* The path of what fd refers to, in the mount namespace it lies in: the
 * kernel writes it from the dentries themselves, symlinks already resolved
 * (a file of the container's tree reads as the container sees it). */
static int path_of_fd(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static char *source_path(const struct kc_mount_ctx *ctx, const char *source);

/* mounts[index] against the /proc rule at the path it really has in the
 * container: DEST_FD's (the destination as it resolves, or the mount
 * itself once attached) and the directory it lies in. */
static int check_resolved(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
			  const struct kc_mount_opts *o, int dest_fd, int dir_fd, kc_error_t *err)
{
	char resolved[4096];
	cleanup_free char *src = NULL;
	kc_error_t why = NULL;

	if (path_of_fd(dest_fd, resolved, sizeof(resolved)) < 0)
		return kc_error_set(err, errno, "mounts[%zu]: where `%s` is in the container", index,
				    m->destination);
	src = o->bind ? source_path(ctx, m->source) : NULL;
	if (kc_procfs_check_mount(index, resolved, m->type, o->bind, src, dir_fd, &why) == 0)
		return 0;
	kc_error_set(err, 0, "mounts[%zu].destination: \"%s\" resolves to \"%s\" in the container: %s",
		     index, m->destination, resolved, why ? why->msg : "inside /proc");
	kc_error_free(&why);
	return -1;
}

/* Attaches mounts[index] at its destination, then judges where it landed
 * (runtime review 2, 4.3).  The destination was judged before the mount,
 * but move_mount() resolves it again, and whoever can write a directory an
 * earlier mount shared (a volume of two containers) can swap one of its
 * components for a symlink into /proc in between.  The kernel moves a
 * mount into a container's tree by path only (through the container fd,
 * not onto an fd), so the result is judged: the path the moved mount has
 * now, and the directory it covers a name of.  A mount found inside /proc
 * fails create, before any process of the container runs. */
static int attach_checked(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
			  const struct kc_mount_opts *o, int mfd, kc_error_t *err)
{
	cleanup_close int dir_fd = -1;

	if (attach(mfd, ctx->cfd, m->destination, err) < 0)
		return -1;
	/* ".." of a mount's root is its mountpoint's directory (a file
	 * mount has none to open: its path alone is judged) */
	dir_fd = openat(mfd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return check_resolved(ctx, index, m, o, mfd, dir_fd, err);
}

/* linux.rootfsPropagation, runc's rslave by default, on the clone of the
 * rootfs (a peer of its host mount when that is shared). */
static int rootfs_propagation(struct kc_mount_ctx *ctx, int mfd, const struct oci_spec *spec,
			      kc_error_t *err)
{
	const char *name = spec->linux_ ? spec->linux_->rootfs_propagation : NULL;
	const struct oci_mount_option *mode;

	if (name == NULL || *name == '\0')
		return set_propagation(mfd, ctx->rootfs, MS_SLAVE, true, err);
	mode = oci_mount_option_find(name);
	if (mode && mode->kind == OCI_MOUNT_OPT_PROPAGATION) {
		ctx->rootfs_shared = mode->value == MS_SHARED;
		if (set_propagation(mfd, ctx->rootfs, mode->value, mode->recursive, err) < 0)
			return kc_error_wrap(err, "linux.rootfsPropagation");
		return 0;
	}
	return kc_error_set(err, EINVAL, "linux.rootfsPropagation: unknown mode \"%s\"", name);
}

bool kc_mounts_rootfs_is_slave(const struct oci_spec *spec)
{
	const char *name = spec->linux_ ? spec->linux_->rootfs_propagation : NULL;
	const struct oci_mount_option *mode;

	if (name == NULL || *name == '\0')
		return true;
	mode = oci_mount_option_find(name);
	return mode && mode->kind == OCI_MOUNT_OPT_PROPAGATION && mode->value == MS_SLAVE;
}

int kc_mounts_setup_rootfs(struct kc_mount_ctx *ctx, const struct oci_spec *spec,
			   kc_error_t *err)
{
	cleanup_close int mfd = ctx->rootfs_clone_fd;

	ctx->rootfs_clone_fd = -1;
	if (mfd < 0)
		mfd = kc_open_tree(AT_FDCWD, ctx->rootfs,
				   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (mfd < 0)
		return kc_error_set(err, errno, "open_tree rootfs `%s`", ctx->rootfs);
	/* root.readonly: init remounts / read-only once the mount points of
	 * mounts[] are made in it (init.c), as runc does. */
	if (rootfs_propagation(ctx, mfd, spec, err) < 0)
		return -1;
	if (kc_move_mount(mfd, "", ctx->cfd, "",
			  MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_CONTAINER_ROOT) < 0)
		return kc_error_set(err, errno, "move_mount rootfs `%s` as the container root",
				    ctx->rootfs);
	return 0;
}

static char *source_path(const struct kc_mount_ctx *ctx, const char *source)
{
	char *path = NULL;

	if (source == NULL)
		return strdup("");
	if (source[0] == '/')
		return strdup(source);
	if (asprintf(&path, "%s/%s", ctx->bundle, source) < 0)
		return NULL;
	return path;
}

static int bind_mount(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
		      const struct kc_mount_opts *o, kc_error_t *err)
{
	cleanup_close int mfd = -1;
	char *src = source_path(ctx, m->source);
	struct stat st;
	int ret = -1;

	if (src == NULL)
		return kc_error_set(err, ENOMEM, "mount");
	if (stat(src, &st) < 0) {
		kc_error_set(err, errno, "mount source `%s`", src);
		goto out;
	}
	if (S_ISDIR(st.st_mode) ? kc_mkdir_p_at(ctx->cfd, m->destination, 0755, err) < 0
				: kc_touch_at(ctx->cfd, m->destination, err) < 0)
		goto out;
	mfd = kc_open_tree(AT_FDCWD, src,
			   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (o->recursive ? AT_RECURSIVE : 0));
	if (mfd < 0) {
		kc_error_set(err, errno, "open_tree `%s`", src);
		goto out;
	}
	if (kc_mount_opts_apply(mfd, src, o, err) < 0 ||
	    set_bind_propagation(ctx, mfd, src, o, err) < 0)
		goto out;
	if (attach_checked(ctx, index, m, o, mfd, err) < 0)
		goto out;
	ret = 0;
out:
	free(src);
	return ret;
}

/* A cgroup mount shows the container's own cgroup, as a cgroup namespace
 * rooted there would: a bind of its directory, or a fresh cgroup2 mount
 * when the container has no cgroup of its own.  Rootless without a cgroup,
 * a cgroup2 superblock is refused (kcrun's cgroup namespace is the host's):
 * the host's hierarchy is bound instead, as runc does on EPERM. */
static int cgroup_mount(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
			const struct kc_mount_opts *o, kc_error_t *err)
{
	cleanup_close int mfd = -1;
	char path[4096];
	bool whole = false;

	/* Never a new cgroup2 superblock from kcrun's own cgroup namespace:
	 * the kernel takes FSCONFIG_SET_CONTAINER only from filesystems that
	 * choose the container's namespaces (cgroup2 does not), and a cgroup2
	 * superblock made from the initial cgroup namespace resets the
	 * hierarchy's root flags (nsdelegate, memory_recursiveprot).  Without
	 * a cgroup of its own (rootless podman with cgroupfs), the container
	 * gets the host's tree, as runc's fallback gives it. */
	if (ctx->cgroup_path && *ctx->cgroup_path) {
		snprintf(path, sizeof(path), "%s", ctx->cgroup_path);
	} else if (kc_cgroup_v2_mounted()) {
		snprintf(path, sizeof(path), "%s", KC_CGROUP_MOUNT);
		whole = true;
	} else {
		return 1;
	}
	if (kc_mkdir_p_at(ctx->cfd, m->destination, 0755, err) < 0)
		return -1;
	mfd = kc_open_tree(AT_FDCWD, path,
			   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (whole ? AT_RECURSIVE : 0));
	if (mfd < 0)
		return kc_error_set(err, errno, "open_tree `%s`", path);
	if (kc_mount_opts_apply(mfd, path, o, err) < 0)
		return -1;
	return attach_checked(ctx, index, m, o, mfd, err);
}

/* The filesystems whose superblock shows a namespace of the container
 * (patch 0012's set_container op): in kcrun's namespaces, a procfs would
 * show the host's pid namespace, a sysfs its network namespace. */
static bool shows_container_namespaces(const char *type)
{
	static const char *const types[] = { "proc", "sysfs", "mqueue", "tmpfs", "ramfs" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(type, types[i]) == 0)
			return true;
	return false;
}

/* FSCONFIG_SET_CONTAINER: the superblock takes the container's namespaces.
 * Only a filesystem without the op (EOPNOTSUPP: devpts, which has no
 * fs_context in 6.1, cgroup2) gets a superblock in kcrun's namespaces,
 * logged.  Any other failure, or EOPNOTSUPP from a filesystem that should
 * take the container's namespaces, fails create: falling back would give
 * the container the host's (runtime review 2, 4.8). */
static int set_container(int fsfd, int cfd, const char *type, const char *dest, kc_error_t *err)
{
	if (kc_fsconfig(fsfd, FSCONFIG_SET_CONTAINER, NULL, NULL, cfd) == 0)
		return 0;
	if (errno == EOPNOTSUPP && !shows_container_namespaces(type)) {
		kc_log_debug("fsconfig SET_CONTAINER for `%s` (%s): %s: superblock in the "
			     "runtime's namespaces", dest, type, strerror(errno));
		return 0;
	}
	return kc_error_set(err, errno, "fsconfig SET_CONTAINER for `%s` (%s)", dest, type);
}

/* sysfs_init_fs_context() wants CAP_SYS_ADMIN over the owner of the
 * caller's network namespace: root of a user namespace of its own that is
 * still in the host's network namespace (kcrun under rootless podman, or
 * in its supervisor namespace) gets EPERM from fsopen("sysfs").  A child
 * sharing kcrun's fd table opens it from a network namespace of its own
 * (owned by kcrun's user namespace) into the slot; FSCONFIG_SET_CONTAINER
 * then gives the superblock the container's network namespace, which the
 * kernel checks as ever.  The child's namespace ends with it. */
static int open_sysfs_in_own_netns(void *arg, const int *slots, size_t n)
{
	(void)arg;
	(void)n;
	if (unshare(CLONE_NEWNET) < 0)
		return errno;
	return kc_fd_child_fill(kc_fsopen("sysfs", FSOPEN_CLOEXEC), slots[0]);
}

static int fsopen_sysfs_from_own_netns(void)
{
	int slot;

	if (kc_fd_child_run(open_sysfs_in_own_netns, NULL, &slot, 1) < 0)
		return -1;
	return slot;
}

/* A container in a network namespace kcrun has no rights over (the host's,
 * under rootless podman's --network host) cannot have a sysfs of its own:
 * the host's /sys is bound, recursively, with the mount's flags on every
 * mount of it (runc's and crun's fallback on EPERM). */
static int bind_host_sysfs(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
			   const struct kc_mount_opts *o, kc_error_t *err)
{
	cleanup_close int mfd = -1;

	kc_log_debug("sysfs for `%s` refused in the container's network namespace: the host's "
		     "/sys bound", m->destination);
	mfd = kc_open_tree(AT_FDCWD, "/sys", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (mfd < 0)
		return kc_error_set(err, errno, "open_tree `/sys`");
	if (kc_mount_set_attrs(mfd, "/sys", o->attr_set, 0, true, err) < 0 ||
	    set_propagation(mfd, m->destination, o->propagation, true, err) < 0)
		return -1;
	return attach_checked(ctx, index, m, o, mfd, err);
}

/* tmpcopyup: what the image holds at dest (resolved inside the container's
 * root, never through a magic link) is copied into the detached tmpfs mfd
 * before it covers it. */
static int copy_up(struct kc_mount_ctx *ctx, const char *dest, int mfd, kc_error_t *err)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	cleanup_close int src = (int)syscall(SYS_openat2, ctx->cfd, kc_rel_path(dest), &how,
					     sizeof(how));

	if (src < 0)
		return kc_error_set(err, errno, "tmpcopyup `%s`: open it in the container", dest);
	return kc_copyup(src, mfd, dest, err);
}

static bool is_dev(const char *destination)
{
	return strcmp(kc_rel_path(destination), "dev") == 0;
}

static int fs_mount(struct kc_mount_ctx *ctx, size_t index, const struct oci_mount *m,
		    const struct kc_mount_opts *o, kc_error_t *err)
{
	cleanup_close int fsfd = -1;
	cleanup_close int mfd = -1;
	const char *type = m->type;
	bool sysfs_retried = false, copyup;
	size_t i;

	if (type == NULL || *type == '\0')
		return kc_error_set(err, 0, "mount `%s`: no type (and not a bind mount)",
				    m->destination);
	if (strcmp(type, "cgroup") == 0 || strcmp(type, "cgroup2") == 0) {
		int ret = cgroup_mount(ctx, index, m, o, err);

		if (ret <= 0)
			return ret;
		if (strcmp(type, "cgroup") == 0 && kc_cgroup_v2_mounted())
			type = "cgroup2";
	}
	if (kc_mkdir_p_at(ctx->cfd, m->destination, 0755, err) < 0)
		return -1;
	fsfd = kc_fsopen(type, FSOPEN_CLOEXEC);
	if (fsfd < 0 && errno == EPERM && strcmp(type, "sysfs") == 0) {
		fsfd = fsopen_sysfs_from_own_netns();
		sysfs_retried = true;
	}
	if (fsfd < 0)
		return kc_error_set(err, errno, "fsopen `%s` for `%s`", type, m->destination);
	if (set_container(fsfd, ctx->cfd, type, m->destination, err) < 0) {
		if (!sysfs_retried || *err == NULL || (*err)->errnum != EPERM)
			return -1;
		kc_error_free(err);
		return bind_host_sysfs(ctx, index, m, o, err);
	}
	if (m->source && *m->source &&
	    kc_fsconfig(fsfd, FSCONFIG_SET_STRING, "source", m->source, 0) < 0)
		return kc_error_set(err, errno, "fsconfig source=%s for `%s`", m->source,
				    m->destination);
	for (i = 0; i < o->data_len; i++) {
		char key[256];
		const char *eq = strchr(o->data[i], '=');
		int ret;

		if (eq) {
			snprintf(key, sizeof(key), "%.*s", (int)(eq - o->data[i]), o->data[i]);
			ret = kc_fsconfig(fsfd, FSCONFIG_SET_STRING, key, eq + 1, 0);
		} else {
			ret = kc_fsconfig(fsfd, FSCONFIG_SET_FLAG, o->data[i], NULL, 0);
		}
		if (ret < 0)
			return kc_error_set(err, errno, "mount `%s` (%s): option `%s`",
					    m->destination, type, o->data[i]);
	}
	if (kc_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return kc_error_set(err, errno, "mount `%s` (%s): create superblock",
				    m->destination, type);
	copyup = o->tmpcopyup && strcmp(type, "tmpfs") == 0;
	/* A read-only /dev stays writable until init has it (runc's order):
	 * /dev/pts, /dev/shm and the device nodes are made in it first.  A
	 * read-only tmpfs with tmpcopyup takes its copy first. */
	mfd = kc_fsmount(fsfd, FSMOUNT_CLOEXEC,
			 (unsigned int)(is_dev(m->destination) || copyup
					? o->attr_set & ~MOUNT_ATTR_RDONLY : o->attr_set));
	if (mfd < 0)
		return kc_error_set(err, errno, "fsmount `%s` (%s)", m->destination, type);
	if (copyup && (copy_up(ctx, m->destination, mfd, err) < 0 ||
		       kc_mount_set_attrs(mfd, m->destination, o->attr_set & MOUNT_ATTR_RDONLY, 0,
					  false, err) < 0))
		return -1;
	if (set_propagation(mfd, m->destination, o->propagation, o->rec_propagation, err) < 0 ||
	    attach_checked(ctx, index, m, o, mfd, err) < 0)
		return -1;
	return 0;
}

/* No mount over or inside the container's /proc but procfs (procfs.h). */
static int check_proc_destination(struct kc_mount_ctx *ctx, size_t index,
				  const struct oci_mount *m, const struct kc_mount_opts *o,
				  kc_error_t *err)
{
	cleanup_close int dest_fd = openat(ctx->cfd, kc_rel_path(m->destination),
					   O_PATH | O_CLOEXEC);
	cleanup_free char *src = o->bind ? source_path(ctx, m->source) : NULL;
	struct stat st;

	/* runc after CVE-2023-27561: procfs and sysfs are not mounted through
	 * a symlink of the image (it would put them where the image says) */
	if (!o->bind && m->type && (strcmp(m->type, "proc") == 0 || strcmp(m->type, "sysfs") == 0) &&
	    fstatat(ctx->cfd, kc_rel_path(m->destination), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return kc_error_set(err, 0, "mounts[%zu].destination: \"%s\" is a symlink in the "
					    "rootfs; %s cannot be mounted there", index, m->destination,
				    m->type);
	if (kc_procfs_check_mount(index, m->destination, m->type, o->bind, src, dest_fd, err) < 0)
		return -1;
	/* where an existing destination resolves (an image's symlink into
	 * /proc), before anything is made for it */
	return dest_fd >= 0 ? check_resolved(ctx, index, m, o, dest_fd, -1, err) : 0;
}

int kc_mounts_setup(struct kc_mount_ctx *ctx, const struct oci_spec *spec, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < spec->mounts_len; i++) {
		const struct oci_mount *m = &spec->mounts[i];
		struct kc_mount_opts o;
		int ret;

		if (kc_mount_opts_parse(m, i, &o, err) < 0)
			return -1;
		if (check_proc_destination(ctx, i, m, &o, err) < 0) {
			kc_mount_opts_release(&o);
			return -1;
		}
		if (o.bind)
			ret = bind_mount(ctx, i, m, &o, err);
		else
			ret = fs_mount(ctx, i, m, &o, err);
		if (ret == 0 && !o.bind && strcmp(kc_rel_path(m->destination), "dev") == 0)
			ctx->dev_is_tmpfs = true;
		kc_mount_opts_release(&o);
		if (ret < 0)
			return kc_error_wrap(err, "mounts[%zu]", i);
	}
	return 0;
}

/* PATH of linux.maskedPaths or readonlyPaths as it resolves in the
 * container (an image's symlinks followed, inside its root, as runc's
 * mount(2) inside the container follows them): its path in *resolved and,
 * when st is not NULL, what it is.  1 when found, 0 when it does not exist
 * (skipped, as runc does), -1 with *err set on another error. */
static int resolve_listed_path(struct kc_mount_ctx *ctx, const char *list, const char *path,
			       char *resolved, size_t size, struct stat *st, kc_error_t *err)
{
	cleanup_close int fd = openat(ctx->cfd, kc_rel_path(path), O_PATH | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return kc_error_set(err, errno, "%s: open `%s`", list, path);
	}
	if (path_of_fd(fd, resolved, size) < 0)
		return kc_error_set(err, errno, "%s: where `%s` is in the container", list, path);
	if (st && fstat(fd, st) < 0)
		return kc_error_set(err, errno, "%s: stat `%s`", list, path);
	return 1;
}

/* linux.maskedPaths: /dev/null over a file, a read-only empty tmpfs over a
 * directory; paths that don't exist are skipped (as runc does). */
static int mask_path(struct kc_mount_ctx *ctx, const char *path, kc_error_t *err)
{
	cleanup_close int fsfd = -1;
	cleanup_close int mfd = -1;
	char resolved[4096];
	struct stat st;
	int found = resolve_listed_path(ctx, "maskedPaths", path, resolved, sizeof(resolved), &st,
					err);

	if (found <= 0)
		return found;
	if (S_ISDIR(st.st_mode)) {
		fsfd = kc_fsopen("tmpfs", FSOPEN_CLOEXEC);
		if (fsfd < 0 || set_container(fsfd, ctx->cfd, "tmpfs", path, err) < 0 ||
		    kc_fsconfig(fsfd, FSCONFIG_SET_STRING, "size", "0", 0) < 0 ||
		    kc_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
			return kc_error_set(err, errno, "maskedPaths: tmpfs for `%s`", path);
		mfd = kc_fsmount(fsfd, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY);
	} else {
		mfd = kc_open_tree(AT_FDCWD, "/dev/null", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	}
	if (mfd < 0)
		return kc_error_set(err, errno, "maskedPaths: mount for `%s`", path);
	if (attach(mfd, ctx->cfd, resolved, err) < 0)
		return kc_error_wrap(err, "maskedPaths");
	return 0;
}

/* linux.readonlyPaths: a read-only recursive clone of the path stacked on
 * itself. */
static int readonly_path(struct kc_mount_ctx *ctx, const char *path, kc_error_t *err)
{
	cleanup_close int mfd = -1;
	char resolved[4096];
	int found = resolve_listed_path(ctx, "readonlyPaths", path, resolved, sizeof(resolved),
					NULL, err);

	if (found <= 0)
		return found;
	/* through the container fd: a plain fd of the container's tree is
	 * another namespace's mount, which open_tree() does not clone */
	mfd = kc_open_tree(ctx->cfd, kc_rel_path(resolved),
			   OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (mfd < 0) {
		if (errno == EINVAL) {
			const char **p = realloc(ctx->deferred_readonly,
						 (ctx->deferred_readonly_len + 1) * sizeof(*p));

			if (p == NULL)
				return kc_error_set(err, ENOMEM, "readonlyPaths");
			p[ctx->deferred_readonly_len++] = path;
			ctx->deferred_readonly = p;
			return 0;
		}
		return kc_error_set(err, errno, "readonlyPaths: open_tree `%s`", path);
	}
	if (kc_mount_set_attrs(mfd, path, MOUNT_ATTR_RDONLY, 0, true, err) < 0)
		return kc_error_wrap(err, "readonlyPaths");
	if (attach(mfd, ctx->cfd, resolved, err) < 0)
		return kc_error_wrap(err, "readonlyPaths");
	return 0;
}

int kc_mounts_finish(struct kc_mount_ctx *ctx, const struct oci_spec *spec, kc_error_t *err)
{
	const struct oci_linux *lx = spec->linux_;
	size_t i;

	if (lx == NULL)
		return 0;
	for (i = 0; i < lx->masked_paths_len; i++)
		if (mask_path(ctx, lx->masked_paths[i], err) < 0)
			return -1;
	for (i = 0; i < lx->readonly_paths_len; i++)
		if (readonly_path(ctx, lx->readonly_paths[i], err) < 0)
			return -1;
	return 0;
}

void kc_mount_ctx_release(struct kc_mount_ctx *ctx)
{
	if (ctx->rootfs_clone_fd >= 0)
		close(ctx->rootfs_clone_fd);
	ctx->rootfs_clone_fd = -1;
	free(ctx->deferred_readonly);
	ctx->deferred_readonly = NULL;
	ctx->deferred_readonly_len = 0;
}

/* A read-only bind remount of the mount at path that keeps the flags it
 * has (statvfs -> MS_*): in a user namespace they are locked. */
static int remount_readonly(const char *path)
{
	unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY;
	struct statvfs sv;

	if (statvfs(path, &sv) == 0)
		flags |= (sv.f_flag & ST_NOSUID ? MS_NOSUID : 0) |
			 (sv.f_flag & ST_NODEV ? MS_NODEV : 0) |
			 (sv.f_flag & ST_NOEXEC ? MS_NOEXEC : 0) |
			 (sv.f_flag & ST_NOATIME ? MS_NOATIME : 0) |
			 (sv.f_flag & ST_NODIRATIME ? MS_NODIRATIME : 0) |
			 (sv.f_flag & ST_RELATIME ? MS_RELATIME : 0);
	return mount(NULL, path, NULL, flags, NULL);
}

int kc_mounts_readonly_inside(const char *const *paths, size_t len, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (mount(paths[i], paths[i], NULL, MS_BIND | MS_REC, NULL) < 0) {
			if (errno == ENOENT)
				continue;
			return kc_error_set(err, errno, "readonlyPaths: bind `%s`", paths[i]);
		}
		if (remount_readonly(paths[i]) < 0)
			return kc_error_set(err, errno, "readonlyPaths: remount `%s` read-only",
					    paths[i]);
	}
	return 0;
}

int kc_mounts_remount_dev_readonly(const struct oci_spec *spec, kc_error_t *err)
{
	bool readonly = false;
	size_t i;

	for (i = 0; i < spec->mounts_len; i++) {
		struct kc_mount_opts o;

		if (!is_dev(spec->mounts[i].destination))
			continue;
		if (kc_mount_opts_parse(&spec->mounts[i], i, &o, err) < 0)
			return -1;
		/* the last mount on /dev is the one the container sees */
		readonly = !o.bind && (o.attr_set & MOUNT_ATTR_RDONLY);
		kc_mount_opts_release(&o);
	}
	if (readonly && remount_readonly("/dev") < 0)
		return kc_error_set(err, errno, "mounts: remount /dev read-only");
	return 0;
}

int kc_mounts_remount_root_readonly(kc_error_t *err)
{
	if (remount_readonly("/") < 0)
		return kc_error_set(err, errno, "root.readonly: remount / read-only");
	return 0;
}
