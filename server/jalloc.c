/*
 * jalloc.c - per-thread reuse of jansson's small blocks (see jalloc.h).
 *
 * glibc (x86-64) gives a request of n bytes a chunk whose usable size is
 * max(24, n + 8 rounded up to 16) - 8: 24, 40, 56, ...  Class k holds
 * free blocks of usable size 24 + 16k, which serve any request that glibc
 * would give that size.  A thread's lists live in one malloc()ed table
 * reached through a pthread key (freed by the key's destructor) and hold
 * at most JALLOC_KEEP_BYTES (a request body's parse frees about 30 KB).
 */
#include "jalloc.h"

#include <jansson.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define JALLOC_MAX_USABLE 264                      /* the largest class's usable size */
#define JALLOC_CLASSES ((JALLOC_MAX_USABLE - 24) / 16 + 1)
#define JALLOC_KEEP_BYTES (128 << 10)              /* usable bytes kept per thread, at most */

typedef struct jalloc_block {
	struct jalloc_block *next;
} jalloc_block;

typedef struct jalloc_cache {
	jalloc_block *head[JALLOC_CLASSES];
	size_t kept; /* usable bytes of the blocks in the lists */
} jalloc_cache;

static pthread_key_t cache_key; /* frees a thread's lists when it exits */
static int have_key;
static _Thread_local jalloc_cache *tl_cache; /* the same pointer, read without a call */

static void cache_free(void *arg)
{
	jalloc_cache *c = arg;

	if (c == tl_cache)
		tl_cache = NULL;

	for (int k = 0; c && k < JALLOC_CLASSES; k++) {
		while (c->head[k]) {
			jalloc_block *b = c->head[k];

			c->head[k] = b->next;
			free(b);
		}
	}
	free(c);
}

/* The calling thread's lists; NULL when they cannot be made. */
static jalloc_cache *cache_of(void)
{
	jalloc_cache *c = tl_cache;

	if (!c && (c = calloc(1, sizeof(*c)))) {
		if (pthread_setspecific(cache_key, c) != 0) {
			free(c);
			return NULL;
		}
		tl_cache = c;
	}
	return c;
}

/* The class that serves a request of n bytes, or -1. */
static int class_of_request(size_t n)
{
	size_t usable = ((n + 8 + 15) & ~(size_t)15) - 8;

	if (usable < 24)
		usable = 24;
	return usable <= JALLOC_MAX_USABLE ? (int)((usable - 24) / 16) : -1;
}

static void *jalloc_malloc(size_t n)
{
	int k = class_of_request(n);
	jalloc_cache *c;

	if (k >= 0 && (c = tl_cache) && c->head[k]) {
		jalloc_block *b = c->head[k];

		c->head[k] = b->next;
		c->kept -= 24 + 16 * (size_t)k;
		return b;
	}
	return malloc(n);
}

static void jalloc_free(void *p)
{
	size_t usable;
	jalloc_cache *c;
	int k;

	if (!p)
		return;
	usable = malloc_usable_size(p);
	if (usable < 24 || usable > JALLOC_MAX_USABLE || (usable - 24) % 16 != 0) {
		free(p);
		return;
	}
	k = (int)((usable - 24) / 16);
	if (!(c = cache_of()) || c->kept + usable > JALLOC_KEEP_BYTES) {
		free(p);
		return;
	}
	((jalloc_block *)p)->next = c->head[k];
	c->head[k] = p;
	c->kept += usable;
}

void kw_jalloc_install(void)
{
	if (pthread_key_create(&cache_key, cache_free) != 0)
		return; /* jansson keeps malloc and free */
	have_key = 1;
	json_set_alloc_funcs(jalloc_malloc, jalloc_free);
}

void kw_jalloc_thread_release(void)
{
	if (!have_key)
		return;
	cache_free(tl_cache);
	tl_cache = NULL;
	pthread_setspecific(cache_key, NULL);
}
