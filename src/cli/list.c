/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun list: see kcrun(8).  Table as runc's tabwriter(minwidth 12,
 * padding 3) prints it, or JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/buf.h"
#include "lib/loaded.h"
#include "lib/log.h"
#include "lib/state.h"

struct row {
	struct kc_container c;
	char pid[16];
	char created[64];
};

/* Go's RFC3339Nano: trailing zeros of the fraction dropped. */
static void rfc3339nano(const struct timespec *ts, char *buf, size_t len)
{
	char *dot, *end;

	kc_format_time(ts, buf, len);
	dot = strchr(buf, '.');
	end = strchr(buf, 'Z');
	if (dot == NULL || end == NULL)
		return;
	while (end > dot + 1 && end[-1] == '0')
		end--;
	if (end == dot + 1)
		end = dot;
	memmove(end, strchr(buf, 'Z'), 2);
}

int kc_cmd_list(struct kc_global *g, int argc, char **argv)
{
	const char *format = "table";
	bool quiet = false;
	struct kc_opt opts[] = {
		{"format", 'f', KC_OPT_STRING, &format,
		 "select one of: table or json (default: \"table\")"},
		{"quiet", 'q', KC_OPT_FLAG, &quiet, "display only container IDs"},
		{NULL, 0, 0, NULL, NULL},
	};
	const char *headers[] = {"ID", "PID", "STATUS", "BUNDLE", "CREATED", "OWNER"};
	size_t widths[6], n = 0, count, i, j;
	struct row *rows = NULL;
	char **names = NULL;
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse("list", opts, argc, argv, &first) < 0)
		return 1;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0) {
		kc_error_set(&err, 0, "invalid format option");
		return kc_cli_fail(&err);
	}
	if (kc_state_ids(g->root, &names, &n, &err) < 0)
		return kc_cli_fail(&err);
	count = n;
	rows = calloc(n + 1, sizeof(*rows));
	if (rows == NULL) {
		oci_strv_free(names, count);
		kc_error_set(&err, ENOMEM, "list");
		return kc_cli_fail(&err);
	}
	for (i = j = 0; i < n; i++) {
		struct row *r = &rows[j];

		if (kc_container_load(g->root, names[i], &r->c, &err) < 0) {
			/* as runc: a directory being created or removed, or left
			 * by an interrupted create, is skipped with a note */
			fprintf(stderr, "load container %s: %s\n", names[i], err->msg);
			kc_error_free(&err);
			continue;
		}
		if (r->c.state.owner == NULL || *r->c.state.owner == '\0') {
			free(r->c.state.owner);
			r->c.state.owner = kc_state_owner(g->root, names[i]);
		}
		snprintf(r->pid, sizeof(r->pid), "%d",
			 r->c.status == OCI_STATUS_STOPPED ? 0 : (int)r->c.state.pid);
		rfc3339nano(&r->c.state.created, r->created, sizeof(r->created));
		j++;
	}
	n = j;

	if (quiet) {
		for (i = 0; i < n; i++)
			printf("%s\n", rows[i].c.state.id);
	} else if (strcmp(format, "json") == 0) {
		struct kc_buf b = {0};

		if (n == 0)
			kc_buf_printf(&b, "null");
		for (i = 0; i < n; i++) {
			struct row *r = &rows[i];
			size_t k;

			kc_buf_printf(&b, "%s{\"ociVersion\":\"%s\",\"id\":", i ? "," : "[",
				      OCI_SPEC_VERSION);
			kc_buf_json_string(&b, r->c.state.id);
			kc_buf_printf(&b, ",\"pid\":%s,\"status\":\"%s\",\"bundle\":", r->pid,
				      oci_status_name(r->c.status));
			kc_buf_json_string(&b, r->c.state.bundle);
			kc_buf_printf(&b, ",\"rootfs\":");
			kc_buf_json_string(&b, r->c.state.rootfs);
			kc_buf_printf(&b, ",\"created\":\"%s\"", r->created);
			if (r->c.state.annotations.len) {
				kc_buf_printf(&b, ",\"annotations\":{");
				for (k = 0; k < r->c.state.annotations.len; k++) {
					if (k)
						kc_buf_printf(&b, ",");
					kc_buf_json_string(&b, r->c.state.annotations.entries[k].key);
					kc_buf_printf(&b, ":");
					kc_buf_json_string(&b, r->c.state.annotations.entries[k].value);
				}
				kc_buf_printf(&b, "}");
			}
			kc_buf_printf(&b, ",\"owner\":");
			kc_buf_json_string(&b, r->c.state.owner);
			kc_buf_printf(&b, "}");
		}
		if (n)
			kc_buf_printf(&b, "]");
		printf("%s\n", b.data ? b.data : "null");
		free(b.data);
	} else {
		for (i = 0; i < 6; i++)
			widths[i] = strlen(headers[i]);
		for (i = 0; i < n; i++) {
			const char *cells[] = {rows[i].c.state.id, rows[i].pid,
					       oci_status_name(rows[i].c.status), rows[i].c.state.bundle,
					       rows[i].created};
			for (j = 0; j < 5; j++)
				if (strlen(cells[j]) > widths[j])
					widths[j] = strlen(cells[j]);
		}
		for (i = 0; i < 5; i++)
			widths[i] = widths[i] + 3 < 12 ? 12 : widths[i] + 3;
		for (i = 0; i < 5; i++)
			printf("%-*s", (int)widths[i], headers[i]);
		printf("%s\n", headers[5]);
		for (i = 0; i < n; i++) {
			const char *cells[] = {rows[i].c.state.id, rows[i].pid,
					       oci_status_name(rows[i].c.status), rows[i].c.state.bundle,
					       rows[i].created};
			for (j = 0; j < 5; j++)
				printf("%-*s", (int)widths[j], cells[j]);
			printf("%s\n", rows[i].c.state.owner);
		}
	}
	for (i = 0; i < n; i++)
		kc_container_release(&rows[i].c);
	free(rows);
	oci_strv_free(names, count);
	return 0;
}
