// SPDX-License-Identifier: GPL-2.0-or-later
/* sd_notify relayed from a container (notify_socket.h). */
#include "notify_socket.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "cleanup.h"
#include "log.h"
#include "state.h"

#define NOTIFY_ENV "NOTIFY_SOCKET"
/* sd_notify_barrier(3): how long systemd gets to close the pipe */
#define BARRIER_TIMEOUT_MS 30000

const char *kc_notify_host_socket(void)
{
	const char *host = getenv(NOTIFY_ENV);

	return host && *host ? host : NULL;
}

static int append_string(char ***strv, size_t *len, const char *value)
{
	char **grown = realloc(*strv, (*len + 1) * sizeof(*grown));

	if (grown == NULL)
		return -1;
	*strv = grown;
	grown[*len] = strdup(value);
	if (grown[*len] == NULL)
		return -1;
	(*len)++;
	return 0;
}

/* NOTIFY_SOCKET=... in process.env, replacing one the config has. */
static int set_env(struct oci_process *process)
{
	const char *entry = NOTIFY_ENV "=" KC_NOTIFY_IN_CONTAINER "/" KC_NOTIFY_SOCKET_FILE;
	size_t i;

	for (i = 0; i < process->env_len; i++) {
		if (strncmp(process->env[i], NOTIFY_ENV "=", strlen(NOTIFY_ENV "=")) == 0) {
			char *copy = strdup(entry);

			if (copy == NULL)
				return -1;
			free(process->env[i]);
			process->env[i] = copy;
			return 0;
		}
	}
	return append_string(&process->env, &process->env_len, entry);
}

static int add_mount(struct oci_spec *spec, const char *source)
{
	static const char *const options[] = {"bind", "nosuid", "noexec", "nodev", "ro"};
	struct oci_mount *grown = realloc(spec->mounts, (spec->mounts_len + 1) * sizeof(*grown));
	struct oci_mount *m;
	size_t i;

	if (grown == NULL)
		return -1;
	spec->mounts = grown;
	m = &grown[spec->mounts_len];
	memset(m, 0, sizeof(*m));
	spec->mounts_len++;
	m->destination = strdup(KC_NOTIFY_IN_CONTAINER);
	m->type = strdup("bind");
	m->source = strdup(source);
	if (m->destination == NULL || m->type == NULL || m->source == NULL)
		return -1;
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (append_string(&m->options, &m->options_len, options[i]) < 0)
			return -1;
	return 0;
}

int kc_notify_prepare(struct oci_spec *spec, const char *state_dir, kc_error_t *err)
{
	cleanup_free char *dir = NULL;

	if (kc_notify_host_socket() == NULL || spec->process == NULL)
		return 0;
	if (asprintf(&dir, "%s/%s", state_dir, KC_NOTIFY_DIR) < 0)
		return kc_error_set(err, ENOMEM, "notify socket");
	if (mkdir(dir, 0755) < 0 || chmod(dir, 0755) < 0)
		return kc_error_set(err, errno, "NOTIFY_SOCKET: mkdir %s", dir);
	if (add_mount(spec, dir) < 0 || set_env(spec->process) < 0)
		return kc_error_set(err, ENOMEM, "NOTIFY_SOCKET");
	return 0;
}

int kc_notify_listen(const char *state_dir, int *fd, kc_error_t *err)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	cleanup_close int dir_fd = -1;
	cleanup_free char *dir = NULL;
	int sock;

	*fd = -1;
	if (kc_notify_host_socket() == NULL)
		return 0;
	if (asprintf(&dir, "%s/%s", state_dir, KC_NOTIFY_DIR) < 0)
		return kc_error_set(err, ENOMEM, "notify socket");
	dir_fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir_fd < 0) {
		if (errno == ENOENT)
			return 0; /* created without $NOTIFY_SOCKET: nothing to relay */
		return kc_error_set(err, errno, "NOTIFY_SOCKET: open %s", dir);
	}
	/* through the fd: a long --root does not overflow sun_path */
	snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d/%s", dir_fd,
		 KC_NOTIFY_SOCKET_FILE);
	if (unlinkat(dir_fd, KC_NOTIFY_SOCKET_FILE, 0) < 0 && errno != ENOENT)
		return kc_error_set(err, errno, "NOTIFY_SOCKET: remove %s/%s", dir, KC_NOTIFY_SOCKET_FILE);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return kc_error_set(err, errno, "NOTIFY_SOCKET: socket");
	if (bind(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    fchmodat(dir_fd, KC_NOTIFY_SOCKET_FILE, 0777, 0) < 0) {
		kc_error_set(err, errno, "NOTIFY_SOCKET: bind %s/%s", dir, KC_NOTIFY_SOCKET_FILE);
		close(sock);
		return -1;
	}
	*fd = sock;
	return 0;
}

