/*
 * flight.h - single-flight: concurrent requests for the same key generate
 * once.  The first caller of kw_flight_join for a key becomes its leader
 * and generates; later callers attach a waiter and return at once (no
 * thread blocks): when the leader finishes, each waiter's wake function is
 * called with the leader's reply.  The map holds only keys being
 * generated now, so it is a short list under a mutex.
 */
#ifndef KW_SERVER_FLIGHT_H
#define KW_SERVER_FLIGHT_H

#include "reply.h"

typedef struct kw_flights kw_flights; /* the map: key -> flight */
typedef struct kw_flight kw_flight;   /* one generation in progress */

/* A follower's hook, embedded in whatever waits (a suspended request, a
 * batch item).  wake is called exactly once, on the leader's thread,
 * without any lock held; r is the leader's reply, to be copied (it is the
 * leader's).  The waiter must stay alive until then. */
typedef struct kw_flight_waiter {
	void (*wake)(struct kw_flight_waiter *w, const kw_reply *r);
	struct kw_flight_waiter *next; /* the flight's list */
} kw_flight_waiter;

/* A new empty map, or NULL when out of memory.  Free with kw_flights_free
 * once no flight is in progress. */
kw_flights *kw_flights_new(void);
void kw_flights_free(kw_flights *fs);

/*
 * Join the flight for key (64 hex digits).  Returns 1 when the caller is
 * the leader (*out is its flight: it must call kw_flight_finish); 0 when a
 * flight is running: w is attached to it and will be woken (*out = NULL;
 * w may be woken, on another thread, before this returns, so the caller
 * must not touch what w belongs to after the call); -1 when out of memory.
 */
int kw_flight_join(kw_flight **out, kw_flights *fs, const char *key, kw_flight_waiter *w);

/*
 * How many flights of key's share of the map (4,096 shares by the key's
 * first three hex digits) have finished so far.  Read it before looking
 * key up in the cache: a leader that reads the same count after
 * kw_flight_join knows that no flight of key finished (and wrote its row)
 * since that lookup began, so the lookup's "absent" still holds and need
 * not be repeated.  A different count (any key of the share) means look
 * again.
 */
unsigned long kw_flight_epoch(kw_flights *fs, const char *key);

/* Leader: remove the flight from the map (later joiners start a new one),
 * wake every waiter with r (r stays the leader's) and free the flight. */
void kw_flight_finish(kw_flights *fs, kw_flight *f, const kw_reply *r);

#endif
