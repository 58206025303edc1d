/*
 * http_check.c - what the request head must not carry (framing, NUL
 * bytes, header names), and the checks of auth, route, method,
 * Content-Type and Content-Length made before any body is read.
 */
#include "http_int.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics.h"
#include "verify.h"
#include "body.h"
#include "kernels_yaml.h"
#include "reply.h"

/* Copy a raw request target's path (up to '?') for the log: printable
 * ASCII, others as '?'. */
void kw_http_copy_path(char *dst, size_t cap, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < cap && src[i] && src[i] != '?'; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f && src[i] != '"' && src[i] != '\\' ? src[i] : '?';
	dst[i] = '\0';
}

/* An X-Request-Id worth keeping: 1..64 characters of [A-Za-z0-9._:/+=@-]. */
int kw_http_sane_request_id(const char *v)
{
	size_t n = v ? strlen(v) : 0;

	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = v[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr("._:/+=@-", ch)))
			return 0;
	}
	return 1;
}

/* A read that --allow-unauthenticated-reads lets through: GET or HEAD
 * (every GET/HEAD route only reads). */
static int is_read(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* What the headers say about framing and bytes, gathered in one pass. */
typedef struct head_scan {
	int n_cl, cl_differ;     /* Content-Length headers; two with different values */
	const char *cl;          /* the first Content-Length */
	size_t cl_len;
	int n_te;                /* Transfer-Encoding headers */
	int n_auth;              /* Authorization headers */
	const char *te;
	const char *nul;         /* name of a header holding a NUL byte, or NULL */
	const char *bad_name;    /* a header name that is not an RFC 9110 token, or NULL */
	size_t n, bytes;         /* headers, and their bytes as "Key:value" CRLF lines */
} head_scan;

/* An RFC 9110 token (a header name): no whitespace, no separators.
 * "Content-Length : 5" reaches libmicrohttpd as a header named
 * "Content-Length " that frames nothing, while a proxy in front may have
 * framed the message by it (RFC 9112 section 5.1: reject with 400). */
static int is_token(const char *k, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)k[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      (ch && strchr("!#$%&'*+-.^_`|~", ch))))
			return 0;
	}
	return 1;
}

static enum MHD_Result scan_header(void *cls, enum MHD_ValueKind kind, const char *key,
				   size_t key_size, const char *value, size_t value_size)
{
	head_scan *h = cls;

	(void)kind;
	if (!key)
		return MHD_YES;
	h->n++;
	h->bytes += key_size + 1 + value_size + 2;
	if (strlen(key) != key_size || (value && strlen(value) != value_size))
		h->nul = key;
	else if (!h->bad_name && !is_token(key, key_size))
		h->bad_name = key;
	if (!value)
		return MHD_YES;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
		if (h->n_cl++ == 0) {
			h->cl = value;
			h->cl_len = value_size;
		} else if (value_size != h->cl_len || memcmp(value, h->cl, value_size) != 0) {
			h->cl_differ = 1;
		}
	} else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		h->n_te++;
		h->te = value;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_AUTHORIZATION) == 0) {
		h->n_auth++;
	}
	return MHD_YES;
}

/*
 * Bytes of the request head that libmicrohttpd received but does not
 * report.  libmicrohttpd 0.9 keeps each header as a C string, so whatever
 * follows a NUL byte in a line ("Authorization: Bearer tok\0junk") is cut
 * off without a trace in the values; it still counts in the head's size
 * (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE).  The head is the request line
 * plus one "Key: value" CRLF line per header plus the empty line; one
 * optional space after each colon is allowed, anything more means bytes
 * were hidden.  (A client that pads header values with several spaces is
 * refused too; none of the usual ones do.)
 */
static size_t hidden_bytes(struct MHD_Connection *c, const kw_conn_ctx *ctx, const char *method,
			   const char *version, const head_scan *h)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
	size_t seen = strlen(method) + 1 + ctx->uri_len + 1 + strlen(version) + 2 + h->bytes + 2;

	if (!ci || ci->header_size <= seen + h->n)
		return 0;
	return ci->header_size - seen - h->n;
}

