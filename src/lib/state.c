/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "cleanup.h"
#include "buf.h"
#include "fileio.h"
#include "log.h"

void kc_state_free(struct kc_state *st)
{
	free(st->id);
	free(st->bundle);
	free(st->rootfs);
	free(st->owner);
	free(st->cgroup_path);
	free(st->config_path);
	oci_map_free(&st->annotations);
	memset(st, 0, sizeof(*st));
}

char *kc_state_dir(const char *root, const char *id)
{
	char *dir = NULL;

	if (asprintf(&dir, "%s/%s", root, id) < 0)
		return NULL;
	return dir;
}

int kc_state_check_id(const char *id, kc_error_t *err)
{
	const char *p;

	if (id == NULL || *id == '\0')
		return kc_error_set(err, 0, "container id cannot be empty");
	if (strcmp(id, ".") == 0 || strcmp(id, "..") == 0 || strlen(id) > 255)
		return kc_error_set(err, 0, "invalid container ID format");
	/* runc's [\w+-\.]: the '-' makes a range, '+' to '.', so ',' is in. */
	for (p = id; *p; p++) {
		if (!(isalnum((unsigned char)*p) || *p == '_' || (*p >= '+' && *p <= '.')))
			return kc_error_set(err, 0, "invalid container ID format");
	}
	return 0;
}

void kc_format_time(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;
	char date[32];

	/* a created_sec from a hostile state.json can be past gmtime's range:
	 * tm would be left partly unset, and strftime's date indeterminate */
	if (gmtime_r(&ts->tv_sec, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(date, sizeof(date), "0001-01-01T00:00:00"); /* Go's zero time */
	snprintf(buf, len, "%s.%09ldZ", date, (long)ts->tv_nsec);
}

int kc_state_to_json(const struct kc_state *st, char **out, size_t *len, kc_error_t *err)
{
	struct kc_buf b = {0};
	size_t i;

	kc_buf_printf(&b, "{\"id\":");
	kc_buf_json_string(&b, st->id);
	kc_buf_printf(&b, ",\"pid\":%d,\"start_time\":%llu,\"bundle\":", (int)st->pid,
		      st->start_time);
	kc_buf_json_string(&b, st->bundle);
	kc_buf_printf(&b, ",\"rootfs\":");
	kc_buf_json_string(&b, st->rootfs);
	kc_buf_printf(&b, ",\"created_sec\":%lld,\"created_nsec\":%ld,\"owner\":",
		      (long long)st->created.tv_sec, (long)st->created.tv_nsec);
	kc_buf_json_string(&b, st->owner ? st->owner : "");
	kc_buf_printf(&b, ",\"cgroup_path\":");
	kc_buf_json_string(&b, st->cgroup_path ? st->cgroup_path : "");
	kc_buf_printf(&b, ",\"config_path\":");
	kc_buf_json_string(&b, st->config_path ? st->config_path : "");
	kc_buf_printf(&b, ",\"poststart\":%s,\"poststop\":%s,\"pid_ns\":%s",
		      st->has_poststart_hooks ? "true" : "false",
		      st->has_poststop_hooks ? "true" : "false",
		      st->has_pid_ns ? "true" : "false");
	if (st->keyring > 0)
		kc_buf_printf(&b, ",\"keyring\":%d", (int)st->keyring);
	kc_buf_printf(&b, ",\"annotations\":{");
	for (i = 0; i < st->annotations.len; i++) {
		if (i)
			kc_buf_append(&b, ",", 1);
		kc_buf_json_string(&b, st->annotations.entries[i].key);
		kc_buf_append(&b, ":", 1);
		kc_buf_json_string(&b, st->annotations.entries[i].value);
	}
	if (kc_buf_printf(&b, "}}\n") < 0 || b.data == NULL) {
		free(b.data);
		return kc_error_set(err, ENOMEM, "write state");
	}
	*out = b.data;
	*len = b.len;
	return 0;
}

int kc_state_write(const char *root, const struct kc_state *st, kc_error_t *err)
{
	char final[4096], *json;
	size_t len;
	int ret;

	if (kc_state_to_json(st, &json, &len, err) < 0)
		return -1;
	snprintf(final, sizeof(final), "%s/%s/%s", root, st->id, KC_STATE_FILE);
	ret = kc_write_file_atomic(final, ".tmp", json, len, 0600, "state", err);
	free(json);
	return ret;
}

static char *dup_string(yajl_val root, const char *key)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_string);

	const char *s = v ? YAJL_GET_STRING(v) : NULL;

	return strdup(s ? s : "");
}

