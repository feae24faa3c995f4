/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Container state JSON (runtime-spec state, as hooks get it on stdin, plus
 * the fields `runc state` adds) -> struct oci_state. */
#include "spec.h"
#include "json_tree.h"
#include "parse_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* RFC 3339 ("2024-01-02T03:04:05.123456789Z" or with a +hh:mm offset). */
static int parse_rfc3339(const char *s, struct timespec *out)
{
	struct tm tm = { 0 };
	const char *p;
	long nsec = 0, scale = 100000000;
	int offset = 0, hh, mm, n = 0;
	time_t t;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n != 19)
		return -1;
	p = s + n;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			nsec += (*p - '0') * scale;
			scale /= 10;
		}
	}
	if (*p == 'Z' && p[1] == '\0') {
		offset = 0;
	} else if ((*p == '+' || *p == '-') && sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &n) == 2 &&
		   n == 5 && p[6] == '\0') {
		offset = (hh * 60 + mm) * 60 * (*p == '-' ? -1 : 1);
	} else {
		return -1;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return -1;
	out->tv_sec = t - offset;
	out->tv_nsec = nsec;
	return 0;
}

static int parse_state_object(struct parse_ctx *ctx, const struct json_value *obj,
			      struct oci_state *state)
{
	char *status = NULL, *created = NULL;
	int64_t pid = 0;
	int rc = 0;

	if (obj->type != JSON_OBJECT)
		return oci_ctx_type_error(ctx, "an object", obj);
	if (oci_get_string(ctx, obj, "ociVersion", true, 256, &state->oci_version) < 0 ||
	    oci_get_string(ctx, obj, "id", true, 4096, &state->id) < 0 ||
	    oci_get_string(ctx, obj, "status", true, 64, &status) < 0)
		return -1;
	if (oci_status_from_name(status, &state->status) < 0)
		rc = oci_ctx_fail(ctx, "status", "unknown status \"%s\"", status);
	free(status);
	if (rc < 0)
		return -1;
	if (oci_get_int_range(ctx, obj, "pid", false, 0, INT32_MAX, NULL, &pid) < 0 ||
	    oci_get_string(ctx, obj, "bundle", true, OCI_PATH_MAX_LEN, &state->bundle) < 0 ||
	    oci_get_string_map(ctx, obj, "annotations", &state->annotations) < 0 ||
	    oci_get_string(ctx, obj, "rootfs", false, OCI_PATH_MAX_LEN, &state->rootfs) < 0 ||
	    oci_get_string(ctx, obj, "owner", false, 4096, &state->owner) < 0 ||
	    oci_get_string(ctx, obj, "created", false, 64, &created) < 0)
		return -1;
	state->pid = (int)pid;
	if (created && parse_rfc3339(created, &state->created) < 0)
		rc = oci_ctx_fail(ctx, "created", "not an RFC 3339 time: \"%s\"", created);
	free(created);
	return rc;
}

static int convert_state(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	return parse_state_object(ctx, obj, dst);
}

static void free_state(void *state)
{
	oci_state_free(state);
}

int oci_state_parse_string(const char *json, size_t len, struct oci_state **out, char **errmsg)
{
	return oci_parse_document(json, len, "state", sizeof(struct oci_state), convert_state,
				  free_state, (void **)out, errmsg);
}