/* Framing and bytes the request must not carry (RFC 9112 section 6.3: a
 * server that cannot tell where the body ends must answer 400 and close).
 * Returns 1 with out filled. */
static int check_framing(kw_reply *out, struct MHD_Connection *c, kw_conn_ctx *ctx,
			  const char *method, const char *version)
{
	head_scan h = { 0 };
	size_t hidden;

	MHD_get_connection_values_n(c, MHD_HEADER_KIND, scan_header, &h);
	if ((hidden = hidden_bytes(c, ctx, method, version, &h)) > 0) {
		kw_reply_error(out, 400, "syntax", NULL,
			       "the request head holds %zu byte(s) past a NUL byte (or padding); "
			       "header values and the request line are text", hidden);
		return 1;
	}
	if (h.nul) {
		kw_reply_error(out, 400, "syntax", NULL,
			       "header %s holds a NUL byte; header values are text", h.nul);
		return 1;
	}
	if (h.bad_name) {
		char shown[64];

		kw_http_copy_path(shown, sizeof(shown), h.bad_name);
		kw_reply_error(out, 400, "framing", NULL,
			       "header name \"%s\" is not a token (whitespace before the colon?); "
			       "send \"Name: value\"", shown);
		return 1;
	}
	if (h.n_auth > 1) {
		/* only the first would be checked: which one a proxy added is
		 * anyone's guess (RFC 9110 5.3: not a list field) */
		kw_reply_error(out, 400, "syntax", NULL,
			       "the request has %d Authorization headers; send one", h.n_auth);
		return 1;
	}
	if (ctx->nul_in_uri) {
		kw_reply_error(out, 400, "syntax", NULL,
			       "the request target holds %%00 (a NUL byte); paths and query values are text");
		return 1;
	}
	if (h.n_te && strcmp(version, MHD_HTTP_VERSION_1_0) == 0) {
		/* RFC 9112 section 6.1: faulty framing (an HTTP/1.0 hop may have
		 * framed it differently), even with keep-alive */
		kw_reply_error(out, 400, "framing", NULL,
			       "an HTTP/1.0 request has no Transfer-Encoding; send Content-Length");
		return 1;
	}
	if (h.n_te && h.n_cl) {
		kw_reply_error(out, 400, "framing", NULL,
			       "the request has both Content-Length and Transfer-Encoding; send one of them");
		return 1;
	}
	if (h.cl_differ) {
		kw_reply_error(out, 400, "framing", NULL,
			       "the request has Content-Length headers with different values; send one");
		return 1;
	}
	if (h.n_te > 1 || (h.n_te && strcasecmp(h.te, "chunked") != 0)) {
		kw_reply_error(out, 400, "framing", NULL,
			       "Transfer-Encoding \"%s\" is not supported; send Content-Length or "
			       "Transfer-Encoding: chunked", h.n_te > 1 ? "(several)" : h.te);
		return 1;
	}
	return 0;
}

/* May a body follow the headers? */
int kw_http_has_body(struct MHD_Connection *c)
{
	const char *clen = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_CONTENT_LENGTH);

	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
	       (clen && strtoull(clen, NULL, 10) > 0);
}

/* The query parameters a route takes (NULL-terminated), or NULL for a
 * route whose query is not checked here (the page's files, health checks,
 * /metrics and /status: probes and browsers may add their own).  POST
 * /v1/verify: ?isa=, ?cache= and ?assume_atomic_counters=; POST
 * /v1/kernels: ?cache=, and for a YAML body ?isa=, ?generators= and
 * ?derive=; the batch route and GET, HEAD and DELETE by key take ?cache=
 * only (checked for every route by dispatch; a no-op on the key routes). */
