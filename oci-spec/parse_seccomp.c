/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json `linux.seccomp` -> struct oci_seccomp. */
#include "spec.h"
#include "parse_ctx.h"

#include <stdlib.h>
#include <string.h>

static const char *const seccomp_flags[] = {
	"SECCOMP_FILTER_FLAG_TSYNC",
	"SECCOMP_FILTER_FLAG_LOG",
	"SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
};

static bool known_flag(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(seccomp_flags) / sizeof(seccomp_flags[0]); i++)
		if (strcmp(name, seccomp_flags[i]) == 0)
			return true;
	return false;
}

/* Checks every string of an already parsed array against a set. */
static int check_strv(struct parse_ctx *ctx, const char *key, char **strv, size_t len,
		      bool (*known)(const char *name), const char *what)
{
	size_t i, mark;
	int rc;

	for (i = 0; i < len; i++) {
		if (known(strv[i]))
			continue;
		mark = oci_ctx_enter_key(ctx, key);
		if (mark == (size_t)-1 || oci_ctx_enter_index(ctx, i) == (size_t)-1)
			return -1;
		rc = oci_ctx_fail(ctx, NULL, "unknown %s \"%s\"", what, strv[i]);
		oci_ctx_leave(ctx, mark);
		return rc;
	}
	return 0;
}

static int get_action(struct parse_ctx *ctx, const struct json_value *obj, const char *key,
		      enum oci_seccomp_action *out)
{
	char *name = NULL;
	int rc;

	if (oci_get_string(ctx, obj, key, true, 64, &name) < 0)
		return -1;
	rc = oci_seccomp_action_from_name(name, out);
	if (rc < 0)
		oci_ctx_fail(ctx, key, "unknown seccomp action \"%s\"", name);
	free(name);
	return rc;
}

static int parse_arg(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_seccomp_arg *arg = dst;
	char *op = NULL;
	int rc;

	if (oci_get_u32(ctx, obj, "index", true, NULL, &arg->index) < 0)
		return -1;
	if (arg->index > 5)
		return oci_ctx_fail(ctx, "index", "%u is out of range (0..5)", arg->index);
	if (oci_get_u64(ctx, obj, "value", true, NULL, &arg->value) < 0 ||
	    oci_get_u64(ctx, obj, "valueTwo", false, &arg->has_value_two, &arg->value_two) < 0 ||
	    oci_get_string(ctx, obj, "op", true, 64, &op) < 0) {
		free(op);
		return -1;
	}
	rc = oci_seccomp_op_from_name(op, &arg->op);
	if (rc < 0)
		oci_ctx_fail(ctx, "op", "unknown seccomp operator \"%s\"", op);
	free(op);
	return rc;
}

static int parse_syscall(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_seccomp_syscall *sc = dst;

	if (oci_get_strv(ctx, obj, "names", 256, &sc->names, &sc->names_len) < 0)
		return -1;
	if (sc->names_len == 0)
		return oci_ctx_fail(ctx, "names", "must be a non-empty array");
	if (get_action(ctx, obj, "action", &sc->action) < 0 ||
	    oci_get_u32(ctx, obj, "errnoRet", false, &sc->has_errno_ret, &sc->errno_ret) < 0 ||
	    oci_get_object_array(ctx, obj, "args", sizeof(struct oci_seccomp_arg), parse_arg,
				 (void **)&sc->args, &sc->args_len) < 0)
		return -1;
	return 0;
}

int oci_parse_seccomp(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_seccomp *seccomp = dst;

	if (get_action(ctx, obj, "defaultAction", &seccomp->default_action) < 0 ||
	    oci_get_u32(ctx, obj, "defaultErrnoRet", false, &seccomp->has_default_errno_ret,
			&seccomp->default_errno_ret) < 0 ||
	    oci_get_strv(ctx, obj, "architectures", 64, &seccomp->architectures,
			 &seccomp->architectures_len) < 0 ||
	    check_strv(ctx, "architectures", seccomp->architectures, seccomp->architectures_len,
		       oci_seccomp_arch_known, "seccomp architecture") < 0 ||
	    oci_get_strv(ctx, obj, "flags", 64, &seccomp->flags, &seccomp->flags_len) < 0 ||
	    check_strv(ctx, "flags", seccomp->flags, seccomp->flags_len, known_flag,
		       "seccomp flag") < 0 ||
	    oci_get_string(ctx, obj, "listenerPath", false, OCI_PATH_MAX_LEN,
			   &seccomp->listener_path) < 0 ||
	    oci_get_string(ctx, obj, "listenerMetadata", false, 4096,
			   &seccomp->listener_metadata) < 0 ||
	    oci_get_object_array(ctx, obj, "syscalls", sizeof(struct oci_seccomp_syscall),
				 parse_syscall, (void **)&seccomp->syscalls,
				 &seccomp->syscalls_len) < 0)
		return -1;
	if (seccomp->listener_path &&
	    oci_check_absolute(ctx, "listenerPath", seccomp->listener_path) < 0)
		return -1;
	return 0;
}
