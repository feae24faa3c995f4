/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: a JSON document tree built from yajl's event parser.
 *
 * Unlike yajl_tree this keeps string lengths (so embedded NULs are caught),
 * the raw text of numbers (so integer ranges are checked exactly), and
 * enforces the limits in spec.h while parsing: nesting depth, string length.
 * The tree is built with an explicit stack, and the depth limit bounds the
 * recursion of oci_json_value_free().
 */
#ifndef OCI_SPEC_JSON_TREE_H
#define OCI_SPEC_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value {
	enum json_type type;
	union {
		bool boolean;
		struct {
			char *text; /* NUL-terminated; for numbers, the raw text */
			size_t len;
		} string;
		struct {
			struct json_value **items;
			size_t len;
			size_t cap;
		} array;
		struct {
			char **keys; /* no embedded NULs (checked) */
			struct json_value **values;
			size_t len;
			size_t cap;
		} object;
	} u;
};

/* Parses `len` bytes of `text`.  On failure returns NULL and sets *errmsg to
 * "<source>: parse error at line L, column C: <reason>" or, for a limit, to
 * "<json path>: <reason>".  `source` names the document in messages. */
struct json_value *oci_json_parse(const char *text, size_t len, const char *source, char **errmsg);

void oci_json_value_free(struct json_value *value);

/* "string", "number", ... as used in "expected X, got Y" messages. */
const char *oci_json_type_name(enum json_type type);

/* Last value stored under key (JSON allows duplicates; like Go, the last one
 * wins), or NULL.  obj must be an object. */
const struct json_value *oci_json_object_get(const struct json_value *obj, const char *key);

/* Sets keep[i] (obj->u.object.len entries) to whether entry i is the last
 * one with its key, in O(n log n).  Returns 0 or -1 (ENOMEM). */
int oci_json_object_last_keys(const struct json_value *obj, bool *keep);

/* Appends a path segment for `key` to the path in buf (".key", or "key" at the
 * start, or `["odd key"]` for keys that are not plain identifiers). */
struct path_buf {
	char *text;
	size_t len;
	size_t cap;
};
int oci_path_push_key(struct path_buf *path, const char *key);
int oci_path_push_index(struct path_buf *path, size_t index);
void oci_path_truncate(struct path_buf *path, size_t len);

#endif
