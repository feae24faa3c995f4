/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "log.h"
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *log_path;
static bool log_json;
static bool log_debug;

void kc_log_init(const char *path, bool json, bool debug)
{
	log_path = path;
	log_json = json;
	log_debug = debug;
}

bool kc_log_debug_enabled(void)
{
	return log_debug;
}

/* One line as logrus writes it: JSON {"level","msg","time"}, or text
 * time="..." level=LEVEL msg="...". */
static void write_log_line_to(const char *path, bool json, const char *level, const char *msg)
{
	struct kc_buf b = {0};
	char when[64];
	struct tm tm;
	time_t now = time(NULL);
	int fd;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (json) {
		kc_buf_printf(&b, "{\"level\":\"%s\",\"msg\":", level);
		kc_buf_json_string(&b, msg);
		kc_buf_printf(&b, ",\"time\":\"%s\"}\n", when);
	} else {
		kc_buf_printf(&b, "time=\"%s\" level=%s msg=", when, level);
		kc_buf_json_string(&b, msg);
		kc_buf_append(&b, "\n", 1);
	}
	if (b.data == NULL)
		return;
	fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : STDERR_FILENO;
	if (fd >= 0) {
		if (write(fd, b.data, b.len) < 0) {
			/* nothing better to do: stderr has the message */
		}
		if (path)
			close(fd);
	}
	free(b.data);
}

static void write_log_line(const char *level, const char *msg)
{
	write_log_line_to(log_path, log_json, level, msg);
}

/* With --log, the line goes to the file and stderr gets the plain message;
 * without, --log-format json makes the stderr line the JSON object (as runc
 * and crun print it: what reads a runtime's stderr as JSON gets one). */
void kc_log_error(const char *msg)
{
	if (log_path)
		write_log_line("error", msg);
	if (log_json && !log_path) {
		fflush(stderr);
		write_log_line_to(NULL, true, "error", msg);
		return;
	}
	fprintf(stderr, "kcrun: %s\n", msg);
}

static void log_v(const char *level, bool to_stderr, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	if (log_path)
		write_log_line(level, msg);
	/* on stderr as runc (logrus) prints them: tools grep "level=debug" */
	if (to_stderr || !log_path) {
		fflush(stderr);
		write_log_line_to(NULL, log_json, level, msg);
	}
	free(msg);
}

void kc_log_debug(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (!log_debug)
		return;
	va_start(ap, fmt);
	log_v("debug", false, fmt, ap);
	va_end(ap);
	errno = saved;
}

void kc_log_warn(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	log_v("warning", true, fmt, ap);
	va_end(ap);
	errno = saved;
}

void kc_trace(const char *what)
{
	static int enabled = -1;
	static const char *kill_at;
	static struct timespec t0;
	struct timespec now;

	if (enabled < 0) {
		enabled = getenv("KCRUN_TRACE") != NULL;
		kill_at = getenv("KCRUN_KILL_AT");
		clock_gettime(CLOCK_MONOTONIC, &t0);
	}
	/* fault injection: the tests kill kcrun at each step and check that
	 * delete --force still leaves nothing behind */
	if (kill_at && strcmp(kill_at, what) == 0)
		kill(getpid(), SIGKILL);
	if (!enabled)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(stderr, "kcrun: trace: +%ld us %s\n",
		(long)((now.tv_sec - t0.tv_sec) * 1000000 + (now.tv_nsec - t0.tv_nsec) / 1000), what);
}
