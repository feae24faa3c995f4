/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: config.json as create reads it.  Any input either
 * parses (and then validates or is refused with a message) or fails with a
 * message and no spec; ASan/UBSan and the leak checker catch the rest. */
#include <stdint.h>
#include <stdlib.h>

#include "oci-spec/spec.h"

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
	oci_spec_free(spec);
	return 0;
}
