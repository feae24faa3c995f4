/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One request of `kcrun keys serve`, answered in a short-lived worker: read
 * it through its authorisation key, find the payload (--static, or the
 * --handler's stdout), then assume the authority only to instantiate or
 * reject, as /sbin/request-key would.
 *
 * The authority is assumed last and only here: while it is, this process's
 * own key searches also walk the requester's keyrings.  The handler runs
 * before, in a session keyring of its own (so it cannot reach the service
 * keyrings and the other requests' authorisation keys), with an argv and
 * a fixed environment; what it gets from the container is data. */
#include "keys_serve.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

/* A rejected request's negative key lasts this long in the requester's
 * keyring (the kernel's own rejections use 1 s too). */
#define REJECT_TIMEOUT 1

void kc_key_request_release(struct kc_key_request *r)
{
	free(r->target_raw);
	free(r->auth_raw);
	free(r->callout);
	memset(r, 0, sizeof(*r));
}

int kc_key_request_load(kc_key_serial_t authkey, struct kc_key_request *r, kc_error_t *err)
{
	struct kc_key_info auth;
	unsigned long target;
	char *end;

	memset(r, 0, sizeof(*r));
	r->authkey = authkey;
	if (kc_keys_describe(authkey, &r->auth_raw, &auth, err) < 0)
		return -1;
	/* ".request_key_auth;UID;GID;PERM;TARGET" (hex), owned by the
	 * requester's fsuid/fsgid */
	errno = 0;
	target = strtoul(auth.description, &end, 16);
	if (strcmp(auth.type, ".request_key_auth") != 0 || errno || *end != '\0' ||
	    end == auth.description || target == 0 || target > INT32_MAX) {
		kc_error_set(err, 0, "key %" PRId32 " is not an authorisation key", authkey);
		goto err;
	}
	r->target = (kc_key_serial_t)target;
	r->uid = auth.uid;
	r->gid = auth.gid;
	/* viewable through the authorisation key we possess */
	if (kc_keys_describe(r->target, &r->target_raw, &r->key, err) < 0)
		goto err;
	if (kc_keys_read(authkey, &r->callout, &r->callout_len, err) < 0)
		goto err;
	return 0;
err:
	kc_key_request_release(r);
	return -1;
}

const struct kc_keys_static *kc_keys_static_find(const struct kc_keys_serve_opts *o,
						 const char *description)
{
	size_t i;

	for (i = 0; i < o->n_statics; i++)
		if (strcmp(o->statics[i].description, description) == 0)
			return &o->statics[i];
	return NULL;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The handler's child: its own session keyring, stdio on the pipes, every
 * other fd closed, default signals. */
static _Noreturn void exec_handler(const struct kc_keys_serve_opts *o,
				   const struct kc_key_request *r, int in_fd, int out_fd)
{
	char uid[16], gid[16];
	char *argv[] = {(char *)o->handler, (char *)r->key.type, (char *)r->key.description, uid,
			gid, (char *)o->id, NULL};
	char *envp[] = {(char *)"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			NULL};
	sigset_t none;

	snprintf(uid, sizeof(uid), "%u", r->uid);
	snprintf(gid, sizeof(gid), "%u", r->gid);
	if (kc_keyctl(KC_KEYCTL_JOIN_SESSION, 0, 0, 0, 0) < 0)
		_exit(126);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0)
		_exit(126);
	/* nothing of kcrun's beyond stdio, whatever its caller left open */
	syscall(SYS_close_range, 3, ~0U, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execve(o->handler, argv, envp);
	_exit(127);
}

/* Runs the handler with the callout on stdin; its stdout (at most
 * KC_KEYS_SERVE_MAX_PAYLOAD bytes) in *payload when it exits 0 within the
 * timeout.  Returns 0, or -1 with *why set. */
static int run_handler(const struct kc_keys_serve_opts *o, const struct kc_key_request *r,
		       char **payload, size_t *len, const char **why)
{
	int in[2], out[2], status;
	size_t written = 0, cap = 4096, n = 0;
	long long deadline = now_ms() + (long long)o->timeout * 1000;
	char *buf = malloc(cap);
	bool too_big = false, timed_out = false;
	pid_t pid;

	*why = "handler failed";
	if (buf == NULL)
		return -1;
	if (pipe2(in, O_CLOEXEC) < 0) {
		free(buf);
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		free(buf);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		exec_handler(o, r, in[0], out[1]);
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		free(buf);
		return -1;
	}
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	if (r->callout_len == 0) {
		close(in[1]);
		in[1] = -1;
	}
	for (;;) {
		struct pollfd p[2] = {{.fd = out[0], .events = POLLIN}, {.fd = in[1], .events = POLLOUT}};
		long long left = deadline - now_ms();
		ssize_t got;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (poll(p, in[1] >= 0 ? 2 : 1, (int)(left > 60000 ? 60000 : left)) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (in[1] >= 0 && p[1].revents) {
			got = write(in[1], r->callout + written, r->callout_len - written);
			if (got > 0)
				written += (size_t)got;
			if (got < 0 && errno != EAGAIN && errno != EINTR)
				written = r->callout_len; /* the handler does not read it */
			if (written == r->callout_len) {
				close(in[1]);
				in[1] = -1;
			}
		}
		if (!p[0].revents)
			continue;
		if (n == cap) {
			char *bigger;

			if (cap > KC_KEYS_SERVE_MAX_PAYLOAD) {
				too_big = true;
				break;
			}
			bigger = realloc(buf, cap * 2);
			if (bigger == NULL)
				break;
			buf = bigger;
			cap *= 2;
		}
		got = read(out[0], buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break; /* end of its output */
		n += (size_t)got;
	}
	if (in[1] >= 0)
		close(in[1]);
	close(out[0]);
	if (timed_out || too_big)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out || too_big || n > KC_KEYS_SERVE_MAX_PAYLOAD) {
		*why = timed_out ? "handler timed out" : "handler payload too large";
		free(buf);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		*why = WIFEXITED(status) ? "handler exited non-zero" : "handler killed";
		free(buf);
		return -1;
	}
	*payload = buf;
	*len = n;
	return 0;
}

static void log_request(const struct kc_keys_serve_opts *o, const struct kc_key_request *r,
			const char *outcome, const char *why)
{
	char desc[256], callout[256], line[1024];
	int n;

	kc_keys_escape(r->key.description, strlen(r->key.description), desc, sizeof(desc));
	kc_keys_escape(r->callout ? r->callout : "", r->callout_len, callout, sizeof(callout));
	n = snprintf(line, sizeof(line),
		     "keys serve %s: key %" PRId32 " %s \"%s\" callout \"%s\" uid %u gid %u: %s%s%s\n",
		     o->id, r->target, r->key.type, desc, callout, r->uid, r->gid, outcome,
		     why ? ": " : "", why ? why : "");
	if (n > (int)sizeof(line) - 1) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	/* one write: lines of concurrent workers do not interleave */
	if (o->log_fd >= 0 && write(o->log_fd, line, (size_t)n) < 0)
		return;
}

/* dns_resolver takes its text with the terminating NUL (as key.dns_resolver
 * gives it: dns_resolver_preparse refuses anything else); --static and
 * handlers write plain text, so the NUL is added here. */
static int terminate_text(const char *type, char **payload, size_t *len, const char *static_value,
			  size_t static_len)
{
	const char *data = static_value ? static_value : *payload;
	size_t n = static_value ? static_len : *len;
	char *copy;

	if (strcmp(type, "dns_resolver") != 0 || (n > 0 && data[n - 1] == '\0'))
		return 0;
	copy = malloc(n + 1);
	if (copy == NULL)
		return -1;
	memcpy(copy, data, n);
	copy[n] = '\0';
	free(*payload);
	*payload = copy;
	*len = n + 1;
	return 1;
}

enum kc_key_answer kc_key_answer(kc_key_serial_t authkey, bool deny,
				 const struct kc_keys_serve_opts *o)
{
	struct kc_key_request r;
	const struct kc_keys_static *s = NULL;
	const char *why = NULL;
	char *payload = NULL;
	size_t len = 0;
	kc_error_t err = NULL;
	enum kc_key_answer ret;
	bool answer = false;

	if (kc_key_request_load(authkey, &r, &err) < 0) {
		/* gone meanwhile (the requester's key was revoked, the intercept
		 * removed): nothing to answer */
		if (o->log_fd >= 0)
			dprintf(o->log_fd, "keys serve %s: authorisation key %" PRId32 ": %s\n", o->id,
				authkey, err->msg);
		kc_error_free(&err);
		return KC_KEY_GONE;
	}
	if (deny) {
		why = "type not served";
	} else if ((s = kc_keys_static_find(o, r.key.description)) != NULL) {
		answer = true;
	} else if (o->handler) {
		answer = run_handler(o, &r, &payload, &len, &why) == 0;
	} else {
		why = "unknown description";
	}

	if (answer) {
		int t = terminate_text(r.key.type, &payload, &len, s ? s->value : NULL,
				       s ? s->value_len : 0);

		if (t < 0) {
			answer = false;
			why = "out of memory";
		} else if (t > 0) {
			s = NULL; /* the terminated copy is in payload */
		}
	}
	if (kc_keyctl(KC_KEYCTL_ASSUME_AUTHORITY, (unsigned long)r.target, 0, 0, 0) < 0) {
		log_request(o, &r, "failed", "assume authority");
		ret = KC_KEY_FAILED;
		goto out;
	}
	if (answer && kc_keyctl(KC_KEYCTL_INSTANTIATE, (unsigned long)r.target,
				(unsigned long)(s ? s->value : payload), s ? s->value_len : len,
				(unsigned long)(long)KC_KEY_SPEC_REQUESTOR_KEYRING) == 0) {
		log_request(o, &r, "served", NULL);
		ret = KC_KEY_SERVED;
	} else {
		char reason[128];

		if (answer) {
			/* the type refused the payload (dns_resolver's syntax, ...) */
			snprintf(reason, sizeof(reason), "instantiate: %s", strerror(errno));
			why = reason;
		}
		if (kc_keyctl(KC_KEYCTL_REJECT, (unsigned long)r.target, REJECT_TIMEOUT, EKEYREJECTED,
			      (unsigned long)(long)KC_KEY_SPEC_REQUESTOR_KEYRING) == 0) {
			log_request(o, &r, "rejected", why);
			ret = KC_KEY_REJECTED;
		} else {
			log_request(o, &r, "failed", "reject");
			ret = KC_KEY_FAILED;
		}
	}
	kc_keyctl(KC_KEYCTL_ASSUME_AUTHORITY, 0, 0, 0, 0);
out:
	free(payload);
	kc_key_request_release(&r);
	return ret;
}
