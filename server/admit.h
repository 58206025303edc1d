/*
 * admit.h - the bound on queued generation work (--max-inflight).
 *
 * Generating is the only expensive thing kwgend does, so that is what is
 * counted: a request that must generate takes slots before it is queued
 * for the workers (work.h) - a miss one, a batch one per item (at most the
 * whole cap) - and gives them back when it is answered.  When the slots
 * are taken it is answered 503 with Retry-After at once instead of
 * waiting.  Cache hits, GETs, errors and followers of a single flight take
 * no slot.  So the work queued behind the workers, and the memory it
 * holds, is bounded however many clients come.
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

/* Take n slots (n is capped at the cap, so any n can be admitted into an
 * idle server): returns the slots taken (give them back with
 * kw_admit_leave_n), or 0 when they are not free. */
long kw_admit_enter_n(kw_admit *a, long n);
void kw_admit_leave_n(kw_admit *a, long n);

#endif
