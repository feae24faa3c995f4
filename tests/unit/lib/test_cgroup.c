/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of cgroup.c: runc's conversions, path resolution, and what
 * kc_cgroup_apply() writes, against a scratch directory standing in for a
 * cgroup (kc_cgroup_root points there; the host's cgroups are untouched). */
#include "tap.h"
#include "src/lib/cgroup.h"
#include "src/lib/cgroup_resources.h"
#include "src/lib/cgroup_update.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[] = "/tmp/kcrun-cgroup-XXXXXX";

static const char *get(const char *dir, const char *file)
{
	static char content[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (f == NULL)
		return "(missing)";
	n = fread(content, 1, sizeof(content) - 1, f);
	content[n] = '\0';
	fclose(f);
	return content;
}

#define CHECK_FILE(dir, file, expected, ...) do {			\
		const char *got_ = get(dir, file);			\
		if (strcmp(got_, expected) != 0)			\
			printf("# %s: got `%s`, expected `%s`\n", file, got_, expected); \
		TAP_OK(strcmp(got_, expected) == 0, __VA_ARGS__);	\
	} while (0)

static void test_conversions(void)
{
	kc_error_t err = NULL;
	char value[32];

	TAP_OK(kc_cgroup_cpu_shares_to_weight(1024) == 39 && kc_cgroup_cpu_shares_to_weight(2) == 1 &&
	       kc_cgroup_cpu_shares_to_weight(262144) == 10000 && kc_cgroup_cpu_shares_to_weight(0) == 0,
	       "cgroup: cpu.shares -> cpu.weight as runc (1024 -> 39)");
	TAP_OK(kc_cgroup_blkio_weight_to_io_weight(10) == 1 &&
	       kc_cgroup_blkio_weight_to_io_weight(1000) == 10000 &&
	       kc_cgroup_blkio_weight_to_io_weight(500) == 4950,
	       "cgroup: blkio weight -> io.weight as runc (500 -> 4950)");
	TAP_CALL_OK(kc_cgroup_swap_max(200, 100, value, &err), err, "cgroup: swap 200 limit 100");
	TAP_OK(strcmp(value, "100") == 0, "cgroup: memory.swap.max = swap - limit (%s)", value);
	kc_cgroup_swap_max(100, 100, value, &err);
	TAP_OK(strcmp(value, "0") == 0, "cgroup: swap == limit -> memory.swap.max 0");
	kc_cgroup_swap_max(-1, 100, value, &err);
	TAP_OK(strcmp(value, "max") == 0, "cgroup: swap -1 -> max");
	kc_cgroup_swap_max(0, -1, value, &err);
	TAP_OK(strcmp(value, "max") == 0, "cgroup: unlimited memory, no swap -> swap max");
	kc_cgroup_swap_max(0, 100, value, &err);
	TAP_OK(value[0] == '\0', "cgroup: no swap setting -> nothing written");
	TAP_CALL_FAILS(kc_cgroup_swap_max(50, 100, value, &err), err, "should be >= memory limit",
		       "cgroup: swap below limit refused");
	TAP_CALL_FAILS(kc_cgroup_swap_max(200, 0, value, &err), err,
		       "unable to set swap limit without memory limit",
		       "cgroup: swap without a memory limit refused");
}

/* Our own cgroup v2 path (the "0::" line of /proc/self/cgroup). */
static int own_cgroup(char *buf, size_t size)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int rc = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, size, "%s", line + 3);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

