/*
 * recent.c - the in-memory hit times of the store (see "Recency" in
 * kwgen/cache.h): a fixed set-associative table of keys, four per set.
 */
#include "store/store.h"
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
	} else if (ms > victim->ms) {
		victim->ms = ms;
	}
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
