/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The systemd cgroup driver, its pure half: which unit a container gets
 * and which properties that unit is started with.  Nothing here talks to
 * systemd (systemd_scope.h does).
 *
 * Names follow runc's systemd driver, so engines find the scope where they
 * look for it:
 *   linux.cgroupsPath "slice:prefix:name"
 *     slice   the parent slice; "" -> system.slice (user.slice rootless),
 *             "-" or "-.slice" -> the root slice; dashes nest
 *             ("a-b.slice" lives in a.slice); no "/"
 *     unit    "prefix-name.scope" ("name.scope" with an empty prefix)
 *   ""        as ":kcrun:<id>"
 * A name ending in ".slice" would make a slice, which holds no process:
 * refused (kcrun's init needs a scope).
 *
 * Properties: Description, Slice, Delegate=yes, DefaultDependencies=no
 * (so that stopping the unit at shutdown is the engine's business), the
 * accounting switches, the resources systemd knows (MemoryMax, MemoryLow,
 * MemorySwapMax, CPUWeight, CPUQuotaPerSecUSec, CPUQuotaPeriodUSec,
 * TasksMax) and the config's "org.systemd.property.NAME" annotations,
 * whose values are GVariant text as runc reads them ("uint64 123",
 * "'text'", "true", "42"). */
#ifndef KCRUN_SYSTEMD_UNIT_H
#define KCRUN_SYSTEMD_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

#define KC_SYSTEMD_PROPERTY_ANNOTATION "org.systemd.property."

struct kc_systemd_unit {
	char *slice; /* "system.slice" */
	char *name;  /* "kcrun-<id>.scope" */
};

/* cgroups_path NULL or "": the default for id.  Errors name
 * linux.cgroupsPath and say what is wrong with it. */
int kc_systemd_unit_from_path(const char *cgroups_path, const char *id, bool rootless,
			      struct kc_systemd_unit *unit, kc_error_t *err);
void kc_systemd_unit_free(struct kc_systemd_unit *unit);

/* "a-b.slice" -> "/a.slice/a-b.slice", "-.slice" -> "" (the root): the
 * cgroup directory of a slice below the root of systemd's tree. */
int kc_systemd_slice_dir(const char *slice, char **dir, kc_error_t *err);

/* One unit property, typed as systemd's bus API wants it. */
enum kc_unit_prop_type {
	KC_PROP_STRING = 's',
	KC_PROP_BOOL = 'b',
	KC_PROP_INT32 = 'i',
	KC_PROP_UINT32 = 'u',
	KC_PROP_INT64 = 'x',
	KC_PROP_UINT64 = 't',
	KC_PROP_DOUBLE = 'd',
};

struct kc_unit_prop {
	char *name;
	enum kc_unit_prop_type type;
	union {
		char *s;
		bool b;
		int64_t i;
		uint64_t u;
		double d;
	} value;
};

struct kc_unit_props {
	struct kc_unit_prop *props;
	size_t len;
};

/* The resources systemd knows, from linux.resources (NULL: none). */
int kc_unit_props_from_resources(struct kc_unit_props *props, const struct oci_resources *resources,
				 kc_error_t *err);
/* Every "org.systemd.property.NAME" annotation; errors name the annotation. */
int kc_unit_props_from_annotations(struct kc_unit_props *props, const struct oci_map *annotations,
				   kc_error_t *err);
/* The fixed ones of a container's scope. */
int kc_unit_props_for_scope(struct kc_unit_props *props, const struct kc_systemd_unit *unit,
			    const char *id, kc_error_t *err);
/* The last one of a name wins (an annotation overrides a resource). */
const struct kc_unit_prop *kc_unit_props_find(const struct kc_unit_props *props, const char *name);
void kc_unit_props_free(struct kc_unit_props *props);

/* A GVariant text value as runc takes it from an annotation:
 * "uint64 5", "int64 -1", "uint32 7", "int32 7", "double 0.5",
 * "true"/"false", "'text'" or "\"text\"", a bare integer (int32, as GVariant
 * reads one).  Anything else is refused. */
int kc_unit_prop_parse(const char *name, const char *text, struct kc_unit_prop *prop,
		       kc_error_t *err);

#endif
