/* kcrun: global flags and dispatch to one file per command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/log.h"
#include "lib/state.h"
#include "oci-spec/spec.h"

const struct kc_command kc_commands[] = {
	{"create", "create a container", "[command options] <container-id>",
	 "The create command creates a kernel container object for a bundle (a directory\n"
	 "with a specification file named \"config.json\" and a root filesystem), builds its\n"
	 "mount tree from outside, forks its init into it and leaves init waiting on the\n"
	 "exec fifo until \"kcrun start\".",
	 1, 1, kc_cmd_create},
	{"delete", "delete any resources held by the container often used with detached container",
	 "[command options] <container-id>",
	 "Deletes the container's state directory and cgroup once its init is dead.  With\n"
	 "--force a running container is killed first (SIGKILL to every member).",
	 1, 1, kc_cmd_delete},
	{"exec", "execute new process inside the container",
	 "[command options] <container-id> <command> [command options]  || -p process.json <container-id>",
	 "Joins the namespaces of the container's init (setns on /proc/PID/ns/TYPE), enters\n"
	 "its cgroup and runs the command with the container's process settings.",
	 1, -1, kc_cmd_exec},
	{"features", "show the enabled features", "", "Shows what this kcrun supports, as JSON.",
	 0, 0, kc_cmd_features},
	{"kill", "kill sends the specified signal (default: SIGTERM) to the container's init process",
	 "[command options] <container-id> [signal]",
	 "Where \"<container-id>\" is the name for the instance of the container and\n"
	 "\"[signal]\" is the signal to be sent to the init process (a name like KILL or\n"
	 "SIGKILL, or a number).",
	 1, 2, kc_cmd_kill},
	{"list", "lists containers started by kcrun with the given root", "[command options]",
	 "Where the given root is specified via the global option \"--root\"\n"
	 "(default: \"" KC_DEFAULT_ROOT "\").",
	 0, 0, kc_cmd_list},
	{"pause", "pause suspends all processes inside the container", "<container-id>",
	 "Freezes the container's cgroup (cgroup.freeze).", 1, 1, kc_cmd_pause},
	{"ps", "ps displays the processes running inside a container",
	 "[command options] <container-id> [ps options]",
	 "The processes of the container's cgroup, as ps(1) shows them (default -ef).",
	 1, -1, kc_cmd_ps},
	{"resume", "resumes all processes that have been previously paused", "<container-id>",
	 "Thaws the container's cgroup.", 1, 1, kc_cmd_resume},
	{"run", "create and run a container", "[command options] <container-id>",
	 "Creates and starts a container, waits for its process and exits with its\n"
	 "status (or 128+signal); the container is deleted afterwards unless --detach\n"
	 "or --keep.",
	 1, 1, kc_cmd_run},
	{"spec", "create a new specification file", "[command options]",
	 "Writes a default config.json (the same as runc's) into the bundle directory.",
	 0, 0, kc_cmd_spec},
	{"start", "executes the user defined process in a created container", "<container-id>",
	 "Releases the init of a created container (reads its exec fifo): it execs\n"
	 "process.args.",
	 1, 1, kc_cmd_start},
	{"state", "output the state of a container", "<container-id>",
	 "The state command outputs current state information for the\ninstance of a container.",
	 1, 1, kc_cmd_state},
	{"update", "update container resource constraints",
	 "[command options] <container-id>",
	 "Writes linux.resources from --resources FILE (\"-\": stdin) into the container's cgroup.",
	 1, 1, kc_cmd_update},
	{NULL, NULL, NULL, NULL, 0, 0, NULL},
};

static void version(void)
{
	printf("kcrun version %s\nspec: %s\n", KCRUN_VERSION, OCI_SPEC_VERSION);
}

static void global_help(FILE *out)
{
	const struct kc_command *c;

	fprintf(out,
		"NAME:\n   kcrun - Open Container Initiative runtime on kernel container objects\n\n"
		"kcrun is a command line client for running applications packaged according to\n"
		"the Open Container Initiative (OCI) format.  Its containers are kernel objects\n"
		"(container_create(2) and friends, /proc/containers): see kcrun(8).\n\n"
		"To start a new instance of a container:\n\n"
		"    # kcrun run [ -b bundle ] <container-id>\n\n"
		"USAGE:\n   kcrun [global options] command [command options] [arguments...]\n\n"
		"VERSION:\n   %s\nspec: %s\n\nCOMMANDS:\n",
		KCRUN_VERSION, OCI_SPEC_VERSION);
	for (c = kc_commands; c->name; c++)
		fprintf(out, "   %-10s  %s\n", c->name, c->summary);
	fprintf(out, "   %-10s  %s\n", "help, h", "Shows a list of commands or help for one command");
	fprintf(out,
		"\nGLOBAL OPTIONS:\n"
		"   --debug                  enable debug logging\n"
		"   --log value              set the log file to write kcrun logs to (default is '/dev/stderr')\n"
		"   --log-format value       set the log format ('text' (default), or 'json') (default: \"text\")\n"
		"   --root value             root directory for storage of container state (this should be located in tmpfs) (default: \"%s\")\n"
		"   --systemd-cgroup         not supported by kcrun (cgroupfs only)\n"
		"   --cgroup-manager value   cgroup manager: 'cgroupfs' or 'disabled'\n"
		"   --help, -h               show help\n"
		"   --version, -v            print the version\n",
		KC_DEFAULT_ROOT);
}

static const struct kc_command *find_command(const char *name)
{
	const struct kc_command *c;

	for (c = kc_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void kc_cli_command_help(const struct kc_command *cmd, const struct kc_opt *opts, FILE *out)
{
	const struct kc_opt *o;

	fprintf(out, "NAME:\n   kcrun %s - %s\n\nUSAGE:\n   kcrun %s %s\n", cmd->name, cmd->summary,
		cmd->name, cmd->usage);
	if (cmd->description)
		fprintf(out, "\nDESCRIPTION:\n   %s\n", cmd->description);
	if (opts && opts->name) {
		fprintf(out, "\nOPTIONS:\n");
		for (o = opts; o->name; o++) {
			char left[128];
			const char *value = o->kind == KC_OPT_FLAG ? "" : " value";

			if (o->short_name)
				snprintf(left, sizeof(left), "--%s%s, -%c%s", o->name, value,
					 o->short_name, value);
			else
				snprintf(left, sizeof(left), "--%s%s", o->name, value);
			fprintf(out, "   %-28s %s\n", left, o->help);
		}
	}
}

static void incorrect_usage(const struct kc_command *cmd, const struct kc_opt *opts,
			    const char *fmt, const char *arg)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, arg);
	printf("Incorrect Usage: %s\n\n", msg);
	if (cmd)
		kc_cli_command_help(cmd, opts, stdout);
	else
		global_help(stdout);
	kc_log_error(msg);
}

/* Finds the option for "--name", "-name" or "-x"; *value gets "v" of "--name=v". */
static struct kc_opt *match_opt(struct kc_opt *opts, const char *arg, char *name, size_t len,
				const char **value)
{
	const char *s = arg + 1, *eq;
	struct kc_opt *o;

	if (*s == '-')
		s++;
	eq = strchr(s, '=');
	snprintf(name, len, "%.*s", eq ? (int)(eq - s) : (int)strlen(s), s);
	*value = eq ? eq + 1 : NULL;
	for (o = opts; o && o->name; o++)
		if (strcmp(o->name, name) == 0 ||
		    (o->short_name && name[0] == o->short_name && name[1] == '\0'))
			return o;
	return NULL;
}

