/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun state: see kcrun(8). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lib/loaded.h"

int kc_cmd_state(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_container c;
	struct oci_state os;
	kc_error_t err = NULL;
	char *json = NULL;
	int first;

	if (kc_cli_parse("state", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_container_load(g->root, argv[first], &c, &err) < 0)
		return kc_cli_fail(&err);
	kc_state_to_oci(&c.state, c.status, c.status == OCI_STATUS_STOPPED ? 0 : c.state.pid, &os);
	if (oci_state_to_json(&os, &json) < 0) {
		kc_container_release(&c);
		kc_error_set(&err, 0, "state JSON");
		return kc_cli_fail(&err);
	}
	printf("%s\n", json);
	free(json);
	kc_container_release(&c);
	return 0;
}
