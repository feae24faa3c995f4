/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: config.json as create reads it.  Any input either
 * parses (and then validates or is refused with a message) or fails with a
 * message and no spec; ASan/UBSan and the leak checker catch the rest.
 * The oracle: a config that parses is emitted (oci_spec_to_json), and the
 * emitted text parses again and emits the same bytes: what the parser
 * keeps and what the serialiser writes are the same model. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oci-spec/spec.h"

/* emit, parse what was emitted, emit again: the same bytes */
static void round_trip(const struct oci_spec *spec)
{
	struct oci_spec *again = NULL;
	char *first = NULL, *second = NULL, *errmsg = NULL;

	if (oci_spec_to_json(spec, &first) < 0)
		return; /* out of memory */
	if (oci_spec_parse_string(first, strlen(first), &again, &errmsg) < 0)
		abort(); /* kcrun wrote a config.json it cannot read */
	if (oci_spec_to_json(again, &second) == 0 && strcmp(first, second) != 0)
		abort();
	free(second);
	free(first);
	oci_spec_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oci_spec *spec = NULL;
	char *errmsg = NULL;

	if (oci_spec_parse_string((const char *)data, size, &spec, &errmsg) < 0) {
		/* spec.h's contract: no spec, and a message that says why */
		if (spec != NULL || errmsg == NULL || errmsg[0] == '\0')
			abort();
		free(errmsg);
		return 0;
	}
	if (spec == NULL)
		abort();
	if (oci_spec_validate_for_create(spec, &errmsg) < 0 && (errmsg == NULL || errmsg[0] == '\0'))
		abort();
	free(errmsg);
	round_trip(spec);
	oci_spec_free(spec);
	return 0;
}
