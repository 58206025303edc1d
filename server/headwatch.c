/*
 * headwatch.c - the request-head deadline (see headwatch.h).  Records are
 * a doubly linked list under one mutex; the thread wakes every 500 ms.
 */
#include "headwatch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "log.h"

struct kw_headwatch_conn {
	kw_headwatch_conn *prev, *next;
	int fd;
	atomic_llong since_ms; /* start of the wait for a head; -1 = head in; -2 = cut */
	atomic_llong body_until_ms; /* the request's whole deadline; 0 = none */
	char client[64];
};

struct kw_headwatch {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	kw_headwatch_conn *head;
	long long limit_ms;
	size_t cut;
	int stop;
	pthread_t thread;
};

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *run(void *arg)
{
	kw_headwatch *w = arg;

	pthread_mutex_lock(&w->mu);
	while (!w->stop) {
		struct timespec until;
		long long now = mono_ms();

		for (kw_headwatch_conn *hc = w->head; hc; hc = hc->next) {
			long long since = atomic_load(&hc->since_ms);
			long long due = atomic_load(&hc->body_until_ms);

			if (since == -1 && due > 0 && now > due) {
				/* head in, body not complete by the request's
				 * deadline: silent or trickling, it is cut */
				shutdown(hc->fd, SHUT_RDWR);
				atomic_store(&hc->since_ms, -2);
				atomic_store(&hc->body_until_ms, 0);
				w->cut++;
				kw_log(KW_LOG_WARN,
				       "connection from %s: request not complete within --request-timeout; closed",
				       hc->client[0] ? hc->client : "?");
				continue;
			}
			if (since < 0 || now - since <= w->limit_ms)
				continue;
			/* The fd is still libmicrohttpd's (the record is
			 * unregistered before it is closed, under w->mu). */
			shutdown(hc->fd, SHUT_RDWR);
			atomic_store(&hc->since_ms, -2);
			w->cut++;
			kw_log(KW_LOG_WARN,
			       "connection from %s: no complete request head within %lld s; closed",
			       hc->client[0] ? hc->client : "?", w->limit_ms / 1000);
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 500L * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&w->cv, &w->mu, &until);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

kw_headwatch *kw_headwatch_new(unsigned seconds)
{
	kw_headwatch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->limit_ms = (long long)(seconds ? seconds : 1) * 1000;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (pthread_create(&w->thread, NULL, run, w) != 0) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

kw_headwatch_conn *kw_headwatch_open(kw_headwatch *w, int fd, const char *client)
{
	kw_headwatch_conn *hc;

	if (!w || fd < 0 || !(hc = calloc(1, sizeof(*hc))))
		return NULL;
	hc->fd = fd;
	atomic_init(&hc->since_ms, mono_ms());
	atomic_init(&hc->body_until_ms, 0);
	snprintf(hc->client, sizeof(hc->client), "%s", client ? client : "");
	pthread_mutex_lock(&w->mu);
	hc->next = w->head;
	if (w->head)
		w->head->prev = hc;
	w->head = hc;
	pthread_mutex_unlock(&w->mu);
	return hc;
}

void kw_headwatch_head_in(kw_headwatch_conn *hc)
{
	long long since;

	if (!hc)
		return;
	since = atomic_load(&hc->since_ms);
	/* A cut connection stays cut. */
	while (since != -2 && !atomic_compare_exchange_weak(&hc->since_ms, &since, -1))
		;
}

void kw_headwatch_body_until(kw_headwatch_conn *hc, long long until_ms)
{
	if (hc)
		atomic_store(&hc->body_until_ms, until_ms);
}

void kw_headwatch_idle(kw_headwatch_conn *hc)
{
	long long since;

	if (!hc)
		return;
	atomic_store(&hc->body_until_ms, 0);
	since = atomic_load(&hc->since_ms);
	while (since != -2 && !atomic_compare_exchange_weak(&hc->since_ms, &since, mono_ms()))
		;
}

void kw_headwatch_close(kw_headwatch *w, kw_headwatch_conn *hc)
{
	if (!w || !hc)
		return;
	pthread_mutex_lock(&w->mu);
	if (hc->prev)
		hc->prev->next = hc->next;
	else
		w->head = hc->next;
	if (hc->next)
		hc->next->prev = hc->prev;
	pthread_mutex_unlock(&w->mu);
	free(hc);
}

size_t kw_headwatch_cut(kw_headwatch *w)
{
	size_t n;

	if (!w)
		return 0;
	pthread_mutex_lock(&w->mu);
	n = w->cut;
	pthread_mutex_unlock(&w->mu);
	return n;
}

void kw_headwatch_free(kw_headwatch *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	while (w->head)
		kw_headwatch_close(w, w->head);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
