/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun checkpoint / restore: runc's commands, so that scripts and test
 * suites find them (help, flags), refused: kcrun has no CRIU support. */
#include "cli.h"

static int refuse(const char *cmd, int argc, char **argv)
{
	const char *image_path = NULL, *work_path = NULL, *parent_path = NULL, *bundle = NULL,
		   *pid_file = NULL, *console_socket = NULL, *manage_cgroups = NULL;
	bool flag = false;
	struct kc_opt opts[] = {
		{"image-path", 0, KC_OPT_STRING, &image_path, "path for saving criu image files"},
		{"work-path", 0, KC_OPT_STRING, &work_path,
		 "path for saving work files and logs"},
		{"parent-path", 0, KC_OPT_STRING, &parent_path,
		 "path for previous criu image files in pre-dump"},
		{"leave-running", 0, KC_OPT_FLAG, &flag, "leave the process running after checkpointing"},
		{"tcp-established", 0, KC_OPT_FLAG, &flag, "allow open tcp connections"},
		{"ext-unix-sk", 0, KC_OPT_FLAG, &flag, "allow external unix sockets"},
		{"shell-job", 0, KC_OPT_FLAG, &flag, "allow shell jobs"},
		{"file-locks", 0, KC_OPT_FLAG, &flag, "handle file locks, for safety"},
		{"manage-cgroups-mode", 0, KC_OPT_STRING, &manage_cgroups,
		 "cgroups mode: 'soft' (default), 'full' and 'strict'"},
		{"detach", 'd', KC_OPT_FLAG, &flag, "detach from the container's process (restore)"},
		{"bundle", 'b', KC_OPT_STRING, &bundle, "path to the root of the bundle directory (restore)"},
		{"pid-file", 0, KC_OPT_STRING, &pid_file,
		 "specify the file to write the process id to (restore)"},
		{"console-socket", 0, KC_OPT_STRING, &console_socket,
		 "path to an AF_UNIX socket which will receive the console's master (restore)"},
		{NULL, 0, 0, NULL, NULL},
	};
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse(cmd, opts, argc, argv, &first) < 0)
		return 1;
	kc_error_set(&err, 0, "%s is not supported by kcrun (no CRIU support)", cmd);
	return kc_cli_fail(&err);
}

int kc_cmd_checkpoint(struct kc_global *g, int argc, char **argv)
{
	(void)g;
	return refuse("checkpoint", argc, argv);
}

int kc_cmd_restore(struct kc_global *g, int argc, char **argv)
{
	(void)g;
	return refuse("restore", argc, argv);
}
