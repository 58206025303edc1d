/*
 * http.c - routes, request limits and the one place a kw_reply becomes an
 * HTTP response.
 *
 * Request life cycle (libmicrohttpd access handler): the first call sees
 * the headers (bearer token, route, method, Content-Type and Content-Length
 * are checked here, before any body is read); the following calls hand the
 * body over in pieces (kept in a kw_body capped at --max-body-bytes, 413 as
 * soon as the cap is passed when libmicrohttpd allows it, else once the
 * rest of the body has been discarded; the connection is closed when the
 * body is not complete --request-timeout seconds after the headers); the
 * last call dispatches.  Connection count, per-address count and the
 * inactivity timeout are libmicrohttpd's own options.  The completion callback
 * writes the access log line and the request metrics.
 */
#include "http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "body.h"
#include "kernels.h"
#include "verify.h"
#include "log.h"
#include "metrics.h"
#include "reply.h"
#include "ui.h"

#if defined(__has_include)
#if __has_include("kwgen/arch.h")
#include "kwgen/arch.h"
#define KW_HAVE_ISAS 1
#endif
#endif

/* Per-request state, created on the first handler call. */
typedef struct kw_conn_ctx {
	double start;        /* CLOCK_MONOTONIC seconds */
	int route;           /* KW_ROUTE_* */
	char method[8];
	char path[160];      /* printable ASCII copy of the URL path */
	kw_body body;
	int responded;       /* a response has been queued */
	kw_reply pending;    /* a reply that could not be queued mid-upload */
	size_t discarded;    /* body bytes dropped after the cap */
	int status;          /* status queued */
	size_t bytes;        /* body bytes queued */
	char key[65];
	int cached;
} kw_conn_ctx;

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Route of a URL path; *key points at the {key} part of /v1/kernels/{key}. */
static int route_of(const char *url, const char **key)
{
	static const struct { const char *path; int route; } exact[] = {
		{ "/v1/kernels", KW_ROUTE_KERNELS }, { "/v1/kernels:batch", KW_ROUTE_BATCH },
		{ "/v1/generators", KW_ROUTE_GENERATORS }, { "/v1/isas", KW_ROUTE_ISAS },
		{ "/healthz", KW_ROUTE_HEALTHZ }, { "/readyz", KW_ROUTE_READYZ },
		{ "/status", KW_ROUTE_STATUS }, { "/metrics", KW_ROUTE_METRICS },
	};
	static const char prefix[] = "/v1/kernels/", vprefix[] = "/v1/verify/";

	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(url, exact[i].path) == 0)
			return exact[i].route;
	if (strncmp(url, prefix, sizeof(prefix) - 1) == 0 && url[sizeof(prefix) - 1]) {
		*key = url + sizeof(prefix) - 1;
		return KW_ROUTE_KERNEL_GET;
	}
	if (strcmp(url, "/v1/verify") == 0)
		return KW_ROUTE_VERIFY;
	if (strncmp(url, vprefix, sizeof(vprefix) - 1) == 0 && url[sizeof(vprefix) - 1]) {
		*key = url + sizeof(vprefix) - 1;
		return KW_ROUTE_VERIFY_GET;
	}
	if (kw_ui_path(url))
		return KW_ROUTE_UI;
	return KW_ROUTE_OTHER;
}

/* Methods a route answers (the Allow header). */
static const char *allowed(int route)
{
	switch (route) {
	case KW_ROUTE_KERNELS:
	case KW_ROUTE_BATCH:
	case KW_ROUTE_VERIFY: return "POST";
	case KW_ROUTE_KERNEL_GET: return "GET, HEAD, DELETE";
	default: return "GET, HEAD";
	}
}

