/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs a piece of a test with stdout and stderr going to files, so what
 * the CLI prints (help, "Incorrect Usage", "kcrun: ..." errors) can be
 * checked and does not mix with the TAP stream. */
#include "tap.h"

#include <fcntl.h>
#include <unistd.h>

static int saved_out = -1, saved_err = -1;
static FILE *out_file, *err_file;
static char out_text[1 << 16], err_text[1 << 16];

void capture_begin(void)
{
	fflush(stdout);
	fflush(stderr);
	out_file = tmpfile();
	err_file = tmpfile();
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	dup2(fileno(out_file), STDOUT_FILENO);
	dup2(fileno(err_file), STDERR_FILENO);
}

static const char *slurp(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

void capture_end(const char **out, const char **err)
{
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	*out = slurp(out_file, out_text, sizeof(out_text));
	*err = slurp(err_file, err_text, sizeof(err_text));
}
