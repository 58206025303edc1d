/*
 * log.c - JSON-lines log on stderr (see log.h).  Built with jansson; knows
 * nothing of HTTP beyond the fields it is handed.
 */
#include "log.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_int kw_log_level = KW_LOG_INFO;

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
	if (write(STDERR_FILENO, text, len + 1) < 0) {
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

void kw_log_access(const char *method, const char *path, int status, size_t bytes,
		   double duration_ms, const char *key, int cached)
{
	char when[32];

	if (atomic_load(&kw_log_level) < KW_LOG_INFO)
		return;
	now_text(when);
	emit(json_pack("{s:s,s:s,s:s,s:i,s:I,s:f,s:o,s:o}", "time", when, "method",
		       method ? method : "", "path", path ? path : "", "status", status,
		       "bytes", (json_int_t)bytes, "duration_ms", duration_ms,
		       "key", key && *key ? json_string(key) : json_null(),
		       "cached", cached < 0 ? json_null() : json_boolean(cached)));
}
