/* cgroup v2: see cgroup.h. */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* How long freeze/thaw/destroy wait for the kernel to settle. */
#define CGROUP_SETTLE_TIMEOUT_MS 10000

const char *kc_cgroup_root = KC_CGROUP_MOUNT;

static inline void close_fdp(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
#define cleanup_close __attribute__((cleanup(close_fdp)))

static inline void freep(void *ptr)
{
	free(*(void **)ptr);
}
#define cleanup_free __attribute__((cleanup(freep)))

static inline void closedirp(DIR **dir)
{
	if (*dir)
		closedir(*dir);
}
#define cleanup_dir __attribute__((cleanup(closedirp)))

/* ---------- files ---------- */

/* Writes value to dir/file.  Returns 0, or -errno without touching err
 * (the caller words the error: it knows which spec field it was). */
static int write_file_raw(const char *dir, const char *file, const char *value)
{
	cleanup_free char *path = NULL;
	cleanup_close int fd = -1;
	size_t len = strlen(value);
	ssize_t written;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	written = write(fd, value, len);
	if (written < 0)
		return -errno;
	if ((size_t)written != len)
		return -EIO;
	return 0;
}

/* Writes value to dir/file; errors read
 * "<field>: write `<value>` to <file> in <dir>: <strerror>". */
static int write_file(const char *dir, const char *file, const char *value, const char *field,
		      kc_error_t *err)
{
	int rc = write_file_raw(dir, file, value);

	if (rc < 0)
		return kc_error_set(err, -rc, "%s: write `%s` to %s in %s", field, value, file, dir);
	return 0;
}

static int read_file(const char *path, char **content)
{
	cleanup_close int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *bigger = realloc(buf, cap * 2);

			if (bigger == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved_errno = errno;

			free(buf);
			return -saved_errno;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	*content = buf;
	return 0;
}

static int read_cgroup_file(const char *dir, const char *file, char **content)
{
	cleanup_free char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	return read_file(path, content);
}

static bool file_exists(const char *dir, const char *file)
{
	cleanup_free char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return false;
	return access(path, F_OK) == 0;
}

static void sleep_ms(long ms)
{
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&pause, NULL);
}

/* ---------- paths ---------- */

/* Appends the components of path to out (which starts as "" or "/..."),
 * resolving "." and ".." lexically; ".." at the top stays at the top. */
static void append_clean(char *out, size_t out_size, const char *path)
{
	cleanup_free char *copy = strdup(path);
	char *component, *save = NULL;

	if (copy == NULL)
		return;
	for (component = strtok_r(copy, "/", &save); component;
	     component = strtok_r(NULL, "/", &save)) {
		if (strcmp(component, ".") == 0)
			continue;
		if (strcmp(component, "..") == 0) {
			char *slash = strrchr(out, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		if (strlen(out) + 1 + strlen(component) < out_size) {
			strcat(out, "/");
			strcat(out, component);
		}
	}
}

/* The caller's cgroup v2 path, from the "0::" line of /proc/self/cgroup. */
static int own_cgroup(char *out, size_t out_size)
{
	cleanup_free char *content = NULL;
	char *line;
	int rc = read_file("/proc/self/cgroup", &content);

	if (rc < 0)
		return rc;
	for (line = strtok(content, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "0::", 3) == 0) {
			out[0] = '\0';
			append_clean(out, out_size, line + 3);
			return 0;
		}
	}
	return -ENOENT;
}

static bool is_systemd_path(const char *cgroups_path)
{
	const char *first = strchr(cgroups_path, ':');

	return cgroups_path[0] != '/' && first && strchr(first + 1, ':') &&
	       !strchr(strchr(first + 1, ':') + 1, ':');
}

int kc_cgroup_resolve(const char *cgroups_path, const char *container_id, char **dir,
		      kc_error_t *err)
{
	char relative[PATH_MAX] = "";

	if (cgroups_path == NULL || *cgroups_path == '\0') {
		append_clean(relative, sizeof(relative), "/kcrun");
		append_clean(relative, sizeof(relative), container_id);
	} else if (is_systemd_path(cgroups_path)) {
		return kc_error_set(err, EINVAL,
				    "linux.cgroupsPath: \"%s\" is a systemd cgroup path (slice:prefix:name); "
				    "kcrun manages cgroupfs paths only (--systemd-cgroup is not supported)",
				    cgroups_path);
	} else if (cgroups_path[0] == '/') {
		append_clean(relative, sizeof(relative), cgroups_path);
	} else {
		int rc = own_cgroup(relative, sizeof(relative));

		if (rc < 0)
			return kc_error_set(err, -rc, "linux.cgroupsPath: \"%s\" is relative, and our own cgroup v2 path is unknown",
					    cgroups_path);
		append_clean(relative, sizeof(relative), cgroups_path);
	}
	if (relative[0] == '\0')
		return kc_error_set(err, EINVAL, "linux.cgroupsPath: \"%s\" names the cgroup root",
				    cgroups_path ? cgroups_path : "");
	if (asprintf(dir, "%s%s", kc_cgroup_root, relative) < 0)
		return kc_error_set(err, ENOMEM, "linux.cgroupsPath");
	return 0;
}

/* ---------- create, enter, destroy ---------- */

/* Enables in parent/cgroup.subtree_control every controller listed in
 * parent/cgroup.controllers, one at a time (a controller that cannot be
 * enabled, e.g. cpuset with a busy parent, must not block the others). */
static void enable_controllers(const char *parent)
{
	cleanup_free char *available = NULL;
	char *controller, *save = NULL;

	if (read_cgroup_file(parent, "cgroup.controllers", &available) < 0)
		return;
	for (controller = strtok_r(available, " \n", &save); controller;
	     controller = strtok_r(NULL, " \n", &save)) {
		char request[64];

		snprintf(request, sizeof(request), "+%s", controller);
		write_file_raw(parent, "cgroup.subtree_control", request);
	}
}

int kc_cgroup_create(const char *dir, kc_error_t *err)
{
	size_t root_len = strlen(kc_cgroup_root);
	cleanup_free char *path = strdup(dir);
	char *next;

	if (path == NULL)
		return kc_error_set(err, ENOMEM, "create cgroup");
	if (strncmp(dir, kc_cgroup_root, root_len) != 0 || dir[root_len] != '/')
		return kc_error_set(err, EINVAL, "cgroup `%s` is not under %s", dir, kc_cgroup_root);
	if (strcmp(kc_cgroup_root, KC_CGROUP_MOUNT) == 0) {
		struct statfs fs;

		if (statfs(kc_cgroup_root, &fs) < 0 || fs.f_type != CGROUP2_SUPER_MAGIC)
			return kc_error_set(err, ENOTSUP,
					    "cgroup v2 is not mounted at %s: kcrun supports only the unified hierarchy",
					    kc_cgroup_root);
	}
	/* Walk down from the root: enable controllers in each level, then
	 * create the next one. */
	for (next = path + root_len + 1;; next++) {
		char saved;

		next = strchrnul(next, '/');
		saved = *next;
		*next = '\0';
		{
			char *slash = strrchr(path, '/');

			*slash = '\0';
			enable_controllers(path);
			*slash = '/';
		}
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return kc_error_set(err, errno, "create cgroup %s", path);
		*next = saved;
		if (saved == '\0')
			break;
	}
	return 0;
}

int kc_cgroup_enter(const char *dir, pid_t pid, kc_error_t *err)
{
	char pid_text[32];
	int rc;

	snprintf(pid_text, sizeof(pid_text), "%d", (int)pid);
	rc = write_file_raw(dir, "cgroup.procs", pid_text);
	if (rc < 0)
		return kc_error_set(err, -rc, "move pid %d into cgroup %s", (int)pid, dir);
	return 0;
}

/* Calls visit(dir) for dir and every sub-cgroup below it, children first. */
static int walk_cgroups(const char *dir, int (*visit)(const char *dir, void *data), void *data)
{
	cleanup_dir DIR *listing = opendir(dir);
	struct dirent *entry;
	int rc;

	if (listing == NULL)
		return -errno;
	while ((entry = readdir(listing)) != NULL) {
		cleanup_free char *child = NULL;

		if (entry->d_type != DT_DIR || strcmp(entry->d_name, ".") == 0 ||
		    strcmp(entry->d_name, "..") == 0)
			continue;
		if (asprintf(&child, "%s/%s", dir, entry->d_name) < 0)
			return -ENOMEM;
		rc = walk_cgroups(child, visit, data);
		if (rc < 0)
			return rc;
	}
	return visit(dir, data);
}

struct pid_list {
	pid_t *pids;
	size_t len, cap;
};

static int collect_pids(const char *dir, void *data)
{
	struct pid_list *list = data;
	cleanup_free char *content = NULL;
	char *line, *save = NULL;
	int rc = read_cgroup_file(dir, "cgroup.procs", &content);

	if (rc < 0)
		return rc;
	for (line = strtok_r(content, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (list->len == list->cap) {
			size_t cap = list->cap ? list->cap * 2 : 16;
			pid_t *bigger = realloc(list->pids, cap * sizeof(pid_t));

			if (bigger == NULL)
				return -ENOMEM;
			list->pids = bigger;
			list->cap = cap;
		}
		list->pids[list->len++] = (pid_t)strtol(line, NULL, 10);
	}
	return 0;
}

int kc_cgroup_pids(const char *dir, pid_t **pids, size_t *n, kc_error_t *err)
{
	struct pid_list list = { 0 };
	int rc = walk_cgroups(dir, collect_pids, &list);

	if (rc < 0) {
		free(list.pids);
		return kc_error_set(err, -rc, "list the processes of cgroup %s", dir);
	}
	*pids = list.pids;
	*n = list.len;
	return 0;
}

static int remove_cgroup(const char *dir, void *data)
{
	(void)data;
	if (rmdir(dir) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static int kill_cgroup_members(const char *dir)
{
	pid_t *pids = NULL;
	size_t n = 0, i;
	kc_error_t ignored = NULL;

	if (kc_cgroup_pids(dir, &pids, &n, &ignored) < 0) {
		kc_error_free(&ignored);
		return 0;
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	free(pids);
	return (int)n;
}

int kc_cgroup_destroy(const char *dir, kc_error_t *err)
{
	bool has_kill_file = file_exists(dir, "cgroup.kill");
	int waited_ms = 0, rc;

	if (access(dir, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (has_kill_file)
		write_file_raw(dir, "cgroup.kill", "1");
	for (;;) {
		if (!has_kill_file)
			kill_cgroup_members(dir);
		rc = walk_cgroups(dir, remove_cgroup, NULL);
		if (rc == 0 || rc == -ENOENT)
			return 0;
		/* EBUSY while killed processes are still exiting. */
		if (rc != -EBUSY || waited_ms >= CGROUP_SETTLE_TIMEOUT_MS)
			return kc_error_set(err, -rc, "remove cgroup %s", dir);
		sleep_ms(10);
		waited_ms += 10;
	}
}

/* ---------- freezer ---------- */

int kc_cgroup_is_frozen(const char *dir, bool *frozen, kc_error_t *err)
{
	cleanup_free char *events = NULL;
	const char *line;
	int rc = read_cgroup_file(dir, "cgroup.events", &events);

	if (rc < 0)
		return kc_error_set(err, -rc, "read cgroup.events in %s", dir);
	for (line = events; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "frozen ", 7) == 0) {
			*frozen = line[7] == '1';
			return 0;
		}
	}
	*frozen = false;
	return 0;
}

static int set_frozen(const char *dir, bool freeze, kc_error_t *err)
{
	const char *what = freeze ? "freeze" : "thaw";
	int waited_ms;
	int rc = write_file_raw(dir, "cgroup.freeze", freeze ? "1" : "0");

	if (rc < 0)
		return kc_error_set(err, -rc, "%s cgroup %s: write cgroup.freeze", what, dir);
	for (waited_ms = 0; waited_ms < CGROUP_SETTLE_TIMEOUT_MS; waited_ms += 5) {
		bool frozen;

		if (kc_cgroup_is_frozen(dir, &frozen, err) < 0)
			return kc_error_wrap(err, "%s", what);
		if (frozen == freeze)
			return 0;
		sleep_ms(5);
	}
	return kc_error_set(err, ETIMEDOUT, "%s cgroup %s: cgroup.events never said \"frozen %d\"",
			    what, dir, freeze ? 1 : 0);
}

int kc_cgroup_freeze(const char *dir, kc_error_t *err)
{
	return set_frozen(dir, true, err);
}

int kc_cgroup_thaw(const char *dir, kc_error_t *err)
{
	return set_frozen(dir, false, err);
}

/* ---------- conversions (runc's) ---------- */

uint64_t kc_cgroup_cpu_shares_to_weight(uint64_t shares)
{
	if (shares == 0)
		return 0;
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + ((shares - 2) * 9999) / 262142;
}

uint64_t kc_cgroup_blkio_weight_to_io_weight(uint64_t weight)
{
	if (weight == 0)
		return 0;
	if (weight < 10)
		weight = 10;
	if (weight > 1000)
		weight = 1000;
	return 1 + (weight - 10) * 9999 / 990;
}

int kc_cgroup_swap_max(int64_t swap, int64_t limit, char out[32], kc_error_t *err)
{
	out[0] = '\0';
	/* Unlimited memory and no swap setting: unlimited swap too (v1 compat). */
	if (limit == -1 && swap == 0) {
		strcpy(out, "max");
		return 0;
	}
	if (swap == -1) {
		strcpy(out, "max");
		return 0;
	}
	if (swap == 0)
		return 0;
	if (limit == 0 || limit == -1)
		return kc_error_set(err, EINVAL,
				    "linux.resources.memory.swap: unable to set swap limit without memory limit");
	if (limit < 0)
		return kc_error_set(err, EINVAL, "linux.resources.memory.limit: invalid value %" PRId64, limit);
	if (swap < limit)
		return kc_error_set(err, EINVAL,
				    "linux.resources.memory.swap: memory+swap limit (%" PRId64
				    ") should be >= memory limit (%" PRId64 ")", swap, limit);
	snprintf(out, 32, "%" PRId64, swap - limit);
	return 0;
}

/* "max" for -1 (unlimited), the number otherwise. */
static void limit_text(int64_t value, char out[32])
{
	if (value == -1)
		strcpy(out, "max");
	else
		snprintf(out, 32, "%" PRId64, value);
}

/* ---------- resources ---------- */

static int apply_memory(const char *dir, const struct oci_memory *memory, kc_error_t *err)
{
	int64_t limit = memory->has_limit ? memory->limit : 0;
	int64_t swap = memory->has_swap ? memory->swap : 0;
	char value[32];
	int rc;

	if (memory->has_check_before_update && memory->check_before_update && limit > 0) {
		cleanup_free char *current = NULL;

		if (read_cgroup_file(dir, "memory.current", &current) == 0 &&
		    strtoll(current, NULL, 10) > limit)
			return kc_error_set(err, EBUSY,
					    "linux.resources.memory.limit: %" PRId64 " is below the current usage %lld",
					    limit, strtoll(current, NULL, 10));
	}
	if (kc_cgroup_swap_max(swap, limit, value, err) < 0)
		return -1;
	if (value[0]) {
		rc = write_file_raw(dir, "memory.swap.max", value);
		/* No swap accounting: asking for none or for unlimited is moot. */
		if (rc < 0 && !(rc == -ENOENT && (strcmp(value, "max") == 0 || strcmp(value, "0") == 0)))
			return kc_error_set(err, -rc, "linux.resources.memory.swap: write `%s` to memory.swap.max in %s",
					    value, dir);
	}
	if (limit != 0) {
		limit_text(limit, value);
		if (write_file(dir, "memory.max", value, "linux.resources.memory.limit", err) < 0)
			return -1;
	}
	if (memory->has_reservation && memory->reservation != 0) {
		limit_text(memory->reservation, value);
		if (write_file(dir, "memory.low", value, "linux.resources.memory.reservation", err) < 0)
			return -1;
	}
	return 0;
}

static int apply_cpu(const char *dir, const struct oci_cpu *cpu, kc_error_t *err)
{
	int64_t quota = cpu->has_quota ? cpu->quota : 0;
	uint64_t period = cpu->has_period ? cpu->period : 0;
	char value[64];

	if ((cpu->has_realtime_runtime && cpu->realtime_runtime != 0) ||
	    (cpu->has_realtime_period && cpu->realtime_period != 0))
		return kc_error_set(err, ENOTSUP,
				    "linux.resources.cpu.realtimeRuntime/realtimePeriod: not supported on cgroup v2");
	if (cpu->has_shares && cpu->shares != 0) {
		snprintf(value, sizeof(value), "%" PRIu64, kc_cgroup_cpu_shares_to_weight(cpu->shares));
		if (write_file(dir, "cpu.weight", value, "linux.resources.cpu.shares", err) < 0)
			return -1;
	}
	if (quota != 0 || period != 0) {
		if (quota > 0)
			snprintf(value, sizeof(value), "%" PRId64, quota);
		else
			strcpy(value, "max");
		if (period != 0)
			snprintf(value + strlen(value), sizeof(value) - strlen(value), " %" PRIu64, period);
		if (write_file(dir, "cpu.max", value, "linux.resources.cpu.quota", err) < 0)
			return -1;
	}
	if (cpu->has_burst) {
		snprintf(value, sizeof(value), "%" PRIu64, cpu->burst);
		if (write_file(dir, "cpu.max.burst", value, "linux.resources.cpu.burst", err) < 0)
			return -1;
	}
	if (cpu->has_idle) {
		snprintf(value, sizeof(value), "%" PRId64, cpu->idle);
		if (write_file(dir, "cpu.idle", value, "linux.resources.cpu.idle", err) < 0)
			return -1;
	}
	if (cpu->cpus && cpu->cpus[0] &&
	    write_file(dir, "cpuset.cpus", cpu->cpus, "linux.resources.cpu.cpus", err) < 0)
		return -1;
	if (cpu->mems && cpu->mems[0] &&
	    write_file(dir, "cpuset.mems", cpu->mems, "linux.resources.cpu.mems", err) < 0)
		return -1;
	return 0;
}

static int apply_throttle(const char *dir, const struct oci_throttle_device *devices, size_t n,
			  const char *key, const char *field, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char value[96], path[96];

		if (devices[i].rate == 0)
			snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %s=max",
				 devices[i].major, devices[i].minor, key);
		else
			snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %s=%" PRIu64,
				 devices[i].major, devices[i].minor, key, devices[i].rate);
		snprintf(path, sizeof(path), "linux.resources.blockIO.%s[%zu]", field, i);
		if (write_file(dir, "io.max", value, path, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_block_io(const char *dir, const struct oci_block_io *block_io, kc_error_t *err)
{
	bool has_bfq = file_exists(dir, "io.bfq.weight");
	char value[96];
	size_t i;

	if (block_io->has_weight && block_io->weight != 0) {
		if (has_bfq) {
			snprintf(value, sizeof(value), "%u", block_io->weight);
			if (write_file(dir, "io.bfq.weight", value, "linux.resources.blockIO.weight", err) < 0)
				return -1;
		} else {
			snprintf(value, sizeof(value), "%" PRIu64,
				 kc_cgroup_blkio_weight_to_io_weight(block_io->weight));
			if (write_file(dir, "io.weight", value, "linux.resources.blockIO.weight", err) < 0)
				return -1;
		}
	}
	for (i = 0; i < block_io->weight_device_len; i++) {
		const struct oci_weight_device *device = &block_io->weight_device[i];
		char field[64];

		if (!device->has_weight)
			continue;
		snprintf(field, sizeof(field), "linux.resources.blockIO.weightDevice[%zu]", i);
		snprintf(value, sizeof(value), "%" PRId64 ":%" PRId64 " %" PRIu64, device->major,
			 device->minor,
			 has_bfq ? device->weight : kc_cgroup_blkio_weight_to_io_weight(device->weight));
		if (write_file(dir, has_bfq ? "io.bfq.weight" : "io.weight", value, field, err) < 0)
			return -1;
	}
	if (apply_throttle(dir, block_io->throttle_read_bps_device, block_io->throttle_read_bps_device_len,
			   "rbps", "throttleReadBpsDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_write_bps_device, block_io->throttle_write_bps_device_len,
			   "wbps", "throttleWriteBpsDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_read_iops_device, block_io->throttle_read_iops_device_len,
			   "riops", "throttleReadIOPSDevice", err) < 0 ||
	    apply_throttle(dir, block_io->throttle_write_iops_device,
			   block_io->throttle_write_iops_device_len, "wiops", "throttleWriteIOPSDevice", err) < 0)
		return -1;
	return 0;
}

static int apply_hugepages(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < resources->hugepage_limits_len; i++) {
		const struct oci_hugepage_limit *limit = &resources->hugepage_limits[i];
		char file[96], rsvd_file[96], value[32], field[64];

		snprintf(file, sizeof(file), "hugetlb.%s.max", limit->page_size);
		snprintf(rsvd_file, sizeof(rsvd_file), "hugetlb.%s.rsvd.max", limit->page_size);
		snprintf(value, sizeof(value), "%" PRIu64, limit->limit);
		snprintf(field, sizeof(field), "linux.resources.hugepageLimits[%zu]", i);
		if (!file_exists(dir, file))
			return kc_error_set(err, ENOENT, "%s: no %s in %s (page size \"%s\" unsupported, or no hugetlb controller)",
					    field, file, dir, limit->page_size);
		if (write_file(dir, file, value, field, err) < 0)
			return -1;
		if (file_exists(dir, rsvd_file) && write_file(dir, rsvd_file, value, field, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_rdma(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < resources->rdma_len; i++) {
		const struct oci_rdma *rdma = &resources->rdma[i];
		char value[256], handles[32] = "max", objects[32] = "max", field[300];

		if (rdma->has_hca_handles)
			snprintf(handles, sizeof(handles), "%u", rdma->hca_handles);
		if (rdma->has_hca_objects)
			snprintf(objects, sizeof(objects), "%u", rdma->hca_objects);
		snprintf(value, sizeof(value), "%s hca_handle=%s hca_object=%s", rdma->device, handles,
			 objects);
		snprintf(field, sizeof(field), "linux.resources.rdma.\"%s\"", rdma->device);
		if (write_file(dir, "rdma.max", value, field, err) < 0)
			return -1;
	}
	return 0;
}

static int apply_unified(const char *dir, const struct oci_map *unified, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < unified->len; i++) {
		const char *key = unified->entries[i].key;
		int rc;

		if (key[0] == '\0' || strchr(key, '/') || strcmp(key, ".") == 0 || strcmp(key, "..") == 0)
			return kc_error_set(err, EINVAL,
					    "linux.resources.unified.\"%s\": must be a file name in the cgroup", key);
		rc = write_file_raw(dir, key, unified->entries[i].value);
		if (rc == -ENOENT)
			return kc_error_set(err, ENOENT,
					    "linux.resources.unified.\"%s\": no such file in %s (controller not available?)",
					    key, dir);
		if (rc < 0)
			return kc_error_set(err, -rc, "linux.resources.unified.\"%s\": write `%s` in %s", key,
					    unified->entries[i].value, dir);
	}
	return 0;
}

int kc_cgroup_apply(const char *dir, const struct oci_resources *resources, kc_error_t *err)
{
	char value[32];

	if (resources == NULL)
		return 0;
	if (resources->memory && apply_memory(dir, resources->memory, err) < 0)
		return -1;
	if (resources->cpu && apply_cpu(dir, resources->cpu, err) < 0)
		return -1;
	if (resources->pids && resources->pids->has_limit && resources->pids->limit != 0) {
		if (resources->pids->limit < 0)
			strcpy(value, "max");
		else
			snprintf(value, sizeof(value), "%" PRId64, resources->pids->limit);
		if (write_file(dir, "pids.max", value, "linux.resources.pids.limit", err) < 0)
			return -1;
	}
	if (resources->block_io && apply_block_io(dir, resources->block_io, err) < 0)
		return -1;
	if (apply_hugepages(dir, resources, err) < 0 || apply_rdma(dir, resources, err) < 0)
		return -1;
	/* unified last: it may deliberately override what the fields above wrote. */
	if (apply_unified(dir, &resources->unified, err) < 0)
		return -1;
	return 0;
}

/* ---------- update ---------- */

int kc_cgroup_update_from_file(const char *dir, const char *resources_file, kc_error_t *err)
{
	static const char prefix[] = "{\"ociVersion\":\"" OCI_SPEC_VERSION "\",\"linux\":{\"resources\":";
	static const char suffix[] = "}}";
	oci_cleanup_spec struct oci_spec *spec = NULL;
	cleanup_free char *resources_json = NULL, *wrapped = NULL, *parse_error = NULL;
	int rc;

	if (strcmp(resources_file, "-") == 0)
		rc = read_file("/dev/stdin", &resources_json);
	else
		rc = read_file(resources_file, &resources_json);
	if (rc < 0)
		return kc_error_set(err, -rc, "read resources file `%s`", resources_file);
	/* The spec parser knows linux.resources: hand it one, so errors carry
	 * the usual JSON paths (linux.resources.memory.limit ...). */
	if (asprintf(&wrapped, "%s%s%s", prefix, resources_json, suffix) < 0)
		return kc_error_set(err, ENOMEM, "update");
	if (oci_spec_parse_string(wrapped, strlen(wrapped), &spec, &parse_error) < 0)
		return kc_error_set(err, EINVAL, "resources file `%s`: %s", resources_file,
				    parse_error ? parse_error : "invalid");
	if (spec->linux_ == NULL || spec->linux_->resources == NULL)
		return 0;
	return kc_cgroup_apply(dir, spec->linux_->resources, err);
}
