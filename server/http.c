/*
 * http.c - routes, request limits and the one place a kw_reply becomes an
 * HTTP response.
 *
 * Request life cycle.  libmicrohttpd parses HTTP; this file only uses its
 * hooks:
 *  - the URI log callback (MHD_OPTION_URI_LOG_CALLBACK) sees the raw
 *    request line's target first: the per-request state (kw_conn_ctx) is
 *    made there, with the client address, a request id and the raw path
 *    for the log, so even a request libmicrohttpd refuses itself leaves an
 *    access line;
 *  - the access handler's first call sees the headers: framing (Content-
 *    Length against Transfer-Encoding), NUL bytes, %00, the bearer token,
 *    route, method, Content-Type and Content-Length are checked before any
 *    body is read;
 *  - the following calls hand the body over in pieces (kept in a kw_body
 *    capped at --max-body-bytes; past the cap the rest is read and thrown
 *    away, up to --linger-bytes, and the 413 is sent at the end, since
 *    libmicrohttpd 0.9 takes no response mid-body);
 *  - the last call dispatches.  A GET, a health check or a cache hit is
 *    answered there, on the polling thread.  Work that must generate is a
 *    kw_kjob: the connection is suspended (MHD_suspend_connection), the job
 *    runs on the worker pool and resumes it when its reply is ready
 *    (MHD_resume_connection, from the worker); the handler is then called
 *    again and queues the reply;
 *  - the completion callback (MHD_OPTION_NOTIFY_COMPLETED) writes the
 *    access line and the metrics, and hands a connection answered before
 *    its body was read to the lingering close (linger.h).
 * Connection count, per-address count and the inactivity timeout are
 * libmicrohttpd's own options.
 *
 * A suspended connection is resumed exactly once, by its job's done hook,
 * and nothing touches the job after that: libmicrohttpd cannot close a
 * suspended connection (it does not watch its socket), so the resume
 * never meets a freed connection.  Shutdown stops the pool (which answers
 * every job) before it stops the daemon, so no connection is suspended
 * when MHD_stop_daemon runs.
 */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "body.h"
#include "headwatch.h"
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
	kw_kjob *job;        /* generation in progress (connection suspended) */
	atomic_int job_ready;/* the job's done hook ran */
} kw_conn_ctx;

static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static kw_conn_ctx *live_head;
static char id_prefix[17];       /* random per process */
static atomic_ullong id_counter;
static int listen_fd = -1;       /* ours; closed after MHD_stop_daemon */
static kw_headwatch *headwatch; /* the request-head deadline (headwatch.h) */

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long mono_ms(void)
{
	return (long long)(mono_now() * 1000.0);
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
	case KW_ROUTE_KERNEL_GET:
	case KW_ROUTE_VERIFY_GET: return "GET, HEAD, DELETE";
	default: return "GET, HEAD";
	}
}

static int method_ok(int route, const char *method)
{
	if (route == KW_ROUTE_KERNELS || route == KW_ROUTE_BATCH || route == KW_ROUTE_VERIFY)
		return strcmp(method, "POST") == 0;
	if ((route == KW_ROUTE_KERNEL_GET || route == KW_ROUTE_VERIFY_GET) && strcmp(method, "DELETE") == 0)
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
	if (ctx->request_id[0])
		MHD_add_response_header(resp, "X-Request-Id", ctx->request_id);
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
		memcpy(ctx->code, r->code, sizeof(ctx->code));
		/* the route's series counts it now, not when libmicrohttpd
		 * reports the request completed: by then the client may
		 * already have read the answer and asked /metrics */
		kw_metrics_request(ctx->route, r->status, mono_now() - ctx->start);
		/* counted when queued, before the client can read it and ask
		 * /status; batch items are counted by kw_kernels_batch; a
		 * DELETE looks nothing up */
		if (ctx->route == KW_ROUTE_KERNELS ||
		    (ctx->route == KW_ROUTE_KERNEL_GET && strcmp(ctx->method, "DELETE") != 0))
			kw_metrics_kernel(r->status, r->cached);
		else if (ctx->route == KW_ROUTE_VERIFY ||
			 (ctx->route == KW_ROUTE_VERIFY_GET && strcmp(ctx->method, "DELETE") != 0))
			kw_metrics_verify(r->status, r->cached, ctx->body.len);
	}
	kw_reply_reset(r);
	return ret;
}

