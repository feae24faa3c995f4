/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of units.c: sizes as go-units' RAMInBytes reads them and
 * durations as Go's time.ParseDuration does (what runc's flags accept). */
#include "tap.h"
#include "src/lib/units.h"

#include <inttypes.h>

static void size_ok(const char *text, int64_t expected)
{
	kc_error_t err = NULL;
	int64_t bytes = -42;

	TAP_CALL_OK(kc_parse_ram_in_bytes(text, &bytes, &err), err, "size \"%s\" parses", text);
	TAP_OK(bytes == expected, "size \"%s\" is %" PRId64 " (got %" PRId64 ")", text, expected, bytes);
}

static void size_bad(const char *text)
{
	kc_error_t err = NULL;
	int64_t bytes = 0;
	char needle[128];

	snprintf(needle, sizeof(needle), "invalid size: '%s'", text);
	TAP_CALL_FAILS(kc_parse_ram_in_bytes(text, &bytes, &err), err, needle, "size \"%s\" is refused",
		       text);
}

static void duration_ok(const char *text, int64_t expected)
{
	kc_error_t err = NULL;
	int64_t ns = -42;

	TAP_CALL_OK(kc_parse_duration(text, &ns, &err), err, "duration \"%s\" parses", text);
	TAP_OK(ns == expected, "duration \"%s\" is %" PRId64 " ns (got %" PRId64 ")", text, expected, ns);
}

static void duration_bad(const char *text)
{
	kc_error_t err = NULL;
	int64_t ns = 0;

	TAP_CALL_FAILS(kc_parse_duration(text, &ns, &err), err, "time: invalid duration",
		       "duration \"%s\" is refused", text);
}

void test_units(void)
{
	size_ok("0", 0);
	size_ok("1024", 1024);
	size_ok("100b", 100);
	size_ok("1k", 1024);
	size_ok("1K", 1024);
	size_ok("100M", 100 * 1024 * 1024);
	size_ok("100m", 100 * 1024 * 1024);
	size_ok("100MB", 100 * 1024 * 1024);
	size_ok("100MiB", 100 * 1024 * 1024);
	size_ok("64 M", 64 * 1024 * 1024);
	size_ok("1g", 1024LL * 1024 * 1024);
	size_ok("1.5G", 1536LL * 1024 * 1024);
	size_ok("2t", 2LL << 40);
	size_ok("3P", 3LL << 50);
	size_ok("0.5k", 512);
	size_bad("");
	size_bad("-1");
	size_bad("abc");
	size_bad("1x");
	size_bad("1 M ");
	size_bad("1  M");
	size_bad("1.2.3M");
	size_bad(".5M");
	size_bad("1MBB");
	size_bad("M");
	size_bad("100000P"); /* beyond int64 */

	duration_ok("5s", 5000000000LL);
	duration_ok("0", 0);
	duration_ok("250ms", 250000000LL);
	duration_ok("1m30s", 90000000000LL);
	duration_ok("1.5h", 5400000000000LL);
	duration_ok("10us", 10000);
	duration_ok("10\xc2\xb5s", 10000);
	duration_ok("7ns", 7);
	duration_ok("-2s", -2000000000LL);
	duration_ok(".5s", 500000000LL);
	duration_bad("");
	duration_bad("5");
	duration_bad("s");
	duration_bad("5x");
	duration_bad("5 s");
	duration_bad("1mss");
	duration_bad("-");
	duration_bad("99999999999h");
}
