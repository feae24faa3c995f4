/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Errors carried up as values.
 *
 * Every fallible function returns an int (negative on failure) and, on
 * failure, fills the error object passed as its last argument.  The CLI
 * prints it once, at the top.  Nothing in the library exit()s.
 */
#ifndef KCRUN_ERROR_H
#define KCRUN_ERROR_H

#include <stdarg.h>

struct kc_error {
	int errnum;   /* errno value that caused it, 0 if none */
	char *msg;    /* full message, already including strerror(errnum) */
	char *field;  /* the config field it is about ("linux.resources.memory.limit"),
		       * when the code that failed knows one; else NULL */
};
typedef struct kc_error *kc_error_t;

/* Sets *err (if it is still empty) from a printf format; appends
 * ": strerror(errnum)" when errnum != 0. (strerror with a lower-case first letter, as runc prints errno values)  Always returns -1 so callers can
 * write `return kc_error_set(err, errno, "open `%s`", path);`. */
int kc_error_set(kc_error_t *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefixes the message already in *err with more context ("create: ..."). */
int kc_error_wrap(kc_error_t *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records in *err (when set) the config field it is about, so a caller can
 * tell the user which of its own inputs that was (update's flags) without
 * reading the message.  Always returns -1. */
int kc_error_about(kc_error_t *err, const char *field);

void kc_error_free(kc_error_t *err);

#endif
