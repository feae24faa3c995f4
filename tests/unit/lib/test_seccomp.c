/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of seccomp.c: spec errors with their JSON paths, and filters
 * loaded in a forked child (seccomp is per process; the test process
 * itself is never filtered). */
#include "tap.h"
#include "src/lib/seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static struct oci_seccomp_syscall make_rule(const char *name, enum oci_seccomp_action action,
					    int errno_ret)
{
	struct oci_seccomp_syscall rule = { 0 };

	rule.names = calloc(1, sizeof(char *));
	rule.names[0] = (char *)name;
	rule.names_len = 1;
	rule.action = action;
	rule.has_errno_ret = errno_ret >= 0;
	rule.errno_ret = errno_ret >= 0 ? errno_ret : 0;
	return rule;
}

/* Loads ctx in a child and runs check() there; returns check()'s exit
 * code, 100 + errno if loading failed. */
static int run_filtered(scmp_filter_ctx ctx, int (*check)(void))
{
	pid_t child = fork();
	int status;

	if (child == 0) {
		kc_error_t err = NULL;

		if (kc_seccomp_load(ctx, &err) < 0)
			_exit(100 + (err ? err->errnum : 0));
		_exit(check());
	}
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
}

static int check_chdir_errno_42(void)
{
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 0)
		return 3; /* the filter must not set no_new_privs */
	if (chdir("/") == 0)
		return 1;
	return errno == 42 ? 0 : 2;
}

/* Under default action ERRNO(38): chdir (a rule repeating the default)
 * and getppid (no rule) fail with 38, getpid (allowed) works. */
static int check_default_errno_38(void)
{
	if (syscall(SYS_chdir, "/") != -1 || errno != 38)
		return 1;
	if (syscall(SYS_getppid) != -1 || errno != 38)
		return 2;
	if (syscall(SYS_getpid) <= 0)
		return 3;
	return 0;
}

static int check_umask_conditions(void)
{
	/* 0777 and 0700 are denied (two conditions on arg 0: OR), 022 not. */
	if (syscall(SYS_umask, 0777) != -1 || errno != 13)
		return 1;
	if (syscall(SYS_umask, 0700) != -1 || errno != 13)
		return 2;
	if (syscall(SYS_umask, 022) == -1)
		return 3;
	return 0;
}

static int check_masked_eq(void)
{
	/* personality(arg & 0xff00 == 0x0100) denied. */
	if (syscall(SYS_personality, 0x0100) != -1 || errno != 9)
		return 1;
	if (syscall(SYS_personality, 0xffffffff) == -1)
		return 2;
	return 0;
}

static int check_and_conditions(void)
{
	/* fchmodat(dirfd == -100 AND mode == 0700) denied, one rule. */
	if (syscall(SYS_fchmodat, (long)AT_FDCWD, "/nonexistent-kcrun", 0700) != -1 || errno != 11)
		return 1;
	if (syscall(SYS_fchmodat, (long)AT_FDCWD, "/nonexistent-kcrun", 0755) != -1 || errno != ENOENT)
		return 2;
	return 0;
}

