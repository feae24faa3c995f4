// SPDX-License-Identifier: GPL-2.0-or-later
/* The systemd cgroup driver's names and unit properties (systemd_unit.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_resources.h"
#include "cleanup.h"
#include "systemd_unit.h"

#define KC_SYSTEMD_DEFAULT_PREFIX "kcrun"

/* ---------- names ---------- */

/* A slice name: "-.slice", or dash-separated non-empty words ending in
 * ".slice", no "/". */
static bool slice_name_valid(const char *slice)
{
	size_t len = strlen(slice);
	const char *p;

	if (strcmp(slice, "-.slice") == 0)
		return true;
	if (len <= strlen(".slice") || strcmp(slice + len - strlen(".slice"), ".slice") != 0)
		return false;
	if (strchr(slice, '/') || slice[0] == '-' || slice[len - strlen(".slice") - 1] == '-')
		return false;
	for (p = slice; *p; p++)
		if (p[0] == '-' && p[1] == '-')
			return false;
	return true;
}

static bool unit_word_valid(const char *word)
{
	return !strchr(word, '/') && !strchr(word, ':');
}

int kc_systemd_unit_from_path(const char *cgroups_path, const char *id, bool rootless,
			      struct kc_systemd_unit *unit, kc_error_t *err)
{
	cleanup_free char *copy = NULL;
	const char *slice = "", *prefix = KC_SYSTEMD_DEFAULT_PREFIX, *name = id;

	unit->slice = unit->name = NULL;
	if (cgroups_path && *cgroups_path) {
		char *first, *second;

		copy = strdup(cgroups_path);
		if (copy == NULL)
			return kc_error_set(err, ENOMEM, "linux.cgroupsPath");
		first = strchr(copy, ':');
		second = first ? strchr(first + 1, ':') : NULL;
		if (second == NULL || strchr(second + 1, ':'))
			return kc_error_set(err, EINVAL, "linux.cgroupsPath: expected \"slice:prefix:name\" "
					    "for systemd cgroups, got \"%s\"", cgroups_path);
		*first = *second = '\0';
		slice = copy;
		prefix = first + 1;
		name = second + 1;
	}
	if (*name == '\0' || !unit_word_valid(name) || !unit_word_valid(prefix))
		return kc_error_set(err, EINVAL, "linux.cgroupsPath: \"%s\": the unit's prefix and name "
				    "must not hold \"/\", and the name must not be empty",
				    cgroups_path ? cgroups_path : "");
	if (strlen(name) > strlen(".slice") && strcmp(name + strlen(name) - strlen(".slice"), ".slice") == 0)
		return kc_error_set(err, EINVAL, "linux.cgroupsPath: \"%s\" names a slice (%s): a slice "
				    "holds no process, kcrun places a container in a scope",
				    cgroups_path, name);
	if (*slice == '\0')
		slice = rootless ? "user.slice" : "system.slice";
	else if (strcmp(slice, "-") == 0)
		slice = "-.slice";
	if (!slice_name_valid(slice))
		return kc_error_set(err, EINVAL, "linux.cgroupsPath: \"%s\": \"%s\" is not a slice name "
				    "(dash-separated words ending in .slice, no \"/\")",
				    cgroups_path ? cgroups_path : "", slice);
	unit->slice = strdup(slice);
	if (asprintf(&unit->name, "%s%s%s.scope", prefix, *prefix ? "-" : "", name) < 0)
		unit->name = NULL;
	if (unit->slice == NULL || unit->name == NULL) {
		kc_systemd_unit_free(unit);
		return kc_error_set(err, ENOMEM, "linux.cgroupsPath");
	}
	return 0;
}

void kc_systemd_unit_free(struct kc_systemd_unit *unit)
{
	free(unit->slice);
	free(unit->name);
	unit->slice = unit->name = NULL;
}

