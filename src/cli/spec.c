/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun spec: the same default config.json as `runc spec`. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lib/cgroup.h"
#include "oci-spec/spec.h"

/* runc adds a cgroup namespace to its default spec on a cgroup v2 host. */
static char *add_cgroup_namespace(char *json)
{
	static const char mount[] = "\"type\": \"mount\"\n\t\t\t}";
	static const char add[] = ",\n\t\t\t{\n\t\t\t\t\"type\": \"cgroup\"\n\t\t\t}";
	char *at = strstr(json, mount), *out;
	size_t head;

	if (at == NULL || !kc_cgroup_v2_mounted())
		return json;
	head = (size_t)(at - json) + sizeof(mount) - 1;
	out = malloc(strlen(json) + sizeof(add));
	if (out == NULL)
		return json;
	memcpy(out, json, head);
	strcpy(out + head, add);
	strcat(out, json + head);
	free(json);
	return out;
}

int kc_cmd_spec(struct kc_global *g, int argc, char **argv)
{
	const char *bundle = NULL;
	bool rootless = false;
	struct kc_opt opts[] = {
		{"bundle", 'b', KC_OPT_STRING, &bundle, "path to the root of the bundle directory"},
		{"rootless", 0, KC_OPT_FLAG, &rootless, "generate a configuration for a rootless container"},
		{NULL, 0, 0, NULL, NULL},
	};
	kc_error_t err = NULL;
	char path[4096], *json = NULL;
	size_t len;
	int first, fd;

	(void)g;
	if (kc_cli_parse("spec", opts, argc, argv, &first) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/config.json", bundle ? bundle : ".");
	if (access(path, F_OK) == 0) {
		kc_error_set(&err, 0, "File config.json exists. Remove it first.");
		return kc_cli_fail(&err);
	}
	if (oci_spec_default_json(rootless, &json) < 0) {
		kc_error_set(&err, errno, "default spec");
		return kc_cli_fail(&err);
	}
	json = add_cgroup_namespace(json);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		free(json);
		kc_error_set(&err, errno, "open %s", path);
		return kc_cli_fail(&err);
	}
	len = strlen(json);
	if (write(fd, json, len) != (ssize_t)len) {
		kc_error_set(&err, errno, "write %s", path);
		close(fd);
		free(json);
		return kc_cli_fail(&err);
	}
	close(fd);
	free(json);
	return 0;
}
