/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What --help, `kcrun help` and --version print, in runc's layout. */
#include <seccomp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lib/state.h"
#include "oci-spec/spec.h"

/* The commit the binary was built from: src/Makefile passes
 * `git describe --always --dirty` (-DKCRUN_COMMIT=...); "unknown" when the
 * build was not made in a git tree. */
#ifndef KCRUN_COMMIT
#define KCRUN_COMMIT "unknown"
#endif

/* runc's lines: version, commit, spec, then the libraries (libseccomp). */
void kc_cli_version(void)
{
	const struct scmp_version *v = seccomp_version();

	printf("kcrun version %s\ncommit: %s\nspec: %s\n", KCRUN_VERSION, KCRUN_COMMIT,
	       OCI_SPEC_VERSION);
	if (v)
		printf("libseccomp: %u.%u.%u\n", v->major, v->minor, v->micro);
}

void kc_cli_global_help(FILE *out)
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
		"   --systemd-cgroup         enable systemd cgroup support, expects cgroupsPath to be of form \"slice:prefix:name\" for e.g. \"system.slice:kcrun:434234\"\n"
		"   --cgroup-manager value   cgroup manager: 'cgroupfs', 'systemd' or 'disabled'\n"
		"   --help, -h               show help\n"
		"   --version, -v            print the version\n",
		KC_DEFAULT_ROOT);
}

/* "--name value, -n value": an option's left column. */
static void option_left(const struct kc_opt *o, char *left, size_t size)
{
	const char *value = o->kind == KC_OPT_FLAG ? "" : " value";

	if (o->short_name)
		snprintf(left, size, "--%s%s, -%c%s", o->name, value, o->short_name, value);
	else
		snprintf(left, size, "--%s%s", o->name, value);
}

/* The options in two columns, the descriptions two spaces after the
 * longest left column, as urfave/cli's tabwriter lays them out. */
void kc_cli_command_help(const struct kc_command *cmd, const struct kc_opt *opts, FILE *out)
{
	const struct kc_opt *o;
	char left[128];
	int width = 0;

	fprintf(out, "NAME:\n   kcrun %s - %s\n\nUSAGE:\n   kcrun %s %s\n", cmd->name, cmd->summary,
		cmd->name, cmd->usage);
	if (cmd->description)
		fprintf(out, "\nDESCRIPTION:\n   %s\n", cmd->description);
	if (opts == NULL || opts->name == NULL)
		return;
	for (o = opts; o->name; o++) {
		option_left(o, left, sizeof(left));
		if ((int)strlen(left) > width)
			width = (int)strlen(left);
	}
	fprintf(out, "\nOPTIONS:\n");
	for (o = opts; o->name; o++) {
		option_left(o, left, sizeof(left));
		fprintf(out, "   %-*s  %s\n", width, left, o->help);
	}
}
