/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux.seccomp with libseccomp: see seccomp.h. */
#include "seccomp.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Arguments a syscall has (SCMP_A0 .. SCMP_A5). */
#define SYSCALL_MAX_ARGUMENTS 6

/* linux.seccomp.flags: the seccomp(2) SECCOMP_FILTER_FLAG_* names and the
 * libseccomp attribute that sets each. */
static const struct {
	const char *oci_name;
	enum scmp_filter_attr attribute; /* 0: known but unsupported */
} filter_flags[] = {
	{ "SECCOMP_FILTER_FLAG_TSYNC", SCMP_FLTATR_CTL_TSYNC },
	{ "SECCOMP_FILTER_FLAG_LOG", SCMP_FLTATR_CTL_LOG },
	{ "SECCOMP_FILTER_FLAG_SPEC_ALLOW", SCMP_FLTATR_CTL_SSB },
	{ "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", 0 },
};

static const enum scmp_compare comparisons[OCI_SECCOMP_CMP__COUNT] = {
	[OCI_SECCOMP_CMP_NE] = SCMP_CMP_NE,
	[OCI_SECCOMP_CMP_LT] = SCMP_CMP_LT,
	[OCI_SECCOMP_CMP_LE] = SCMP_CMP_LE,
	[OCI_SECCOMP_CMP_EQ] = SCMP_CMP_EQ,
	[OCI_SECCOMP_CMP_GE] = SCMP_CMP_GE,
	[OCI_SECCOMP_CMP_GT] = SCMP_CMP_GT,
	[OCI_SECCOMP_CMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
};

static inline void release_ctxp(scmp_filter_ctx *ctx)
{
	kc_seccomp_release(*ctx);
}
#define cleanup_seccomp __attribute__((cleanup(release_ctxp)))

uint32_t kc_seccomp_arch_from_name(const char *name)
{
	static const char prefix[] = "SCMP_ARCH_";
	char arch[32];
	size_t i;

	/* libseccomp's own names are the OCI ones without the prefix, in
	 * lower case ("SCMP_ARCH_X86_64" -> "x86_64"), as runc and crun map them */
	if (!oci_seccomp_arch_known(name) || strlen(name) - strlen(prefix) >= sizeof(arch))
		return 0;
	for (i = 0; name[strlen(prefix) + i]; i++)
		arch[i] = (char)tolower((unsigned char)name[strlen(prefix) + i]);
	arch[i] = '\0';
	return seccomp_arch_resolve_name(arch);
}

/* The libseccomp action for an OCI action; `path` names the JSON field
 * for errors ("linux.seccomp.defaultAction", "linux.seccomp.syscalls[3]"). */
static int action_to_libseccomp(enum oci_seccomp_action action, bool has_errno_ret,
				uint32_t errno_ret, const char *path, uint32_t *out,
				kc_error_t *err)
{
	uint32_t ret = has_errno_ret ? errno_ret : EPERM;

	switch (action) {
	case OCI_SECCOMP_ACT_KILL:
	case OCI_SECCOMP_ACT_KILL_THREAD:
		*out = SCMP_ACT_KILL_THREAD;
		return 0;
	case OCI_SECCOMP_ACT_KILL_PROCESS:
		*out = SCMP_ACT_KILL_PROCESS;
		return 0;
	case OCI_SECCOMP_ACT_TRAP:
		*out = SCMP_ACT_TRAP;
		return 0;
	case OCI_SECCOMP_ACT_ERRNO:
		*out = SCMP_ACT_ERRNO(ret);
		return 0;
	case OCI_SECCOMP_ACT_TRACE:
		*out = SCMP_ACT_TRACE(ret);
		return 0;
	case OCI_SECCOMP_ACT_ALLOW:
		*out = SCMP_ACT_ALLOW;
		return 0;
	case OCI_SECCOMP_ACT_LOG:
		*out = SCMP_ACT_LOG;
		return 0;
	case OCI_SECCOMP_ACT_NOTIFY:
		*out = SCMP_ACT_NOTIFY;
		return 0;
	case OCI_SECCOMP_ACT__COUNT:
		break;
	}
	return kc_error_set(err, EINVAL, "%s: unknown seccomp action %d", path, (int)action);
}

static int add_architectures(scmp_filter_ctx ctx, const struct oci_seccomp *seccomp,
			     kc_error_t *err)
{
	size_t i;
	int rc;

	for (i = 0; i < seccomp->architectures_len; i++) {
		uint32_t token = kc_seccomp_arch_from_name(seccomp->architectures[i]);

		if (token == 0)
			return kc_error_set(err, EINVAL,
					    "linux.seccomp.architectures[%zu]: unknown architecture \"%s\"",
					    i, seccomp->architectures[i]);
		rc = seccomp_arch_add(ctx, token);
		if (rc < 0 && rc != -EEXIST)
			return kc_error_set(err, -rc, "linux.seccomp.architectures[%zu]: add \"%s\"",
					    i, seccomp->architectures[i]);
	}
	return 0;
}

static int set_filter_flags(scmp_filter_ctx ctx, const struct oci_seccomp *seccomp,
			    kc_error_t *err)
{
	size_t i, j;
	int rc;

	for (i = 0; i < seccomp->flags_len; i++) {
		const char *flag = seccomp->flags[i];

		for (j = 0; j < sizeof(filter_flags) / sizeof(filter_flags[0]); j++) {
			if (strcmp(filter_flags[j].oci_name, flag) == 0)
				break;
		}
		if (j == sizeof(filter_flags) / sizeof(filter_flags[0]))
			return kc_error_set(err, EINVAL, "linux.seccomp.flags[%zu]: unknown seccomp flag \"%s\"",
					    i, flag);
		if (filter_flags[j].attribute == 0)
			return kc_error_set(err, ENOTSUP,
					    "linux.seccomp.flags[%zu]: %s is not supported by this libseccomp",
					    i, flag);
		rc = seccomp_attr_set(ctx, filter_flags[j].attribute, 1);
		if (rc < 0)
			return kc_error_set(err, -rc, "linux.seccomp.flags[%zu]: set %s", i, flag);
	}
	return 0;
}

/* Converts syscalls[index].args; *separate_rules is true when two
 * conditions test the same argument (libseccomp cannot AND those, runc
 * then adds one rule per condition). */
static int build_conditions(const struct oci_seccomp_syscall *syscall, size_t index,
			    struct scmp_arg_cmp *conditions, bool *separate_rules,
			    kc_error_t *err)
{
	unsigned int uses_of_argument[SYSCALL_MAX_ARGUMENTS] = { 0 };
	size_t i;

	*separate_rules = false;
	for (i = 0; i < syscall->args_len; i++) {
		const struct oci_seccomp_arg *arg = &syscall->args[i];

		if (arg->index >= SYSCALL_MAX_ARGUMENTS)
			return kc_error_set(err, EINVAL,
					    "linux.seccomp.syscalls[%zu].args[%zu].index: %u is not below %d",
					    index, i, arg->index, SYSCALL_MAX_ARGUMENTS);
		if ((unsigned int)arg->op >= OCI_SECCOMP_CMP__COUNT)
			return kc_error_set(err, EINVAL, "linux.seccomp.syscalls[%zu].args[%zu].op: unknown",
					    index, i);
		if (++uses_of_argument[arg->index] > 1)
			*separate_rules = true;
		conditions[i] = (struct scmp_arg_cmp){
			.arg = arg->index,
			.op = comparisons[arg->op],
			.datum_a = arg->value,
			.datum_b = arg->has_value_two ? arg->value_two : 0,
		};
	}
	return 0;
}

static int add_syscall_rules(scmp_filter_ctx ctx, const struct oci_seccomp *seccomp,
			     uint32_t default_action, kc_error_t *err)
{
	struct scmp_arg_cmp conditions[64];
	size_t i, j, k;
	int rc;

	for (i = 0; i < seccomp->syscalls_len; i++) {
		const struct oci_seccomp_syscall *syscall = &seccomp->syscalls[i];
		char path[64];
		uint32_t action;
		bool separate_rules;

		snprintf(path, sizeof(path), "linux.seccomp.syscalls[%zu].action", i);
		if (action_to_libseccomp(syscall->action, syscall->has_errno_ret, syscall->errno_ret,
					 path, &action, err) < 0)
			return -1;
		/* libseccomp refuses a rule that repeats the default action. */
		if (action == default_action)
			continue;
		if (syscall->args_len > sizeof(conditions) / sizeof(conditions[0]))
			return kc_error_set(err, E2BIG, "linux.seccomp.syscalls[%zu].args: more than %zu",
					    i, sizeof(conditions) / sizeof(conditions[0]));
		if (build_conditions(syscall, i, conditions, &separate_rules, err) < 0)
			return -1;

		for (j = 0; j < syscall->names_len; j++) {
			int number = seccomp_syscall_resolve_name(syscall->names[j]);

			/* Like runc: a profile may name syscalls this
			 * libseccomp (or architecture) does not know. */
			if (number == __NR_SCMP_ERROR)
				continue;
			/* the process hands its listener over with sendmsg(2),
			 * before anyone can answer a notification */
			if (action == SCMP_ACT_NOTIFY && strcmp(syscall->names[j], "sendmsg") == 0)
				return kc_error_set(err, EINVAL, "linux.seccomp.syscalls[%zu].names[%zu]: "
						    "SCMP_ACT_NOTIFY cannot be used for sendmsg (the "
						    "runtime hands the listener over with it)", i, j);
			if (!separate_rules) {
				rc = seccomp_rule_add_array(ctx, action, number, syscall->args_len,
							    conditions);
			} else {
				for (k = 0, rc = 0; k < syscall->args_len && rc >= 0; k++)
					rc = seccomp_rule_add_array(ctx, action, number, 1,
								    &conditions[k]);
			}
			if (rc < 0)
				return kc_error_set(err, -rc, "linux.seccomp.syscalls[%zu]: add rule for \"%s\"",
						    i, syscall->names[j]);
		}
	}
	return 0;
}

int kc_seccomp_build(const struct oci_seccomp *seccomp, scmp_filter_ctx *out, kc_error_t *err)
{
	cleanup_seccomp scmp_filter_ctx ctx = NULL;
	uint32_t default_action;
	int rc;

	if (action_to_libseccomp(seccomp->default_action, seccomp->has_default_errno_ret,
				 seccomp->default_errno_ret, "linux.seccomp.defaultAction",
				 &default_action, err) < 0)
		return -1;
	/* the kernel has no default notify: a listener answers chosen calls */
	if (seccomp->default_action == OCI_SECCOMP_ACT_NOTIFY)
		return kc_error_set(err, EINVAL, "linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be "
				    "the default action");
	if (kc_seccomp_notifies(seccomp) && seccomp->listener_path == NULL)
		return kc_error_set(err, EINVAL, "linux.seccomp.listenerPath: required by SCMP_ACT_NOTIFY "
				    "(where the runtime sends the listener fd)");
	ctx = seccomp_init(default_action);
	if (ctx == NULL)
		return kc_error_set(err, ENOMEM, "seccomp_init");
	/* no_new_privs is process.noNewPrivileges' business, not the filter's. */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc == 0)
		rc = seccomp_attr_set(ctx, SCMP_FLTATR_API_SYSRAWRC, 1);
	if (rc < 0)
		return kc_error_set(err, -rc, "seccomp: set filter attributes");
	if (add_architectures(ctx, seccomp, err) < 0 || set_filter_flags(ctx, seccomp, err) < 0 ||
	    add_syscall_rules(ctx, seccomp, default_action, err) < 0)
		return -1;
	*out = ctx;
	ctx = NULL;
	return 0;
}

bool kc_seccomp_notifies(const struct oci_seccomp *seccomp)
{
	size_t i;

	for (i = 0; seccomp && i < seccomp->syscalls_len; i++)
		if (seccomp->syscalls[i].action == OCI_SECCOMP_ACT_NOTIFY &&
		    seccomp->syscalls[i].names_len > 0)
			return true;
	return false;
}

int kc_seccomp_load(scmp_filter_ctx ctx, kc_error_t *err)
{
	int rc = seccomp_load(ctx);

	if (rc < 0)
		return kc_error_set(err, -rc, "load the seccomp filter");
	return 0;
}

int kc_seccomp_listener_fd(scmp_filter_ctx ctx, kc_error_t *err)
{
	int fd = seccomp_notify_fd(ctx);

	if (fd < 0)
		return kc_error_set(err, -fd, "seccomp: the notify listener of the filter");
	return fd;
}

void kc_seccomp_release(scmp_filter_ctx ctx)
{
	if (ctx)
		seccomp_release(ctx);
}
