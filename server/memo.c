/*
 * memo.c - the body-digest -> key table (see memo.h).  Slots are guarded
 * by a small array of striped mutexes; SHA-256 comes from libcrypto.
 */
#include "memo.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define KW_MEMO_LOCKS 64

typedef struct kw_memo_slot {
	unsigned char digest[32];
	char key[65];
	unsigned char used;
} kw_memo_slot;

struct kw_memo {
	size_t nslots;
	kw_memo_slot *slots;
	pthread_mutex_t locks[KW_MEMO_LOCKS];
	EVP_MD *sha256;
};

kw_memo *kw_memo_new(size_t nslots)
{
	kw_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nslots = nslots ? nslots : 1;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	m->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!m->slots || !m->sha256) {
		kw_memo_free(m);
		return NULL;
	}
	for (int i = 0; i < KW_MEMO_LOCKS; i++)
		pthread_mutex_init(&m->locks[i], NULL);
	return m;
}

void kw_memo_free(kw_memo *m)
{
	if (!m)
		return;
	if (m->slots)
		for (int i = 0; i < KW_MEMO_LOCKS; i++)
			pthread_mutex_destroy(&m->locks[i]);
	EVP_MD_free(m->sha256);
	free(m->slots);
	free(m);
}

int kw_memo_digest(kw_memo *m, unsigned char digest[32], const char *body, size_t len)
{
	unsigned int n = 0;

	if (EVP_Digest(body ? body : "", len, digest, &n, m->sha256, NULL) != 1 || n != 32)
		return -1;
	return 0;
}

static size_t slot_of(const kw_memo *m, const unsigned char d[32])
{
	size_t h;

	memcpy(&h, d, sizeof(h));
	return h % m->nslots;
}

int kw_memo_get(kw_memo *m, const unsigned char digest[32], char key[65])
{
	size_t i = slot_of(m, digest);
	pthread_mutex_t *lk = &m->locks[i % KW_MEMO_LOCKS];
	int found;

	pthread_mutex_lock(lk);
	found = m->slots[i].used && memcmp(m->slots[i].digest, digest, 32) == 0;
	if (found)
		memcpy(key, m->slots[i].key, 65);
	pthread_mutex_unlock(lk);
	return found;
}

void kw_memo_put(kw_memo *m, const unsigned char digest[32], const char *key)
{
	size_t i = slot_of(m, digest);
	pthread_mutex_t *lk = &m->locks[i % KW_MEMO_LOCKS];

	pthread_mutex_lock(lk);
	memcpy(m->slots[i].digest, digest, 32);
	memcpy(m->slots[i].key, key, 64);
	m->slots[i].key[64] = '\0';
	m->slots[i].used = 1;
	pthread_mutex_unlock(lk);
}
