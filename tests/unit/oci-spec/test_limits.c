/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hostile input: long strings, deep nesting, NULs, huge and missing files. */
#include "helpers.h"

#include <limits.h>
#include <stdio.h>
#include <unistd.h>

/* {"ociVersion":"1.2.0","<key>":"<n times c>"} */
static char *config_with_long_string(const char *key, size_t n, char c)
{
	const char *head = "{\"ociVersion\": \"1.2.0\", \"";
	size_t len = strlen(head) + strlen(key) + 4 + n + 3;
	char *json = malloc(len);
	size_t pos;

	if (json == NULL)
		return NULL;
	pos = (size_t)sprintf(json, "%s%s\": \"", head, key);
	memset(json + pos, c, n);
	pos += n;
	strcpy(json + pos, "\"}");
	return json;
}

TEST(overlong_string_rejected)
{
	char *json = config_with_long_string("unknownField", OCI_MAX_STRING_LEN + 1, 'a');

	if (!CHECK(json))
		return;
	parse_fails(json, "unknownField: string longer than 1048576 bytes");
	free(json);
}

TEST(string_at_cap_accepted)
{
	char *json = config_with_long_string("unknownField", OCI_MAX_STRING_LEN, 'a');
	struct oci_spec *spec;

	if (!CHECK(json))
		return;
	spec = parse_ok(json);
	CHECK(spec);
	oci_spec_free(spec);
	free(json);
}

TEST(overlong_path_rejected)
{
	char json[PATH_MAX + 128];
	char msg[128];
	int n;

	n = snprintf(json, sizeof(json), "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"/");
	memset(json + n, 'p', PATH_MAX - 1);
	strcpy(json + n + PATH_MAX - 1, "\"}}");
	snprintf(msg, sizeof(msg), "root.path: string longer than %d bytes", PATH_MAX - 1);
	parse_fails(json, msg);
}

TEST(overlong_key_rejected)
{
	size_t n = OCI_MAX_STRING_LEN + 1;
	char *json = malloc(n + 64);
	int pos;

	if (!CHECK(json))
		return;
	pos = sprintf(json, "{\"ociVersion\": \"1.2.0\", \"annotations\": {\"");
	memset(json + pos, 'k', n);
	strcpy(json + pos + n, "\": \"v\"}}");
	parse_fails(json, "annotations: string longer than 1048576 bytes");
	free(json);
}

static char *nested(size_t depth)
{
	const char *head = "{\"ociVersion\": \"1.2.0\", \"x\": ";
	char *json = malloc(strlen(head) + 2 * depth + 2);
	size_t pos = strlen(head), i;

	if (json == NULL)
		return NULL;
	memcpy(json, head, pos);
	for (i = 0; i < depth; i++)
		json[pos++] = '[';
	for (i = 0; i < depth; i++)
		json[pos++] = ']';
	json[pos++] = '}';
	json[pos] = '\0';
	return json;
}

TEST(nesting_at_limit_accepted)
{
	/* the top-level object is level 1 */
	char *json = nested(OCI_MAX_NESTING - 1);
	struct oci_spec *spec;

	if (!CHECK(json))
		return;
	spec = parse_ok(json);
	CHECK(spec);
	oci_spec_free(spec);
	free(json);
}

TEST(nesting_beyond_limit_rejected)
{
	char *json = nested(OCI_MAX_NESTING);
	char msg[512], path[256] = "x";
	int i;

	if (!CHECK(json))
		return;
	for (i = 0; i < OCI_MAX_NESTING - 1; i++)
		strcat(path, "[0]");
	snprintf(msg, sizeof(msg), "%s: nested deeper than 64 levels", path);
	parse_fails(json, msg);
	free(json);
}

TEST(very_deep_nesting_fails_fast)
{
	char *json = nested(1000000);

	if (!CHECK(json))
		return;
	CHECK(oci_spec_parse_string(json, strlen(json), &(struct oci_spec *){ NULL }, NULL) == -1);
	free(json);
}

TEST(embedded_nul_rejected)
{
	parse_fails(MINIMAL(", \"hostname\": \"ab\\u0000cd\""),
		    "hostname: string contains a NUL character");
	parse_fails(WITH_PROCESS(", \"env\": [\"A=1\", \"B=\\u0000\"]"),
		    "process.env[1]: string contains a NUL character");
	parse_fails(MINIMAL(", \"annotations\": {\"a\\u0000b\": \"v\"}"),
		    "annotations: string contains a NUL character");
	/* a raw NUL byte is not valid JSON at all */
	parse_fails_len(
		"{\"ociVersion\": \"1.2\0\"}", 22,
		"config.json: parse error at line 1, column 20: invalid character inside string");
}

TEST(errmsg_may_be_null)
{
	struct oci_spec *spec = NULL;

	CHECK(oci_spec_parse_string("{", 1, &spec, NULL) == -1);
	CHECK(spec == NULL);
	CHECK(oci_spec_parse_string("{}", 2, &spec, NULL) == -1);
	CHECK(oci_spec_parse_file("/nonexistent/config.json", &spec, NULL) == -1);
}

TEST(parse_file_errors)
{
	struct oci_spec *spec = NULL;
	char *err = NULL;

	CHECK(oci_spec_parse_file("/nonexistent/config.json", &spec, &err) == -1);
	CHECK_STR(err, "/nonexistent/config.json: No such file or directory");
	free(err);
	err = NULL;
	CHECK(oci_spec_parse_file("/", &spec, &err) == -1);
	CHECK_STR(err, "/: not a regular file");
	free(err);
}

TEST(parse_file_names_the_file_in_syntax_errors)
{
	char path[] = "/tmp/oci-spec-test-XXXXXX";
	struct oci_spec *spec = NULL;
	char *err = NULL, msg[128];
	int fd = mkstemp(path);

	if (!CHECK(fd >= 0))
		return;
	CHECK(write(fd, "{\n\"ociVersion\": }", 17) == 17);
	close(fd);
	CHECK(oci_spec_parse_file(path, &spec, &err) == -1);
	snprintf(msg, sizeof(msg),
		 "%s: parse error at line 2, column 15: unallowed token at this point in JSON text",
		 path);
	CHECK_STR(err, msg);
	free(err);
	unlink(path);
}

TEST(oversized_config_rejected)
{
	/* the size check comes before any parsing: zeros are as good as JSON */
	size_t len = (size_t)OCI_MAX_CONFIG_SIZE + 1;
	char *big = calloc(1, len);
	struct oci_spec *spec = NULL;
	char *err = NULL;

	if (!CHECK(big))
		return;
	CHECK(oci_spec_parse_string(big, len, &spec, &err) == -1);
	CHECK_STR(err, "config.json: larger than 67108864 bytes");
	free(err);
	free(big);
}

TEST(huge_keys_are_cut_in_paths)
{
	char key[300], json[400], expected[300];

	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(json, sizeof(json), "{\"ociVersion\": \"1.2.0\", \"annotations\": {\"%s\": 1}}",
		 key);
	snprintf(expected, sizeof(expected),
		 "annotations[\"%.128s...\"]: expected a string, got number", key);
	parse_fails(json, expected);
}
