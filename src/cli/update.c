/* kcrun update --resources FILE: linux.resources into the cgroup. */
#include "cli.h"
#include "lib/cgroup.h"
#include "lib/state.h"

int kc_cmd_update(struct kc_global *g, int argc, char **argv)
{
	const char *resources = NULL;
	struct kc_opt opts[] = {
		{"resources", 'r', KC_OPT_STRING, &resources,
		 "path to a file containing the resources to update or '-' to read from the standard input"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_state st;
	kc_error_t err = NULL;
	int first, ret;

	if (kc_cli_parse("update", opts, argc, argv, &first) < 0)
		return 1;
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	if (resources == NULL)
		ret = kc_error_set(&err, 0, "update: only --resources FILE is supported");
	else if (kc_state_status(g->root, &st) == OCI_STATUS_STOPPED)
		ret = kc_error_set(&err, 0, "container not running");
	else if (st.cgroup_path == NULL || *st.cgroup_path == '\0')
		ret = kc_error_set(&err, 0, "the container has no cgroup");
	else
		ret = kc_cgroup_update_from_file(st.cgroup_path, resources, &err);
	kc_state_free(&st);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}
