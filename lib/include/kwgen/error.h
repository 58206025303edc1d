/*
 * kwgen/error.h - error codes and the error struct every fallible call fills.
 *
 * Convention (after libgit2): functions that can fail return int, 0 on
 * success or a negative KW_E* code, and take a `kw_error *err` last.  On
 * failure err->message says what was wrong and what is allowed; err->field
 * names the offending request key ("kernel.MIWaveTile", "args.maxAgpr"), or
 * is empty.  err may be NULL.  The struct is caller-owned; no allocation.
 */
#ifndef KWGEN_ERROR_H
#define KWGEN_ERROR_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
	KW_OK = 0,
	KW_EINVAL = -1,       /* bad input: a missing, ill-typed or out-of-range key (HTTP 422) */
	KW_ENOMEM = -2,       /* allocation failed */
	KW_EUNSUPPORTED = -3, /* the seed has no answer (e.g. an empty slot for bf16 compute) (422) */
	KW_ESTRICT = -4,      /* "strict": true and the result carries diagnostics (422) */
	KW_ELIMIT = -5,       /* the request would exceed a configured bound (422/413) */
	KW_ESYNTAX = -6,      /* not JSON / not a JSON object (400) */
	KW_EIO = -7,          /* I/O or storage failure (503) */
	KW_ENOTFOUND = -8,    /* unknown key (404) */
	KW_EINTERNAL = -9     /* our own bug (500) */
};

#define KW_ERROR_MESSAGE_MAX 512
#define KW_ERROR_FIELD_MAX 128

typedef struct kw_error {
	int code;
	char field[KW_ERROR_FIELD_MAX];
	char message[KW_ERROR_MESSAGE_MAX];
} kw_error;

#define KW_ERROR_INIT { 0, "", "" }

/* Fill err (if non-NULL) and return code.  field may be NULL.  The message
 * is printf-formatted and truncated to KW_ERROR_MESSAGE_MAX-1 bytes. */
int kw_error_set(kw_error *err, int code, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* out = a + sep + b, truncated to KW_ERROR_FIELD_MAX - 1 bytes: the name of
 * a nested request field ("kernel" "." "MIWaveTile").  Cheap enough for
 * hot parsing paths (no printf).  Returns out. */
char *kw_field_join(char out[KW_ERROR_FIELD_MAX], const char *a, const char *sep, const char *b);

/* Reset err to KW_ERROR_INIT. */
void kw_error_clear(kw_error *err);

/* Short stable name of a code: "invalid", "unsupported", "strict", ... */
const char *kw_error_code_name(int code);

#ifdef __cplusplus
}
#endif
#endif
