/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Serialisers: default spec (against runc's own output), state, features. */
#include "helpers.h"

#include <unistd.h>
#include <yajl/yajl_tree.h>

static bool same_as_fixture(const char *fixture, const char *actual)
{
	char *expected = tap_read_fixture(fixture, NULL);
	bool ok;
	size_t i;

	if (expected == NULL)
		return tap_fail(__FILE__, __LINE__, "cannot read fixture %s", fixture);
	ok = strcmp(expected, actual) == 0;
	if (!ok) {
		for (i = 0; expected[i] && expected[i] == actual[i]; i++)
			;
		tap_fail(__FILE__, __LINE__,
			 "%s differs at byte %zu:\n#   got:      %.40s\n#   expected: %.40s",
			 fixture, i, actual + i, expected + i);
	}
	free(expected);
	return ok;
}

TEST(default_spec_matches_runc_spec)
{
	char *json = NULL;

	if (!CHECK(oci_spec_default_json(false, &json) == 0))
		return;
	same_as_fixture("runc-spec.json", json);
	free(json);
}

TEST(default_rootless_spec_matches_runc_spec_rootless)
{
	char *json = NULL;

	/* runc puts the caller's euid/egid in the mappings; the fixture was
	 * captured as root */
	if (geteuid() != 0 || getegid() != 0) {
		tap_skip("fixture captured as root (runc maps the caller's euid/egid)");
		return;
	}
	if (!CHECK(oci_spec_default_json(true, &json) == 0))
		return;
	same_as_fixture("runc-spec-rootless.json", json);
	free(json);
}

TEST(default_spec_round_trips_through_parser)
{
	struct oci_spec *spec;
	char *json = NULL;
	int rootless;

	for (rootless = 0; rootless <= 1; rootless++) {
		if (!CHECK(oci_spec_default_json(rootless, &json) == 0))
			return;
		spec = parse_ok(json);
		if (CHECK(spec)) {
			CHECK(oci_spec_validate_for_create(spec, NULL) == 0);
			CHECK_INT(spec->mounts_len, 7);
			CHECK_INT(spec->linux_->namespaces_len, 5);
			CHECK_INT(spec->linux_->uid_mappings_len, rootless ? 1 : 0);
			if (rootless)
				CHECK_INT(spec->linux_->uid_mappings[0].host_id, geteuid());
		}
		oci_spec_free(spec);
		free(json);
	}
}

static struct oci_state *sample_state(void)
{
	struct oci_state *s = calloc(1, sizeof(*s));

	s->oci_version = strdup("1.2.0");
	s->id = strdup("web-1");
	s->status = OCI_STATUS_RUNNING;
	s->pid = 4242;
	s->bundle = strdup("/srv/bundles/web");
	s->rootfs = strdup("/srv/bundles/web/rootfs");
	s->created.tv_sec = 1700000000;
	s->created.tv_nsec = 123456700;
	s->owner = strdup("");
	return s;
}

TEST(state_json_matches_runc_layout)
{
	struct oci_state *s = sample_state();
	char *json = NULL;

	CHECK(oci_map_set(&s->annotations, "z.last", "1") == 0);
	CHECK(oci_map_set(&s->annotations, "a.first", "<&>") == 0);
	if (CHECK(oci_state_to_json(s, &json) == 0))
		CHECK_STR(json, "{\n"
				"  \"ociVersion\": \"1.2.0\",\n"
				"  \"id\": \"web-1\",\n"
				"  \"pid\": 4242,\n"
				"  \"status\": \"running\",\n"
				"  \"bundle\": \"/srv/bundles/web\",\n"
				"  \"rootfs\": \"/srv/bundles/web/rootfs\",\n"
				"  \"created\": \"2023-11-14T22:13:20.1234567Z\",\n"
				"  \"annotations\": {\n"
				"    \"a.first\": \"\\u003c\\u0026\\u003e\",\n"
				"    \"z.last\": \"1\"\n"
				"  },\n"
				"  \"owner\": \"\"\n"
				"}");
	free(json);
	oci_state_free(s);
}

TEST(state_json_omits_empty_annotations_and_whole_seconds)
{
	struct oci_state *s = sample_state();
	char *json = NULL;

	s->created.tv_nsec = 0;
	s->status = OCI_STATUS_STOPPED;
	s->pid = 0;
	if (CHECK(oci_state_to_json(s, &json) == 0))
		CHECK_STR(json, "{\n"
				"  \"ociVersion\": \"1.2.0\",\n"
				"  \"id\": \"web-1\",\n"
				"  \"pid\": 0,\n"
				"  \"status\": \"stopped\",\n"
				"  \"bundle\": \"/srv/bundles/web\",\n"
				"  \"rootfs\": \"/srv/bundles/web/rootfs\",\n"
				"  \"created\": \"2023-11-14T22:13:20Z\",\n"
				"  \"owner\": \"\"\n"
				"}");
	free(json);
	oci_state_free(s);
}

TEST(hook_state_json_is_runtime_spec_state)
{
	struct oci_state *s = sample_state();
	char *json = NULL;

	s->status = OCI_STATUS_CREATED;
	CHECK(oci_map_set(&s->annotations, "k", "v") == 0);
	if (CHECK(oci_state_to_hook_json(s, &json) == 0))
		CHECK_STR(json, "{\"ociVersion\":\"1.2.0\",\"id\":\"web-1\",\"status\":\"created\","
				"\"pid\":4242,\"bundle\":\"/srv/bundles/"
				"web\",\"annotations\":{\"k\":\"v\"}}");
	free(json);
	s->pid = 0;
	oci_map_free(&s->annotations);
	if (CHECK(oci_state_to_hook_json(s, &json) == 0))
		CHECK_STR(json, "{\"ociVersion\":\"1.2.0\",\"id\":\"web-1\",\"status\":\"created\","
				"\"bundle\":\"/srv/bundles/web\"}");
	free(json);
	oci_state_free(s);
}

static void check_state_round_trip(const struct oci_state *s, bool hook)
{
	struct oci_state *back = NULL;
	char *json = NULL, *err = NULL;
	size_t i;

	if (!CHECK((hook ? oci_state_to_hook_json(s, &json) : oci_state_to_json(s, &json)) == 0))
		return;
	if (!CHECK(oci_state_parse_string(json, strlen(json), &back, &err) == 0)) {
		printf("# %s\n", err);
		free(err);
		free(json);
		return;
	}
	CHECK_STR(back->oci_version, s->oci_version);
	CHECK_STR(back->id, s->id);
	CHECK_INT(back->status, s->status);
	CHECK_INT(back->pid, s->pid);
	CHECK_STR(back->bundle, s->bundle);
	CHECK_INT(back->annotations.len, s->annotations.len);
	for (i = 0; i < s->annotations.len; i++)
		CHECK_STR(oci_map_get(&back->annotations, s->annotations.entries[i].key),
			  s->annotations.entries[i].value);
	if (!hook) {
		CHECK_STR(back->rootfs, s->rootfs);
		CHECK_STR(back->owner, s->owner);
		CHECK_INT(back->created.tv_sec, s->created.tv_sec);
		CHECK_INT(back->created.tv_nsec, s->created.tv_nsec);
	}
	oci_state_free(back);
	free(json);
}

TEST(state_round_trips)
{
	struct oci_state *s = sample_state();

	CHECK(oci_map_set(&s->annotations, "org.example/odd \"key\"",
			  "tab\there\nnl \x01 <b> \xe2\x80\xa8") == 0);
	CHECK(oci_map_set(&s->annotations, "plain", "value") == 0);
	check_state_round_trip(s, false);
	check_state_round_trip(s, true);
	s->status = OCI_STATUS_PAUSED;
	s->created.tv_nsec = 999999999;
	check_state_round_trip(s, false);
	s->created.tv_nsec = 1;
	check_state_round_trip(s, false);
	oci_state_free(s);
}

TEST(state_strings_escaped_like_go)
{
	struct oci_state *s = sample_state();
	char *json = NULL;

	free(s->id);
	/* Go 1.19: \u0008 for backspace, \u2028 escaped, invalid UTF-8 -> \ufffd */
	s->id = strdup("a\"b\\c\b\f\x1f/\xe2\x80\xa9\xc3\xa9\xff");
	if (CHECK(oci_state_to_hook_json(s, &json) == 0))
		CHECK(strstr(json, "\"id\":\"a\\\"b\\\\c\\u0008\\u000c\\u001f/"
				   "\\u2029\xc3\xa9\\ufffd\"") != NULL);
	free(json);
	oci_state_free(s);
}

TEST(state_parse_errors)
{
	struct oci_state *s = NULL;
	char *err = NULL;
	const char *bad_status =
		"{\"ociVersion\":\"1.2.0\",\"id\":\"x\",\"status\":\"sleeping\",\"bundle\":\"/b\"}";
	const char *no_bundle = "{\"ociVersion\":\"1.2.0\",\"id\":\"x\",\"status\":\"created\"}";
	const char *bad_time = "{\"ociVersion\":\"1.2.0\",\"id\":\"x\",\"status\":\"created\","
			       "\"bundle\":\"/b\",\"created\":\"yesterday\"}";

	CHECK(oci_state_parse_string(bad_status, strlen(bad_status), &s, &err) == -1);
	CHECK_STR(err, "status: unknown status \"sleeping\"");
	free(err);
	CHECK(oci_state_parse_string(no_bundle, strlen(no_bundle), &s, &err) == -1);
	CHECK_STR(err, "bundle: required field is missing");
	free(err);
	CHECK(oci_state_parse_string(bad_time, strlen(bad_time), &s, &err) == -1);
	CHECK_STR(err, "created: not an RFC 3339 time: \"yesterday\"");
	free(err);
	CHECK(oci_state_parse_string("[1]", 3, &s, &err) == -1);
	CHECK_STR(err, "state: expected an object, got array");
	free(err);
	CHECK(s == NULL);
}

TEST(state_parses_offset_times)
{
	const char *json =
		"{\"ociVersion\":\"1.2.0\",\"id\":\"x\",\"status\":\"created\",\"bundle\":\"/b\","
		"\"created\":\"2023-11-14T23:13:20.5+01:00\"}";
	struct oci_state *s = NULL;

	if (CHECK(oci_state_parse_string(json, strlen(json), &s, NULL) == 0)) {
		CHECK_INT(s->created.tv_sec, 1700000000);
		CHECK_INT(s->created.tv_nsec, 500000000);
	}
	oci_state_free(s);
}

TEST(state_emit_rejects_bad_values)
{
	struct oci_state *s = sample_state();
	char *json = NULL;

	s->status = (enum oci_status)42;
	CHECK(oci_state_to_json(s, &json) == -1);
	CHECK(oci_state_to_hook_json(s, &json) == -1);
	s->status = OCI_STATUS_CREATED;
	s->created.tv_nsec = 1000000000L;
	CHECK(oci_state_to_json(s, &json) == -1);
	CHECK(json == NULL);
	oci_state_free(s);
}

/* Compares the string array at `path` in two documents. */
static bool same_array(yajl_val a, yajl_val b, const char **path)
{
	yajl_val va = yajl_tree_get(a, path, yajl_t_array);
	yajl_val vb = yajl_tree_get(b, path, yajl_t_array);
	size_t i;

	if (va == NULL || vb == NULL)
		return tap_fail(__FILE__, __LINE__, "%s: missing array", path[0]);
	if (va->u.array.len != vb->u.array.len)
		return tap_fail(__FILE__, __LINE__, "%s...: %zu vs %zu entries", path[0],
				va->u.array.len, vb->u.array.len);
	for (i = 0; i < va->u.array.len; i++) {
		const char *sa = YAJL_IS_STRING(va->u.array.values[i])
					 ? va->u.array.values[i]->u.string
					 : "";
		const char *sb = YAJL_IS_STRING(vb->u.array.values[i])
					 ? vb->u.array.values[i]->u.string
					 : "";

		if (strcmp(sa, sb) != 0)
			return tap_fail(__FILE__, __LINE__, "%s[%zu]: %s vs %s", path[0], i, sa,
					sb);
	}
	return true;
}

TEST(features_json_shape)
{
	char *json = NULL, *runc = tap_read_fixture("runc-features.json", NULL), err[256];
	yajl_val ours = NULL, theirs = NULL;
	const char *max[] = { "ociVersionMax", NULL };
	const char *v2[] = { "linux", "cgroup", "v2", NULL };
	const char *v1[] = { "linux", "cgroup", "v1", NULL };
	const char *seccomp[] = { "linux", "seccomp", "enabled", NULL };
	const char *hooks[] = { "hooks", NULL };
	const char *mount_options[] = { "mountOptions", NULL };
	const char *caps[] = { "linux", "capabilities", NULL };
	const char *actions[] = { "linux", "seccomp", "actions", NULL };
	const char *operators[] = { "linux", "seccomp", "operators", NULL };
	const char *archs[] = { "linux", "seccomp", "archs", NULL };
	const char *apparmor[] = { "linux", "apparmor", "enabled", NULL };
	const char *selinux[] = { "linux", "selinux", "enabled", NULL };

	if (!CHECK(runc) || !CHECK(oci_features_to_json(&json) == 0))
		goto out;
	CHECK(strncmp(json, "{\n    \"ociVersionMin\": \"1.0.0\",\n", 32) == 0);
	CHECK(json[strlen(json) - 1] == '\n');
	ours = yajl_tree_parse(json, err, sizeof(err));
	theirs = yajl_tree_parse(runc, err, sizeof(err));
	if (!CHECK(ours && theirs))
		goto out;
	CHECK_STR(YAJL_GET_STRING(yajl_tree_get(ours, max, yajl_t_string)), OCI_SPEC_VERSION);
	CHECK(YAJL_IS_TRUE(yajl_tree_get(ours, v2, yajl_t_any)));
	CHECK(YAJL_IS_FALSE(yajl_tree_get(ours, v1, yajl_t_any)));
	CHECK(YAJL_IS_TRUE(yajl_tree_get(ours, seccomp, yajl_t_any)));
	/* process.apparmorProfile and selinuxLabel are applied (runc: the same) */
	CHECK(YAJL_IS_TRUE(yajl_tree_get(ours, apparmor, yajl_t_any)));
	CHECK(YAJL_IS_TRUE(yajl_tree_get(ours, selinux, yajl_t_any)));
	/* runc's actions, SCMP_ACT_NOTIFY included */
	same_array(ours, theirs, hooks);
	same_array(ours, theirs, mount_options);
	same_array(ours, theirs, caps);
	same_array(ours, theirs, actions);
	same_array(ours, theirs, operators);
	same_array(ours, theirs, archs);
out:
	yajl_tree_free(ours);
	yajl_tree_free(theirs);
	free(runc);
	free(json);
}

TEST(enum_names_round_trip)
{
	enum oci_namespace_type ns;
	enum oci_seccomp_action act;
	enum oci_seccomp_op op;
	enum oci_status st;
	int i;

	for (i = 0; i < OCI_NS__COUNT; i++)
		CHECK(oci_namespace_type_from_name(oci_namespace_type_name(i), &ns) == 0 &&
		      (int)ns == i);
	for (i = 0; i < OCI_SECCOMP_ACT__COUNT; i++)
		CHECK(oci_seccomp_action_from_name(oci_seccomp_action_name(i), &act) == 0 &&
		      (int)act == i);
	for (i = 0; i < OCI_SECCOMP_CMP__COUNT; i++)
		CHECK(oci_seccomp_op_from_name(oci_seccomp_op_name(i), &op) == 0 && (int)op == i);
	for (i = OCI_STATUS_CREATING; i <= OCI_STATUS_PAUSED; i++)
		CHECK(oci_status_from_name(oci_status_name(i), &st) == 0 && (int)st == i);
	CHECK(oci_namespace_type_name(OCI_NS__COUNT) == NULL);
	CHECK(oci_namespace_type_from_name("net", &ns) == -1);
	CHECK(oci_namespace_type_from_name(NULL, &ns) == -1);
	CHECK_STR(oci_namespace_type_name(OCI_NS_NETWORK), "network");
	CHECK_STR(oci_seccomp_action_name(OCI_SECCOMP_ACT_KILL_PROCESS), "SCMP_ACT_KILL_PROCESS");
}

TEST(map_set_get)
{
	struct oci_map map = { 0 };

	CHECK(oci_map_set(&map, "a", "1") == 0);
	CHECK(oci_map_set(&map, "b", "2") == 0);
	CHECK(oci_map_set(&map, "a", "3") == 0);
	CHECK_INT(map.len, 2);
	CHECK_STR(map.entries[0].key, "a");
	CHECK_STR(oci_map_get(&map, "a"), "3");
	CHECK(oci_map_get(&map, "c") == NULL);
	oci_map_free(&map);
	CHECK(map.len == 0 && map.entries == NULL);
	oci_map_free(&map);
}

/* The state `runc state` printed for a container created from runc's
 * default spec plus two annotations (fixtures/runc-state.json). */
static struct oci_state *runc_fixture_state(void)
{
	struct oci_state *s = calloc(1, sizeof(*s));

	s->oci_version = strdup("1.0.2-dev");
	s->id = strdup("test1");
	s->status = OCI_STATUS_CREATED;
	s->pid = 4964;
	s->bundle = strdup("/tmp/rb");
	s->rootfs = strdup("/tmp/rb/rootfs");
	s->created.tv_sec = 1796294434; /* 2026-12-03T10:40:34Z */
	s->created.tv_nsec = 629852976;
	s->owner = strdup("");
	oci_map_set(&s->annotations, "z.key", "1");
	oci_map_set(&s->annotations, "a.key", "<x>");
	return s;
}

TEST(state_json_matches_runc_state_output)
{
	struct oci_state *s = runc_fixture_state();
	char *json = NULL;

	if (CHECK(oci_state_to_json(s, &json) == 0))
		same_as_fixture("runc-state.json", json);
	free(json);
	oci_state_free(s);
}

TEST(hook_state_matches_what_runc_gives_hooks)
{
	struct oci_state *s = runc_fixture_state();
	char *json = NULL;

	/* captured from a createRuntime hook (`cat > file`) of `runc run` */
	free(s->id);
	s->id = strdup("test2");
	s->status = OCI_STATUS_CREATING;
	s->pid = 5295;
	if (CHECK(oci_state_to_hook_json(s, &json) == 0))
		same_as_fixture("runc-hook-state.json", json);
	free(json);
	oci_state_free(s);
}

/* parse(fixture) -> emit must give runc's bytes back. */
static void check_reemit_identical(const char *fixture)
{
	char *orig = tap_read_fixture(fixture, NULL), *json = NULL;
	struct oci_spec *spec;

	if (!CHECK(orig))
		return;
	spec = parse_ok(orig);
	if (spec && CHECK(oci_spec_to_json(spec, &json) == 0))
		same_as_fixture(fixture, json);
	free(json);
	oci_spec_free(spec);
	free(orig);
}

TEST(spec_to_json_reproduces_runc_spec)
{
	check_reemit_identical("runc-spec.json");
	check_reemit_identical("runc-spec-rootless.json");
}

TEST(spec_to_json_round_trips_full_config)
{
	char *orig = tap_read_fixture("full.json", NULL), *first = NULL, *second = NULL;
	struct oci_spec *spec = NULL, *again = NULL;

	if (!CHECK(orig))
		return;
	spec = parse_ok(orig);
	if (!spec || !CHECK(oci_spec_to_json(spec, &first) == 0))
		goto out;
	again = parse_ok(first);
	if (!again || !CHECK(oci_spec_to_json(again, &second) == 0))
		goto out;
	/* emit(parse(emit(x))) == emit(x): nothing the parser reads is lost */
	CHECK_STR(second, first);
	/* spot checks across every section */
	CHECK_STR(again->process->scheduler->policy, "SCHED_BATCH");
	CHECK(again->process->rlimits[1].hard == UINT64_MAX);
	CHECK_INT(again->process->user.additional_gids[2], 4294967294u);
	CHECK_INT(again->hooks->poststop[0].timeout, 30);
	CHECK_INT(again->linux_->namespaces_len, 8);
	CHECK_INT(again->linux_->resources->memory->kernel_tcp, -1);
	CHECK_INT(again->linux_->resources->block_io->throttle_write_iops_device[0].minor, 16);
	CHECK_STR(again->linux_->resources->rdma[0].device, "mlx4_0"); /* sorted like Go */
	CHECK_INT(again->linux_->seccomp->syscalls[1].args[1].value_two, 4);
	CHECK_INT(again->linux_->seccomp->default_errno_ret, 38);
	CHECK_STR(again->linux_->time_offsets[0].clock, "boottime");
	CHECK_INT(again->linux_->time_offsets[1].nanosecs, 5);
	CHECK_STR(again->linux_->net_devices[1].name, "ctr1");
	CHECK(again->linux_->intel_rdt->enable_cmt);
	CHECK_INT(again->linux_->personality->domain, OCI_PERSONALITY_LINUX32);
	CHECK_STR(again->domainname, "example.org");
	CHECK(strstr(first, "\"vm\"") == NULL); /* unknown sections are not carried */
out:
	free(first);
	free(second);
	oci_spec_free(again);
	oci_spec_free(spec);
	free(orig);
}
