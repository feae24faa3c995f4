/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun checkpoint / restore: runc's commands, listed so that scripts and
 * test suites find them (`kcrun help checkpoint` shows runc's flags), and
 * refused: kcrun has no CRIU support.  Whatever follows the command is
 * refused too, --help included: podman (containers/common's
 * CRRuntimeSupportsCheckpointRestore) takes a zero exit of
 * `RUNTIME checkpoint --help` for checkpoint support, and runc's "flag
 * needs an argument" from `restore --lsm-mount-context` for pod restore;
 * crun built without CRIU has no such command at all. */
#include "cli.h"

/* `kcrun help CMD`: the help text, as runc's; anything else: refused. */
static int refuse(const struct kc_global *g, const char *cmd, struct kc_opt *opts, int argc,
		  char **argv)
{
	kc_error_t err = NULL;
	int first;

	if (g->help_topic && kc_cli_parse(cmd, opts, argc, argv, &first) < 0)
		return 1;
	kc_error_set(&err, 0, "%s is not supported by kcrun (no CRIU support)", cmd);
	return kc_cli_fail(&err);
}

int kc_cmd_checkpoint(struct kc_global *g, int argc, char **argv)
{
	const char *image_path = NULL, *work_path = NULL, *parent_path = NULL,
		   *manage_cgroups = NULL, *page_server = NULL, *empty_ns = NULL;
	bool flag = false;
	int status_fd = -1;
	struct kc_opt opts[] = {
		{"image-path", 0, KC_OPT_STRING, &image_path, "path for saving criu image files"},
		{"work-path", 0, KC_OPT_STRING, &work_path, "path for saving work files and logs"},
		{"parent-path", 0, KC_OPT_STRING, &parent_path,
		 "path for previous criu image files in pre-dump"},
		{"leave-running", 0, KC_OPT_FLAG, &flag, "leave the process running after checkpointing"},
		{"tcp-established", 0, KC_OPT_FLAG, &flag, "allow open tcp connections"},
		{"ext-unix-sk", 0, KC_OPT_FLAG, &flag, "allow external unix sockets"},
		{"shell-job", 0, KC_OPT_FLAG, &flag, "allow shell jobs"},
		{"lazy-pages", 0, KC_OPT_FLAG, &flag, "use userfaultfd to lazily restore memory pages"},
		{"status-fd", 0, KC_OPT_INT, &status_fd,
		 "criu writes \\0 to this FD once lazy-pages is ready (default: -1)"},
		{"page-server", 0, KC_OPT_STRING, &page_server, "ADDRESS:PORT of the page server"},
		{"file-locks", 0, KC_OPT_FLAG, &flag, "handle file locks, for safety"},
		{"pre-dump", 0, KC_OPT_FLAG, &flag,
		 "dump container's memory information only, leave the container running after this"},
		{"manage-cgroups-mode", 0, KC_OPT_STRING, &manage_cgroups,
		 "cgroups mode: 'soft' (default), 'full' and 'strict'"},
		{"empty-ns", 0, KC_OPT_STRING, &empty_ns,
		 "create a namespace, but don't restore its properties"},
		{"auto-dedup", 0, KC_OPT_FLAG, &flag, "enable auto deduplication of memory images"},
		{NULL, 0, 0, NULL, NULL},
	};

	return refuse(g, "checkpoint", opts, argc, argv);
}

int kc_cmd_restore(struct kc_global *g, int argc, char **argv)
{
	const char *console_socket = NULL, *image_path = NULL, *work_path = NULL,
		   *manage_cgroups = NULL, *bundle = NULL, *pid_file = NULL, *empty_ns = NULL,
		   *lsm_profile = NULL, *lsm_mount_context = NULL;
	bool flag = false;
	struct kc_opt opts[] = {
		{"console-socket", 0, KC_OPT_STRING, &console_socket,
		 "path to an AF_UNIX socket which will receive a file descriptor referencing the "
		 "master end of the console's pseudoterminal"},
		{"image-path", 0, KC_OPT_STRING, &image_path, "path to criu image files for restoring"},
		{"work-path", 0, KC_OPT_STRING, &work_path, "path for saving work files and logs"},
		{"tcp-established", 0, KC_OPT_FLAG, &flag, "allow open tcp connections"},
		{"ext-unix-sk", 0, KC_OPT_FLAG, &flag, "allow external unix sockets"},
		{"shell-job", 0, KC_OPT_FLAG, &flag, "allow shell jobs"},
		{"file-locks", 0, KC_OPT_FLAG, &flag, "handle file locks, for safety"},
		{"manage-cgroups-mode", 0, KC_OPT_STRING, &manage_cgroups,
		 "cgroups mode: 'soft' (default), 'full' and 'strict'"},
		{"bundle", 'b', KC_OPT_STRING, &bundle, "path to the root of the bundle directory"},
		{"detach", 'd', KC_OPT_FLAG, &flag, "detach from the container's process"},
		{"pid-file", 0, KC_OPT_STRING, &pid_file, "specify the file to write the process id to"},
		{"no-subreaper", 0, KC_OPT_FLAG, &flag,
		 "disable the use of the subreaper used to reap reparented processes"},
		{"no-pivot", 0, KC_OPT_FLAG, &flag, "do not use pivot root to jail process inside rootfs"},
		{"empty-ns", 0, KC_OPT_STRING, &empty_ns,
		 "create a namespace, but don't restore its properties"},
		{"auto-dedup", 0, KC_OPT_FLAG, &flag, "enable auto deduplication of memory images"},
		{"lazy-pages", 0, KC_OPT_FLAG, &flag, "use userfaultfd to lazily restore memory pages"},
		{"lsm-profile", 0, KC_OPT_STRING, &lsm_profile,
		 "Specify an LSM profile to be used during restore in the form of TYPE:NAME."},
		{"lsm-mount-context", 0, KC_OPT_STRING, &lsm_mount_context,
		 "Specify an LSM mount context to be used during restore."},
		{NULL, 0, 0, NULL, NULL},
	};

	return refuse(g, "restore", opts, argc, argv);
}
