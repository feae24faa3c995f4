/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Typed field readers with JSON-path error messages (see parse_ctx.h). */
#include "parse_ctx.h"
#include "spec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ctx_oom(struct parse_ctx *ctx)
{
	if (ctx->error == NULL)
		ctx->error = strdup("out of memory");
	return -1;
}

int oci_ctx_fail(struct parse_ctx *ctx, const char *key, const char *fmt, ...)
{
	size_t mark = ctx->path.len;
	char *reason = NULL;
	const char *where;
	va_list ap;

	if (ctx->error)
		return -1;
	if (key && oci_path_push_key(&ctx->path, key) < 0)
		return ctx_oom(ctx);
	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	where = ctx->path.len ? ctx->path.text : ctx->source ? ctx->source : "config.json";
	if (reason == NULL || asprintf(&ctx->error, "%s: %s", where, reason) < 0)
		ctx->error = NULL;
	free(reason);
	oci_path_truncate(&ctx->path, mark);
	if (ctx->error == NULL)
		return ctx_oom(ctx);
	return -1;
}

int oci_ctx_type_error(struct parse_ctx *ctx, const char *what, const struct json_value *v)
{
	return oci_ctx_fail(ctx, NULL, "expected %s, got %s", what, oci_json_type_name(v->type));
}

/* The end of oci_ctx_enter_key/index: `mark` (the path length before the
 * push), or (size_t)-1 and an out-of-memory error when the push failed. */
static size_t ctx_entered(struct parse_ctx *ctx, size_t mark, int push_rc)
{
	if (push_rc < 0) {
		ctx_oom(ctx);
		return (size_t)-1;
	}
	return mark;
}

size_t oci_ctx_enter_key(struct parse_ctx *ctx, const char *key)
{
	size_t mark = ctx->path.len;

	return ctx_entered(ctx, mark, oci_path_push_key(&ctx->path, key));
}

size_t oci_ctx_enter_index(struct parse_ctx *ctx, size_t index)
{
	size_t mark = ctx->path.len;

	return ctx_entered(ctx, mark, oci_path_push_index(&ctx->path, index));
}

void oci_ctx_leave(struct parse_ctx *ctx, size_t mark)
{
	oci_path_truncate(&ctx->path, mark);
}

const struct json_value *oci_ctx_field(const struct json_value *obj, const char *key)
{
	const struct json_value *v = oci_json_object_get(obj, key);

	if (v && v->type == JSON_NULL)
		return NULL;
	return v;
}

/* ---------- scalar readers ---------- */

int oci_read_string(struct parse_ctx *ctx, const struct json_value *v, size_t maxlen, char **out)
{
	if (v->type != JSON_STRING)
		return oci_ctx_type_error(ctx, "a string", v);
	if (v->u.string.len > maxlen)
		return oci_ctx_fail(ctx, NULL, "string longer than %zu bytes", maxlen);
	*out = strdup(v->u.string.text);
	if (*out == NULL)
		return ctx_oom(ctx);
	return 0;
}

/* Checks the JSON number is an integer: Go refuses 1.5 or 1e3 for int fields. */
static int check_integer_text(struct parse_ctx *ctx, const struct json_value *v)
{
	const char *p = v->u.string.text;

	if (v->type != JSON_NUMBER)
		return oci_ctx_type_error(ctx, "an integer", v);
	if (*p == '-')
		p++;
	if (*p == '\0' || strspn(p, "0123456789") != strlen(p))
		return oci_ctx_fail(ctx, NULL, "expected an integer, got %.32s", v->u.string.text);
	return 0;
}

static int range_error(struct parse_ctx *ctx, const struct json_value *v, const char *range)
{
	const char *text = v->u.string.text;

	return oci_ctx_fail(ctx, NULL, "%.32s%s is out of range (%s)", text,
			    v->u.string.len > 32 ? "..." : "", range);
}

int oci_read_int(struct parse_ctx *ctx, const struct json_value *v, int64_t min, int64_t max,
		 int64_t *out)
{
	char range[64];
	long long n;
	char *end;

	if (check_integer_text(ctx, v) < 0)
		return -1;
	snprintf(range, sizeof(range), "%" PRId64 "..%" PRId64, min, max);
	errno = 0;
	n = strtoll(v->u.string.text, &end, 10);
	if (errno == ERANGE || *end != '\0' || n < min || n > max)
		return range_error(ctx, v, range);
	*out = n;
	return 0;
}

