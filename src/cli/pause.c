/* kcrun pause / resume: freeze and thaw the container's cgroup. */
#include "cli.h"
#include "lib/cgroup.h"
#include "lib/state.h"

static int freeze(struct kc_global *g, const char *cmd, int argc, char **argv, bool on)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_state st;
	enum oci_status status;
	kc_error_t err = NULL;
	int first, ret;

	if (kc_cli_parse(cmd, opts, argc, argv, &first) < 0)
		return 1;
	if (kc_state_read(g->root, argv[first], &st, &err) < 0)
		return kc_cli_fail(&err);
	status = kc_state_status(g->root, &st);
	if (on && status != OCI_STATUS_RUNNING && status != OCI_STATUS_CREATED)
		kc_error_set(&err, 0, "container not running");
	else if (!on && status != OCI_STATUS_PAUSED)
		kc_error_set(&err, 0, "container not paused");
	else if (st.cgroup_path == NULL || *st.cgroup_path == '\0')
		kc_error_set(&err, 0, "the container has no cgroup to freeze");
	if (err) {
		kc_state_free(&st);
		return kc_cli_fail(&err);
	}
	ret = on ? kc_cgroup_freeze(st.cgroup_path, &err) : kc_cgroup_thaw(st.cgroup_path, &err);
	kc_state_free(&st);
	return ret < 0 ? kc_cli_fail(&err) : 0;
}

int kc_cmd_pause(struct kc_global *g, int argc, char **argv)
{
	return freeze(g, "pause", argc, argv, true);
}

int kc_cmd_resume(struct kc_global *g, int argc, char **argv)
{
	return freeze(g, "resume", argc, argv, false);
}
