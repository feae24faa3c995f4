/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *format_message(const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		return NULL;
	return msg;
}

int kc_error_set(kc_error_t *err, int errnum, const char *fmt, ...)
{
	struct kc_error *e;
	char *msg, *full = NULL;
	va_list ap;

	if (err == NULL || *err != NULL)
		return -1;
	va_start(ap, fmt);
	msg = format_message(fmt, ap);
	va_end(ap);
	/* strerror's text with a lower-case first letter, as Go (runc) prints
	 * errno values: tools match "no such file or directory". */
	if (msg && errnum && asprintf(&full, "%s: %c%s", msg, tolower((unsigned char)strerror(errnum)[0]),
				      strerror(errnum) + 1) >= 0) {
		free(msg);
		msg = full;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		free(msg);
		return -1;
	}
	e->errnum = errnum;
	e->msg = msg ? msg : strdup("out of memory while reporting an error");
	*err = e;
	return -1;
}

int kc_error_wrap(kc_error_t *err, const char *fmt, ...)
{
	char *prefix, *joined = NULL;
	va_list ap;

	if (err == NULL || *err == NULL)
		return -1;
	va_start(ap, fmt);
	prefix = format_message(fmt, ap);
	va_end(ap);
	if (prefix && asprintf(&joined, "%s: %s", prefix, (*err)->msg) >= 0) {
		free((*err)->msg);
		(*err)->msg = joined;
	}
	free(prefix);
	return -1;
}

int kc_error_about(kc_error_t *err, const char *field)
{
	if (err && *err && (*err)->field == NULL)
		(*err)->field = strdup(field);
	return -1;
}

void kc_error_free(kc_error_t *err)
{
	if (err == NULL || *err == NULL)
		return;
	free((*err)->field);
	free((*err)->msg);
	free(*err);
	*err = NULL;
}
