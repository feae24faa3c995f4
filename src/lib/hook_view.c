/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See hook_view.h. */
#include "hook_view.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd_child.h"
#include "kcontainer.h"

enum { VIEW_NS_SLOT, ROOTFS_CLONE_SLOT, VIEW_SLOTS };

/* In the child: its own copy of the mount namespace, a slave of kcrun's,
 * with root.path bound onto itself and shared. */
static int make_view(void *arg, const int *slots, size_t n)
{
	const char *rootfs = arg;
	int ret;

	(void)n;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0 ||
	    mount(rootfs, rootfs, NULL, MS_BIND | MS_REC, NULL) < 0 ||
	    mount(NULL, rootfs, NULL, MS_REC | MS_SHARED, NULL) < 0)
		return errno;
	ret = kc_fd_child_fill(open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC),
			       slots[VIEW_NS_SLOT]);
	if (ret)
		return ret;
	return kc_fd_child_fill(kc_open_tree(AT_FDCWD, rootfs, OPEN_TREE_CLONE |
					     OPEN_TREE_CLOEXEC | AT_RECURSIVE),
				slots[ROOTFS_CLONE_SLOT]);
}

int kc_hook_view_make(const char *rootfs, int *view_ns_fd, int *rootfs_clone_fd,
		      kc_error_t *err)
{
	int slots[VIEW_SLOTS];

	if (kc_fd_child_run(make_view, (void *)rootfs, slots, VIEW_SLOTS) < 0)
		return kc_error_set(err, errno, "the createRuntime/prestart hooks' view of the "
					       "host's mounts (root.path `%s` bound in a copy of "
					       "the mount namespace)", rootfs);
	*view_ns_fd = slots[VIEW_NS_SLOT];
	*rootfs_clone_fd = slots[ROOTFS_CLONE_SLOT];
	return 0;
}

int kc_hook_view_enter(int view_ns_fd, struct kc_hook_view_keeper *keeper, kc_error_t *err)
{
	pid_t parent = getpid();

	keeper->pidfd = -1;
	keeper->pid = fork();
	if (keeper->pid < 0)
		return kc_error_set(err, errno, "fork the mount namespace keeper");
	if (keeper->pid == 0) {
		/* holds nothing but its namespaces, dies with init */
		syscall(SYS_close_range, 0U, ~0U, 0U);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
			_exit(1);
		for (;;)
			pause();
	}
	keeper->pidfd = (int)syscall(SYS_pidfd_open, keeper->pid, 0U);
	if (keeper->pidfd < 0) {
		kc_error_set(err, errno, "pidfd_open of the mount namespace keeper");
		goto kill_keeper;
	}
	if (setns(view_ns_fd, CLONE_NEWNS) < 0) {
		kc_error_set(err, errno, "setns into the hooks' view of the host's mounts");
		goto kill_keeper;
	}
	close(view_ns_fd);
	return 0;

kill_keeper:
	kc_hook_view_leave(keeper, NULL);
	return -1;
}

int kc_hook_view_leave(struct kc_hook_view_keeper *keeper, kc_error_t *err)
{
	int ret = 0, status;

	if (keeper->pidfd >= 0 && setns(keeper->pidfd, CLONE_NEWNS) < 0) {
		ret = -1;
		if (err)
			kc_error_set(err, errno, "setns back into the container's mount namespace");
	}
	if (keeper->pidfd >= 0)
		close(keeper->pidfd);
	keeper->pidfd = -1;
	if (keeper->pid > 0) {
		kill(keeper->pid, SIGKILL);
		while (waitpid(keeper->pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	keeper->pid = 0;
	return ret;
}
