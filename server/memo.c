/*
 * memo.c - the body-digest table of the hit fast path (see memo.h).  Slots
 * are guarded by striped mutexes; the byte budget by an atomic counter.
 * SHA-256 comes from libcrypto, with one digest context per thread.
 */
#include "memo.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KW_MEMO_LOCKS 64

typedef struct kw_memo_slot {
	unsigned char digest[32];
	char key[65];
	unsigned char used;
	char *resp;         /* malloc()ed or NULL */
	size_t len;
	int64_t confirmed;  /* ms (CLOCK_MONOTONIC) the row was last seen in the file */
} kw_memo_slot;

/* A GET answer by key: [0] the JSON, [1] the text. */
typedef struct kw_memo_row {
	char key[64];
	unsigned char used;
	char *resp[2];      /* malloc()ed or NULL */
	size_t len[2];
	int64_t confirmed[2];
} kw_memo_row;

struct kw_memo {
	size_t nslots;
	size_t budget;
	int64_t fresh_ms;
	atomic_size_t held;  /* response bytes held */
	kw_memo_slot *slots;
	kw_memo_row *rows;   /* nslots of them, by key */
	pthread_mutex_t locks[KW_MEMO_LOCKS];
	EVP_MD *sha256;
};

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

kw_memo *kw_memo_new(size_t nslots, size_t budget, int64_t fresh_ms)
{
	kw_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nslots = nslots ? nslots : 1;
	m->budget = budget;
	m->fresh_ms = fresh_ms;
	m->slots = calloc(m->nslots, sizeof(*m->slots));
	m->rows = calloc(m->nslots, sizeof(*m->rows));
	m->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!m->slots || !m->rows || !m->sha256) {
		EVP_MD_free(m->sha256);
		free(m->slots);
		free(m->rows);
		free(m);
		return NULL;
	}
	for (int i = 0; i < KW_MEMO_LOCKS; i++)
		pthread_mutex_init(&m->locks[i], NULL);
	return m;
}

void kw_memo_free(kw_memo *m)
{
	size_t held;

	if (!m)
		return;
	held = atomic_load(&m->held);
	for (int i = 0; i < KW_MEMO_LOCKS; i++)
		pthread_mutex_destroy(&m->locks[i]);
	/* no response held (every one held has len > 0): nothing to free, and
	 * the slots (~4 MB, most never written) are not read in */
	for (size_t i = 0; held && i < m->nslots; i++) {
		free(m->slots[i].resp);
		free(m->rows[i].resp[0]);
		free(m->rows[i].resp[1]);
	}
	EVP_MD_free(m->sha256);
	free(m->slots);
	free(m->rows);
	free(m);
}

/* One reusable digest context per thread, freed when the thread exits. */
static pthread_key_t kw_memo_ctx_key;
static pthread_once_t kw_memo_ctx_once = PTHREAD_ONCE_INIT;

static void ctx_free(void *p)
{
	EVP_MD_CTX_free(p);
}

static void ctx_key_init(void)
{
	pthread_key_create(&kw_memo_ctx_key, ctx_free);
}

int kw_memo_digest(kw_memo *m, unsigned char digest[32], const char *body, size_t len)
{
	EVP_MD_CTX *ctx;
	unsigned int n = 0;

	pthread_once(&kw_memo_ctx_once, ctx_key_init);
	ctx = pthread_getspecific(kw_memo_ctx_key);
	if (!ctx) {
		if (!(ctx = EVP_MD_CTX_new()))
			return -1;
		pthread_setspecific(kw_memo_ctx_key, ctx);
	}
	if (EVP_DigestInit_ex2(ctx, m->sha256, NULL) != 1 ||
	    EVP_DigestUpdate(ctx, body ? body : "", len) != 1 ||
	    EVP_DigestFinal_ex(ctx, digest, &n) != 1 || n != 32)
		return -1;
	return 0;
}

static size_t slot_of(const kw_memo *m, const unsigned char d[32])
{
	size_t h;

	memcpy(&h, d, sizeof(h));
	return h % m->nslots;
}

int kw_memo_get(kw_memo *m, const unsigned char digest[32], char key[65], char **resp,
		size_t *resp_len)
{
	size_t i = slot_of(m, digest);
	kw_memo_slot *s = &m->slots[i];
	pthread_mutex_t *lk = &m->locks[i % KW_MEMO_LOCKS];
	int found = 0;

	pthread_mutex_lock(lk);
	if (s->used && memcmp(s->digest, digest, 32) == 0) {
		memcpy(key, s->key, 65);
		found = 1;
		if (s->resp && mono_ms() - s->confirmed < m->fresh_ms &&
		    (*resp = malloc(s->len + 1))) {
			memcpy(*resp, s->resp, s->len);
			(*resp)[s->len] = '\0';
			*resp_len = s->len;
			found = 2;
		}
	}
	pthread_mutex_unlock(lk);
	return found;
}

