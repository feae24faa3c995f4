/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun: global flags and dispatch to one file per command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lib/log.h"
#include "lib/rootless.h"
#include "lib/self_exe.h"
#include "lib/state.h"
#include "oci-spec/spec.h"

const struct kc_command kc_commands[] = {
	{"checkpoint", "checkpoint a running container", "[command options] <container-id>",
	 "Not supported by kcrun (no CRIU): refused with an error, --help included (podman\n"
	 "takes a zero exit of \"checkpoint --help\" for support); \"kcrun help checkpoint\"\n"
	 "lists runc's flags.", 1, 1, kc_cmd_checkpoint,
	 false},
	{"create", "create a container", "[command options] <container-id>",
	 "The create command creates a kernel container object for a bundle (a directory\n"
	 "with a specification file named \"config.json\" and a root filesystem), builds its\n"
	 "mount tree from outside, forks its init into it and leaves init waiting on the\n"
	 "exec fifo until \"kcrun start\".",
	 1, 1, kc_cmd_create, false},
	{"delete", "delete any resources held by the container often used with detached container",
	 "[command options] <container-id>",
	 "Deletes the container's state directory and cgroup once its init is dead.  With\n"
	 "--force a running container is killed first (SIGKILL to every member).",
	 1, 1, kc_cmd_delete, false},
	{"events", "display container events such as OOM notifications, cpu, memory, and IO usage statistics",
	 "[command options] <container-id>",
	 "The events command displays information about the container. By default the\n"
	 "information is displayed once every 5 seconds: a stats event (the container's\n"
	 "cgroup v2 statistics, with runc's field names) each interval, and an oom event\n"
	 "whenever the kernel OOM-kills a process of the container, until it stops.",
	 1, 1, kc_cmd_events, false},
	{"exec", "execute new process inside the container",
	 "[command options] <container-id> <command> [command options]  || -p process.json <container-id>",
	 "Forks the command into the running container as a new member of its kernel\n"
	 "object (init's namespaces, the container's credentials and root), puts it in the\n"
	 "container's cgroup and runs it with the container's process settings.",
	 1, -1, kc_cmd_exec, true},
	{"features", "show the enabled features", "", "Shows what this kcrun supports, as JSON.",
	 0, 0, kc_cmd_features, false},
	{"keys", "the keys of a container: grant, revoke, list, add, serve",
	 "<grant|revoke|list|add|serve> [command options] <container-id> ...",
	 "Grants keys to a container's members through its kernel keyring (grant, revoke,\n"
	 "list, add) and serves its request-key upcalls (serve): see kcrun(8).\n"
	 "\"kcrun keys COMMAND --help\" describes each.",
	 1, -1, kc_cmd_keys, true},
	{"kill", "kill sends the specified signal (default: SIGTERM) to the container's init process",
	 "[command options] <container-id> [signal]",
	 "Where \"<container-id>\" is the name for the instance of the container and\n"
	 "\"[signal]\" is the signal to be sent to the init process (a name like KILL or\n"
	 "SIGKILL, or a number).",
	 1, 2, kc_cmd_kill, false},
	{"list", "lists containers started by kcrun with the given root", "[command options]",
	 "Where the given root is specified via the global option \"--root\"\n"
	 "(default: \"" KC_DEFAULT_ROOT "\").",
	 0, 0, kc_cmd_list, false},
	{"pause", "pause suspends all processes inside the container", "<container-id>",
	 "Freezes the container's cgroup (cgroup.freeze).", 1, 1, kc_cmd_pause, false},
	{"ps", "ps displays the processes running inside a container",
	 "[command options] <container-id> [ps options]",
	 "The processes of the container's cgroup, as ps(1) shows them (default -ef).",
	 1, -1, kc_cmd_ps, true},
	{"restore", "restore a container from a previous checkpoint",
	 "[command options] <container-id>",
	 "Not supported by kcrun (no CRIU): refused with an error, whatever its flags;\n"
	 "\"kcrun help restore\" lists runc's flags.", 1, 1, kc_cmd_restore, false},
	{"resume", "resumes all processes that have been previously paused", "<container-id>",
	 "Thaws the container's cgroup.", 1, 1, kc_cmd_resume, false},
	{"run", "create and run a container", "[command options] <container-id>",
	 "Creates and starts a container, waits for its process and exits with its\n"
	 "status (or 128+signal); the container is deleted afterwards unless --detach\n"
	 "or --keep.",
	 1, 1, kc_cmd_run, false},
	{"spec", "create a new specification file", "[command options]",
	 "Writes a default config.json (the same as runc's) into the bundle directory.",
	 0, 0, kc_cmd_spec, false},
	{"start", "executes the user defined process in a created container", "<container-id>",
	 "Releases the init of a created container (reads its exec fifo): it execs\n"
	 "process.args.",
	 1, 1, kc_cmd_start, false},
	{"state", "output the state of a container", "<container-id>",
	 "The state command outputs current state information for the\ninstance of a container.",
	 1, 1, kc_cmd_state, false},
	{"update", "update container resource constraints",
	 "[command options] <container-id>",
	 "Writes new limits into the container's cgroup: runc's flags (--memory 100M,\n"
	 "--cpu-quota, --pids-limit, ...; memory sizes take units and -1 for unlimited)\n"
	 "or a linux.resources object from --resources FILE (\"-\": stdin), in which case\n"
	 "the other flags are ignored.  A flag left out leaves its limit alone.",
	 1, 1, kc_cmd_update, false},
	{NULL, NULL, NULL, NULL, 0, 0, NULL, false},
};

