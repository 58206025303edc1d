/*
 * reply.h - what a route handler produces: a status and a body, plus the
 * few headers kwgend sets.  Handlers never talk to libmicrohttpd; http.c
 * turns a kw_reply into the wire response in one place.
 */
#ifndef KW_SERVER_REPLY_H
#define KW_SERVER_REPLY_H

#include <jansson.h>
#include <stddef.h>

#include "kwgen/error.h"

typedef struct kw_reply {
	int status;               /* HTTP status */
	char *body;               /* malloc()ed, owned by the reply; may be NULL */
	size_t len;               /* bytes of body */
	const char *content_type; /* static string; NULL = application/json */
	char etag[80];            /* "\"<key>\"", "\"<key>-text\"" or "" */
	const char *allow;        /* Allow header for 405, static, or NULL */
	int retry_after;          /* Retry-After seconds, 0 = none */
	char key[65];             /* request key for the access log, or "" */
	int cached;               /* 1 served from the cache, 0 generated, -1 n/a */
	const char *challenge;    /* WWW-Authenticate for 401, static, or NULL */
	const char *const *headers; /* more headers: static name, value, ..., NULL; or NULL */
	char code[32];            /* the error code of an error reply (access log), or "" */
} kw_reply;

#define KW_REPLY_INIT { 0, NULL, 0, NULL, "", NULL, 0, "", -1, NULL, NULL, "" }

/* Release the body and reset r to KW_REPLY_INIT. */
void kw_reply_reset(kw_reply *r);

/* Make dst (reset first) a copy of src, body included.  A body that
 * cannot be copied makes dst a 503 no_memory.  Returns 0, -1 then. */
int kw_reply_copy(kw_reply *dst, const kw_reply *src);

/* Move src into dst (dst reset first); src becomes KW_REPLY_INIT. */
void kw_reply_move(kw_reply *dst, kw_reply *src);

/* Set status and a JSON body; steals the reference to body (which may be
 * NULL when out of memory: the reply becomes a 500). */
void kw_reply_json(kw_reply *r, int status, json_t *body);

/* Set status and take ownership of text (malloc()ed, len bytes). */
void kw_reply_text(kw_reply *r, int status, char *text, size_t len, const char *content_type);

/* An error reply {"error": {"code", "message", "field"}}; field may be
 * NULL or "" (then null).  code is also kept in r->code. */
void kw_reply_error(kw_reply *r, int status, const char *code, const char *field,
		    const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* The error reply of a kw_error, with the status kw_status_of(e->code);
 * KW_EIO also sets Retry-After. */
void kw_reply_kw_error(kw_reply *r, const kw_error *e);

/* HTTP status of a KW_E* code: ESYNTAX 400; EINVAL, EUNSUPPORTED, ESTRICT,
 * ELIMIT 422; ENOTFOUND 404; EIO, ENOMEM 503; anything else 500. */
int kw_status_of(int code);

#endif
