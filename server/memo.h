/*
 * memo.h - body digest -> request key, for the cache-hit fast path.
 *
 * A request body that was seen before maps to the same key (the key
 * depends only on the body and the generator version, which is fixed for
 * the life of the process), so a repeated body skips JSON parsing and
 * canonicalisation and goes straight to the cache lookup.  The table is
 * direct-mapped with a fixed number of slots (a collision overwrites), so
 * its memory is bounded; only bodies that produced a 200 are recorded.
 */
#ifndef KW_SERVER_MEMO_H
#define KW_SERVER_MEMO_H

#include <stddef.h>

typedef struct kw_memo kw_memo;

/* A table of nslots slots (~100 bytes each), or NULL when out of memory. */
kw_memo *kw_memo_new(size_t nslots);
void kw_memo_free(kw_memo *m);

/* SHA-256 of len bytes of body into digest.  Returns 0, -1 on failure. */
int kw_memo_digest(kw_memo *m, unsigned char digest[32], const char *body, size_t len);

/* Copy the key recorded for digest into key (65 bytes) and return 1, or
 * return 0 when there is none. */
int kw_memo_get(kw_memo *m, const unsigned char digest[32], char key[65]);

/* Record digest -> key (64 hex digits). */
void kw_memo_put(kw_memo *m, const unsigned char digest[32], const char *key);

#endif
