/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kcrun keys serve`: the service's main loop (see keys_serve.h).
 *
 * One notification pipe watches every service keyring (the watch id is the
 * intercept's index); a NOTIFY_KEY_LINKED note names a new authorisation
 * key.  Requests wait in a table bounded by the kernel's own bound (the sum
 * of max_pending), a bounded number of workers answer them, and each is
 * unlinked from its service keyring once its worker is reaped, which frees
 * its place in the kernel's count.  A lost note (the pipe was full) makes
 * the service read every service keyring again.  A worker that outlives
 * the timeout is killed with its handler; unlinking its authorisation key
 * then rejects the request (the kernel's request_key_auth_destroy). */
#include "keys_serve.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* glibc's <fcntl.h> already has what <linux/fcntl.h> would give. */
#define _LINUX_FCNTL_H
#include <linux/watch_queue.h>
#include <linux/keyctl.h>

#include "cleanup.h"

/* Workers at once: each is a process; more would not answer faster on the
 * small machines this runs on, and a flood must not fork-bomb the host. */
#define MAX_WORKERS 16
/* A worker gets the timeout, then this much more to reject before it is
 * killed. */
#define WORKER_GRACE_MS 2000
#define NOTES_IN_PIPE 256

struct intercept {
	const char *type;       /* "*" for every type */
	kc_key_serial_t svc;
	bool deny;
	bool registered;
};

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_RUNNING };

struct request_slot {
	enum slot_state state;
	kc_key_serial_t authkey;
	size_t intercept;
	pid_t worker;
	long long deadline_ms;
	bool killed;
};

struct service {
	const struct kc_keys_serve_opts *o;
	int cfd;
	struct intercept *icpt;
	size_t n_icpt;
	struct request_slot *slots;
	size_t n_slots;
	size_t running;
	unsigned long served, rejected, lost;
};

int kc_keys_static_parse(const char *arg, struct kc_keys_static *s, kc_error_t *err)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg)
		return kc_error_set(err, 0, "--static wants DESCRIPTION=VALUE, not \"%s\"", arg);
	s->description = strndup(arg, (size_t)(eq - arg));
	if (s->description == NULL)
		return kc_error_set(err, ENOMEM, "--static");
	s->value = eq + 1;
	s->value_len = strlen(eq + 1);
	return 0;
}

static bool type_name_ok(const char *t)
{
	size_t len = strlen(t);

	return len > 0 && len < 32 && t[0] != '.' && strcmp(t, "keyring") != 0 &&
	       strpbrk(t, " \t\n;") == NULL;
}

int kc_keys_serve_check(const struct kc_keys_serve_opts *o, kc_error_t *err)
{
	size_t i, j;
	struct stat st;

	for (i = 0; i < o->n_types; i++) {
		const char *t = o->types[i];

		if (strcmp(t, "*") == 0) {
			if (o->n_types > 1)
				return kc_error_set(err, 0, "--type \"*\" takes every type: give it alone");
			if (o->deny_other)
				return kc_error_set(err, 0, "--deny-other with --type \"*\": nothing is left to deny");
			continue;
		}
		if (!type_name_ok(t))
			return kc_error_set(err, 0, "invalid key type \"%s\"", t);
		for (j = 0; j < i; j++)
			if (strcmp(o->types[j], t) == 0)
				return kc_error_set(err, 0, "--type %s given twice", t);
	}
	if (o->n_types == 0 && o->deny_other)
		return kc_error_set(err, 0, "--deny-other needs the types served (--type)");
	if (o->max_pending > KC_KEYS_SERVE_MAX_PENDING)
		return kc_error_set(err, 0, "--max-pending is at most %d", KC_KEYS_SERVE_MAX_PENDING);
	if (o->timeout == 0 || o->timeout > KC_KEYS_SERVE_MAX_TIMEOUT)
		return kc_error_set(err, 0, "--timeout is 1 to %d seconds", KC_KEYS_SERVE_MAX_TIMEOUT);
	if (o->handler) {
		if (o->handler[0] != '/')
			return kc_error_set(err, 0, "--handler %s: an absolute path is needed (no $PATH, no shell)",
					    o->handler);
		if (stat(o->handler, &st) < 0)
			return kc_error_set(err, errno, "--handler %s", o->handler);
		if (!S_ISREG(st.st_mode) || access(o->handler, X_OK) < 0)
			return kc_error_set(err, EACCES, "--handler %s", o->handler);
	}
	for (i = 0; i < o->n_statics; i++)
		if (o->statics[i].value_len > KC_KEYS_SERVE_MAX_PAYLOAD)
			return kc_error_set(err, 0, "--static %s: the value is too long",
					    o->statics[i].description);
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What the kernel counts against max_pending: the links of the service
 * keyrings (requests queued, being answered, answered and not yet
 * unlinked).  Our own table when a keyring cannot be read. */
static size_t pending(const struct service *s)
{
	size_t i, n = 0, mine = 0;

	for (i = 0; i < s->n_icpt; i++) {
		long len = kc_keyctl(KC_KEYCTL_READ, (unsigned long)s->icpt[i].svc, 0, 0, 0);

		if (len < 0)
			goto table;
		n += (size_t)len / sizeof(kc_key_serial_t);
	}
	return n;
table:
	for (i = 0; i < s->n_slots; i++)
		mine += s->slots[i].state != SLOT_FREE;
	return mine;
}

/* A request seen (a note, or a rescan): queued unless already known. */
static void enqueue(struct service *s, size_t icpt, kc_key_serial_t authkey)
{
	size_t i, free_slot = s->n_slots;

	for (i = 0; i < s->n_slots; i++) {
		if (s->slots[i].state != SLOT_FREE && s->slots[i].authkey == authkey)
			return;
		if (s->slots[i].state == SLOT_FREE && free_slot == s->n_slots)
			free_slot = i;
	}
	if (free_slot == s->n_slots) {
		/* more than the kernel lets the keyrings hold: cannot happen
		 * unless a link came from elsewhere; unlinking rejects it */
		kc_keyctl(KC_KEYCTL_UNLINK, (unsigned long)authkey, (unsigned long)s->icpt[icpt].svc,
			  0, 0);
		s->rejected++;
		return;
	}
	s->slots[free_slot] = (struct request_slot){
		.state = SLOT_QUEUED, .authkey = authkey, .intercept = icpt};
}

/* Every link of every service keyring (after a lost note). */
static void rescan(struct service *s)
{
	size_t i, j;

	for (i = 0; i < s->n_icpt; i++) {
		cleanup_free char *data = NULL;
		kc_error_t err = NULL;
		size_t len;

		if (kc_keys_read(s->icpt[i].svc, &data, &len, &err) < 0) {
			kc_error_free(&err);
			continue;
		}
		for (j = 0; j + sizeof(kc_key_serial_t) <= len; j += sizeof(kc_key_serial_t)) {
			kc_key_serial_t k;

			memcpy(&k, data + j, sizeof(k));
			enqueue(s, i, k);
		}
	}
}

static void read_notes(struct service *s, int pipe_fd)
{
	unsigned char buf[4096];
	bool lost = false;
	ssize_t len;

	while ((len = read(pipe_fd, buf, sizeof(buf))) > 0) {
		ssize_t at = 0;

		while (at + (ssize_t)sizeof(struct watch_notification) <= len) {
			struct watch_notification *n = (void *)(buf + at);
			size_t n_len = n->info & WATCH_INFO_LENGTH;
			size_t id = (n->info & WATCH_INFO_ID) >> WATCH_INFO_ID__SHIFT;

			if (n_len < sizeof(*n) || at + (ssize_t)n_len > len)
				break;
			if (n->type == WATCH_TYPE_META && n->subtype == WATCH_META_LOSS_NOTIFICATION) {
				lost = true;
			} else if (n->type == WATCH_TYPE_KEY_NOTIFY && n->subtype == NOTIFY_KEY_LINKED &&
				   n_len >= sizeof(struct key_notification) && id < s->n_icpt) {
				struct key_notification *k = (void *)n;

				if ((kc_key_serial_t)k->key_id == s->icpt[id].svc)
					enqueue(s, id, (kc_key_serial_t)k->aux);
			}
			at += (ssize_t)n_len;
		}
	}
	if (lost) {
		s->lost++;
		rescan(s);
	}
}

static void start_workers(struct service *s, int *close_in_worker, size_t n_close)
{
	size_t i, k;

	for (i = 0; i < s->n_slots && s->running < MAX_WORKERS; i++) {
		struct request_slot *r = &s->slots[i];
		pid_t pid;

		if (r->state != SLOT_QUEUED)
			continue;
		pid = fork();
		if (pid < 0)
			return; /* later, when a worker has gone */
		if (pid == 0) {
			sigset_t none;

			/* its own group: a timeout kills its handler too */
			setpgid(0, 0);
			for (k = 0; k < n_close; k++)
				close(close_in_worker[k]);
			signal(SIGPIPE, SIG_IGN);
			signal(SIGTERM, SIG_DFL);
			signal(SIGINT, SIG_DFL);
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			_exit(kc_key_answer(r->authkey, s->icpt[r->intercept].deny, s->o));
		}
		setpgid(pid, pid);
		r->state = SLOT_RUNNING;
		r->worker = pid;
		r->deadline_ms = now_ms() + (long long)s->o->timeout * 1000 + WORKER_GRACE_MS;
		r->killed = false;
		s->running++;
	}
}

static void reap_workers(struct service *s)
{
	int status;
	pid_t pid;
	size_t i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < s->n_slots; i++) {
			struct request_slot *r = &s->slots[i];

			if (r->state != SLOT_RUNNING || r->worker != pid)
				continue;
			if (!r->killed && WIFEXITED(status) && WEXITSTATUS(status) == KC_KEY_SERVED)
				s->served++;
			else if (r->killed || !WIFEXITED(status) || WEXITSTATUS(status) != KC_KEY_GONE)
				s->rejected++;
			/* answered (the authkey is revoked) or not: either way its
			 * place in the service keyring is freed, and an unanswered
			 * request is rejected by the kernel as the key goes */
			kc_keyctl(KC_KEYCTL_UNLINK, (unsigned long)r->authkey,
				  (unsigned long)s->icpt[r->intercept].svc, 0, 0);
			r->state = SLOT_FREE;
			s->running--;
			break;
		}
	}
}

/* Kills the workers past their deadline; returns the ms to the next one. */
static int expire_workers(struct service *s)
{
	long long now = now_ms(), next = -1;
	size_t i;

	for (i = 0; i < s->n_slots; i++) {
		struct request_slot *r = &s->slots[i];

		if (r->state != SLOT_RUNNING || r->killed)
			continue;
		if (r->deadline_ms <= now) {
			kill(-r->worker, SIGKILL);
			kill(r->worker, SIGKILL);
			r->killed = true;
			if (s->o->log_fd >= 0)
				dprintf(s->o->log_fd,
					"keys serve %s: authorisation key %" PRId32 ": timed out\n",
					s->o->id, r->authkey);
			continue;
		}
		if (next < 0 || r->deadline_ms - now < next)
			next = r->deadline_ms - now;
	}
	return next < 0 ? -1 : (int)(next > 60000 ? 60000 : next);
}

static void print_stats(struct service *s)
{
	fprintf(s->o->out, "stats pending=%zu served=%lu rejected=%lu lost=%lu\n", pending(s),
		s->served, s->rejected, s->lost);
	fflush(s->o->out);
}

/* The notification pipe, filtered to links. */
static int open_watch_pipe(unsigned int notes, kc_error_t *err)
{
	struct {
		struct watch_notification_filter f;
		struct watch_notification_type_filter t[1];
	} filter;
	int fds[2];

	if (pipe2(fds, O_NOTIFICATION_PIPE | O_CLOEXEC | O_NONBLOCK) < 0)
		return kc_error_set(err, errno, "notification pipe");
	close(fds[1]);
	if (ioctl(fds[0], IOC_WATCH_QUEUE_SET_SIZE, notes ? notes : NOTES_IN_PIPE) < 0) {
		kc_error_set(err, errno, "notification pipe size");
		close(fds[0]);
		return -1;
	}
	memset(&filter, 0, sizeof(filter));
	filter.f.nr_filters = 1;
	filter.t[0].type = WATCH_TYPE_KEY_NOTIFY;
	filter.t[0].subtype_filter[0] = 1u << NOTIFY_KEY_LINKED;
	if (ioctl(fds[0], IOC_WATCH_QUEUE_SET_FILTER, &filter) < 0) {
		kc_error_set(err, errno, "notification pipe filter");
		close(fds[0]);
		return -1;
	}
	return fds[0];
}

static int intercept_error(const char *id, const char *type, kc_error_t *err)
{
	switch (errno) {
	case EOPNOTSUPP:
		return kc_error_set(err, 0, "this kernel cannot intercept %s requests", type);
	case ENOKEY:
		return kc_error_set(err, 0, "container %s is not running", id);
	case EEXIST:
		return kc_error_set(err, 0,
				    "%s requests of %s are already served (another kcrun keys serve? "
				    "--replace takes them over)", type, id);
	case EINVAL:
		return kc_error_set(err, 0, "cannot intercept \"%s\" requests: not a key type this kernel knows",
				    type);
	default:
		return kc_error_set(err, errno, "intercept %s requests of %s", type, id);
	}
}

static void remove_intercepts(struct service *s)
{
	size_t i;

	for (i = 0; i < s->n_icpt; i++) {
		if (!s->icpt[i].registered)
			continue;
		kc_keyctl(KC_KEYCTL_CONTAINER_INTERCEPT, (unsigned long)s->cfd,
			  (unsigned long)s->icpt[i].type, 0, 0);
		s->icpt[i].registered = false;
	}
}

/* The session keyring, the service keyrings, their watches, the
 * intercepts. */
static int set_up(struct service *s, int pipe_fd, kc_error_t *err)
{
	const struct kc_keys_serve_opts *o = s->o;
	size_t i;
	long ses;

	ses = kc_keyctl(KC_KEYCTL_JOIN_SESSION, 0, 0, 0, 0);
	if (ses < 0)
		return kc_error_set(err, errno, "join a session keyring");
	/* no user rights: a container of the same uid could link it */
	if (kc_keyctl(KC_KEYCTL_SETPERM, (unsigned long)ses, KC_KEY_POS_ALL, 0, 0) < 0)
		return kc_error_set(err, errno, "make the session keyring possessor-only");
	for (i = 0; i < s->n_icpt; i++) {
		struct intercept *ic = &s->icpt[i];
		char name[96];

		snprintf(name, sizeof(name), "kcrun-serve:%s", ic->type);
		ic->svc = kc_add_key("keyring", name, NULL, 0, KC_KEY_SPEC_SESSION_KEYRING);
		if (ic->svc < 0)
			return kc_error_set(err, errno, "service keyring for %s", ic->type);
		if (kc_keyctl(KC_KEYCTL_SETPERM, (unsigned long)ic->svc, KC_KEY_POS_ALL, 0, 0) < 0)
			return kc_error_set(err, errno, "make the service keyring possessor-only");
		if (kc_keyctl(KC_KEYCTL_WATCH_KEY, (unsigned long)ic->svc, (unsigned long)pipe_fd, i,
			      0) < 0)
			return kc_error_set(err, errno, "watch the service keyring");
	}
	/* the served types first: with --deny-other, "*" must not catch a
	 * request of a type that is about to be served */
	for (i = 0; i < s->n_icpt; i++) {
		struct intercept *ic = &s->icpt[i];
		long r = kc_keyctl(KC_KEYCTL_CONTAINER_INTERCEPT, (unsigned long)s->cfd,
				   (unsigned long)ic->type, (unsigned long)ic->svc, o->max_pending);

		/* --replace: a service that was killed (SIGKILL) left its
		 * intercept behind, failing every request (nobody watches) */
		if (r < 0 && errno == EEXIST && o->replace &&
		    kc_keyctl(KC_KEYCTL_CONTAINER_INTERCEPT, (unsigned long)s->cfd,
			      (unsigned long)ic->type, 0, 0) == 0)
			r = kc_keyctl(KC_KEYCTL_CONTAINER_INTERCEPT, (unsigned long)s->cfd,
				      (unsigned long)ic->type, (unsigned long)ic->svc, o->max_pending);
		if (r < 0)
			return intercept_error(o->id, ic->type, err);
		ic->registered = true;
	}
	return 0;
}

static int block_signals(sigset_t *old, kc_error_t *err)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return kc_error_set(err, errno, "sigprocmask");
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0) {
		sigprocmask(SIG_SETMASK, old, NULL);
		return kc_error_set(err, errno, "signalfd");
	}
	return fd;
}

static void stop_workers(struct service *s)
{
	size_t i;

	for (i = 0; i < s->n_slots; i++) {
		if (s->slots[i].state != SLOT_RUNNING)
			continue;
		kill(-s->slots[i].worker, SIGKILL);
		kill(s->slots[i].worker, SIGKILL);
		s->slots[i].killed = true;
	}
	while (s->running > 0) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0 && errno != EINTR)
			break;
		for (i = 0; pid > 0 && i < s->n_slots; i++)
			if (s->slots[i].state == SLOT_RUNNING && s->slots[i].worker == pid) {
				s->slots[i].state = SLOT_FREE;
				s->running--;
			}
	}
}

int kc_keys_serve(int cfd, const struct kc_keys_serve_opts *o, kc_error_t *err)
{
	struct service s = {.o = o, .cfd = cfd};
	cleanup_close int pipe_fd = -1;
	cleanup_close int sig_fd = -1;
	sigset_t old_mask;
	size_t i, per_type;
	int ret = -1;
	bool stop = false;

	if (kc_keys_serve_check(o, err) < 0)
		return -1;
	s.n_icpt = (o->n_types ? o->n_types : 1) + (o->deny_other ? 1 : 0);
	s.icpt = calloc(s.n_icpt, sizeof(*s.icpt));
	per_type = o->max_pending ? o->max_pending : 64;
	s.n_slots = per_type * s.n_icpt;
	s.slots = calloc(s.n_slots, sizeof(*s.slots));
	if (s.icpt == NULL || s.slots == NULL) {
		kc_error_set(err, ENOMEM, "keys serve");
		goto out_free;
	}
	for (i = 0; i < o->n_types; i++)
		s.icpt[i].type = o->types[i];
	if (o->n_types == 0)
		s.icpt[0].type = "*";
	if (o->deny_other) {
		s.icpt[s.n_icpt - 1].type = "*";
		s.icpt[s.n_icpt - 1].deny = true;
	}

	pipe_fd = open_watch_pipe(o->notes, err);
	if (pipe_fd < 0)
		goto out_free;
	sig_fd = block_signals(&old_mask, err);
	if (sig_fd < 0)
		goto out_free;
	if (set_up(&s, pipe_fd, err) < 0)
		goto out;
	fprintf(o->out, "ready\n");
	fflush(o->out);

	while (!stop) {
		struct pollfd p[3] = {
			{.fd = pipe_fd, .events = POLLIN},
			{.fd = sig_fd, .events = POLLIN},
			{.fd = cfd, .events = POLLIN},
		};
		struct signalfd_siginfo si;
		int fds[] = {pipe_fd, sig_fd, cfd};
		int wait_ms;

		start_workers(&s, fds, 3);
		wait_ms = expire_workers(&s);
		if (poll(p, 3, wait_ms) < 0 && errno != EINTR) {
			kc_error_set(err, errno, "poll");
			goto out;
		}
		while (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT)
				stop = true;
			else if (si.ssi_signo == SIGUSR1)
				print_stats(&s);
		}
		reap_workers(&s);
		if (p[0].revents & POLLIN)
			read_notes(&s, pipe_fd);
		if (p[2].revents & POLLHUP) {
			/* the container is gone, and its intercepts with it */
			if (o->log_fd >= 0)
				dprintf(o->log_fd, "keys serve %s: the container has stopped\n", o->id);
			for (i = 0; i < s.n_icpt; i++)
				s.icpt[i].registered = false;
			stop = true;
		}
	}
	ret = 0;
out:
	/* pending requests are rejected as the kernel clears the keyrings */
	remove_intercepts(&s);
	stop_workers(&s);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
out_free:
	free(s.icpt);
	free(s.slots);
	return ret;
}
