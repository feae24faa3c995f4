/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json `process` -> struct oci_process. */
#include "spec.h"
#include "parse_ctx.h"

#include <stdlib.h>
#include <string.h>

static int parse_console_size(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_console_size *size = dst;

	if (oci_get_u32(ctx, obj, "height", true, NULL, &size->height) < 0 ||
	    oci_get_u32(ctx, obj, "width", true, NULL, &size->width) < 0)
		return -1;
	return 0;
}

static int parse_user(struct parse_ctx *ctx, const struct json_value *obj, struct oci_user *user)
{
	const struct json_value *gids;
	size_t mark, i;
	int rc = 0;

	if (oci_get_u32(ctx, obj, "uid", true, NULL, &user->uid) < 0 ||
	    oci_get_u32(ctx, obj, "gid", true, NULL, &user->gid) < 0 ||
	    oci_get_u32(ctx, obj, "umask", false, &user->has_umask, &user->umask) < 0)
		return -1;
	if (user->has_umask && user->umask > 0777)
		return oci_ctx_fail(ctx, "umask", "%u is not a valid umask (0..0777)", user->umask);

	gids = oci_ctx_field(obj, "additionalGids");
	if (gids == NULL)
		return 0;
	mark = oci_ctx_enter_key(ctx, "additionalGids");
	if (mark == (size_t)-1)
		return -1;
	if (gids->type != JSON_ARRAY) {
		rc = oci_ctx_type_error(ctx, "an array", gids);
	} else if (gids->u.array.len > 0) {
		user->additional_gids = calloc(gids->u.array.len, sizeof(*user->additional_gids));
		if (user->additional_gids == NULL) {
			rc = oci_ctx_fail(ctx, NULL, "out of memory");
		} else {
			user->additional_gids_len = gids->u.array.len;
			for (i = 0; i < gids->u.array.len && rc == 0; i++) {
				size_t item_mark = oci_ctx_enter_index(ctx, i);
				uint64_t gid = 0;

				rc = item_mark == (size_t)-1
					     ? -1
					     : oci_read_uint(ctx, gids->u.array.items[i],
							     UINT32_MAX, &gid);
				user->additional_gids[i] = (uint32_t)gid;
				oci_ctx_leave(ctx, item_mark);
			}
		}
	}
	oci_ctx_leave(ctx, mark);
	return rc;
}

static int parse_capabilities(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_capabilities *caps = dst;

	if (oci_get_strv(ctx, obj, "bounding", 64, &caps->bounding, &caps->bounding_len) < 0 ||
	    oci_get_strv(ctx, obj, "effective", 64, &caps->effective, &caps->effective_len) < 0 ||
	    oci_get_strv(ctx, obj, "inheritable", 64, &caps->inheritable,
			 &caps->inheritable_len) < 0 ||
	    oci_get_strv(ctx, obj, "permitted", 64, &caps->permitted, &caps->permitted_len) < 0 ||
	    oci_get_strv(ctx, obj, "ambient", 64, &caps->ambient, &caps->ambient_len) < 0)
		return -1;
	return 0;
}

static int parse_rlimit(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_rlimit *rlimit = dst;

	if (oci_get_string(ctx, obj, "type", true, 64, &rlimit->type) < 0)
		return -1;
	if (oci_rlimit_from_name(rlimit->type) < 0)
		return oci_ctx_fail(ctx, "type", "unknown rlimit \"%s\"", rlimit->type);
	if (oci_get_u64(ctx, obj, "hard", true, NULL, &rlimit->hard) < 0 ||
	    oci_get_u64(ctx, obj, "soft", true, NULL, &rlimit->soft) < 0)
		return -1;
	if (rlimit->soft > rlimit->hard)
		return oci_ctx_fail(ctx, "soft", "%llu is greater than hard limit %llu",
				    (unsigned long long)rlimit->soft,
				    (unsigned long long)rlimit->hard);
	return 0;
}

