/*
 * linger.h - lingering close: after an early answer (a 413 on a declared
 * Content-Length over --max-body-bytes, a 401, a 404 on a POST, a framing
 * 400), the client may still be sending the body it started before the
 * answer came (clients that do not send Expect: 100-continue, e.g. Python's
 * urllib and requests).  Closing a socket with unread input makes the
 * kernel send a TCP reset, which destroys the answer in flight.  Instead,
 * the socket is handed over here once libmicrohttpd has written the whole
 * answer: its write side is shut (the client sees the end of the answer),
 * and whatever the client still sends is read and thrown away until it
 * closes.  As nginx's lingering_time and lingering_timeout, time bounds it:
 * at most --linger-seconds in all, and at most --linger-timeout waiting for
 * the next bytes; --linger-bytes is a rate, not a cap (a burst of that many
 * bytes, then that many a second): past its allowance a socket is not read
 * for a while, so TCP slows the client down, instead of being closed under
 * a client that is still sending (which would destroy the answer).  One thread with epoll serves every lingering socket; at
 * most KW_LINGER_MAX at once (beyond that a socket is closed at once).
 */
#ifndef KW_SERVER_LINGER_H
#define KW_SERVER_LINGER_H

#include <stddef.h>

#define KW_LINGER_MAX 256

typedef struct kw_linger kw_linger;

/* Start the thread.  seconds: the longest linger (0 turns lingering off:
 * kw_linger_add then just closes); idle_seconds: the longest wait for the
 * client's next bytes (0 = 1); rate: bytes a second read and thrown away
 * per socket (0 = no bound).  Returns NULL when out of memory or threads. */
kw_linger *kw_linger_new(unsigned seconds, unsigned idle_seconds, size_t rate);

/* Take over fd (a socket the caller must not use or close any more). */
void kw_linger_add(kw_linger *l, int fd);

/* Sockets lingering now. */
size_t kw_linger_count(kw_linger *l);

/* Close every lingering socket, stop the thread, free l.  NULL is a no-op. */
void kw_linger_free(kw_linger *l);

#endif
