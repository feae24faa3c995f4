/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny TAP producer for the host unit tests of the src/lib concern
 * modules.  All test files link into one binary (main.c calls each
 * module's test_*() in turn), so the output is one TAP stream:
 * `ok N - name` / `not ok N - name`, then the plan `1..N`. */
#ifndef KCRUN_TEST_TAP_H
#define KCRUN_TEST_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/error.h"

extern int tap_count, tap_failed;

#define TAP_OK(cond, ...) do {						\
		int tap_ok_ = !!(cond);					\
		printf("%sok %d - ", tap_ok_ ? "" : "not ", ++tap_count); \
		printf(__VA_ARGS__);					\
		printf("\n");						\
		if (!tap_ok_) {						\
			tap_failed++;					\
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}							\
		fflush(stdout);						\
	} while (0)

/* An expression that returns < 0 on failure and fills `err`: print the
 * message as a TAP diagnostic, so a failing test says why. */
#define TAP_CALL_OK(call, err, ...) do {				\
		int tap_rc_ = (call);					\
		if (tap_rc_ < 0 && (err))				\
			printf("# error: %s\n", (err)->msg);		\
		TAP_OK(tap_rc_ >= 0, __VA_ARGS__);			\
		kc_error_free(&(err));					\
	} while (0)

/* Expects a failure whose message contains `needle`. */
#define TAP_CALL_FAILS(call, err, needle, ...) do {			\
		int tap_rc_ = (call);					\
		const char *tap_msg_ = (err) ? (err)->msg : "(no error)"; \
		if (tap_rc_ >= 0 || !strcasestr(tap_msg_, (needle)))	\
			printf("# rc %d, message: %s\n", tap_rc_, tap_msg_); \
		TAP_OK(tap_rc_ < 0 && strcasestr(tap_msg_, (needle)), __VA_ARGS__); \
		kc_error_free(&(err));					\
	} while (0)

/* The test suites, one per module (test_<module>.c). */
/* Writes content to dir/file (a scratch file standing in for a cgroup
 * file); main.c. */
void tap_put_file(const char *dir, const char *file, const char *content);

void test_terminal(void);
void test_cgroup(void);
void test_cgroup_devices(void);
void test_bpf_cache(void);
void test_seccomp(void);
void test_hooks(void);
void test_network(void);
void test_descendants(void);
void test_copyup(void);
void test_units(void);
void test_rootless(void);
void test_stats(void);
void test_state(void);
void test_signals(void);
void test_cli(void);
void test_list(void);
void test_procattrs(void);
void test_procfs(void);
void test_pidfile(void);
void test_keys(void);
void test_mount_opts(void);
void test_unsupported(void);
void test_features(void);
void test_systemd_unit(void);
void test_notify_socket(void);

/* capture.c: stdout and stderr into buffers between begin and end (the
 * texts stay valid until the next capture_end). */
void capture_begin(void);
void capture_end(const char **out, const char **err);

#endif