int kc_systemd_slice_dir(const char *slice, char **dir, kc_error_t *err)
{
	size_t len = strlen(slice), stem_len, used = 0, cap;
	const char *dash;
	char *out;

	*dir = NULL;
	if (!slice_name_valid(slice))
		return kc_error_set(err, EINVAL, "\"%s\" is not a slice name", slice);
	if (strcmp(slice, "-.slice") == 0) {
		*dir = strdup("");
		return *dir ? 0 : kc_error_set(err, ENOMEM, "slice");
	}
	stem_len = len - strlen(".slice");
	/* every prefix up to a dash is a level: "/a.slice/a-b.slice" */
	cap = (stem_len + strlen("/.slice")) * (stem_len + 1) + 1;
	out = malloc(cap);
	if (out == NULL)
		return kc_error_set(err, ENOMEM, "slice");
	for (dash = slice;; dash++) {
		dash = memchr(dash, '-', stem_len - (size_t)(dash - slice));
		if (dash == NULL)
			dash = slice + stem_len;
		used += (size_t)snprintf(out + used, cap - used, "/%.*s.slice", (int)(dash - slice), slice);
		if (dash == slice + stem_len)
			break;
	}
	*dir = out;
	return 0;
}

/* ---------- properties ---------- */

static struct kc_unit_prop *prop_add(struct kc_unit_props *props, const char *name,
				     enum kc_unit_prop_type type, kc_error_t *err)
{
	struct kc_unit_prop *grown = realloc(props->props, (props->len + 1) * sizeof(*grown));
	struct kc_unit_prop *prop;

	if (grown == NULL) {
		kc_error_set(err, ENOMEM, "unit properties");
		return NULL;
	}
	props->props = grown;
	prop = &grown[props->len];
	memset(prop, 0, sizeof(*prop));
	prop->name = strdup(name);
	if (prop->name == NULL) {
		kc_error_set(err, ENOMEM, "unit properties");
		return NULL;
	}
	prop->type = type;
	props->len++;
	return prop;
}

static int add_u64(struct kc_unit_props *props, const char *name, uint64_t value, kc_error_t *err)
{
	struct kc_unit_prop *prop = prop_add(props, name, KC_PROP_UINT64, err);

	if (prop == NULL)
		return -1;
	prop->value.u = value;
	return 0;
}

static int add_bool(struct kc_unit_props *props, const char *name, bool value, kc_error_t *err)
{
	struct kc_unit_prop *prop = prop_add(props, name, KC_PROP_BOOL, err);

	if (prop == NULL)
		return -1;
	prop->value.b = value;
	return 0;
}

static int add_string(struct kc_unit_props *props, const char *name, const char *value,
		      kc_error_t *err)
{
	struct kc_unit_prop *prop = prop_add(props, name, KC_PROP_STRING, err);

	if (prop == NULL)
		return -1;
	prop->value.s = strdup(value);
	return prop->value.s ? 0 : kc_error_set(err, ENOMEM, "unit properties");
}

static int memory_props(struct kc_unit_props *props, const struct oci_memory *memory,
			kc_error_t *err)
{
	char swap[32];

	if (memory->has_limit && memory->limit != 0 &&
	    add_u64(props, "MemoryMax", memory->limit < 0 ? UINT64_MAX : (uint64_t)memory->limit, err) < 0)
		return -1;
	if (memory->has_reservation && memory->reservation != 0 &&
	    add_u64(props, "MemoryLow", memory->reservation < 0 ? UINT64_MAX : (uint64_t)memory->reservation,
		    err) < 0)
		return -1;
	if (memory->has_swap) {
		if (kc_cgroup_swap_max(memory->swap, memory->has_limit ? memory->limit : 0, swap, err) < 0)
			return kc_error_about(err, "linux.resources.memory.swap");
		if (strcmp(swap, "max") == 0)
			return add_u64(props, "MemorySwapMax", UINT64_MAX, err);
		if (*swap)
			return add_u64(props, "MemorySwapMax", strtoull(swap, NULL, 10), err);
	}
	return 0;
}

/* runc's conversion: systemd takes a quota per second in steps of 1%
 * (10 ms), rounded up; "no quota" is infinity. */
static int cpu_props(struct kc_unit_props *props, const struct oci_cpu *cpu, kc_error_t *err)
{
	uint64_t period = cpu->has_period ? cpu->period : 0;
	int64_t quota = cpu->has_quota ? cpu->quota : 0;

	if (cpu->has_shares && cpu->shares != 0 &&
	    add_u64(props, "CPUWeight", kc_cgroup_cpu_shares_to_weight(cpu->shares), err) < 0)
		return -1;
	if (period != 0 && add_u64(props, "CPUQuotaPeriodUSec", period, err) < 0)
		return -1;
	if (quota != 0 || period != 0) {
		uint64_t per_sec = UINT64_MAX;

		if (quota > 0) {
			if (period == 0)
				period = 100000;
			per_sec = (uint64_t)quota * 1000000 / period;
			if (per_sec % 10000)
				per_sec = (per_sec / 10000 + 1) * 10000;
		}
		if (add_u64(props, "CPUQuotaPerSecUSec", per_sec, err) < 0)
			return -1;
	}
	return 0;
}

