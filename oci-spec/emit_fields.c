/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Field writers for the config.json emitter: one per kind of Go struct
 * field (plain, omitempty, pointer), so emit_spec*.c read like the Go
 * structs they mirror. */
#include "emit_fields.h"
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oci_gen_uint(struct gen *gen, uint64_t value)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%llu", (unsigned long long)value);

	if (!gen->failed && yajl_gen_number(gen->g, buf, (size_t)n) != yajl_gen_status_ok)
		gen->failed = true;
}

/* A Go string with omitempty. */
void oci_key_string(struct gen *gen, const char *key, const char *value)
{
	if (value == NULL || value[0] == '\0')
		return;
	oci_gen_key(gen, key);
	oci_gen_string(gen, value);
}

/* A Go string without omitempty: always present, "" when NULL. */
void oci_key_string_always(struct gen *gen, const char *key, const char *value)
{
	oci_gen_key(gen, key);
	oci_gen_string(gen, value ? value : "");
}

void oci_key_int(struct gen *gen, const char *key, bool present, long long value)
{
	if (!present)
		return;
	oci_gen_key(gen, key);
	oci_gen_int(gen, value);
}

void oci_key_uint(struct gen *gen, const char *key, bool present, uint64_t value)
{
	if (!present)
		return;
	oci_gen_key(gen, key);
	oci_gen_uint(gen, value);
}

void oci_key_bool(struct gen *gen, const char *key, bool present, bool value)
{
	if (!present)
		return;
	oci_gen_key(gen, key);
	oci_gen_bool(gen, value);
}

void oci_key_strv(struct gen *gen, const char *key, char **strv, size_t len)
{
	if (len)
		oci_gen_key_strv(gen, key, (const char *const *)strv, len);
}

void oci_key_map(struct gen *gen, const char *key, const struct oci_map *map)
{
	if (map->len == 0)
		return;
	oci_gen_key(gen, key);
	oci_gen_sorted_map(gen, map);
}

void oci_key_object_array(struct gen *gen, const char *key, const void *items, size_t len,
			  size_t size, oci_gen_item_fn gen_item)
{
	size_t i;

	if (len == 0)
		return;
	oci_gen_key(gen, key);
	oci_gen_array_open(gen);
	for (i = 0; i < len; i++) {
		oci_gen_map_open(gen);
		gen_item(gen, (const char *)items + i * size);
		oci_gen_map_close(gen);
	}
	oci_gen_array_close(gen);
}

void oci_key_object_map(struct gen *gen, const char *key, const void *items, size_t len,
			size_t size, size_t offset, oci_gen_item_fn gen_item)
{
	size_t i, *order;

	if (len == 0)
		return;
	order = oci_sorted_order(items, len, size, offset);
	if (order == NULL)
		gen->failed = true;
	oci_gen_key(gen, key);
	oci_gen_map_open(gen);
	for (i = 0; order && i < len; i++) {
		const char *item = (const char *)items + order[i] * size;

		oci_gen_key(gen, *(char *const *)(item + offset));
		oci_gen_map_open(gen);
		gen_item(gen, item);
		oci_gen_map_close(gen);
	}
	oci_gen_map_close(gen);
	free(order);
}

static void gen_id_mapping(struct gen *gen, const void *item)
{
	const struct oci_id_mapping *m = item;

	oci_key_uint(gen, "containerID", true, m->container_id);
	oci_key_uint(gen, "hostID", true, m->host_id);
	oci_key_uint(gen, "size", true, m->size);
}

void oci_key_id_mappings(struct gen *gen, const char *key, const struct oci_id_mapping *maps,
			 size_t len)
{
	oci_key_object_array(gen, key, maps, len, sizeof(*maps), gen_id_mapping);
}

/* Indices 0..len-1 ordered by the string at `offset` in each element. */
size_t *oci_sorted_order(const void *items, size_t len, size_t size, size_t offset)
{
	size_t *order = calloc(len ? len : 1, sizeof(*order));
	size_t i, j;

	if (order == NULL)
		return NULL;
	for (i = 0; i < len; i++) {
		const char *key = *(char *const *)((const char *)items + i * size + offset);

		for (j = i; j > 0; j--) {
			const char *prev = *(char *const *)((const char *)items +
							    order[j - 1] * size + offset);

			if (strcmp(prev, key) <= 0)
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
	return order;
}
