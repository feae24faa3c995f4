/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host unit tests of the concern modules: one TAP stream.
 *
 * The plan is printed first and fixed here: a suite that returns early
 * (a failed set-up, a crash in a forked child) drops tests, and tap-count
 * counts every planned test that never reported as a failure.  Adding or
 * removing a test means changing KC_UNIT_PLAN; a mismatch fails the run
 * and says by how much. */
#include "tap.h"

#define KC_UNIT_PLAN 744

int tap_count, tap_failed;

void tap_put_file(const char *dir, const char *file, const char *content)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%d\n", KC_UNIT_PLAN);
	test_terminal();
	test_seccomp();
	test_hooks();
	test_cgroup();
	test_cgroup_devices();
	test_bpf_cache();
	test_network();
	test_units();
	test_stats();
	test_state();
	test_signals();
	test_cli();
	test_list();
	test_procattrs();
	test_procfs();
	test_pidfile();
	test_keys();
	test_rootless();
	test_mount_opts();
	test_unsupported();
	test_descendants();
	test_copyup();
	test_features();
	test_systemd_unit();
	test_notify_socket();
	if (tap_count != KC_UNIT_PLAN) {
		printf("# planned %d tests, ran %d: a suite returned early or KC_UNIT_PLAN is stale\n",
		       KC_UNIT_PLAN, tap_count);
		return 1;
	}
	return tap_failed ? 1 : 0;
}
