/* config.json -> struct oci_spec: the entry points, and the top-level
 * sections other than `linux` (process, root, mounts, hooks, annotations).
 * `linux` lives in parse_linux.c, its resources and seccomp in their own
 * files. */
#include "spec.h"
#include "json_tree.h"
#include "parse_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOSTNAME_MAX_LEN 64 /* HOST_NAME_MAX: sethostname(2) refuses more */

/* ---------- process ---------- */

static int parse_console_size(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_console_size *size = dst;

	if (get_u32(ctx, obj, "height", true, NULL, &size->height) < 0 ||
	    get_u32(ctx, obj, "width", true, NULL, &size->width) < 0)
		return -1;
	return 0;
}

static int parse_user(struct parse_ctx *ctx, const struct json_value *obj, struct oci_user *user)
{
	const struct json_value *gids;
	size_t mark, i;
	int rc = 0;

	if (get_u32(ctx, obj, "uid", true, NULL, &user->uid) < 0 ||
	    get_u32(ctx, obj, "gid", true, NULL, &user->gid) < 0 ||
	    get_u32(ctx, obj, "umask", false, &user->has_umask, &user->umask) < 0)
		return -1;
	if (user->has_umask && user->umask > 0777)
		return ctx_fail(ctx, "umask", "%u is not a valid umask (0..0777)", user->umask);

	gids = ctx_field(obj, "additionalGids");
	if (gids == NULL)
		return 0;
	mark = ctx_enter_key(ctx, "additionalGids");
	if (mark == (size_t)-1)
		return -1;
	if (gids->type != JSON_ARRAY) {
		rc = ctx_type_error(ctx, "an array", gids);
	} else if (gids->u.array.len > 0) {
		user->additional_gids = calloc(gids->u.array.len, sizeof(*user->additional_gids));
		if (user->additional_gids == NULL) {
			rc = ctx_fail(ctx, NULL, "out of memory");
		} else {
			user->additional_gids_len = gids->u.array.len;
			for (i = 0; i < gids->u.array.len && rc == 0; i++) {
				size_t item_mark = ctx_enter_index(ctx, i);
				uint64_t gid = 0;

				rc = item_mark == (size_t)-1 ? -1 :
					read_uint(ctx, gids->u.array.items[i], UINT32_MAX, &gid);
				user->additional_gids[i] = (uint32_t)gid;
				ctx_leave(ctx, item_mark);
			}
		}
	}
	ctx_leave(ctx, mark);
	return rc;
}

static int parse_capabilities(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_capabilities *caps = dst;

	if (get_strv(ctx, obj, "bounding", 64, &caps->bounding, &caps->bounding_len) < 0 ||
	    get_strv(ctx, obj, "effective", 64, &caps->effective, &caps->effective_len) < 0 ||
	    get_strv(ctx, obj, "inheritable", 64, &caps->inheritable, &caps->inheritable_len) < 0 ||
	    get_strv(ctx, obj, "permitted", 64, &caps->permitted, &caps->permitted_len) < 0 ||
	    get_strv(ctx, obj, "ambient", 64, &caps->ambient, &caps->ambient_len) < 0)
		return -1;
	return 0;
}

static const char *const rlimit_names[] = {
	"RLIMIT_AS",	 "RLIMIT_CORE",	  "RLIMIT_CPU",	       "RLIMIT_DATA",
	"RLIMIT_FSIZE",	 "RLIMIT_LOCKS",  "RLIMIT_MEMLOCK",    "RLIMIT_MSGQUEUE",
	"RLIMIT_NICE",	 "RLIMIT_NOFILE", "RLIMIT_NPROC",      "RLIMIT_RSS",
	"RLIMIT_RTPRIO", "RLIMIT_RTTIME", "RLIMIT_SIGPENDING", "RLIMIT_STACK",
};

