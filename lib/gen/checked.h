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

/* Python's a // b (floor division); b != 0 and not (INT64_MIN, -1). */
static inline int64_t kw_floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

#endif
