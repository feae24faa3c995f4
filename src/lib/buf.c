/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable, always NUL-terminated string buffer: see buf.h. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kc_buf_append(struct kc_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (p == NULL)
			return -1;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int kc_buf_printf(struct kc_buf *b, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	ret = kc_buf_append(b, s, (size_t)n);
	free(s);
	return ret;
}

int kc_buf_json_string(struct kc_buf *b, const char *s)
{
	const unsigned char *p;

	if (kc_buf_append(b, "\"", 1) < 0)
		return -1;
	for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
		char esc[8];
		int ret;

		switch (*p) {
		case '"': ret = kc_buf_append(b, "\\\"", 2); break;
		case '\\': ret = kc_buf_append(b, "\\\\", 2); break;
		case '\n': ret = kc_buf_append(b, "\\n", 2); break;
		case '\t': ret = kc_buf_append(b, "\\t", 2); break;
		case '\r': ret = kc_buf_append(b, "\\r", 2); break;
		default:
			if (*p < 0x20) {
				snprintf(esc, sizeof(esc), "\\u%04x", *p);
				ret = kc_buf_append(b, esc, 6);
			} else {
				ret = kc_buf_append(b, (const char *)p, 1);
			}
		}
		if (ret < 0)
			return -1;
	}
	return kc_buf_append(b, "\"", 1);
}