static void status_reply(kw_reply *out, kw_srv *s)
{
	kw_error e = KW_ERROR_INIT;
	kw_cache_stats st;
	kw_kernel_counts kc;
	kw_verify_counts vc;
	json_t *o;

	if (kw_cache_stats_get(&st, s->cache, &e) < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	kw_metrics_kernel_counts(&kc);
	kw_metrics_verify_counts(&vc);
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
	/* POST /v1/verify and GET /v1/verify/{key}: counted apart from kernels */
	if (o)
		json_object_set_new(o, "verify",
				    json_pack("{s:I,s:I,s:I,s:I,s:I,s:f}", "hits", (json_int_t)vc.hits, "misses",
					      (json_int_t)vc.misses, "errors", (json_int_t)vc.errors, "bytes_in",
					      (json_int_t)vc.bytes_in, "verifications", (json_int_t)vc.runs,
					      "seconds", vc.seconds));
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

/* POST /v1/verify's work for a worker: the checked request, key and all. */
typedef struct verify_args {
	kw_srv *s;
	kw_vreq *q;
} verify_args;

static void verify_run(kw_reply *out, void *arg)
{
	verify_args *a = arg;

	kw_verify_run(out, a->s, a->q);
}

static void verify_free(void *arg)
{
	verify_args *a = arg;

	kw_vreq_free(a->q);
	free(a);
}

/* POST /v1/verify: the body is checked, keyed and looked up in the cache
 * on this thread (a hit is answered here, like a kernel hit, never waiting
 * for a worker); only a miss becomes a job for the worker pool (verifying
 * a large code object takes as long as generating).  Returns as dispatch. */
static int verify_job(kw_reply *out, kw_kjob **job, kw_srv *s, struct MHD_Connection *c,
		      kw_conn_ctx *ctx, int bypass)
{
	const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	const char *isa = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "isa");
	kw_vreq *q = NULL;
	verify_args *a;

	if (kw_verify_prepare(out, &q, s, ctx->body.p, ctx->body.len, ct, isa, bypass) != 1)
		return 0; /* an error or a cache hit, in out */
	if (!(a = calloc(1, sizeof(*a)))) {
		kw_vreq_free(q);
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return 0;
	}
	a->s = s;
	a->q = q;
	/* keyed: identical verifications at once run once (single flight) */
	return kw_kjob_call(out, job, s, kw_vreq_key(q), verify_run, verify_free, a);
}

/* The GET routes and every POST route once its body is complete.  Returns
 * 0 with out filled, or 1 with *job set (a POST that must generate or
 * verify: the caller suspends the request and starts the job). */
static int dispatch(kw_reply *out, kw_kjob **job, kw_srv *s, struct MHD_Connection *c,
		    kw_conn_ctx *ctx, const char *key, const char *url)
{
	const char *cache;
	int bypass;

	*job = NULL;
	if (ctx->route == KW_ROUTE_UI) { /* the page (ui.c): static files */
		kw_ui_get(out, url,
			  MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH),
			  !s->cfg.no_ui);
		return 0;
	}
	cache = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cache");
	bypass = cache && strcmp(cache, "bypass") == 0;
	if (cache && !bypass && strcmp(cache, "default") != 0) {
		kw_reply_error(out, 400, "syntax", "cache",
			       "?cache= takes \"bypass\" or \"default\", not \"%s\"", cache);
		return 0;
	}
	switch (ctx->route) {
	case KW_ROUTE_KERNELS:
		return kw_kernels_post(out, job, s, ctx->body.p, ctx->body.len, bypass,
				       wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									      MHD_HTTP_HEADER_ACCEPT)));
	case KW_ROUTE_BATCH:
		return kw_kernels_batch(out, job, s, ctx->body.p, ctx->body.len, bypass);
	case KW_ROUTE_VERIFY: /* a hit here, a miss on the worker pool */
		return verify_job(out, job, s, c, ctx, bypass);
	case KW_ROUTE_VERIFY_GET:
		if (strcmp(ctx->method, "DELETE") == 0)
			kw_verify_delete(out, s, key);
		else
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
	return 0;
}

/* Copy a raw request target's path (up to '?') for the log: printable
 * ASCII, others as '?'. */