static const char *const *query_allowed(int route, int yaml, const char **said)
{
	static const char *const post[] = { "isa", "cache", "assume_atomic_counters", NULL };
	static const char *const kernels[] = { "cache", "isa", "generators", "derive", NULL };
	static const char *const get[] = { "cache", NULL };

	switch (route) {
	case KW_ROUTE_VERIFY:
		*said = "?isa=, ?cache= and ?assume_atomic_counters=";
		return post;
	case KW_ROUTE_KERNELS:
		*said = "?cache=, and with a YAML body ?isa=, ?generators= and ?derive=";
		return yaml ? kernels : get;
	case KW_ROUTE_BATCH:
	case KW_ROUTE_VERIFY_GET:
	case KW_ROUTE_KERNEL_GET:
		*said = "?cache= only";
		return get;
	default:
		return NULL;
	}
}

/* What the query holds that the route does not take: the first unknown
 * name, or the first allowed name given twice (libmicrohttpd's lookup
 * would read the first silently). */
typedef struct query_scan {
	const char *const *allowed;
	unsigned seen;          /* bit i: allowed[i] given */
	const char *unknown;    /* a name not in allowed, or NULL */
	const char *twice;      /* an allowed name given twice, or NULL */
	const char *bare;       /* an allowed name given without "=value", or NULL */
} query_scan;

static enum MHD_Result scan_query(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	query_scan *q = cls;
	unsigned i;

	(void)kind;
	(void)value;
	if (!key)
		key = "";
	for (i = 0; q->allowed[i] && strcmp(q->allowed[i], key); i++)
		;
	if (!q->allowed[i]) {
		if (!q->unknown)
			q->unknown = key;
	} else if (q->seen & (1u << i)) {
		if (!q->twice)
			q->twice = key;
	} else {
		q->seen |= 1u << i;
		/* "?derive" reads as absent to the routes' lookups: refused, not
		 * taken for a request without it */
		if (!value && !q->bare)
			q->bare = key;
	}
	return MHD_YES;
}

/* A query parameter's name as sent, for an error message (JSON): up to
 * cap - 1 bytes cut at a character boundary; UTF-8 as it is (jansson's
 * json_stringn checks it), control characters and, in a name that is not
 * UTF-8, every byte past ASCII as '?'. */
static void show_name(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src), i;
	json_t *checked;
	int utf8;

	if (n > cap - 1) {
		n = cap - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	checked = json_stringn(src, n);
	utf8 = checked != NULL;
	json_decref(checked);
	for (i = 0; i < n; i++) {
		unsigned char b = (unsigned char)src[i];

		dst[i] = (b >= 0x20 && b < 0x7f) || (utf8 && b >= 0x80) ? src[i] : '?';
	}
	dst[n] = '\0';
}

/* A verify route's query: 422 invalid naming an unknown parameter (a
 * misspelled ?assume_atomic_counter=true would otherwise verify without
 * it) or one given twice, and the parameters the route takes.  Returns 1
 * with out filled. */
static int check_query(kw_reply *out, struct MHD_Connection *c, int route, const char *method)
{
	const char *said = "";
	int yaml = route == KW_ROUTE_KERNELS &&
		   kw_kernels_is_yaml(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE));
	query_scan q = { query_allowed(route, yaml, &said), 0, NULL, NULL, NULL };
	char shown[64];

	if (!q.allowed)
		return 0;
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, scan_query, &q);
	if (q.unknown) {
		show_name(shown, sizeof(shown), q.unknown);
		kw_reply_error(out, 422, "invalid", shown, "unknown query parameter \"%s\"; %s %s takes %s", shown,
			       method, kw_route_name(route), said);
		return 1;
	}
	if (q.twice) {
		kw_reply_error(out, 422, "invalid", q.twice, "query parameter \"%s\" is given twice; give it once",
			       q.twice);
		return 1;
	}
	if (q.bare) {
		kw_reply_error(out, 422, "invalid", q.bare, "query parameter \"%s\" has no value; give %s=VALUE",
			       q.bare, q.bare);
		return 1;
	}
	return 0;
}

/* First call: check everything the headers can tell.  Returns 1 if a
 * reply was produced (out filled). */