static int parse_scheduler(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	static const char *const policies[] = { "SCHED_OTHER",	 "SCHED_FIFO", "SCHED_RR",
						"SCHED_BATCH",	 "SCHED_ISO",  "SCHED_IDLE",
						"SCHED_DEADLINE" };
	struct oci_scheduler *sched = dst;
	size_t i;

	if (oci_get_string(ctx, obj, "policy", true, 64, &sched->policy) < 0)
		return -1;
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(sched->policy, policies[i]) == 0)
			break;
	if (i == sizeof(policies) / sizeof(policies[0]))
		return oci_ctx_fail(ctx, "policy", "unknown scheduler policy \"%s\"",
				    sched->policy);
	if (oci_get_i32(ctx, obj, "nice", false, &sched->has_nice, &sched->nice) < 0 ||
	    oci_get_i32(ctx, obj, "priority", false, &sched->has_priority, &sched->priority) < 0 ||
	    oci_get_strv(ctx, obj, "flags", 64, &sched->flags, &sched->flags_len) < 0 ||
	    oci_get_u64(ctx, obj, "runtime", false, &sched->has_runtime, &sched->runtime) < 0 ||
	    oci_get_u64(ctx, obj, "deadline", false, &sched->has_deadline, &sched->deadline) < 0 ||
	    oci_get_u64(ctx, obj, "period", false, &sched->has_period, &sched->period) < 0)
		return -1;
	if (sched->has_nice && (sched->nice < -20 || sched->nice > 19))
		return oci_ctx_fail(ctx, "nice", "%d is out of range (-20..19)", sched->nice);
	return 0;
}

static int parse_io_priority(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_io_priority *prio = dst;

	if (oci_get_string(ctx, obj, "class", true, 64, &prio->class) < 0)
		return -1;
	if (strcmp(prio->class, "IOPRIO_CLASS_RT") != 0 &&
	    strcmp(prio->class, "IOPRIO_CLASS_BE") != 0 &&
	    strcmp(prio->class, "IOPRIO_CLASS_IDLE") != 0)
		return oci_ctx_fail(ctx, "class", "unknown I/O priority class \"%s\"", prio->class);
	if (oci_get_i32(ctx, obj, "priority", false, NULL, &prio->priority) < 0)
		return -1;
	if (prio->priority < 0 || prio->priority > 7)
		return oci_ctx_fail(ctx, "priority", "%d is out of range (0..7)", prio->priority);
	return 0;
}

static int parse_exec_cpu_affinity(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_exec_cpu_affinity *affinity = dst;

	if (oci_get_string(ctx, obj, "initial", false, 4096, &affinity->initial) < 0 ||
	    oci_get_string(ctx, obj, "final", false, 4096, &affinity->final) < 0)
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
		mark = oci_ctx_enter_index(ctx, i);
		if (mark == (size_t)-1)
			return -1;
		rc = oci_ctx_fail(ctx, NULL, "invalid environment variable \"%s\": %s", env[i],
				  eq ? "name is empty" : "missing '='");
		oci_ctx_leave(ctx, mark);
	}
	return rc;
}

/* process.consoleSize is embedded in struct oci_process, not a pointer. */
static int get_console_size(struct parse_ctx *ctx, const struct json_value *obj,
			    struct oci_process *process)
{
	void *size = NULL;
	int rc = oci_get_object(ctx, obj, "consoleSize", false, sizeof(struct oci_console_size),
				parse_console_size, &size);

	if (size != NULL) {
		process->console_size = *(struct oci_console_size *)size;
		process->has_console_size = rc == 0;
		free(size);
	}
	return rc;
}

/* process.user is embedded too. */
static int get_user(struct parse_ctx *ctx, const struct json_value *obj,
		    struct oci_process *process)
{
	const struct json_value *user = oci_ctx_field(obj, "user");
	size_t mark;
	int rc;

	if (user == NULL)
		return 0; /* root, as with runc */
	mark = oci_ctx_enter_key(ctx, "user");
	if (mark == (size_t)-1)
		return -1;
	if (user->type != JSON_OBJECT)
		rc = oci_ctx_type_error(ctx, "an object", user);
	else
		rc = parse_user(ctx, user, &process->user);
	oci_ctx_leave(ctx, mark);
	return rc;
}

/* runtime-spec: duplicate rlimit types are an error.  There are 16 types,
 * so this stops by the 17th entry whatever the length. */
