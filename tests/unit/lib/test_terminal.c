/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of terminal.c: a pty from the host's /dev/ptmx, its master
 * sent over a socketpair and over a listening console socket, and init's
 * side in a forked child. */
#include "tap.h"
#include "src/lib/fd_passing.h"
#include "src/lib/terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* The host's devpts ptmx, through the same call create and exec use (a
 * path resolved inside a root directory fd). */
static int open_host_ptmx(int *master_fd, kc_error_t *err)
{
	int root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int ret = kc_terminal_open_ptmx(root_fd, "dev/pts/ptmx", master_fd, err);

	close(root_fd);
	return ret;
}

/* A container's dev/pts/ptmx is the image author's: only the ptmx device
 * of a devpts is opened. */
static void test_ptmx_must_be_devpts_ptmx(void)
{
	int root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), fd = -1;
	kc_error_t err = NULL;

	TAP_CALL_FAILS(kc_terminal_open_ptmx(root_fd, "dev/null", &fd, &err), err,
		       "not the ptmx device", "terminal: another device is not opened as ptmx");
	if (access("/dev/ptmx", F_OK) == 0)
		TAP_CALL_FAILS(kc_terminal_open_ptmx(root_fd, "dev/ptmx", &fd, &err), err,
			       "not on a devpts", "terminal: a ptmx node outside devpts is refused");
	TAP_CALL_FAILS(kc_terminal_open_ptmx(root_fd, "etc/hostname", &fd, &err), err,
		       "not the ptmx device", "terminal: a regular file is not opened as ptmx");
	close(root_fd);
}

static void test_pty_and_socketpair(void)
{
	kc_error_t err = NULL;
	int master_fd = -1, slave_fd = -1, received_fd = -1, pts_number = -1;
	int socks[2];
	struct winsize size = { 0 };
	struct stat master_st, received_st;

	TAP_CALL_OK(open_host_ptmx(&master_fd, &err), err,
		    "terminal: open /dev/pts/ptmx");
	if (master_fd < 0)
		return;
	TAP_CALL_OK(kc_terminal_create_pty(master_fd, 25, 81, &slave_fd, &pts_number, &err), err,
		    "terminal: create pty with consoleSize");
	TAP_OK(slave_fd >= 0 && isatty(slave_fd) && pts_number >= 0, "terminal: slave is a tty");
	TAP_OK(ioctl(slave_fd, TIOCGWINSZ, &size) == 0 && size.ws_row == 25 && size.ws_col == 81,
	       "terminal: consoleSize applied (rows %u cols %u)", size.ws_row, size.ws_col);
	TAP_OK((fcntl(slave_fd, F_GETFD) & FD_CLOEXEC) != 0, "terminal: slave is close-on-exec");

	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socks);
	TAP_CALL_OK(kc_send_fd(socks[0], master_fd, "/dev/pts/0", &err), err,
		    "terminal: send fd over a socketpair");
	TAP_CALL_OK(kc_recv_fd(socks[1], &received_fd, &err), err,
		    "terminal: receive the fd");
	fstat(master_fd, &master_st);
	fstat(received_fd, &received_st);
	TAP_OK(received_fd >= 0 && master_st.st_ino == received_st.st_ino &&
	       master_st.st_rdev == received_st.st_rdev, "terminal: received fd is the master");

	/* Data written on the slave comes out of the received master. */
	{
		char buf[16] = "";
		ssize_t n;

		write(slave_fd, "ping\n", 5);
		n = read(received_fd, buf, sizeof(buf) - 1);
		TAP_OK(n > 0 && strncmp(buf, "ping", 4) == 0, "terminal: master reads what the slave wrote");
	}
	close(socks[0]);
	close(socks[1]);
	close(received_fd);
	close(slave_fd);
	close(master_fd);
}