static int method_ok(int route, const char *method)
{
	if (route == KW_ROUTE_KERNELS || route == KW_ROUTE_BATCH || route == KW_ROUTE_VERIFY)
		return strcmp(method, "POST") == 0;
	if (route == KW_ROUTE_KERNEL_GET && strcmp(method, "DELETE") == 0)
		return 1;
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/*
 * Does an Accept header prefer text/plain to JSON?  Media ranges are split
 * at commas, their q at ";q=".  text/plain (or "text/" with a star) wins
 * when its q is above 0 and above application/json's, or equal and listed
 * first; other wildcards do not count.  No header, or anything else:
 * JSON (never 406).
 */
static int wants_text(const char *accept)
{
	double qt = -1, qj = -1;
	int text_first = 0, seen = 0;
	const char *p = accept;

	while (p && *p) {
		const char *end = strchr(p, ','), *semi, *q;
		size_t n = end ? (size_t)(end - p) : strlen(p), tl;
		double qv = 1;

		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		semi = memchr(p, ';', n);
		tl = semi ? (size_t)(semi - p) : n;
		while (tl && (p[tl - 1] == ' ' || p[tl - 1] == '\t'))
			tl--;
		if (semi && (q = strstr(semi, "q=")) && q < p + n)
			qv = strtod(q + 2, NULL);
		if ((tl == 10 && !strncasecmp(p, "text/plain", 10)) || (tl == 6 && !strncasecmp(p, "text/*", 6))) {
			if (qv > qt) {
				qt = qv;
				if (!seen)
					text_first = 1;
			}
			seen = 1;
		} else if (tl == 16 && !strncasecmp(p, "application/json", 16)) {
			if (qv > qj)
				qj = qv;
			seen = 1;
		}
		p = end ? end + 1 : NULL;
	}
	return qt > 0 && (qt > qj || (qt == qj && text_first));
}

/* Turn r into a response and queue it; r's body moves into the response.
 * Returns MHD_YES if queued. */
static enum MHD_Result send_reply(struct MHD_Connection *c, kw_conn_ctx *ctx, kw_reply *r,
				  int close)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char num[24];

	resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
	if (!resp)
		return MHD_NO;
	r->body = NULL;
	if (r->status != 304)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
					r->content_type ? r->content_type : "application/json");
	if (r->etag[0])
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r->etag);
	if (r->allow)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
	if (ctx->route == KW_ROUTE_KERNELS || ctx->route == KW_ROUTE_KERNEL_GET)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept");
	if (r->challenge)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, r->challenge);
	for (const char *const *h = r->headers; h && h[0] && h[1]; h += 2)
		MHD_add_response_header(resp, h[0], h[1]);
	if (r->retry_after > 0) {
		snprintf(num, sizeof(num), "%d", r->retry_after);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, num);
	}
	if (close)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(c, (unsigned int)r->status, resp);
	MHD_destroy_response(resp);
	if (ret == MHD_YES) {
		ctx->responded = 1;
		ctx->status = r->status;
		ctx->bytes = r->len;
		memcpy(ctx->key, r->key, sizeof(ctx->key));
		ctx->cached = r->cached;
		/* counted when queued, before the client can read it and ask
		 * /status; batch items are counted by kw_kernels_batch; a
		 * DELETE looks nothing up */
		if (ctx->route == KW_ROUTE_KERNELS ||
		    (ctx->route == KW_ROUTE_KERNEL_GET && strcmp(ctx->method, "DELETE") != 0))
			kw_metrics_kernel(r->status, r->cached);
	}
	kw_reply_reset(r);
	return ret;
}

static void status_reply(kw_reply *out, kw_srv *s)
{
	kw_error e = KW_ERROR_INIT;
	kw_cache_stats st;
	kw_kernel_counts kc;
	json_t *o;

	if (kw_cache_stats_get(&st, s->cache, &e) < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	kw_metrics_kernel_counts(&kc);
	o = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:s,s:I,s:I,s:b,s:I}",
		      "entries", (json_int_t)st.entries, "bytes", (json_int_t)st.bytes,
		      "hits", (json_int_t)kc.hits, "misses", (json_int_t)kc.misses,
		      "errors", (json_int_t)kc.errors, "inserts", (json_int_t)st.inserts,
		      "evictions", (json_int_t)st.evictions, "generations",
		      (json_int_t)kw_metrics_generations(), "version", kw_generator_version(),
		      "uptime", (json_int_t)((wall_ms() - s->started_ms) / 1000), "in_flight",
		      (json_int_t)kw_metrics_in_flight_now(), "draining", atomic_load(&s->draining),
		      "max_cache_bytes", (json_int_t)s->cfg.max_cache_bytes);
	if (o && json_object_set_new(o, "file_bytes",
				     json_pack("{s:I,s:I,s:I}", "db", (json_int_t)st.db_file_bytes,
					       "wal", (json_int_t)st.wal_bytes, "shm",
					       (json_int_t)st.shm_bytes)) == 0)
		json_object_set_new(o, "read_only", json_boolean(st.read_only));
	kw_reply_json(out, 200, o);
}