static int parse_rlimit(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_rlimit *rlimit = dst;
	size_t i;

	if (get_string(ctx, obj, "type", true, 64, &rlimit->type) < 0)
		return -1;
	for (i = 0; i < sizeof(rlimit_names) / sizeof(rlimit_names[0]); i++)
		if (strcmp(rlimit->type, rlimit_names[i]) == 0)
			break;
	if (i == sizeof(rlimit_names) / sizeof(rlimit_names[0]))
		return ctx_fail(ctx, "type", "unknown rlimit \"%s\"", rlimit->type);
	if (get_u64(ctx, obj, "hard", true, NULL, &rlimit->hard) < 0 ||
	    get_u64(ctx, obj, "soft", true, NULL, &rlimit->soft) < 0)
		return -1;
	if (rlimit->soft > rlimit->hard)
		return ctx_fail(ctx, "soft", "%llu is greater than hard limit %llu",
				(unsigned long long)rlimit->soft, (unsigned long long)rlimit->hard);
	return 0;
}

static int parse_scheduler(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	static const char *const policies[] = { "SCHED_OTHER", "SCHED_FIFO",  "SCHED_RR",
						"SCHED_BATCH", "SCHED_ISO",   "SCHED_IDLE",
						"SCHED_DEADLINE" };
	struct oci_scheduler *sched = dst;
	size_t i;

	if (get_string(ctx, obj, "policy", true, 64, &sched->policy) < 0)
		return -1;
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(sched->policy, policies[i]) == 0)
			break;
	if (i == sizeof(policies) / sizeof(policies[0]))
		return ctx_fail(ctx, "policy", "unknown scheduler policy \"%s\"", sched->policy);
	if (get_i32(ctx, obj, "nice", false, &sched->has_nice, &sched->nice) < 0 ||
	    get_i32(ctx, obj, "priority", false, &sched->has_priority, &sched->priority) < 0 ||
	    get_strv(ctx, obj, "flags", 64, &sched->flags, &sched->flags_len) < 0 ||
	    get_u64(ctx, obj, "runtime", false, &sched->has_runtime, &sched->runtime) < 0 ||
	    get_u64(ctx, obj, "deadline", false, &sched->has_deadline, &sched->deadline) < 0 ||
	    get_u64(ctx, obj, "period", false, &sched->has_period, &sched->period) < 0)
		return -1;
	if (sched->has_nice && (sched->nice < -20 || sched->nice > 19))
		return ctx_fail(ctx, "nice", "%d is out of range (-20..19)", sched->nice);
	return 0;
}

static int parse_io_priority(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_io_priority *prio = dst;

	if (get_string(ctx, obj, "class", true, 64, &prio->class) < 0)
		return -1;
	if (strcmp(prio->class, "IOPRIO_CLASS_RT") != 0 &&
	    strcmp(prio->class, "IOPRIO_CLASS_BE") != 0 &&
	    strcmp(prio->class, "IOPRIO_CLASS_IDLE") != 0)
		return ctx_fail(ctx, "class", "unknown I/O priority class \"%s\"", prio->class);
	if (get_i32(ctx, obj, "priority", false, NULL, &prio->priority) < 0)
		return -1;
	if (prio->priority < 0 || prio->priority > 7)
		return ctx_fail(ctx, "priority", "%d is out of range (0..7)", prio->priority);
	return 0;
}

static int parse_exec_cpu_affinity(struct parse_ctx *ctx, const struct json_value *obj,
				   void *dst)
{
	struct oci_exec_cpu_affinity *affinity = dst;

	if (get_string(ctx, obj, "initial", false, 4096, &affinity->initial) < 0 ||
	    get_string(ctx, obj, "final", false, 4096, &affinity->final) < 0)
		return -1;
	return 0;
}

static int check_env(struct parse_ctx *ctx, char **env, size_t len)
{
	size_t i, mark;
	int rc = 0;

	for (i = 0; i < len && rc == 0; i++) {
		const char *eq = strchr(env[i], '=');

		if (eq != NULL && eq != env[i])
			continue;
		mark = ctx_enter_index(ctx, i);
		if (mark == (size_t)-1)
			return -1;
		rc = ctx_fail(ctx, NULL, "invalid environment variable \"%s\": %s", env[i],
			      eq ? "name is empty" : "missing '='");
		ctx_leave(ctx, mark);
	}
	return rc;
}