static void copy_path(char *dst, size_t cap, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < cap && src[i] && src[i] != '?'; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f && src[i] != '"' && src[i] != '\\' ? src[i] : '?';
	dst[i] = '\0';
}

/* An X-Request-Id worth keeping: 1..64 characters of [A-Za-z0-9._:/+=@-]. */
static int sane_request_id(const char *v)
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

/* The client's address as text ("" when unknown). */
static void client_text(struct MHD_Connection *c, char *out, size_t len)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

	out[0] = '\0';
	if (ci && ci->client_addr) {
		const struct sockaddr *sa = ci->client_addr;

		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out,
				  (socklen_t)len);
		else if (sa->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out,
				  (socklen_t)len);
	}
}

/* Connection opened / closed: the request-head deadline's records (the
 * socket context).  CLOSED comes before libmicrohttpd closes the socket. */
static void conn_notified(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	(void)cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		char client[64];

		client_text(c, client, sizeof(client));
		*socket_context = ci ? kw_headwatch_open(headwatch, ci->connect_fd, client) : NULL;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		kw_headwatch_close(headwatch, *socket_context);
		*socket_context = NULL;
	}
}

/* The connection's record (NULL when not watched). */
static kw_headwatch_conn *watched(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* URI log callback: the raw request target, before libmicrohttpd
 * unescapes it.  Makes the request's state; its return value is the
 * con_cls the handler and the completion callback see. */
static void *uri_logged(void *cls, const char *uri, struct MHD_Connection *c)
{
	kw_srv *s = cls;
	kw_conn_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL; /* the handler's first call answers 503 */
	ctx->s = s;
	ctx->conn = c;
	ctx->start = mono_now();
	atomic_init(&ctx->phase, PHASE_HEADERS);
	atomic_init(&ctx->last_ms, mono_ms());
	atomic_init(&ctx->job_ready, 0);
	ctx->cached = -1;
	ctx->route = KW_ROUTE_OTHER;
	copy_path(ctx->path, sizeof(ctx->path), uri ? uri : "");
	ctx->nul_in_uri = uri && strstr(uri, "%00") != NULL;
	ctx->uri_len = uri ? strlen(uri) : 0;
	kw_body_init(&ctx->body, s->cfg.max_body_bytes);
	ctx->pending = (kw_reply)KW_REPLY_INIT;
	snprintf(ctx->request_id, sizeof(ctx->request_id), "%s-%llu", id_prefix,
		 (unsigned long long)atomic_fetch_add(&id_counter, 1));
	client_text(c, ctx->client, sizeof(ctx->client));
	pthread_mutex_lock(&live_mu);
	ctx->next = live_head;
	if (live_head)
		live_head->prev = ctx;
	live_head = ctx;
	pthread_mutex_unlock(&live_mu);
	kw_metrics_in_flight(1);
	return ctx;
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

		copy_path(shown, sizeof(shown), h.bad_name);
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
static int has_body(struct MHD_Connection *c)
{
	const char *clen = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_CONTENT_LENGTH);

	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
	       (clen && strtoull(clen, NULL, 10) > 0);
}

/* First call: check everything the headers can tell.  Returns 1 if a
 * reply was produced (out filled). */
static int check_headers(kw_reply *out, kw_srv *s, struct MHD_Connection *c, kw_conn_ctx *ctx,
			 const char *method, const char *version)
{
	const char *clen;

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

/* A job's done hook, on whatever thread finished it: mark the reply
 * ready and resume the connection (the last touch of ctx here). */
static void job_done(void *arg)
{
	kw_conn_ctx *ctx = arg;
	struct MHD_Connection *c = ctx->conn;
	kw_srv *s = ctx->s;

	atomic_store(&ctx->job_ready, 1);
	atomic_fetch_sub(&s->suspended, 1);
	MHD_resume_connection(c);
}

/* Answer in the first call (before the body): close afterwards and, when
 * a body may be on its way, linger so the client reads the answer. */
static enum MHD_Result answer_early(struct MHD_Connection *c, kw_conn_ctx *ctx, kw_reply *r)
{
	ctx->linger = has_body(c);
	return send_reply(c, ctx, r, 1);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	kw_srv *s = cls;
	kw_conn_ctx *ctx = *con_cls;
	kw_reply r = KW_REPLY_INIT;
	kw_kjob *job = NULL;
	const char *key = NULL;
	int draining = atomic_load(&s->draining);

	if (!ctx)
		return MHD_NO; /* out of memory in uri_logged */
	if (!ctx->headers_seen) {
		const char *rid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Request-Id");

		ctx->headers_seen = 1;
		kw_headwatch_head_in(watched(c));
		ctx->route = route_of(url, &key);
		copy_path(ctx->method, sizeof(ctx->method), method);
		if (ctx->route == KW_ROUTE_VERIFY)
			kw_body_init(&ctx->body, s->cfg.max_verify_bytes);
		if (sane_request_id(rid))
			snprintf(ctx->request_id, sizeof(ctx->request_id), "%s", rid);
		if (check_headers(&r, s, c, ctx, method, version ? version : ""))
			return answer_early(c, ctx, &r);
		atomic_store(&ctx->phase, PHASE_BODY);
		atomic_store(&ctx->last_ms, mono_ms());
		/* Answer in the last call, after the (possibly empty) body:
		 * libmicrohttpd closes a connection whose response was queued
		 * together with the headers, which would defeat keep-alive. */
		return MHD_YES;
	}
	if (*upload_data_size) {
		size_t n = *upload_data_size;
		int rc;

		*upload_data_size = 0;
		atomic_store(&ctx->last_ms, mono_ms());
		if (mono_now() - ctx->start > (double)s->cfg.request_timeout) {
			/* A slow sender that keeps the connection active: the
			 * inactivity timeout never fires, the whole-body one does. */
			kw_log(KW_LOG_WARN, "%s %s: body not complete after %u s; closing", ctx->method,
			       ctx->path, s->cfg.request_timeout);
			return MHD_NO;
		}
		if (ctx->responded || ctx->pending.status) {
			/* Discard the rest of a refused body, but not forever: past
			 * --linger-bytes the connection is closed. */
			ctx->discarded += n;
			return ctx->discarded > s->cfg.linger_bytes ? MHD_NO : MHD_YES;
		}
		if ((rc = kw_body_append(&ctx->body, upload_data, n)) == 0)
			return MHD_YES;
		kw_body_free(&ctx->body);
		/* libmicrohttpd before 1.0 takes no response mid-body (only
		 * with the headers or after the body): keep the reply, read and
		 * drop the rest of the body, answer at its end.  A declared
		 * Content-Length over the cap was answered with the headers. */
		if (rc == 1) {
			kw_reply_error(&ctx->pending, 413, "too_large", NULL,
				       "the body is over %zu bytes", ctx->body.max);
		} else if (rc == 2) {
			kw_reply_error(&ctx->pending, 503, "overloaded", NULL,
				       "the request bodies being read or served hold %zu bytes already "
				       "(--max-body-memory %zu); retry",
				       kw_body_held(), s->cfg.max_body_memory);
			ctx->pending.retry_after = 1;
		} else
			kw_reply_error(&ctx->pending, 503, "no_memory", NULL, "out of memory");
		ctx->discarded = n;
		return MHD_YES;
	}
	if (ctx->responded)
		return MHD_YES;
	if (ctx->pending.status)
		return send_reply(c, ctx, &ctx->pending, 1);
	if (ctx->job) {
		/* Resumed: the job's reply is ready. */
		if (!atomic_load(&ctx->job_ready))
			return MHD_YES; /* cannot happen: only the done hook resumes */
		kw_kjob_reply(ctx->job, &r);
		kw_kjob_free(ctx->job);
		ctx->job = NULL;
		return send_reply(c, ctx, &r, draining);
	}
	atomic_store(&ctx->phase, PHASE_WORK);
	if (ctx->route == KW_ROUTE_KERNEL_GET || ctx->route == KW_ROUTE_VERIFY_GET)
		route_of(url, &key);
	if (dispatch(&r, &job, s, c, ctx, key, url)) {
		/* Generation: off this thread.  Suspend first, so that the done
		 * hook (which may run at once, on any thread) always resumes a
		 * suspended connection. */
		ctx->job = job;
		atomic_fetch_add(&s->suspended, 1);
		MHD_suspend_connection(c);
		kw_kjob_start(job, job_done, ctx);
		return MHD_YES;
	}
	return send_reply(c, ctx, &r, draining);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	kw_srv *s = cls;
	kw_conn_ctx *ctx = *con_cls;
	double secs;
	int status;

	/* The next request's head is waited for from now. */
	kw_headwatch_idle(watched(c));
	if (!ctx)
		return;
	secs = mono_now() - ctx->start;
	status = ctx->status;
	if (!status) {
		/* An answer libmicrohttpd made itself (a malformed request). */
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_HTTP_STATUS);

		if (ci && ci->http_status >= 100 && ci->http_status < 600)
			status = (int)ci->http_status;
	}
	if (status && !ctx->responded) /* ours were counted when queued */
		kw_metrics_request(ctx->route, status, secs);
	kw_log_access(&(kw_access){ ctx->method, ctx->path, status, ctx->bytes, secs * 1000.0,
				    ctx->key, ctx->cached, ctx->client, ctx->request_id,
				    ctx->code[0] ? ctx->code : ctx->pending.code });
	if (ctx->linger && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		int fd = ci ? fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;

		/* libmicrohttpd closes its descriptor next; the duplicate keeps
		 * the socket open until the client has sent what it started. */
		if (fd >= 0)
			kw_linger_add(s->linger, fd);
	}
	pthread_mutex_lock(&live_mu);
	if (ctx->prev)
		ctx->prev->next = ctx->next;
	else
		live_head = ctx->next;
	if (ctx->next)
		ctx->next->prev = ctx->prev;
	pthread_mutex_unlock(&live_mu);
	kw_metrics_in_flight(-1);
	if (ctx->job) {
		if (atomic_load(&ctx->job_ready))
			kw_kjob_free(ctx->job);
		else /* still a worker's: leak it rather than free it under the worker */
			kw_log(KW_LOG_ERROR, "%s %s: closed while generating", ctx->method, ctx->path);
	}
	kw_body_free(&ctx->body);
	kw_reply_reset(&ctx->pending);
	free(ctx);
	*con_cls = NULL;
}

const char *kw_http_library_version(void)
{
	return MHD_get_version();
}

long kw_http_busy(double idle_seconds)
{
	long long now = mono_ms(), idle_ms = (long long)(idle_seconds * 1000.0);
	long n = 0;

	pthread_mutex_lock(&live_mu);
	for (kw_conn_ctx *ctx = live_head; ctx; ctx = ctx->next)
		if (atomic_load(&ctx->phase) == PHASE_WORK ||
		    now - atomic_load(&ctx->last_ms) < idle_ms)
			n++;
	pthread_mutex_unlock(&live_mu);
	return n;
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

/* Split "HOST:PORT" / "[ADDR6]:PORT" / ":PORT" into host (may be "") and
 * port.  Returns 0, or -1 with msg set. */
static int split_listen(char *host, size_t host_len, char *port, size_t port_len,
			const char *spec, char *msg, size_t msg_len)
{
	const char *colon, *p;
	size_t hl;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':')
			goto bad;
		hl = (size_t)(end - spec - 1);
		if (hl == 0 || hl >= host_len)
			goto bad;
		memcpy(host, spec + 1, hl);
		p = end + 2;
	} else {
		if (!(colon = strrchr(spec, ':')))
			goto bad;
		hl = (size_t)(colon - spec);
		if (hl >= host_len || memchr(spec, ':', hl))
			goto bad;
		memcpy(host, spec, hl);
		p = colon + 1;
	}
	host[hl] = '\0';
	if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || atol(p) > 65535 ||
	    strlen(p) >= port_len)
		goto bad;
	snprintf(port, port_len, "%s", p);
	return 0;