static bool has_ready(const char *msg)
{
	const char *line = msg;

	while (line && *line) {
		if (strncmp(line, "READY=", strlen("READY=")) == 0)
			return true;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

static int connect_host(const char *host, kc_error_t *err)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t len = strlen(host);
	socklen_t addr_len;
	int sock;

	if (len >= sizeof(addr.sun_path) || (host[0] != '/' && host[0] != '@'))
		return kc_error_set(err, EINVAL, "NOTIFY_SOCKET=%s: not a socket path", host);
	memcpy(addr.sun_path, host, len);
	if (host[0] == '@')
		addr.sun_path[0] = '\0'; /* abstract, as sd_notify(3) reads it */
	addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return kc_error_set(err, errno, "NOTIFY_SOCKET: socket");
	if (connect(sock, (struct sockaddr *)&addr, addr_len) < 0) {
		kc_error_set(err, errno, "NOTIFY_SOCKET: connect %s", host);
		close(sock);
		return -1;
	}
	return sock;
}

/* BARRIER=1 with a pipe's write end: the manager closes it once it has
 * read what came before. */
static void barrier(int sock)
{
	char control[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec iov = {.iov_base = (char *)"BARRIER=1", .iov_len = strlen("BARRIER=1")};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control)};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	struct pollfd pfd = {.events = POLLIN};
	int ends[2];

	if (pipe2(ends, O_CLOEXEC) < 0)
		return;
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &ends[1], sizeof(int));
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) < 0)
		kc_log_debug("NOTIFY_SOCKET: BARRIER=1: %s", strerror(errno));
	close(ends[1]);
	pfd.fd = ends[0];
	if (poll(&pfd, 1, BARRIER_TIMEOUT_MS) == 0)
		kc_log_warn("NOTIFY_SOCKET: no answer to BARRIER=1 in %d s", BARRIER_TIMEOUT_MS / 1000);
	close(ends[0]);
}

/* A pidfd of init, or -1 when init is gone already: start_time (0: init
 * is the caller's child, no pid reuse possible) is checked once the pidfd
 * pins the process, so a recycled pid is never waited on. */
static int open_init(pid_t pid, unsigned long long start_time)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0U);
	bool zombie = false;

	if (pidfd < 0)
		return -1;
	if (start_time && kc_proc_start_time(pid, &zombie) != start_time) {
		close(pidfd);
		return -1;
	}
	return pidfd;
}

int kc_notify_relay(int fd, pid_t init_pid, unsigned long long start_time, kc_error_t *err)
{
	char msg[4097], ready[64];
	int host, pidfd, rc = 0;

	if (fd < 0)
		return 0;
	pidfd = open_init(init_pid, start_time);
	/* the socket first: a READY sent just before init exits still counts */
	for (;;) {
		struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN}, {.fd = pidfd, .events = POLLIN}};
		ssize_t n = recv(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT);

		if (n > 0) {
			msg[n] = '\0';
			if (has_ready(msg))
				break;
			continue;
		}
		if (pidfd < 0)
			goto out; /* init gone: nothing will be ready */
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			rc = kc_error_set(err, errno, "NOTIFY_SOCKET: poll");
			goto out;
		}
		if ((pfd[1].revents & (POLLIN | POLLHUP)) && !(pfd[0].revents & POLLIN)) {
			close(pidfd);
			pidfd = -1; /* one more look at the socket, then out */
		}
	}
	host = connect_host(kc_notify_host_socket(), err);
	if (host < 0) {
		rc = -1;
		goto out;
	}
	/* only READY=1, and MAINPID from kcrun: the container names no pid */
	snprintf(ready, sizeof(ready), "READY=1\nMAINPID=%d", (int)init_pid);
	if (send(host, ready, strlen(ready), MSG_NOSIGNAL) < 0)
		rc = kc_error_set(err, errno, "NOTIFY_SOCKET: send to %s", kc_notify_host_socket());
	else
		barrier(host);
	close(host);
out:
	if (pidfd >= 0)
		close(pidfd);
	close(fd);
	return rc;
}
