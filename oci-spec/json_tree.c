/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds a struct json_value tree from yajl's event parser, enforcing the
 * depth and string-length limits while parsing, so a hostile config.json can
 * neither exhaust the stack nor smuggle a NUL into a path. */
#include "json_tree.h"
#include "spec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

struct builder {
	struct json_value *root;
	/* open containers; stack[0] is the outermost */
	struct json_value *stack[OCI_MAX_NESTING];
	size_t depth;
	const char *source;
	char *error; /* set when a callback stops the parse */
};

const char *oci_json_type_name(enum json_type type)
{
	switch (type) {
	case JSON_NULL: return "null";
	case JSON_BOOL: return "boolean";
	case JSON_NUMBER: return "number";
	case JSON_STRING: return "string";
	case JSON_ARRAY: return "array";
	case JSON_OBJECT: return "object";
	}
	return "unknown";
}

void oci_json_value_free(struct json_value *value)
{
	size_t i;

	if (value == NULL)
		return;
	switch (value->type) {
	case JSON_NUMBER:
	case JSON_STRING: free(value->u.string.text); break;
	case JSON_ARRAY:
		for (i = 0; i < value->u.array.len; i++)
			oci_json_value_free(value->u.array.items[i]);
		free(value->u.array.items);
		break;
	case JSON_OBJECT:
		for (i = 0; i < value->u.object.len; i++) {
			free(value->u.object.keys[i]);
			oci_json_value_free(value->u.object.values[i]);
		}
		free(value->u.object.keys);
		free(value->u.object.values);
		break;
	case JSON_NULL:
	case JSON_BOOL: break;
	}
	free(value);
}

const struct json_value *oci_json_object_get(const struct json_value *obj, const char *key)
{
	size_t i;

	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (i = obj->u.object.len; i > 0; i--)
		if (strcmp(obj->u.object.keys[i - 1], key) == 0)
			return obj->u.object.values[i - 1];
	return NULL;
}

/* Orders entry indices by key, then by position. */
static int compare_key_index_r(const void *a, const void *b, void *arg)
{
	const struct json_value *obj = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	int c = strcmp(obj->u.object.keys[ia], obj->u.object.keys[ib]);

	if (c)
		return c;
	return ia < ib ? -1 : ia > ib;
}

int oci_json_object_last_keys(const struct json_value *obj, bool *keep)
{
	size_t n = obj->u.object.len, i;
	size_t *order;

	if (n == 0)
		return 0;
	order = calloc(n, sizeof(*order));
	if (order == NULL)
		return -1;
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), compare_key_index_r, (void *)obj);
	for (i = 0; i < n; i++)
		keep[order[i]] = i + 1 == n || strcmp(obj->u.object.keys[order[i]],
						      obj->u.object.keys[order[i + 1]]) != 0;
	free(order);
	return 0;
}

/* ---------- path strings ---------- */

static int path_reserve(struct path_buf *path, size_t extra)
{
	size_t want = path->len + extra + 1;
	char *text;

	if (want <= path->cap)
		return 0;
	if (want < 64)
		want = 64;
	if (want < path->cap * 2)
		want = path->cap * 2;
	text = realloc(path->text, want);
	if (text == NULL)
		return -1;
	path->text = text;
	path->cap = want;
	return 0;
}

