/*
 * http.c - the request life cycle and the one place a kw_reply becomes an
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
 * every job), then kw_http_wait_unsuspended closes the door on new
 * suspensions and waits until the last one is resumed, so no connection
 * is suspended when MHD_stop_daemon runs (libmicrohttpd 0.9.75 panics
 * then; its panic is logged by mhd_panic).
 */
#include "http_int.h"
#include "testhook.h"

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

static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static kw_conn_ctx *live_head;
static char id_prefix[17];       /* random per process */
static atomic_ullong id_counter;
static int listen_fd = -1;       /* ours; closed after MHD_stop_daemon */
static kw_headwatch *headwatch; /* the request-head deadline (headwatch.h) */
static atomic_int closing;       /* kw_http_wait_unsuspended began: no new suspension */
static atomic_int quiesced;      /* kw_http_quiesce: new connections are closed at once */
static long test_suspend_delay_ms; /* KWGEND_TEST_SUSPEND_DELAY_MS (tests only) */
static kw_srv *kw_http_srv;      /* the daemon's state (kw_http_start) */

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

/* An error reply's body names the request: "request_id" joins its
 * {"error": {...}} (the X-Request-Id header's value), so a client that
 * keeps only the body can still quote it.  Only error replies (r->code set)
 * with a JSON body are touched; out of memory leaves the body as it is. */
static void add_request_id(kw_reply *r, const char *id)
{
	json_t *o, *e;
	char *text;

	if (!r->code[0] || !r->body || !r->len || r->content_type || !id[0])
		return;
	o = json_loadb(r->body, r->len, 0, NULL);
	e = json_object_get(o, "error");
	if (json_is_object(e) && json_object_set_new(e, "request_id", json_string(id)) == 0 &&
	    (text = json_dumps(o, JSON_COMPACT))) {
		free(r->body);
		r->body = text;
		r->len = strlen(text);
	}
	json_decref(o);
}

/* Turn r into a response and queue it; r's body moves into the response.
 * Returns MHD_YES if queued. */
static enum MHD_Result send_reply(struct MHD_Connection *c, kw_conn_ctx *ctx, kw_reply *r,
				  int close)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char num[24];

	if (ctx->batch_text)
		kw_http_batch_to_text(r);
	add_request_id(r, ctx->request_id);
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
	if (ctx->route == KW_ROUTE_KERNELS || ctx->route == KW_ROUTE_KERNEL_GET ||
	    ctx->route == KW_ROUTE_BATCH || ctx->route == KW_ROUTE_VERIFY || ctx->route == KW_ROUTE_VERIFY_GET)
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
	kw_http_copy_path(ctx->path, sizeof(ctx->path), uri ? uri : "");
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


/* A job's done hook, on whatever thread finished it: mark the reply
 * ready and resume the connection (the last touch of ctx here). */
static void job_done(void *arg)
{
	kw_conn_ctx *ctx = arg;
	struct MHD_Connection *c = ctx->conn;
	kw_srv *s = ctx->s;

	(void)s;
	atomic_store(&ctx->job_ready, 1);
	/* s->suspended is counted down when libmicrohttpd has taken the
	 * connection off its suspended list (the handler runs again, or the
	 * completion callback), not here: kw_http_wait_unsuspended never sees
	 * 0 while a resume is still pending inside libmicrohttpd. */
	MHD_resume_connection(c);
}

/* The request no longer counts as suspended (once). */
static void unsuspended(kw_conn_ctx *ctx)
{
	if (ctx->suspend_counted) {
		ctx->suspend_counted = 0;
		atomic_fetch_sub(&ctx->s->suspended, 1);
	}
}

/* Answer in the first call (before the body): close afterwards and, when
 * a body may be on its way, linger so the client reads the answer. */
