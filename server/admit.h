/*
 * admit.h - the bounded queue of generation work (--max-inflight).
 *
 * Generating is the only expensive thing kwgend does, so that is what is
 * counted: a request that must generate takes a slot first, and when every
 * slot is taken it is answered 503 with Retry-After at once instead of
 * waiting.  Cache hits, GETs and errors take no slot.  There is no queue
 * behind the cap: nothing builds up in memory however many clients come.
 *
 * A kw_admit is a plain struct of atomics, shared by every worker thread;
 * no allocation.
 */
#ifndef KW_SERVER_ADMIT_H
#define KW_SERVER_ADMIT_H

#include <stdatomic.h>

typedef struct kw_admit {
	atomic_long now;      /* slots taken */
	long max;             /* cap; 0 = no cap */
	atomic_ulong refused; /* kw_admit_enter calls that found no slot */
} kw_admit;

/* Set the cap (0 = unbounded) and zero the counters. */
void kw_admit_init(kw_admit *a, long max);

/* Take a slot: 1 when taken (call kw_admit_leave later), 0 when full. */
int kw_admit_enter(kw_admit *a);

/* Give back a slot taken by kw_admit_enter. */
void kw_admit_leave(kw_admit *a);

#endif
