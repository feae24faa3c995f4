/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The config.json fields kcrun parses but does not apply, refused before
 * anything is made, each error naming the JSON path and why: a field is
 * applied or refused, never dropped in silence, and `kcrun features`
 * (src/cli/features.c, oci-spec/emit.c) lists none of them. */
#ifndef KCRUN_UNSUPPORTED_H
#define KCRUN_UNSUPPORTED_H

#include "error.h"
#include "oci-spec/spec.h"

/* mounts[].uidMappings/gidMappings and the idmap/ridmap options (no
 * idmapped mounts: mountExtensions.idmap is false), linux.intelRdt (no
 * resctrl support). */
int kc_refuse_unsupported(const struct oci_spec *spec, kc_error_t *err);

#endif
