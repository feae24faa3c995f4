/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation failures: every allocation the library makes, failed in turn,
 * must give a clean -1: never a crash, never a leak (the heap's bytes in
 * use, mallinfo2(), are the same after each run as before it; valgrind,
 * `make -C oci-spec valgrind`, says where).
 * The test binary is linked with -Wl,--wrap for the allocators (see the
 * Makefile); the wrappers only fail while a countdown is armed. */
#include "helpers.h"

#include <errno.h>
#include <malloc.h>
#include <unistd.h>
#include <stdarg.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_reallocarray(void *p, size_t n, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **out, const char *fmt, va_list ap);

/* mallinfo2() counts the chunks glibc keeps in its per-thread cache as in
 * use: the test binary runs with the cache off (re-executed once with the
 * tunable set), so that the bytes in use are exact. */
__attribute__((constructor)) static void tcache_off(int argc, char **argv)
{
	static const char tunable[] = "glibc.malloc.tcache_count=0";
	const char *now = getenv("GLIBC_TUNABLES");
	const char *preload = getenv("LD_PRELOAD");

	(void)argc;
	if ((now && strstr(now, tunable)) || (preload && strstr(preload, "vgpreload")))
		return; /* done, or under valgrind (make valgrind), which has its own malloc */
	setenv("GLIBC_TUNABLES", tunable, 1);
	execv("/proc/self/exe", argv);
	/* not re-executed: the leak check below reports the noise */
}

static long countdown = -1; /* allocations left before the one that fails */
static bool injected;

static bool fail_now(void)
{
	if (countdown < 0)
		return false;
	if (countdown-- == 0) {
		injected = true;
		errno = ENOMEM;
		return true;
	}
	return false;
}

void *__wrap_malloc(size_t size)
{
	return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fail_now() ? NULL : __real_realloc(p, size);
}

void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
	return fail_now() ? NULL : __real_reallocarray(p, n, size);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	return fail_now() ? -1 : __real_vasprintf(out, fmt, ap);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (fail_now())
		return -1;
	va_start(ap, fmt);
	rc = __real_vasprintf(out, fmt, ap);
	va_end(ap);
	return rc;
}

/* Runs op with the n-th allocation failing, for n = 0, 1, ... until op runs
 * through without reaching the failure.  op returns false on a contract
 * violation. */
static void each_allocation_fails(const char *what, bool (*op)(void *), void *arg)
{
	long n, bad = 0, leaky = 0;
	size_t before, after;

	/* once for what the C library allocates on first use (stdio, locale) */
	op(arg);
	for (n = 0; n < 100000; n++) {
		before = mallinfo2().uordblks;
		countdown = n;
		injected = false;
		if (!op(arg))
			bad++;
		countdown = -1;
		after = mallinfo2().uordblks;
		if (after != before) {
			if (leaky++ == 0)
				printf("# %s: allocation %ld failing leaks %zd bytes\n", what, n,
				       (ssize_t)(after - before));
		}
		if (!injected)
			break;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(leaky, 0);
	CHECK(!injected);
	printf("# %s: %ld allocations, each failed once\n", what, n);
}

static bool parse_full(void *json)
{
	struct oci_spec *spec = NULL;
	char *err = NULL, *out = NULL;
	int rc = oci_spec_parse_string(json, strlen(json), &spec, &err);
	bool ok = rc == 0 ? spec != NULL && err == NULL : spec == NULL;

	if (rc == 0 && oci_spec_to_json(spec, &out) == 0)
		free(out);
	free(err);
	oci_spec_free(spec);
	return ok;
}

static bool parse_bad(void *json)
{
	struct oci_spec *spec = NULL;
	char *err = NULL;
	int rc = oci_spec_parse_string(json, strlen(json), &spec, &err);

	/* never succeeds; the message may be lost only to allocation failure */
	free(err);
	return rc == -1 && spec == NULL && (err != NULL || injected);
}

static bool emit_all(void *unused)
{
	struct oci_state s = { .oci_version = "1.2.0", .id = "x", .bundle = "/b", .owner = "" };
	char *out = NULL;

	(void)unused;
	if (oci_map_set(&s.annotations, "k", "v") < 0) {
		oci_map_free(&s.annotations);
		return injected;
	}
	if (oci_state_to_json(&s, &out) == 0)
		free(out);
	if (oci_state_to_hook_json(&s, &out) == 0)
		free(out);
	if (oci_features_to_json(&out) == 0)
		free(out);
	if (oci_spec_default_json(true, &out) == 0)
		free(out);
	oci_map_free(&s.annotations);
	return true;
}

TEST(allocation_failures_while_parsing)
{
	char *json = tap_read_fixture("full.json", NULL);

	if (!CHECK(json))
		return;
	each_allocation_fails("parse+emit full.json", parse_full, json);
	free(json);
}

TEST(allocation_failures_while_reporting_errors)
{
	char bad_type[] = WITH_LINUX("\"namespaces\": [{\"type\": \"pid\"}, {\"type\": \"bogus\"}]");
	char bad_syntax[] = "{\n\"ociVersion\": \"1.2.0\",\n\"x\": [1, 2,]}";
	char too_deep[200];

	memset(too_deep, '[', sizeof(too_deep) - 1);
	too_deep[sizeof(too_deep) - 1] = '\0';
	each_allocation_fails("unknown namespace", parse_bad, bad_type);
	each_allocation_fails("syntax error", parse_bad, bad_syntax);
	each_allocation_fails("nesting", parse_bad, too_deep);
}

TEST(allocation_failures_while_emitting)
{
	each_allocation_fails("emitters", emit_all, NULL);
}