void test_seccomp(void)
{
	kc_error_t err = NULL;
	scmp_filter_ctx ctx = NULL;
	int rc = -1;
	struct oci_seccomp profile = { .default_action = OCI_SECCOMP_ACT_ALLOW };
	struct oci_seccomp_syscall rules[4];
	struct oci_seccomp_arg args[2];
	char *architectures[] = { "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" };
	char *flags[] = { "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_BOGUS" };

	/* errnoRet from a plain rule, unknown names skipped, arches. */
	rules[0] = make_rule("chdir", OCI_SECCOMP_ACT_ERRNO, 42);
	rules[1] = make_rule("no_such_syscall_kcrun", OCI_SECCOMP_ACT_ERRNO, 1);
	profile.syscalls = rules;
	profile.syscalls_len = 2;
	profile.architectures = architectures;
	profile.architectures_len = 3;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err,
		    "seccomp: build (3 architectures, an unknown syscall name skipped)");
	TAP_OK(ctx && run_filtered(ctx, check_chdir_errno_42) == 0,
	       "seccomp: denied syscall returns errnoRet 42 in a filtered child, no_new_privs untouched");
	kc_seccomp_release(ctx);
	ctx = NULL;

	/* Two conditions on the same argument: separate rules (OR). */
	rules[0] = make_rule("umask", OCI_SECCOMP_ACT_ERRNO, 13);
	args[0] = (struct oci_seccomp_arg){ .index = 0, .value = 0777, .op = OCI_SECCOMP_CMP_EQ };
	args[1] = (struct oci_seccomp_arg){ .index = 0, .value = 0700, .op = OCI_SECCOMP_CMP_EQ };
	rules[0].args = args;
	rules[0].args_len = 2;
	profile.syscalls_len = 1;
	profile.architectures_len = 0;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err, "seccomp: build with args");
	TAP_OK(ctx && run_filtered(ctx, check_umask_conditions) == 0,
	       "seccomp: two conditions on one argument match either value");
	kc_seccomp_release(ctx);
	ctx = NULL;

	/* Conditions on different arguments are ANDed. */
	rules[0] = make_rule("fchmodat", OCI_SECCOMP_ACT_ERRNO, 11);
	args[0] = (struct oci_seccomp_arg){ .index = 0, .value = (uint64_t)(int64_t)AT_FDCWD,
					    .op = OCI_SECCOMP_CMP_EQ };
	args[1] = (struct oci_seccomp_arg){ .index = 2, .value = 0700, .op = OCI_SECCOMP_CMP_EQ };
	rules[0].args = args;
	rules[0].args_len = 2;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err, "seccomp: build with ANDed args");
	TAP_OK(ctx && (rc = run_filtered(ctx, check_and_conditions)) == 0,
	       "seccomp: conditions on two arguments must both match (%d)", rc);
	kc_seccomp_release(ctx);
	ctx = NULL;

	/* SCMP_CMP_MASKED_EQ: value is the mask, valueTwo the result. */
	rules[0] = make_rule("personality", OCI_SECCOMP_ACT_ERRNO, 9);
	args[0] = (struct oci_seccomp_arg){ .index = 0, .value = 0xff00, .has_value_two = true,
					    .value_two = 0x0100, .op = OCI_SECCOMP_CMP_MASKED_EQ };
	rules[0].args = args;
	rules[0].args_len = 1;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err, "seccomp: build with MASKED_EQ");
	TAP_OK(ctx && run_filtered(ctx, check_masked_eq) == 0, "seccomp: MASKED_EQ uses value as mask");
	kc_seccomp_release(ctx);
	ctx = NULL;

	/* Default action with defaultErrnoRet; a rule equal to it is skipped. */
	profile.default_action = OCI_SECCOMP_ACT_ERRNO;
	profile.has_default_errno_ret = true;
	profile.default_errno_ret = 38;
	rules[0] = make_rule("chdir", OCI_SECCOMP_ACT_ERRNO, 38);
	rules[1] = make_rule("getpid", OCI_SECCOMP_ACT_ALLOW, -1);
	/* the child must still be able to exit */
	rules[2] = make_rule("exit_group", OCI_SECCOMP_ACT_ALLOW, -1);
	rules[3] = make_rule("exit", OCI_SECCOMP_ACT_ALLOW, -1);
	profile.syscalls_len = 4;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err,
		    "seccomp: defaultErrnoRet and a rule repeating the default action");
	TAP_OK(ctx && run_filtered(ctx, check_default_errno_38) == 0,
	       "seccomp: defaultErrnoRet applies to unlisted syscalls and the repeated rule, getpid allowed");
	kc_seccomp_release(ctx);
	ctx = NULL;
	profile.default_action = OCI_SECCOMP_ACT_ALLOW;
	profile.has_default_errno_ret = false;

	/* Errors name the JSON path. */
	profile.syscalls_len = 1;
	rules[0] = make_rule("chdir", OCI_SECCOMP_ACT_ERRNO, 1);
	profile.flags = flags;
	profile.flags_len = 2;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.flags[1]: unknown seccomp flag \"SECCOMP_FILTER_FLAG_BOGUS\"",
		       "seccomp: unknown flag names linux.seccomp.flags[1]");
	profile.flags_len = 1;
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err, "seccomp: SECCOMP_FILTER_FLAG_LOG accepted");
	kc_seccomp_release(ctx);
	ctx = NULL;
	profile.flags_len = 0;

	architectures[1] = "SCMP_ARCH_Z80";
	profile.architectures_len = 2;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.architectures[1]: unknown architecture \"SCMP_ARCH_Z80\"",
		       "seccomp: unknown architecture names its index");
	profile.architectures_len = 0;

	args[0] = (struct oci_seccomp_arg){ .index = 6, .value = 1, .op = OCI_SECCOMP_CMP_EQ };
	rules[0].args = args;
	rules[0].args_len = 1;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.syscalls[0].args[0].index: 6 is not below 6",
		       "seccomp: argument index out of range");
	rules[0].args_len = 0;

	rules[0].action = OCI_SECCOMP_ACT_NOTIFY;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.listenerPath: required by SCMP_ACT_NOTIFY",
		       "seccomp: SCMP_ACT_NOTIFY without a listenerPath refused, naming it");
	profile.listener_path = (char *)"/run/agent.sock";
	TAP_CALL_OK(kc_seccomp_build(&profile, &ctx, &err), err,
		    "seccomp: SCMP_ACT_NOTIFY with a listenerPath builds");
	TAP_OK(kc_seccomp_notifies(&profile), "seccomp: a profile with a notify rule notifies");
	kc_seccomp_release(ctx);
	ctx = NULL;
	profile.default_action = OCI_SECCOMP_ACT_NOTIFY;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.defaultAction: SCMP_ACT_NOTIFY cannot be the default action",
		       "seccomp: SCMP_ACT_NOTIFY as the default action refused");
	profile.default_action = OCI_SECCOMP_ACT_ALLOW;
	rules[0] = make_rule("sendmsg", OCI_SECCOMP_ACT_NOTIFY, 0);
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.syscalls[0].names[0]: SCMP_ACT_NOTIFY cannot be used for sendmsg",
		       "seccomp: SCMP_ACT_NOTIFY on sendmsg (the listener's hand-over) refused");
	profile.listener_path = NULL;
	rules[0].action = (enum oci_seccomp_action)77;
	TAP_CALL_FAILS(kc_seccomp_build(&profile, &ctx, &err), err,
		       "linux.seccomp.syscalls[0].action: unknown seccomp action",
		       "seccomp: unknown action value refused with its path");
	TAP_OK(ctx == NULL, "seccomp: no context returned on failure");

	TAP_OK(kc_seccomp_arch_from_name("SCMP_ARCH_AARCH64") == SCMP_ARCH_AARCH64 &&
	       kc_seccomp_arch_from_name("x86_64") == 0, "seccomp: architecture names map to tokens");
}