static void test_resolve(void)
{
	kc_error_t err = NULL;
	char *dir = NULL, expected[4200], own[4096];

	kc_cgroup_root = "/sys/fs/cgroup";
	TAP_CALL_OK(kc_cgroup_resolve(NULL, "c1", &dir, &err), err, "cgroup: resolve default");
	TAP_OK(dir && strcmp(dir, "/sys/fs/cgroup/kcrun/c1") == 0, "cgroup: default is /kcrun/<id> (%s)", dir);
	free(dir);
	dir = NULL;
	kc_cgroup_resolve("/libpod_parent/libpod-abc", "abc", &dir, &err);
	TAP_OK(dir && strcmp(dir, "/sys/fs/cgroup/libpod_parent/libpod-abc") == 0,
	       "cgroup: podman's path under the root (%s)", dir);
	free(dir);
	dir = NULL;
	kc_cgroup_resolve("/a/../../../b/./c//", "x", &dir, &err);
	TAP_OK(dir && strcmp(dir, "/sys/fs/cgroup/b/c") == 0, "cgroup: .. cannot leave the root (%s)", dir);
	free(dir);
	dir = NULL;
	TAP_CALL_FAILS(kc_cgroup_resolve("machine.slice:libpod:abc", "abc", &dir, &err), err,
		       "is a systemd cgroup path", "cgroup: systemd slice:prefix:name refused");
	TAP_CALL_FAILS(kc_cgroup_resolve("/..", "abc", &dir, &err), err, "names the cgroup root",
		       "cgroup: the root itself refused");
	/* A relative cgroupsPath joins our own cgroup, the "0::" line of
	 * /proc/self/cgroup: the exact path, and resolving must succeed. */
	if (own_cgroup(own, sizeof(own)) == 0) {
		kc_error_t rel_err = NULL;
		int rc = kc_cgroup_resolve("rel/x", "id", &dir, &rel_err);

		snprintf(expected, sizeof(expected), "/sys/fs/cgroup%s/rel/x",
			 strcmp(own, "/") == 0 ? "" : own);
		if (rc < 0)
			printf("# error: %s\n", rel_err->msg);
		TAP_OK(rc == 0 && dir && strcmp(dir, expected) == 0,
		       "cgroup: relative path joins our own cgroup (%s, expected %s)",
		       rc < 0 ? "failed" : dir, expected);
		kc_error_free(&rel_err);
		if (rc == 0)
			free(dir);
		dir = NULL;
	} else {
		printf("ok %d - cgroup: relative path joins our own cgroup # SKIP no 0:: line in /proc/self/cgroup\n",
		       ++tap_count);
	}
}

