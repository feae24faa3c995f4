/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable string buffer, always NUL-terminated once anything was
 * appended (data stays NULL until then); the caller frees data.  Used for
 * the log's lines, state.json and `list`'s table.  Every call returns 0,
 * or -1 when out of memory. */
#ifndef KCRUN_BUF_H
#define KCRUN_BUF_H

#include <stddef.h>

struct kc_buf {
	char *data;
	size_t len, cap;
};

int kc_buf_append(struct kc_buf *b, const char *s, size_t n);
int kc_buf_printf(struct kc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a JSON string literal (with quotes) for s (NULL: ""). */
int kc_buf_json_string(struct kc_buf *b, const char *s);

#endif
