/* checked.h - exact int64 arithmetic for the generators (Python ints
 * never overflow; we report KW_ELIMIT instead).  Private to lib/gen. */
#ifndef KWGEN_GEN_CHECKED_H
#define KWGEN_GEN_CHECKED_H

#include <stdint.h>

#include "kwgen/error.h"

#define KW_OVERFLOW(err, who) \
	kw_error_set(err, KW_ELIMIT, NULL, "%s: intermediate value does not fit in 64 bits", who)

static inline int kw_mul(int64_t *r, int64_t a, int64_t b) { return __builtin_mul_overflow(a, b, r); }
static inline int kw_add(int64_t *r, int64_t a, int64_t b) { return __builtin_add_overflow(a, b, r); }

/* Python's a // b (floor division) into *q; b != 0.  Returns 1 when the
 * quotient does not fit (INT64_MIN // -1), 0 otherwise. */
static inline int kw_floordiv(int64_t *q, int64_t a, int64_t b)
{
	if (b == -1 && a == INT64_MIN)
		return 1;
	*q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		(*q)--;
	return 0;
}

#endif