int parse_process(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_process *process = dst;
	const struct json_value *user, *args;
	size_t mark, i, j;
	int rc;

	if (get_bool(ctx, obj, "terminal", false, NULL, &process->terminal) < 0)
		return -1;
	{
		void *size = NULL;

		rc = get_object(ctx, obj, "consoleSize", false, sizeof(struct oci_console_size),
				parse_console_size, &size);
		if (size) {
			process->console_size = *(struct oci_console_size *)size;
			process->has_console_size = rc == 0;
			free(size);
		}
		if (rc < 0)
			return -1;
	}

	user = ctx_field(obj, "user");
	if (user) {
		mark = ctx_enter_key(ctx, "user");
		if (mark == (size_t)-1)
			return -1;
		rc = user->type != JSON_OBJECT ? ctx_type_error(ctx, "an object", user) :
						 parse_user(ctx, user, &process->user);
		ctx_leave(ctx, mark);
		if (rc < 0)
			return -1;
	}

	args = ctx_field(obj, "args");
	if (args && args->type != JSON_ARRAY)
		return ctx_fail(ctx, "args", "expected an array, got %s", json_type_name(args->type));
	if (args == NULL || args->u.array.len == 0)
		return ctx_fail(ctx, "args", "must be a non-empty array");
	if (get_strv(ctx, obj, "args", OCI_MAX_STRING_LEN, &process->args, &process->args_len) < 0)
		return -1;

	if (get_strv(ctx, obj, "env", OCI_MAX_STRING_LEN, &process->env, &process->env_len) < 0)
		return -1;
	mark = ctx_enter_key(ctx, "env");
	if (mark == (size_t)-1)
		return -1;
	rc = check_env(ctx, process->env, process->env_len);
	ctx_leave(ctx, mark);
	if (rc < 0)
		return -1;

	if (get_string(ctx, obj, "cwd", true, OCI_PATH_MAX_LEN, &process->cwd) < 0 ||
	    check_absolute(ctx, "cwd", process->cwd) < 0)
		return -1;

	if (get_object(ctx, obj, "capabilities", false, sizeof(struct oci_capabilities),
		       parse_capabilities, (void **)&process->capabilities) < 0)
		return -1;

	if (get_object_array(ctx, obj, "rlimits", sizeof(struct oci_rlimit), parse_rlimit,
			     (void **)&process->rlimits, &process->rlimits_len) < 0)
		return -1;
	for (i = 1; i < process->rlimits_len; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(process->rlimits[i].type, process->rlimits[j].type) != 0)
				continue;
			mark = ctx_enter_key(ctx, "rlimits");
			if (mark == (size_t)-1)
				return -1;
			ctx_enter_index(ctx, i);
			ctx_fail(ctx, "type", "duplicate rlimit \"%s\" (also in rlimits[%zu])",
				 process->rlimits[i].type, j);
			ctx_leave(ctx, mark);
			return -1;
		}
	}

	{
		int64_t adj = 0;

		if (get_bool(ctx, obj, "noNewPrivileges", false, NULL,
			     &process->no_new_privileges) < 0 ||
		    get_string(ctx, obj, "apparmorProfile", false, 4096,
			       &process->apparmor_profile) < 0 ||
		    get_int_range(ctx, obj, "oomScoreAdj", false, -1000, 1000,
				  &process->has_oom_score_adj, &adj) < 0 ||
		    get_string(ctx, obj, "selinuxLabel", false, 4096, &process->selinux_label) < 0)
			return -1;
		process->oom_score_adj = (int)adj;
	}

	if (get_object(ctx, obj, "scheduler", false, sizeof(struct oci_scheduler),
		       parse_scheduler, (void **)&process->scheduler) < 0 ||
	    get_object(ctx, obj, "ioPriority", false, sizeof(struct oci_io_priority),
		       parse_io_priority, (void **)&process->io_priority) < 0 ||
	    get_object(ctx, obj, "execCPUAffinity", false, sizeof(struct oci_exec_cpu_affinity),
		       parse_exec_cpu_affinity, (void **)&process->exec_cpu_affinity) < 0)
		return -1;
	return 0;
}

