/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Container statistics from cgroup v2 files, as runc's events JSON: see
 * stats.h. */
#include "stats.h"
#include "cleanup.h"
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

/* What Go's ParseUint gives "max": runc reports it as is. */
#define STATS_MAX UINT64_MAX

static inline void yajl_gen_freep(yajl_gen *gen)
{
	if (*gen)
		yajl_gen_free(*gen);
}
#define cleanup_gen __attribute__((cleanup(yajl_gen_freep)))

/* dir/file (malloc'ed, NUL-terminated); NULL when it cannot be read. */
static char *read_file(const char *dir, const char *file)
{
	char *content = NULL;

	return kc_read_file_in(dir, file, &content) < 0 ? NULL : content;
}

/* A single-value file: a number, or "max" (STATS_MAX).  false: no file. */
static bool read_value(const char *dir, const char *file, uint64_t *value)
{
	cleanup_free char *content = read_file(dir, file);

	if (content == NULL)
		return false;
	*value = strncmp(content, "max", 3) == 0 ? STATS_MAX : strtoull(content, NULL, 10);
	return true;
}

/* The value of "key N" in a flat-keyed file's content. */
static bool keyed_value(const char *content, const char *key, uint64_t *value)
{
	size_t key_len = strlen(key);
	const char *line;

	for (line = content; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, key, key_len) == 0 && line[key_len] == ' ') {
			*value = strtoull(line + key_len + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

static uint64_t read_keyed_value(const char *dir, const char *file, const char *key)
{
	cleanup_free char *content = read_file(dir, file);
	uint64_t value = 0;

	if (content)
		keyed_value(content, key, &value);
	return value;
}

/* ---------- JSON ---------- */

static void gen_key(yajl_gen g, const char *key)
{
	yajl_gen_string(g, (const unsigned char *)key, strlen(key));
}

static void gen_u64(yajl_gen g, uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, value);
	yajl_gen_number(g, text, strlen(text));
}

static void gen_key_u64(yajl_gen g, const char *key, uint64_t value)
{
	gen_key(g, key);
	gen_u64(g, value);
}

/* Go's omitempty: a zero number is left out. */
static void gen_key_u64_omitempty(yajl_gen g, const char *key, uint64_t value)
{
	if (value != 0)
		gen_key_u64(g, key, value);
}

static void gen_cpu(yajl_gen g, const char *dir)
{
	cleanup_free char *stat = read_file(dir, "cpu.stat");
	uint64_t total = 0, user = 0, system = 0, periods = 0, throttled = 0, throttled_usec = 0;

	if (stat) {
		keyed_value(stat, "usage_usec", &total);
		keyed_value(stat, "user_usec", &user);
		keyed_value(stat, "system_usec", &system);
		keyed_value(stat, "nr_periods", &periods);
		keyed_value(stat, "nr_throttled", &throttled);
		keyed_value(stat, "throttled_usec", &throttled_usec);
	}
	gen_key(g, "cpu");
	yajl_gen_map_open(g);
	gen_key(g, "usage");
	yajl_gen_map_open(g);
	gen_key_u64_omitempty(g, "total", total * 1000);
	gen_key_u64(g, "kernel", system * 1000);
	gen_key_u64(g, "user", user * 1000);
	yajl_gen_map_close(g);
	gen_key(g, "throttling");
	yajl_gen_map_open(g);
	gen_key_u64_omitempty(g, "periods", periods);
	gen_key_u64_omitempty(g, "throttledPeriods", throttled);
	gen_key_u64_omitempty(g, "throttledTime", throttled_usec * 1000);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

/* cgroup v2 has none of v1's cpuset statistics: runc reports zeros. */
static void gen_cpuset(yajl_gen g)
{
	static const char *const fields[] = {
		"cpu_exclusive", "mem_hardwall", "mem_exclusive", "memory_migrate",
		"memory_spread_page", "memory_spread_slab", "memory_pressure",
		"sched_load_balance", "sched_relax_domain_level",
	};
	size_t i;

	gen_key(g, "cpuset");
	yajl_gen_map_open(g);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		gen_key_u64(g, fields[i], 0);
	yajl_gen_map_close(g);
}

struct memory_entry {
	uint64_t limit, usage, max, failcnt;
};

static void gen_memory_entry(yajl_gen g, const char *key, const struct memory_entry *entry)
{
	gen_key(g, key);
	yajl_gen_map_open(g);
	gen_key_u64(g, "limit", entry->limit);
	gen_key_u64_omitempty(g, "usage", entry->usage);
	gen_key_u64_omitempty(g, "max", entry->max);
	gen_key_u64(g, "failcnt", entry->failcnt);
	yajl_gen_map_close(g);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* memory.stat as "raw", keys sorted as Go marshals a map. */
static void gen_memory_raw(yajl_gen g, char *stat)
{
	cleanup_free char **lines = NULL;
	size_t n = 0, cap = 0, i;
	char *line, *save = NULL;

	for (line = strtok_r(stat, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strchr(line, ' '))
			continue;
		if (n == cap) {
			char **bigger = realloc(lines, (cap = cap ? cap * 2 : 64) * sizeof(*lines));

			if (bigger == NULL)
				return;
			lines = bigger;
		}
		lines[n++] = line;
	}
	if (n == 0)
		return;
	qsort(lines, n, sizeof(*lines), compare_strings);
	gen_key(g, "raw");
	yajl_gen_map_open(g);
	for (i = 0; i < n; i++) {
		char *space = strchr(lines[i], ' ');

		*space = '\0';
		gen_key_u64(g, lines[i], strtoull(space + 1, NULL, 10));
	}
	yajl_gen_map_close(g);
}

static void gen_memory(yajl_gen g, const char *dir)
{
	cleanup_free char *stat = read_file(dir, "memory.stat");
	struct memory_entry usage = { 0 }, swap = { 0 }, none = { 0 };
	uint64_t cache = 0;

	/* runc: no memory.stat, no memory statistics at all. */
	if (stat) {
		keyed_value(stat, "file", &cache);
		if (read_value(dir, "memory.current", &usage.usage))
			read_value(dir, "memory.max", &usage.limit);
		read_value(dir, "memory.peak", &usage.max);
		if (read_value(dir, "memory.swap.current", &swap.usage))
			read_value(dir, "memory.swap.max", &swap.limit);
		/* v1's mem+swap, as runc reports it on v2 */
		swap.usage += usage.usage;
		if (swap.limit != STATS_MAX)
			swap.limit += usage.limit;
	}
	gen_key(g, "memory");
	yajl_gen_map_open(g);
	gen_key_u64_omitempty(g, "cache", cache);
	gen_memory_entry(g, "usage", &usage);
	gen_memory_entry(g, "swap", &swap);
	gen_memory_entry(g, "kernel", &none);
	gen_memory_entry(g, "kernelTCP", &none);
	if (stat)
		gen_memory_raw(g, stat);
	yajl_gen_map_close(g);
}

static void gen_pids(yajl_gen g, const char *dir)
{
	uint64_t current = 0, limit = 0;

	if (!read_value(dir, "pids.current", &current)) {
		/* no pids controller: count cgroup.procs, as runc */
		cleanup_free char *procs = read_file(dir, "cgroup.procs");
		const char *p;

		for (p = procs; p && *p; p++)
			current += *p == '\n';
	}
	if (read_value(dir, "pids.max", &limit) && limit == STATS_MAX)
		limit = 0;
	gen_key(g, "pids");
	yajl_gen_map_open(g);
	gen_key_u64_omitempty(g, "current", current);
	gen_key_u64_omitempty(g, "limit", limit);
	yajl_gen_map_close(g);
}

/* One of runc's blkio lists from io.stat: read_key/write_key of every
 * device line become {major, minor, op: Read/Write, value} entries. */
static void gen_blkio_list(yajl_gen g, const char *io_stat, const char *list, const char *read_key,
			   const char *write_key)
{
	cleanup_free char *copy = strdup(io_stat);
	char *line, *save = NULL;
	bool opened = false;

	if (copy == NULL)
		return;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long major, minor;
		char *item, *item_save = NULL;
		int consumed = 0;

		if (sscanf(line, "%llu:%llu%n", &major, &minor, &consumed) != 2)
			continue;
		for (item = strtok_r(line + consumed, " ", &item_save); item;
		     item = strtok_r(NULL, " ", &item_save)) {
			char *eq = strchr(item, '=');
			const char *op;

			if (eq == NULL)
				continue;
			*eq = '\0';
			if (strcmp(item, read_key) == 0)
				op = "Read";
			else if (strcmp(item, write_key) == 0)
				op = "Write";
			else
				continue;
			if (!opened) {
				gen_key(g, list);
				yajl_gen_array_open(g);
				opened = true;
			}
			yajl_gen_map_open(g);
			gen_key_u64_omitempty(g, "major", major);
			gen_key_u64_omitempty(g, "minor", minor);
			gen_key(g, "op");
			yajl_gen_string(g, (const unsigned char *)op, strlen(op));
			gen_key_u64_omitempty(g, "value", strtoull(eq + 1, NULL, 10));
			yajl_gen_map_close(g);
		}
	}
	if (opened)
		yajl_gen_array_close(g);
}

static void gen_blkio(yajl_gen g, const char *dir)
{
	cleanup_free char *io_stat = read_file(dir, "io.stat");

	gen_key(g, "blkio");
	yajl_gen_map_open(g);
	if (io_stat) {
		gen_blkio_list(g, io_stat, "ioServiceBytesRecursive", "rbytes", "wbytes");
		gen_blkio_list(g, io_stat, "ioServicedRecursive", "rios", "wios");
	}
	yajl_gen_map_close(g);
}

/* hugetlb.<size>.current files name the page sizes ("2MB", "1GB"). */
static void gen_hugetlb(yajl_gen g, const char *dir)
{
	cleanup_dir DIR *listing = opendir(dir);
	cleanup_free char **sizes = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *entry;

	gen_key(g, "hugetlb");
	yajl_gen_map_open(g);
	while (listing && (entry = readdir(listing)) != NULL) {
		const char *name = entry->d_name, *dot;

		if (strncmp(name, "hugetlb.", 8) != 0 || (dot = strchr(name + 8, '.')) == NULL ||
		    strcmp(dot, ".current") != 0)
			continue;
		if (n == cap) {
			char **bigger = realloc(sizes, (cap = cap ? cap * 2 : 8) * sizeof(*sizes));

			if (bigger == NULL)
				break;
			sizes = bigger;
		}
		if ((sizes[n] = strndup(name + 8, (size_t)(dot - name - 8))) != NULL)
			n++;
	}
	qsort(sizes, n, sizeof(*sizes), compare_strings);
	for (i = 0; i < n; i++) {
		char file[128];
		uint64_t usage = 0;

		/* runc prefers the reservation counter when there is one */
		snprintf(file, sizeof(file), "hugetlb.%s.rsvd.current", sizes[i]);
		if (!read_value(dir, file, &usage)) {
			snprintf(file, sizeof(file), "hugetlb.%s.current", sizes[i]);
			read_value(dir, file, &usage);
		}
		gen_key(g, sizes[i]);
		yajl_gen_map_open(g);
		gen_key_u64_omitempty(g, "usage", usage);
		snprintf(file, sizeof(file), "hugetlb.%s.events", sizes[i]);
		gen_key_u64(g, "failcnt", read_keyed_value(dir, file, "max"));
		yajl_gen_map_close(g);
		free(sizes[i]);
	}
	yajl_gen_map_close(g);
}

static void gen_event_head(yajl_gen g, const char *type, const char *id)
{
	yajl_gen_map_open(g);
	gen_key(g, "type");
	yajl_gen_string(g, (const unsigned char *)type, strlen(type));
	gen_key(g, "id");
	yajl_gen_string(g, (const unsigned char *)id, strlen(id));
}

static int gen_finish(yajl_gen g, char **json, kc_error_t *err)
{
	const unsigned char *buf;
	size_t len;

	if (yajl_gen_get_buf(g, &buf, &len) != yajl_gen_status_ok ||
	    (*json = strndup((const char *)buf, len)) == NULL)
		return kc_error_set(err, ENOMEM, "events: JSON");
	return 0;
}

int kc_stats_event_json(const char *id, const char *dir, char **json, kc_error_t *err)
{
	cleanup_gen yajl_gen g = yajl_gen_alloc(NULL);

	if (g == NULL)
		return kc_error_set(err, ENOMEM, "events: JSON");
	gen_event_head(g, "stats", id);
	gen_key(g, "data");
	yajl_gen_map_open(g);
	gen_cpu(g, dir);
	gen_cpuset(g);
	gen_memory(g, dir);
	gen_pids(g, dir);
	gen_blkio(g, dir);
	gen_hugetlb(g, dir);
	gen_key(g, "intel_rdt");
	yajl_gen_map_open(g);
	yajl_gen_map_close(g);
	gen_key(g, "network_interfaces");
	yajl_gen_null(g);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	return gen_finish(g, json, err);
}

int kc_oom_event_json(const char *id, char **json, kc_error_t *err)
{
	cleanup_gen yajl_gen g = yajl_gen_alloc(NULL);

	if (g == NULL)
		return kc_error_set(err, ENOMEM, "events: JSON");
	gen_event_head(g, "oom", id);
	yajl_gen_map_close(g);
	return gen_finish(g, json, err);
}

uint64_t kc_stats_oom_kills(const char *dir)
{
	return read_keyed_value(dir, "memory.events", "oom_kill");
}
