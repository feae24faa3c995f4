/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal TAP harness for the oci-spec unit tests.
 *
 *   TEST(parses_default_spec) { ... CHECK(cond); CHECK_STR(a, b); ... }
 *
 * Tests register themselves at load time and run in registration order; each
 * prints one "ok N - name" / "not ok N - name" line, diagnostics as "# ..."
 * lines.  The program exits 1 if any test failed.
 */
#ifndef OCI_SPEC_TESTS_TAP_H
#define OCI_SPEC_TESTS_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct tap_test {
	const char *name;
	void (*fn)(void);
	struct tap_test *next;
};

void tap_register(struct tap_test *test);
/* Records a failure of the running test; returns false. */
bool tap_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Marks the running test skipped ("ok N - name # SKIP reason"). */
void tap_skip(const char *reason);
/* Directory holding the fixtures (argv[1] or $OCI_SPEC_FIXTURES). */
const char *tap_fixtures(void);
/* Reads fixtures/<name> into a malloc'ed, NUL-terminated buffer; NULL on error. */
char *tap_read_fixture(const char *name, size_t *len);

#define TEST(name)                                                          \
	static void test_##name(void);                                      \
	static struct tap_test tap_test_##name = { #name, test_##name, 0 }; \
	__attribute__((constructor)) static void tap_reg_##name(void)       \
	{                                                                   \
		tap_register(&tap_test_##name);                             \
	}                                                                   \
	static void test_##name(void)

#define CHECK(cond) ((cond) ? true : tap_fail(__FILE__, __LINE__, "check failed: %s", #cond))

#define CHECK_STR(actual, expected)                                                               \
	({                                                                                        \
		const char *a_ = (actual), *e_ = (expected);                                      \
		(a_ && e_ && strcmp(a_, e_) == 0) || (!a_ && !e_)                                 \
			? true                                                                    \
			: tap_fail(__FILE__, __LINE__, "%s:\n#   got:      %s\n#   expected: %s", \
				   #actual, a_ ? a_ : "(null)", e_ ? e_ : "(null)");              \
	})

#define CHECK_INT(actual, expected)                                                             \
	({                                                                                      \
		long long a_ = (long long)(actual), e_ = (long long)(expected);                 \
		a_ == e_ ? true                                                                 \
			 : tap_fail(__FILE__, __LINE__, "%s: got %lld, expected %lld", #actual, \
				    a_, e_);                                                    \
	})

#endif
