/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of systemd_unit.c: the unit a "slice:prefix:name" path names
 * (runc's rules), the cgroup directory of a slice, and the properties a
 * scope is started with (resources, annotations, the fixed ones). */
#include "tap.h"
#include "src/lib/systemd_unit.h"

#include <stdint.h>

static void unit_case(const char *path, bool rootless, const char *slice, const char *name)
{
	struct kc_systemd_unit unit;
	kc_error_t err = NULL;
	int rc = kc_systemd_unit_from_path(path, "c1", rootless, &unit, &err);

	if (rc < 0)
		printf("# error: %s\n", err->msg);
	TAP_OK(rc == 0 && strcmp(unit.slice, slice) == 0 && strcmp(unit.name, name) == 0,
	       "systemd unit: \"%s\"%s -> %s in %s (got %s in %s)", path ? path : "(none)",
	       rootless ? " rootless" : "", name, slice, rc == 0 ? unit.name : "-",
	       rc == 0 ? unit.slice : "-");
	kc_error_free(&err);
	if (rc == 0)
		kc_systemd_unit_free(&unit);
}

static void unit_refused(const char *path, const char *needle)
{
	struct kc_systemd_unit unit = {0};
	kc_error_t err = NULL;

	TAP_CALL_FAILS(kc_systemd_unit_from_path(path, "c1", false, &unit, &err), err, needle,
		       "systemd unit: \"%s\" refused (%s)", path, needle);
	TAP_OK(unit.slice == NULL && unit.name == NULL, "systemd unit: nothing left of \"%s\"", path);
}

static void slice_dir_case(const char *slice, const char *dir)
{
	kc_error_t err = NULL;
	char *got = NULL;
	int rc = kc_systemd_slice_dir(slice, &got, &err);

	TAP_OK(rc == 0 && got && strcmp(got, dir) == 0, "slice dir: %s -> \"%s\" (got \"%s\")", slice,
	       dir, got ? got : "(error)");
	kc_error_free(&err);
	free(got);
}

static bool has_u64(const struct kc_unit_props *props, const char *name, uint64_t value)
{
	const struct kc_unit_prop *prop = kc_unit_props_find(props, name);

	return prop && prop->type == KC_PROP_UINT64 && prop->value.u == value;
}

static void test_names(void)
{
	kc_error_t err = NULL;
	char *dir = NULL;

	unit_case(NULL, false, "system.slice", "kcrun-c1.scope");
	unit_case("", true, "user.slice", "kcrun-c1.scope");
	unit_case("machine.slice:libpod:abc", false, "machine.slice", "libpod-abc.scope");
	unit_case(":docker:abc", false, "system.slice", "docker-abc.scope");
	unit_case(":docker:abc", true, "user.slice", "docker-abc.scope");
	unit_case("-:cri:abc", false, "-.slice", "cri-abc.scope");
	unit_case("kubepods-besteffort.slice::abc", false, "kubepods-besteffort.slice", "abc.scope");
	unit_refused("/kcrun/c1", "expected \"slice:prefix:name\"");
	unit_refused("a:b:c:d", "expected \"slice:prefix:name\"");
	unit_refused("system.slice:kcrun:", "name must not be empty");
	unit_refused("system.slice:kc/run:x", "must not hold \"/\"");
	unit_refused("system.slice:kcrun:x.slice", "names a slice");
	unit_refused("system:kcrun:x", "not a slice name");
	unit_refused("a--b.slice:kcrun:x", "not a slice name");
	unit_refused("-a.slice:kcrun:x", "not a slice name");
	unit_refused("a/b.slice:kcrun:x", "not a slice name");

	slice_dir_case("system.slice", "/system.slice");
	slice_dir_case("-.slice", "");
	slice_dir_case("kubepods-besteffort.slice", "/kubepods.slice/kubepods-besteffort.slice");
	slice_dir_case("a-b-c.slice", "/a.slice/a-b.slice/a-b-c.slice");
	TAP_CALL_FAILS(kc_systemd_slice_dir("a-.slice", &dir, &err), err, "not a slice name",
		       "slice dir: a-.slice refused");
	TAP_OK(dir == NULL, "slice dir: nothing returned for a refused name");
}

static void test_resource_props(void)
{
	struct oci_memory memory = {.has_limit = true, .limit = 64 << 20, .has_reservation = true,
				    .reservation = 32 << 20, .has_swap = true, .swap = 128 << 20};
	struct oci_cpu cpu = {.has_shares = true, .shares = 1024, .has_quota = true, .quota = 12345,
			      .has_period = true, .period = 100000};
	struct oci_pids pids = {.has_limit = true, .limit = 42};
	struct oci_resources resources = {.memory = &memory, .cpu = &cpu, .pids = &pids};
	struct oci_cpu unlimited_cpu = {.has_quota = true, .quota = -1};
	struct oci_pids unlimited_pids = {.has_limit = true, .limit = -1};
	struct oci_resources unlimited = {.cpu = &unlimited_cpu, .pids = &unlimited_pids};
	struct kc_unit_props props = {0};
	kc_error_t err = NULL;

	TAP_CALL_OK(kc_unit_props_from_resources(&props, &resources, &err), err,
		    "unit props: from linux.resources");
	TAP_OK(has_u64(&props, "MemoryMax", 64 << 20), "unit props: MemoryMax is memory.limit");
	TAP_OK(has_u64(&props, "MemoryLow", 32 << 20), "unit props: MemoryLow is memory.reservation");
	/* runtime-spec swap is memory+swap; cgroup v2's swap.max is swap alone */
	TAP_OK(has_u64(&props, "MemorySwapMax", 64 << 20), "unit props: MemorySwapMax is swap - limit");
	TAP_OK(has_u64(&props, "CPUWeight", 39), "unit props: CPUWeight from shares 1024 (39, as runc)");
	TAP_OK(has_u64(&props, "CPUQuotaPeriodUSec", 100000), "unit props: CPUQuotaPeriodUSec");
	/* 12345/100000 of a second is 123450 us/s, rounded up to 10 ms */
	TAP_OK(has_u64(&props, "CPUQuotaPerSecUSec", 130000),
	       "unit props: CPUQuotaPerSecUSec rounded up to a whole 1%%");
	TAP_OK(has_u64(&props, "TasksMax", 42), "unit props: TasksMax is pids.limit");
	TAP_OK(kc_unit_props_find(&props, "Delegate") == NULL, "unit props: resources add no others");
	kc_unit_props_free(&props);

	TAP_CALL_OK(kc_unit_props_from_resources(&props, &unlimited, &err), err,
		    "unit props: unlimited resources");
	TAP_OK(has_u64(&props, "CPUQuotaPerSecUSec", UINT64_MAX) &&
	       has_u64(&props, "TasksMax", UINT64_MAX), "unit props: -1 is infinity");
	kc_unit_props_free(&props);

	unlimited_pids.limit = 0;
	TAP_CALL_OK(kc_unit_props_from_resources(&props, &unlimited, &err), err,
		    "unit props: pids.limit 0");
	TAP_OK(has_u64(&props, "TasksMax", UINT64_MAX),
	       "unit props: pids.limit 0 is no limit (podman's --pids-limit -1), not systemd's default");
	kc_unit_props_free(&props);

	TAP_CALL_OK(kc_unit_props_from_resources(&props, NULL, &err), err, "unit props: no resources");
	TAP_OK(props.len == 0, "unit props: none without resources");
}

static void annotation_case(const char *name, const char *text, enum kc_unit_prop_type type,
			    const char *expect_name)
{
	struct kc_unit_prop prop;
	kc_error_t err = NULL;
	int rc = kc_unit_prop_parse(name, text, &prop, &err);

	if (rc < 0)
		printf("# error: %s\n", err->msg);
	TAP_OK(rc == 0 && prop.type == type && strcmp(prop.name, expect_name) == 0,
	       "annotation: %s=%s -> %s of type %c", name, text, expect_name, (char)type);
	kc_error_free(&err);
	if (rc == 0) {
		free(prop.name);
		if (prop.type == KC_PROP_STRING)
			free(prop.value.s);
	}
}

static void test_annotations(void)
{
	struct oci_map_entry entries[] = {
		{.key = (char *)"org.systemd.property.CollectMode", .value = (char *)"'inactive-or-failed'"},
		{.key = (char *)"org.other", .value = (char *)"x"},
		{.key = (char *)"org.systemd.property.TimeoutStopSec", .value = (char *)"uint64 5"},
		{.key = (char *)"org.systemd.property.MemoryMax", .value = (char *)"uint64 1048576"},
	};
	struct oci_map annotations = {.entries = entries, .len = 4};
	struct oci_map_entry bad_entries[] = {
		{.key = (char *)"org.systemd.property.Foo", .value = (char *)"maybe"},
	};
	struct oci_map bad = {.entries = bad_entries, .len = 1};
	struct oci_map_entry bad_name_entries[] = {
		{.key = (char *)"org.systemd.property.Foo/Bar", .value = (char *)"true"},
	};
	struct oci_map bad_name = {.entries = bad_name_entries, .len = 1};
	struct oci_memory memory = {.has_limit = true, .limit = 4096};
	struct oci_resources resources = {.memory = &memory};
	struct kc_unit_props props = {0};
	const struct kc_unit_prop *prop;
	kc_error_t err = NULL;

	annotation_case("Foo", "true", KC_PROP_BOOL, "Foo");
	annotation_case("Foo", "'text'", KC_PROP_STRING, "Foo");
	annotation_case("Foo", "\"text\"", KC_PROP_STRING, "Foo");
	annotation_case("Foo", "42", KC_PROP_INT32, "Foo");
	annotation_case("Foo", "uint64 42", KC_PROP_UINT64, "Foo");
	annotation_case("Foo", "int64 -1", KC_PROP_INT64, "Foo");
	annotation_case("Foo", "uint32 7", KC_PROP_UINT32, "Foo");
	annotation_case("Foo", "double 0.5", KC_PROP_DOUBLE, "Foo");
	annotation_case("TimeoutStopSec", "uint64 5", KC_PROP_UINT64, "TimeoutStopUSec");
	annotation_case("TimeoutStopUSec", "uint64 5", KC_PROP_UINT64, "TimeoutStopUSec");

	TAP_CALL_OK(kc_unit_props_from_resources(&props, &resources, &err), err,
		    "annotations: resources first");
	TAP_CALL_OK(kc_unit_props_from_annotations(&props, &annotations, &err), err,
		    "annotations: org.systemd.property.* read");
	TAP_OK(props.len == 4, "annotations: only the org.systemd.property.* ones (%zu props)",
	       props.len);
	prop = kc_unit_props_find(&props, "CollectMode");
	TAP_OK(prop && prop->type == KC_PROP_STRING && strcmp(prop->value.s, "inactive-or-failed") == 0,
	       "annotations: a quoted string");
	TAP_OK(has_u64(&props, "TimeoutStopUSec", 5000000), "annotations: XSec becomes XUSec x 1e6");
	TAP_OK(has_u64(&props, "MemoryMax", 1048576), "annotations: an annotation overrides a resource");
	kc_unit_props_free(&props);

	TAP_CALL_FAILS(kc_unit_props_from_annotations(&props, &bad, &err), err,
		       "annotations.\"org.systemd.property.Foo\": \"maybe\" is not a value",
		       "annotations: an unreadable value names the annotation");
	kc_unit_props_free(&props);
	TAP_CALL_FAILS(kc_unit_props_from_annotations(&props, &bad_name, &err), err,
		       "not a systemd property name", "annotations: a bad property name refused");
	kc_unit_props_free(&props);
	TAP_CALL_FAILS(kc_unit_props_from_annotations(&props, &(struct oci_map){
			       .entries = (struct oci_map_entry[]){{.key = (char *)"org.systemd.property.X",
								     .value = (char *)"uint32 4294967296"}},
			       .len = 1}, &err),
		       err, "is not a value", "annotations: uint32 out of range refused");
	kc_unit_props_free(&props);
}

static void test_scope_props(void)
{
	struct kc_systemd_unit unit = {.slice = (char *)"machine.slice", .name = (char *)"x-c1.scope"};
	struct kc_unit_props props = {0};
	const struct kc_unit_prop *prop;
	kc_error_t err = NULL;

	TAP_CALL_OK(kc_unit_props_for_scope(&props, &unit, "c1", &err), err, "scope props");
	prop = kc_unit_props_find(&props, "Slice");
	TAP_OK(prop && prop->type == KC_PROP_STRING && strcmp(prop->value.s, "machine.slice") == 0,
	       "scope props: Slice");
	prop = kc_unit_props_find(&props, "Delegate");
	TAP_OK(prop && prop->type == KC_PROP_BOOL && prop->value.b, "scope props: Delegate=yes");
	prop = kc_unit_props_find(&props, "DefaultDependencies");
	TAP_OK(prop && prop->type == KC_PROP_BOOL && !prop->value.b,
	       "scope props: DefaultDependencies=no");
	prop = kc_unit_props_find(&props, "Description");
	TAP_OK(prop && strstr(prop->value.s, "c1"), "scope props: Description names the container");
	kc_unit_props_free(&props);
}

void test_systemd_unit(void)
{
	test_names();
	test_resource_props();
	test_annotations();
	test_scope_props();
}
