/*
 * headwatch.h - a deadline on the request head.  libmicrohttpd's
 * --connection-timeout is an inactivity timeout, and --request-timeout
 * starts once the headers are in: a client that sends its request line and
 * headers a few bytes at a time ("slowloris") is never idle and never gets
 * to the body, so it could hold a connection slot for ever, and
 * --max-connections of them lock every other client out.
 *
 * Every connection is registered when it opens.  While it waits for a
 * request head (from its opening, or from the end of its previous
 * answer, until the handler sees the complete headers) it has a deadline,
 * and so has its body once the head is in (kw_headwatch_body_until);
 * one thread checks the deadlines twice a second and shuts a late
 * connection's socket down (shutdown(2): libmicrohttpd then reads the end
 * of the stream and closes the connection itself, so the descriptor is
 * never closed under it).  A record is unregistered, under the same mutex,
 * before libmicrohttpd closes the descriptor.
 */
#ifndef KW_SERVER_HEADWATCH_H
#define KW_SERVER_HEADWATCH_H

#include <stddef.h>

typedef struct kw_headwatch kw_headwatch;
typedef struct kw_headwatch_conn kw_headwatch_conn;

/* Start the thread: a head must be complete within seconds (> 0) of the
 * start of its wait.  Returns NULL when out of memory or threads. */
kw_headwatch *kw_headwatch_new(unsigned seconds);

/* Register the connection on socket fd (client: its address, for the log;
 * copied).  Its wait for a head starts now.  Returns the record for the
 * calls below, or NULL when out of memory (the connection is then not
 * watched). */
kw_headwatch_conn *kw_headwatch_open(kw_headwatch *w, int fd, const char *client);

/* The connection's request head is complete (no deadline until idle). */
void kw_headwatch_head_in(kw_headwatch_conn *hc);

/* The request's body must be complete by until_ms (CLOCK_MONOTONIC
 * milliseconds; 0 = no deadline): --request-timeout bounds the whole request,
 * whether the client trickles or sends nothing at all (libmicrohttpd's
 * inactivity timeout alone would keep a silent half-sent body for
 * --connection-timeout).  Past it the socket is shut down as for a late
 * head. */
void kw_headwatch_body_until(kw_headwatch_conn *hc, long long until_ms);

/* The connection's answer is done: it waits for its next head, from now. */
void kw_headwatch_idle(kw_headwatch_conn *hc);

/* Unregister and free hc (before its descriptor is closed).  NULL is a
 * no-op. */
void kw_headwatch_close(kw_headwatch *w, kw_headwatch_conn *hc);

/* Connections shut down so far for a late head. */
size_t kw_headwatch_cut(kw_headwatch *w);

/* Stop the thread and free w (every connection must be closed first).
 * NULL is a no-op. */
void kw_headwatch_free(kw_headwatch *w);

#endif
