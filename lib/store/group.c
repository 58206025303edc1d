/*
 * group.c - group commit (kw_cache_put_async in kwgen/cache.h): a
 * committer thread takes every put queued while its previous transaction
 * ran and writes them in one transaction (one BEGIN, one COMMIT, the
 * shared pages - totals, index, freelist - written to the WAL once), then
 * tells each caller.  A group holds at most a quarter of the WAL's share
 * (the disk bound holds); the rest waits for the next one.  A group that fails part way is rolled back and its
 * puts are retried one transaction each, so one bad put (a full disk for
 * a big row) does not fail the others.
 */
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

typedef struct store_put {
	kw_cache_entry e;
	kw_cache_put_fn done;
	void *arg;
	struct store_put *next;
} store_put;

/* Tell every put of list how it went (rc, err) and free the nodes. */
static void answer_all(store_put *list, int rc, const kw_error *err)
{
	while (list) {
		store_put *next = list->next;

		list->done(list->arg, rc, rc < 0 ? err : NULL);
		free(list);
		list = next;
	}
}

/* One transaction for the whole list; on a failure inside it, one each. */
static void commit_group(kw_cache *c, store_put *list)
{
	kw_error err = KW_ERROR_INIT;
	long evicted = 0, n = 0, ev = 0;
	int rc;

	if ((rc = store_write_begin(c, &err)) < 0) {
		answer_all(list, rc, &err);
		return;
	}
	/* every row first, then one eviction for the group (after its last
	 * row, which it keeps): one look at the bounds and one batch of
	 * candidates per group rather than per row */
	for (store_put *p = list; p; p = p->next, n++) {
		if ((ev = store_stage(c, &p->e, p->next ? 0 : (int)n + 1, &err)) < 0)
			break;
		evicted += ev;
	}
	if (ev < 0) {
		store_write_end(c, 0, NULL);
		if (!list->next) {
			answer_all(list, (int)ev, &err);
			return;
		}
		while (list) { /* one by one: only the put that fails fails */
			store_put *next = list->next;

			kw_error e1 = KW_ERROR_INIT;
			rc = kw_cache_put(c, &list->e, &e1);
			list->done(list->arg, rc, rc < 0 ? &e1 : NULL);
			free(list);
			list = next;
		}
		return;
	}
	if ((rc = store_write_end(c, 1, &err)) < 0) {
		answer_all(list, rc, &err);
		return;
	}
	atomic_fetch_add(&c->inserts, (uint_fast64_t)n);
	atomic_fetch_add(&c->evictions, (uint_fast64_t)evicted);
	atomic_fetch_add(&c->groups, 1);
	answer_all(list, 0, NULL);
}

/* The bytes a group may hold: a quarter of the WAL's share, so that one
 * commit keeps the -wal file within its bound (at least one put). */
static int64_t group_bytes(const kw_cache *c)
{
	return c->wal_share / 4;
}

static int64_t put_bytes(const kw_cache_entry *e)
{
	return (int64_t)(strlen(e->request) + strlen(e->asm_text) + strlen(e->tables) + strlen(e->response));
}

/* Unlink the next group from the queue (group_mu held): puts in queue
 * order up to group_bytes, at least one. */
static store_put *take_group(kw_cache *c)
{
	store_put *list = c->group_head, *p = list;
	int64_t bytes = put_bytes(&p->e);

	while (p->next && bytes + put_bytes(&p->next->e) <= group_bytes(c)) {
		p = p->next;
		bytes += put_bytes(&p->e);
	}
	c->group_head = p->next;
	if (!c->group_head)
		c->group_tail = &c->group_head;
	p->next = NULL;
	return list;
}

static void *committer(void *arg)
{
	kw_cache *c = arg;

	pthread_mutex_lock(&c->group_mu);
	for (;;) {
		store_put *list;

		while (!c->group_head && !c->group_stop)
			pthread_cond_wait(&c->group_cv, &c->group_mu);
		if (!c->group_head)
			break; /* stopping, nothing queued */
		list = take_group(c);
		c->group_busy = 1;
		pthread_mutex_unlock(&c->group_mu);
		commit_group(c, list);
		pthread_mutex_lock(&c->group_mu);
		c->group_busy = 0;
		pthread_cond_broadcast(&c->group_idle);
	}
	pthread_mutex_unlock(&c->group_mu);
	return NULL;
}

int kw_cache_put_async(kw_cache *c, const kw_cache_entry *e, kw_cache_put_fn done, void *arg, kw_error *err)
{
	store_put *p;
	int rc;

	if ((rc = store_entry_check(e, err)) < 0)
		return rc;
	if (c->read_only)
		return kw_error_set(err, KW_EIO, NULL, "%s", c->read_only);
	if (!done)
		return kw_error_set(err, KW_EINVAL, NULL, "cache: no completion for an asynchronous put");
	if (!(p = calloc(1, sizeof(*p))))
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	p->e = *e;
	p->done = done;
	p->arg = arg;
	pthread_mutex_lock(&c->group_mu);
	if (c->group_stop) {
		pthread_mutex_unlock(&c->group_mu);
		free(p);
		return kw_error_set(err, KW_EIO, NULL, "cache %s: closing", c->path);
	}
	if (!c->group_running) {
		if (pthread_create(&c->group_thread, NULL, committer, c) != 0) {
			pthread_mutex_unlock(&c->group_mu);
			free(p);
			return kw_error_set(err, KW_ENOMEM, NULL, "cache: cannot start a thread");
		}
		c->group_running = 1;
	}
	*c->group_tail = p;
	c->group_tail = &p->next;
	pthread_cond_signal(&c->group_cv);
	pthread_mutex_unlock(&c->group_mu);
	return 0;
}

void kw_cache_flush(kw_cache *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->group_mu);
	while (c->group_head || c->group_busy)
		pthread_cond_wait(&c->group_idle, &c->group_mu);
	pthread_mutex_unlock(&c->group_mu);
}

void store_group_stop(kw_cache *c)
{
	int running;

	pthread_mutex_lock(&c->group_mu);
	c->group_stop = 1;
	running = c->group_running;
	pthread_cond_signal(&c->group_cv);
	pthread_mutex_unlock(&c->group_mu);
	if (running)
		pthread_join(c->group_thread, NULL);
}
