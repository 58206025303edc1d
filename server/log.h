/*
 * log.h - kwgend's log: one JSON object per line, on stderr or in
 * --log-file.
 *
 * Access lines: {"time", "method", "path", "status", "bytes",
 * "duration_ms", "key", "cached", "client", "request_id", "error"};
 * other lines: {"time", "level", "msg"} plus, for the start-up and
 * shutdown lines, "event" and their own fields.  Each line is written with
 * a single write(2), so lines from different threads never interleave.
 */
#ifndef KW_SERVER_LOG_H
#define KW_SERVER_LOG_H

#include <jansson.h>
#include <stddef.h>

enum { KW_LOG_ERROR = 0, KW_LOG_WARN = 1, KW_LOG_INFO = 2, KW_LOG_DEBUG = 3 };

/* kw_log_event level: written as "info" whatever --log-level says (the
 * start-up and shutdown lines). */
#define KW_LOG_ALWAYS (-1)

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

/* Log to path (appended, created 0640) instead of stderr.  Returns 0, or
 * -1 with errno set. */
int kw_log_open(const char *path);

/* SIGHUP: open the --log-file path again (after logrotate moved it) and
 * switch to it atomically.  Returns 0 (also when logging to stderr: there
 * is nothing to reopen), -1 with errno when the file cannot be opened (the
 * old one is kept). */
int kw_log_reopen(void);

/* A line {"time", "level", "msg", "event": event, ...fields}: fields is a
 * JSON object whose members are added (the reference is stolen; may be
 * NULL). */
void kw_log_event(int level, const char *event, json_t *fields, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* One finished request. */
typedef struct kw_access {
	const char *method, *path; /* printable ASCII */
	int status;                /* 0 = no answer was sent */
	size_t bytes;              /* body bytes sent */
	double duration_ms;
	const char *key;           /* request key, NULL or "" = none */
	int cached;                /* 1 / 0, -1 = not applicable (null) */
	const char *client;        /* client address ("127.0.0.1", "::1"), or NULL */
	const char *request_id;    /* X-Request-Id sent back, or NULL */
	const char *error;         /* error code of an error answer, NULL or "" = none */
} kw_access;

/* The access line of one finished request (level info). */
void kw_log_access(const kw_access *a);

#endif