int kw_http_check_headers(kw_reply *out, kw_srv *s, struct MHD_Connection *c, kw_conn_ctx *ctx,
			  const char *method, const char *version)
{
	const char *clen, *ct;

	if (check_framing(out, c, ctx, method, version))
		return 1;
	/* The page's static files hold no secrets: no token (the page asks
	 * for one and sends it on its API requests). */
	if (s->auth && ctx->route != KW_ROUTE_UI && !(s->cfg.allow_unauth_reads && is_read(method)) &&
	    !kw_auth_check(s->auth, MHD_lookup_connection_value(c, MHD_HEADER_KIND,
								 MHD_HTTP_HEADER_AUTHORIZATION))) {
		kw_reply_error(out, 401, "unauthorized", NULL,
			       "send \"Authorization: Bearer TOKEN\" with a token kwgend knows");
		out->challenge = KW_AUTH_CHALLENGE;
		return 1;
	}
	if (ctx->route == KW_ROUTE_OTHER) {
		kw_reply_error(out, 404, "not_found", NULL, "no such route");
		return 1;
	}
	if (!kw_http_method_ok(ctx->route, method)) {
		kw_reply_error(out, 405, "method_not_allowed", NULL, "%s takes %s",
			       kw_route_name(ctx->route), kw_http_allowed(ctx->route));
		out->allow = kw_http_allowed(ctx->route);
		return 1;
	}
	if (atomic_load(&s->draining) &&
	    (ctx->route == KW_ROUTE_KERNELS || ctx->route == KW_ROUTE_BATCH ||
	     ctx->route == KW_ROUTE_KERNEL_GET || ctx->route == KW_ROUTE_VERIFY ||
	     ctx->route == KW_ROUTE_VERIFY_GET)) {
		kw_reply_error(out, 503, "draining", NULL, "the server is shutting down");
		out->retry_after = 1;
		return 1;
	}
	if (check_query(out, c, ctx->route, method))
		return 1;
	if ((ctx->route == KW_ROUTE_VERIFY || ctx->route == KW_ROUTE_VERIFY_GET) &&
	    !kw_http_accepts_json(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT))) {
		kw_reply_error(out, 406, "not_acceptable", NULL,
			       "%s answers application/json only (findings with line, code and message); "
			       "send Accept: application/json, or run kwgen verify for compiler-style lines",
			       kw_route_name(ctx->route));
		return 1;
	}
	if (ctx->route == KW_ROUTE_VERIFY) {
		if (!kw_verify_content_type_ok(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									    MHD_HTTP_HEADER_CONTENT_TYPE))) {
			kw_reply_error(out, 415, "unsupported_media_type", NULL,
				       "POST /v1/verify takes text/plain (assembly), application/json "
				       "({\"isa\", \"asm\"}) or application/octet-stream (a code object)");
			return 1;
		}
		clen = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (clen && strtoull(clen, NULL, 10) > s->cfg.max_verify_bytes) {
			kw_reply_error(out, 413, "too_large", NULL,
				       "the body is over %zu bytes (--max-verify-bytes)", s->cfg.max_verify_bytes);
			return 1;
		}
		return 0;
	}
	if (ctx->route != KW_ROUTE_KERNELS && ctx->route != KW_ROUTE_BATCH)
		return 0;
	ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (!kw_body_is_json(ct) && !(ctx->route == KW_ROUTE_KERNELS && kw_kernels_is_yaml(ct))) {
		kw_reply_error(out, 415, "unsupported_media_type", NULL, ctx->route == KW_ROUTE_KERNELS ?
			       "send the request with Content-Type: application/json, or one Tensile solution "
			       "with Content-Type: application/yaml" :
			       "send the request with Content-Type: application/json");
		return 1;
	}
	clen = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (clen && strtoull(clen, NULL, 10) > s->cfg.max_body_bytes) {
		kw_reply_error(out, 413, "too_large", NULL, "the body is over %zu bytes",
			       s->cfg.max_body_bytes);
		return 1;
	}
	return 0;
}
