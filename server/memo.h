/*
 * memo.h - the cache-hit fast path: body digest -> key and, within a byte
 * budget, the stored response itself.
 *
 * A request body seen before maps to the same key (the key depends only on
 * the body and the generator version, fixed for the life of the process),
 * so a repeated body skips JSON parsing, canonicalisation and, while the
 * entry is fresh, the SQLite read.  An entry is fresh for fresh_ms after
 * the row was last confirmed in the cache file (kernels.c re-reads the
 * row, which also refreshes its last_access, once it is stale), so rows
 * evicted from the file stop being served from memory within fresh_ms.
 *
 * The table is direct-mapped with a fixed number of slots (a collision
 * overwrites), so its memory is bounded: slots plus at most budget bytes of
 * response text.  Only answers with status 200 are recorded.
 *
 * Beside it, by key, the answers of GET /v1/kernels/{key}: the stored
 * response with the row's source (JSON) and its text form, in as many
 * slots again, under the same budget and the same freshness, so that a
 * repeated GET (and its 304) is served from memory like a POST hit.
 */
#ifndef KW_SERVER_MEMO_H
#define KW_SERVER_MEMO_H

#include <stddef.h>
#include <stdint.h>

typedef struct kw_memo kw_memo;

/* A table of nslots slots (~120 bytes each) holding at most budget bytes
 * of responses, fresh for fresh_ms; NULL when out of memory. */
kw_memo *kw_memo_new(size_t nslots, size_t budget, int64_t fresh_ms);
void kw_memo_free(kw_memo *m);

/* SHA-256 of len bytes of body into digest.  Returns 0, -1 on failure. */
int kw_memo_digest(kw_memo *m, unsigned char digest[32], const char *body, size_t len);

/*
 * Look digest up.  Returns 0 when unknown; 1 with key (65 bytes) filled
 * when the key is known but no fresh response is held; 2 with key filled
 * and *resp a malloc()ed copy of the response (*resp_len bytes, caller
 * frees) when a fresh one is held.
 */
int kw_memo_get(kw_memo *m, const unsigned char digest[32], char key[65], char **resp,
		size_t *resp_len);

/* Record digest -> key (64 hex digits) and, if it fits the budget, a copy
 * of resp (len bytes; resp may be NULL; an empty one is not held),
 * confirmed now. */
void kw_memo_put(kw_memo *m, const unsigned char digest[32], const char *key, const char *resp,
		 size_t len);

/* Drop every slot that maps to key (64 hex digits): a DELETE of the row
 * must not be answered from memory.  Walks the whole table (rare); the
 * GET answers of key too. */
void kw_memo_forget(kw_memo *m, const char *key);

/* The GET answer held for key (64 hex digits): as_text 0 = the JSON, 1 =
 * the text.  Returns 1 with *resp a malloc()ed copy (*len bytes, caller
 * frees) when a fresh one is held, else 0.  m may be NULL (0). */
int kw_memo_get_row(kw_memo *m, const char *key, int as_text, char **resp, size_t *len);

/* Hold resp (len bytes; an empty one is not held) as key's GET answer in
 * the form as_text, if it fits the budget, confirmed now.  m may be NULL
 * (nothing). */
void kw_memo_put_row(kw_memo *m, const char *key, int as_text, const char *resp, size_t len);

/* Drop key's GET answers (its row was rewritten: ?cache=bypass, a new
 * source).  Cheap (one slot).  m may be NULL. */
void kw_memo_forget_row(kw_memo *m, const char *key);

#endif