/* What conmon does: listen, accept, one recvmsg; check the message shape. */
static void test_console_socket(void)
{
	kc_error_t err = NULL;
	char dir[] = "/tmp/kcrun-term-XXXXXX", path[128];
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int listen_fd, conn_fd, master_fd = -1, slave_fd = -1, pts_number = -1;
	pid_t child;
	int status;

	mkdtemp(dir);
	snprintf(path, sizeof(path), "%s/console.sock", dir);
	strcpy(addr.sun_path, path);
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(listen_fd, (struct sockaddr *)&addr, sizeof(addr));
	listen(listen_fd, 1);

	open_host_ptmx(&master_fd, &err);
	kc_terminal_create_pty(master_fd, 0, 0, &slave_fd, &pts_number, &err);
	kc_error_free(&err);

	child = fork();
	if (child == 0) {
		kc_error_t child_err = NULL;

		_exit(kc_terminal_send_master(path, master_fd, pts_number, &child_err) < 0 ? 1 : 0);
	}
	conn_fd = accept(listen_fd, NULL, NULL);
	{
		union {
			char buf[CMSG_SPACE(sizeof(int)) * 2];
			struct cmsghdr align;
		} control;
		char data[64] = "", expected[32];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) - 1 };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
		};
		ssize_t n = recvmsg(conn_fd, &msg, 0);
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
		int fd_count = 0, fd = -1;

		for (; cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			if (cmsg->cmsg_type == SCM_RIGHTS) {
				fd_count += (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
				TAP_OK(cmsg->cmsg_len == CMSG_LEN(sizeof(int)),
				       "terminal: cmsg_len == CMSG_LEN(sizeof(int))");
				memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
			}
		}
		snprintf(expected, sizeof(expected), "/dev/pts/%d", pts_number);
		TAP_OK(n >= 1 && strcmp(data, expected) == 0,
		       "terminal: console socket data is `%s`", data);
		TAP_OK(fd_count == 1 && fd >= 0 && isatty(fd), "terminal: exactly one fd, a tty");
		if (fd >= 0)
			close(fd);
	}
	waitpid(child, &status, 0);
	TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "terminal: send_master succeeded");
	TAP_CALL_FAILS(kc_terminal_send_master("/nonexistent/console.sock", master_fd, 0, &err), err,
		       "connect to console socket `/nonexistent/console.sock`",
		       "terminal: missing console socket is a clear error");
	close(conn_fd);
	close(listen_fd);
	unlink(path);
	rmdir(dir);
	close(slave_fd);
	close(master_fd);
}

static void test_setup_slave(void)
{
	kc_error_t err = NULL;
	int master_fd = -1, slave_fd = -1;
	char buf[128] = "";
	size_t got = 0;
	pid_t child;
	int status;

	open_host_ptmx(&master_fd, &err);
	kc_terminal_create_pty(master_fd, 0, 0, &slave_fd, NULL, &err);
	kc_error_free(&err);
	child = fork();
	if (child == 0) {
		kc_error_t child_err = NULL;

		close(master_fd);
		if (kc_terminal_setup_slave(slave_fd, &child_err) < 0)
			_exit(2);
		/* The pty is our controlling terminal and our stdout. */
		if (tcgetpgrp(0) != getpgrp())
			_exit(3);
		execl("/bin/sh", "sh", "-c", "test -t 0 && test -t 1 && test -t 2 && echo tty-ok", NULL);
		_exit(4);
	}
	close(slave_fd);
	for (;;) {
		struct pollfd pfd = { .fd = master_fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 5000) <= 0)
			break;
		n = read(master_fd, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += n;
	}
	waitpid(child, &status, 0);
	TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && strstr(buf, "tty-ok"),
	       "terminal: setup_slave gives init a controlling tty on 0/1/2 (status %d)", status);
	close(master_fd);
}

void test_terminal(void)
{
	test_ptmx_must_be_devpts_ptmx();
	test_pty_and_socketpair();
	test_console_socket();
	test_setup_slave();
}
