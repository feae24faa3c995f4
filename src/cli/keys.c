/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcrun keys: the keys of a container (grant, revoke, list, add) and its
 * request-key service (serve); see kcrun(8) and src/lib/keys.h. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lib/cleanup.h"
#include "lib/fileio.h"
#include "lib/kcontainer.h"
#include "lib/keys.h"
#include "lib/keys_serve.h"
#include "lib/log.h"
#include "lib/rootless.h"
#include "lib/state.h"

static int keys_grant(struct kc_global *g, int argc, char **argv);
static int keys_revoke(struct kc_global *g, int argc, char **argv);
static int keys_list(struct kc_global *g, int argc, char **argv);
static int keys_add(struct kc_global *g, int argc, char **argv);
static int keys_serve(struct kc_global *g, int argc, char **argv);

static const struct kc_command keys_commands[] = {
	{"keys grant", "grant a key to a container", "[command options] <container-id> <key>",
	 "Links the key (a serial kcrun's caller possesses) into the container's keyring:\n"
	 "   its members find it with request_key(2), and the kernel's own users of keys\n"
	 "   (fscrypt, ...) find it for them, but cannot read, describe or link it.  The key\n"
	 "   must grant search to its possessor; its user, group and other rights are\n"
	 "   removed first (a container of the same uid would have them) unless\n"
	 "   --keep-perms.",
	 2, 2, keys_grant, false},
	{"keys revoke", "revoke a key granted to a container", "<container-id> <key>",
	 "Unlinks the key from the container's keyring: requests made from now on do not\n"
	 "   find it.",
	 2, 2, keys_revoke, false},
	{"keys list", "list the keys granted to a container", "<container-id>",
	 "One line per key: SERIAL TYPE PERM DESCRIPTION (PERM in hex, as /proc/keys).",
	 1, 1, keys_list, false},
	{"keys add", "make a key for a container", "<container-id> <type> <description>",
	 "Makes a key of TYPE and DESCRIPTION whose payload is read from stdin, possessor-\n"
	 "   only, and grants it to the container alone: it lives as long as the container\n"
	 "   (or until revoked).  Prints its serial.",
	 3, 3, keys_add, false},
	{"keys serve", "serve a container's request-key upcalls",
	 "[command options] <container-id>",
	 "Answers the request_key(2) upcalls of the container's members (and of the kernel\n"
	 "   acting for them) for the types given (--type, repeatable; none: every type).\n"
	 "   Prints \"ready\" once registered; SIGUSR1 prints the counters, SIGTERM removes\n"
	 "   the intercepts and exits.  A request is answered from --static DESC=VALUE,\n"
	 "   else by --handler PROG (argv: type, description, uid, gid, container id;\n"
	 "   stdin: the callout data; stdout: the payload; non-zero exit: reject), else\n"
	 "   rejected.",
	 1, 1, keys_serve, false},
	{NULL, NULL, NULL, NULL, 0, 0, NULL, false},
};

/* kc_cli_parse_args for a subcommand (not in the global table). */
static int parse_sub(const struct kc_command *cmd, struct kc_opt *opts, int argc, char **argv,
		     int *first)
{
	int ret = kc_cli_parse_opts(cmd, opts, argc, argv, first), nargs;
	char msg[160];

	if (ret != 0)
		return ret;
	nargs = argc - *first;
	if (nargs == cmd->min_args && nargs == cmd->max_args)
		return 0;
	if (cmd->min_args == cmd->max_args)
		snprintf(msg, sizeof(msg), "\"%s\" requires exactly %d argument(s)", cmd->name,
			 cmd->min_args);
	else if (nargs < cmd->min_args)
		snprintf(msg, sizeof(msg), "\"%s\" requires a minimum of %d argument(s)", cmd->name,
			 cmd->min_args);
	else if (cmd->max_args >= 0 && nargs > cmd->max_args)
		snprintf(msg, sizeof(msg), "\"%s\" requires a maximum of %d argument(s)", cmd->name,
			 cmd->max_args);
	else
		return 0;
	printf("Incorrect Usage.\n\n");
	kc_cli_command_help(cmd, opts, stdout);
	kc_log_error(msg);
	return -1;
}

/* The container must exist under --root (runc's "container does not
 * exist"); its kernel object is then opened by name. */
