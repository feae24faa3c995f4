/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel container object (docs/kernel-api.md).
 *
 * This file and kcontainer.c are the only place in kcrun that issues the
 * container system calls (451-456, and clone3() into a container) and the
 * new mount API calls; everything
 * else goes through these wrappers.  The raw wrappers return what the
 * system call returns (-1 with errno set on failure), like libc does.
 */
#ifndef KCRUN_KCONTAINER_H
#define KCRUN_KCONTAINER_H

#include <sys/types.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* System call numbers: the same on every architecture (asm-generic). */
#define KC_NR_container_create        451
#define KC_NR_container_socket        452
#define KC_NR_container_kill          453
#define KC_NR_container_wait          454
#define KC_NR_container_open          455
#define KC_NR_container_setns         456
#define KC_NR_clone3                  435

/* container_create() flags. */
#define CONTAINER_NEW_FS_NS        0x001
#define CONTAINER_NEW_EMPTY_FS_NS  0x002
#define CONTAINER_NEW_CGROUP_NS    0x004
#define CONTAINER_NEW_UTS_NS       0x008
#define CONTAINER_NEW_IPC_NS       0x010
#define CONTAINER_NEW_USER_NS      0x020
#define CONTAINER_NEW_PID_NS       0x040
#define CONTAINER_NEW_NET_NS       0x080
#define CONTAINER_KILL_ON_CLOSE    0x100
#define CONTAINER_USER_NS_FD       0x200
#define CONTAINER_MAX_DESCENDANTS  0x400
#define CONTAINER__FLAG_MASK       0x7ff

#define CONTAINER_NAME_MAX         255

/* container_create()'s arguments (versioned by size, as clone3's). */
struct kc_container_args {
	uint64_t flags;
	uint64_t name;		/* const char * */
	uint64_t userns_fd;	/* with CONTAINER_USER_NS_FD, else 0 */
	uint64_t max_descendants; /* with CONTAINER_MAX_DESCENDANTS, else 0 */
};

/* Forking into a container is clone3() with these flags (the next free
 * bits after CLONE_INTO_CGROUP) and the container fd at the end of its
 * arguments; container fds are always close-on-exec. */
#define KC_CLONE_PIDFD              0x1000ULL
#define KC_CLONE_INTO_CGROUP        0x200000000ULL
#define KC_CLONE_INTO_CONTAINER     0x400000000ULL
#define KC_CLONE_CONTAINER_MEMBER   0x800000000ULL

struct kc_clone_args {
	uint64_t flags;
	uint64_t pidfd;		/* int *, with CLONE_PIDFD */
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;	/* with CLONE_INTO_CGROUP */
	uint64_t container_fd;	/* with CLONE_INTO_CONTAINER */
};

/* container_kill()'s flags: without it, only init is signalled. */
#define CONTAINER_KILL_ALL          0x1

/* Mount API extensions of the series. */
#define FSCONFIG_SET_CONTAINER         9
#define MOVE_MOUNT_T_CONTAINER_ROOT    0x80

#define KC_PROC_CONTAINERS "/proc/containers"

/* True when the running kernel provides container objects. */
bool kc_kernel_has_containers(void);

/* Raw system calls (return -1 and set errno on failure).  userns_fd is
 * only passed with CONTAINER_USER_NS_FD, max_descendants only with
 * CONTAINER_MAX_DESCENDANTS; cgroup_fd < 0 forks init into the
 * caller's cgroup, and pidfd (if not NULL) receives a pidfd for init. */
int kc_container_create(const char *name, unsigned int flags, int userns_fd,
			uint32_t max_descendants);
pid_t kc_fork_into_container(int cfd, int cgroup_fd, int *pidfd);
/* A new member of the running container cfd (kcrun exec), in init's
 * namespaces: -1 with ESRCH when init is not running. */
pid_t kc_fork_member(int cfd, int *pidfd);
int kc_container_socket(int cfd, int domain, int type, int protocol);
int kc_container_kill(int cfd, int sig, unsigned int flags);
int kc_container_wait(int cfd, int *wstatus, unsigned int options, struct rusage *ru);
int kc_container_open(const char *name);
int kc_container_setns(int cfd, int nsfd, int nstype);

/* Mount API (glibc 2.36 has most of them, but not consistently across
 * headers; these go straight to syscall(2)). */
int kc_fsopen(const char *fsname, unsigned int flags);
int kc_fsconfig(int fsfd, unsigned int cmd, const char *key, const void *value, int aux);
int kc_fsmount(int fsfd, unsigned int flags, unsigned int attr_flags);
int kc_move_mount(int from_dfd, const char *from_path, int to_dfd, const char *to_path,
		  unsigned int flags);
int kc_open_tree(int dfd, const char *path, unsigned int flags);

struct kc_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};
int kc_mount_setattr(int dfd, const char *path, unsigned int flags,
		     struct kc_mount_attr *attr, size_t size);

/* Convenience: reopen a container by name, with an error object. */
int kc_container_open_by_name(const char *name, kc_error_t *err);

#endif
