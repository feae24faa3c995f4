/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lsm.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "kcontainer.h"
#include "procfs.h"
#include "rootless.h"

static bool wants_apparmor(const struct oci_process *p)
{
	return p->apparmor_profile && *p->apparmor_profile;
}

static bool wants_selinux(const struct oci_process *p)
{
	return p->selinux_label && *p->selinux_label;
}

/* runc's apparmor.IsEnabled() and selinux.GetEnabled(), in kcrun's own
 * mount namespace: the host's /sys. */
static bool apparmor_enabled(void)
{
	return access("/sys/kernel/security/apparmor", F_OK) == 0 ||
	       access("/sys/module/apparmor", F_OK) == 0;
}

static bool selinux_enabled(void)
{
	return access("/sys/fs/selinux/enforce", F_OK) == 0;
}

/* A procfs of the container's pid namespace (FSCONFIG_SET_CONTAINER),
 * detached: no process of the container can mount over anything in it.
 * Rootless exec runs in the host's mount namespace, where fsopen() wants
 * CAP_SYS_ADMIN over the initial user namespace; a mount namespace of its
 * own is owned by the supervisor namespace, as create's is. */
static int container_procfs(int cfd, kc_error_t *err)
{
	cleanup_close int fsfd = kc_fsopen("proc", FSOPEN_CLOEXEC);
	int mfd;

	if (fsfd < 0 && errno == EPERM && kc_rootless() && unshare(CLONE_NEWNS) == 0)
		fsfd = kc_fsopen("proc", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return kc_error_set(err, errno, "LSM label: fsopen proc");
	if (kc_fsconfig(fsfd, FSCONFIG_SET_CONTAINER, NULL, NULL, cfd) < 0)
		return kc_error_set(err, errno, "LSM label: fsconfig SET_CONTAINER for proc");
	if (kc_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return kc_error_set(err, errno, "LSM label: create proc superblock");
	mfd = kc_fsmount(fsfd, FSMOUNT_CLOEXEC,
			 MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mfd < 0)
		return kc_error_set(err, errno, "LSM label: fsmount proc");
	return mfd;
}

int kc_lsm_prepare(const struct oci_process *p, int cfd, int *proc_fd, kc_error_t *err)
{
	*proc_fd = -1;
	if (!wants_apparmor(p) && !wants_selinux(p))
		return 0;
	if (wants_apparmor(p) && !apparmor_enabled())
		return kc_error_set(err, 0, "process.apparmorProfile: \"%s\" is set but AppArmor "
				    "is not enabled on this system", p->apparmor_profile);
	if (wants_selinux(p) && !selinux_enabled())
		return kc_error_set(err, 0, "process.selinuxLabel: selinux label is specified in "
				    "config, but selinux is disabled or not supported");
	*proc_fd = container_procfs(cfd, err);
	return *proc_fd < 0 ? -1 : 0;
}

/* Writes text to the first of paths (relative to the procfs proc_fd) that
 * exists: AppArmor's attributes are in attr/apparmor/ since 5.8, attr/
 * before.  thread-self is the writer: the kernel takes an attribute only
 * from the task it belongs to. */
static int write_attr(int proc_fd, const char *const *paths, const char *text)
{
	struct open_how how = {
		.flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	cleanup_close int fd = -1;
	ssize_t n;

	for (errno = ENOENT; *paths && fd < 0 && errno == ENOENT; paths++)
		fd = (int)syscall(SYS_openat2, proc_fd, *paths, &how, sizeof(how));
	if (fd < 0)
		return -1;
	if (!kc_fd_on_procfs(fd)) {
		errno = EXDEV;
		return -1;
	}
	n = write(fd, text, strlen(text));
	return n < 0 ? -1 : 0;
}

int kc_lsm_apply(const struct oci_process *p, int proc_fd, kc_error_t *err)
{
	static const char *const apparmor_paths[] = {
		"thread-self/attr/apparmor/exec", "thread-self/attr/exec", NULL,
	};
	static const char *const selinux_paths[] = { "thread-self/attr/exec", NULL };
	char text[4200];
	int ret = 0;

	if (proc_fd < 0)
		return 0;
	if (wants_apparmor(p)) {
		snprintf(text, sizeof(text), "exec %s", p->apparmor_profile);
		if (write_attr(proc_fd, apparmor_paths, text) < 0)
			ret = kc_error_set(err, errno, "process.apparmorProfile: apply \"%s\"",
					   p->apparmor_profile);
	}
	if (ret == 0 && wants_selinux(p) && write_attr(proc_fd, selinux_paths, p->selinux_label) < 0)
		ret = kc_error_set(err, errno, "process.selinuxLabel: set \"%s\"", p->selinux_label);
	close(proc_fd);
	return ret;
}