static int open_container(struct kc_global *g, const char *id, kc_error_t *err)
{
	struct kc_state st;
	int cfd;

	if (kc_state_read(g->root, id, &st, err) < 0)
		return -1;
	if (kc_rootless_join(st.pid, err) < 0) {
		kc_state_free(&st);
		return -1;
	}
	kc_state_free(&st);
	/* an object whose init died and that nobody holds is gone */
	cfd = kc_container_open(id);
	if (cfd < 0 && errno == ENOENT)
		return kc_error_set(err, 0, "container %s is not running: its keyring is gone", id);
	if (cfd < 0)
		return kc_error_set(err, errno, "container_open `%s`", id);
	return cfd;
}

static int keys_grant(struct kc_global *g, int argc, char **argv)
{
	bool keep_perms = false, stripped;
	struct kc_opt opts[] = {
		{"keep-perms", 0, KC_OPT_FLAG, &keep_perms,
		 "leave the key's user, group and other rights alone"},
		{NULL, 0, 0, NULL, NULL},
	};
	cleanup_close int cfd = -1;
	kc_key_serial_t key;
	kc_error_t err = NULL;
	int first, r;

	r = parse_sub(&keys_commands[0], opts, argc, argv, &first);
	if (r != 0)
		return r == KC_CLI_HELP ? 0 : 1;
	if (kc_keys_parse_serial(argv[first + 1], &key, &err) < 0)
		return kc_cli_fail(&err);
	cfd = open_container(g, argv[first], &err);
	if (cfd < 0 || kc_keys_grant(cfd, argv[first], key, keep_perms, &stripped, &err) < 0)
		return kc_cli_fail(&err);
	if (stripped)
		kc_log_warn("key %" PRId32 ": its user, group and other rights were removed", key);
	return 0;
}

static int keys_revoke(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	cleanup_close int cfd = -1;
	kc_key_serial_t key;
	kc_error_t err = NULL;
	int first, r;

	r = parse_sub(&keys_commands[1], opts, argc, argv, &first);
	if (r != 0)
		return r == KC_CLI_HELP ? 0 : 1;
	if (kc_keys_parse_serial(argv[first + 1], &key, &err) < 0)
		return kc_cli_fail(&err);
	cfd = open_container(g, argv[first], &err);
	if (cfd < 0 || kc_keys_revoke(cfd, argv[first], key, &err) < 0)
		return kc_cli_fail(&err);
	return 0;
}

