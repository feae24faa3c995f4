/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun features: what this kcrun supports, as JSON (runc's format).  What
 * depends on the running kernel is probed and reported among the
 * annotations, as runc reports its own extensions there:
 * org.kcrun.keys.containerKeyring and org.kcrun.keys.intercept ("true" or
 * "false"; see docs/kernel-api.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lib/keys.h"
#include "lib/systemd_scope.h"
#include "oci-spec/spec.h"

int kc_cmd_features(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_keys_features keys;
	struct oci_map extra = {0};
	kc_error_t err = NULL;
	char *json = NULL;
	int first, ret;

	(void)g;
	if (kc_cli_parse("features", opts, argc, argv, &first) < 0)
		return 1;
	kc_keys_probe(&keys);
	if (oci_map_set(&extra, "org.kcrun.keys.containerKeyring",
			keys.container_keyring ? "true" : "false") < 0 ||
	    oci_map_set(&extra, "org.kcrun.keys.intercept", keys.intercept ? "true" : "false") < 0)
		ret = -1;
	else
		ret = oci_features_to_json_host(&(struct oci_features_host){
							.systemd = kc_systemd_built(),
							.annotations = &extra,
						}, &json);
	oci_map_free(&extra);
	if (ret < 0) {
		kc_error_set(&err, errno, "features");
		return kc_cli_fail(&err);
	}
	printf("%s\n", json);
	free(json);
	return 0;
}
