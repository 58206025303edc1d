/*
 * recent.c - the in-memory hit times of the store (see "Recency" in
 * kwgen/cache.h): a fixed set-associative table of keys, four per set.
 */
#include "store/store.h"
#include <stdlib.h>
#include <string.h>

/* 64 hex digits -> 32 bytes; -1 for anything else (not tracked). */
static int key_bytes(unsigned char out[32], const char *key)
{
	for (int i = 0; i < 64; i++) {
		int ch = (unsigned char)key[i], v;

		if (ch >= '0' && ch <= '9')
			v = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v = ch - 'A' + 10;
		else
			return -1;
		if (i % 2 == 0)
			out[i / 2] = (unsigned char)(v << 4);
		else
			out[i / 2] |= (unsigned char)v;
	}
	return key[64] == '\0' ? 0 : -1;
}

/* The set of a key: its four 8-byte words XORed, then mixed (shift-xor,
 * Fibonacci multiply, shift-xor) so that keys differing only in a few
 * bytes still spread (a SHA-256 digest is uniform already). */
static size_t set_of(const kw_cache *c, const unsigned char k[32])
{
	uint64_t h = 0;

	for (int i = 0; i < 32; i++)
		h ^= (uint64_t)k[i] << (8 * (i % 8));
	h ^= h >> 33;
	h *= UINT64_C(0x9E3779B97F4A7C15);
	h ^= h >> 29;
	return (size_t)(h % c->nsets);
}

/* Record a hit on key at ms (keeps the later of two times). */
void store_recent_touch(kw_cache *c, const char *key, int64_t ms)
{
	unsigned char k[32];
	size_t set;
	kw_recent_slot *s, *victim;
	pthread_mutex_t *lk;

	if (!c->recent || key_bytes(k, key) < 0)
		return;
	set = set_of(c, k);
	s = &c->recent[set * KW_WAYS];
	lk = &c->recent_mu[set % KW_RECENT_LOCKS];
	pthread_mutex_lock(lk);
	victim = &s[0];
	for (int i = 0; i < KW_WAYS; i++) {
		if (s[i].ms && memcmp(s[i].key, k, 32) == 0) {
			victim = &s[i];
			break;
		}
		if (s[i].ms < victim->ms)
			victim = &s[i]; /* an empty slot, else the oldest touch */
	}
	if (memcmp(victim->key, k, 32) != 0 || !victim->ms) {
		memcpy(victim->key, k, 32);
		victim->ms = ms;
		victim->dirty = 1;
	} else if (ms > victim->ms) {
		victim->ms = ms;
		victim->dirty = 1;
	} else {
		pthread_mutex_unlock(lk);
		return;
	}
	/* written only when clear: every hit writing the one shared flag
	 * would bounce its cache line between the serving threads.  Under
	 * the stripe lock, so a flush that cleared it before scanning this
	 * stripe is seen here (its scan comes after this unlock) */
	if (!atomic_load_explicit(&c->recent_dirty, memory_order_relaxed))
		atomic_store(&c->recent_dirty, 1);
	pthread_mutex_unlock(lk);
}

/* The last hit time held for key, 0 when none. */
int64_t store_recent_get(kw_cache *c, const char *key)
{
	unsigned char k[32];
	size_t set;
	kw_recent_slot *s;
	int64_t ms = 0;
	pthread_mutex_t *lk;

	if (!c->recent || key_bytes(k, key) < 0)
		return 0;
	set = set_of(c, k);
	s = &c->recent[set * KW_WAYS];
	lk = &c->recent_mu[set % KW_RECENT_LOCKS];
	pthread_mutex_lock(lk);
	for (int i = 0; i < KW_WAYS; i++)
		if (s[i].ms && memcmp(s[i].key, k, 32) == 0)
			ms = s[i].ms;
	pthread_mutex_unlock(lk);
	return ms;
}

void kw_cache_touch(kw_cache *c, const char *key)
{
	if (c && key)
		store_recent_touch(c, key, store_now_ms());
}

/* Hit times written per transaction of a flush, at most. */
#define KW_FLUSH_BATCH 1024

typedef struct flush_item {
	unsigned char key[32];
	int64_t ms;
} flush_item;

/* One transaction: last_access = the hit's time for each of the n keys
 * (never older: ST_TOUCH keeps a later stored time).  0 or -1. */
static int flush_write(kw_cache *c, const flush_item *items, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	kw_error err = KW_ERROR_INIT;
	sqlite3_stmt *st;
	int ok = 1;

	if (n == 0)
		return 0;
	if (store_write_begin(c, &err) < 0)
		return -1;
	st = c->writer->st[ST_TOUCH];
	for (size_t i = 0; i < n && ok; i++) {
		char key[65];

		for (int b = 0; b < 32; b++) {
			key[2 * b] = hex[items[i].key[b] >> 4];
			key[2 * b + 1] = hex[items[i].key[b] & 15];
		}
		key[64] = '\0';
		sqlite3_bind_text(st, 1, key, 64, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, items[i].ms);
		ok = store_run(st) == 0;
		sqlite3_clear_bindings(st);
	}
	return store_write_end(c, ok, NULL) < 0 || !ok ? -1 : 0;
}

int store_recent_flush(kw_cache *c)
{
	flush_item *items;
	size_t n = 0;
	int rc = 0;
	/* a row's update rewrites about four pages (its leaf, the
	 * last_access index's); one transaction stays within a quarter of
	 * the WAL's share, as a group of puts does */
	size_t per_txn = (size_t)(c->wal_share / 4 / (4 * c->page_size));

	if (per_txn < 1)
		per_txn = 1;
	if (per_txn > KW_FLUSH_BATCH)
		per_txn = KW_FLUSH_BATCH;
	if (!c->recent || c->read_only || !c->writer)
		return 0;
	/* nothing made dirty since the last flush looked: a round with no
	 * scan.  Cleared before the scan: a touch during it sets it again,
	 * and the next round looks (the slot may be written by this one). */
	if (!atomic_exchange(&c->recent_dirty, 0)) {
		atomic_fetch_add(&c->recency_flushes, 1);
		return 0;
	}
	if (!(items = malloc(KW_FLUSH_BATCH * sizeof(*items)))) {
		atomic_store(&c->recent_dirty, 1);
		return -1;
	}
	/* one stripe lock at a time: the hit path waits for at most one
	 * stripe's scan, never for SQLite */
	for (size_t l = 0; l < KW_RECENT_LOCKS; l++) {
		pthread_mutex_lock(&c->recent_mu[l]);
		for (size_t set = l; set < c->nsets; set += KW_RECENT_LOCKS) {
			kw_recent_slot *s = &c->recent[set * KW_WAYS];

			for (int i = 0; i < KW_WAYS && n < per_txn; i++) {
				if (s[i].ms && s[i].dirty) {
					memcpy(items[n].key, s[i].key, 32);
					items[n++].ms = s[i].ms;
					s[i].dirty = 0;
				}
			}
			if (n == per_txn) {
				pthread_mutex_unlock(&c->recent_mu[l]);
				if (flush_write(c, items, n) < 0)
					rc = -1;
				n = 0;
				pthread_mutex_lock(&c->recent_mu[l]);
			}
		}
		pthread_mutex_unlock(&c->recent_mu[l]);
	}
	if (flush_write(c, items, n) < 0)
		rc = -1;
	free(items);
	atomic_fetch_add(&c->recency_flushes, 1);
	return rc;
}
