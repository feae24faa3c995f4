/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the command line.  The input is an argument vector,
 * words separated by NUL bytes; it goes through what main() does with
 * argv before any container is touched: the global flags, the command
 * name, the command's own flags (the option tables of create, run, exec,
 * update, kill, delete, events, ps, list and spec, copied from src/cli/;
 * keep them in step), then the values those commands parse further
 * (update's sizes and CPU lists, events' --interval, kill's signal).
 *
 * kc_cli_parse() exits after --help; kc_cli_parse_args() is the same parser
 * returning KC_CLI_HELP instead, so that is what runs here.  Help and
 * usage text go to stdout, which is /dev/null. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/lib/signals.h"
#include "src/lib/units.h"

#define MAX_WORDS 64

static int no_command(struct kc_global *g, int argc, char **argv)
{
	(void)g;
	(void)argc;
	(void)argv;
	return 0;
}

/* main.c's table, shortened descriptions; the fuzzer only needs the names,
 * argument counts and keep_arg_order. */
const struct kc_command kc_commands[] = {
	{"create", "create a container", "[command options] <container-id>", NULL, 1, 1,
	 no_command, false},
	{"delete", "delete a container", "[command options] <container-id>", NULL, 1, 1,
	 no_command, false},
	{"events", "display container events", "[command options] <container-id>", NULL, 1, 1,
	 no_command, false},
	{"exec", "execute new process inside the container",
	 "[command options] <container-id> <command> [command options]", NULL, 1, -1, no_command,
	 true},
	{"kill", "kill a container", "[command options] <container-id> [signal]", NULL, 1, 2,
	 no_command, false},
	{"list", "list containers", "[command options]", NULL, 0, 0, no_command, false},
	{"ps", "ps", "[command options] <container-id> [ps options]", NULL, 1, -1, no_command,
	 true},
	{"run", "create and run a container", "[command options] <container-id>", NULL, 1, 1,
	 no_command, false},
	{"spec", "create a new specification file", "[command options]", NULL, 0, 0, no_command,
	 false},
	{"start", "start a created container", "<container-id>", NULL, 1, 1, no_command, false},
	{"update", "update container resource constraints", "[command options] <container-id>",
	 NULL, 1, 1, no_command, false},
	{NULL, NULL, NULL, NULL, 0, 0, NULL, false},
};

/* Every option target of every table; reset before each input. */
static struct {
	struct kc_global g;
	const char *ignored, *bundle, *console_socket, *pid_file, *cwd, *user, *process, *label,
		*apparmor, *cgroup, *interval, *format, *resources;
	const char *update[16];
	bool flag[16];
	int preserve_fds;
	struct kc_strlist env, gids, caps;
} o;

#define END {NULL, 0, 0, NULL, NULL}

/* The checks update, events and kill make of their values. */
static void parse_values(const char *cmd, int argc, char **argv, int first)
{
	kc_error_t err = NULL;
	int64_t n;
	size_t i;

	if (strcmp(cmd, "update") == 0) {
		/* memory, memory-reservation, memory-swap, kernel-memory* are sizes */
		for (i = 9; i <= 13; i++)
			if (o.update[i] && kc_parse_ram_in_bytes(o.update[i], &n, &err) < 0)
				kc_error_free(&err);
		for (i = 7; i <= 8; i++)
			if (o.update[i])
				kc_cpu_list_parse(o.update[i], NULL);
	} else if (strcmp(cmd, "events") == 0 && o.interval) {
		kc_parse_duration(o.interval, &n, &err);
	} else if (strcmp(cmd, "kill") == 0 && first + 1 < argc) {
		kc_parse_signal(argv[first + 1]);
	}
	kc_error_free(&err);
}

static struct kc_opt *command_opts(const char *cmd)
{
	static struct kc_opt create[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle, "bundle"},
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket, "console socket"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "pid file"},
		{"no-pivot", 0, KC_OPT_FLAG, &o.flag[0], "no pivot"},
		{"no-new-keyring", 0, KC_OPT_FLAG, &o.flag[1], "no new keyring"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds, "fds"},
		END,
	};
	static struct kc_opt run[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle, "bundle"},
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket, "console socket"},
		{"detach", 'd', KC_OPT_FLAG, &o.flag[2], "detach"},
		{"keep", 0, KC_OPT_FLAG, &o.flag[3], "keep"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "pid file"},
		{"no-subreaper", 0, KC_OPT_FLAG, &o.flag[4], "no subreaper"},
		{"no-pivot", 0, KC_OPT_FLAG, &o.flag[0], "no pivot"},
		{"no-new-keyring", 0, KC_OPT_FLAG, &o.flag[1], "no new keyring"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds, "fds"},
		END,
	};
	static struct kc_opt exec[] = {
		{"console-socket", 0, KC_OPT_STRING, &o.console_socket, "console socket"},
		{"cwd", 0, KC_OPT_STRING, &o.cwd, "cwd"},
		{"env", 'e', KC_OPT_LIST, &o.env, "env"},
		{"tty", 't', KC_OPT_FLAG, &o.flag[5], "tty"},
		{"user", 'u', KC_OPT_STRING, &o.user, "user"},
		{"process", 'p', KC_OPT_STRING, &o.process, "process.json"},
		{"detach", 'd', KC_OPT_FLAG, &o.flag[2], "detach"},
		{"pid-file", 0, KC_OPT_STRING, &o.pid_file, "pid file"},
		{"additional-gids", 'g', KC_OPT_LIST, &o.gids, "gids"},
		{"process-label", 0, KC_OPT_STRING, &o.label, "label"},
		{"apparmor", 0, KC_OPT_STRING, &o.apparmor, "apparmor"},
		{"no-new-privs", 0, KC_OPT_FLAG, &o.flag[6], "no new privs"},
		{"cap", 'c', KC_OPT_LIST, &o.caps, "cap"},
		{"preserve-fds", 0, KC_OPT_INT, &o.preserve_fds, "fds"},
		{"cgroup", 0, KC_OPT_STRING, &o.cgroup, "cgroup"},
		{"ignore-paused", 0, KC_OPT_FLAG, &o.flag[7], "ignore paused"},
		END,
	};
	/* o.update[] indices: parse_values() reads 7-8 (CPU lists), 9-13 (sizes) */
	static struct kc_opt update[] = {
		{"resources", 'r', KC_OPT_STRING, &o.resources, "resources"},
		{"blkio-weight", 0, KC_OPT_STRING, &o.update[0], "weight"},
		{"cpu-period", 0, KC_OPT_STRING, &o.update[1], "period"},
		{"cpu-quota", 0, KC_OPT_STRING, &o.update[2], "quota"},
		{"cpu-share", 0, KC_OPT_STRING, &o.update[3], "shares"},
		{"cpu-rt-period", 0, KC_OPT_STRING, &o.update[4], "rt period"},
		{"cpu-rt-runtime", 0, KC_OPT_STRING, &o.update[5], "rt runtime"},
		{"pids-limit", 0, KC_OPT_STRING, &o.update[6], "pids"},
		{"cpuset-cpus", 0, KC_OPT_STRING, &o.update[7], "cpus"},
		{"cpuset-mems", 0, KC_OPT_STRING, &o.update[8], "mems"},
		{"memory", 0, KC_OPT_STRING, &o.update[9], "memory"},
		{"memory-reservation", 0, KC_OPT_STRING, &o.update[10], "reservation"},
		{"memory-swap", 0, KC_OPT_STRING, &o.update[11], "swap"},
		{"kernel-memory", 0, KC_OPT_STRING, &o.update[12], "kmem"},
		{"kernel-memory-tcp", 0, KC_OPT_STRING, &o.update[13], "kmem tcp"},
		{"l3-cache-schema", 0, KC_OPT_STRING, &o.update[14], "l3"},
		{"mem-bw-schema", 0, KC_OPT_STRING, &o.update[15], "mba"},
		END,
	};
	static struct kc_opt kill[] = {{"all", 'a', KC_OPT_FLAG, &o.flag[8], "all"}, END};
	static struct kc_opt delete[] = {{"force", 'f', KC_OPT_FLAG, &o.flag[9], "force"}, END};
	static struct kc_opt events[] = {
		{"interval", 0, KC_OPT_STRING, &o.interval, "interval"},
		{"stats", 0, KC_OPT_FLAG, &o.flag[10], "stats"},
		END,
	};
	static struct kc_opt ps[] = {{"format", 'f', KC_OPT_STRING, &o.format, "format"}, END};
	static struct kc_opt list[] = {
		{"format", 'f', KC_OPT_STRING, &o.format, "format"},
		{"quiet", 'q', KC_OPT_FLAG, &o.flag[11], "quiet"},
		END,
	};
	static struct kc_opt spec[] = {
		{"bundle", 'b', KC_OPT_STRING, &o.bundle, "bundle"},
		{"rootless", 0, KC_OPT_FLAG, &o.flag[12], "rootless"},
		END,
	};
	static struct kc_opt none[] = {END};
	static const struct {
		const char *name;
		struct kc_opt *opts;
	} tables[] = {
		{"create", create}, {"run", run},	{"exec", exec}, {"update", update},
		{"kill", kill},	    {"delete", delete}, {"events", events}, {"ps", ps},
		{"list", list},	    {"spec", spec},
	};
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(tables[i].name, cmd) == 0)
			return tables[i].opts;
	return none;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kc_opt global_opts[] = {
		{"debug", 0, KC_OPT_FLAG, &o.g.debug, "debug"},
		{"log", 0, KC_OPT_STRING, &o.g.log, "log file"},
		{"log-format", 0, KC_OPT_STRING, &o.g.log_format, "log format"},
		{"root", 0, KC_OPT_STRING, &o.g.root, "root"},
		{"systemd-cgroup", 0, KC_OPT_FLAG, &o.g.systemd_cgroup, "systemd"},
		{"cgroup-manager", 0, KC_OPT_STRING, &o.g.cgroup_manager, "cgroup manager"},
		{"criu", 0, KC_OPT_STRING, &o.ignored, "ignored"},
		{"rootless", 0, KC_OPT_STRING, &o.ignored, "ignored"},
		END,
	};
	char *words = malloc(size + 1), *argv[MAX_WORDS + 2], *p, *end;
	const struct kc_command *cmd;
	int argc = 0, first, cmd_first;

	if (words == NULL)
		return 0;
	/* "kcrun", then the NUL-separated words; a missing final NUL is implied */
	memcpy(words, data, size);
	words[size] = '\0';
	argv[argc++] = (char *)"kcrun";
	for (p = words, end = words + size; p < end && argc <= MAX_WORDS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	memset(&o, 0, sizeof(o));
	if (kc_cli_parse_opts(NULL, global_opts, argc, argv, &first) != 0 || first >= argc)
		goto out;
	cmd = kc_cli_find_command(argv[first]);
	if (cmd == NULL)
		goto out;
	if (kc_cli_parse_args(cmd->name, command_opts(cmd->name), argc - first, argv + first,
			      &cmd_first) == 0)
		parse_values(cmd->name, argc - first, argv + first, cmd_first);
out:
	free(o.env.v);
	free(o.gids.v);
	free(o.caps.v);
	free(words);
	return 0;
}
