/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sd_notify through a container, as runc relays it: when kcrun runs with
 * $NOTIFY_SOCKET (a Type=notify unit, podman --sdnotify=container), the
 * container gets a socket of its own and kcrun passes its READY=1 on to
 * the socket it was given, with MAINPID set to the container's init.
 *
 *   create/run  kc_notify_prepare(): <state dir>/notify is bind-mounted
 *               read-only at /run/notify in the container, and
 *               NOTIFY_SOCKET=/run/notify/notify.sock is added to
 *               process.env.  The host's socket is never reachable from
 *               the container: only this directory is.
 *   start, run  kc_notify_listen() binds notify.sock (before init execs the
 *               process), kc_notify_relay() waits for a READY= datagram
 *               while init lives and sends "READY=1", "MAINPID=<init>" and
 *               a BARRIER=1 (sd_notify_barrier(3)) to $NOTIFY_SOCKET.
 * Only READY is relayed, and MAINPID is kcrun's own word: the container
 * cannot name another process to systemd. */
#ifndef KCRUN_NOTIFY_SOCKET_H
#define KCRUN_NOTIFY_SOCKET_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"
#include "oci-spec/spec.h"

#define KC_NOTIFY_DIR "notify"
#define KC_NOTIFY_SOCKET_FILE "notify.sock"
#define KC_NOTIFY_IN_CONTAINER "/run/notify"

/* $NOTIFY_SOCKET, or NULL when unset or empty. */
const char *kc_notify_host_socket(void);

/* Makes <state_dir>/notify and adds its mount and NOTIFY_SOCKET to spec
 * (nothing without $NOTIFY_SOCKET). */
int kc_notify_prepare(struct oci_spec *spec, const char *state_dir, kc_error_t *err);

/* Binds <state_dir>/notify/notify.sock (mode 0777: the container's user
 * sends to it); *fd -1 when the container was created without the
 * directory or kcrun runs without $NOTIFY_SOCKET. */
int kc_notify_listen(const char *state_dir, int *fd, kc_error_t *err);

/* Waits (on the socket and a pidfd of init) until the container sends
 * READY= (relayed) or init dies (nothing to relay), then closes fd.
 * start_time: init's, from the state (kc_proc_start_time()), or 0 when
 * init is the caller's own child. */
int kc_notify_relay(int fd, pid_t init_pid, unsigned long long start_time, kc_error_t *err);

#endif
