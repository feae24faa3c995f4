/* cgroup v2: see cgroup.h. */
#include "cgroup.h"
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define KC_DEVICE_ACCESS_ALL (BPF_DEVCG_ACC_MKNOD | BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE)

/* How long freeze/thaw/destroy wait for the kernel to settle. */
#define CGROUP_SETTLE_TIMEOUT_MS 10000

const char *kc_cgroup_root = KC_CGROUP_MOUNT;

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

/* Is name one of the space-separated words of list? */
static bool has_word(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ' || p[len] == '\n'))
			return true;
		p += len;
	}
	return false;
}

/* Enables in parent/cgroup.subtree_control every controller listed in
 * parent/cgroup.controllers that is not enabled yet, one at a time (a
 * controller that cannot be enabled, e.g. cpuset with a busy parent, must
 * not block the others).  Controllers already on are not written again: a
 * write waits for every dying cgroup below parent to go offline, which
 * after a delete costs an RCU grace period each time. */
static void enable_controllers(const char *parent)
{
	cleanup_free char *available = NULL;
	cleanup_free char *enabled = NULL;
	char *controller, *save = NULL;

	if (read_cgroup_file(parent, "cgroup.controllers", &available) < 0)
		return;
	if (read_cgroup_file(parent, "cgroup.subtree_control", &enabled) < 0)
		enabled = NULL;
	for (controller = strtok_r(available, " \n", &save); controller;
	     controller = strtok_r(NULL, " \n", &save)) {
		char request[64];

		if (enabled && has_word(enabled, controller))
			continue;
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

int kc_cgroup_read_cpu_max(const char *dir, int64_t *quota, uint64_t *period, kc_error_t *err)
{
	cleanup_free char *content = NULL;
	char quota_text[32];
	unsigned long long period_value;
	int rc = read_cgroup_file(dir, "cpu.max", &content);

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
	/* kc_cgroup_apply()'s order of writes */
	static const char *const files[] = {
		"memory.swap.max", "memory.max", "memory.low", "cpu.weight", "cpu.max",
		"cpuset.cpus", "cpuset.mems", "pids.max", "io.bfq.weight", "io.weight",
	};
	size_t i;

	snapshot->n = 0;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *content = NULL;

		if (read_cgroup_file(dir, files[i], &content) < 0)
			continue;
		content[strcspn(content, "\n")] = '\0';
		snapshot->file[snapshot->n] = (char *)files[i];
		snapshot->value[snapshot->n++] = content;
	}
}

void kc_cgroup_snapshot_restore(const char *dir, struct kc_cgroup_snapshot *snapshot)
{
	size_t i;

	for (i = snapshot->n; i-- > 0;)
		write_file_raw(dir, snapshot->file[i], snapshot->value[i][0] ? snapshot->value[i] : "\n");
	kc_cgroup_snapshot_free(snapshot);
}

void kc_cgroup_snapshot_free(struct kc_cgroup_snapshot *snapshot)
{
	size_t i;

	for (i = 0; i < snapshot->n; i++)
		free(snapshot->value[i]);
	snapshot->n = 0;
}

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

/* ---------- devices: an eBPF device filter ---------- */

/* runc 1.1's AllowedDevices: what every container may use. */
static const struct kc_device_rule always_allowed_devices[] = {
	{ 'c', -1, -1, BPF_DEVCG_ACC_MKNOD, true },
	{ 'b', -1, -1, BPF_DEVCG_ACC_MKNOD, true },
	{ 'c', 1, 3, KC_DEVICE_ACCESS_ALL, true },    /* /dev/null */
	{ 'c', 1, 8, KC_DEVICE_ACCESS_ALL, true },    /* /dev/random */
	{ 'c', 1, 7, KC_DEVICE_ACCESS_ALL, true },    /* /dev/full */
	{ 'c', 5, 0, KC_DEVICE_ACCESS_ALL, true },    /* /dev/tty */
	{ 'c', 1, 5, KC_DEVICE_ACCESS_ALL, true },    /* /dev/zero */
	{ 'c', 1, 9, KC_DEVICE_ACCESS_ALL, true },    /* /dev/urandom */
	{ 'c', 136, -1, KC_DEVICE_ACCESS_ALL, true }, /* /dev/pts/N */
	{ 'c', 5, 2, KC_DEVICE_ACCESS_ALL, true },    /* /dev/ptmx */
	{ 'c', 10, 200, KC_DEVICE_ACCESS_ALL, true }, /* /dev/net/tun */
};

static int parse_device_access(const char *access, unsigned int *bits)
{
	*bits = 0;
	if (access == NULL || access[0] == '\0') {
		*bits = KC_DEVICE_ACCESS_ALL;
		return 0;
	}
	for (; *access; access++) {
		switch (*access) {
		case 'r':
			*bits |= BPF_DEVCG_ACC_READ;
			break;
		case 'w':
			*bits |= BPF_DEVCG_ACC_WRITE;
			break;
		case 'm':
			*bits |= BPF_DEVCG_ACC_MKNOD;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

int kc_cgroup_device_rules(const struct oci_linux *linux_, struct kc_device_rule **rules,
			   size_t *n, kc_error_t *err)
{
	const struct oci_resources *resources = linux_ ? linux_->resources : NULL;
	size_t spec_rules = resources ? resources->devices_len : 0;
	size_t nodes = linux_ ? linux_->devices_len : 0;
	size_t defaults = sizeof(always_allowed_devices) / sizeof(always_allowed_devices[0]);
	struct kc_device_rule *list = calloc(spec_rules + nodes + defaults, sizeof(*list));
	size_t count = 0, i;

	if (list == NULL)
		return kc_error_set(err, ENOMEM, "linux.resources.devices");
	for (i = 0; i < spec_rules; i++) {
		const struct oci_device_cgroup *device = &resources->devices[i];
		struct kc_device_rule *rule = &list[count++];

		rule->allow = device->allow;
		rule->type = device->type ? device->type[0] : 'a';
		if (device->type && (strlen(device->type) != 1 || !strchr("acb", rule->type))) {
			free(list);
			return kc_error_set(err, EINVAL, "linux.resources.devices[%zu].type: \"%s\" is not a, c or b",
					    i, device->type);
		}
		rule->major = device->has_major ? device->major : -1;
		rule->minor = device->has_minor ? device->minor : -1;
		if (parse_device_access(device->access, &rule->access) < 0) {
			free(list);
			return kc_error_set(err, EINVAL, "linux.resources.devices[%zu].access: \"%s\" is not a subset of \"rwm\"",
					    i, device->access);
		}
	}
	for (i = 0; i < nodes; i++) {
		const struct oci_device *device = &linux_->devices[i];

		/* Pipes ('p') are not device-cgroup business. */
		if (device->type[0] != 'c' && device->type[0] != 'u' && device->type[0] != 'b')
			continue;
		list[count++] = (struct kc_device_rule){
			.type = device->type[0] == 'b' ? 'b' : 'c',
			.major = device->major,
			.minor = device->minor,
			.access = KC_DEVICE_ACCESS_ALL,
			.allow = true,
		};
	}
	for (i = 0; i < defaults; i++)
		list[count++] = always_allowed_devices[i];
	*rules = list;
	*n = count;
	return 0;
}

/* Instruction encoding (linux/bpf.h's struct bpf_insn). */
#define INSN(c, dst, src, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (dst), .src_reg = (src), .off = (o), .imm = (i) })
#define LDX_W(dst, src, off) INSN(BPF_LDX | BPF_MEM | BPF_W, dst, src, off, 0)
#define ALU32_IMM(op, dst, imm) INSN(BPF_ALU | (op) | BPF_K, dst, 0, 0, imm)
#define MOV32_REG(dst, src) INSN(BPF_ALU | BPF_MOV | BPF_X, dst, src, 0, 0)
#define MOV64_IMM(dst, imm) INSN(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define JNE_IMM(dst, imm, off) INSN(BPF_JMP | BPF_JNE | BPF_K, dst, 0, off, imm)
#define JNE_REG(dst, src, off) INSN(BPF_JMP | BPF_JNE | BPF_X, dst, src, off, 0)
#define EXIT_INSN() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Registers after the prologue: r2 device type, r3 access, r4 major,
 * r5 minor (r1, the context, is then free for scratch). */
enum { R0, R1, R2, R3, R4, R5 };

int kc_cgroup_device_program(const struct kc_device_rule *rules, size_t n, void **insns,
			     size_t *insn_count, kc_error_t *err)
{
	/* prologue 6 + at most 7 per rule + epilogue 2 */
	struct bpf_insn *program = calloc(6 + 7 * n + 2, sizeof(*program));
	size_t count = 0, i;
	bool unconditional = false;

	if (program == NULL)
		return kc_error_set(err, ENOMEM, "device filter");
	program[count++] = LDX_W(R2, R1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	program[count++] = ALU32_IMM(BPF_AND, R2, 0xFFFF);
	program[count++] = LDX_W(R3, R1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	program[count++] = ALU32_IMM(BPF_RSH, R3, 16);
	program[count++] = LDX_W(R4, R1, offsetof(struct bpf_cgroup_dev_ctx, major));
	program[count++] = LDX_W(R5, R1, offsetof(struct bpf_cgroup_dev_ctx, minor));

	/* Last match wins: test the rules from the last one back, the first
	 * block that matches decides. */
	for (i = n; i-- > 0 && !unconditional;) {
		const struct kc_device_rule *rule = &rules[i];
		struct bpf_insn *block = &program[count];
		size_t len = 0, j;

		if (rule->type != 'a')
			block[len++] = JNE_IMM(R2, rule->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, 0);
		if ((rule->access & KC_DEVICE_ACCESS_ALL) != KC_DEVICE_ACCESS_ALL) {
			/* every requested bit must be in the rule's access */
			block[len++] = MOV32_REG(R1, R3);
			block[len++] = ALU32_IMM(BPF_AND, R1, rule->access);
			block[len++] = JNE_REG(R1, R3, 0);
		}
		if (rule->major >= 0)
			block[len++] = JNE_IMM(R4, (int32_t)rule->major, 0);
		if (rule->minor >= 0)
			block[len++] = JNE_IMM(R5, (int32_t)rule->minor, 0);
		unconditional = len == 0;
		block[len++] = MOV64_IMM(R0, rule->allow ? 1 : 0);
		block[len++] = EXIT_INSN();
		/* A failed test jumps past the block's end. */
		for (j = 0; j < len; j++) {
			if (BPF_CLASS(block[j].code) == BPF_JMP && BPF_OP(block[j].code) == BPF_JNE)
				block[j].off = (int16_t)(len - j - 1);
		}
		count += len;
	}
	/* Nothing matched: deny.  (After an unconditional rule this would be
	 * unreachable, which the verifier refuses.) */
	if (!unconditional) {
		program[count++] = MOV64_IMM(R0, 0);
		program[count++] = EXIT_INSN();
	}
	*insns = program;
	*insn_count = count;
	return 0;
}

static int bpf_call(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The verifier's log ends with its verdict and a "processed N insns"
 * line: keep those two lines, not the whole trace. */
static const char *verifier_verdict(char *log)
{
	size_t len = strlen(log);
	int newlines = 0;

	while (len > 0 && log[len - 1] == '\n')
		log[--len] = '\0';
	while (len > 0) {
		if (log[len - 1] == '\n' && ++newlines == 2)
			return log + len;
		len--;
	}
	return log;
}

static int load_device_program(const struct bpf_insn *program, size_t count, kc_error_t *err)
{
	static char log[65536];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr.insns = (uintptr_t)program;
	attr.insn_cnt = count;
	attr.license = (uintptr_t)"GPL";
	fd = bpf_call(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	/* Again with the verifier's log, for the error message. */
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr.insns = (uintptr_t)program;
	attr.insn_cnt = count;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = '\0';
	fd = bpf_call(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	return kc_error_set(err, errno, "linux.resources.devices: load the device filter (%zu instructions)%s%s",
			    count, log[0] ? ": verifier: " : "", verifier_verdict(log));
}

int kc_cgroup_apply_devices(const char *dir, const struct oci_linux *linux_, kc_error_t *err)
{
	cleanup_free struct kc_device_rule *rules = NULL;
	cleanup_free void *program = NULL;
	cleanup_close int cgroup_fd = -1, program_fd = -1;
	uint32_t old_ids[64], old_count = 64, i;
	size_t rule_count, insn_count;
	union bpf_attr attr;

	if (kc_cgroup_device_rules(linux_, &rules, &rule_count, err) < 0 ||
	    kc_cgroup_device_program(rules, rule_count, &program, &insn_count, err) < 0)
		return -1;
	cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroup_fd < 0)
		return kc_error_set(err, errno, "linux.resources.devices: open cgroup %s", dir);

	/* Programs attached before (an earlier call): detached once the new
	 * one is in place, so there is no window without a filter. */
	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = cgroup_fd;
	attr.query.attach_type = BPF_CGROUP_DEVICE;
	attr.query.prog_ids = (uintptr_t)old_ids;
	attr.query.prog_cnt = old_count;
	old_count = bpf_call(BPF_PROG_QUERY, &attr) == 0 ? attr.query.prog_cnt : 0;
	if (old_count > 64)
		old_count = 64;

	program_fd = load_device_program(program, insn_count, err);
	if (program_fd < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cgroup_fd;
	attr.attach_bpf_fd = program_fd;
	attr.attach_type = BPF_CGROUP_DEVICE;
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	if (bpf_call(BPF_PROG_ATTACH, &attr) < 0)
		return kc_error_set(err, errno, "linux.resources.devices: attach the device filter to %s", dir);

	for (i = 0; i < old_count; i++) {
		cleanup_close int old_fd = -1;

		memset(&attr, 0, sizeof(attr));
		attr.prog_id = old_ids[i];
		old_fd = bpf_call(BPF_PROG_GET_FD_BY_ID, &attr);
		if (old_fd < 0)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.target_fd = cgroup_fd;
		attr.attach_bpf_fd = old_fd;
		attr.attach_type = BPF_CGROUP_DEVICE;
		if (bpf_call(BPF_PROG_DETACH, &attr) < 0)
			return kc_error_set(err, errno, "linux.resources.devices: detach the previous device filter");
	}
	return 0;
}
