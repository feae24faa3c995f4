/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process.terminal and --console-socket: see terminal.h. */
#include "terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#ifndef DEVPTS_SUPER_MAGIC
#define DEVPTS_SUPER_MAGIC 0x1cd1
#endif
#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

#include "cleanup.h"
#include "fd_passing.h"
#include "fileio.h"

/* The path is the container's (its image may have put anything there): it
 * resolves inside dirfd as a root, to an O_PATH handle that opens nothing;
 * that very inode must be the ptmx character device (5:2) of a devpts
 * filesystem before kcrun opens it (opening another device can have
 * effects: a watchdog arms on open), and kcrun then opens that inode, not
 * the path again.  Any check that cannot be made refuses. */
int kc_terminal_open_ptmx(int dirfd, const char *path, int *ptmx_fd, kc_error_t *err)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	cleanup_close int handle = -1;
	struct statfs sfs;
	struct stat st;
	int fd;

	handle = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (handle < 0)
		return kc_error_set(err, errno, "open ptmx `%s`", path);
	if (fstat(handle, &st) < 0)
		return kc_error_set(err, errno, "open ptmx `%s`", path);
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != 5 || minor(st.st_rdev) != 2)
		return kc_error_set(err, 0, "open ptmx `%s`: not the ptmx device", path);
	if (fstatfs(handle, &sfs) < 0)
		return kc_error_set(err, errno, "open ptmx `%s`", path);
	if (sfs.f_type != DEVPTS_SUPER_MAGIC)
		return kc_error_set(err, 0, "open ptmx `%s`: not on a devpts filesystem", path);
	fd = kc_reopen(handle, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "open ptmx `%s`", path);
	*ptmx_fd = fd;
	return 0;
}

int kc_terminal_create_pty(int ptmx_fd, unsigned int rows, unsigned int cols,
			   int *slave_fd, int *pts_number, kc_error_t *err)
{
	int unlock = 0, pty_index = -1, fd;

	if (ioctl(ptmx_fd, TIOCSPTLCK, &unlock) < 0)
		return kc_error_set(err, errno, "unlock pty");
	if (ioctl(ptmx_fd, TIOCGPTN, &pty_index) < 0)
		return kc_error_set(err, errno, "get pty number");
	if (rows && cols) {
		struct winsize size = { .ws_row = rows, .ws_col = cols };

		if (ioctl(ptmx_fd, TIOCSWINSZ, &size) < 0)
			return kc_error_set(err, errno, "set process.consoleSize %ux%u", cols, rows);
	}
	/* TIOCGPTPEER opens the slave of this very master, whatever devpts
	 * instance it lives in, without resolving /dev/pts/N in our mount
	 * namespace (where it may be another pty or not exist). */
	fd = ioctl(ptmx_fd, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return kc_error_set(err, errno, "open the slave of pty %d", pty_index);
	*slave_fd = fd;
	if (pts_number)
		*pts_number = pty_index;
	return 0;
}

int kc_terminal_send_master(const char *console_socket, int master_fd, int pts_number,
			    kc_error_t *err)
{
	cleanup_close int sock_fd = kc_unix_connect(console_socket, "console socket", err);
	char name[32];

	if (sock_fd < 0)
		return -1;
	snprintf(name, sizeof(name), "/dev/pts/%d", pts_number);
	if (kc_send_fd(sock_fd, master_fd, name, err) < 0)
		return kc_error_wrap(err, "console socket `%s`", console_socket);
	return 0;
}

int kc_terminal_setup_slave(int slave_fd, kc_error_t *err)
{
	int std_fd;

	/* A process that already leads a session cannot setsid(); it may
	 * still take a terminal as long as it has none. */
	if (setsid() < 0 && getsid(0) != getpid())
		return kc_error_set(err, errno, "setsid");
	if (ioctl(slave_fd, TIOCSCTTY, 0) < 0)
		return kc_error_set(err, errno, "make the pty the controlling terminal");
	for (std_fd = 0; std_fd <= 2; std_fd++) {
		if (slave_fd != std_fd && dup2(slave_fd, std_fd) < 0)
			return kc_error_set(err, errno, "dup2 the pty onto fd %d", std_fd);
	}
	if (slave_fd > 2)
		close(slave_fd);
	else if (fcntl(slave_fd, F_SETFD, 0) < 0)
		return kc_error_set(err, errno, "clear close-on-exec on the pty");
	return 0;
}

int kc_terminal_setup(int root_fd, const struct oci_process *p, const char *console_socket,
		      int *master, int *slave, kc_error_t *err)
{
	int pts = -1;

	if (kc_terminal_open_ptmx(root_fd, "dev/pts/ptmx", master, err) < 0 ||
	    kc_terminal_create_pty(*master, p->has_console_size ? p->console_size.height : 0,
				   p->has_console_size ? p->console_size.width : 0, slave, &pts,
				   err) < 0)
		return -1;
	if (console_socket) {
		if (kc_terminal_send_master(console_socket, *master, pts, err) < 0)
			return -1;
		close(*master);
		*master = -1;
	}
	return 0;
}
