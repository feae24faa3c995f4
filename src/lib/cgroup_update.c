/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, `kcrun update`: see cgroup_update.h. */
#include "cgroup_update.h"
#include "cgroup.h"
#include "cleanup.h"
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kc_cgroup_read_cpu_max(const char *dir, int64_t *quota, uint64_t *period, kc_error_t *err)
{
	cleanup_free char *content = NULL;
	char quota_text[32];
	unsigned long long period_value;
	int rc = kc_read_file_in(dir, "cpu.max", &content);

	if (rc < 0)
		return kc_error_set(err, -rc, "read cpu.max in %s", dir);
	if (sscanf(content, "%31s %llu", quota_text, &period_value) != 2)
		return kc_error_set(err, EINVAL, "cpu.max in %s: unexpected `%s`", dir, content);
	*quota = strcmp(quota_text, "max") == 0 ? -1 : strtoll(quota_text, NULL, 10);
	*period = period_value;
	return 0;
}

void kc_cgroup_snapshot_take(const char *dir, struct kc_cgroup_snapshot *snapshot)
{
	size_t i, j;

	snapshot->n = 0;
	for (i = 0; i < kc_cgroup_writers_len; i++) {
		const struct kc_cgroup_writer *writer = &kc_cgroup_writers[i];

		for (j = 0; j < KC_CGROUP_WRITER_FILES && writer->files[j]; j++) {
			char *content = NULL;

			if (snapshot->n == KC_CGROUP_SNAPSHOT_MAX ||
			    kc_read_file_in(dir, writer->files[j], &content) < 0)
				continue;
			content[strcspn(content, "\n")] = '\0';
			snapshot->file[snapshot->n] = writer->files[j];
			snapshot->value[snapshot->n++] = content;
		}
	}
}

void kc_cgroup_snapshot_restore(const char *dir, struct kc_cgroup_snapshot *snapshot)
{
	size_t i;

	for (i = snapshot->n; i-- > 0;)
		kc_cgroup_write_raw(dir, snapshot->file[i],
				    snapshot->value[i][0] ? snapshot->value[i] : "\n");
	kc_cgroup_snapshot_free(snapshot);
}

void kc_cgroup_snapshot_free(struct kc_cgroup_snapshot *snapshot)
{
	size_t i;

	for (i = 0; i < snapshot->n; i++)
		free(snapshot->value[i]);
	snapshot->n = 0;
}

int kc_cgroup_update(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	struct kc_cgroup_snapshot before;

	/* The kernel may still refuse a value (cpus that do not exist): put
	 * back what was written before it, so a failed update changes nothing. */
	kc_cgroup_snapshot_take(dir, &before);
	if (kc_cgroup_apply(dir, resources, err) < 0) {
		kc_cgroup_snapshot_restore(dir, &before);
		return -1;
	}
	kc_cgroup_snapshot_free(&before);
	return 0;
}

int kc_cgroup_read_resources_file(const char *resources_file, struct oci_resources **resources,
				  kc_error_t *err)
{
	cleanup_free char *json = NULL, *parse_error = NULL;
	size_t len;
	int rc = kc_read_file(strcmp(resources_file, "-") == 0 ? "/dev/stdin" : resources_file, 0,
			      &json, &len);

	if (rc < 0)
		return kc_error_set(err, -rc, "read resources file `%s`", resources_file);
	if (oci_linux_resources_parse_string(json, len, resources, &parse_error) < 0)
		return kc_error_set(err, EINVAL, "resources file `%s`: %s", resources_file,
				    parse_error ? parse_error : "invalid");
	return 0;
}

int kc_cgroup_update_from_file(const char *dir, const char *resources_file, kc_error_t *err)
{
	struct oci_resources *resources = NULL;
	int rc;

	if (kc_cgroup_read_resources_file(resources_file, &resources, err) < 0)
		return -1;
	rc = kc_cgroup_update(dir, resources, err);
	oci_resources_free(resources);
	return rc;
}