int kc_unit_props_from_resources(struct kc_unit_props *props, const struct oci_resources *resources,
				 kc_error_t *err)
{
	if (resources == NULL)
		return 0;
	if (resources->memory && memory_props(props, resources->memory, err) < 0)
		return -1;
	if (resources->cpu && cpu_props(props, resources->cpu, err) < 0)
		return -1;
	/* 0 or less is no limit (runtime-spec 1.2.1; podman 4 writes 0 for
	 * --pids-limit -1): infinity, or a scope gets systemd's
	 * DefaultTasksMax, which cgroupfs never sets */
	if (resources->pids && resources->pids->has_limit &&
	    add_u64(props, "TasksMax", resources->pids->limit <= 0 ? UINT64_MAX : (uint64_t)resources->pids->limit,
		    err) < 0)
		return -1;
	return 0;
}

int kc_unit_props_for_scope(struct kc_unit_props *props, const struct kc_systemd_unit *unit,
			    const char *id, kc_error_t *err)
{
	char description[512];

	snprintf(description, sizeof(description), "kcrun container %s", id);
	if (add_string(props, "Description", description, err) < 0 ||
	    add_string(props, "Slice", unit->slice, err) < 0 ||
	    add_bool(props, "Delegate", true, err) < 0 ||
	    add_bool(props, "DefaultDependencies", false, err) < 0 ||
	    add_bool(props, "MemoryAccounting", true, err) < 0 ||
	    add_bool(props, "CPUAccounting", true, err) < 0 ||
	    add_bool(props, "IOAccounting", true, err) < 0 ||
	    add_bool(props, "TasksAccounting", true, err) < 0)
		return -1;
	return 0;
}

/* "uint64 5" and the like: a GVariant type keyword, one space, a number. */
static int parse_typed_number(const char *text, struct kc_unit_prop *prop)
{
	static const struct {
		const char *keyword;
		enum kc_unit_prop_type type;
	} keywords[] = {
		{"uint64 ", KC_PROP_UINT64}, {"int64 ", KC_PROP_INT64}, {"uint32 ", KC_PROP_UINT32},
		{"int32 ", KC_PROP_INT32},   {"double ", KC_PROP_DOUBLE},
	};
	size_t i;
	char *end;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		const char *number = text + strlen(keywords[i].keyword);

		if (strncmp(text, keywords[i].keyword, strlen(keywords[i].keyword)) != 0)
			continue;
		errno = 0;
		prop->type = keywords[i].type;
		switch (prop->type) {
		case KC_PROP_UINT64:
		case KC_PROP_UINT32:
			if (*number == '-')
				return -1;
			prop->value.u = strtoull(number, &end, 10);
			if (prop->type == KC_PROP_UINT32 && prop->value.u > UINT32_MAX)
				return -1;
			break;
		case KC_PROP_DOUBLE:
			prop->value.d = strtod(number, &end);
			if (!isfinite(prop->value.d))
				return -1;
			break;
		default:
			prop->value.i = strtoll(number, &end, 10);
			if (prop->type == KC_PROP_INT32 &&
			    (prop->value.i > INT32_MAX || prop->value.i < INT32_MIN))
				return -1;
			break;
		}
		return errno || end == number || *end ? -1 : 0;
	}
	return -1;
}

static int parse_value(const char *text, struct kc_unit_prop *prop)
{
	size_t len = strlen(text);
	char *end;

	if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
		prop->type = KC_PROP_BOOL;
		prop->value.b = text[0] == 't';
		return 0;
	}
	if (len >= 2 && (text[0] == '\'' || text[0] == '"') && text[len - 1] == text[0]) {
		if (memchr(text + 1, text[0], len - 2) || memchr(text + 1, '\\', len - 2))
			return -1; /* no escapes: a quote inside is not ours to read */
		prop->type = KC_PROP_STRING;
		prop->value.s = strndup(text + 1, len - 2);
		return prop->value.s ? 0 : -1;
	}
	if ((text[0] >= '0' && text[0] <= '9') || text[0] == '-') {
		errno = 0;
		prop->type = KC_PROP_INT32;
		prop->value.i = strtoll(text, &end, 10);
		return errno || *end || prop->value.i > INT32_MAX || prop->value.i < INT32_MIN ? -1 : 0;
	}
	return parse_typed_number(text, prop);
}

