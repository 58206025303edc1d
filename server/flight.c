/*
 * flight.c - the single-flight map (see flight.h).  A flight is
 * reference-counted: the map holds no reference, each joiner holds one, and
 * the last release frees it.
 */
#include "flight.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kw_flight {
	char key[65];
	int refs;         /* guarded by the map's mutex */
	int done;         /* guarded by the map's mutex */
	kw_reply reply;   /* the leader's reply once done */
	struct kw_flight *next;
};

struct kw_flights {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* broadcast when any flight finishes */
	kw_flight *head;   /* flights not yet finished */
};

kw_flights *kw_flights_new(void)
{
	kw_flights *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return NULL;
	pthread_mutex_init(&fs->mu, NULL);
	pthread_cond_init(&fs->cv, NULL);
	return fs;
}

void kw_flights_free(kw_flights *fs)
{
	if (!fs)
		return;
	pthread_cond_destroy(&fs->cv);
	pthread_mutex_destroy(&fs->mu);
	free(fs);
}

int kw_flight_join(kw_flight **out, kw_flights *fs, const char *key)
{
	kw_flight *f;
	int leader = 0;

	pthread_mutex_lock(&fs->mu);
	for (f = fs->head; f; f = f->next)
		if (strcmp(f->key, key) == 0)
			break;
	if (!f) {
		static const kw_reply init = KW_REPLY_INIT;

		f = calloc(1, sizeof(*f));
		if (!f) {
			pthread_mutex_unlock(&fs->mu);
			return -1;
		}
		snprintf(f->key, sizeof(f->key), "%s", key);
		f->reply = init;
		f->next = fs->head;
		fs->head = f;
		leader = 1;
	}
	f->refs++;
	pthread_mutex_unlock(&fs->mu);
	*out = f;
	return leader;
}

/* Copy src into dst (dst reset first); a body that cannot be copied
 * becomes a 503 so the follower can retry. */
static void reply_copy(kw_reply *dst, const kw_reply *src)
{
	char *body = NULL;

	kw_reply_reset(dst);
	if (src->body && !(body = malloc(src->len + 1))) {
		kw_reply_error(dst, 503, "no_memory", NULL, "out of memory");
		dst->retry_after = 1;
		return;
	}
	if (body) {
		memcpy(body, src->body, src->len);
		body[src->len] = '\0';
	}
	*dst = *src;
	dst->body = body;
}

void kw_flight_finish(kw_flights *fs, kw_flight *f, const kw_reply *r)
{
	kw_flight **pp;

	pthread_mutex_lock(&fs->mu);
	for (pp = &fs->head; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	f->next = NULL;
	if (f->refs > 1)
		reply_copy(&f->reply, r);
	f->done = 1;
	pthread_cond_broadcast(&fs->cv);
	pthread_mutex_unlock(&fs->mu);
}

void kw_flight_wait(kw_flights *fs, kw_flight *f, kw_reply *out)
{
	pthread_mutex_lock(&fs->mu);
	while (!f->done)
		pthread_cond_wait(&fs->cv, &fs->mu);
	reply_copy(out, &f->reply);
	pthread_mutex_unlock(&fs->mu);
}

void kw_flight_release(kw_flights *fs, kw_flight *f)
{
	int last;

	pthread_mutex_lock(&fs->mu);
	last = --f->refs == 0;
	pthread_mutex_unlock(&fs->mu);
	if (last) {
		kw_reply_reset(&f->reply);
		free(f);
	}
}
