/* kcrun run: create + start + wait, see kcrun(8). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "lib/container.h"
#include "lib/log.h"

static volatile pid_t forward_pid;

static void forward_signal(int sig)
{
	if (forward_pid > 0)
		kill(forward_pid, sig);
}

static void install_forwarding(void)
{
	struct sigaction sa;
	int sig;

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

int kc_cmd_run(struct kc_global *g, int argc, char **argv)
{
	struct kc_create_opts o = {.root = g->root, .run = true};
	bool detach = false, keep = false, no_subreaper = false, no_pivot = false,
	     no_new_keyring = false;
	struct kc_opt opts[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle,
		 "path to the root of the bundle directory, defaults to the current directory"},
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the "
		 "master end of the console's pseudoterminal"},
		{"detach", 'd', KC_OPT_FLAG, &detach, "detach from the container's process"},
		{"keep", 0, KC_OPT_FLAG, &keep, "do not delete the container after it exits"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "specify the file to write the process id to"},
		{"no-subreaper", 0, KC_OPT_FLAG, &no_subreaper,
		 "disable the use of the subreaper used to reap reparented processes"},
		{"no-pivot", 0, KC_OPT_FLAG, &no_pivot, "accepted for compatibility"},
		{"no-new-keyring", 0, KC_OPT_FLAG, &no_new_keyring,
		 "do not create a new session keyring for the container"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds,
		 "Pass N additional file descriptors to the container (stdio + N in total) (default: 0)"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_created created;
	kc_error_t err = NULL;
	int first, status = 0, code;
	pid_t w;

	if (kc_cli_parse("run", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_cli_check_cgroup_manager(g))
		return 1;
	o.id = argv[first];
	o.no_new_keyring = no_new_keyring;
	o.no_cgroup = g->cgroup_manager && strcmp(g->cgroup_manager, "disabled") == 0;
	if (!detach && !no_subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (!detach)
		install_forwarding();
	if (kc_create(&o, &created, &err) < 0)
		return kc_cli_fail(&err);
	close(created.cfd);
	if (detach) {
		if (created.pty_master >= 0)
			close(created.pty_master);
		return 0;
	}
	forward_pid = created.pid;
	if (created.pty_master >= 0) {
		proxy_terminal(created.pty_master, created.pid);
		close(created.pty_master);
	}
	for (;;) {
		w = waitpid(-1, &status, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || w == created.pid)
			break;
	}
	forward_pid = 0;
	if (w < 0)
		code = 255;
	else if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		code = 128 + WTERMSIG(status);
	else
		code = 255;
	if (!keep && kc_delete(g->root, o.id, true, &err) < 0)
		kc_cli_fail(&err);
	return code;
}
