/* kcrun list: see kcrun(8).  Table as runc's tabwriter(minwidth 12,
 * padding 3) prints it, or JSON. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "lib/buf.h"
#include "lib/loaded.h"
#include "lib/log.h"
#include "lib/state.h"

struct row {
	struct kc_state st;
	enum oci_status status;
	char pid[16];
	char created[64];
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

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

/* runc's OWNER: the user name of the uid owning <root>/<id> (from
 * /etc/passwd), or "#UID" when it has none. */
static char *owner_of(const char *root, const char *id)
{
	char path[4096], line[1024], *owner = NULL;
	struct stat sb;
	FILE *passwd;

	snprintf(path, sizeof(path), "%s/%s", root, id);
	if (stat(path, &sb) < 0)
		return strdup("");
	passwd = fopen("/etc/passwd", "re");
	while (passwd && owner == NULL && fgets(line, sizeof(line), passwd)) {
		char *name = line, *uid, *end;

		if ((uid = strchr(line, ':')) == NULL || (uid = strchr(uid + 1, ':')) == NULL)
			continue;
		*strchr(name, ':') = '\0';
		if (strtoul(uid + 1, &end, 10) == sb.st_uid && *end == ':' && end > uid + 1)
			owner = strdup(name);
	}
	if (passwd)
		fclose(passwd);
	if (owner == NULL && asprintf(&owner, "#%u", (unsigned)sb.st_uid) < 0)
		owner = NULL;
	return owner ? owner : strdup("");
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
	size_t widths[6], n = 0, cap = 0, i, j;
	struct row *rows = NULL;
	char **names = NULL;
	kc_error_t err = NULL;
	struct dirent *de;
	DIR *dir;
	int first;

	if (kc_cli_parse("list", opts, argc, argv, &first) < 0)
		return 1;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0) {
		kc_error_set(&err, 0, "invalid format option");
		return kc_cli_fail(&err);
	}
	dir = opendir(g->root);
	if (dir == NULL && errno != ENOENT) {
		kc_error_set(&err, errno, "open %s", g->root);
		return kc_cli_fail(&err);
	}
	while (dir && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = realloc(names, (cap + 1) * sizeof(*names));
		}
		names[n++] = strdup(de->d_name);
		names[n] = NULL;
	}
	if (dir)
		closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	rows = calloc(n + 1, sizeof(*rows));
	for (i = j = 0; i < n; i++) {
		struct row *r = &rows[j];

		if (kc_state_read(g->root, names[i], &r->st, &err) < 0) {
			/* as runc: a directory being created or removed, or left
			 * by an interrupted create, is skipped with a note */
			fprintf(stderr, "load container %s: %s\n", names[i], err->msg);
			kc_error_free(&err);
			continue;
		}
		if (r->st.owner == NULL || *r->st.owner == '\0') {
			free(r->st.owner);
			r->st.owner = owner_of(g->root, names[i]);
		}
		r->status = kc_container_status(g->root, &r->st);
		snprintf(r->pid, sizeof(r->pid), "%d",
			 r->status == OCI_STATUS_STOPPED ? 0 : (int)r->st.pid);
		rfc3339nano(&r->st.created, r->created, sizeof(r->created));
		j++;
	}
	n = j;

	if (quiet) {
		for (i = 0; i < n; i++)
			printf("%s\n", rows[i].st.id);
	} else if (strcmp(format, "json") == 0) {
		struct kc_buf b = {0};

		if (n == 0)
			kc_buf_printf(&b, "null");
		for (i = 0; i < n; i++) {
			struct row *r = &rows[i];
			size_t k;

			kc_buf_printf(&b, "%s{\"ociVersion\":\"%s\",\"id\":", i ? "," : "[",
				      OCI_SPEC_VERSION);
			kc_buf_json_string(&b, r->st.id);
			kc_buf_printf(&b, ",\"pid\":%s,\"status\":\"%s\",\"bundle\":", r->pid,
				      oci_status_name(r->status));
			kc_buf_json_string(&b, r->st.bundle);
			kc_buf_printf(&b, ",\"rootfs\":");
			kc_buf_json_string(&b, r->st.rootfs);
			kc_buf_printf(&b, ",\"created\":\"%s\"", r->created);
			if (r->st.annotations.len) {
				kc_buf_printf(&b, ",\"annotations\":{");
				for (k = 0; k < r->st.annotations.len; k++) {
					if (k)
						kc_buf_printf(&b, ",");
					kc_buf_json_string(&b, r->st.annotations.entries[k].key);
					kc_buf_printf(&b, ":");
					kc_buf_json_string(&b, r->st.annotations.entries[k].value);
				}
				kc_buf_printf(&b, "}");
			}
			kc_buf_printf(&b, ",\"owner\":");
			kc_buf_json_string(&b, r->st.owner);
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
			const char *cells[] = {rows[i].st.id, rows[i].pid,
					       oci_status_name(rows[i].status), rows[i].st.bundle,
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
			const char *cells[] = {rows[i].st.id, rows[i].pid,
					       oci_status_name(rows[i].status), rows[i].st.bundle,
					       rows[i].created};
			for (j = 0; j < 5; j++)
				printf("%-*s", (int)widths[j], cells[j]);
			printf("%s\n", rows[i].st.owner);
		}
	}
	for (i = 0; i < n; i++)
		kc_state_free(&rows[i].st);
	free(rows);
	for (i = 0; names && names[i] && i < cap; i++)
		free(names[i]);
	free(names);
	return 0;
}
