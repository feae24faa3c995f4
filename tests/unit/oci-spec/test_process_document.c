/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci_process_parse_string(): a bare process object (exec --process). */
#include "helpers.h"

TEST(process_document_parses)
{
	const char *json = "{\"args\": [\"sh\", \"-c\", \"true\"], \"cwd\": \"/\","
			   " \"user\": {\"uid\": 7, \"gid\": 8}, \"env\": [\"A=b\"]}";
	struct oci_process *process = NULL;
	char *err = NULL;

	if (!CHECK(oci_process_parse_string(json, strlen(json), &process, &err) == 0)) {
		printf("# %s\n", err);
		free(err);
		return;
	}
	CHECK(process->args_len == 3);
	CHECK_STR(process->args[0], "sh");
	CHECK_STR(process->cwd, "/");
	CHECK(process->user.uid == 7 && process->user.gid == 8);
	CHECK(process->env_len == 1);
	oci_process_free(process);
}

TEST(process_document_errors)
{
	struct oci_process *process = NULL;
	char *err = NULL;

	CHECK(oci_process_parse_string("{\"args\": \"sh\"}", 14, &process, &err) == -1);
	CHECK_STR(err, "process.args: expected an array, got string");
	free(err);
	CHECK(oci_process_parse_string("{\"args\": ", 9, &process, &err) == -1);
	CHECK_STR(err, "process: parse error at line 1, column 10: premature EOF");
	free(err);
	CHECK(process == NULL);
}