bad:
	snprintf(msg, msg_len,
		 "--listen wants HOST:PORT (a name or an IPv4 address), [ADDR6]:PORT or :PORT, not \"%s\"",
		 spec);
	return -1;
}

int kw_http_listen_ok(const char *spec, char *msg, size_t msg_len)
{
	char host[256], port[8];

	return split_listen(host, sizeof(host), port, sizeof(port), spec, msg, msg_len);
}

/* Numeric text "ADDR:PORT" / "[ADDR6]:PORT" of a socket address. */
static void addr_text(char *out, size_t len, const struct sockaddr *sa)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		snprintf(out, len, "[%s]:%d", host, ntohs(a->sin6_port));
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		snprintf(out, len, "%s:%d", host, ntohs(a->sin_port));
	}
}

/* Resolve --listen (host names too, with getaddrinfo) and bind the first
 * address that binds.  Returns the listening socket, or -1 with msg naming
 * the host, the port and why. */
static int open_listener(const char *spec, char *msg, size_t msg_len)
{
	char host[256], port[8], tried[128] = "";
	struct addrinfo hints = { 0 }, *ai = NULL, *a;
	int rc, fd = -1, err = 0, one = 1;

	if (split_listen(host, sizeof(host), port, sizeof(port), spec, msg, msg_len) < 0)
		return -1;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai)) != 0 || !ai) {
		snprintf(msg, msg_len, "--listen %s: cannot resolve host \"%s\": %s", spec, host,
			 rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 1024) == 0)
			break;
		err = errno;
		addr_text(tried, sizeof(tried), a->ai_addr);
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		snprintf(msg, msg_len, "cannot listen on host %s port %s (--listen %s%s%s): %s",
			 host[0] ? host : "*", port, spec, tried[0] ? "; last tried " : "", tried,
			 strerror(err));
	return fd;
}

