/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers for the oci-spec tests. */
#ifndef OCI_SPEC_TESTS_HELPERS_H
#define OCI_SPEC_TESTS_HELPERS_H

#include "tap.h"
#include "oci-spec/spec.h"

#include <stdlib.h>
#include <string.h>

/* Parses json (a C string); on failure reports the message and returns NULL. */
static inline struct oci_spec *parse_ok_at(const char *file, int line, const char *json)
{
	struct oci_spec *spec = NULL;
	char *err = NULL;

	if (oci_spec_parse_string(json, strlen(json), &spec, &err) < 0) {
		tap_fail(file, line, "parse failed: %s", err ? err : "(no message)");
		free(err);
		return NULL;
	}
	if (err != NULL)
		tap_fail(file, line, "errmsg set on success");
	return spec;
}
#define parse_ok(json) parse_ok_at(__FILE__, __LINE__, json)

/* Expects parsing to fail with exactly `expected` as the message. */
static inline bool parse_fails_at(const char *file, int line, const char *json, size_t len,
				  const char *expected)
{
	struct oci_spec *spec = (struct oci_spec *)1;
	char *err = NULL;
	bool ok = true;

	if (oci_spec_parse_string(json, len, &spec, &err) == 0) {
		oci_spec_free(spec);
		return tap_fail(file, line, "parse succeeded, expected: %s", expected);
	}
	if (spec != NULL)
		ok = tap_fail(file, line, "*out not NULL on failure");
	if (err == NULL || strcmp(err, expected) != 0)
		ok = tap_fail(file, line, "error message:\n#   got:      %s\n#   expected: %s",
			      err ? err : "(null)", expected);
	free(err);
	return ok;
}
#define parse_fails(json, expected) parse_fails_at(__FILE__, __LINE__, json, strlen(json), expected)
#define parse_fails_len(json, len, expected) parse_fails_at(__FILE__, __LINE__, json, len, expected)

/* A minimal valid config with `extra` spliced in as more top-level fields. */
#define MINIMAL(extra) "{\"ociVersion\": \"1.2.0\"" extra "}"
/* ... and with a valid process around `extra` process fields. */
#define WITH_PROCESS(extra) MINIMAL(", \"process\": {\"args\": [\"sh\"], \"cwd\": \"/\"" extra "}")
#define WITH_LINUX(extra) MINIMAL(", \"linux\": {" extra "}")

#endif
