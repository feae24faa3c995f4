#include "log.h"

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

int kc_buf_append(struct kc_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (p == NULL)
			return -1;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int kc_buf_printf(struct kc_buf *b, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	ret = kc_buf_append(b, s, (size_t)n);
	free(s);
	return ret;
}

int kc_buf_json_string(struct kc_buf *b, const char *s)
{
	const unsigned char *p;

	if (kc_buf_append(b, "\"", 1) < 0)
		return -1;
	for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
		char esc[8];
		int ret;

		switch (*p) {
		case '"': ret = kc_buf_append(b, "\\\"", 2); break;
		case '\\': ret = kc_buf_append(b, "\\\\", 2); break;
		case '\n': ret = kc_buf_append(b, "\\n", 2); break;
		case '\t': ret = kc_buf_append(b, "\\t", 2); break;
		case '\r': ret = kc_buf_append(b, "\\r", 2); break;
		default:
			if (*p < 0x20) {
				snprintf(esc, sizeof(esc), "\\u%04x", *p);
				ret = kc_buf_append(b, esc, 6);
			} else {
				ret = kc_buf_append(b, (const char *)p, 1);
			}
		}
		if (ret < 0)
			return -1;
	}
	return kc_buf_append(b, "\"", 1);
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

void kc_log_error(const char *msg)
{
	if (log_path)
		write_log_line("error", msg);
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