void kw_memo_put(kw_memo *m, const unsigned char digest[32], const char *key, const char *resp,
		 size_t len)
{
	size_t i = slot_of(m, digest);
	kw_memo_slot *s = &m->slots[i];
	pthread_mutex_t *lk = &m->locks[i % KW_MEMO_LOCKS];
	char *copy = NULL;

	pthread_mutex_lock(lk);
	if (s->resp) {
		atomic_fetch_sub(&m->held, s->len);
		free(s->resp);
		s->resp = NULL;
		s->len = 0;
	}
	if (resp && len && atomic_load(&m->held) + len <= m->budget && (copy = malloc(len))) {
		memcpy(copy, resp, len);
		atomic_fetch_add(&m->held, len);
		s->resp = copy;
		s->len = len;
	}
	memcpy(s->digest, digest, 32);
	memcpy(s->key, key, 64);
	s->key[64] = '\0';
	s->used = 1;
	s->confirmed = mono_ms();
	pthread_mutex_unlock(lk);
}

/* The row slot of a key: its first 16 hex digits as a number (keys are
 * SHA-256 digests, uniform already). */
static size_t row_of(const kw_memo *m, const char *key)
{
	uint64_t h = 0;

	for (int i = 0; i < 16; i++) {
		int ch = (unsigned char)key[i];

		h = h << 4 | (uint64_t)(ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
	}
	return (size_t)(h % m->nslots);
}

/* Free what a row slot holds (its lock held). */
static void row_clear(kw_memo *m, kw_memo_row *r)
{
	for (int v = 0; v < 2; v++) {
		if (r->resp[v]) {
			atomic_fetch_sub(&m->held, r->len[v]);
			free(r->resp[v]);
		}
	}
	memset(r, 0, sizeof(*r));
}

int kw_memo_get_row(kw_memo *m, const char *key, int as_text, char **resp, size_t *len)
{
	size_t i;
	kw_memo_row *r;
	pthread_mutex_t *lk;
	int v = as_text ? 1 : 0, found = 0;

	if (!m)
		return 0;
	i = row_of(m, key);
	r = &m->rows[i];
	lk = &m->locks[i % KW_MEMO_LOCKS];
	pthread_mutex_lock(lk);
	if (r->used && memcmp(r->key, key, 64) == 0 && r->resp[v] &&
	    mono_ms() - r->confirmed[v] < m->fresh_ms && (*resp = malloc(r->len[v] + 1))) {
		memcpy(*resp, r->resp[v], r->len[v]);
		(*resp)[r->len[v]] = '\0';
		*len = r->len[v];
		found = 1;
	}
	pthread_mutex_unlock(lk);
	return found;
}

void kw_memo_put_row(kw_memo *m, const char *key, int as_text, const char *resp, size_t len)
{
	size_t i;
	kw_memo_row *r;
	pthread_mutex_t *lk;
	int v = as_text ? 1 : 0;
	char *copy = NULL;

	if (!m || !resp)
		return;
	i = row_of(m, key);
	r = &m->rows[i];
	lk = &m->locks[i % KW_MEMO_LOCKS];
	pthread_mutex_lock(lk);
	if (r->used && memcmp(r->key, key, 64) != 0)
		row_clear(m, r); /* another key's: overwritten */
	if (r->resp[v]) {
		atomic_fetch_sub(&m->held, r->len[v]);
		free(r->resp[v]);
		r->resp[v] = NULL;
	}
	if (len && atomic_load(&m->held) + len <= m->budget && (copy = malloc(len))) {
		memcpy(copy, resp, len);
		atomic_fetch_add(&m->held, len);
		memcpy(r->key, key, 64);
		r->used = 1;
		r->resp[v] = copy;
		r->len[v] = len;
		r->confirmed[v] = mono_ms();
	}
	pthread_mutex_unlock(lk);
}

void kw_memo_forget_row(kw_memo *m, const char *key)
{
	size_t i;
	pthread_mutex_t *lk;

	if (!m)
		return;
	i = row_of(m, key);
	lk = &m->locks[i % KW_MEMO_LOCKS];
	pthread_mutex_lock(lk);
	if (m->rows[i].used && memcmp(m->rows[i].key, key, 64) == 0)
		row_clear(m, &m->rows[i]);
	pthread_mutex_unlock(lk);
}

void kw_memo_forget(kw_memo *m, const char *key)
{
	kw_memo_forget_row(m, key);
	for (size_t i = 0; m && i < m->nslots; i++) {
		kw_memo_slot *s = &m->slots[i];
		pthread_mutex_t *lk = &m->locks[i % KW_MEMO_LOCKS];

		pthread_mutex_lock(lk);
		if (s->used && memcmp(s->key, key, 64) == 0) {
			if (s->resp) {
				atomic_fetch_sub(&m->held, s->len);
				free(s->resp);
			}
			memset(s, 0, sizeof(*s));
		}
		pthread_mutex_unlock(lk);
	}
}