/* ---------- root, mounts, id mappings ---------- */

static int parse_root(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_root *root = dst;

	if (get_string(ctx, obj, "path", true, OCI_PATH_MAX_LEN, &root->path) < 0 ||
	    get_bool(ctx, obj, "readonly", false, NULL, &root->readonly) < 0)
		return -1;
	if (root->path[0] == '\0')
		return ctx_fail(ctx, "path", "must not be empty");
	return 0;
}

int parse_id_mapping(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_id_mapping *map = dst;

	if (get_u32(ctx, obj, "containerID", true, NULL, &map->container_id) < 0 ||
	    get_u32(ctx, obj, "hostID", true, NULL, &map->host_id) < 0 ||
	    get_u32(ctx, obj, "size", true, NULL, &map->size) < 0)
		return -1;
	if (map->size == 0)
		return ctx_fail(ctx, "size", "must be greater than 0");
	if ((uint64_t)map->container_id + map->size > (uint64_t)UINT32_MAX + 1)
		return ctx_fail(ctx, NULL, "containerID %u + size %u is beyond 4294967296",
				map->container_id, map->size);
	if ((uint64_t)map->host_id + map->size > (uint64_t)UINT32_MAX + 1)
		return ctx_fail(ctx, NULL, "hostID %u + size %u is beyond 4294967296", map->host_id,
				map->size);
	return 0;
}

static int parse_mount(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_mount *mount = dst;

	if (get_string(ctx, obj, "destination", true, OCI_PATH_MAX_LEN, &mount->destination) < 0 ||
	    check_absolute(ctx, "destination", mount->destination) < 0 ||
	    get_string(ctx, obj, "type", false, 256, &mount->type) < 0 ||
	    get_string(ctx, obj, "source", false, OCI_PATH_MAX_LEN, &mount->source) < 0 ||
	    get_strv(ctx, obj, "options", OCI_MAX_STRING_LEN, &mount->options, &mount->options_len) < 0 ||
	    get_object_array(ctx, obj, "uidMappings", sizeof(struct oci_id_mapping),
			     parse_id_mapping, (void **)&mount->uid_mappings,
			     &mount->uid_mappings_len) < 0 ||
	    get_object_array(ctx, obj, "gidMappings", sizeof(struct oci_id_mapping),
			     parse_id_mapping, (void **)&mount->gid_mappings,
			     &mount->gid_mappings_len) < 0)
		return -1;
	return 0;
}

/* ---------- hooks ---------- */

static int parse_hook(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_hook *hook = dst;
	int64_t timeout = 0;

	if (get_string(ctx, obj, "path", true, OCI_PATH_MAX_LEN, &hook->path) < 0 ||
	    check_absolute(ctx, "path", hook->path) < 0 ||
	    get_strv(ctx, obj, "args", OCI_MAX_STRING_LEN, &hook->args, &hook->args_len) < 0 ||
	    get_strv(ctx, obj, "env", OCI_MAX_STRING_LEN, &hook->env, &hook->env_len) < 0 ||
	    get_int_range(ctx, obj, "timeout", false, INT32_MIN, INT32_MAX, &hook->has_timeout,
			  &timeout) < 0)
		return -1;
	hook->timeout = (int)timeout;
	if (hook->has_timeout && hook->timeout <= 0)
		return ctx_fail(ctx, "timeout", "must be greater than 0, got %d", hook->timeout);
	return 0;
}