static bool is_plain_key(const char *key)
{
	const char *p;

	if (*key == '\0' || isdigit((unsigned char)*key))
		return false;
	for (p = key; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* Keys longer than this are cut (with "...") in paths, so that a message
 * about an annotation stays readable even if its key is huge. */
#define PATH_KEY_MAX 128

int oci_path_push_key(struct path_buf *path, const char *key)
{
	size_t keylen = strnlen(key, PATH_KEY_MAX + 1), n;
	bool cut = keylen > PATH_KEY_MAX;
	const char *p;

	if (cut) {
		keylen = PATH_KEY_MAX;
		/* do not split a UTF-8 sequence */
		while (keylen > 0 && ((unsigned char)key[keylen] & 0xc0) == 0x80)
			keylen--;
	}
	/* worst case: [" + 4 bytes per char + ..."] */
	if (path_reserve(path, keylen * 4 + 8) < 0)
		return -1;
	if (!cut && is_plain_key(key)) {
		if (path->len > 0)
			path->text[path->len++] = '.';
		memcpy(path->text + path->len, key, keylen);
		path->len += keylen;
	} else {
		path->text[path->len++] = '[';
		path->text[path->len++] = '"';
		for (p = key, n = 0; *p && n < keylen; p++, n++) {
			unsigned char c = (unsigned char)*p;

			if (c == '"' || c == '\\') {
				path->text[path->len++] = '\\';
				path->text[path->len++] = (char)c;
			} else if (c < 0x20 || c == 0x7f) {
				path->len += (size_t)sprintf(path->text + path->len, "\\x%02x", c);
			} else {
				path->text[path->len++] = (char)c;
			}
		}
		if (cut) {
			memcpy(path->text + path->len, "...", 3);
			path->len += 3;
		}
		path->text[path->len++] = '"';
		path->text[path->len++] = ']';
	}
	path->text[path->len] = '\0';
	return 0;
}

int oci_path_push_index(struct path_buf *path, size_t index)
{
	if (path_reserve(path, 24) < 0)
		return -1;
	path->len += (size_t)sprintf(path->text + path->len, "[%zu]", index);
	return 0;
}

void oci_path_truncate(struct path_buf *path, size_t len)
{
	if (path->text && len <= path->len) {
		path->len = len;
		path->text[len] = '\0';
	}
}

/* ---------- the builder ---------- */

/* Path of the value being added (pending=true) or of the innermost open
 * container (pending=false). */
static char *builder_path(struct builder *b, bool pending)
{
	struct path_buf path = { 0 };
	size_t i;
	int rc = 0;

	for (i = 0; i < b->depth && rc == 0; i++) {
		const struct json_value *c = b->stack[i];
		bool top = i + 1 == b->depth;

		if (top && !pending)
			break;
		if (c->type == JSON_ARRAY)
			rc = oci_path_push_index(&path, top ? c->u.array.len : c->u.array.len - 1);
		else if (c->u.object.len > 0)
			rc = oci_path_push_key(&path, c->u.object.keys[c->u.object.len - 1]);
	}
	if (rc < 0 || path.len == 0) {
		free(path.text);
		return strdup(b->source);
	}
	return path.text;
}

__attribute__((format(printf, 3, 4))) static int builder_fail(struct builder *b, bool pending,
							      const char *fmt, ...)
{
	char *path, *reason = NULL;
	va_list ap;

	if (b->error)
		return 0;
	path = builder_path(b, pending);
	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	if (path == NULL || reason == NULL || asprintf(&b->error, "%s: %s", path, reason) < 0)
		b->error = NULL;
	free(path);
	free(reason);
	return 0; /* tells yajl to stop */
}

static int grow(void **array, size_t *cap, size_t len, size_t size)
{
	size_t ncap;
	void *p;

	if (len < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	p = reallocarray(*array, ncap, size);
	if (p == NULL)
		return -1;
	*array = p;
	*cap = ncap;
	return 0;
}

/* Adds v to the innermost container (or makes it the root); takes ownership. */
static int builder_add(struct builder *b, struct json_value *v)
{
	struct json_value *top;

	if (v == NULL)
		return builder_fail(b, true, "out of memory");
	if (b->depth == 0) {
		b->root = v;
		return 1;
	}
	top = b->stack[b->depth - 1];
	if (top->type == JSON_ARRAY) {
		if (grow((void **)&top->u.array.items, &top->u.array.cap, top->u.array.len,
			 sizeof(*top->u.array.items)) < 0) {
			oci_json_value_free(v);
			return builder_fail(b, true, "out of memory");
		}
		top->u.array.items[top->u.array.len++] = v;
	} else {
		/* the key was appended by on_map_key with a NULL value */
		top->u.object.values[top->u.object.len - 1] = v;
	}
	return 1;
}

static struct json_value *new_value(enum json_type type)
{
	struct json_value *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

static int check_string(struct builder *b, bool pending, const unsigned char *s, size_t len)
{
	if (len > OCI_MAX_STRING_LEN)
		return builder_fail(b, pending, "string longer than %d bytes", OCI_MAX_STRING_LEN);
	if (memchr(s, '\0', len))
		return builder_fail(b, pending, "string contains a NUL character");
	return 1;
}

static int on_null(void *ctx)
{
	return builder_add(ctx, new_value(JSON_NULL));
}

static int on_boolean(void *ctx, int boolean)
{
	struct json_value *v = new_value(JSON_BOOL);

	if (v)
		v->u.boolean = boolean != 0;
	return builder_add(ctx, v);
}

static int add_text(struct builder *b, enum json_type type, const char *s, size_t len)
{
	struct json_value *v = new_value(type);

	if (v) {
		v->u.string.text = strndup(s, len);
		v->u.string.len = len;
		if (v->u.string.text == NULL) {
			free(v);
			v = NULL;
		}
	}
	return builder_add(b, v);
}

static int on_number(void *ctx, const char *s, size_t len)
{
	if (len > 4096)
		return builder_fail(ctx, true, "number too long");
	return add_text(ctx, JSON_NUMBER, s, len);
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
	if (!check_string(ctx, true, s, len))
		return 0;
	return add_text(ctx, JSON_STRING, (const char *)s, len);
}

static int open_container(struct builder *b, enum json_type type)
{
	struct json_value *v;

	if (b->depth >= OCI_MAX_NESTING)
		return builder_fail(b, true, "nested deeper than %d levels", OCI_MAX_NESTING);
	v = new_value(type);
	if (!builder_add(b, v))
		return 0;
	b->stack[b->depth++] = v;
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, JSON_OBJECT);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, JSON_ARRAY);
}

static int on_end(void *ctx)
{
	struct builder *b = ctx;

	b->depth--;
	return 1;
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct builder *b = ctx;
	struct json_value *top = b->stack[b->depth - 1];
	size_t cap = top->u.object.cap;
	char *copy;

	if (!check_string(b, false, key, len))
		return 0;
	if (grow((void **)&top->u.object.keys, &cap, top->u.object.len,
		 sizeof(*top->u.object.keys)) < 0)
		return builder_fail(b, false, "out of memory");
	cap = top->u.object.cap;
	if (grow((void **)&top->u.object.values, &cap, top->u.object.len,
		 sizeof(*top->u.object.values)) < 0)
		return builder_fail(b, false, "out of memory");
	top->u.object.cap = cap;
	copy = strndup((const char *)key, len);
	if (copy == NULL)
		return builder_fail(b, false, "out of memory");
	top->u.object.keys[top->u.object.len] = copy;
	top->u.object.values[top->u.object.len] = NULL;
	top->u.object.len++;
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_boolean,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_map_key,
	.yajl_end_map = on_end,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end,
};

/* "parse error: trailing garbage\n" -> "trailing garbage" */
static char *yajl_reason(yajl_handle h, const char *text, size_t len, bool *lexical)
{
	unsigned char *raw = yajl_get_error(h, 0, (const unsigned char *)text, len);
	const char *s = (const char *)raw, *colon;
	size_t n;
	char *reason;

	*lexical = false;
	if (raw == NULL)
		return strdup("invalid JSON");
	*lexical = strncmp(s, "lexical", 7) == 0;
	colon = strstr(s, "error: ");
	if (colon)
		s = colon + strlen("error: ");
	n = strlen(s);
	while (n > 0 && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '.'))
		n--;
	reason = strndup(s, n);
	yajl_free_error(h, raw);
	return reason;
}

struct json_value *oci_json_parse(const char *text, size_t len, const char *source, char **errmsg)
{
	struct builder b = { .source = source };
	yajl_handle h;
	yajl_status st;
	size_t offset = len, line = 1, column = 1, i;
	bool lexical, at_end = false;
	char *reason;

	if (errmsg)
		*errmsg = NULL;
	h = yajl_alloc(&callbacks, NULL, &b);
	if (h == NULL) {
		if (errmsg)
			*errmsg = strdup("out of memory");
		return NULL;
	}
	st = yajl_parse(h, (const unsigned char *)text, len);
	if (st == yajl_status_ok) {
		st = yajl_complete_parse(h); /* errors here are at end of input */
		at_end = true;
	} else {
		offset = yajl_get_bytes_consumed(h);
	}
	if (st == yajl_status_ok && b.root == NULL)
		st = yajl_status_error; /* cannot happen with yajl 2, but be safe */
	if (st == yajl_status_ok) {
		yajl_free(h);
		return b.root;
	}

	if (st == yajl_status_client_canceled && b.error) {
		if (errmsg)
			*errmsg = b.error;
		else
			free(b.error);
	} else {
		free(b.error);
		reason = yajl_reason(h, text, len, &lexical);
		/* yajl's parser counts the offending token as consumed, its lexer
		 * (mostly) does not: point at the token either way */
		if (!at_end && (!lexical || (reason && strstr(reason, "UTF8"))) && offset > 0)
			offset--;
		if (offset > len)
			offset = len;
		for (i = 0; i < offset; i++) {
			if (text[i] == '\n') {
				line++;
				column = 1;
			} else {
				column++;
			}
		}
		if (errmsg && asprintf(errmsg, "%s: parse error at line %zu, column %zu: %s",
				       source, line, column, reason ? reason : "invalid JSON") < 0)
			*errmsg = NULL;
		free(reason);
	}
	yajl_free(h);
	oci_json_value_free(b.root);
	return NULL;
}
