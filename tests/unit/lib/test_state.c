/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of state.c under a temporary --root: ids checked as runc
 * checks them, state.json written atomically and read back, the status
 * derived from the live system (a pid alone is never trusted), removal. */
#include "tap.h"
#include "src/lib/loaded.h"
#include "src/lib/state.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[] = "/tmp/kcrun-state-XXXXXX";

static void path_in_root(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", root, rel);
}

static bool exists(const char *rel)
{
	char path[512];

	path_in_root(path, sizeof(path), rel);
	return access(path, F_OK) == 0;
}

static void make_dir(const char *rel)
{
	char path[512];

	path_in_root(path, sizeof(path), rel);
	mkdir(path, 0700);
}

static void write_text(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	path_in_root(path, sizeof(path), rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_ids(void)
{
	static const char *good[] = {
		"abc", "ABC_def-1.2+3", "a,b", "...", "a..b", ".hidden", "-", "_", "0",
	};
	static const char *bad[] = {
		".", "..", "a/b", "/abc", "../abc", "abc/", "a b", "a\tb", "a\nb", "a:b",
		"a@b", "a*b", "caf\xc3\xa9", "a\\b", "a;b", "a$b",
	};
	char long_id[300];
	kc_error_t err = NULL;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		TAP_CALL_OK(kc_state_check_id(good[i], &err), err, "state: id \"%s\" accepted (runc: ^[\\w+-\\.]+$)", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		TAP_CALL_FAILS(kc_state_check_id(bad[i], &err), err, "invalid container ID format",
			       "state: bad id #%zu refused as runc refuses it", i);
	TAP_CALL_FAILS(kc_state_check_id("", &err), err, "container id cannot be empty",
		       "state: empty id: \"container id cannot be empty\"");
	TAP_CALL_FAILS(kc_state_check_id(NULL, &err), err, "container id cannot be empty",
		       "state: no id: \"container id cannot be empty\"");
	memset(long_id, 'a', 255);
	long_id[255] = '\0';
	TAP_CALL_OK(kc_state_check_id(long_id, &err), err, "state: a 255-byte id is accepted");
	long_id[255] = 'a';
	long_id[256] = '\0';
	TAP_CALL_FAILS(kc_state_check_id(long_id, &err), err, "invalid container ID format",
		       "state: a 256-byte id (no directory can hold it) is refused");
}

static void fill_state(struct kc_state *st, const char *id)
{
	memset(st, 0, sizeof(*st));
	st->id = strdup(id);
	st->pid = 4242;
	st->start_time = 123456789012ULL;
	st->bundle = strdup("/bundles/with \"quotes\" and \\backslash");
	st->rootfs = strdup("/bundles/rootfs");
	st->created.tv_sec = 1700000000;
	st->created.tv_nsec = 123456789;
	st->owner = strdup("root");
	st->cgroup_path = strdup("/sys/fs/cgroup/kcrun/c1");
	st->config_path = strdup("/bundles/config.json");
	st->has_poststart_hooks = true;
	st->has_poststop_hooks = false;
	st->has_pid_ns = true;
	oci_map_set(&st->annotations, "org.example/key", "value\nwith newline \xc3\xa9");
	oci_map_set(&st->annotations, "empty", "");
}

static void test_write_read(void)
{
	struct kc_state st, back;
	kc_error_t err = NULL;
	struct stat sb;
	char path[512], *big;
	int ok;

	fill_state(&st, "c1");
	make_dir("c1");
	TAP_CALL_OK(kc_state_write(root, &st, &err), err, "state: write c1");
	TAP_OK(!exists("c1/.state.json.tmp"), "state: no temporary file left behind");
	path_in_root(path, sizeof(path), "c1/state.json");
	TAP_OK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600, "state: state.json is 0600");
	TAP_CALL_OK(kc_state_read(root, "c1", &back, &err), err, "state: read c1 back");
	ok = back.id && strcmp(back.id, "c1") == 0 && back.pid == 4242 &&
	     back.start_time == 123456789012ULL && strcmp(back.bundle, st.bundle) == 0 &&
	     strcmp(back.rootfs, st.rootfs) == 0 && back.created.tv_sec == st.created.tv_sec &&
	     back.created.tv_nsec == st.created.tv_nsec && strcmp(back.owner, "root") == 0 &&
	     strcmp(back.cgroup_path, st.cgroup_path) == 0 &&
	     strcmp(back.config_path, st.config_path) == 0 && back.has_poststart_hooks &&
	     !back.has_poststop_hooks && back.has_pid_ns;
	TAP_OK(ok, "state: every field survives write + read");
	TAP_OK(back.annotations.len == 2 &&
	       strcmp(back.annotations.entries[0].key, "org.example/key") == 0 &&
	       strcmp(back.annotations.entries[0].value, "value\nwith newline \xc3\xa9") == 0 &&
	       strcmp(back.annotations.entries[1].value, "") == 0,
	       "state: annotations survive (escapes, UTF-8, empty value)");
	kc_state_free(&back);

	/* Rewriting replaces the file whole; a stale temporary file from a
	 * crashed writer is no obstacle. */
	write_text("c1/.state.json.tmp", "garbage from a crashed writer");
	st.pid = 4343;
	TAP_CALL_OK(kc_state_write(root, &st, &err), err, "state: rewrite over a stale temporary file");
	TAP_OK(kc_state_read(root, "c1", &back, &err) == 0 && back.pid == 4343,
	       "state: the rewrite is what is read");
	kc_error_free(&err);
	kc_state_free(&back);

	/* A write that cannot complete leaves the previous state.json intact. */
	path_in_root(path, sizeof(path), "c1/.state.json.tmp");
	unlink(path);
	mkdir(path, 0700);
	st.pid = 9999;
	TAP_CALL_FAILS(kc_state_write(root, &st, &err), err, ".state.json.tmp",
		       "state: a write that fails says which file");
	TAP_OK(kc_state_read(root, "c1", &back, &err) == 0 && back.pid == 4343,
	       "state: a failed write leaves the old state.json whole");
	kc_error_free(&err);
	kc_state_free(&back);
	rmdir(path);

	/* Large annotations: what was written must read back. */
	big = malloc(200000);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	oci_map_set(&st.annotations, "big", big);
	st.pid = 4444;
	TAP_CALL_OK(kc_state_write(root, &st, &err), err, "state: write with a 200 kB annotation");
	TAP_CALL_OK(kc_state_read(root, "c1", &back, &err), err,
		    "state: a 200 kB state.json reads back");
	TAP_OK(back.pid == 4444 && back.annotations.len == 3 &&
	       strlen(back.annotations.entries[2].value) == 199999,
	       "state: the large annotation is whole");
	kc_state_free(&back);
	free(big);

	/* Missing fields default to empty strings, not NULL. */
	make_dir("sparse");
	write_text("sparse/state.json", "{\"pid\":7}");
	TAP_CALL_OK(kc_state_read(root, "sparse", &back, &err), err, "state: a sparse state.json reads");
	TAP_OK(back.pid == 7 && back.bundle && *back.bundle == '\0' && back.owner &&
	       back.cgroup_path && *back.cgroup_path == '\0',
	       "state: missing fields read as empty strings");
	kc_state_free(&back);
	kc_state_free(&st);
}

static void test_read_errors(void)
{
	struct kc_state st;
	kc_error_t err = NULL;
	int rc;

	rc = kc_state_read(root, "nosuch", &st, &err);
	TAP_OK(rc < 0 && err && strcmp(err->msg, "container does not exist") == 0 &&
	       err->errnum == ENOENT,
	       "state: unknown id: \"container does not exist\", errnum ENOENT (as state.h says)");
	kc_error_free(&err);

	/* `create` makes the directory before state.json exists. */
	make_dir("half");
	TAP_CALL_FAILS(kc_state_read(root, "half", &st, &err), err, "container does not exist",
		       "state: a directory without state.json does not exist yet");

	make_dir("broken");
	write_text("broken/state.json", "{\"id\": \"broken\", \"pid\": ");
	TAP_CALL_FAILS(kc_state_read(root, "broken", &st, &err), err, "invalid state file",
		       "state: a truncated state.json is an error, not a container");

	/* A bad id never reaches the file system: <root>/../<x> is not read. */
	make_dir("inner");
	make_dir("inner/c");
	write_text("inner/c/state.json", "{\"pid\":1}");
	{
		char sub[512];

		path_in_root(sub, sizeof(sub), "inner/c");
		TAP_CALL_FAILS(kc_state_read(sub, "../c", &st, &err), err, "invalid container ID format",
			       "state: read refuses \"../c\"");
	}
	TAP_CALL_FAILS(kc_state_read(root, "inner/c", &st, &err), err, "invalid container ID format",
		       "state: read refuses \"inner/c\"");
	TAP_CALL_FAILS(kc_state_read(root, "", &st, &err), err, "container id cannot be empty",
		       "state: read refuses an empty id");
}

/* Returns once child has exited, without reaping it (a zombie). */
static int wait_zombie(pid_t child)
{
	siginfo_t info;

	while (waitid(P_PID, child, &info, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static void test_start_time(void)
{
	unsigned long long mine, again, before, after;
	bool zombie = true;
	int go[2], ready[2];
	pid_t child;
	char byte;

	mine = kc_proc_start_time(getpid(), &zombie);
	again = kc_proc_start_time(getpid(), NULL);
	TAP_OK(mine != 0 && mine == again && !zombie, "state: own start time is stable, not a zombie");
	TAP_OK(kc_proc_start_time(0, NULL) == 0 && kc_proc_start_time(-5, NULL) == 0,
	       "state: pid 0 and negative pids have no start time");

	/* comm with spaces and parentheses must not shift the fields. */
	if (pipe(go) < 0 || pipe(ready) < 0) {
		TAP_OK(0, "state: pipes for the start-time child: %s", strerror(errno));
		return;
	}
	child = fork();
	if (child == 0) {
		close(go[1]);
		close(ready[0]);
		prctl(PR_SET_NAME, "a) b ) c (", 0, 0, 0);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		if (read(go[0], &byte, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	before = kc_proc_start_time(child, NULL);
	if (read(ready[0], &byte, 1) != 1)
		byte = 0;
	after = kc_proc_start_time(child, &zombie);
	TAP_OK(byte == 'r' && after != 0 && after == before && !zombie,
	       "state: start time read past a comm of \"a) b ) c (\"");
	close(go[1]); /* child exits */
	close(ready[0]);
	/* Not reaped yet: a zombie keeps its start time but is no init.
	 * waitid(WNOWAIT) returns once it is a zombie and leaves it one. */
	zombie = false;
	if (wait_zombie(child) == 0)
		kc_proc_start_time(child, &zombie);
	TAP_OK(zombie, "state: an exited, unreaped child is reported as a zombie");
	waitpid(child, NULL, 0);
	TAP_OK(kc_proc_start_time(child, &zombie) == 0 && !zombie,
	       "state: a reaped pid has no start time");
}

static void test_status(void)
{
	struct kc_state st = {0};
	kc_error_t err = NULL;
	char cgroup[512];
	pid_t child;
	bool zombie = false;

	st.id = "s1";
	st.pid = getpid();
	st.start_time = kc_proc_start_time(getpid(), NULL);
	st.cgroup_path = "";
	make_dir("s1");

	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_RUNNING && kc_state_init_alive(&st),
	       "state: live init, no exec fifo: running");
	write_text("s1/" KC_EXEC_FIFO, "");
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_CREATED,
	       "state: live init waiting on the exec fifo: created");

	/* Paused: cgroup.events says frozen (a stand-in directory); the
	 * loaded-container layer adds it to what state.c derives. */
	make_dir("fake-cgroup");
	write_text("fake-cgroup/cgroup.events", "populated 1\nfrozen 1\n");
	path_in_root(cgroup, sizeof(cgroup), "fake-cgroup");
	st.cgroup_path = cgroup;
	TAP_OK(kc_container_status(root, &st) == OCI_STATUS_PAUSED, "state: frozen cgroup: paused");
	write_text("fake-cgroup/cgroup.events", "populated 1\nfrozen 0\n");
	TAP_OK(kc_container_status(root, &st) == OCI_STATUS_CREATED, "state: thawed cgroup: created again");
	st.cgroup_path = "/nonexistent/kcrun-test-cgroup";
	TAP_OK(kc_container_status(root, &st) == OCI_STATUS_CREATED,
	       "state: a vanished cgroup does not make it paused");
	st.cgroup_path = "";

	/* The pid exists, but it is another process than the recorded one. */
	st.start_time += 1;
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_STOPPED && !kc_state_init_alive(&st),
	       "state: live pid with another start time (pid reused): stopped");
	st.start_time = 0;
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_STOPPED,
	       "state: live pid, no recorded start time: stopped");

	/* The pid does not exist (a reaped child's pid). */
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	st.pid = child;
	st.start_time = 1;
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_STOPPED, "state: dead pid: stopped");
	st.pid = 0;
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_STOPPED, "state: pid 0: stopped");
	st.pid = -1;
	TAP_OK(kc_state_status(root, &st) == OCI_STATUS_STOPPED && !kc_state_init_alive(&st),
	       "state: pid -1 (never kill(-1)): stopped");

	/* A zombie with the right start time is dead. */
	child = fork();
	if (child == 0)
		_exit(0);
	st.pid = child;
	st.start_time = wait_zombie(child) == 0 ? kc_proc_start_time(child, &zombie) : 0;
	TAP_OK(st.start_time != 0 && zombie && kc_state_status(root, &st) == OCI_STATUS_STOPPED,
	       "state: zombie init with the recorded start time: stopped");
	waitpid(child, NULL, 0);

	/* The pid reported for state/list and hooks. */
	{
		struct kc_state full;
		struct oci_state out;

		fill_state(&full, "s1");
		kc_state_to_oci(&full, OCI_STATUS_RUNNING, 77, &out);
		TAP_OK(out.pid == 77 && out.status == OCI_STATUS_RUNNING && strcmp(out.id, "s1") == 0 &&
		       strcmp(out.bundle, full.bundle) == 0 && out.annotations.len == 2 &&
		       strcmp(out.oci_version, OCI_SPEC_VERSION) == 0,
		       "state: kc_state_to_oci carries id, status, pid, bundle, annotations");
		kc_state_free(&full);
	}
	kc_error_free(&err);
}

static void test_remove(void)
{
	kc_error_t err = NULL;
	char outside[512], link_path[512];

	make_dir("r1");
	make_dir("r1/sub");
	make_dir("r1/sub/deeper");
	write_text("r1/state.json", "{}");
	write_text("r1/sub/deeper/file", "x");
	/* A symlink inside points outside: removal must not follow it. */
	make_dir("keep");
	write_text("keep/precious", "x");
	path_in_root(outside, sizeof(outside), "keep");
	path_in_root(link_path, sizeof(link_path), "r1/link");
	if (symlink(outside, link_path) < 0)
		printf("# symlink: %s\n", strerror(errno));
	TAP_CALL_OK(kc_state_remove(root, "r1", &err), err, "state: remove a state directory tree");
	TAP_OK(!exists("r1"), "state: the directory is gone");
	TAP_OK(exists("keep/precious"), "state: a symlink inside was not followed");
	TAP_CALL_OK(kc_state_remove(root, "r1", &err), err, "state: removing it again is no error");

	/* Ids that leave the root are refused before anything is removed. */
	make_dir("inner");
	write_text("inner/precious", "x");
	{
		char sub[512];

		path_in_root(sub, sizeof(sub), "inner/x");
		mkdir(sub, 0700);
		TAP_CALL_FAILS(kc_state_remove(sub, "..", &err), err, "invalid container ID format",
			       "state: remove refuses \"..\"");
		TAP_OK(exists("inner/precious"), "state: nothing outside the root was removed");
		TAP_CALL_FAILS(kc_state_remove(root, "inner/x", &err), err, "invalid container ID format",
			       "state: remove refuses \"inner/x\"");
		TAP_OK(exists("inner/x"), "state: \"inner/x\" is still there");
		TAP_CALL_FAILS(kc_state_remove(root, "", &err), err, "container id cannot be empty",
			       "state: remove refuses an empty id (it would name the root)");
		TAP_OK(exists("inner"), "state: the root is still there");
	}
}

static void test_format_time(void)
{
	struct timespec ts = {.tv_sec = 1700000000, .tv_nsec = 5};
	char buf[64];

	kc_format_time(&ts, buf, sizeof(buf));
	TAP_OK(strcmp(buf, "2023-11-14T22:13:20.000000005Z") == 0,
	       "state: created time in RFC 3339 with nanoseconds (%s)", buf);
}

void test_state(void)
{
	char cmd[600];

	if (mkdtemp(root) == NULL) {
		TAP_OK(0, "state: mkdtemp: %s", strerror(errno));
		return;
	}
	test_ids();
	test_write_read();
	test_read_errors();
	test_start_time();
	test_status();
	test_remove();
	test_format_time();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", root);
}