static int set_opt(struct kc_opt *o, const char *value, const char **error)
{
	char *end;
	long n;

	switch (o->kind) {
	case KC_OPT_FLAG:
		if (value == NULL || strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
			*(bool *)o->target = true;
		else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
			*(bool *)o->target = false;
		else {
			*error = "invalid boolean value %s";
			return -1;
		}
		return 0;
	case KC_OPT_STRING:
		*(const char **)o->target = value;
		return 0;
	case KC_OPT_LIST: {
		struct kc_strlist *l = o->target;
		char **v = realloc(l->v, (size_t)(l->n + 2) * sizeof(char *));

		if (v == NULL)
			return -1;
		v[l->n++] = (char *)value;
		v[l->n] = NULL;
		l->v = v;
		return 0;
	}
	case KC_OPT_INT:
		n = strtol(value, &end, 10);
		if (*value == '\0' || *end != '\0') {
			*error = "invalid value %s";
			return -1;
		}
		*(int *)o->target = (int)n;
		return 0;
	}
	return -1;
}

/* Shared by the global flags (cmd NULL) and the commands. */
static int parse_opts(const struct kc_command *cmd, struct kc_opt *opts, int argc, char **argv,
		      int *first_arg)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *value, *error = NULL;
		char name[128];
		struct kc_opt *o;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			break;
		o = match_opt(opts, arg, name, sizeof(name), &value);
		if (o == NULL) {
			if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0) {
				if (cmd)
					kc_cli_command_help(cmd, opts, stdout);
				else
					global_help(stdout);
				exit(0);
			}
			if (cmd == NULL && (strcmp(name, "version") == 0 || strcmp(name, "v") == 0)) {
				version();
				exit(0);
			}
			incorrect_usage(cmd, opts, "flag provided but not defined: -%s", name);
			return -1;
		}
		if (o->kind != KC_OPT_FLAG && value == NULL) {
			if (i + 1 >= argc) {
				incorrect_usage(cmd, opts, "flag needs an argument: -%s", name);
				return -1;
			}
			value = argv[++i];
		}
		if (set_opt(o, value, &error) < 0) {
			incorrect_usage(cmd, opts, error, value);
			return -1;
		}
	}
	*first_arg = i;
	return 0;
}

