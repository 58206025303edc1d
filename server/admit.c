/*
 * admit.c - the in-flight generation cap (admit.h).
 */
#include "admit.h"

void kw_admit_init(kw_admit *a, long max)
{
	atomic_init(&a->now, 0);
	atomic_init(&a->refused, 0);
	a->max = max;
}

int kw_admit_enter(kw_admit *a)
{
	long n = atomic_fetch_add(&a->now, 1) + 1;

	if (a->max > 0 && n > a->max) {
		atomic_fetch_sub(&a->now, 1);
		atomic_fetch_add(&a->refused, 1);
		return 0;
	}
	return 1;
}

void kw_admit_leave(kw_admit *a)
{
	atomic_fetch_sub(&a->now, 1);
}