static void test_apply(void)
{
	kc_error_t err = NULL;
	char dir[256];
	const char *files[] = { "memory.max", "memory.low", "memory.swap.max", "cpu.weight",
				"cpu.max", "cpu.max.burst", "cpu.idle", "cpuset.cpus", "cpuset.mems",
				"pids.max", "io.weight", "io.max", "hugetlb.2MB.max", "memory.high",
				"rdma.max" };
	struct oci_memory memory = { .has_limit = true, .limit = 1 << 20, .has_reservation = true,
				     .reservation = 1 << 19, .has_swap = true, .swap = 3 << 20,
				     .has_disable_oom_killer = true, .disable_oom_killer = true };
	struct oci_cpu cpu = { .has_shares = true, .shares = 1024, .has_quota = true, .quota = 50000,
			       .has_period = true, .period = 100000, .has_burst = true, .burst = 1000,
			       .has_idle = true, .idle = 1, .cpus = "0", .mems = "0" };
	struct oci_pids pids = { .has_limit = true, .limit = 42 };
	struct oci_throttle_device throttle = { .major = 8, .minor = 0, .rate = 1048576 };
	struct oci_block_io block_io = { .has_weight = true, .weight = 500,
					 .throttle_write_iops_device = &throttle,
					 .throttle_write_iops_device_len = 1 };
	struct oci_hugepage_limit hugepage = { .page_size = "2MB", .limit = 4194304 };
	struct oci_rdma rdma = { .device = "mlx5_1", .has_hca_handles = true, .hca_handles = 3 };
	struct oci_resources resources = { .memory = &memory, .cpu = &cpu, .pids = &pids,
					   .block_io = &block_io, .hugepage_limits = &hugepage,
					   .hugepage_limits_len = 1, .rdma = &rdma, .rdma_len = 1 };
	size_t i;

	snprintf(dir, sizeof(dir), "%s/apply", scratch);
	mkdir(dir, 0755);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		tap_put_file(dir, files[i], "");
	oci_map_set(&resources.unified, "memory.high", "2097152");
	TAP_CALL_OK(kc_cgroup_apply(dir, &resources, &err), err, "cgroup: apply every kind of resource");
	CHECK_FILE(dir, "memory.max", "1048576", "cgroup: memory.limit -> memory.max");
	CHECK_FILE(dir, "memory.low", "524288", "cgroup: memory.reservation -> memory.low");
	CHECK_FILE(dir, "memory.swap.max", "2097152", "cgroup: memory.swap -> memory.swap.max (swap - limit)");
	CHECK_FILE(dir, "cpu.weight", "39", "cgroup: cpu.shares 1024 -> cpu.weight 39");
	CHECK_FILE(dir, "cpu.max", "50000 100000", "cgroup: quota/period -> cpu.max");
	CHECK_FILE(dir, "cpu.max.burst", "1000", "cgroup: burst -> cpu.max.burst");
	CHECK_FILE(dir, "cpu.idle", "1", "cgroup: idle -> cpu.idle");
	CHECK_FILE(dir, "cpuset.cpus", "0", "cgroup: cpus -> cpuset.cpus");
	CHECK_FILE(dir, "cpuset.mems", "0", "cgroup: mems -> cpuset.mems");
	CHECK_FILE(dir, "pids.max", "42", "cgroup: pids.limit -> pids.max");
	CHECK_FILE(dir, "io.weight", "4950", "cgroup: blockIO.weight -> io.weight (converted)");
	CHECK_FILE(dir, "io.max", "8:0 wiops=1048576", "cgroup: throttle -> io.max");
	CHECK_FILE(dir, "hugetlb.2MB.max", "4194304", "cgroup: hugepageLimits -> hugetlb.2MB.max");
	CHECK_FILE(dir, "rdma.max", "mlx5_1 hca_handle=3 hca_object=max", "cgroup: rdma -> rdma.max");
	CHECK_FILE(dir, "memory.high", "2097152", "cgroup: unified written verbatim");

	/* With io.bfq.weight the weight goes there unconverted. */
	tap_put_file(dir, "io.bfq.weight", "");
	resources = (struct oci_resources){ .block_io = &block_io };
	block_io.throttle_write_iops_device_len = 0;
	kc_cgroup_apply(dir, &resources, &err);
	CHECK_FILE(dir, "io.bfq.weight", "500", "cgroup: blockIO.weight -> io.bfq.weight when present");

	/* Unlimited values and runc's cpu.max forms. */
	memory = (struct oci_memory){ .has_limit = true, .limit = -1 };
	cpu = (struct oci_cpu){ .has_quota = true, .quota = -1 };
	pids.limit = -1;
	resources = (struct oci_resources){ .memory = &memory, .cpu = &cpu, .pids = &pids };
	TAP_CALL_OK(kc_cgroup_apply(dir, &resources, &err), err, "cgroup: apply unlimited values");
	CHECK_FILE(dir, "memory.max", "max", "cgroup: memory.limit -1 -> max");
	CHECK_FILE(dir, "memory.swap.max", "max", "cgroup: unlimited memory -> swap max");
	CHECK_FILE(dir, "cpu.max", "max", "cgroup: quota -1 without period -> cpu.max \"max\"");
	CHECK_FILE(dir, "pids.max", "max", "cgroup: pids.limit -1 -> max");

	/* Errors name the spec field. */
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/memory.max", dir);
		unlink(path);
	}
	memory = (struct oci_memory){ .has_limit = true, .limit = 4096 };
	resources = (struct oci_resources){ .memory = &memory };
	TAP_CALL_FAILS(kc_cgroup_apply(dir, &resources, &err), err,
		       "linux.resources.memory.limit: write `4096` to memory.max in",
		       "cgroup: a missing file names the field");
	resources = (struct oci_resources){ 0 };
	oci_map_set(&resources.unified, "memory.bogus", "1");
	TAP_CALL_FAILS(kc_cgroup_apply(dir, &resources, &err), err,
		       "linux.resources.unified.\"memory.bogus\": no such file",
		       "cgroup: unknown unified key names the key");
	oci_map_free(&resources.unified);
	oci_map_set(&resources.unified, "../memory.max", "1");
	TAP_CALL_FAILS(kc_cgroup_apply(dir, &resources, &err), err, "must be a file name",
		       "cgroup: unified key with a slash refused");
	oci_map_free(&resources.unified);
	cpu = (struct oci_cpu){ .has_realtime_runtime = true, .realtime_runtime = 1000 };
	resources = (struct oci_resources){ .cpu = &cpu };
	TAP_CALL_FAILS(kc_cgroup_apply(dir, &resources, &err), err, "not supported on cgroup v2",
		       "cgroup: realtime cpu refused on v2");
	hugepage.page_size = "3MB";
	resources = (struct oci_resources){ .hugepage_limits = &hugepage, .hugepage_limits_len = 1 };
	TAP_CALL_FAILS(kc_cgroup_apply(dir, &resources, &err), err,
		       "linux.resources.hugepageLimits[0]: no hugetlb.3MB.max",
		       "cgroup: unsupported hugepage size names the entry");
}

