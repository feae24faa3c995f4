/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: <root>/<id>/state.json as every command after create
 * reads it (kc_state_parse, the parsing half of kc_state_read).  A state
 * file is kcrun's own, but a hostile or truncated one must fail cleanly;
 * one that parses is printed as `kcrun state` and `kcrun list` print it.
 * The oracle: what parses is written as kc_state_write would write it, and
 * that text parses again and writes the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/state.h"

/* write, parse what was written, write again: the same bytes */
static void round_trip(const struct kc_state *st)
{
	struct kc_state again;
	kc_error_t err = NULL;
	char *first = NULL, *second = NULL;
	size_t first_len, second_len;

	if (kc_state_to_json(st, &first, &first_len, &err) < 0) {
		kc_error_free(&err); /* out of memory */
		return;
	}
	if (kc_state_parse(first, st->id, &again, "state.json", &err) < 0)
		abort(); /* kcrun wrote a state file it cannot read */
	if (kc_state_to_json(&again, &second, &second_len, &err) < 0)
		kc_error_free(&err);
	else if (second_len != first_len || memcmp(first, second, first_len) != 0)
		abort();
	free(second);
	free(first);
	kc_state_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kc_state st;
	kc_error_t err = NULL;
	char *json = malloc(size + 1);

	if (json == NULL)
		return 0;
	/* kc_state_read NUL-terminates what it read; so does this */
	memcpy(json, data, size);
	json[size] = '\0';
	if (kc_state_parse(json, "fuzz", &st, "state.json", &err) < 0) {
		if (err == NULL)
			abort();
		kc_error_free(&err);
	} else {
		/* what `kcrun state` and `kcrun list` print of it */
		struct oci_state oci;
		char *out = NULL, created[64];

		kc_state_to_oci(&st, OCI_STATUS_STOPPED, 0, &oci);
		if (oci_state_to_json(&oci, &out) == 0)
			free(out);
		kc_format_time(&st.created, created, sizeof(created));
		round_trip(&st);
		kc_state_free(&st);
	}
	free(json);
	return 0;
}