static int check_unique_rlimits(struct parse_ctx *ctx, const struct oci_process *process)
{
	size_t i, j, mark;

	for (i = 1; i < process->rlimits_len; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(process->rlimits[i].type, process->rlimits[j].type) != 0)
				continue;
			mark = oci_ctx_enter_key(ctx, "rlimits");
			if (mark == (size_t)-1 || oci_ctx_enter_index(ctx, i) == (size_t)-1)
				return -1;
			oci_ctx_fail(ctx, "type", "duplicate rlimit \"%s\" (also in rlimits[%zu])",
				     process->rlimits[i].type, j);
			oci_ctx_leave(ctx, mark);
			return -1;
		}
	}
	return 0;
}

/* process.args: runtime-spec requires at least one entry on Linux. */
static int get_args(struct parse_ctx *ctx, const struct json_value *obj,
		    struct oci_process *process)
{
	const struct json_value *args = oci_ctx_field(obj, "args");

	if (args && args->type != JSON_ARRAY)
		return oci_ctx_fail(ctx, "args", "expected an array, got %s",
				    oci_json_type_name(args->type));
	if (args == NULL || args->u.array.len == 0)
		return oci_ctx_fail(ctx, "args", "must be a non-empty array");
	return oci_get_strv(ctx, obj, "args", OCI_MAX_STRING_LEN, &process->args,
			    &process->args_len);
}

static int get_env(struct parse_ctx *ctx, const struct json_value *obj, struct oci_process *process)
{
	size_t mark;
	int rc;

	if (oci_get_strv(ctx, obj, "env", OCI_MAX_STRING_LEN, &process->env, &process->env_len) < 0)
		return -1;
	mark = oci_ctx_enter_key(ctx, "env");
	if (mark == (size_t)-1)
		return -1;
	rc = check_env(ctx, process->env, process->env_len);
	oci_ctx_leave(ctx, mark);
	return rc;
}

int oci_parse_process(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_process *process = dst;
	int64_t oom_score_adj = 0;

	if (oci_get_bool(ctx, obj, "terminal", false, NULL, &process->terminal) < 0 ||
	    get_console_size(ctx, obj, process) < 0 || get_user(ctx, obj, process) < 0 ||
	    get_args(ctx, obj, process) < 0 || get_env(ctx, obj, process) < 0)
		return -1;
	if (oci_get_string(ctx, obj, "cwd", true, OCI_PATH_MAX_LEN, &process->cwd) < 0 ||
	    oci_check_absolute(ctx, "cwd", process->cwd) < 0)
		return -1;
	if (oci_get_object(ctx, obj, "capabilities", false, sizeof(struct oci_capabilities),
			   parse_capabilities, (void **)&process->capabilities) < 0 ||
	    oci_get_object_array(ctx, obj, "rlimits", sizeof(struct oci_rlimit), parse_rlimit,
				 (void **)&process->rlimits, &process->rlimits_len) < 0 ||
	    check_unique_rlimits(ctx, process) < 0)
		return -1;
	if (oci_get_bool(ctx, obj, "noNewPrivileges", false, NULL,
			 &process->no_new_privileges) < 0 ||
	    oci_get_string(ctx, obj, "apparmorProfile", false, 4096,
			   &process->apparmor_profile) < 0 ||
	    oci_get_int_range(ctx, obj, "oomScoreAdj", false, -1000, 1000,
			      &process->has_oom_score_adj, &oom_score_adj) < 0 ||
	    oci_get_string(ctx, obj, "selinuxLabel", false, 4096, &process->selinux_label) < 0)
		return -1;
	process->oom_score_adj = (int)oom_score_adj;
	if (oci_get_object(ctx, obj, "scheduler", false, sizeof(struct oci_scheduler),
			   parse_scheduler, (void **)&process->scheduler) < 0 ||
	    oci_get_object(ctx, obj, "ioPriority", false, sizeof(struct oci_io_priority),
			   parse_io_priority, (void **)&process->io_priority) < 0 ||
	    oci_get_object(ctx, obj, "execCPUAffinity", false, sizeof(struct oci_exec_cpu_affinity),
			   parse_exec_cpu_affinity, (void **)&process->exec_cpu_affinity) < 0)
		return -1;
	return 0;
}

static void free_process(void *process)
{
	oci_process_free(process);
}

int oci_process_parse_string(const char *json, size_t len, struct oci_process **out,
			     char **errmsg)
{
	static const char *const keys[] = {"process", NULL};

	return oci_parse_document_at(json, len, "process", keys, sizeof(struct oci_process),
				     oci_parse_process, free_process, (void **)out, errmsg);
}
