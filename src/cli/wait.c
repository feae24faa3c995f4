/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Waiting for a container process in the foreground (run, exec):
 * signals forwarded, terminal relayed, exit status as the shell gives it. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

static volatile pid_t forward_pid;

static void forward_signal(int sig)
{
	if (forward_pid > 0)
		kill(forward_pid, sig);
}

void kc_cli_forward_signals(pid_t pid)
{
	struct sigaction sa;
	int sig;

	forward_pid = pid;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sa.sa_flags = SA_RESTART;
	for (sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGCHLD || sig == SIGSEGV ||
		    sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGTTIN ||
		    sig == SIGTTOU || sig == SIGTSTP || sig == SIGPIPE)
			continue;
		sigaction(sig, &sa, NULL);
	}
}

/* process.terminal without --console-socket: copy between our stdio and
 * the pty master until the process exits. */
static void proxy_terminal(int master, pid_t pid)
{
	struct termios saved, raw;
	bool is_tty = tcgetattr(0, &saved) == 0;
	bool stdin_open = true;
	char buf[4096];

	if (is_tty) {
		raw = saved;
		cfmakeraw(&raw);
		tcsetattr(0, TCSANOW, &raw);
	}
	for (;;) {
		struct pollfd pfds[2] = {{.fd = master, .events = POLLIN},
					 {.fd = stdin_open ? 0 : -1, .events = POLLIN}};
		ssize_t n;

		if (poll(pfds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(master, buf, sizeof(buf));
			if (n <= 0)
				break;
			if (write(1, buf, (size_t)n) < 0)
				break;
		}
		if (pfds[1].revents & (POLLIN | POLLHUP)) {
			n = read(0, buf, sizeof(buf));
			if (n <= 0)
				stdin_open = false;
			else if (write(master, buf, (size_t)n) < 0)
				break;
		}
	}
	if (is_tty)
		tcsetattr(0, TCSANOW, &saved);
	(void)pid;
}

int kc_cli_wait_process(pid_t pid, int pty_master)
{
	int status = 0;
	pid_t w;

	forward_pid = pid;
	if (pty_master >= 0) {
		proxy_terminal(pty_master, pid);
		close(pty_master);
	}
	for (;;) {
		w = waitpid(-1, &status, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || w == pid)
			break;
	}
	forward_pid = 0;
	if (w < 0)
		return 255;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}
