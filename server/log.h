/*
 * log.h - kwgend's stderr log: one JSON object per line.
 *
 * Access lines: {"time", "method", "path", "status", "bytes",
 * "duration_ms", "key", "cached"}; other lines: {"time", "level", "msg"}.
 * Each line is written with a single write(2), so lines from different
 * threads never interleave.
 */
#ifndef KW_SERVER_LOG_H
#define KW_SERVER_LOG_H

#include <stddef.h>

enum { KW_LOG_ERROR = 0, KW_LOG_WARN = 1, KW_LOG_INFO = 2, KW_LOG_DEBUG = 3 };

/* Parse "error" | "warn" | "info" | "debug"; returns the level or -1. */
int kw_log_parse_level(const char *name);

/* Lines above level are dropped.  Default KW_LOG_INFO. */
void kw_log_set_level(int level);

/* Log a message at level (printf format). */
void kw_log(int level, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* The access line of one finished request (level info).  key may be NULL
 * or ""; cached < 0 means "not applicable" (logged as null). */
void kw_log_access(const char *method, const char *path, int status, size_t bytes,
		   double duration_ms, const char *key, int cached);

#endif
