/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: global flags, per-command options and help, parsed the
 * way runc's urfave/cli does (`--x=v`, `--x v`, `-x v`, single-dash long
 * names, booleans as strconv.ParseBool reads them, a command's flags also
 * after its arguments unless keep_arg_order; global flags stop at the
 * command name). */
#ifndef KCRUN_CLI_H
#define KCRUN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/error.h"

#define KCRUN_VERSION "0.1.0"

struct kc_global {
	const char *root;
	const char *log;
	const char *log_format;
	const char *cgroup_manager;
	bool debug;
	bool systemd_cgroup;
	/* `kcrun help COMMAND`: the command is called with --help for its
	 * help text (checkpoint and restore refuse their own --help) */
	bool help_topic;
};

/* KC_OPT_INT is Go's int flag as a C int; KC_OPT_INT64 one as an int64_t
 * (runc's IntFlag on 64 bits: update's --pids-limit, --blkio-weight). */
enum kc_opt_kind { KC_OPT_FLAG, KC_OPT_STRING, KC_OPT_INT, KC_OPT_INT64, KC_OPT_LIST };

/* KC_OPT_LIST target: every value of a repeatable option. */
struct kc_strlist {
	char **v;
	int n;
};

struct kc_opt {
	const char *name;  /* long name */
	char short_name;   /* 0: none */
	enum kc_opt_kind kind;
	void *target;      /* bool *, const char **, int *, int64_t *, struct kc_strlist * */
	const char *help;
};

struct kc_command {
	const char *name;
	const char *summary;
	const char *usage;        /* after "kcrun NAME " */
	const char *description;  /* may be NULL */
	int min_args, max_args;   /* positional arguments; max -1 = any */
	int (*fn)(struct kc_global *g, int argc, char **argv);
	/* The command's own flags are read only before its first argument
	 * (exec, ps: what follows belongs to the command they run), as
	 * urfave/cli's SkipArgReorder; other commands take them anywhere. */
	bool keep_arg_order;
};

/* Parses the options of cmd in argv[1..]; *first_arg gets the index of the
 * first positional argument.  Prints help and exits for --help; on an
 * error prints runc's "Incorrect Usage" text and returns -1. */
int kc_cli_parse(const char *cmd_name, struct kc_opt *opts, int argc, char **argv,
		 int *first_arg);

/* What kc_cli_parse_args and kc_cli_parse_opts return when they printed
 * help (or the version) instead of exiting: the caller exits 0. */
#define KC_CLI_HELP 1
/* kc_cli_parse without the exit: 0, -1 or KC_CLI_HELP. */
int kc_cli_parse_args(const char *cmd_name, struct kc_opt *opts, int argc, char **argv,
		      int *first_arg);
/* The options alone, no argument count: cmd NULL for the global flags
 * (global help, --version).  0, -1 or KC_CLI_HELP. */
int kc_cli_parse_opts(const struct kc_command *cmd, struct kc_opt *opts, int argc, char **argv,
		      int *first_arg);
const struct kc_command *kc_cli_find_command(const char *name);

/* What create and run take from the global flags and the environment:
 * --systemd-cgroup / --cgroup-manager systemd (the systemd driver),
 * --cgroup-manager disabled, $LISTEN_FDS (systemd socket activation: fds
 * preserved besides --preserve-fds).  0, or 1 after printing the error. */
struct kc_create_opts;
int kc_cli_create_opts(const struct kc_global *g, const char *id, bool no_new_keyring,
		       struct kc_create_opts *o);

/* Prints the error once (stderr, and the --log file). Returns 1. */
int kc_cli_fail(kc_error_t *err);

void kc_cli_command_help(const struct kc_command *cmd, const struct kc_opt *opts, FILE *out);
void kc_cli_global_help(FILE *out);
void kc_cli_version(void);

/* wait.c: forward the signals kcrun gets to pid (set later by
 * kc_cli_wait_process when 0), relay the pty, return 128+N for signal N. */
#include <sys/types.h>
void kc_cli_forward_signals(pid_t pid);
int kc_cli_wait_process(pid_t pid, int pty_master);

int kc_cmd_exec(struct kc_global *g, int argc, char **argv);
int kc_cmd_pause(struct kc_global *g, int argc, char **argv);
int kc_cmd_resume(struct kc_global *g, int argc, char **argv);
int kc_cmd_ps(struct kc_global *g, int argc, char **argv);
int kc_cmd_update(struct kc_global *g, int argc, char **argv);
int kc_cmd_events(struct kc_global *g, int argc, char **argv);
int kc_cmd_create(struct kc_global *g, int argc, char **argv);
int kc_cmd_start(struct kc_global *g, int argc, char **argv);
int kc_cmd_run(struct kc_global *g, int argc, char **argv);
int kc_cmd_state(struct kc_global *g, int argc, char **argv);
int kc_cmd_kill(struct kc_global *g, int argc, char **argv);
int kc_cmd_delete(struct kc_global *g, int argc, char **argv);
int kc_cmd_list(struct kc_global *g, int argc, char **argv);
int kc_cmd_spec(struct kc_global *g, int argc, char **argv);
int kc_cmd_features(struct kc_global *g, int argc, char **argv);
int kc_cmd_keys(struct kc_global *g, int argc, char **argv);
int kc_cmd_checkpoint(struct kc_global *g, int argc, char **argv);
int kc_cmd_restore(struct kc_global *g, int argc, char **argv);

extern const struct kc_command kc_commands[];

#endif
