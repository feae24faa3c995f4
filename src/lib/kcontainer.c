/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel container object: the only place that issues the container
 * system calls and the new mount API calls (docs/kernel-api.md). */
#include "kcontainer.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

bool kc_kernel_has_containers(void)
{
	return access(KC_PROC_CONTAINERS, F_OK) == 0;
}

int kc_container_create(const char *name, unsigned int flags, int userns_fd,
			uint32_t max_descendants)
{
	struct kc_container_args args = {
		.flags = flags,
		.name = (uintptr_t)name,
		.userns_fd = (flags & CONTAINER_USER_NS_FD) && userns_fd >= 0 ?
				     (uint64_t)userns_fd : 0,
		.max_descendants = flags & CONTAINER_MAX_DESCENDANTS ? max_descendants : 0,
	};

	return (int)syscall(KC_NR_container_create, &args, sizeof(args));
}

/* clone3() into the container cfd: as fork(), with SIGCHLD on exit. */
static pid_t clone_into_container(int cfd, uint64_t flags, int cgroup_fd, int *pidfd)
{
	struct kc_clone_args args = {
		.flags = KC_CLONE_INTO_CONTAINER | flags,
		.exit_signal = SIGCHLD,
		.container_fd = (uint64_t)cfd,
	};

	if (cgroup_fd >= 0) {
		args.flags |= KC_CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
	}
	if (pidfd) {
		args.flags |= KC_CLONE_PIDFD;
		args.pidfd = (uintptr_t)pidfd;
	}
	return (pid_t)syscall(KC_NR_clone3, &args, sizeof(args));
}

pid_t kc_fork_into_container(int cfd, int cgroup_fd, int *pidfd)
{
	return clone_into_container(cfd, 0, cgroup_fd, pidfd);
}

pid_t kc_fork_member(int cfd, int *pidfd)
{
	return clone_into_container(cfd, KC_CLONE_CONTAINER_MEMBER, -1, pidfd);
}

int kc_container_socket(int cfd, int domain, int type, int protocol)
{
	return (int)syscall(KC_NR_container_socket, cfd, domain, type, protocol);
}

int kc_container_kill(int cfd, int sig, unsigned int flags)
{
	return (int)syscall(KC_NR_container_kill, cfd, sig, flags);
}

int kc_container_wait(int cfd, int *wstatus, unsigned int options, struct rusage *ru)
{
	return (int)syscall(KC_NR_container_wait, cfd, wstatus, options, ru);
}

int kc_container_open(const char *name)
{
	return (int)syscall(KC_NR_container_open, name, 0u);
}

int kc_container_setns(int cfd, int nsfd, int nstype)
{
	return (int)syscall(KC_NR_container_setns, cfd, nsfd, nstype);
}

int kc_fsopen(const char *fsname, unsigned int flags)
{
	return (int)syscall(SYS_fsopen, fsname, flags);
}

int kc_fsconfig(int fsfd, unsigned int cmd, const char *key, const void *value, int aux)
{
	return (int)syscall(SYS_fsconfig, fsfd, cmd, key, value, aux);
}

int kc_fsmount(int fsfd, unsigned int flags, unsigned int attr_flags)
{
	return (int)syscall(SYS_fsmount, fsfd, flags, attr_flags);
}

int kc_move_mount(int from_dfd, const char *from_path, int to_dfd, const char *to_path,
		  unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from_path, to_dfd, to_path, flags);
}

int kc_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

int kc_mount_setattr(int dfd, const char *path, unsigned int flags,
		     struct kc_mount_attr *attr, size_t size)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, size);
}

int kc_container_open_by_name(const char *name, kc_error_t *err)
{
	int fd = kc_container_open(name);

	if (fd < 0)
		return kc_error_set(err, errno, "container_open `%s`", name);
	return fd;
}