int kc_cli_parse(const char *cmd_name, struct kc_opt *opts, int argc, char **argv,
		 int *first_arg)
{
	const struct kc_command *cmd = find_command(cmd_name);
	int nargs;
	char msg[128];

	if (parse_opts(cmd, opts, argc, argv, first_arg) < 0)
		return -1;
	nargs = argc - *first_arg;
	if (cmd->min_args == cmd->max_args && nargs != cmd->min_args) {
		snprintf(msg, sizeof(msg), "kcrun: \"%s\" requires exactly %d argument(s)", cmd->name,
			 cmd->min_args);
	} else if (nargs < cmd->min_args) {
		snprintf(msg, sizeof(msg), "kcrun: \"%s\" requires a minimum of %d argument(s)",
			 cmd->name, cmd->min_args);
	} else if (cmd->max_args >= 0 && nargs > cmd->max_args) {
		snprintf(msg, sizeof(msg), "kcrun: \"%s\" requires a maximum of %d argument(s)",
			 cmd->name, cmd->max_args);
	} else {
		return 0;
	}
	printf("Incorrect Usage.\n\n");
	kc_cli_command_help(cmd, opts, stdout);
	kc_log_error(msg + strlen("kcrun: "));
	return -1;
}

int kc_cli_fail(kc_error_t *err)
{
	kc_log_error(*err ? (*err)->msg : "unknown error");
	kc_error_free(err);
	return 1;
}

int main(int argc, char **argv)
{
	struct kc_global g = {.root = KC_DEFAULT_ROOT, .log_format = "text"};
	struct kc_opt global_opts[] = {
		{"debug", 0, KC_OPT_FLAG, &g.debug, "enable debug logging"},
		{"log", 0, KC_OPT_STRING, &g.log, "log file"},
		{"log-format", 0, KC_OPT_STRING, &g.log_format, "log format"},
		{"root", 0, KC_OPT_STRING, &g.root, "state root"},
		{"systemd-cgroup", 0, KC_OPT_FLAG, &g.systemd_cgroup, "systemd cgroups"},
		{"cgroup-manager", 0, KC_OPT_STRING, &g.cgroup_manager, "cgroup manager"},
		{"criu", 0, KC_OPT_STRING, &(const char *){NULL}, "ignored"},
		{"rootless", 0, KC_OPT_STRING, &(const char *){NULL}, "ignored"},
		{NULL, 0, 0, NULL, NULL},
	};
	const struct kc_command *cmd;
	kc_error_t err = NULL;
	int first;

	if (parse_opts(NULL, global_opts, argc, argv, &first) < 0)
		return 1;
	if (strcmp(g.log_format, "text") != 0 && strcmp(g.log_format, "json") != 0) {
		fprintf(stderr, "kcrun: unknown log-format %s\n", g.log_format);
		return 1;
	}
	kc_log_init(g.log, strcmp(g.log_format, "json") == 0, g.debug);
	if (first >= argc) {
		global_help(stdout);
		return 0;
	}
	if (strcmp(argv[first], "help") == 0 || strcmp(argv[first], "h") == 0) {
		if (first + 1 < argc && (cmd = find_command(argv[first + 1])) != NULL) {
			char *help_argv[] = {argv[first + 1], (char *)"--help", NULL};

			return cmd->fn(&g, 2, help_argv);
		}
		global_help(stdout);
		return 0;
	}
	cmd = find_command(argv[first]);
	if (cmd == NULL) {
		kc_error_set(&err, 0, "No help topic for '%s'", argv[first]);
		kc_cli_fail(&err);
		return 3;
	}
	return cmd->fn(&g, argc - first, argv + first);
}
