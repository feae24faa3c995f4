/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Go-compatible JSON layout and string escaping (see json_format.h). */
#include "json_format.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out_buf {
	char *text;
	size_t len;
	size_t cap;
	bool failed;
};

static void put(struct out_buf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *text;

		while (b->len + n + 1 > cap)
			cap *= 2;
		text = realloc(b->text, cap);
		if (text == NULL) {
			b->failed = true;
			return;
		}
		b->text = text;
		b->cap = cap;
	}
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = '\0';
}

static void put_char(struct out_buf *b, char c)
{
	put(b, &c, 1);
}

static void put_newline_indent(struct out_buf *b, const char *indent, size_t depth)
{
	size_t i, n = strlen(indent);

	put_char(b, '\n');
	for (i = 0; i < depth; i++)
		put(b, indent, n);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Length of the valid UTF-8 sequence at s (Go's rules: no overlongs, no
 * surrogates, nothing above U+10FFFF), 0 if invalid.  *rune gets the code
 * point. */
static size_t utf8_sequence(const unsigned char *s, size_t avail, uint32_t *rune)
{
	size_t n, i;
	uint32_t r, min;

	if (s[0] < 0x80) {
		*rune = s[0];
		return 1;
	} else if ((s[0] & 0xe0) == 0xc0) {
		n = 2, r = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, r = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, r = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		r = (r << 6) | (s[i] & 0x3f);
	}
	if (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
		return 0;
	*rune = r;
	return n;
}

/* Writes raw bytes as a Go-escaped JSON string body. */
static void put_go_string(struct out_buf *b, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, seq;
	uint32_t rune;
	char esc[7];

	while (i < n) {
		unsigned char c = s[i];

		if (c < 0x80) {
			if (c == '"' || c == '\\') {
				put_char(b, '\\');
				put_char(b, (char)c);
			} else if (c == '\n') {
				put(b, "\\n", 2);
			} else if (c == '\r') {
				put(b, "\\r", 2);
			} else if (c == '\t') {
				put(b, "\\t", 2);
			} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
				snprintf(esc, sizeof(esc), "\\u00%c%c", hex[c >> 4], hex[c & 15]);
				put(b, esc, 6);
			} else {
				put_char(b, (char)c);
			}
			i++;
			continue;
		}
		seq = utf8_sequence(s + i, n - i, &rune);
		if (seq == 0) {
			put(b, "\\ufffd", 6);
			i++;
		} else if (rune == 0x2028 || rune == 0x2029) {
			put(b, rune == 0x2028 ? "\\u2028" : "\\u2029", 6);
			i += seq;
		} else {
			put(b, (const char *)s + i, seq);
			i += seq;
		}
	}
}

/* Decodes the JSON string starting after the opening quote at json[*pos]
 * into raw bytes, and writes it Go-escaped.  Only BMP \u escapes that are not
 * surrogates are handled, which is all yajl_gen produces. */
static int copy_string(struct out_buf *b, const char *json, size_t len, size_t *pos)
{
	struct out_buf raw = { 0 };
	size_t i = *pos;
	int rc = -1;

	while (i < len && json[i] != '"') {
		if (json[i] != '\\') {
			put_char(&raw, json[i++]);
			continue;
		}
		if (++i >= len)
			goto out;
		switch (json[i]) {
		case 'b': put_char(&raw, '\b'); break;
		case 'f': put_char(&raw, '\f'); break;
		case 'n': put_char(&raw, '\n'); break;
		case 'r': put_char(&raw, '\r'); break;
		case 't': put_char(&raw, '\t'); break;
		case '"':
		case '\\':
		case '/': put_char(&raw, json[i]); break;
		case 'u': {
			uint32_t cp = 0;
			char utf8[3];
			int k, h;

			if (i + 4 >= len)
				goto out;
			for (k = 1; k <= 4; k++) {
				h = hex_value(json[i + k]);
				if (h < 0)
					goto out;
				cp = cp << 4 | (uint32_t)h;
			}
			i += 4;
			if (cp < 0x80) {
				put_char(&raw, (char)cp);
			} else if (cp < 0x800) {
				utf8[0] = (char)(0xc0 | cp >> 6);
				utf8[1] = (char)(0x80 | (cp & 0x3f));
				put(&raw, utf8, 2);
			} else {
				/* surrogates end up invalid, hence \ufffd, as in Go */
				utf8[0] = (char)(0xe0 | cp >> 12);
				utf8[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
				utf8[2] = (char)(0x80 | (cp & 0x3f));
				put(&raw, utf8, 3);
			}
			break;
		}
		default: goto out;
		}
		i++;
	}
	if (i >= len || raw.failed)
		goto out;
	put_char(b, '"');
	put_go_string(b, (const unsigned char *)raw.text, raw.len);
	put_char(b, '"');
	*pos = i + 1;
	rc = 0;
out:
	free(raw.text);
	return rc;
}

int oci_json_format_go(const char *json, size_t len, const char *indent, int newline, char **out)
{
	struct out_buf b = { 0 };
	size_t i = 0, depth = 0;

	while (i < len) {
		char c = json[i];

		switch (c) {
		case ' ':
		case '\t':
		case '\n':
		case '\r': i++; break;
		case '"':
			i++;
			if (copy_string(&b, json, len, &i) < 0)
				goto invalid;
			break;
		case '{':
		case '[': {
			size_t j = i + 1;

			while (j < len && strchr(" \t\n\r", json[j]) && json[j])
				j++;
			put_char(&b, c);
			if (j < len && (json[j] == '}' || json[j] == ']')) {
				put_char(&b, json[j]); /* empty: {} or [] */
				i = j + 1;
				break;
			}
			depth++;
			if (indent)
				put_newline_indent(&b, indent, depth);
			i++;
			break;
		}
		case '}':
		case ']':
			if (depth == 0)
				goto invalid;
			depth--;
			if (indent)
				put_newline_indent(&b, indent, depth);
			put_char(&b, c);
			i++;
			break;
		case ',':
			put_char(&b, ',');
			if (indent)
				put_newline_indent(&b, indent, depth);
			i++;
			break;
		case ':':
			put(&b, indent ? ": " : ":", indent ? 2 : 1);
			i++;
			break;
		default:
			put_char(&b, c); /* numbers, true, false, null */
			i++;
			break;
		}
	}
	if (depth != 0)
		goto invalid;
	if (newline)
		put_char(&b, '\n');
	if (b.failed || b.text == NULL) {
		free(b.text);
		errno = ENOMEM;
		return -1;
	}
	*out = b.text;
	return 0;

invalid:
	free(b.text);
	errno = EINVAL;
	return -1;
}
