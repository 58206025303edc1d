/* testhook.c - test-only hooks from the environment (testhook.h). */
#include "testhook.h"

#include <errno.h>
#include <stdlib.h>

long kw_test_hook_ms(const char *name, long lo, long hi)
{
	const char *v = getenv(name);
	char *end;
	long ms;

	if (!v || !*v)
		return 0;
	errno = 0;
	ms = strtol(v, &end, 10);
	if (errno || *end || ms < lo || ms > hi)
		return 0;
	return ms;
}
