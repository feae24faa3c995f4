/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How many kernel containers may exist below a kcrun container at once:
 * the bound kcrun gives container_create() (CONTAINER_MAX_DESCENDANTS), as
 * pids.max bounds tasks.  Without it, the root of a container without a
 * user namespace of its own could make containers until it used up the
 * host root's /proc/sys/user/max_containers.  A small default; the
 * annotation raises (or lowers) it. */
#ifndef KCRUN_DESCENDANTS_H
#define KCRUN_DESCENDANTS_H

#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

#define KC_MAX_CONTAINERS_ANNOTATION "org.kcrun.max-containers"
/* Enough for a runtime or two nested in the container (podman in kcrun). */
#define KC_MAX_CONTAINERS_DEFAULT 16
#define KC_MAX_CONTAINERS_LIMIT 2147483647L

/* The bound for a container with these annotations: the annotation's
 * value (a decimal number from 0 to 2147483647) or the default.  A bad
 * value is an error naming the annotation. */
int kc_max_descendants(const struct oci_map *annotations, uint32_t *max, kc_error_t *err);

#endif
