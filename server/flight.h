/*
 * flight.h - single-flight: concurrent requests for the same key generate
 * once.  The first caller of kw_flight_join for a key becomes its leader
 * and generates; later callers wait until the leader publishes its reply
 * and receive a copy of it.  The map holds only keys being generated now
 * (at most one per worker thread), so it is a short list under a mutex.
 */
#ifndef KW_SERVER_FLIGHT_H
#define KW_SERVER_FLIGHT_H

#include "reply.h"

typedef struct kw_flights kw_flights; /* the map: key -> flight */
typedef struct kw_flight kw_flight;   /* one generation in progress */

/* A new empty map, or NULL when out of memory.  Free with kw_flights_free
 * once no flight is in progress. */
kw_flights *kw_flights_new(void);
void kw_flights_free(kw_flights *fs);

/*
 * Join the flight for key (64 hex digits).  Returns 1 when the caller is
 * the leader (it must call kw_flight_finish), 0 when it is a follower (it
 * must call kw_flight_wait), -1 when out of memory.  In both cases *out
 * holds a reference the caller drops with kw_flight_release.
 */
int kw_flight_join(kw_flight **out, kw_flights *fs, const char *key);

/* Leader: publish a copy of r to the followers and remove the flight from
 * the map (later joiners start a new flight).  r stays the leader's. */
void kw_flight_finish(kw_flights *fs, kw_flight *f, const kw_reply *r);

/* Follower: block until the leader finishes, then fill out with a copy of
 * its reply (out is reset first). */
void kw_flight_wait(kw_flights *fs, kw_flight *f, kw_reply *out);

/* Drop a reference from kw_flight_join. */
void kw_flight_release(kw_flights *fs, kw_flight *f);

#endif