static enum MHD_Result answer_early(struct MHD_Connection *c, kw_conn_ctx *ctx, kw_reply *r)
{
	ctx->linger = kw_http_has_body(c);
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
	url = kw_http_origin_path(url);
	if (!ctx->headers_seen) {
		const char *rid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Request-Id");

		ctx->headers_seen = 1;
		kw_headwatch_head_in(watched(c));
		ctx->route = kw_http_route_of(url, &key);
		kw_http_copy_path(ctx->method, sizeof(ctx->method), method);
		if (ctx->route == KW_ROUTE_VERIFY)
			kw_body_init(&ctx->body, s->cfg.max_verify_bytes);
		if (kw_http_sane_request_id(rid))
			snprintf(ctx->request_id, sizeof(ctx->request_id), "%s", rid);
		ctx->batch_text = ctx->route == KW_ROUTE_BATCH &&
				  kw_http_wants_text(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
										 MHD_HTTP_HEADER_ACCEPT));
		if (kw_http_check_headers(&r, s, c, ctx, method, version ? version : ""))
			return answer_early(c, ctx, &r);
		atomic_store(&ctx->phase, PHASE_BODY);
		atomic_store(&ctx->last_ms, mono_ms());
		/* --request-timeout bounds the whole request, from its request
		 * line, silent or trickling (headwatch.h) */
		if (kw_http_has_body(c))
			kw_headwatch_body_until(watched(c),
						(long long)(ctx->start * 1000.0) +
							(long long)s->cfg.request_timeout * 1000);
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
			/* Discard the rest of a refused body, but not forever: the
			 * request's deadline bounds it, and --linger-bytes as a rate
			 * (a burst, then that many a second since the request began). */
			ctx->discarded += n;
			return s->cfg.linger_bytes &&
					       (double)ctx->discarded >
						       (double)s->cfg.linger_bytes * (1.0 + mono_now() - ctx->start)
				       ? MHD_NO
				       : MHD_YES;
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
	if (atomic_load(&ctx->phase) == PHASE_BODY)
		kw_headwatch_body_until(watched(c), 0); /* the body is in */
	if (ctx->responded)
		return MHD_YES;
	if (ctx->pending.status)
		return send_reply(c, ctx, &ctx->pending, 1);
	if (ctx->job) {
		/* Resumed: the job's reply is ready. */
		if (!atomic_load(&ctx->job_ready))
			return MHD_YES; /* cannot happen: only the done hook resumes */
		unsuspended(ctx);
		kw_kjob_reply(ctx->job, &r);
		kw_kjob_free(ctx->job);
		ctx->job = NULL;
		return send_reply(c, ctx, &r, draining);
	}
	atomic_store(&ctx->phase, PHASE_WORK);
	if (ctx->route == KW_ROUTE_KERNEL_GET || ctx->route == KW_ROUTE_VERIFY_GET)
		kw_http_route_of(url, &key);
	/* Counted before it may suspend, and checked against the stop after
	 * (both sequentially consistent): either kw_http_wait_unsuspended
	 * sees this request, or this request sees the stop and never
	 * suspends.  No connection is suspended when MHD_stop_daemon runs. */
	atomic_fetch_add(&s->suspended, 1);
	if (atomic_load(&closing)) {
		atomic_fetch_sub(&s->suspended, 1);
		kw_reply_error(&r, 503, "draining", NULL, "the server is shutting down");
		r.retry_after = 1;
		return send_reply(c, ctx, &r, 1);
	}
	if (test_suspend_delay_ms > 0) /* tests only: a late suspension, decided before the stop */
		kw_test_hook_sleep("KWGEND_TEST_SUSPEND_DELAY_MS", test_suspend_delay_ms);
	if (kw_http_dispatch(&r, &job, s, c, ctx, key, url)) {
		/* Generation: off this thread.  Suspend first, so that the done
		 * hook (which may run at once, on any thread) always resumes a
		 * suspended connection. */
		ctx->job = job;
		ctx->suspend_counted = 1;
		MHD_suspend_connection(c);
		kw_kjob_start(job, job_done, ctx);
		return MHD_YES;
	}
	atomic_fetch_sub(&s->suspended, 1);
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
	unsuspended(ctx);
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

/* libmicrohttpd's panic (an internal invariant broken, such as
 * MHD_stop_daemon with a connection still suspended): say where and why
 * in the log, then abort as libmicrohttpd would (it must not return). */
static void mhd_panic(void *cls, const char *file, unsigned int line, const char *reason)
{
	(void)cls;
	kw_log(KW_LOG_ERROR, "libmicrohttpd panic at %s:%u: %s", file ? file : "?", line,
	       reason ? reason : "(no reason given)");
	abort();
}

int kw_http_wait_unsuspended(double seconds)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	double until = mono_now() + seconds; /* by the clock, not by counting sleeps */

	atomic_store(&closing, 1);
	while (atomic_load(&kw_http_srv->suspended) > 0) {
		if (mono_now() >= until)
			return -1;
		nanosleep(&tick, NULL);
	}
	return 0;
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


/* libmicrohttpd's accept policy: once quiesced, a new connection is closed
 * as it is accepted. */
static enum MHD_Result accept_policy(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	(void)cls;
	(void)addr;
	(void)addrlen;
	return atomic_load(&quiesced) ? MHD_NO : MHD_YES;
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

	test_suspend_delay_ms = kw_test_hook_ms("KWGEND_TEST_SUSPEND_DELAY_MS", 1, 10000);
	atomic_store(&closing, 0);
	atomic_store(&quiesced, 0);
	kw_http_srv = s;
	MHD_set_panic_func(mhd_panic, NULL);
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
	if ((fd = kw_http_open_listener(s->cfg.listen, bound, bound_len)) < 0)
		return -1;
	if (getsockname(fd, (struct sockaddr *)&got, &gotlen) < 0) {
		snprintf(bound, bound_len, "cannot read the bound address: %s", strerror(errno));
		close(fd);
		return -1;
	}
	kw_http_addr_text(where, sizeof(where), (struct sockaddr *)&got);
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
	d = MHD_start_daemon(flags, 0, accept_policy, NULL, handle, s,
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
	/* New connections are closed as they come (the accept policy), not
	 * served.  Not MHD_quiesce_daemon: with a thread pool and epoll it
	 * races each worker removing the listening socket from its epoll set,
	 * and the loser's ENOENT is a libmicrohttpd panic (abort) at
	 * shutdown (libmicrohttpd 0.9.75, seen as exit on signal 6). */
	(void)d;
	atomic_store(&quiesced, 1);
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
