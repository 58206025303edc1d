/*
 * http_int.h - what the files of kwgend's HTTP layer share (http.c: the
 * request life cycle; http_route.c: routes and dispatch; http_check.c:
 * the checks of the request head; http_listen.c: the listening socket).
 */
#ifndef KW_SERVER_HTTP_INT_H
#define KW_SERVER_HTTP_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "http.h"
#include "body.h"
#include "kernels.h"
#include "reply.h"

struct MHD_Connection;

/* Where a request is (for the drain: see kw_http_busy). */
enum { PHASE_HEADERS = 0, PHASE_BODY, PHASE_WORK };

/* Per-request state, created by the URI log callback. */
typedef struct kw_conn_ctx {
	struct kw_conn_ctx *prev, *next; /* the live list (live_mu) */
	kw_srv *s;
	struct MHD_Connection *conn;
	double start;        /* CLOCK_MONOTONIC seconds */
	atomic_int phase;    /* PHASE_* */
	atomic_llong last_ms;/* CLOCK_MONOTONIC ms of the last body bytes (or the start) */
	int headers_seen;    /* the handler's first call has run */
	int route;           /* KW_ROUTE_* */
	char method[16];
	char path[160];      /* printable ASCII copy of the raw path */
	char client[64];
	char request_id[72];
	int nul_in_uri;      /* the raw target has %00 */
	size_t uri_len;      /* bytes of the raw target */
	kw_body body;
	int responded;       /* a response has been queued */
	kw_reply pending;    /* a reply that could not be queued mid-upload */
	size_t discarded;    /* body bytes dropped after the cap */
	int status;          /* status queued */
	size_t bytes;        /* body bytes queued */
	char key[65];
	int cached;
	char code[32];       /* error code queued, or "" */
	int linger;          /* answered before the body was read */
	int batch_text;      /* a batch whose Accept prefers text/plain */
	kw_kjob *job;        /* generation in progress (connection suspended) */
	atomic_int job_ready;/* the job's done hook ran */
	int suspend_counted; /* counted in s->suspended (suspended, resume not yet seen) */
} kw_conn_ctx;

/* http_route.c */

/* The origin-form path of a request target: an absolute-form target
 * ("http://host:port/healthz", RFC 9112 section 3.2.2, as proxies send)
 * without its scheme and authority ("/healthz"; "/" when it names none);
 * any other target as it is.  Points into url or at a static "/". */
const char *kw_http_origin_path(const char *url);
/* Route of a URL path; *key points at the {key} part of /v1/kernels/{key}. */
int kw_http_route_of(const char *url, const char **key);
/* Methods a route answers (the Allow header). */
const char *kw_http_allowed(int route);
int kw_http_method_ok(int route, const char *method);
/* Does an Accept header prefer text/plain to JSON? */
int kw_http_wants_text(const char *accept);
/* May the answer be JSON?  No header (or an empty one): yes; else when
 * application/json, application with a star or a star alone has a q above
 * 0 (an explicit application/json;q=0 refuses it).  Routes that answer
 * JSON only answer 406 when not. */
int kw_http_accepts_json(const char *accept);
/* A 200 batch answer {"results": [...]} as text, kwgen --asm --batch's
 * form: each item's assembly text (kwgen/text.h) in order, an item
 * without an answer as "// error: CODE: MESSAGE".  Other replies are left
 * as they are; out of memory makes out a 503. */
void kw_http_batch_to_text(kw_reply *out);
/* The GET routes and every POST route once its body is complete.  Returns
 * 0 with out filled, or 1 with *job set. */
int kw_http_dispatch(kw_reply *out, kw_kjob **job, kw_srv *s, struct MHD_Connection *c,
		     kw_conn_ctx *ctx, const char *key, const char *url);

/* http_check.c */

/* Copy a raw request target's path (up to '?') for the log. */
void kw_http_copy_path(char *dst, size_t cap, const char *src);
/* An X-Request-Id worth keeping: 1..64 characters of [A-Za-z0-9._:/+=@-]. */
int kw_http_sane_request_id(const char *v);
/* May a body follow the headers? */
int kw_http_has_body(struct MHD_Connection *c);
/* First call: check everything the headers can tell.  Returns 1 if a
 * reply was produced (out filled). */
int kw_http_check_headers(kw_reply *out, kw_srv *s, struct MHD_Connection *c, kw_conn_ctx *ctx,
			  const char *method, const char *version);

/* http_listen.c */

/* Resolve --listen and bind; the socket, or -1 with msg. */
int kw_http_open_listener(const char *spec, char *msg, size_t msg_len);
/* Numeric text "ADDR:PORT" / "[ADDR6]:PORT" of a socket address. */
void kw_http_addr_text(char *out, size_t len, const struct sockaddr *sa);

#endif
