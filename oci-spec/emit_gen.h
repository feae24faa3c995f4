/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: thin yajl_gen wrapper for the emitters.  Calls after a failure
 * are no-ops; oci_gen_finish() reports it.  Output goes through oci_json_format_go()
 * so it is laid out and escaped exactly as Go (runc) would. */
#ifndef OCI_SPEC_EMIT_GEN_H
#define OCI_SPEC_EMIT_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>

struct oci_map;

struct gen {
	yajl_gen g;
	bool failed;
};

int oci_gen_begin(struct gen *gen); /* 0 or -1 (ENOMEM) */
void oci_gen_key(struct gen *gen, const char *key);
void oci_gen_string(struct gen *gen, const char *value);
void oci_gen_int(struct gen *gen, long long value);
void oci_gen_bool(struct gen *gen, bool value);
void oci_gen_map_open(struct gen *gen);
void oci_gen_map_close(struct gen *gen);
void oci_gen_array_open(struct gen *gen);
void oci_gen_array_close(struct gen *gen);
/* "key": [ "a", "b" ] */
void oci_gen_key_strv(struct gen *gen, const char *key, const char *const *strv, size_t len);
/* A map with keys sorted bytewise, as Go marshals map[string]string. */
void oci_gen_sorted_map(struct gen *gen, const struct oci_map *map);
/* Formats (indent NULL = compact), frees the generator; 0 or -1 + errno. */
int oci_gen_finish(struct gen *gen, const char *indent, bool newline, char **out);

#endif
