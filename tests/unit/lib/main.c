/* Host unit tests of the concern modules: one TAP stream. */
#include "tap.h"

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
	test_terminal();
	test_seccomp();
	test_hooks();
	test_cgroup();
	test_cgroup_devices();
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
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
