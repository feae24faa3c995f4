/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process.terminal and --console-socket.
 *
 * Parent, before fork (kcrun create / exec with process.terminal = true):
 *   1. open the ptmx of the devpts instance the container will see: with a
 *      new devpts instance mounted at the container's /dev/pts
 *      (newinstance,ptmxmode=0666) that is `dev/pts/ptmx` opened through
 *      the container fd as dirfd (kc_terminal_open_ptmx(cfd, "dev/pts/ptmx"))
 *      -- not the host's /dev/ptmx, whose slaves the container cannot see;
 *   2. kc_terminal_create_pty(): the ptmx fd becomes the master, the slave
 *      is opened with TIOCGPTPEER (no path lookup) and process.consoleSize
 *      applied;
 *   3. kc_terminal_send_master(): hands the master to --console-socket
 *      (podman-contract.md) and the parent closes its copy of the master;
 *   4. the slave fd is kept open across clone3(CLONE_INTO_CONTAINER) for init.
 * Init, after fork (before exec):
 *   kc_terminal_setup_slave(): setsid, TIOCSCTTY, dup2 onto 0/1/2.
 */
#ifndef KCRUN_TERMINAL_H
#define KCRUN_TERMINAL_H

#include "error.h"
#include "oci-spec/spec.h"

/* Opens a ptmx node (O_RDWR|O_NOCTTY|O_CLOEXEC) relative to dirfd (a
 * container fd or AT_FDCWD).  Every open of a ptmx makes a new pty pair;
 * the fd returned in *ptmx_fd is its master. */
int kc_terminal_open_ptmx(int dirfd, const char *path, int *ptmx_fd, kc_error_t *err);

/* Unlocks the pty whose master is ptmx_fd, applies the window size when
 * rows and cols are both non-zero (process.consoleSize.height/width) and
 * opens the slave (O_RDWR|O_NOCTTY|O_CLOEXEC) into *slave_fd.
 * pts_number (may be NULL) receives N of /dev/pts/N. */
int kc_terminal_create_pty(int ptmx_fd, unsigned int rows, unsigned int cols,
			   int *slave_fd, int *pts_number, kc_error_t *err);

/* Connects to the --console-socket path (AF_UNIX, SOCK_STREAM) and sends
 * the pty master (fd_passing.h); the data is "/dev/pts/N". */
int kc_terminal_send_master(const char *console_socket, int master_fd, int pts_number,
			    kc_error_t *err);

/* Steps 1 to 3 for create and exec alike: the pty of the devpts at
 * root_fd's dev/pts (root_fd: the container fd, or init's /proc/PID/root),
 * sized as process.consoleSize, into *master and *slave; with
 * console_socket the master is sent there and *master is -1 on return.
 * On failure the caller closes what *master and *slave hold (>= 0). */
int kc_terminal_setup(int root_fd, const struct oci_process *p, const char *console_socket,
		      int *master, int *slave, kc_error_t *err);

/* Init side: makes slave_fd the controlling terminal of a new session and
 * stdin/stdout/stderr of the process; closes slave_fd when it is above 2. */
int kc_terminal_setup_slave(int slave_fd, kc_error_t *err);

#endif
