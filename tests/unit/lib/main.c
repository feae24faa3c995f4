/* Host unit tests of the concern modules: one TAP stream. */
#include "tap.h"

int tap_count, tap_failed;

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
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