static void metrics_reply(kw_reply *out, kw_srv *s)
{
	kw_cache_stats st;
	size_t len = 0;
	char *text;

	if (kw_cache_stats_get(&st, s->cache, NULL) < 0)
		memset(&st, 0, sizeof(st));
	text = kw_metrics_render(&len, &st);
	if (!text) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		return;
	}
	kw_reply_text(out, 200, text, len, "text/plain; version=0.0.4; charset=utf-8");
}

/* The GET routes and every POST route once its body is complete. */
static void dispatch(kw_reply *out, kw_srv *s, struct MHD_Connection *c, kw_conn_ctx *ctx,
		     const char *key, const char *url)
{
	if (ctx->route == KW_ROUTE_UI) { /* the page (ui.c): static files */
		kw_ui_get(out, url,
			  MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH),
			  !s->cfg.no_ui);
		return;
	}
	const char *cache = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cache");
	int bypass = cache && strcmp(cache, "bypass") == 0;

	if (cache && !bypass && strcmp(cache, "default") != 0) {
		kw_reply_error(out, 400, "syntax", "cache",
			       "?cache= takes \"bypass\" or \"default\", not \"%s\"", cache);
		return;
	}
	switch (ctx->route) {
	case KW_ROUTE_KERNELS:
		kw_kernels_post(out, s, ctx->body.p, ctx->body.len, bypass,
				wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT)));
		break;
	case KW_ROUTE_BATCH:
		kw_kernels_batch(out, s, ctx->body.p, ctx->body.len, bypass);
		break;
	case KW_ROUTE_VERIFY: /* on this (polling) thread: no worker pool yet */
		kw_verify_post(out, s, ctx->body.p, ctx->body.len,
			       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
			       MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "isa"), bypass);
		break;
	case KW_ROUTE_VERIFY_GET:
		kw_verify_get(out, s, key);
		break;
	case KW_ROUTE_KERNEL_GET:
		if (strcmp(ctx->method, "DELETE") == 0)
			kw_kernels_delete(out, s, key);
		else
			kw_kernels_get(out, s, key,
				       MHD_lookup_connection_value(c, MHD_HEADER_KIND,
								   MHD_HTTP_HEADER_IF_NONE_MATCH),
				       wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									      MHD_HTTP_HEADER_ACCEPT)));
		break;
	case KW_ROUTE_GENERATORS: {
		json_t *g = kw_generators_json();

		if (g)
			kw_reply_json(out, 200, json_pack("{s:o}", "generators", g));
		else
			kw_reply_error(out, 500, "internal", NULL, "generator table unavailable");
		break;
	}
	case KW_ROUTE_ISAS:
#ifdef KW_HAVE_ISAS
	{
		json_t *i = kw_isas_json();

		if (i)
			kw_reply_json(out, 200, json_pack("{s:o}", "isas", i));
		else
			kw_reply_error(out, 500, "internal", NULL, "ISA table unavailable");
	}
#else
		kw_reply_error(out, 503, "unavailable", NULL, "the ISA table is not built in yet");
		out->retry_after = 60;
#endif
		break;
	case KW_ROUTE_HEALTHZ:
		kw_reply_json(out, 200, json_pack("{s:s}", "status", "ok"));
		break;
	case KW_ROUTE_READYZ:
		if (atomic_load(&s->draining)) {
			kw_reply_error(out, 503, "draining", NULL, "the server is shutting down");
			out->retry_after = 1;
		} else {
			kw_reply_json(out, 200, json_pack("{s:s}", "status", "ready"));
		}
		break;
	case KW_ROUTE_STATUS:
		status_reply(out, s);
		break;
	case KW_ROUTE_METRICS:
		metrics_reply(out, s);
		break;
	default:
		kw_reply_error(out, 404, "not_found", NULL, "no such route");
	}
}

/* Copy a URL path for the log: printable ASCII, others as '?'. */
static void copy_path(char *dst, size_t cap, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < cap && src[i]; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f && src[i] != '"' ? src[i] : '?';
	dst[i] = '\0';
}

/* A read that --allow-unauthenticated-reads lets through: GET or HEAD
 * (every GET/HEAD route only reads). */
