/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option parser: urfave/cli's rules as runc users meet them
 * (see cli.h).  Errors are printed the way runc prints them and come back
 * as -1; --help and --version come back as KC_CLI_HELP. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
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
			    const char *msg)
{
	printf("Incorrect Usage: %s\n\n", msg);
	if (cmd)
		kc_cli_command_help(cmd, opts, stdout);
	else
		kc_cli_global_help(stdout);
	kc_log_error(msg);
}

/* "--name", "-name" or "-x" (with "=v" or not): *name_len gets the length
 * of the name after the dashes.  NULL for Go's "bad flag syntax" (a name
 * starting with '-' or '='). */
static const char *flag_name(const char *arg, size_t *name_len)
{
	const char *s = arg + 1;

	if (*s == '-')
		s++;
	if (*s == '\0' || *s == '-' || *s == '=')
		return NULL;
	*name_len = strcspn(s, "=");
	return s;
}

static struct kc_opt *find_opt(struct kc_opt *opts, const char *name)
{
	struct kc_opt *o;

	for (o = opts; o && o->name; o++)
		if (strcmp(o->name, name) == 0 ||
		    (o->short_name && name[0] == o->short_name && name[1] == '\0'))
			return o;
	return NULL;
}

/* strconv.ParseBool. */
static int parse_bool(const char *value, bool *out)
{
	static const char *const truths[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const falsehoods[] = {"0", "f", "F", "FALSE", "false", "False"};
	size_t i;

	for (i = 0; i < sizeof(truths) / sizeof(truths[0]); i++) {
		if (strcmp(value, truths[i]) == 0)
			return *out = true, 0;
		if (strcmp(value, falsehoods[i]) == 0)
			return *out = false, 0;
	}
	return -1;
}

/* Sets the option; on a bad value fills msg with Go's flag message. */
static int set_opt(struct kc_opt *o, const char *name, const char *value, char *msg, size_t len)
{
	char *end;
	long long n;

	switch (o->kind) {
	case KC_OPT_FLAG:
		if (value == NULL)
			*(bool *)o->target = true;
		else if (parse_bool(value, o->target) < 0) {
			snprintf(msg, len, "invalid boolean value \"%s\" for -%s: parse error", value, name);
			return -1;
		}
		return 0;
	case KC_OPT_STRING:
		*(const char **)o->target = value;
		return 0;
	case KC_OPT_LIST: {
		struct kc_strlist *l = o->target;
		char **v = realloc(l->v, (size_t)(l->n + 2) * sizeof(char *));

		if (v == NULL) {
			snprintf(msg, len, "-%s: out of memory", name);
			return -1;
		}
		v[l->n++] = (char *)value;
		v[l->n] = NULL;
		l->v = v;
		return 0;
	}
	case KC_OPT_INT:
	case KC_OPT_INT64:
		/* strconv.ParseInt(value, 0, ...): 0x10 and 010 as Go reads them,
		 * no leading blanks. */
		errno = 0;
		n = strtoll(value, &end, 0);
		if (*value == '\0' || isspace((unsigned char)*value) || *end != '\0') {
			snprintf(msg, len, "invalid value \"%s\" for flag -%s: parse error", value, name);
			return -1;
		}
		if (errno == ERANGE || (o->kind == KC_OPT_INT && (n < INT_MIN || n > INT_MAX))) {
			snprintf(msg, len, "invalid value \"%s\" for flag -%s: value out of range", value,
				 name);
			return -1;
		}
		if (o->kind == KC_OPT_INT64)
			*(int64_t *)o->target = n;
		else
			*(int *)o->target = (int)n;
		return 0;
	}
	return -1;
}

static bool is_help(const char *name, size_t len)
{
	return (len == 4 && strncmp(name, "help", 4) == 0) || (len == 1 && *name == 'h');
}

/* urfave/cli's reorderArgs: a command's own flags (and --help) that follow
 * its arguments move to the front, with the value of a flag that takes
 * one; everything after "--" stays put.  Unlike urfave/cli, a boolean
 * flag never carries the next word along (`kill c1 --all KILL` keeps c1
 * first).  Unknown flags stay among the arguments. */
static void reorder_args(struct kc_opt *opts, int argc, char **argv)
{
	char **flags = calloc((size_t)argc + 1, sizeof(char *));
	char **rest = calloc((size_t)argc + 1, sizeof(char *));
	int i, nflags = 0, nrest = 0, dashdash = -1;

	if (flags == NULL || rest == NULL)
		goto out;
	for (i = 1; i < argc; i++) {
		const char *name;
		struct kc_opt *o;
		size_t len;
		char buf[128];

		if (strcmp(argv[i], "--") == 0) {
			dashdash = i;
			break;
		}
		name = argv[i][0] == '-' ? flag_name(argv[i], &len) : NULL;
		if (name == NULL || len >= sizeof(buf)) {
			rest[nrest++] = argv[i];
			continue;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
		o = find_opt(opts, buf);
		if (o == NULL && !is_help(name, len)) {
			rest[nrest++] = argv[i];
			continue;
		}
		flags[nflags++] = argv[i];
		if (o && o->kind != KC_OPT_FLAG && name[len] != '=' && i + 1 < argc)
			flags[nflags++] = argv[++i];
	}
	if (dashdash >= 0 && nflags > 0) {
		/* flags, "--", the arguments before it, the ones after it */
		flags[nflags++] = argv[dashdash];
		for (i = dashdash + 1; i < argc; i++)
			rest[nrest++] = argv[i];
	} else if (dashdash >= 0) {
		goto out; /* nothing moves */
	}
	memcpy(argv + 1, flags, (size_t)nflags * sizeof(char *));
	memcpy(argv + 1 + nflags, rest, (size_t)nrest * sizeof(char *));
out:
	free(flags);
	free(rest);
}

int kc_cli_parse_opts(const struct kc_command *cmd, struct kc_opt *opts, int argc, char **argv,
		      int *first_arg)
{
	char msg[512];
	int i;

	if (cmd && !cmd->keep_arg_order)
		reorder_args(opts, argc, argv);
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *value, *name;
		char name_buf[128];
		struct kc_opt *o;
		size_t len;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			break;
		name = flag_name(arg, &len);
		if (name == NULL) {
			snprintf(msg, sizeof(msg), "bad flag syntax: %s", arg);
			incorrect_usage(cmd, opts, msg);
			return -1;
		}
		snprintf(name_buf, sizeof(name_buf), "%.*s", (int)len, name);
		value = name[len] == '=' ? name + len + 1 : NULL;
		o = find_opt(opts, name_buf);
		if (o == NULL) {
			if (is_help(name, len)) {
				if (cmd)
					kc_cli_command_help(cmd, opts, stdout);
				else
					kc_cli_global_help(stdout);
				return KC_CLI_HELP;
			}
			if (cmd == NULL && (strcmp(name_buf, "version") == 0 || strcmp(name_buf, "v") == 0)) {
				kc_cli_version();
				return KC_CLI_HELP;
			}
			snprintf(msg, sizeof(msg), "flag provided but not defined: -%s", name_buf);
			incorrect_usage(cmd, opts, msg);
			return -1;
		}
		if (o->kind != KC_OPT_FLAG && value == NULL) {
			if (i + 1 >= argc) {
				snprintf(msg, sizeof(msg), "flag needs an argument: -%s", name_buf);
				incorrect_usage(cmd, opts, msg);
				return -1;
			}
			value = argv[++i];
		}
		if (set_opt(o, name_buf, value, msg, sizeof(msg)) < 0) {
			incorrect_usage(cmd, opts, msg);
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
