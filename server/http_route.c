/*
 * http_route.c - which route a request path names, what it accepts, and
 * the answer of every route once the request is complete (dispatch).
 */
#include "http_int.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kernels.h"
#include "kernels_yaml.h"
#include "verify.h"
#include "metrics.h"
#include "reply.h"
#include "ui.h"
#include "kwgen/buf.h"
#include "kwgen/text.h"

#if defined(__has_include)
#if __has_include("kwgen/arch.h")
#include "kwgen/arch.h"
#define KW_HAVE_ISAS 1
#endif
#endif

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *kw_http_origin_path(const char *url)
{
	size_t skip;
	const char *p;

	if (strncasecmp(url, "http://", 7) == 0)
		skip = 7;
	else if (strncasecmp(url, "https://", 8) == 0)
		skip = 8;
	else
		return url;
	p = url + skip + strcspn(url + skip, "/?");
	return *p == '/' ? p : "/";
}

/* Route of a URL path; *key points at the {key} part of /v1/kernels/{key}. */
int kw_http_route_of(const char *url, const char **key)
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
const char *kw_http_allowed(int route)
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

int kw_http_method_ok(int route, const char *method)
{
	if (route == KW_ROUTE_KERNELS || route == KW_ROUTE_BATCH || route == KW_ROUTE_VERIFY)
		return strcmp(method, "POST") == 0;
	if ((route == KW_ROUTE_KERNEL_GET || route == KW_ROUTE_VERIFY_GET) && strcmp(method, "DELETE") == 0)
		return 1;
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* The q values an Accept header gives text/plain (or text with a star),
 * application/json and a wildcard that covers JSON (a star alone, or
 * application with a star): -1 when not named.  Media ranges are split at
 * commas, their q at ";q=".  *text_first: text was named before JSON. */
typedef struct accept_q {
	double text, json, any;
	int text_first;
} accept_q;

static accept_q accept_parse(const char *accept)
{
	accept_q a = { -1, -1, -1, 0 };
	int seen = 0;
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
			if (qv > a.text) {
				a.text = qv;
				if (!seen)
					a.text_first = 1;
			}
			seen = 1;
		} else if (tl == 16 && !strncasecmp(p, "application/json", 16)) {
			if (qv > a.json)
				a.json = qv;
			seen = 1;
		} else if ((tl == 3 && !strncmp(p, "*/*", 3)) || (tl == 13 && !strncasecmp(p, "application/*", 13))) {
			if (qv > a.any)
				a.any = qv;
		}
		p = end ? end + 1 : NULL;
	}
	return a;
}

/*
 * Does an Accept header prefer text/plain to JSON?  text/plain (or "text/"
 * with a star) wins when its q is above 0 and above application/json's,
 * or equal and listed first; other wildcards do not count.  No header, or
 * anything else: JSON.
 */
int kw_http_wants_text(const char *accept)
{
	accept_q a = accept_parse(accept);

	return a.text > 0 && (a.text > a.json || (a.text == a.json && a.text_first));
}

int kw_http_accepts_json(const char *accept)
{
	accept_q a;

	if (!accept || !accept[strspn(accept, " \t")])
		return 1;
	a = accept_parse(accept);
	return a.json > 0 || (a.json < 0 && a.any > 0);
}

/* "// error: <code>: <message>\n", a batch item without an answer, as
 * kwgen --asm --batch prints it (line breaks in the message as spaces). */
static void item_error_text(kw_buf *b, const json_t *err, long long status)
{
	const char *code = json_string_value(json_object_get(err, "code"));
	const char *msg = json_string_value(json_object_get(err, "message"));

	kw_buf_puts(b, "// error: ");
	kw_buf_puts(b, code ? code : "error");
	kw_buf_puts(b, ": ");
	if (msg) {
		for (const char *m = msg; *m; m++)
			kw_buf_putc(b, *m == '\n' ? ' ' : *m);
	} else {
		kw_buf_puts(b, "status ");
		kw_buf_put_i64(b, status);
	}
	kw_buf_putc(b, '\n');
}

void kw_http_batch_to_text(kw_reply *out)
{
	kw_error e = KW_ERROR_INIT;
	kw_buf b = KW_BUF_INIT;
	json_t *ans, *res;
	size_t i;

	if (out->status != 200 || !out->body || out->content_type)
		return;
	ans = json_loadb(out->body, out->len, 0, NULL);
	res = json_object_get(ans, "results");
	if (!json_is_array(res)) {
		json_decref(ans);
		kw_reply_error(out, 500, "internal", NULL, "the batch answer could not be rendered as text");
		return;
	}
	for (i = 0; i < json_array_size(res); i++) {
		const json_t *it = json_array_get(res, i), *resp = json_object_get(it, "response");
		long long status = (long long)json_integer_value(json_object_get(it, "status"));

		if (status == 200 && json_is_object(resp)) {
			if (kw_text_render(&b, resp, &e) < 0)
				break;
		} else {
			item_error_text(&b, json_object_get(it, "error"), status);
		}
	}
	json_decref(ans);
	if (i < json_array_size(res) || b.oom || (!b.p && kw_buf_grow(&b, 0))) {
		kw_buf_free(&b);
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory rendering the batch as text");
		out->retry_after = 1;
		return;
	}
	free(out->body);
	out->len = b.len;
	out->body = kw_buf_detach(&b);
	out->content_type = "text/plain; charset=utf-8";
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
	text = kw_metrics_render(&len, &st, &s->admit);
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

	if (kw_verify_prepare(out, &q, s, ctx->body.p, ctx->body.len, ct, isa,
			      MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "assume_atomic_counters"),
			      bypass) != 1)
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
int kw_http_dispatch(kw_reply *out, kw_kjob **job, kw_srv *s, struct MHD_Connection *c,
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
		if (kw_kernels_is_yaml(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE)))
			return kw_kernels_post_yaml(out, job, s, ctx->body.p, ctx->body.len,
						    MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "isa"),
						    MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "generators"),
						    MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "derive"),
						    bypass, kw_http_wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
												   MHD_HTTP_HEADER_ACCEPT)));
		return kw_kernels_post(out, job, s, ctx->body.p, ctx->body.len, bypass,
				       kw_http_wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
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
				       kw_http_wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
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