/* An inotify fd counting the writes to dir/file (IN_CLOSE_WRITE; with
 * IN_OPEN in between, as inotify merges identical consecutive events). */
static int watch_writes(const char *dir, const char *file)
{
	char path[512];
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (fd >= 0 && inotify_add_watch(fd, path, IN_OPEN | IN_CLOSE_WRITE) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The writes seen by a watch_writes() fd, which it closes; -1 on error. */
static int count_writes(int fd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int count = 0;
	ssize_t len;

	if (fd < 0)
		return -1;
	while ((len = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;

			count += !!(ev->mask & IN_CLOSE_WRITE);
			p += sizeof(*ev) + ev->len;
		}
	}
	close(fd);
	return count;
}

/* A child that replaces dir/cgroup.events with content after 200 ms
 * (rename: a reader never sees a half-written file). */
static pid_t events_later(const char *dir, const char *content)
{
	pid_t child = fork();

	if (child == 0) {
		char tmp[512], path[512];

		usleep(200 * 1000);
		tap_put_file(dir, "cgroup.events.new", content);
		snprintf(tmp, sizeof(tmp), "%s/cgroup.events.new", dir);
		snprintf(path, sizeof(path), "%s/cgroup.events", dir);
		_exit(rename(tmp, path) == 0 ? 0 : 1);
	}
	return child;
}

static void reap(pid_t child)
{
	int status;

	if (child > 0)
		waitpid(child, &status, 0);
}

static void test_tree(void)
{
	kc_error_t err = NULL;
	char dir[256], sub[300];
	pid_t *pids = NULL, setter;
	size_t n = 0;
	bool frozen = false;
	int root_writes, parent_writes, n_writes;

	/* create: dirs made, controllers enabled on the way down, one write
	 * per controller (a controller the kernel refuses must not take the
	 * others with it), none written again.  A scratch file keeps only the
	 * last write: inotify counts the writes. */
	kc_cgroup_root = scratch;
	tap_put_file(scratch, "cgroup.controllers", "cpu memory pids\n");
	tap_put_file(scratch, "cgroup.subtree_control", "");
	snprintf(sub, sizeof(sub), "%s/parent", scratch);
	mkdir(sub, 0755);
	tap_put_file(sub, "cgroup.controllers", "memory pids\n");
	tap_put_file(sub, "cgroup.subtree_control", "pids\n");
	root_writes = watch_writes(scratch, "cgroup.subtree_control");
	parent_writes = watch_writes(sub, "cgroup.subtree_control");
	snprintf(dir, sizeof(dir), "%s/parent/child", scratch);
	TAP_CALL_OK(kc_cgroup_create(dir, &err), err, "cgroup: create a nested cgroup");
	TAP_OK(access(dir, F_OK) == 0, "cgroup: the directories exist");
	CHECK_FILE(scratch, "cgroup.subtree_control", "+pids",
		   "cgroup: controllers enabled one by one in the root (last: +pids)");
	n_writes = count_writes(root_writes);
	TAP_OK(n_writes == 3, "cgroup: one write per controller in the root (%d of 3)", n_writes);
	CHECK_FILE(sub, "cgroup.subtree_control", "+memory",
		   "cgroup: controllers enabled in the parent on the way down (+memory)");
	n_writes = count_writes(parent_writes);
	TAP_OK(n_writes == 1, "cgroup: an enabled controller is not written again (%d writes, 1 expected)",
	       n_writes);
	TAP_CALL_OK(kc_cgroup_create(dir, &err), err, "cgroup: creating an existing cgroup is fine");
	TAP_CALL_FAILS(kc_cgroup_create("/elsewhere/x", &err), err, "is not under",
		       "cgroup: a dir outside the root refused");

	/* pids: the cgroup and its sub-cgroups. */
	tap_put_file(dir, "cgroup.procs", "10\n11\n");
	snprintf(sub, sizeof(sub), "%s/inner", dir);
	mkdir(sub, 0755);
	tap_put_file(sub, "cgroup.procs", "12\n");
	TAP_CALL_OK(kc_cgroup_pids(dir, &pids, &n, &err), err, "cgroup: list pids");
	TAP_OK(n == 3 && pids[0] + pids[1] + pids[2] == 33, "cgroup: pids of the tree (%zu)", n);
	free(pids);

	/* frozen state from cgroup.events */
	tap_put_file(dir, "cgroup.events", "populated 1\nfrozen 1\n");
	TAP_CALL_OK(kc_cgroup_is_frozen(dir, &frozen, &err), err, "cgroup: read cgroup.events");
	TAP_OK(frozen, "cgroup: \"frozen 1\" is frozen");
	/* freeze writes cgroup.freeze and returns only once cgroup.events
	 * says frozen: a child plays the kernel, late. */
	tap_put_file(dir, "cgroup.freeze", "");
	tap_put_file(dir, "cgroup.events", "populated 1\nfrozen 0\n");
	setter = events_later(dir, "populated 1\nfrozen 1\n");
	TAP_CALL_OK(kc_cgroup_freeze(dir, &err), err, "cgroup: freeze succeeds once the cgroup is frozen");
	CHECK_FILE(dir, "cgroup.events", "populated 1\nfrozen 1\n",
		   "cgroup: freeze returned only after cgroup.events said frozen 1");
	CHECK_FILE(dir, "cgroup.freeze", "1", "cgroup: freeze writes cgroup.freeze");
	reap(setter);
	setter = events_later(dir, "populated 1\nfrozen 0\n");
	TAP_CALL_OK(kc_cgroup_thaw(dir, &err), err, "cgroup: thaw succeeds once the cgroup is thawed");
	CHECK_FILE(dir, "cgroup.events", "populated 1\nfrozen 0\n",
		   "cgroup: thaw returned only after cgroup.events said frozen 0");
	CHECK_FILE(dir, "cgroup.freeze", "0", "cgroup: thaw writes cgroup.freeze");
	reap(setter);
	TAP_CALL_OK(kc_cgroup_is_frozen(dir, &frozen, &err), err, "cgroup: read cgroup.events again");
	TAP_OK(!frozen, "cgroup: \"frozen 0\" is not frozen");

	snprintf(sub, sizeof(sub), "%s/nonexistent", scratch);
	TAP_CALL_OK(kc_cgroup_destroy(sub, &err), err, "cgroup: destroying a missing cgroup is fine");
	kc_cgroup_root = KC_CGROUP_MOUNT;
}

static void test_update(void)
{
	kc_error_t err = NULL;
	char dir[256], file[300];

	snprintf(dir, sizeof(dir), "%s/update", scratch);
	mkdir(dir, 0755);
	tap_put_file(dir, "memory.max", "");
	tap_put_file(dir, "pids.max", "");
	snprintf(file, sizeof(file), "%s/resources.json", scratch);
	tap_put_file(scratch, "resources.json", "{\"memory\":{\"limit\":8388608},\"pids\":{\"limit\":7}}");
	TAP_CALL_OK(kc_cgroup_update_from_file(dir, file, &err), err, "cgroup: update from a resources file");
	CHECK_FILE(dir, "memory.max", "8388608", "cgroup: update wrote memory.max");
	CHECK_FILE(dir, "pids.max", "7", "cgroup: update wrote pids.max");
	tap_put_file(scratch, "resources.json", "{\"memory\":{\"limit\":\"lots\"}}");
	TAP_CALL_FAILS(kc_cgroup_update_from_file(dir, file, &err), err, "linux.resources.memory.limit",
		       "cgroup: a bad resources file names the field");
	TAP_CALL_FAILS(kc_cgroup_update_from_file(dir, "/nonexistent.json", &err), err,
		       "read resources file `/nonexistent.json`", "cgroup: missing resources file");
	/* A write the "kernel" refuses (no cpu.weight here) comes after the
	 * memory and pids writes: they are put back, the update changes nothing. */
	tap_put_file(scratch, "resources.json",
		     "{\"memory\":{\"limit\":16777216},\"pids\":{\"limit\":9},\"cpu\":{\"shares\":1024}}");
	TAP_CALL_FAILS(kc_cgroup_update_from_file(dir, file, &err), err, "linux.resources.cpu.shares",
		       "cgroup: a resources file the cgroup refuses fails");
	CHECK_FILE(dir, "memory.max", "8388608", "cgroup: a failed file update puts memory.max back");
	CHECK_FILE(dir, "pids.max", "7", "cgroup: a failed file update puts pids.max back");
}

void test_cgroup(void)
{
	char cmd[128];

	mkdtemp(scratch);
	test_conversions();
	test_resolve();
	test_apply();
	test_tree();
	test_update();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", scratch);
}