/* "TimeoutStopSec" with a number of seconds: systemd's property is
 * TimeoutStopUSec, in microseconds (as runc converts it). */
static int seconds_to_usec(struct kc_unit_prop *prop)
{
	size_t len = strlen(prop->name);
	double seconds;
	char *usec_name;

	if (len <= 3 || strcmp(prop->name + len - 3, "Sec") != 0 ||
	    (len > 4 && prop->name[len - 4] == 'U'))
		return 0;
	switch (prop->type) {
	case KC_PROP_UINT64:
	case KC_PROP_UINT32:
		seconds = (double)prop->value.u;
		break;
	case KC_PROP_INT64:
	case KC_PROP_INT32:
		if (prop->value.i < 0)
			return -1;
		seconds = (double)prop->value.i;
		break;
	case KC_PROP_DOUBLE:
		if (prop->value.d < 0)
			return -1;
		seconds = prop->value.d;
		break;
	default:
		return -1;
	}
	if (seconds * 1e6 >= 18446744073709551615.0)
		return -1;
	if (asprintf(&usec_name, "%.*sUSec", (int)(len - 3), prop->name) < 0)
		return -1;
	free(prop->name);
	prop->name = usec_name;
	prop->type = KC_PROP_UINT64;
	prop->value.u = (uint64_t)(seconds * 1e6);
	return 0;
}

int kc_unit_prop_parse(const char *name, const char *text, struct kc_unit_prop *prop,
		       kc_error_t *err)
{
	const char *p;

	memset(prop, 0, sizeof(*prop));
	if (*name == '\0')
		return kc_error_set(err, EINVAL, "annotations.\"%s\": no property name",
				    KC_SYSTEMD_PROPERTY_ANNOTATION);
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return kc_error_set(err, EINVAL, "annotations.\"%s%s\": not a systemd property name",
					    KC_SYSTEMD_PROPERTY_ANNOTATION, name);
	prop->name = strdup(name);
	if (prop->name == NULL)
		return kc_error_set(err, ENOMEM, "annotations");
	if (parse_value(text, prop) < 0 || seconds_to_usec(prop) < 0) {
		kc_error_set(err, EINVAL, "annotations.\"%s%s\": \"%s\" is not a value kcrun reads "
			     "(GVariant text: 'string', true, false, 42, uint64 42, int64 -1, uint32 7, "
			     "double 0.5)", KC_SYSTEMD_PROPERTY_ANNOTATION, name, text);
		free(prop->name);
		if (prop->type == KC_PROP_STRING)
			free(prop->value.s);
		memset(prop, 0, sizeof(*prop));
		return -1;
	}
	return 0;
}

int kc_unit_props_from_annotations(struct kc_unit_props *props, const struct oci_map *annotations,
				   kc_error_t *err)
{
	size_t prefix_len = strlen(KC_SYSTEMD_PROPERTY_ANNOTATION), i;

	if (annotations == NULL)
		return 0;
	for (i = 0; i < annotations->len; i++) {
		const char *key = annotations->entries[i].key;
		struct kc_unit_prop parsed, *slot;

		if (strncmp(key, KC_SYSTEMD_PROPERTY_ANNOTATION, prefix_len) != 0)
			continue;
		if (kc_unit_prop_parse(key + prefix_len, annotations->entries[i].value, &parsed, err) < 0)
			return -1;
		slot = prop_add(props, parsed.name, parsed.type, err);
		if (slot == NULL) {
			free(parsed.name);
			if (parsed.type == KC_PROP_STRING)
				free(parsed.value.s);
			return -1;
		}
		free(slot->name);
		*slot = parsed;
	}
	return 0;
}

const struct kc_unit_prop *kc_unit_props_find(const struct kc_unit_props *props, const char *name)
{
	size_t i;

	for (i = props->len; i > 0; i--)
		if (strcmp(props->props[i - 1].name, name) == 0)
			return &props->props[i - 1];
	return NULL;
}

void kc_unit_props_free(struct kc_unit_props *props)
{
	size_t i;

	for (i = 0; i < props->len; i++) {
		free(props->props[i].name);
		if (props->props[i].type == KC_PROP_STRING)
			free(props->props[i].value.s);
	}
	free(props->props);
	props->props = NULL;
	props->len = 0;
}
