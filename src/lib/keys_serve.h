/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kcrun keys serve`: the request-key service of one container
 * (docs/kernel-api.md, KEYCTL_CONTAINER_INTERCEPT).
 *
 * The service joins a session keyring of its own (possessor-only), makes a
 * service keyring per intercepted type in it (a service keyring serves one
 * intercept), watches them all through one notification pipe and registers
 * the intercepts.  Each request a member of the container makes for an
 * intercepted type links its authorisation key into that type's service
 * keyring; the service answers it in a short-lived worker (keys_answer.c)
 * and unlinks the authorisation key.  The kernel bounds each service
 * keyring to max_pending requests (EDQUOT beyond) and rejects at once when
 * nobody watches; the service bounds its workers, their time, and what a
 * handler may return.
 *
 * What comes from the container (type, description, callout data) is data:
 * it is matched against --static descriptions or given to --handler as one
 * argv element and stdin, never to a shell. */
#ifndef KCRUN_KEYS_SERVE_H
#define KCRUN_KEYS_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "keys.h"

/* --static DESC=VALUE: the request for DESC (any served type) gets VALUE. */
struct kc_keys_static {
	const char *description;
	const char *value;
	size_t value_len;
};

struct kc_keys_serve_opts {
	const char *id;
	const char *const *types;   /* --type; none: "*" (every type) */
	size_t n_types;
	const struct kc_keys_static *statics;
	size_t n_statics;
	const char *handler;        /* --handler PROG (absolute), or NULL */
	unsigned int max_pending;   /* per type, 1..4096; 0: the kernel's 64 */
	unsigned int timeout;       /* seconds a request may take, 1..3600 */
	bool deny_other;            /* a "*" intercept that rejects everything */
	bool replace;               /* remove another service's intercepts first */
	unsigned int notes;         /* notes the pipe holds (1..512); 0: 256 */
	FILE *out;                  /* "ready" and the stats lines */
	int log_fd;                 /* one line per request */
};

#define KC_KEYS_SERVE_DEFAULT_TIMEOUT 10
#define KC_KEYS_SERVE_MAX_PENDING     4096
#define KC_KEYS_SERVE_MAX_TIMEOUT     3600
/* A handler's payload beyond this is a rejection (add_key's own limit). */
#define KC_KEYS_SERVE_MAX_PAYLOAD     KC_KEY_PAYLOAD_MAX

/* "DESC=VALUE", split at the first '='; DESC may not be empty.  The
 * strings point into arg. */
int kc_keys_static_parse(const char *arg, struct kc_keys_static *s, kc_error_t *err);

/* The options make sense: types valid and not repeated ("*" only alone and
 * not with --deny-other), a handler that is an absolute path to an
 * executable, bounds. */
int kc_keys_serve_check(const struct kc_keys_serve_opts *o, kc_error_t *err);

/* Runs the service for container cfd until SIGTERM or SIGINT (0, the
 * intercepts removed) or the container's end (0).  Prints "ready" once the
 * intercepts are registered; SIGUSR1 prints
 * "stats pending=N served=N rejected=N lost=N". */
int kc_keys_serve(int cfd, const struct kc_keys_serve_opts *o, kc_error_t *err);

/* One request, as a worker sees it (keys_answer.c). */
struct kc_key_request {
	kc_key_serial_t authkey;
	kc_key_serial_t target;
	char *target_raw;            /* describe buffers (malloc'ed) */
	char *auth_raw;
	struct kc_key_info key;      /* the key being constructed */
	unsigned int uid, gid;       /* the requester's fs ids */
	char *callout;               /* the callout data (malloc'ed) */
	size_t callout_len;
};
int kc_key_request_load(kc_key_serial_t authkey, struct kc_key_request *r, kc_error_t *err);
void kc_key_request_release(struct kc_key_request *r);

/* What a worker did; its exit status. */
enum kc_key_answer {
	KC_KEY_SERVED = 0,
	KC_KEY_REJECTED = 1,
	KC_KEY_FAILED = 2,  /* neither: the authkey's unlink rejects it */
	KC_KEY_GONE = 3,    /* nothing to answer any more */
};

/* The payload of --static for r, or NULL. */
const struct kc_keys_static *kc_keys_static_find(const struct kc_keys_serve_opts *o,
						 const char *description);

/* Answers the request behind authkey (deny: reject whatever it is) and
 * logs one line; the worker's body, run in a child of the service. */
enum kc_key_answer kc_key_answer(kc_key_serial_t authkey, bool deny,
				 const struct kc_keys_serve_opts *o);

#endif
