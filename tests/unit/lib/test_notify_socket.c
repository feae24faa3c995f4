/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of notify_socket.c: the mount and NOTIFY_SOCKET a container
 * gets, and the relay: READY from the container becomes READY=1 and
 * MAINPID=<init> (never the container's own words) with a BARRIER=1, and
 * a container whose init died relays nothing. */
#include "tap.h"
#include "src/lib/notify_socket.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int bound_socket(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (strlen(path) >= sizeof(addr.sun_path)) {
		close(fd);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_to(const char *path, const char *text)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ssize_t n;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		close(fd);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	n = sendto(fd, text, strlen(text), 0, (struct sockaddr *)&addr, sizeof(addr));
	close(fd);
	return n < 0 ? -1 : 0;
}

static void test_prepare(const char *dir)
{
	char *env[] = {strdup("PATH=/bin"), strdup("NOTIFY_SOCKET=/host/path")};
	struct oci_process process = {.env = malloc(sizeof(env)), .env_len = 2};
	struct oci_spec spec = {.process = &process};
	kc_error_t err = NULL;
	char path[512];
	struct stat st;

	memcpy(process.env, env, sizeof(env));
	unsetenv("NOTIFY_SOCKET");
	TAP_CALL_OK(kc_notify_prepare(&spec, dir, &err), err, "notify: nothing without $NOTIFY_SOCKET");
	TAP_OK(spec.mounts_len == 0, "notify: no mount without $NOTIFY_SOCKET");
	setenv("NOTIFY_SOCKET", "/run/systemd/notify", 1);
	TAP_CALL_OK(kc_notify_prepare(&spec, dir, &err), err, "notify: prepared");
	snprintf(path, sizeof(path), "%s/notify", dir);
	TAP_OK(stat(path, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0755,
	       "notify: <state>/notify made, mode 0755");
	TAP_OK(spec.mounts_len == 1 && strcmp(spec.mounts[0].destination, "/run/notify") == 0 &&
	       strcmp(spec.mounts[0].source, path) == 0 && spec.mounts[0].options_len == 5 &&
	       strcmp(spec.mounts[0].options[4], "ro") == 0,
	       "notify: the directory is bound read-only at /run/notify");
	TAP_OK(process.env_len == 2 && strcmp(process.env[1], "NOTIFY_SOCKET=/run/notify/notify.sock") == 0,
	       "notify: the config's NOTIFY_SOCKET replaced by the container's (%s)", process.env[1]);
	if (spec.mounts_len)
		oci_mount_free(&spec.mounts[0]);
	free(spec.mounts);
	oci_strv_free(process.env, process.env_len);
}

static void test_relay(const char *dir)
{
	char host_path[512], inner_path[512], buf[256], control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf) - 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			     .msg_controllen = sizeof(control)};
	kc_error_t err = NULL;
	int host, fd, status = -1, passed_fd = -1;
	struct cmsghdr *cmsg;
	pid_t relay, zombie;
	ssize_t n;

	snprintf(host_path, sizeof(host_path), "%s/host.sock", dir);
	snprintf(inner_path, sizeof(inner_path), "%s/notify/notify.sock", dir);
	host = bound_socket(host_path);
	TAP_OK(host >= 0, "notify: a host socket stands in for systemd's");
	setenv("NOTIFY_SOCKET", host_path, 1);
	TAP_CALL_OK(kc_notify_listen(dir, &fd, &err), err, "notify: listening");
	TAP_OK(fd >= 0, "notify: a socket bound");
	TAP_OK(send_to(inner_path, "STATUS=starting") == 0 &&
	       send_to(inner_path, "STATUS=up\nREADY=1\nMAINPID=1") == 0,
	       "notify: the container sends STATUS, then READY with a MAINPID of its own");
	relay = fork();
	if (relay == 0)
		_exit(kc_notify_relay(fd, getppid(), 0, &err) < 0 ? 1 : 0);
	close(fd);
	n = recv(host, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	snprintf(inner_path, sizeof(inner_path), "READY=1\nMAINPID=%d", (int)getpid());
	if (strcmp(buf, inner_path) != 0)
		printf("# got: %s\n", strchr(buf, '\n') ? "(two lines, not these)" : buf);
	TAP_OK(strcmp(buf, inner_path) == 0, "notify: systemd gets READY=1 and kcrun's MAINPID");
	n = recvmsg(host, &msg, 0);
	buf[n > 0 ? n : 0] = '\0';
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_type == SCM_RIGHTS)
		memcpy(&passed_fd, CMSG_DATA(cmsg), sizeof(int));
	TAP_OK(strcmp(buf, "BARRIER=1") == 0 && passed_fd >= 0, "notify: then BARRIER=1 with a pipe");
	if (passed_fd >= 0)
		close(passed_fd);
	waitpid(relay, &status, 0);
	TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "notify: the relay ends once answered");

	/* init dead before READY: nothing reaches systemd */
	TAP_CALL_OK(kc_notify_listen(dir, &fd, &err), err, "notify: listening again (stale socket replaced)");
	zombie = fork();
	if (zombie == 0)
		_exit(0);
	waitid(P_PID, (id_t)zombie, NULL, WEXITED | WNOWAIT);
	TAP_CALL_OK(kc_notify_relay(fd, zombie, 0, &err), err, "notify: a dead init relays nothing");
	TAP_OK(recv(host, buf, sizeof(buf), MSG_DONTWAIT) < 0 && errno == EAGAIN,
	       "notify: systemd got nothing");
	waitpid(zombie, &status, 0);
	unsetenv("NOTIFY_SOCKET");
	TAP_CALL_OK(kc_notify_listen(dir, &fd, &err), err, "notify: without $NOTIFY_SOCKET");
	TAP_OK(fd == -1, "notify: no socket without $NOTIFY_SOCKET");
	close(host);
}

void test_notify_socket(void)
{
	char dir[] = "/tmp/kcrun-notify.XXXXXX", cmd[128];

	if (!mkdtemp(dir)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	test_prepare(dir);
	test_relay(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}