int kc_cli_fail(kc_error_t *err)
{
	kc_log_error(*err ? (*err)->msg : "unknown error");
	kc_error_free(err);
	return 1;
}

int main(int argc, char **argv)
{
	struct kc_global g = {.root = KC_DEFAULT_ROOT, .log_format = "text"};
	const char *root_given = NULL;
	struct kc_opt global_opts[] = {
		{"debug", 0, KC_OPT_FLAG, &g.debug, "enable debug logging"},
		{"log", 0, KC_OPT_STRING, &g.log, "log file"},
		{"log-format", 0, KC_OPT_STRING, &g.log_format, "log format"},
		{"root", 0, KC_OPT_STRING, &root_given, "state root"},
		{"systemd-cgroup", 0, KC_OPT_FLAG, &g.systemd_cgroup, "systemd cgroups"},
		{"cgroup-manager", 0, KC_OPT_STRING, &g.cgroup_manager, "cgroup manager"},
		{"criu", 0, KC_OPT_STRING, &(const char *){NULL}, "ignored"},
		{"rootless", 0, KC_OPT_STRING, &(const char *){NULL}, "ignored"},
		{NULL, 0, 0, NULL, NULL},
	};
	const struct kc_command *cmd;
	kc_error_t err = NULL;
	int first;

	switch (kc_cli_parse_opts(NULL, global_opts, argc, argv, &first)) {
	case KC_CLI_HELP:
		return 0;
	case 0:
		break;
	default:
		return 1;
	}
	if (strcmp(g.log_format, "text") != 0 && strcmp(g.log_format, "json") != 0) {
		fprintf(stderr, "kcrun: invalid log-format: %s\n", g.log_format);
		return 1;
	}
	kc_log_init(g.log, strcmp(g.log_format, "json") == 0, g.debug);
	/* crun's three managers (create and run: kc_cli_create_opts); anything
	 * else is refused by every command */
	if (g.cgroup_manager && strcmp(g.cgroup_manager, "cgroupfs") != 0 &&
	    strcmp(g.cgroup_manager, "systemd") != 0 && strcmp(g.cgroup_manager, "disabled") != 0) {
		kc_error_set(&err, 0, "unknown cgroup manager specified: %s (cgroupfs, systemd or disabled)",
			     g.cgroup_manager);
		return kc_cli_fail(&err);
	}
	/* unprivileged: $XDG_RUNTIME_DIR/kcrun, as runc's $XDG_RUNTIME_DIR/runc;
	 * whether kcrun is rootless is decided here, before any setns */
	kc_rootless_cgroups();
	if (root_given == NULL)
		root_given = kc_rootless_default_root();
	if (root_given)
		g.root = root_given;
	if (first >= argc) {
		kc_cli_global_help(stdout);
		return 0;
	}
	if (strcmp(argv[first], "help") == 0 || strcmp(argv[first], "h") == 0) {
		if (first + 1 < argc) {
			char *help_argv[] = {argv[first + 1], (char *)"--help", NULL};

			if (strcmp(argv[first + 1], "help") == 0 || strcmp(argv[first + 1], "h") == 0) {
				printf("NAME:\n   kcrun help - Shows a list of commands or help for one "
				       "command\n\nUSAGE:\n   kcrun help [command]\n");
				return 0;
			}
			/* urfave/cli: `help NAME` of no command is exit status 3. */
			cmd = kc_cli_find_command(argv[first + 1]);
			if (cmd == NULL) {
				kc_error_set(&err, 0, "No help topic for '%s'", argv[first + 1]);
				kc_cli_fail(&err);
				return 3;
			}
			g.help_topic = true;
			return cmd->fn(&g, 2, help_argv);
		}
		kc_cli_global_help(stdout);
		return 0;
	}
	cmd = kc_cli_find_command(argv[first]);
	if (cmd == NULL) {
		kc_error_set(&err, 0, "No help topic for '%s'", argv[first]);
		kc_cli_fail(&err);
		return 3;
	}
	/* Commands that put a process running kcrun's image into a container. */
	if ((cmd->fn == kc_cmd_create || cmd->fn == kc_cmd_run || cmd->fn == kc_cmd_exec) &&
	    kc_self_exe_protect(argv, &err) < 0)
		return kc_cli_fail(&err);
	return cmd->fn(&g, argc - first, argv + first);
}
