/* SPDX-License-Identifier: GPL-2.0-or-later */
/* yajl_gen wrapper used by the emitters (see emit_gen.h). */
#include "emit_gen.h"
#include "json_format.h"
#include "spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void check(struct gen *gen, yajl_gen_status st)
{
	if (st != yajl_gen_status_ok)
		gen->failed = true;
}

int oci_gen_begin(struct gen *gen)
{
	gen->failed = false;
	gen->g = yajl_gen_alloc(NULL);
	if (gen->g == NULL) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void oci_gen_string(struct gen *gen, const char *value)
{
	if (!gen->failed)
		check(gen, yajl_gen_string(gen->g, (const unsigned char *)value, strlen(value)));
}

void oci_gen_key(struct gen *gen, const char *key)
{
	oci_gen_string(gen, key);
}

void oci_gen_int(struct gen *gen, long long value)
{
	if (!gen->failed)
		check(gen, yajl_gen_integer(gen->g, value));
}

void oci_gen_bool(struct gen *gen, bool value)
{
	if (!gen->failed)
		check(gen, yajl_gen_bool(gen->g, value));
}

void oci_gen_map_open(struct gen *gen)
{
	if (!gen->failed)
		check(gen, yajl_gen_map_open(gen->g));
}

void oci_gen_map_close(struct gen *gen)
{
	if (!gen->failed)
		check(gen, yajl_gen_map_close(gen->g));
}

void oci_gen_array_open(struct gen *gen)
{
	if (!gen->failed)
		check(gen, yajl_gen_array_open(gen->g));
}

void oci_gen_array_close(struct gen *gen)
{
	if (!gen->failed)
		check(gen, yajl_gen_array_close(gen->g));
}

void oci_gen_key_strv(struct gen *gen, const char *key, const char *const *strv, size_t len)
{
	size_t i;

	oci_gen_key(gen, key);
	oci_gen_array_open(gen);
	for (i = 0; i < len; i++)
		oci_gen_string(gen, strv[i]);
	oci_gen_array_close(gen);
}

static int compare_entries(const void *a, const void *b)
{
	const struct oci_map_entry *const *ea = a, *const *eb = b;

	return strcmp((*ea)->key, (*eb)->key);
}

void oci_gen_sorted_map(struct gen *gen, const struct oci_map *map)
{
	const struct oci_map_entry **sorted;
	size_t i;

	if (gen->failed)
		return;
	sorted = calloc(map->len ? map->len : 1, sizeof(*sorted));
	if (sorted == NULL) {
		gen->failed = true;
		return;
	}
	for (i = 0; i < map->len; i++)
		sorted[i] = &map->entries[i];
	qsort(sorted, map->len, sizeof(*sorted), compare_entries);
	oci_gen_map_open(gen);
	for (i = 0; i < map->len; i++) {
		oci_gen_key(gen, sorted[i]->key);
		oci_gen_string(gen, sorted[i]->value);
	}
	oci_gen_map_close(gen);
	free(sorted);
}

int oci_gen_finish(struct gen *gen, const char *indent, bool newline, char **out)
{
	const unsigned char *buf;
	size_t len;
	int rc;

	if (gen->failed || yajl_gen_get_buf(gen->g, &buf, &len) != yajl_gen_status_ok) {
		yajl_gen_free(gen->g);
		errno = gen->failed ? EINVAL : ENOMEM;
		return -1;
	}
	rc = oci_json_format_go((const char *)buf, len, indent, newline, out);
	yajl_gen_free(gen->g);
	return rc;
}
