/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bound on the containers below a kcrun container (descendants.h). */
#include "descendants.h"

#include <errno.h>
#include <stdlib.h>

int kc_max_descendants(const struct oci_map *annotations, uint32_t *max, kc_error_t *err)
{
	const char *value = annotations ? oci_map_get(annotations, KC_MAX_CONTAINERS_ANNOTATION) : NULL;
	char *end;
	long n;

	*max = KC_MAX_CONTAINERS_DEFAULT;
	if (!value)
		return 0;
	errno = 0;
	n = strtol(value, &end, 10);
	if (*value < '0' || *value > '9' || *end || errno || n > KC_MAX_CONTAINERS_LIMIT)
		return kc_error_set(err, 0,
				    "annotations[\"%s\"]: \"%s\" is not a number of containers "
				    "from 0 to %ld",
				    KC_MAX_CONTAINERS_ANNOTATION, value, KC_MAX_CONTAINERS_LIMIT);
	*max = (uint32_t)n;
	return 0;
}
