/*
 * testhook.h - kwgend's test-only delays and periods, read from its
 * environment (KWGEND_TEST_*; the table is in tests/README.md).  They let
 * a test make a job provably longer or a round provably sooner, whatever
 * the machine's speed.  Unset, empty, not a whole number or out of range:
 * the hook is off.
 */
#ifndef KW_SERVER_TESTHOOK_H
#define KW_SERVER_TESTHOOK_H

/* Milliseconds in environment variable name, if an integer in [lo, hi];
 * else 0 (off). */
long kw_test_hook_ms(const char *name, long lo, long hi);

/* Sleep ms milliseconds for hook name, first logging the line
 * {"event": "test_hook", "hook": name, "ms": ms} (whatever --log-level
 * says): a test waits for that line to know the daemon has reached the
 * hook, instead of sleeping a guess.  EINTR does not cut the sleep short. */
void kw_test_hook_sleep(const char *name, long ms);

#endif
