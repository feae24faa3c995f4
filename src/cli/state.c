/* kcrun state: see kcrun(8). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lib/state.h"

int kc_cmd_state(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_state st;
	struct oci_state os;
	enum oci_status status;
	kc_error_t err = NULL;
	char *json = NULL;
	int first;

	if (kc_cli_parse("state", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	status = kc_state_status(g->root, &st);
	kc_state_to_oci(&st, status, status == OCI_STATUS_STOPPED ? 0 : st.pid, &os);
	if (oci_state_to_json(&os, &json) < 0) {
		kc_state_free(&st);
		kc_error_set(&err, 0, "state JSON");
		return kc_cli_fail(&err);
	}
	printf("%s\n", json);
	free(json);
	kc_state_free(&st);
	return 0;
}