static long long get_int(yajl_val root, const char *key)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_number);

	return v && YAJL_IS_INTEGER(v) ? YAJL_GET_INTEGER(v) : 0;
}

static bool get_bool(yajl_val root, const char *key)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_any);

	return v && YAJL_IS_TRUE(v);
}

int kc_state_parse(const char *json, const char *id, struct kc_state *st, const char *source,
		   kc_error_t *err)
{
	const char *ann_path[] = {"annotations", NULL};
	char errbuf[256];
	yajl_val tree, ann;
	size_t i;

	memset(st, 0, sizeof(*st));
	tree = yajl_tree_parse(json, errbuf, sizeof(errbuf));
	if (tree == NULL)
		return kc_error_set(err, 0, "`%s`: invalid state file: %s", source, errbuf);
	if (!YAJL_IS_OBJECT(tree)) {
		yajl_tree_free(tree);
		return kc_error_set(err, 0, "`%s`: invalid state file: not a JSON object", source);
	}
	st->id = strdup(id);
	st->pid = (pid_t)get_int(tree, "pid");
	st->start_time = (unsigned long long)get_int(tree, "start_time");
	st->bundle = dup_string(tree, "bundle");
	st->rootfs = dup_string(tree, "rootfs");
	st->created.tv_sec = (time_t)get_int(tree, "created_sec");
	st->created.tv_nsec = (long)get_int(tree, "created_nsec");
	st->owner = dup_string(tree, "owner");
	st->cgroup_path = dup_string(tree, "cgroup_path");
	st->config_path = dup_string(tree, "config_path");
	st->has_poststart_hooks = get_bool(tree, "poststart");
	st->has_poststop_hooks = get_bool(tree, "poststop");
	st->has_pid_ns = get_bool(tree, "pid_ns");
	{
		long long keyring = get_int(tree, "keyring");

		st->keyring = keyring > 0 && keyring <= INT32_MAX ? (int32_t)keyring : 0;
	}
	ann = yajl_tree_get(tree, ann_path, yajl_t_object);
	for (i = 0; ann && i < ann->u.object.len; i++) {
		yajl_val v = ann->u.object.values[i];

		if (YAJL_IS_STRING(v))
			oci_map_set(&st->annotations, ann->u.object.keys[i], YAJL_GET_STRING(v));
	}
	yajl_tree_free(tree);
	return 0;
}

/* state.json is kcrun's own file; one this large was not written by kcrun */
#define KC_STATE_MAX_SIZE (64 << 20)