static int is_read(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* First call: check everything the headers can tell.  Returns 1 if a
 * reply was produced (out filled). */
static int check_headers(kw_reply *out, kw_srv *s, struct MHD_Connection *c, kw_conn_ctx *ctx,
			 const char *method)
{
	const char *clen;

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
	if (!method_ok(ctx->route, method)) {
		kw_reply_error(out, 405, "method_not_allowed", NULL, "%s takes %s",
			       kw_route_name(ctx->route), allowed(ctx->route));
		out->allow = allowed(ctx->route);
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
	if (!kw_body_is_json(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_CONTENT_TYPE))) {
		kw_reply_error(out, 415, "unsupported_media_type", NULL,
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

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	kw_srv *s = cls;
	kw_conn_ctx *ctx = *con_cls;
	kw_reply r = KW_REPLY_INIT;
	const char *key = NULL;
	int draining = atomic_load(&s->draining);

	(void)version;
	if (!ctx) {
		if (!(ctx = calloc(1, sizeof(*ctx))))
			return MHD_NO;
		ctx->start = mono_now();
		ctx->cached = -1;
		ctx->route = route_of(url, &key);
		snprintf(ctx->method, sizeof(ctx->method), "%s", method);
		copy_path(ctx->path, sizeof(ctx->path), url);
		kw_body_init(&ctx->body, ctx->route == KW_ROUTE_VERIFY ? s->cfg.max_verify_bytes
								       : s->cfg.max_body_bytes);
		ctx->pending = (kw_reply)KW_REPLY_INIT;
		*con_cls = ctx;
		kw_metrics_in_flight(1);
		if (check_headers(&r, s, c, ctx, method))
			return send_reply(c, ctx, &r, 1);
		/* Answer in the last call, after the (possibly empty) body:
		 * libmicrohttpd closes a connection whose response was queued
		 * together with the headers, which would defeat keep-alive. */
		return MHD_YES;
	}
	if (*upload_data_size) {
		size_t n = *upload_data_size;

		*upload_data_size = 0;
		if (mono_now() - ctx->start > (double)s->cfg.request_timeout) {
			/* A slow sender that keeps the connection active: the
			 * inactivity timeout never fires, the whole-body one does. */
			kw_log(KW_LOG_WARN, "%s %s: body not complete after %u s; closing", ctx->method,
			       ctx->path, s->cfg.request_timeout);
			return MHD_NO;
		}
		if (ctx->responded || ctx->pending.status) {
			/* Discard the rest of a refused body, but not forever: past
			 * another max-body-bytes the connection is closed. */
			ctx->discarded += n;
			return ctx->discarded > ctx->body.max ? MHD_NO : MHD_YES;
		}
		int rc = kw_body_append(&ctx->body, upload_data, n);
		if (rc == 0)
			return MHD_YES;
		kw_body_free(&ctx->body);
		if (rc > 0)
			kw_reply_error(&r, 413, "too_large", NULL, "the body is over %zu bytes",
				       ctx->body.max);
		else
			kw_reply_error(&r, 503, "no_memory", NULL, "out of memory");
		if (send_reply(c, ctx, &r, 1) != MHD_YES) {
			/* libmicrohttpd before 1.0 takes no response mid-body
			 * (only with the headers or after the body): keep the
			 * reply, drop the remaining bytes, answer at the end.
			 * A declared Content-Length over the cap was already
			 * answered with the headers. */
			if (rc > 0)
				kw_reply_error(&ctx->pending, 413, "too_large", NULL,
					       "the body is over %zu bytes", ctx->body.max);
			else
				kw_reply_error(&ctx->pending, 503, "no_memory", NULL, "out of memory");
		}
		return MHD_YES;
	}
	if (ctx->responded)
		return MHD_YES;
	if (ctx->pending.status)
		return send_reply(c, ctx, &ctx->pending, 1);
	if (ctx->route == KW_ROUTE_KERNEL_GET || ctx->route == KW_ROUTE_VERIFY_GET)
		route_of(url, &key);
	dispatch(&r, s, c, ctx, key, url);
	return send_reply(c, ctx, &r, draining);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	kw_conn_ctx *ctx = *con_cls;
	double secs;

	(void)cls;
	(void)c;
	(void)toe;
	if (!ctx)
		return;
	secs = mono_now() - ctx->start;
	if (ctx->status)
		kw_metrics_request(ctx->route, ctx->status, secs);
	kw_log_access(ctx->method, ctx->path, ctx->status, ctx->bytes, secs * 1000.0, ctx->key,
		      ctx->cached);
	kw_metrics_in_flight(-1);
	kw_body_free(&ctx->body);
	kw_reply_reset(&ctx->pending);
	free(ctx);
	*con_cls = NULL;
}

static void mhd_logger(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
		msg[--n] = '\0';
	kw_log(KW_LOG_WARN, "libmicrohttpd: %s", msg);
}

/* Split "ADDR:PORT" / "[ADDR6]:PORT" and resolve it numerically. */
static int parse_listen(struct sockaddr_storage *ss, socklen_t *sslen, const char *listen,
			char *msg, size_t msg_len)
{
	char host[128];
	const char *colon, *port;
	struct addrinfo hints = { 0 }, *ai = NULL;
	size_t hl;
	int rc;

	if (listen[0] == '[') {
		const char *end = strchr(listen, ']');

		if (!end || end[1] != ':')
			goto bad;
		hl = (size_t)(end - listen - 1);
		if (hl >= sizeof(host))
			goto bad;
		memcpy(host, listen + 1, hl);
		port = end + 2;
	} else {
		if (!(colon = strrchr(listen, ':')))
			goto bad;
		hl = (size_t)(colon - listen);
		if (hl >= sizeof(host))
			goto bad;
		memcpy(host, listen, hl);
		port = colon + 1;
	}
	host[hl] = '\0';
	if (!*port || strspn(port, "0123456789") != strlen(port) || atol(port) > 65535)
		goto bad;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(hl ? host : NULL, port, &hints, &ai)) != 0 || !ai) {
		snprintf(msg, msg_len, "--listen %s: %s", listen, gai_strerror(rc));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sslen = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
bad:
	snprintf(msg, msg_len, "--listen wants ADDR:PORT or [ADDR6]:PORT, not \"%s\"", listen);
	return -1;
}

int kw_http_start(struct MHD_Daemon **out, kw_srv *s, char *bound, size_t bound_len)
{
	struct sockaddr_storage ss, got;
	socklen_t sslen = 0, gotlen = sizeof(got);
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
			     MHD_USE_ERROR_LOG | MHD_USE_TURBO;
	char host[INET6_ADDRSTRLEN];
	int port;

	/* A pool only for more than one thread (one = the polling thread). */
	struct MHD_OptionItem pool[] = {
		{ s->cfg.threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
		  (intptr_t)s->cfg.threads, NULL },
		{ MHD_OPTION_END, 0, NULL },
	};

	/* HTTPS (GnuTLS inside libmicrohttpd) when a certificate was given. */
	struct MHD_OptionItem tls[] = {
		{ s->tls_cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, s->tls_cert_pem },
		{ s->tls_key_pem ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, s->tls_key_pem },
		{ MHD_OPTION_END, 0, NULL },
	};

	if (parse_listen(&ss, &sslen, s->cfg.listen, bound, bound_len) < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (s->tls_cert_pem) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(bound, bound_len, "--tls-cert: this libmicrohttpd is built without TLS");
			return -1;
		}
		flags |= MHD_USE_TLS;
	}
	d = MHD_start_daemon(flags, 0, NULL, NULL, handle, s,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, NULL,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_ARRAY, pool,
			     MHD_OPTION_NOTIFY_COMPLETED, completed, s,
			     MHD_OPTION_ARRAY, tls,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)s->cfg.connection_timeout,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)s->cfg.max_connections,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)s->cfg.max_connections_per_ip,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
			     MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
			     MHD_OPTION_END);
	if (!d) {
		snprintf(bound, bound_len, "cannot listen on %s%s", s->cfg.listen,
			 s->tls_cert_pem ? " (or the TLS certificate and key do not load)" : "");
		return -1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
	if (!info || getsockname(info->listen_fd, (struct sockaddr *)&got, &gotlen) < 0) {
		MHD_stop_daemon(d);
		snprintf(bound, bound_len, "cannot read the bound address");
		return -1;
	}
	if (got.ss_family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&got;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		port = ntohs(a->sin6_port);
		snprintf(bound, bound_len, "[%s]:%d", host, port);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&got;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		port = ntohs(a->sin_port);
		snprintf(bound, bound_len, "%s:%d", host, port);
	}
	*out = d;
	return 0;
}

void kw_http_quiesce(struct MHD_Daemon *d)
{
	MHD_socket fd = MHD_quiesce_daemon(d);

	if (fd != MHD_INVALID_SOCKET)
		close(fd);
}

void kw_http_stop(struct MHD_Daemon *d)
{
	MHD_stop_daemon(d);
}
