/* The option parser: urfave/cli's rules as runc users meet them
 * (see cli.h).  Errors are printed the way runc prints them and come back
 * as -1; --help and --version come back as KC_CLI_HELP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/log.h"

const struct kc_command *kc_cli_find_command(const char *name)
{
	const struct kc_command *c;

	for (c = kc_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
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
		kc_cli_global_help(stdout);
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

int kc_cli_parse_opts(const struct kc_command *cmd, struct kc_opt *opts, int argc, char **argv,
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
					kc_cli_global_help(stdout);
				return KC_CLI_HELP;
			}
			if (cmd == NULL && (strcmp(name, "version") == 0 || strcmp(name, "v") == 0)) {
				kc_cli_version();
				return KC_CLI_HELP;
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

int kc_cli_parse_args(const char *cmd_name, struct kc_opt *opts, int argc, char **argv,
		      int *first_arg)
{
	const struct kc_command *cmd = kc_cli_find_command(cmd_name);
	int nargs, ret;
	char msg[128];

	ret = kc_cli_parse_opts(cmd, opts, argc, argv, first_arg);
	if (ret != 0)
		return ret;
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

int kc_cli_parse(const char *cmd_name, struct kc_opt *opts, int argc, char **argv,
		 int *first_arg)
{
	int ret = kc_cli_parse_args(cmd_name, opts, argc, argv, first_arg);

	if (ret == KC_CLI_HELP)
		exit(0);
	return ret;
}