int kc_state_read(const char *root, const char *id, struct kc_state *st, kc_error_t *err)
{
	char path[4096];
	cleanup_free char *buf = NULL;
	struct stat file_stat;
	int fd, rc;

	memset(st, 0, sizeof(*st));
	if (kc_state_check_id(id, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s/%s", root, id, KC_STATE_FILE);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &file_stat) < 0 || !S_ISREG(file_stat.st_mode))) {
		close(fd);
		return kc_error_set(err, 0, "`%s`: invalid state file: not a regular file", path);
	}
	if (fd < 0) {
		if (errno == ELOOP)
			return kc_error_set(err, 0, "`%s`: invalid state file: a symlink", path);
		if (errno == ENOENT || errno == ENOTDIR) {
			/* errnum ENOENT without ": no such file ..." in the message */
			kc_error_set(err, 0, "container does not exist");
			if (err && *err)
				(*err)->errnum = ENOENT;
			return -1;
		}
		return kc_error_set(err, errno, "open `%s`", path);
	}
	/* Whole, however large the annotations made it, up to a bound. */
	rc = kc_read_fd(fd, KC_STATE_MAX_SIZE, &buf, NULL);
	close(fd);
	if (rc < 0)
		return kc_error_set(err, -rc, "read `%s`", path);
	return kc_state_parse(buf, id, st, path, err);
}

/* Field 22 of an open /proc/PID/stat, and whether the process is a zombie. */
static unsigned long long read_start_time(int stat_fd, bool *zombie)
{
	char buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int field;

	if (zombie)
		*zombie = false;
	if (stat_fd < 0)
		return 0;
	n = read(stat_fd, buf, sizeof(buf) - 1);
	close(stat_fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* comm may contain spaces and parentheses: fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (p == NULL)
		return 0;
	p += 2; /* field 3: state */
	if (zombie)
		*zombie = (*p == 'Z' || *p == 'X');
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		start = strtoull(p, NULL, 10);
	return start;
}

unsigned long long kc_proc_start_time_at(int proc_dir_fd, bool *zombie)
{
	return read_start_time(openat(proc_dir_fd, "stat", O_RDONLY | O_CLOEXEC), zombie);
}

unsigned long long kc_proc_start_time(pid_t pid, bool *zombie)
{
	char path[64];

	if (zombie)
		*zombie = false;
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return read_start_time(open(path, O_RDONLY | O_CLOEXEC), zombie);
}

bool kc_state_init_alive(const struct kc_state *st)
{
	bool zombie;
	unsigned long long start;

	if (st->pid <= 0)
		return false;
	start = kc_proc_start_time(st->pid, &zombie);
	return start != 0 && start == st->start_time && !zombie;
}

enum oci_status kc_state_status(const char *root, const struct kc_state *st)
{
	char fifo[4096];

	if (!kc_state_init_alive(st))
		return OCI_STATUS_STOPPED;
	snprintf(fifo, sizeof(fifo), "%s/%s/%s", root, st->id, KC_EXEC_FIFO);
	if (access(fifo, F_OK) == 0)
		return OCI_STATUS_CREATED;
	return OCI_STATUS_RUNNING;
}

void kc_state_to_oci(const struct kc_state *st, enum oci_status status, int pid,
		     struct oci_state *out)
{
	memset(out, 0, sizeof(*out));
	out->oci_version = (char *)OCI_SPEC_VERSION;
	out->id = st->id;
	out->status = status;
	out->pid = pid;
	out->bundle = st->bundle;
	out->annotations = st->annotations;
	out->rootfs = st->rootfs;
	out->created = st->created;
	out->owner = st->owner ? st->owner : (char *)"";
}

static int remove_tree_at(int dirfd, const char *name)
{
	DIR *d;
	struct dirent *de;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return unlinkat(dirfd, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(fd, de->d_name, 0) < 0 && errno == EISDIR)
			remove_tree_at(fd, de->d_name);
	}
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -1;
	return 0;
}

static int record_text(int state_dir_fd, const char *name, const char *text, kc_error_t *err)
{
	size_t len = strlen(text);
	int fd = openat(state_dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return kc_error_set(err, errno, "create %s", name);
	if (write(fd, text, len) != (ssize_t)len) {
		kc_error_set(err, errno ? errno : EIO, "write %s", name);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static char *recorded_text(const char *root, const char *id, const char *name)
{
	char path[4096], buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", root, id, name);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

int kc_state_record_cgroup(int state_dir_fd, const char *cgroup_path, kc_error_t *err)
{
	return record_text(state_dir_fd, KC_CGROUP_FILE, cgroup_path, err);
}

char *kc_state_recorded_cgroup(const char *root, const char *id)
{
	return recorded_text(root, id, KC_CGROUP_FILE);
}

int kc_state_record_unit(int state_dir_fd, const char *unit, bool user, kc_error_t *err)
{
	char text[512];

	if ((size_t)snprintf(text, sizeof(text), "%s %s", user ? "user" : "system", unit) >= sizeof(text))
		return kc_error_set(err, ENAMETOOLONG, "systemd unit name %s", unit);
	return record_text(state_dir_fd, KC_UNIT_FILE, text, err);
}

char *kc_state_recorded_unit(const char *root, const char *id, bool *user)
{
	cleanup_free char *text = recorded_text(root, id, KC_UNIT_FILE);
	const char *name;

	if (text == NULL)
		return NULL;
	if (strncmp(text, "user ", 5) == 0)
		*user = true;
	else if (strncmp(text, "system ", 7) == 0)
		*user = false;
	else
		return NULL;
	name = strchr(text, ' ') + 1;
	/* only a scope kcrun started: never another unit of the host */
	if (strlen(name) <= strlen(".scope") || strchr(name, '/') || strchr(name, '\n') ||
	    strcmp(name + strlen(name) - strlen(".scope"), ".scope") != 0)
		return NULL;
	return strdup(name);
}

static int not_exist(kc_error_t *err)
{
	kc_error_set(err, 0, "container does not exist");
	if (err && *err)
		(*err)->errnum = ENOENT;
	return -1;
}

int kc_state_lock(const char *root, const char *id, kc_error_t *err)
{
	cleanup_free char *dir = NULL;
	struct stat st;
	int fd;

	if (kc_state_check_id(id, err) < 0)
		return -1;
	dir = kc_state_dir(root, id);
	if (dir == NULL)
		return kc_error_set(err, ENOMEM, "lock");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return not_exist(err);
		if (errno == ELOOP || errno == ENOTDIR)
			return kc_error_set(err, 0, "`%s`: the container's state directory is not "
						    "a directory (a symlink?)", dir);
		return kc_error_set(err, errno, "open `%s`", dir);
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			kc_error_set(err, errno, "lock `%s`", dir);
			close(fd);
			return -1;
		}
	}
	/* the holder before us may have deleted the container */
	if (fstat(fd, &st) < 0 || st.st_nlink == 0) {
		close(fd);
		return not_exist(err);
	}
	return fd;
}

int kc_state_remove(const char *root, const char *id, kc_error_t *err)
{
	char *dir;
	int ret = 0;

	/* "", ".." or "a/b" would name the root, its parent or a deeper tree. */
	if (kc_state_check_id(id, err) < 0)
		return -1;
	dir = kc_state_dir(root, id);
	if (dir == NULL)
		return kc_error_set(err, ENOMEM, "remove state");
	if (remove_tree_at(AT_FDCWD, dir) < 0)
		ret = kc_error_set(err, errno, "remove `%s`", dir);
	free(dir);
	return ret;
}

static int compare_ids(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kc_state_ids(const char *root, char ***ids, size_t *n, kc_error_t *err)
{
	cleanup_dir DIR *dir = opendir(root);
	char **list = NULL;
	size_t len = 0;
	struct dirent *de;

	*ids = NULL;
	*n = 0;
	if (dir == NULL && errno != ENOENT)
		return kc_error_set(err, errno, "open %s", root);
	while (dir && (de = readdir(dir)) != NULL) {
		char **bigger;

		if (de->d_name[0] == '.')
			continue;
		bigger = realloc(list, (len + 1) * sizeof(*list));
		if (bigger == NULL || (bigger[len] = strdup(de->d_name)) == NULL) {
			oci_strv_free(bigger ? bigger : list, len);
			return kc_error_set(err, ENOMEM, "list %s", root);
		}
		list = bigger;
		len++;
	}
	if (len)
		qsort(list, len, sizeof(*list), compare_ids);
	*ids = list;
	*n = len;
	return 0;
}

char *kc_state_owner(const char *root, const char *id)
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
