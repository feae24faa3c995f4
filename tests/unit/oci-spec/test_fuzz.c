/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mutated configs must fail cleanly or parse: never crash, never leak, and a
 * failure always comes with a message.  Deterministic (fixed seed); run the
 * suite under valgrind or ASan to make the "never leak" part bite. */
#include "helpers.h"

#include <stdint.h>

static uint32_t rng_state = 2463534242u;

static uint32_t next_random(void)
{
	/* xorshift32 */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static const char interesting[] = "{}[]\",:0-9eE.\\u \n\tnulltruefalse";

static void mutate(char *buf, size_t len)
{
	size_t n = 1 + next_random() % 4, i;

	for (i = 0; i < n; i++) {
		size_t pos = next_random() % len;

		if (next_random() % 2)
			buf[pos] = interesting[next_random() % (sizeof(interesting) - 1)];
		else
			buf[pos] = (char)(next_random() & 0xff);
	}
}

static int parse_one(const char *buf, size_t len, int *parsed)
{
	struct oci_spec *spec = NULL;
	char *err = NULL;
	int rc = oci_spec_parse_string(buf, len, &spec, &err);

	if (rc == 0) {
		(*parsed)++;
		oci_spec_validate_for_create(spec, &err);
		free(err);
		oci_spec_free(spec);
		return 0;
	}
	if (spec != NULL || err == NULL || err[0] == '\0')
		return -1;
	free(err);
	return 0;
}

static void fuzz_fixture(const char *name, int rounds)
{
	size_t len = 0, cut;
	char *orig = tap_read_fixture(name, &len), *buf;
	int i, parsed = 0, bad = 0;

	if (!CHECK(orig && len > 0))
		return;
	buf = malloc(len);
	if (!CHECK(buf)) {
		free(orig);
		return;
	}
	for (i = 0; i < rounds; i++) {
		memcpy(buf, orig, len);
		mutate(buf, len);
		if (parse_one(buf, len, &parsed) < 0)
			bad++;
		/* every truncation point of the mutated text, sampled */
		cut = next_random() % len;
		if (parse_one(buf, cut, &parsed) < 0)
			bad++;
	}
	CHECK_INT(bad, 0);
	printf("# %s: %d of %d mutated inputs still parsed\n", name, parsed, 2 * rounds);
	free(buf);
	free(orig);
}

TEST(fuzz_full_config)
{
	fuzz_fixture("full.json", 3000);
}

TEST(fuzz_runc_default_config)
{
	fuzz_fixture("runc-spec.json", 1000);
}

TEST(every_truncation_of_full_config_fails_cleanly)
{
	size_t len = 0, cut;
	char *orig = tap_read_fixture("full.json", &len);
	int parsed = 0, bad = 0;

	if (!CHECK(orig))
		return;
	for (cut = 0; cut < len; cut++)
		if (parse_one(orig, cut, &parsed) < 0)
			bad++;
	CHECK_INT(bad, 0);
	CHECK_INT(parsed, 1); /* only the cut that drops the final newline */
	free(orig);
}
