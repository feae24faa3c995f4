/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sizes and durations as runc's flags take them: see units.h. */
#include "units.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the \d+(\.\d+)? at s (0: none). */
static size_t number_length(const char *s)
{
	size_t len = 0;

	while (is_digit(s[len]))
		len++;
	if (len > 0 && s[len] == '.' && is_digit(s[len + 1])) {
		len++;
		while (is_digit(s[len]))
			len++;
	}
	return len;
}

int kc_parse_ram_in_bytes(const char *text, int64_t *bytes, kc_error_t *err)
{
	static const char units[] = "kmgtp";
	const char *s = text, *unit;
	size_t number_len = number_length(text);
	char number[64];
	double size, multiplier = 1;
	int power = 0, i;

	if (number_len == 0 || number_len >= sizeof(number))
		goto invalid;
	memcpy(number, text, number_len);
	number[number_len] = '\0';
	s += number_len;
	if (*s == ' ')
		s++;
	if (*s && (unit = strchr(units, *s | 0x20)) != NULL) {
		power = (int)(unit - units) + 1;
		s++;
	}
	if (*s == 'i' || *s == 'I')
		s++;
	if (*s == 'b' || *s == 'B')
		s++;
	if (*s != '\0')
		goto invalid;
	errno = 0;
	size = strtod(number, NULL);
	if (errno != 0)
		goto invalid;
	for (i = 0; i < power; i++)
		multiplier *= 1024;
	size *= multiplier;
	/* 2^63: the first double int64_t cannot hold. */
	if (!(size < 9223372036854775808.0))
		goto invalid;
	*bytes = (int64_t)size;
	return 0;
invalid:
	return kc_error_set(err, 0, "invalid size: '%s'", text);
}

struct duration_unit {
	const char *name;
	double ns;
};

static const struct duration_unit duration_units[] = {
	{ "ns", 1 },
	{ "us", 1e3 },
	{ "\xc2\xb5s", 1e3 }, /* U+00B5 micro sign */
	{ "\xce\xbcs", 1e3 }, /* U+03BC Greek mu */
	{ "ms", 1e6 },
	{ "s", 1e9 },
	{ "m", 60e9 },
	{ "h", 3600e9 },
};

/* The longest unit name that starts s (NULL: none). */
static const struct duration_unit *match_duration_unit(const char *s)
{
	const struct duration_unit *best = NULL;
	size_t i;

	for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
		size_t len = strlen(duration_units[i].name);

		if (strncmp(s, duration_units[i].name, len) == 0 &&
		    (best == NULL || len > strlen(best->name)))
			best = &duration_units[i];
	}
	return best;
}

int kc_parse_duration(const char *text, int64_t *ns, kc_error_t *err)
{
	const char *s = text;
	bool negative = false;
	double total = 0;

	if (*s == '-' || *s == '+')
		negative = *s++ == '-';
	if (strcmp(s, "0") == 0) {
		*ns = 0;
		return 0;
	}
	if (*s == '\0')
		goto invalid;
	while (*s) {
		const struct duration_unit *unit;
		char number[64];
		size_t len = 0;

		/* Go takes "1.", ".5" and "1.5" */
		while (is_digit(s[len]))
			len++;
		if (s[len] == '.') {
			len++;
			while (is_digit(s[len]))
				len++;
		}
		if (len == 0 || (len == 1 && s[0] == '.') || len >= sizeof(number))
			goto invalid;
		memcpy(number, s, len);
		number[len] = '\0';
		s += len;
		unit = match_duration_unit(s);
		if (unit == NULL)
			goto invalid;
		s += strlen(unit->name);
		total += strtod(number, NULL) * unit->ns;
	}
	if (!(total < 9223372036854775808.0))
		goto invalid;
	*ns = negative ? -(int64_t)total : (int64_t)total;
	return 0;
invalid:
	return kc_error_set(err, 0, "time: invalid duration \"%s\"", text);
}

bool kc_cpu_list_parse(const char *list, cpu_set_t *set)
{
	const char *p = list;

	if (set)
		CPU_ZERO(set);
	if (list == NULL || *list == '\0')
		return false;
	while (*p) {
		char *end;
		unsigned long first, last;

		if (*p < '0' || *p > '9')
			return false;
		first = strtoul(p, &end, 10);
		last = first;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return false;
			last = strtoul(end + 1, &end, 10);
		}
		if (last < first)
			return false;
		if (set) {
			if (last >= CPU_SETSIZE)
				return false;
			for (; first <= last; first++)
				CPU_SET(first, set);
		}
		if (*end == ',' && end[1] != '\0')
			end++;
		else if (*end != '\0')
			return false;
		p = end;
	}
	return true;
}
