/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of descendants.c: the bound on the containers below a kcrun
 * container, from its annotation or the default; a bad value is refused
 * naming the annotation. */
#include "tap.h"
#include "src/lib/descendants.h"

static int bound_of(const char *value, uint32_t *max, kc_error_t *err)
{
	struct oci_map_entry entry = { .key = KC_MAX_CONTAINERS_ANNOTATION, .value = (char *)value };
	struct oci_map annotations = { .entries = &entry, .len = value ? 1 : 0 };

	return kc_max_descendants(&annotations, max, err);
}

void test_descendants(void)
{
	const char *bad[] = { "", "-1", "+3", " 3", "3x", "0x10", "2147483648",
			      "99999999999999999999" };
	kc_error_t err = NULL;
	uint32_t max = 0;
	size_t i;

	TAP_CALL_OK(bound_of(NULL, &max, &err), err, "descendants: no annotation is accepted");
	TAP_OK(max == KC_MAX_CONTAINERS_DEFAULT, "descendants: no annotation gives the default %d",
	       KC_MAX_CONTAINERS_DEFAULT);
	TAP_CALL_OK(kc_max_descendants(NULL, &max, &err), err,
		    "descendants: a config without annotations is accepted");
	TAP_OK(max == KC_MAX_CONTAINERS_DEFAULT, "descendants: ... and gets the default");
	TAP_CALL_OK(bound_of("0", &max, &err), err, "descendants: 0 is accepted");
	TAP_OK(max == 0, "descendants: 0 forbids nested containers");
	TAP_CALL_OK(bound_of("2147483647", &max, &err), err, "descendants: INT_MAX is accepted");
	TAP_OK(max == 2147483647u, "descendants: INT_MAX is kept");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		TAP_CALL_FAILS(bound_of(bad[i], &max, &err), err,
			       "annotations[\"org.kcrun.max-containers\"]",
			       "descendants: \"%s\" refused, naming the annotation", bad[i]);
}
