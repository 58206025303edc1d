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

long kw_admit_enter_n(kw_admit *a, long n)
{
	long now;

	if (n < 1)
		n = 1;
	if (a->max > 0 && n > a->max)
		n = a->max;
	now = atomic_fetch_add(&a->now, n) + n;
	if (a->max > 0 && now > a->max) {
		atomic_fetch_sub(&a->now, n);
		atomic_fetch_add(&a->refused, 1);
		return 0;
	}
	return n;
}

void kw_admit_leave_n(kw_admit *a, long n)
{
	atomic_fetch_sub(&a->now, n);
}

int kw_admit_enter(kw_admit *a)
{
	return kw_admit_enter_n(a, 1) > 0;
}

void kw_admit_leave(kw_admit *a)
{
	kw_admit_leave_n(a, 1);
}
