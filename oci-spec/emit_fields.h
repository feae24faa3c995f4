/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: field writers shared by emit_spec.c and emit_spec_linux.c. */
#ifndef OCI_SPEC_EMIT_FIELDS_H
#define OCI_SPEC_EMIT_FIELDS_H

#include "emit_gen.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct oci_map;
struct oci_id_mapping;
struct oci_linux;

void oci_gen_uint(struct gen *gen, uint64_t value);
/* A Go string with omitempty: nothing for NULL or "". */
void oci_key_string(struct gen *gen, const char *key, const char *value);
/* A Go string without omitempty: always present, "" when NULL. */
void oci_key_string_always(struct gen *gen, const char *key, const char *value);
/* Numbers and booleans, written only when `present`. */
void oci_key_int(struct gen *gen, const char *key, bool present, long long value);
void oci_key_uint(struct gen *gen, const char *key, bool present, uint64_t value);
void oci_key_bool(struct gen *gen, const char *key, bool present, bool value);
/* Arrays and maps with omitempty; maps sorted by key like Go's. */
void oci_key_strv(struct gen *gen, const char *key, char **strv, size_t len);
void oci_key_map(struct gen *gen, const char *key, const struct oci_map *map);
void oci_key_id_mappings(struct gen *gen, const char *key, const struct oci_id_mapping *maps,
			 size_t len);
/* An omitempty array of objects: nothing for len 0, else "key": [ {...} ]
 * with gen_item writing the fields of each of the `len` elements of
 * `size` bytes at `items` between the braces. */
typedef void (*oci_gen_item_fn)(struct gen *gen, const void *item);
void oci_key_object_array(struct gen *gen, const char *key, const void *items, size_t len,
			  size_t size, oci_gen_item_fn gen_item);
/* An object keyed by the string at `offset` in each element, in Go's sorted
 * map order: nothing for len 0, else "key": { "<name>": {...} } with
 * gen_item writing the fields of each element between the inner braces. */
void oci_key_object_map(struct gen *gen, const char *key, const void *items, size_t len,
			size_t size, size_t offset, oci_gen_item_fn gen_item);
/* Indices 0..len-1 ordered by the string at `offset` in each element of
 * `items` (elements of `size` bytes); malloc'ed, NULL on ENOMEM. */
size_t *oci_sorted_order(const void *items, size_t len, size_t size, size_t offset);

/* emit_spec_linux.c */
void oci_gen_linux(struct gen *gen, const struct oci_linux *linux_);

#endif
