/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `kcrun features` against what the library does with a config: every
 * seccomp action and supported flag it lists builds a filter, every one
 * that is refused is left out; every mount option it lists is taken (the
 * refused idmap/ridmap are not listed). */
#include "tap.h"
#include "src/lib/mount_opts.h"
#include "src/lib/seccomp.h"

#include <yajl/yajl_tree.h>

static yajl_val features(void)
{
	char *json = NULL, err[256];
	yajl_val tree = NULL;

	if (oci_features_to_json(&json) == 0)
		tree = yajl_tree_parse(json, err, sizeof(err));
	free(json);
	return tree;
}

static bool listed(yajl_val tree, const char **path, const char *name)
{
	yajl_val array = yajl_tree_get(tree, path, yajl_t_array);
	size_t i;

	for (i = 0; array && i < YAJL_GET_ARRAY(array)->len; i++) {
		const char *s = YAJL_GET_STRING(YAJL_GET_ARRAY(array)->values[i]);

		if (s && strcmp(s, name) == 0)
			return true;
	}
	return false;
}

static bool profile_builds(struct oci_seccomp *profile)
{
	scmp_filter_ctx ctx = NULL;
	kc_error_t err = NULL;
	int rc = kc_seccomp_build(profile, &ctx, &err);

	kc_error_free(&err);
	kc_seccomp_release(ctx);
	return rc == 0;
}

/* A rule with the action (SCMP_ACT_NOTIFY's with the listenerPath it
 * needs: building connects nowhere). */
static bool action_builds(enum oci_seccomp_action action)
{
	char *names[] = { (char *)"acct" };
	struct oci_seccomp_syscall rule = { .names = names, .names_len = 1, .action = action };
	struct oci_seccomp profile = { .default_action = OCI_SECCOMP_ACT_ALLOW,
				       .syscalls = &rule, .syscalls_len = 1,
				       .listener_path = (char *)"/run/agent.sock" };

	return profile_builds(&profile);
}

static bool flag_builds(const char *flag)
{
	char *flags[] = { (char *)flag };
	struct oci_seccomp profile = { .default_action = OCI_SECCOMP_ACT_ALLOW,
				       .flags = flags, .flags_len = 1 };

	return profile_builds(&profile);
}

static bool option_taken(const char *name)
{
	char *options[] = { (char *)name };
	struct oci_mount m = { .destination = "/mnt", .type = "tmpfs", .source = "tmpfs",
			       .options = options, .options_len = 1 };
	struct kc_mount_opts o;
	kc_error_t err = NULL;
	int rc = kc_mount_opts_parse(&m, 0, &o, &err);

	kc_error_free(&err);
	kc_mount_opts_release(&o);
	return rc == 0;
}

void test_features(void)
{
	const char *actions[] = { "linux", "seccomp", "actions", NULL };
	const char *known[] = { "linux", "seccomp", "knownFlags", NULL };
	const char *supported[] = { "linux", "seccomp", "supportedFlags", NULL };
	const char *mount_options[] = { "mountOptions", NULL };
	const char *apparmor[] = { "linux", "apparmor", "enabled", NULL };
	const char *selinux[] = { "linux", "selinux", "enabled", NULL };
	const char *intel_rdt[] = { "linux", "intelRdt", "enabled", NULL };
	const char *idmap[] = { "linux", "mountExtensions", "idmap", "enabled", NULL };
	yajl_val tree = features(), array;
	bool ok = true;
	size_t i;
	int a;

	TAP_OK(tree != NULL, "features: the JSON parses");
	for (a = 0; a < OCI_SECCOMP_ACT__COUNT; a++) {
		const char *name = oci_seccomp_action_name((enum oci_seccomp_action)a);

		if (listed(tree, actions, name) != action_builds((enum oci_seccomp_action)a)) {
			printf("# %s: listed %d, builds %d\n", name, listed(tree, actions, name),
			       action_builds((enum oci_seccomp_action)a));
			ok = false;
		}
	}
	TAP_OK(tree && ok, "features: seccomp actions are exactly the ones a filter is built "
			   "with");

	ok = tree != NULL;
	array = tree ? yajl_tree_get(tree, known, yajl_t_array) : NULL;
	for (i = 0; array && i < YAJL_GET_ARRAY(array)->len; i++) {
		const char *flag = YAJL_GET_STRING(YAJL_GET_ARRAY(array)->values[i]);

		if (listed(tree, supported, flag) != flag_builds(flag)) {
			printf("# %s: supported %d, builds %d\n", flag, listed(tree, supported, flag),
			       flag_builds(flag));
			ok = false;
		}
	}
	TAP_OK(array && ok, "features: supportedFlags are exactly the known seccomp flags a "
			    "filter is built with (WAIT_KILLABLE_RECV refused, not supported)");

	ok = tree != NULL;
	for (i = 0; i < oci_mount_options_len; i++) {
		const char *name = oci_mount_options[i].name;

		if (listed(tree, mount_options, name) && !option_taken(name)) {
			printf("# %s: listed but refused\n", name);
			ok = false;
		}
	}
	TAP_OK(ok && !listed(tree, mount_options, "idmap") && !listed(tree, mount_options, "ridmap") &&
		       !option_taken("idmap") && !option_taken("ridmap"),
	       "features: every listed mount option is taken; idmap and ridmap, refused, are not listed");

	TAP_OK(tree && YAJL_IS_TRUE(yajl_tree_get(tree, apparmor, yajl_t_any)) &&
		       YAJL_IS_TRUE(yajl_tree_get(tree, selinux, yajl_t_any)),
	       "features: apparmor and selinux enabled (procattrs.c applies both)");
	TAP_OK(tree && YAJL_IS_FALSE(yajl_tree_get(tree, intel_rdt, yajl_t_any)) &&
		       YAJL_IS_FALSE(yajl_tree_get(tree, idmap, yajl_t_any)),
	       "features: intelRdt and mountExtensions.idmap disabled (both refused)");
	yajl_tree_free(tree);
}
