/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TAP runner for the oci-spec unit tests (see tap.h). */
#include "tap.h"

#include <stdarg.h>
#include <stdlib.h>

static struct tap_test *first, **last = &first;
static bool current_failed;
static const char *current_skip;
static const char *fixtures_dir = "fixtures";

void tap_register(struct tap_test *test)
{
	*last = test;
	last = &test->next;
}

bool tap_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	current_failed = true;
	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return false;
}

void tap_skip(const char *reason)
{
	current_skip = reason;
}

const char *tap_fixtures(void)
{
	return fixtures_dir;
}

char *tap_read_fixture(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf = NULL;
	long size;

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size + 1);
		if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[size] = '\0';
			if (len)
				*len = (size_t)size;
		}
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *env = getenv("OCI_SPEC_FIXTURES");
	struct tap_test *t;
	int n = 0, failed = 0;

	if (argc > 1)
		fixtures_dir = argv[1];
	else if (env)
		fixtures_dir = env;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (t = first; t; t = t->next)
		n++;
	printf("1..%d\n", n);
	n = 0;
	for (t = first; t; t = t->next) {
		current_failed = false;
		current_skip = NULL;
		t->fn();
		n++;
		if (current_failed)
			failed++;
		printf("%sok %d - %s%s%s\n", current_failed ? "not " : "", n, t->name,
		       current_skip ? " # SKIP " : "", current_skip ? current_skip : "");
	}
	if (failed)
		printf("# %d of %d tests failed\n", failed, n);
	return failed ? 1 : 0;
}
