/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: typed field readers shared by the parse_*.c files.
 *
 * Every reader looks a field up in a JSON object, checks its type and range,
 * and on failure records "<json path>: <reason>" in the context and returns
 * -1.  A field that is absent or JSON null counts as absent (as with Go's
 * decoder, which runc uses).  Readers store into the destination struct as
 * they go, so on failure the caller frees the partly filled spec with the
 * ordinary free functions.
 */
#ifndef OCI_SPEC_PARSE_CTX_H
#define OCI_SPEC_PARSE_CTX_H

#include "json_tree.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct parse_ctx {
	struct path_buf path; /* JSON path of the value being read */
	char *error;	      /* first error, "<path>: <reason>" */
	const char *source;   /* names the document when the path is empty */
};

/* Records an error at the current path (plus `key` if not NULL). Returns -1. */
int oci_ctx_fail(struct parse_ctx *ctx, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records "expected <what>, got <type of v>" at the current path. Returns -1. */
int oci_ctx_type_error(struct parse_ctx *ctx, const char *what, const struct json_value *v);

/* Path handling: enter_key/enter_index return the previous path length for
 * oci_ctx_leave(), or (size_t)-1 on ENOMEM (after recording the error). */
size_t oci_ctx_enter_key(struct parse_ctx *ctx, const char *key);
size_t oci_ctx_enter_index(struct parse_ctx *ctx, size_t index);
void oci_ctx_leave(struct parse_ctx *ctx, size_t mark);

/* The value under key, or NULL when absent or null. */
const struct json_value *oci_ctx_field(const struct json_value *obj, const char *key);

/* Maximum length of path-like strings. */
#define OCI_PATH_MAX_LEN (PATH_MAX - 1)

/* Value readers: the value is the one the current path points at. */
int oci_read_string(struct parse_ctx *ctx, const struct json_value *v, size_t maxlen, char **out);
int oci_read_int(struct parse_ctx *ctx, const struct json_value *v, int64_t min, int64_t max,
		 int64_t *out);
int oci_read_uint(struct parse_ctx *ctx, const struct json_value *v, uint64_t max, uint64_t *out);

/* Field readers: `required` makes absence an error; `has` may be NULL. */
int oci_get_string(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		   bool required, size_t maxlen, char **out);
int oci_get_bool(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		 bool required, bool *has, bool *out);
int oci_get_i64(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, int64_t *out);
int oci_get_i32(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, int32_t *out);
int oci_get_int_range(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		      bool required, int64_t min, int64_t max, bool *has, int64_t *out);
int oci_get_u64(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint64_t *out);
int oci_get_u32(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint32_t *out);
int oci_get_u16(struct parse_ctx *ctx, const struct json_value *obj, const char *key, bool required,
		bool *has, uint16_t *out);

/* Array of strings; absent or empty gives NULL/0. */
int oci_get_strv(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		 size_t maxlen, char ***out, size_t *out_len);

/* Array of objects: allocates a zeroed array of `len` elements of `size`
 * bytes, stores it in *out and *out_len before converting, then calls
 * convert(ctx, element_json, element_ptr) for each element with the path
 * pointing at "key[i]".  Elements that are not objects are rejected. */
typedef int (*convert_fn)(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_get_object_array(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
			 size_t size, convert_fn convert, void **out, size_t *out_len);

/* Optional object: allocates *out (zeroed, `size` bytes) if present. */
int oci_get_object(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		   bool required, size_t size, convert_fn convert, void **out);

/* Map of strings to strings (annotations, sysctl, unified). Keys must be
 * non-empty. */
struct oci_map;
int oci_get_string_map(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		       struct oci_map *out);

/* Map of objects: like oci_get_object_array, but convert also gets the key.
 * convert_keyed(ctx, key, element_json, element_ptr). */
typedef int (*convert_keyed_fn)(struct parse_ctx *ctx, const char *key,
				const struct json_value *obj, void *dst);
int oci_get_object_map(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		       size_t size, convert_keyed_fn convert, void **out, size_t *out_len);

/* Fails unless s is an absolute path. `key` as for oci_ctx_fail. */
int oci_check_absolute(struct parse_ctx *ctx, const char *key, const char *s);

/* Parses a whole document: size limit, JSON syntax, top level must be an
 * object, then convert(ctx, root, dst) on a zeroed allocation of `size`
 * bytes, freed with free_fn on failure.  `source` names the document in
 * messages that have no JSON path.  0 and *out set, or -1 and *errmsg. */
int oci_parse_document(const char *json, size_t len, const char *source, size_t size,
		       convert_fn convert, void (*free_fn)(void *), void **out, char **errmsg);
/* The same for a part of config.json on its own: its errors are named from
 * the NULL-terminated keys down ({"linux", "resources", NULL}:
 * "linux.resources.memory.limit: ..."). */
int oci_parse_document_at(const char *json, size_t len, const char *source,
			  const char *const *keys, size_t size, convert_fn convert,
			  void (*free_fn)(void *), void **out, char **errmsg);

/* Section converters (parse_*.c). */
int oci_parse_process(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_parse_hooks(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_parse_linux(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_parse_resources(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_parse_seccomp(struct parse_ctx *ctx, const struct json_value *obj, void *dst);
int oci_parse_id_mapping(struct parse_ctx *ctx, const struct json_value *obj, void *dst);

#endif