int kw_http_start(struct MHD_Daemon **out, kw_srv *s, char *bound, size_t bound_len)
{
	struct sockaddr_storage got;
	socklen_t gotlen = sizeof(got);
	struct MHD_Daemon *d;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
			     MHD_USE_ERROR_LOG | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME;
	unsigned char rnd[8];
	char where[128];
	int fd;

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

	if (RAND_bytes(rnd, sizeof(rnd)) != 1)
		memset(rnd, 0, sizeof(rnd));
	for (int i = 0; i < 8; i++)
		snprintf(id_prefix + 2 * i, 3, "%02x", rnd[i]);
	if (s->tls_cert_pem) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(bound, bound_len, "--tls-cert: this libmicrohttpd is built without TLS");
			return -1;
		}
		flags |= MHD_USE_TLS;
	}
	if ((fd = open_listener(s->cfg.listen, bound, bound_len)) < 0)
		return -1;
	if (getsockname(fd, (struct sockaddr *)&got, &gotlen) < 0) {
		snprintf(bound, bound_len, "cannot read the bound address: %s", strerror(errno));
		close(fd);
		return -1;
	}
	addr_text(where, sizeof(where), (struct sockaddr *)&got);
	if (got.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* A head trickled in must be complete within the idle timeout plus
	 * the body's: a client idle until just before --connection-timeout
	 * still has --request-timeout for its head. */
	if (!(headwatch = kw_headwatch_new(s->cfg.connection_timeout + s->cfg.request_timeout))) {
		snprintf(bound, bound_len, "cannot start the request-head deadline thread");
		close(fd);
		return -1;
	}
	d = MHD_start_daemon(flags, 0, NULL, NULL, handle, s,
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, NULL,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
			     MHD_OPTION_ARRAY, pool,
			     MHD_OPTION_URI_LOG_CALLBACK, uri_logged, s,
			     MHD_OPTION_NOTIFY_COMPLETED, completed, s,
			     MHD_OPTION_NOTIFY_CONNECTION, conn_notified, s,
			     MHD_OPTION_ARRAY, tls,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)s->cfg.connection_timeout,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)s->cfg.max_connections,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)s->cfg.max_connections_per_ip,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
			     MHD_OPTION_END);
	if (!d) {
		snprintf(bound, bound_len, "cannot serve on %s (--listen %s)%s", where, s->cfg.listen,
			 s->tls_cert_pem ? ": the TLS certificate and key do not load" : "");
		close(fd);
		kw_headwatch_free(headwatch);
		headwatch = NULL;
		return -1;
	}
	listen_fd = fd;
	snprintf(bound, bound_len, "%s", where);
	*out = d;
	return 0;
}

void kw_http_quiesce(struct MHD_Daemon *d)
{
	/* New connections stop being accepted; shutting the socket down
	 * makes the kernel refuse them too (instead of queueing them in the
	 * backlog until the daemon stops).  The descriptor itself is closed
	 * after MHD_stop_daemon: libmicrohttpd's threads may still hold it. */
	MHD_quiesce_daemon(d);
	if (listen_fd >= 0)
		shutdown(listen_fd, SHUT_RDWR);
}

void kw_http_stop(struct MHD_Daemon *d)
{
	MHD_stop_daemon(d);
	kw_headwatch_free(headwatch); /* every connection is closed */
	headwatch = NULL;
	if (listen_fd >= 0)
		close(listen_fd);
	listen_fd = -1;
}