static int keys_list(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	cleanup_close int cfd = -1;
	struct kc_key_entry *e;
	kc_error_t err = NULL;
	int first, r;
	size_t n, i;

	r = parse_sub(&keys_commands[2], opts, argc, argv, &first);
	if (r != 0)
		return r == KC_CLI_HELP ? 0 : 1;
	cfd = open_container(g, argv[first], &err);
	if (cfd < 0 || kc_keys_list(cfd, argv[first], &e, &n, &err) < 0)
		return kc_cli_fail(&err);
	for (i = 0; i < n; i++) {
		char desc[512];

		if (e[i].raw == NULL) {
			printf("%" PRId32 " ? ? ?\n", e[i].serial);
			continue;
		}
		kc_keys_escape(e[i].info.description, strlen(e[i].info.description), desc,
			       sizeof(desc));
		printf("%" PRId32 " %s %08" PRIx32 " %s\n", e[i].serial, e[i].info.type,
		       e[i].info.perm, desc);
	}
	kc_keys_list_free(e, n);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* stdin, whole, up to a key's payload limit (kc_read_fd). */
static int read_payload(char **data, size_t *len, kc_error_t *err)
{
	int rc = kc_read_fd(0, KC_KEY_PAYLOAD_MAX + 1, data, len);

	if (rc == -EFBIG)
		return kc_error_set(err, 0, "the payload on stdin is over %d bytes",
				    KC_KEY_PAYLOAD_MAX);
	if (rc < 0)
		return kc_error_set(err, -rc, "read the payload from stdin");
	return 0;
}

static int keys_add(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	cleanup_close int cfd = -1;
	cleanup_free char *payload = NULL;
	kc_key_serial_t key;
	kc_error_t err = NULL;
	size_t len = 0;
	int first, r;

	r = parse_sub(&keys_commands[3], opts, argc, argv, &first);
	if (r != 0)
		return r == KC_CLI_HELP ? 0 : 1;
	cfd = open_container(g, argv[first], &err);
	if (cfd < 0 || read_payload(&payload, &len, &err) < 0 ||
	    kc_keys_add(cfd, argv[first], argv[first + 1], argv[first + 2], payload, len, &key,
			&err) < 0)
		return kc_cli_fail(&err);
	printf("%" PRId32 "\n", key);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int keys_serve(struct kc_global *g, int argc, char **argv)
{
	struct kc_strlist types = {0}, statics = {0};
	const char *handler = NULL;
	int max_pending = 0, timeout = KC_KEYS_SERVE_DEFAULT_TIMEOUT;
	bool deny_other = false, replace = false;
	struct kc_opt opts[] = {
		{"type", 't', KC_OPT_LIST, &types, "a key type to serve (repeatable; none: every type)"},
		{"static", 0, KC_OPT_LIST, &statics,
		 "DESCRIPTION=VALUE: the payload for that description (repeatable)"},
		{"handler", 0, KC_OPT_STRING, &handler,
		 "program (absolute path) that answers the other requests"},
		{"max-pending", 0, KC_OPT_INT, &max_pending,
		 "requests queued per type before the kernel refuses more (EDQUOT; default 64)"},
		{"timeout", 0, KC_OPT_INT, &timeout, "seconds a request may take (default 10)"},
		{"deny-other", 0, KC_OPT_FLAG, &deny_other,
		 "also intercept every other type, and reject it"},
		{"replace", 0, KC_OPT_FLAG, &replace,
		 "take over the types another service intercepts (one killed without SIGTERM)"},
		{NULL, 0, 0, NULL, NULL},
	};
	/* for tests: a pipe that loses notes (kcrun(8), ENVIRONMENT) */
	const char *notes_env = getenv("KCRUN_KEYS_SERVE_NOTES");
	unsigned int notes = notes_env ? (unsigned int)strtoul(notes_env, NULL, 10) : 0;
	struct kc_keys_static *st = NULL;
	struct kc_keys_serve_opts o;
	cleanup_close int cfd = -1;
	kc_error_t err = NULL;
	int first, r, i, ret = 1;

	r = parse_sub(&keys_commands[4], opts, argc, argv, &first);
	if (r != 0) {
		ret = r == KC_CLI_HELP ? 0 : 1;
		goto out;
	}
	if (max_pending < 0 || timeout <= 0) {
		kc_error_set(&err, 0, "--max-pending and --timeout take positive numbers");
		kc_cli_fail(&err);
		goto out;
	}
	st = calloc((size_t)statics.n + 1, sizeof(*st));
	if (st == NULL)
		goto out;
	for (i = 0; i < statics.n; i++)
		if (kc_keys_static_parse(statics.v[i], &st[i], &err) < 0) {
			kc_cli_fail(&err);
			goto out;
		}
	o = (struct kc_keys_serve_opts){
		.id = argv[first],
		.types = (const char *const *)types.v,
		.n_types = (size_t)types.n,
		.statics = st,
		.n_statics = (size_t)statics.n,
		.handler = handler,
		.max_pending = (unsigned int)max_pending,
		.timeout = (unsigned int)timeout,
		.deny_other = deny_other,
		.replace = replace,
		.notes = notes,
		.out = stdout,
		.log_fd = STDERR_FILENO,
	};
	if (kc_keys_serve_check(&o, &err) < 0) {
		kc_cli_fail(&err);
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	cfd = open_container(g, argv[first], &err);
	if (cfd < 0 || kc_keys_serve(cfd, &o, &err) < 0) {
		kc_cli_fail(&err);
		goto out;
	}
	ret = 0;
out:
	for (i = 0; st && i < statics.n; i++)
		free((char *)st[i].description);
	free(st);
	free(types.v);
	free(statics.v);
	return ret;
}

int kc_cmd_keys(struct kc_global *g, int argc, char **argv)
{
	struct kc_opt opts[] = {{NULL, 0, 0, NULL, NULL}};
	const struct kc_command *c;
	kc_error_t err = NULL;
	int first;

	if (kc_cli_parse("keys", opts, argc, argv, &first) < 0)
		return 1;
	for (c = keys_commands; c->name; c++)
		if (strcmp(c->name + strlen("keys "), argv[first]) == 0)
			return c->fn(g, argc - first, argv + first);
	kc_error_set(&err, 0, "unknown keys command \"%s\" (grant, revoke, list, add, serve)",
		     argv[first]);
	return kc_cli_fail(&err);
}
