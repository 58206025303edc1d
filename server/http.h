/*
 * http.h - kwgend's libmicrohttpd daemon: start, routes, stop.
 */
#ifndef KW_SERVER_HTTP_H
#define KW_SERVER_HTTP_H

#include <stddef.h>

#include "server.h"

struct MHD_Daemon;

/*
 * Start listening on s->cfg.listen with s->cfg.threads worker threads
 * (internal thread pool, epoll).  On success returns 0, *out the daemon
 * and bound = "ADDR:PORT" actually bound (port 0 resolved).  Returns -1
 * with a message in bound on failure.  s must outlive the daemon.
 */
int kw_http_start(struct MHD_Daemon **out, kw_srv *s, char *bound, size_t bound_len);

/* Stop accepting new connections (requests on open ones still get an
 * answer: 503 while draining). */
void kw_http_quiesce(struct MHD_Daemon *d);

/* Close every connection and join the worker threads. */
void kw_http_stop(struct MHD_Daemon *d);

#endif
