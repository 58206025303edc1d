/*
 * http.h - kwgend's libmicrohttpd daemon: start, routes, stop.
 */
#ifndef KW_SERVER_HTTP_H
#define KW_SERVER_HTTP_H

#include <stddef.h>

#include "server.h"

struct MHD_Daemon;

/*
 * Start listening on s->cfg.listen (HOST:PORT, resolved with getaddrinfo;
 * the first address that binds is used) with s->cfg.threads polling
 * threads (internal thread pool, epoll, suspend/resume).  s->work and
 * s->linger must be running.  On success returns 0, *out the daemon and
 * bound = "ADDR:PORT" actually bound (port 0 resolved).  Returns -1 with a
 * message naming the host and port in bound on failure.  s must outlive
 * the daemon.
 */
int kw_http_start(struct MHD_Daemon **out, kw_srv *s, char *bound, size_t bound_len);

/* 0 when spec has the shape --listen takes (HOST:PORT, [ADDR6]:PORT or
 * :PORT, PORT 0..65535; the host is not resolved here), else -1 with msg
 * saying what is allowed.  kwgend checks the flag with it before start-up. */
int kw_http_listen_ok(const char *spec, char *msg, size_t msg_len);

/* Close new connections as they are accepted (requests on open ones still get an
 * answer: 503 while draining). */
void kw_http_quiesce(struct MHD_Daemon *d);

/* Close every connection, join the polling threads and close the
 * listening socket.  No connection may be suspended any more (stop the
 * worker pool first: it answers every job). */
void kw_http_stop(struct MHD_Daemon *d);

/* After the worker pool was stopped: from now on no request suspends
 * (one that would gets 503 draining), and wait up to seconds until every
 * suspended request was resumed.  Returns 0 when none is suspended (then
 * kw_http_stop is safe), -1 when some still are after seconds
 * (kw_http_stop would make libmicrohttpd panic: do not call it). */
int kw_http_wait_unsuspended(double seconds);

/* Requests the drain must wait for: generating or answering, or still
 * receiving headers or body with a byte in the last idle_seconds.  An
 * upload idle longer than that is not waited for. */
long kw_http_busy(double idle_seconds);

/* The libmicrohttpd version in use ("0.9.75"). */
const char *kw_http_library_version(void);

#endif