#define GET_HOOKS(name, field)                                                             \
	get_object_array(ctx, obj, name, sizeof(struct oci_hook), parse_hook,              \
			 (void **)&hooks->field, &hooks->field##_len)

int parse_hooks(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_hooks *hooks = dst;

	if (GET_HOOKS("prestart", prestart) < 0 ||
	    GET_HOOKS("createRuntime", create_runtime) < 0 ||
	    GET_HOOKS("createContainer", create_container) < 0 ||
	    GET_HOOKS("startContainer", start_container) < 0 ||
	    GET_HOOKS("poststart", poststart) < 0 || GET_HOOKS("poststop", poststop) < 0)
		return -1;
	return 0;
}

/* ---------- the document ---------- */

static int parse_spec(struct parse_ctx *ctx, const struct json_value *obj, struct oci_spec *spec)
{
	if (obj->type != JSON_OBJECT)
		return ctx_type_error(ctx, "an object", obj);
	if (get_string(ctx, obj, "ociVersion", true, 256, &spec->oci_version) < 0)
		return -1;
	if (spec->oci_version[0] == '\0')
		return ctx_fail(ctx, "ociVersion", "must not be empty");
	if (get_object(ctx, obj, "process", false, sizeof(struct oci_process), parse_process,
		       (void **)&spec->process) < 0 ||
	    get_object(ctx, obj, "root", false, sizeof(struct oci_root), parse_root,
		       (void **)&spec->root) < 0 ||
	    get_string(ctx, obj, "hostname", false, HOSTNAME_MAX_LEN, &spec->hostname) < 0 ||
	    get_string(ctx, obj, "domainname", false, HOSTNAME_MAX_LEN, &spec->domainname) < 0 ||
	    get_object_array(ctx, obj, "mounts", sizeof(struct oci_mount), parse_mount,
			     (void **)&spec->mounts, &spec->mounts_len) < 0 ||
	    get_object(ctx, obj, "hooks", false, sizeof(struct oci_hooks), parse_hooks,
		       (void **)&spec->hooks) < 0 ||
	    get_string_map(ctx, obj, "annotations", &spec->annotations) < 0 ||
	    get_object(ctx, obj, "linux", false, sizeof(struct oci_linux), parse_linux,
		       (void **)&spec->linux_) < 0)
		return -1;
	return 0;
}

static void set_errmsg(char **errmsg, char *msg)
{
	if (errmsg)
		*errmsg = msg ? msg : strdup("out of memory");
	else
		free(msg);
}

static int convert_spec(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	return parse_spec(ctx, obj, dst);
}

static void free_spec(void *spec)
{
	oci_spec_free(spec);
}

static int parse_named(const char *json, size_t len, const char *source,
		       struct oci_spec **out, char **errmsg)
{
	return parse_document(json, len, source, sizeof(struct oci_spec), convert_spec, free_spec,
			      (void **)out, errmsg);
}

int oci_spec_parse_string(const char *json, size_t len, struct oci_spec **out, char **errmsg)
{
	return parse_named(json, len, "config.json", out, errmsg);
}

int oci_spec_parse_file(const char *path, struct oci_spec **out, char **errmsg)
{
	char *buf = NULL, *msg = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	ssize_t n;
	int fd, rc, saved;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail_errno;
	if (fstat(fd, &st) < 0)
		goto fail_close;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		if (asprintf(&msg, "%s: not a regular file", path) < 0)
			msg = NULL;
		close(fd);
		set_errmsg(errmsg, msg);
		return -1;
	}
	/* Read to EOF rather than trusting st_size; cap the total. */
	cap = st.st_size > 0 && st.st_size < OCI_MAX_CONFIG_SIZE ? (size_t)st.st_size + 1 : 4096;
	for (;;) {
		if (len == cap || buf == NULL) {
			char *nbuf;

			if (buf != NULL)
				cap *= 2;
			nbuf = realloc(buf, cap);
			if (nbuf == NULL)
				goto fail_close;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail_close;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > OCI_MAX_CONFIG_SIZE)
			break; /* parse_named reports the size */
	}
	close(fd);
	rc = parse_named(buf, len, path, out, errmsg);
	free(buf);
	return rc;

fail_close:
	saved = errno;
	close(fd);
	free(buf);
	errno = saved;
fail_errno:
	if (asprintf(&msg, "%s: %s", path, strerror(errno)) < 0)
		msg = NULL;
	set_errmsg(errmsg, msg);
	return -1;
}