int oci_read_uint(struct parse_ctx *ctx, const struct json_value *v, uint64_t max, uint64_t *out)
{
	unsigned long long n;
	char range[64];
	char *end;

	if (check_integer_text(ctx, v) < 0)
		return -1;
	snprintf(range, sizeof(range), "0..%" PRIu64, max);
	if (v->u.string.text[0] == '-') {
		/* "-0" is zero; anything else negative is out of range */
		if (strspn(v->u.string.text + 1, "0") != v->u.string.len - 1)
			return range_error(ctx, v, range);
		*out = 0;
		return 0;
	}
	errno = 0;
	n = strtoull(v->u.string.text, &end, 10);
	if (errno == ERANGE || *end != '\0' || n > max)
		return range_error(ctx, v, range);
	*out = n;
	return 0;
}

/* ---------- field readers ---------- */

/* Looks up key; returns 1 and enters its path if present, 0 if absent (an
 * error if required), -1 on error. */
static int enter_field(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		       bool required, const struct json_value **v, size_t *mark)
{
	*v = oci_ctx_field(obj, key);
	if (*v == NULL) {
		if (required)
			return oci_ctx_fail(ctx, key, "required field is missing");
		return 0;
	}
	*mark = oci_ctx_enter_key(ctx, key);
	if (*mark == (size_t)-1)
		return -1;
	return 1;
}

/* enter_field, then checks the value is of the given JSON type ("what"
 * names it in the error).  On a type error the path is left again. */
static int enter_typed_field(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
			     bool required, enum json_type type, const char *what,
			     const struct json_value **v, size_t *mark)
{
	int rc = enter_field(ctx, obj, key, required, v, mark);

	if (rc <= 0)
		return rc;
	if ((*v)->type != type) {
		rc = oci_ctx_type_error(ctx, what, *v);
		oci_ctx_leave(ctx, *mark);
		return rc;
	}
	return 1;
}

