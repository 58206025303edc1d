/* testhook.c - test-only hooks from the environment (testhook.h). */
#include "testhook.h"

#include "log.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

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

void kw_test_hook_sleep(const char *name, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	kw_log_event(KW_LOG_ALWAYS, "test_hook", json_pack("{s:s, s:I}", "hook", name, "ms", (json_int_t)ms),
		     "test hook %s: sleeping %ld ms", name, ms);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}
