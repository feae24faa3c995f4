/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "seccomp_notify.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd_passing.h"
#include "init.h"

int kc_seccomp_notify_open(int ends[2], kc_error_t *err)
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) < 0)
		return kc_error_set(err, errno, "seccomp notify: socketpair");
	return 0;
}

int kc_seccomp_notify_hand_over(scmp_filter_ctx ctx, int end, kc_error_t *err)
{
	int listener = kc_seccomp_listener_fd(ctx, err);
	int ret;

	if (listener < 0)
		return -1;
	ret = kc_send_fd(end, listener, "seccompFd", err);
	close(listener);
	close(end);
	return ret;
}

static int forward(int end, const struct oci_seccomp *seccomp, const struct oci_state *state,
		   pid_t pid, kc_error_t *err)
{
	static const char *const fds[] = { "seccompFd" };
	cleanup_close int listener = -1;
	cleanup_close int agent = -1;
	cleanup_free char *message = NULL;

	if (kc_recv_fd(end, &listener, err) < 0)
		return kc_error_wrap(err, "seccomp notify: the listener from the process");
	if (oci_process_state_to_json(state, (int)pid, fds, 1, seccomp->listener_metadata,
				      &message) < 0)
		return kc_error_set(err, errno, "seccomp notify: the container process state");
	agent = kc_unix_connect(seccomp->listener_path, "linux.seccomp.listenerPath", err);
	if (agent < 0 || kc_send_fd(agent, listener, message, err) < 0)
		return -1;
	return 0;
}

int kc_seccomp_notify_forward(int end, const struct oci_seccomp *seccomp,
			      const struct oci_state *state, pid_t pid, int report_fd,
			      kc_error_t *err)
{
	if (forward(end, seccomp, state, pid, err) == 0)
		return 0;
	/* the process failed before it sent one: its own error says more */
	kc_init_prefer_report(report_fd, err);
	return -1;
}
