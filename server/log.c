/*
 * log.c - JSON-lines log on stderr (see log.h).  Built with jansson; knows
 * nothing of HTTP beyond the fields it is handed.
 */
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int kw_log_level = KW_LOG_INFO;
static int kw_log_fd = STDERR_FILENO;   /* fixed once kw_log_open ran */
static char *kw_log_path;               /* --log-file, or NULL */
static pthread_mutex_t kw_log_mu = PTHREAD_MUTEX_INITIALIZER; /* reopen only */

int kw_log_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);

	if (fd < 0)
		return -1;
	if (!(kw_log_path = strdup(path))) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	kw_log_fd = fd;
	return 0;
}

int kw_log_reopen(void)
{
	int fd, rc = 0;

	if (!kw_log_path)
		return 0;
	pthread_mutex_lock(&kw_log_mu);
	fd = open(kw_log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0) {
		rc = -1;
	} else {
		/* dup2 swaps the file under kw_log_fd atomically: a concurrent
		 * write goes to the old file or the new one, whole. */
		if (dup2(fd, kw_log_fd) < 0)
			rc = -1;
		close(fd);
	}
	pthread_mutex_unlock(&kw_log_mu);
	return rc;
}

int kw_log_parse_level(const char *name)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };

	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

void kw_log_set_level(int level)
{
	atomic_store(&kw_log_level, level);
}

/* RFC 3339 UTC time with milliseconds.  The date part is formatted once
 * per second per thread (gmtime_r takes a process-wide lock). */
static void now_text(char out[32])
{
	static _Thread_local time_t last_sec = (time_t)-1;
	static _Thread_local char date[24];
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != last_sec) {
		struct tm tm;

		gmtime_r(&ts.tv_sec, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
		last_sec = ts.tv_sec;
	}
	snprintf(out, 32, "%.19s.%03dZ", date, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* Dump obj as one line on stderr and release it.  Lines up to 2 KiB are
 * dumped into a stack buffer (no allocation). */
static void emit(json_t *obj)
{
	char buf[2048], *text = buf;
	size_t len;

	if (!obj)
		return;
	len = json_dumpb(obj, buf, sizeof(buf) - 1, JSON_COMPACT | JSON_REAL_PRECISION(6));
	if (len >= sizeof(buf) - 1) {
		text = json_dumps(obj, JSON_COMPACT | JSON_REAL_PRECISION(6));
		len = text ? strlen(text) : 0;
	}
	json_decref(obj);
	if (!text || !len) {
		if (text != buf)
			free(text);
		return;
	}
	text[len] = '\n'; /* the NUL's place (or the spare byte of buf) */
	if (write(kw_log_fd, text, len + 1) < 0) {
		/* nowhere left to report it */
	}
	if (text != buf)
		free(text);
}

void kw_log(int level, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	char msg[1024], when[32];
	va_list ap;

	if (level > atomic_load(&kw_log_level))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	now_text(when);
	emit(json_pack("{s:s,s:s,s:s}", "time", when, "level", names[level & 3], "msg", msg));
}

void kw_log_event(int level, const char *event, json_t *fields, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	char msg[1024], when[32];
	va_list ap;
	json_t *obj;

	if (level >= 0 && level > atomic_load(&kw_log_level)) {
		json_decref(fields);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	now_text(when);
	obj = json_pack("{s:s,s:s,s:s,s:s}", "time", when, "level", level < 0 ? "info" : names[level & 3],
			"msg", msg,
			"event", event);
	if (obj && fields)
		json_object_update_missing(obj, fields);
	json_decref(fields);
	emit(obj);
}

/* A string member, or null. */
static json_t *str_or_null(const char *s)
{
	json_t *v = s && *s ? json_string(s) : NULL;

	return v ? v : json_null();
}

void kw_log_access(const kw_access *a)
{
	char when[32];

	if (atomic_load(&kw_log_level) < KW_LOG_INFO)
		return;
	now_text(when);
	emit(json_pack("{s:s,s:o,s:o,s:i,s:I,s:f,s:o,s:o,s:o,s:o,s:o}", "time", when, "method",
		       str_or_null(a->method), "path", str_or_null(a->path), "status", a->status,
		       "bytes", (json_int_t)a->bytes, "duration_ms", a->duration_ms, "key",
		       str_or_null(a->key), "cached",
		       a->cached < 0 ? json_null() : json_boolean(a->cached), "client",
		       str_or_null(a->client), "request_id", str_or_null(a->request_id), "error",
		       str_or_null(a->error)));
}
