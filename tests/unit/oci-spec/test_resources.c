/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci_resources_parse_string(): a bare linux.resources object. */
#include "helpers.h"

TEST(resources_document_parses)
{
	const char *json =
		"{\"memory\": {\"limit\": 1048576, \"swap\": -1}, \"pids\": {\"limit\": 10},"
		" \"unified\": {\"cpu.weight\": \"100\"}}";
	struct oci_resources *res = NULL;
	char *err = NULL;

	if (!CHECK(oci_resources_parse_string(json, strlen(json), &res, &err) == 0)) {
		printf("# %s\n", err);
		free(err);
		return;
	}
	CHECK(res->memory && res->memory->has_limit && res->memory->limit == 1048576);
	CHECK(res->memory->has_swap && res->memory->swap == -1);
	CHECK(!res->memory->has_reservation);
	CHECK(res->pids && res->pids->limit == 10);
	CHECK(res->cpu == NULL);
	CHECK_STR(oci_map_get(&res->unified, "cpu.weight"), "100");
	oci_resources_free(res);
}

TEST(resources_document_errors)
{
	struct oci_resources *res = NULL;
	char *err = NULL;

	CHECK(oci_resources_parse_string("{\"memory\": {\"limit\": \"1G\"}}", 27, &res, &err) ==
	      -1);
	CHECK_STR(err, "memory.limit: expected an integer, got string");
	free(err);
	CHECK(oci_resources_parse_string("{\"cpu\": ", 8, &res, &err) == -1);
	CHECK_STR(err, "resources: parse error at line 1, column 9: premature EOF");
	free(err);
	CHECK(oci_resources_parse_string("[]", 2, &res, &err) == -1);
	CHECK_STR(err, "resources: expected an object, got array");
	free(err);
	CHECK(res == NULL);
}

TEST(linux_resources_document_errors)
{
	struct oci_resources *res = NULL;
	char *err = NULL;

	CHECK(oci_linux_resources_parse_string("{\"memory\": {\"limit\": \"1G\"}}", 27, &res,
					       &err) == -1);
	CHECK_STR(err, "linux.resources.memory.limit: expected an integer, got string");
	free(err);
	CHECK(oci_linux_resources_parse_string("{\"cpu\": ", 8, &res, &err) == -1);
	CHECK_STR(err, "linux.resources: parse error at line 1, column 9: premature EOF");
	free(err);
	CHECK(oci_linux_resources_parse_string("{\"pids\": {\"limit\": 3}}", 22, &res, &err) == 0);
	CHECK(res && res->pids && res->pids->limit == 3);
	oci_resources_free(res);
}
