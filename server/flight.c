/*
 * flight.c - the single-flight map (see flight.h).  A flight belongs to
 * its leader; followers only hang a waiter on it.
 */
#include "flight.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kw_flight {
	char key[65];
	kw_flight_waiter *waiters; /* guarded by the map's mutex */
	struct kw_flight *next;
};

#define KW_FLIGHT_SHARES 4096

struct kw_flights {
	pthread_mutex_t mu;
	kw_flight *head; /* flights not yet finished */
	atomic_ulong finished[KW_FLIGHT_SHARES]; /* flights finished, by share */
};

/* key's share: its first three hex digits (any other byte counts as 0). */
static size_t share_of(const char *key)
{
	size_t v = 0;

	for (int i = 0; i < 3 && key[i]; i++) {
		char ch = key[i];
		int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : 0;

		v = v * 16 + (size_t)d;
	}
	return v % KW_FLIGHT_SHARES;
}

unsigned long kw_flight_epoch(kw_flights *fs, const char *key)
{
	return atomic_load(&fs->finished[share_of(key)]);
}

kw_flights *kw_flights_new(void)
{
	kw_flights *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return NULL;
	pthread_mutex_init(&fs->mu, NULL);
	for (size_t i = 0; i < KW_FLIGHT_SHARES; i++)
		atomic_init(&fs->finished[i], 0);
	return fs;
}

void kw_flights_free(kw_flights *fs)
{
	if (!fs)
		return;
	pthread_mutex_destroy(&fs->mu);
	free(fs);
}

int kw_flight_join(kw_flight **out, kw_flights *fs, const char *key, kw_flight_waiter *w)
{
	kw_flight *f;

	*out = NULL;
	pthread_mutex_lock(&fs->mu);
	for (f = fs->head; f; f = f->next)
		if (strcmp(f->key, key) == 0)
			break;
	if (f) {
		w->next = f->waiters;
		f->waiters = w;
		pthread_mutex_unlock(&fs->mu);
		return 0;
	}
	if (!(f = calloc(1, sizeof(*f)))) {
		pthread_mutex_unlock(&fs->mu);
		return -1;
	}
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->next = fs->head;
	fs->head = f;
	pthread_mutex_unlock(&fs->mu);
	*out = f;
	return 1;
}

void kw_flight_finish(kw_flights *fs, kw_flight *f, const kw_reply *r)
{
	kw_flight **pp;
	kw_flight_waiter *w;

	pthread_mutex_lock(&fs->mu);
	for (pp = &fs->head; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	w = f->waiters;
	f->waiters = NULL;
	atomic_fetch_add(&fs->finished[share_of(f->key)], 1);
	pthread_mutex_unlock(&fs->mu);
	free(f);
	while (w) {
		kw_flight_waiter *next = w->next;

		w->wake(w, r); /* may free what w belongs to */
		w = next;
	}
}
