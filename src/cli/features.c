/* kcrun features: what this kcrun supports, as JSON (runc's format). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "oci-spec/spec.h"

int kc_cmd_features(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	kc_error_t err = NULL;
	char *json = NULL;
	int first;

	(void)g;
	if (kc_cli_parse("features", opts, argc, argv, &first) < 0)
		return 1;
	if (oci_features_to_json(&json) < 0) {
		kc_error_set(&err, errno, "features");
		return kc_cli_fail(&err);
	}
	printf("%s\n", json);
	free(json);
	return 0;
}
