/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the CLI's option parser (src/cli/options.c) against what
 * runc 1.1 (urfave/cli 1.22 over Go's flag package) does with the same
 * command line.  main.c is not linked: this file brings the command table. */
#include "tap.h"
#include "src/cli/cli.h"

#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

static int no_command(struct kc_global *g, int argc, char **argv)
{
	(void)g;
	(void)argc;
	(void)argv;
	return 0;
}

const struct kc_command kc_commands[] = {
	{"delete", "delete a container", "[command options] <container-id>", NULL, 1, 1,
	 no_command, false},
	{"exec", "execute new process inside the container",
	 "[command options] <container-id> <command> [command options]", NULL, 1, -1, no_command,
	 true},
	{"kill", "kill a container", "[command options] <container-id> [signal]", NULL, 1, 2,
	 no_command, false},
	{"keys", "keys of a container", "<command> ...", NULL, 1, -1, kc_cmd_keys, true},
	{"list", "list containers", "[command options]", NULL, 0, 0, no_command, false},
	{NULL, NULL, NULL, NULL, 0, 0, NULL, false},
};

static struct {
	bool force, all, tty, debug;
	const char *user, *cwd, *root;
	int fds;
	struct kc_strlist env;
} o;

static int argc_;
static char *argv_[32];
static const char *out_, *err_;

/* Runs kc_cli_parse_args(cmd, ...) on the NULL-terminated words, with the
 * options of that command; *first gets the first positional argument. */
static int parse(const char *cmd, int *first, ...)
{
	struct kc_opt delete_opts[] = {
		{"force", 'f', KC_OPT_FLAG, &o.force, "force"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_opt kill_opts[] = {
		{"all", 'a', KC_OPT_FLAG, &o.all, "all"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_opt exec_opts[] = {
		{"cwd", 0, KC_OPT_STRING, &o.cwd, "cwd"},
		{"env", 'e', KC_OPT_LIST, &o.env, "env"},
		{"tty", 't', KC_OPT_FLAG, &o.tty, "tty"},
		{"user", 'u', KC_OPT_STRING, &o.user, "user"},
		{"preserve-fds", 0, KC_OPT_INT, &o.fds, "fds"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_opt global_opts[] = {
		{"debug", 0, KC_OPT_FLAG, &o.debug, "debug"},
		{"root", 0, KC_OPT_STRING, &o.root, "root"},
		{NULL, 0, 0, NULL, NULL},
	};
	struct kc_opt no_opts[] = {{NULL, 0, 0, NULL, NULL}};
	struct kc_opt *opts = no_opts;
	const char *word;
	va_list ap;
	int rc;

	free(o.env.v);
	memset(&o, 0, sizeof(o));
	argc_ = 0;
	argv_[argc_++] = (char *)(cmd ? cmd : "kcrun");
	va_start(ap, first);
	while ((word = va_arg(ap, const char *)) != NULL && argc_ < 31)
		argv_[argc_++] = (char *)word;
	va_end(ap);
	argv_[argc_] = NULL;
	if (cmd == NULL)
		opts = global_opts;
	else if (strcmp(cmd, "delete") == 0)
		opts = delete_opts;
	else if (strcmp(cmd, "kill") == 0)
		opts = kill_opts;
	else if (strcmp(cmd, "exec") == 0)
		opts = exec_opts;
	*first = -1;
	capture_begin();
	if (cmd == NULL)
		rc = kc_cli_parse_opts(NULL, opts, argc_, argv_, first);
	else
		rc = kc_cli_parse_args(cmd, opts, argc_, argv_, first);
	capture_end(&out_, &err_);
	return rc;
}

/* The positional arguments, space-separated. */
static const char *args_from(int first)
{
	static char buf[512];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = first; i >= 0 && i < argc_; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i > first ? " " : "", argv_[i]);
	return buf;
}

/* rc -1 with runc's two messages: "Incorrect Usage: MSG" and the help on
 * stdout, "kcrun: MSG" on stderr. */
static bool usage_error(int rc, const char *msg)
{
	char want_out[256], want_err[256];
	bool ok;

	snprintf(want_out, sizeof(want_out), "Incorrect Usage: %s\n\nNAME:", msg);
	snprintf(want_err, sizeof(want_err), "kcrun: %s\n", msg);
	ok = rc == -1 && strncmp(out_, want_out, strlen(want_out)) == 0 && strstr(err_, want_err);
	if (!ok)
		printf("# rc %d, stdout: %.80s\n# stderr: %s\n", rc, out_, err_);
	return ok;
}

static void test_value_forms(void)
{
	int first;

	TAP_OK(parse("exec", &first, "--user=1:2", "c1", "ls", NULL) == 0 &&
	       strcmp(o.user, "1:2") == 0 && strcmp(args_from(first), "c1 ls") == 0,
	       "cli: --user=1:2");
	TAP_OK(parse("exec", &first, "--user", "1:2", "c1", "ls", NULL) == 0 &&
	       strcmp(o.user, "1:2") == 0 && strcmp(args_from(first), "c1 ls") == 0,
	       "cli: --user 1:2");
	TAP_OK(parse("exec", &first, "-user", "7", "c1", "ls", NULL) == 0 && strcmp(o.user, "7") == 0,
	       "cli: -user 7 (single-dash long name)");
	TAP_OK(parse("exec", &first, "-user=7", "c1", "ls", NULL) == 0 && strcmp(o.user, "7") == 0,
	       "cli: -user=7");
	TAP_OK(parse("exec", &first, "-u", "8", "c1", "ls", NULL) == 0 && strcmp(o.user, "8") == 0,
	       "cli: -u 8");
	TAP_OK(parse("exec", &first, "--u=9", "c1", "ls", NULL) == 0 && strcmp(o.user, "9") == 0,
	       "cli: --u=9 (double-dash short name)");
	TAP_OK(parse("exec", &first, "--user", "-1", "c1", "ls", NULL) == 0 && strcmp(o.user, "-1") == 0 &&
	       strcmp(args_from(first), "c1 ls") == 0,
	       "cli: a value may start with '-'");
	TAP_OK(parse("exec", &first, "--cwd=", "c1", "ls", NULL) == 0 && o.cwd && *o.cwd == '\0',
	       "cli: --cwd= gives an empty value");
	TAP_OK(parse("exec", &first, "--cwd=a=b", "c1", "ls", NULL) == 0 && strcmp(o.cwd, "a=b") == 0,
	       "cli: only the first '=' splits");
	TAP_OK(parse("exec", &first, "-u", "1", "--user", "2", "c1", "ls", NULL) == 0 &&
	       strcmp(o.user, "2") == 0,
	       "cli: a repeated option: the last one wins");
	TAP_OK(parse("exec", &first, "-e", "A=1", "--env", "B=2", "--env=C=3", "c1", "ls", NULL) == 0 &&
	       o.env.n == 3 && strcmp(o.env.v[0], "A=1") == 0 && strcmp(o.env.v[2], "C=3") == 0 &&
	       o.env.v[3] == NULL,
	       "cli: --env collects every value in order");
}

static void test_flags(void)
{
	static const char *truths[] = {"true", "1", "t", "T", "TRUE", "True"};
	static const char *falsehoods[] = {"false", "0", "f", "F", "FALSE", "False"};
	char arg[64];
	size_t i;
	int first, rc;

	TAP_OK(parse("delete", &first, "--force", "c1", NULL) == 0 && o.force &&
	       strcmp(args_from(first), "c1") == 0, "cli: --force c1");
	TAP_OK(parse("delete", &first, "-f", "c1", NULL) == 0 && o.force, "cli: -f c1");
	TAP_OK(parse("delete", &first, "-force", "c1", NULL) == 0 && o.force, "cli: -force c1");
	for (i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
		snprintf(arg, sizeof(arg), "--force=%s", truths[i]);
		TAP_OK(parse("delete", &first, arg, "c1", NULL) == 0 && o.force, "cli: %s is true (strconv.ParseBool)", arg);
	}
	for (i = 0; i < sizeof(falsehoods) / sizeof(falsehoods[0]); i++) {
		snprintf(arg, sizeof(arg), "-f=%s", falsehoods[i]);
		TAP_OK(parse("delete", &first, arg, "c1", NULL) == 0 && !o.force, "cli: %s is false", arg);
	}
	rc = parse("delete", &first, "--force=yes", "c1", NULL);
	TAP_OK(usage_error(rc, "invalid boolean value \"yes\" for -force: parse error"),
	       "cli: --force=yes: runc's invalid boolean value message");
	rc = parse("delete", &first, "--force=", "c1", NULL);
	TAP_OK(usage_error(rc, "invalid boolean value \"\" for -force: parse error"),
	       "cli: --force= is no boolean");
	/* A boolean flag never takes the next word as its value. */
	TAP_OK(parse("kill", &first, "--all", "false", NULL) == 0 && o.all &&
	       strcmp(args_from(first), "false") == 0,
	       "cli: --all false: all is set, \"false\" is an argument");
}

static void test_int(void)
{
	int first, rc;

	TAP_OK(parse("exec", &first, "--preserve-fds=3", "c1", "ls", NULL) == 0 && o.fds == 3,
	       "cli: --preserve-fds=3");
	TAP_OK(parse("exec", &first, "--preserve-fds", "0x10", "c1", "ls", NULL) == 0 && o.fds == 16,
	       "cli: --preserve-fds 0x10 is 16 (Go's base 0)");
	TAP_OK(parse("exec", &first, "--preserve-fds", "010", "c1", "ls", NULL) == 0 && o.fds == 8,
	       "cli: --preserve-fds 010 is 8 (Go's base 0)");
	TAP_OK(parse("exec", &first, "--preserve-fds", "-2", "c1", "ls", NULL) == 0 && o.fds == -2,
	       "cli: a negative int parses (the command judges it)");
	rc = parse("exec", &first, "--preserve-fds", "abc", "c1", "ls", NULL);
	TAP_OK(usage_error(rc, "invalid value \"abc\" for flag -preserve-fds: parse error"),
	       "cli: --preserve-fds abc: runc's invalid value message");
	rc = parse("exec", &first, "--preserve-fds=", "c1", "ls", NULL);
	TAP_OK(usage_error(rc, "invalid value \"\" for flag -preserve-fds: parse error"),
	       "cli: --preserve-fds= is no number");
	rc = parse("exec", &first, "--preserve-fds", " 3", "c1", "ls", NULL);
	TAP_OK(usage_error(rc, "invalid value \" 3\" for flag -preserve-fds: parse error"),
	       "cli: a number with a leading space is refused, as Go refuses it");
	rc = parse("exec", &first, "--preserve-fds", "99999999999", "c1", "ls", NULL);
	TAP_OK(usage_error(rc, "invalid value \"99999999999\" for flag -preserve-fds: value out of range"),
	       "cli: an int that does not fit is out of range, not truncated");
}

/* KC_OPT_INT64 (update's --pids-limit): Go's 64-bit int, a usage error
 * for anything else. */
static void test_int64(void)
{
	int64_t limit = 0;
	struct kc_opt opts[] = {
		{"pids-limit", 0, KC_OPT_INT64, &limit, "pids"},
		{NULL, 0, 0, NULL, NULL},
	};
	char *ok_argv[] = {"kcrun", "--pids-limit", "8589934592", "c1", NULL};
	char *bad_argv[] = {"kcrun", "--pids-limit", "x", "c1", NULL};
	char *huge_argv[] = {"kcrun", "--pids-limit=99999999999999999999", "c1", NULL};
	int first, rc;

	capture_begin();
	rc = kc_cli_parse_opts(NULL, opts, 4, ok_argv, &first);
	capture_end(&out_, &err_);
	TAP_OK(rc == 0 && limit == 8589934592LL && first == 3,
	       "cli: an int64 flag takes a value beyond 32 bits");
	capture_begin();
	rc = kc_cli_parse_opts(NULL, opts, 4, bad_argv, &first);
	capture_end(&out_, &err_);
	TAP_OK(rc == -1 && strstr(err_, "invalid value \"x\" for flag -pids-limit: parse error"),
	       "cli: an int64 flag that is no number: runc's invalid value message");
	capture_begin();
	rc = kc_cli_parse_opts(NULL, opts, 3, huge_argv, &first);
	capture_end(&out_, &err_);
	TAP_OK(rc == -1 && strstr(err_, "value out of range"),
	       "cli: an int64 flag beyond 64 bits is out of range");
}

static void test_errors(void)
{
	int first, rc;

	rc = parse("delete", &first, "--nope", "c1", NULL);
	TAP_OK(usage_error(rc, "flag provided but not defined: -nope"), "cli: unknown flag --nope");
	rc = parse("delete", &first, "-x=1", "c1", NULL);
	TAP_OK(usage_error(rc, "flag provided but not defined: -x"), "cli: unknown flag -x=1 names -x");
	rc = parse("exec", &first, "c1", "ls", "--user", NULL);
	TAP_OK(rc == 0 && o.user == NULL && strcmp(args_from(first), "c1 ls --user") == 0,
	       "cli: exec: options after the container id belong to the command");
	rc = parse("exec", &first, "--user", NULL);
	TAP_OK(usage_error(rc, "flag needs an argument: -user"), "cli: --user without a value");
	rc = parse("exec", &first, "-u", NULL);
	TAP_OK(usage_error(rc, "flag needs an argument: -u"), "cli: -u without a value");
	rc = parse("delete", &first, "---force", "c1", NULL);
	TAP_OK(usage_error(rc, "bad flag syntax: ---force"), "cli: ---force is bad flag syntax");
	rc = parse("delete", &first, "-=x", "c1", NULL);
	TAP_OK(usage_error(rc, "bad flag syntax: -=x"), "cli: -=x is bad flag syntax");
	rc = parse("delete", &first, NULL);
	TAP_OK(rc == -1 && strncmp(out_, "Incorrect Usage.\n\nNAME:", 23) == 0 &&
	       strstr(err_, "kcrun: \"delete\" requires exactly 1 argument(s)"),
	       "cli: delete without an id: requires exactly 1 argument(s)");
	rc = parse("delete", &first, "a", "b", NULL);
	TAP_OK(rc == -1 && strstr(err_, "\"delete\" requires exactly 1 argument(s)"),
	       "cli: delete with two ids");
	rc = parse("kill", &first, "a", "KILL", "extra", NULL);
	TAP_OK(rc == -1 && strstr(err_, "\"kill\" requires a maximum of 2 argument(s)"),
	       "cli: kill with three arguments: a maximum of 2");
	rc = parse("exec", &first, NULL);
	TAP_OK(rc == -1 && strstr(err_, "\"exec\" requires a minimum of 1 argument(s)"),
	       "cli: exec without arguments: a minimum of 1");
	rc = parse("list", &first, "extra", NULL);
	TAP_OK(rc == -1 && strstr(err_, "\"list\" requires exactly 0 argument(s)"),
	       "cli: list with an argument");
}

/* urfave/cli moves a command's own flags that follow its arguments to the
 * front (`runc delete c1 --force` works), except for commands that pass
 * their trailing arguments on (exec, ps).  The global flags are not
 * reordered. */
static void test_order(void)
{
	int first, rc;

	TAP_OK(parse("delete", &first, "c1", "--force", NULL) == 0 && o.force &&
	       strcmp(args_from(first), "c1") == 0,
	       "cli: delete c1 --force (flags after the argument, as urfave/cli reorders)");
	TAP_OK(parse("kill", &first, "c1", "KILL", "-a", NULL) == 0 && o.all &&
	       strcmp(args_from(first), "c1 KILL") == 0,
	       "cli: kill c1 KILL -a: the arguments keep their order");
	TAP_OK(parse("kill", &first, "c1", "-a", "KILL", NULL) == 0 && o.all &&
	       strcmp(args_from(first), "c1 KILL") == 0,
	       "cli: kill c1 -a KILL: a boolean flag does not take KILL away");
	rc = parse("delete", &first, "c1", "--nope", NULL);
	TAP_OK(rc == -1 && strstr(err_, "\"delete\" requires exactly 1 argument(s)"),
	       "cli: an unknown flag after the argument stays an argument (runc: exactly 1)");
	TAP_OK(parse("delete", &first, "--", "-f", NULL) == 0 && !o.force &&
	       strcmp(args_from(first), "-f") == 0,
	       "cli: after --, -f is an argument");
	TAP_OK(parse("kill", &first, "c1", "-a", "--", "-9", NULL) == 0 && o.all &&
	       strcmp(args_from(first), "c1 -9") == 0,
	       "cli: kill c1 -a -- -9: flags before --, arguments in order");
	TAP_OK(parse("delete", &first, "-", NULL) == 0 && strcmp(args_from(first), "-") == 0,
	       "cli: a lone - is an argument");
	TAP_OK(parse("exec", &first, "-t", "c1", "ls", "-t", "-u", "x", NULL) == 0 && o.tty &&
	       o.user == NULL && strcmp(args_from(first), "c1 ls -t -u x") == 0,
	       "cli: exec: flags stop at the container id");
	TAP_OK(parse(NULL, &first, "--root", "/r", "list", "--debug", NULL) == 0 &&
	       strcmp(o.root, "/r") == 0 && !o.debug && strcmp(args_from(first), "list --debug") == 0,
	       "cli: global flags stop at the command name");
	TAP_OK(parse(NULL, &first, "--debug=false", "-root=/s", "state", NULL) == 0 && !o.debug &&
	       strcmp(o.root, "/s") == 0 && strcmp(args_from(first), "state") == 0,
	       "cli: global --debug=false -root=/s");
	rc = parse(NULL, &first, "--bogus", "list", NULL);
	TAP_OK(rc == -1 && strstr(out_, "Incorrect Usage: flag provided but not defined: -bogus") &&
	       strstr(out_, "GLOBAL OPTIONS:"),
	       "cli: unknown global flag: the global help follows");
}

static void test_help(void)
{
	int first, rc, status;
	pid_t pid;

	rc = parse("delete", &first, "--help", NULL);
	TAP_OK(rc == KC_CLI_HELP && strstr(out_, "NAME:\n   kcrun delete - delete a container") &&
	       strstr(out_, "--force, -f") && *err_ == '\0',
	       "cli: delete --help prints the command's help and asks for exit 0");
	rc = parse("delete", &first, "-h", NULL);
	TAP_OK(rc == KC_CLI_HELP, "cli: -h is --help");
	rc = parse("delete", &first, "c1", "--help", NULL);
	TAP_OK(rc == KC_CLI_HELP, "cli: delete c1 --help still shows the help (reordered)");
	rc = parse("exec", &first, "c1", "ls", "--help", NULL);
	TAP_OK(rc == 0 && strcmp(args_from(first), "c1 ls --help") == 0,
	       "cli: exec c1 ls --help: --help belongs to ls");
	rc = parse(NULL, &first, "--version", NULL);
	TAP_OK(rc == KC_CLI_HELP && strncmp(out_, "kcrun version ", 14) == 0,
	       "cli: global --version prints the version");
	rc = parse(NULL, &first, "-h", NULL);
	TAP_OK(rc == KC_CLI_HELP && strstr(out_, "COMMANDS:") && strstr(out_, "   delete "),
	       "cli: global -h lists the commands");
	rc = parse("delete", &first, "--version", NULL);
	TAP_OK(usage_error(rc, "flag provided but not defined: -version"),
	       "cli: --version is global only");

	/* kc_cli_parse itself exits 0 after the help, as runc does. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
		char *argv[] = {"delete", "--help", NULL};

		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(99);
		kc_cli_parse("delete", opts, 2, argv, &first);
		_exit(42);
	}
	TAP_OK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "cli: kc_cli_parse exits 0 after --help");
	free(o.env.v);
	o.env.v = NULL;
}

void test_cli(void)
{
	test_value_forms();
	test_flags();
	test_int();
	test_int64();
	test_errors();
	test_order();
	test_help();
}