int oci_get_string(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		   bool required, size_t maxlen, char **out)
{
	const struct json_value *v;
	size_t mark;
	int rc = enter_field(ctx, obj, key, required, &v, &mark);

	if (rc <= 0)
		return rc;
	rc = oci_read_string(ctx, v, maxlen, out);
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_bool(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		 bool required, bool *has, bool *out)
{
	const struct json_value *v;
	size_t mark;
	int rc = enter_field(ctx, obj, key, required, &v, &mark);

	if (rc <= 0)
		return rc;
	if (v->type != JSON_BOOL) {
		rc = oci_ctx_type_error(ctx, "a boolean", v);
	} else {
		*out = v->u.boolean;
		if (has)
			*has = true;
		rc = 0;
	}
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_int_range(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		      bool required, int64_t min, int64_t max, bool *has, int64_t *out)
{
	const struct json_value *v;
	size_t mark;
	int rc = enter_field(ctx, obj, key, required, &v, &mark);

	if (rc <= 0)
		return rc;
	rc = oci_read_int(ctx, v, min, max, out);
	if (rc == 0 && has)
		*has = true;
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_i64(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, int64_t *out)
{
	return oci_get_int_range(ctx, obj, key, required, INT64_MIN, INT64_MAX, has, out);
}

int oci_get_i32(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, int32_t *out)
{
	int64_t n = 0;
	int rc = oci_get_int_range(ctx, obj, key, required, INT32_MIN, INT32_MAX, has, &n);

	if (rc == 0)
		*out = (int32_t)n;
	return rc;
}

static int get_uint_max(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
			bool required, uint64_t max, bool *has, uint64_t *out)
{
	const struct json_value *v;
	size_t mark;
	int rc = enter_field(ctx, obj, key, required, &v, &mark);

	if (rc <= 0)
		return rc;
	rc = oci_read_uint(ctx, v, max, out);
	if (rc == 0 && has)
		*has = true;
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_u64(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint64_t *out)
{
	return get_uint_max(ctx, obj, key, required, UINT64_MAX, has, out);
}

int oci_get_u32(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint32_t *out)
{
	uint64_t n = 0;
	int rc = get_uint_max(ctx, obj, key, required, UINT32_MAX, has, &n);

	if (rc == 0)
		*out = (uint32_t)n;
	return rc;
}

int oci_get_u16(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint16_t *out)
{
	uint64_t n = 0;
	int rc = get_uint_max(ctx, obj, key, required, UINT16_MAX, has, &n);

	if (rc == 0)
		*out = (uint16_t)n;
	return rc;
}

/* ---------- arrays and maps ---------- */

int oci_get_strv(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		 size_t maxlen, char ***out, size_t *out_len)
{
	const struct json_value *v;
	size_t mark, i, n;
	int rc = enter_typed_field(ctx, obj, key, false, JSON_ARRAY, "an array", &v, &mark);

	if (rc <= 0)
		return rc;
	rc = 0;
	n = v->u.array.len;
	if (n == 0)
		goto out;
	*out = calloc(n, sizeof(**out));
	if (*out == NULL) {
		rc = ctx_oom(ctx);
		goto out;
	}
	*out_len = n;
	for (i = 0; i < n && rc == 0; i++) {
		size_t item_mark = oci_ctx_enter_index(ctx, i);

		if (item_mark == (size_t)-1)
			rc = -1;
		else
			rc = oci_read_string(ctx, v->u.array.items[i], maxlen, &(*out)[i]);
		oci_ctx_leave(ctx, item_mark);
	}
out:
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_object_array(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
			 size_t size, convert_fn convert, void **out, size_t *out_len)
{
	const struct json_value *v;
	size_t mark, i, n;
	char *items;
	int rc = enter_typed_field(ctx, obj, key, false, JSON_ARRAY, "an array", &v, &mark);

	if (rc <= 0)
		return rc;
	rc = 0;
	n = v->u.array.len;
	if (n == 0)
		goto out;
	items = calloc(n, size);
	if (items == NULL) {
		rc = ctx_oom(ctx);
		goto out;
	}
	*out = items;
	*out_len = n;
	for (i = 0; i < n && rc == 0; i++) {
		const struct json_value *item = v->u.array.items[i];
		size_t item_mark = oci_ctx_enter_index(ctx, i);

		if (item_mark == (size_t)-1)
			rc = -1;
		else if (item->type != JSON_OBJECT)
			rc = oci_ctx_type_error(ctx, "an object", item);
		else
			rc = convert(ctx, item, items + i * size);
		oci_ctx_leave(ctx, item_mark);
	}
out:
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_object(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		   bool required, size_t size, convert_fn convert, void **out)
{
	const struct json_value *v;
	size_t mark;
	int rc = enter_typed_field(ctx, obj, key, required, JSON_OBJECT, "an object", &v, &mark);

	if (rc <= 0)
		return rc;
	*out = calloc(1, size);
	if (*out == NULL)
		rc = ctx_oom(ctx);
	else
		rc = convert(ctx, v, *out);
	oci_ctx_leave(ctx, mark);
	return rc;
}

/* keep[i]: entry i is the last with its key (earlier duplicates are
 * dropped, as Go's decoder does).  Caller frees. */
static bool *last_keys(struct parse_ctx *ctx, const struct json_value *v)
{
	bool *keep = calloc(v->u.object.len ? v->u.object.len : 1, sizeof(*keep));

	if (keep == NULL || oci_json_object_last_keys(v, keep) < 0) {
		free(keep);
		ctx_oom(ctx);
		return NULL;
	}
	return keep;
}

int oci_get_string_map(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		       struct oci_map *out)
{
	const struct json_value *v;
	bool *keep = NULL;
	size_t mark, i;
	int rc = enter_typed_field(ctx, obj, key, false, JSON_OBJECT, "an object", &v, &mark);

	if (rc <= 0)
		return rc;
	rc = 0;
	if (v->u.object.len == 0)
		goto out;
	keep = last_keys(ctx, v);
	out->entries = calloc(v->u.object.len, sizeof(*out->entries));
	if (keep == NULL || out->entries == NULL) {
		rc = ctx_oom(ctx);
		goto out;
	}
	for (i = 0; i < v->u.object.len && rc == 0; i++) {
		const char *k = v->u.object.keys[i];
		const struct json_value *value = v->u.object.values[i];
		struct oci_map_entry *entry;

		if (!keep[i])
			continue;
		if (*k == '\0') {
			rc = oci_ctx_fail(ctx, NULL, "keys must not be empty");
		} else if (value->type != JSON_STRING) {
			rc = oci_ctx_fail(ctx, k, "expected a string, got %s",
					  oci_json_type_name(value->type));
		} else {
			entry = &out->entries[out->len++];
			entry->key = strdup(k);
			entry->value = strdup(value->u.string.text);
			if (entry->key == NULL || entry->value == NULL)
				rc = ctx_oom(ctx);
		}
	}
out:
	free(keep);
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_get_object_map(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		       size_t size, convert_keyed_fn convert, void **out, size_t *out_len)
{
	const struct json_value *v;
	bool *keep = NULL;
	size_t mark, i, n = 0;
	char *items;
	int rc = enter_typed_field(ctx, obj, key, false, JSON_OBJECT, "an object", &v, &mark);

	if (rc <= 0)
		return rc;
	rc = 0;
	if (v->u.object.len == 0)
		goto out;
	keep = last_keys(ctx, v);
	items = calloc(v->u.object.len, size);
	if (keep == NULL || items == NULL) {
		free(items);
		rc = ctx_oom(ctx);
		goto out;
	}
	*out = items;
	for (i = 0; i < v->u.object.len && rc == 0; i++) {
		const char *k = v->u.object.keys[i];
		const struct json_value *value = v->u.object.values[i];
		size_t item_mark;

		if (!keep[i])
			continue;
		if (*k == '\0') {
			rc = oci_ctx_fail(ctx, NULL, "keys must not be empty");
			break;
		}
		item_mark = oci_ctx_enter_key(ctx, k);
		if (item_mark == (size_t)-1) {
			rc = -1;
			break;
		}
		if (value->type != JSON_OBJECT) {
			rc = oci_ctx_type_error(ctx, "an object", value);
		} else {
			*out_len = ++n;
			rc = convert(ctx, k, value, items + (n - 1) * size);
		}
		oci_ctx_leave(ctx, item_mark);
	}
out:
	free(keep);
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_check_absolute(struct parse_ctx *ctx, const char *key, const char *s)
{
	if (s == NULL || s[0] != '/')
		return oci_ctx_fail(ctx, key, "must be an absolute path, got \"%s\"", s ? s : "");
	return 0;
}

static void set_errmsg(char **errmsg, char *msg)
{
	if (errmsg)
		*errmsg = msg ? msg : strdup("out of memory");
	else
		free(msg);
}

int oci_parse_document(const char *json, size_t len, const char *source, size_t size,
		       convert_fn convert, void (*free_fn)(void *), void **out, char **errmsg)
{
	return oci_parse_document_at(json, len, source, NULL, size, convert, free_fn, out, errmsg);
}

int oci_parse_document_at(const char *json, size_t len, const char *source,
			  const char *const *keys, size_t size, convert_fn convert,
			  void (*free_fn)(void *), void **out, char **errmsg)
{
	struct parse_ctx ctx = { .source = source };
	struct json_value *root;
	char *msg = NULL;
	void *dst = NULL;
	int rc = -1;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (len > OCI_MAX_CONFIG_SIZE) {
		if (asprintf(&msg, "%s: larger than %d bytes", source, OCI_MAX_CONFIG_SIZE) < 0)
			msg = NULL;
		set_errmsg(errmsg, msg);
		return -1;
	}
	root = oci_json_parse(json, len, source, &msg);
	if (root == NULL) {
		set_errmsg(errmsg, msg);
		return -1;
	}
	if (root->type != JSON_OBJECT) {
		oci_ctx_type_error(&ctx, "an object", root);
	} else {
		dst = calloc(1, size);
		if (dst == NULL)
			ctx_oom(&ctx);
		while (dst && keys && *keys && oci_ctx_enter_key(&ctx, *keys) != (size_t)-1)
			keys++;
		if (dst && !(keys && *keys))
			rc = convert(&ctx, root, dst);
	}
	oci_json_value_free(root);
	free(ctx.path.text);
	if (rc < 0) {
		if (dst)
			free_fn(dst);
		set_errmsg(errmsg, ctx.error);
		return -1;
	}
	free(ctx.error);
	*out = dst;
	return 0;
}
