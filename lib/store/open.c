/*
 * open.c - opening and closing the store (kwgen/cache.h): the bounds'
 * shares, damaged files moved aside, read-only and immutable fallbacks,
 * the writer and the checkpointer thread.
 */
#include "store/store.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t kw_cache_wal_share(int64_t max_disk_bytes)
{
	int64_t w = max_disk_bytes / 4;

	if (max_disk_bytes <= 0)
		return 4 << 20;
	return w < (64 << 10) ? (64 << 10) : w > (64 << 20) ? (64 << 20) : w;
}

int64_t kw_cache_disk_slack(int64_t max_disk_bytes)
{
	int64_t s = max_disk_bytes / 8;

	return s < (256 << 10) ? (256 << 10) : s > (64 << 20) ? (64 << 20) : s;
}

/* Rename the damaged file at c->path (and its -wal, -shm) to
 * <path>.corrupt-<unix seconds>; c->moved names the new path. */
static int move_aside(kw_cache *c, kw_error *err)
{
	static const char *const sfx[] = { "", "-wal", "-shm" };
	size_t n = strlen(c->path) + 64;
	char *from = malloc(n), *to = malloc(n);
	long long t = (long long)time(NULL);
	int rc = 0;

	if (!from || !to) {
		free(from);
		free(to);
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	for (int i = 0; i < 3 && rc == 0; i++) {
		snprintf(from, n, "%s%s", c->path, sfx[i]);
		snprintf(to, n, "%s.corrupt-%lld%s", c->path, t, sfx[i]);
		if (rename(from, to) != 0 && (i == 0 || errno != ENOENT))
			rc = kw_error_set(err, KW_EIO, NULL, "cache: cannot move %s aside to %s: %s",
					  from, to, strerror(errno));
	}
	if (rc == 0) {
		snprintf(to, n, "%s.corrupt-%lld", c->path, t);
		free(c->moved);
		c->moved = to;
		to = NULL;
	}
	free(from);
	free(to);
	return rc;
}

/* The file cannot be written: try it read-only, then immutable.  On
 * success c->mode and c->read_only say so and *k is a reader. */
static int open_read_only(kw_cache_conn **k, kw_cache *c, const kw_error *why, kw_error *err)
{
	static const int modes[] = { OPEN_READ_ONLY, OPEN_IMMUTABLE };
	kw_error e2 = KW_ERROR_INIT;
	char msg[KW_ERROR_MESSAGE_MAX + 160], reason[sizeof(c->why)];

	snprintf(reason, sizeof(reason), "%s", c->why); /* why writing failed */
	for (int i = 0; i < 2; i++) {
		int64_t entries, bytes;

		c->damaged = 0;
		if (store_conn_open(k, c, modes[i], 1, &e2) < 0) {
			if (c->damaged) {
				*err = e2;
				return e2.code;
			}
			continue;
		}
		if (store_totals(*k, &entries, &bytes) < 0) { /* not a kwgen cache */
			store_conn_free(*k);
			*k = NULL;
			continue;
		}
		c->mode = modes[i];
		snprintf(msg, sizeof(msg), "cache: %s is read-only%s (%s); stored entries are served,"
			 " new results are not stored", c->path,
			 modes[i] == OPEN_IMMUTABLE ? " and opened immutable" : "", reason);
		if (!(c->read_only = strdup(msg))) {
			store_conn_free(*k);
			*k = NULL;
			return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
		}
		return 0;
	}
	*err = *why;
	return why->code;
}

int kw_cache_open(kw_cache **out, const char *path, const kw_cache_options *opt, kw_error *err)
{
	static const kw_cache_options defaults = KW_CACHE_OPTIONS_INIT;
	kw_error why = KW_ERROR_INIT;
	kw_cache *c;
	kw_cache_conn *k = NULL;
	size_t slots;
	int rc;

	if (!path)
		return kw_error_set(err, KW_EINVAL, NULL, "cache: no path");
	if (!*path || strcmp(path, ":memory:") == 0)
		return kw_error_set(err, KW_EINVAL, NULL,
				    "cache: \"%s\" is not a file: give a file path (an in-memory or"
				    " temporary database would be a different empty one per"
				    " connection)", path);
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	c->opt = opt ? *opt : defaults;
	if (c->opt.recent_flush_ms <= 0)
		c->opt.recent_flush_ms = 5000;
	c->last_flush_ms = store_now_ms();
	atomic_store(&c->last_commit_ms, store_now_ms());
	c->mode = OPEN_READ;
	c->page_size = 4096;
	c->wal_share = kw_cache_wal_share(c->opt.max_disk_bytes);
	if (c->opt.max_disk_bytes > 0)
		c->db_budget = c->opt.max_disk_bytes - c->wal_share - (32 << 10) - c->wal_share / 512;
	pthread_mutex_init(&c->mu, NULL);
	pthread_mutex_init(&c->write_mu, NULL);
	pthread_mutex_init(&c->ckpt_mu, NULL);
	pthread_cond_init(&c->ckpt_cv, NULL);
	pthread_cond_init(&c->ckpt_done, NULL);
	pthread_mutex_init(&c->group_mu, NULL);
	pthread_cond_init(&c->group_cv, NULL);
	pthread_cond_init(&c->group_idle, NULL);
	c->group_tail = &c->group_head;
	for (int i = 0; i < KW_RECENT_LOCKS; i++)
		pthread_mutex_init(&c->recent_mu[i], NULL);
	slots = c->opt.recent_slots > 0 ? (size_t)c->opt.recent_slots : 65536;
	c->nsets = (slots + KW_WAYS - 1) / KW_WAYS;
	if (!(c->recent = calloc(c->nsets * KW_WAYS, sizeof(*c->recent)))) {
		kw_cache_close(c);
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	rc = store_conn_open(&k, c, OPEN_WRITE, 1, &why);
	if (rc < 0 && c->damaged && c->opt.reset_corrupt) {
		c->damaged = 0;
		if ((rc = move_aside(c, &why)) == 0)
			rc = store_conn_open(&k, c, OPEN_WRITE, 1, &why);
	}
	if (rc == KW_EIO && !c->damaged &&
	    (c->why_code == SQLITE_READONLY || c->why_code == SQLITE_CANTOPEN ||
	     c->why_code == SQLITE_PERM)) {
		/* cannot be opened for writing: read-only (or the first error) */
		rc = open_read_only(&k, c, &why, err);
	} else if (rc < 0) {
		if (err)
			*err = why;
	}
	if (rc < 0) {
		kw_cache_close(c);
		return rc;
	}
	if (!c->read_only) {
		c->writer = k;
		c->page_size = store_pragma_int(k->db, "PRAGMA page_size");
		if (c->page_size <= 0)
			c->page_size = 4096;
	} else {
		store_conn_put(c, k);
	}
	if (!c->read_only && c->opt.checkpoint_ms > 0) {
		int64_t e, b;

		/* one read opens the WAL on this connection for good (see
		 * checkpoint_once) */
		if ((rc = store_conn_open(&c->ckpt, c, OPEN_READ, 0, err)) < 0 ||
		    (store_totals(c->ckpt, &e, &b) < 0 &&
		     (rc = store_db_error(err, c, c->ckpt->db, "reading totals")) < 0)) {
			kw_cache_close(c);
			return rc;
		}
		if (pthread_create(&c->ckpt_thread, NULL, store_checkpointer, c) != 0) {
			kw_cache_close(c);
			return kw_error_set(err, KW_ENOMEM, NULL, "cache: cannot start a thread");
		}
		c->ckpt_running = 1;
	}
	*out = c;
	return 0;
}

void kw_cache_close(kw_cache *c)
{
	kw_cache_conn *k;

	if (!c)
		return;
	store_group_stop(c); /* what is queued is committed first */
	if (c->ckpt_running) {
		pthread_mutex_lock(&c->ckpt_mu);
		c->ckpt_stop = 1;
		pthread_cond_signal(&c->ckpt_cv);
		pthread_mutex_unlock(&c->ckpt_mu);
		pthread_join(c->ckpt_thread, NULL);
	}
	/* the hit times noted since the last flush reach the file */
	store_recent_flush(c);
	store_conn_free(c->ckpt);
	while ((k = c->idle)) {
		c->idle = k->next;
		store_conn_free(k);
	}
	/* the last connection to close checkpoints and removes the WAL */
	store_conn_free(c->writer);
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->write_mu);
	pthread_mutex_destroy(&c->ckpt_mu);
	pthread_cond_destroy(&c->ckpt_cv);
	pthread_cond_destroy(&c->ckpt_done);
	pthread_mutex_destroy(&c->group_mu);
	pthread_cond_destroy(&c->group_cv);
	pthread_cond_destroy(&c->group_idle);
	for (int i = 0; i < KW_RECENT_LOCKS; i++)
		pthread_mutex_destroy(&c->recent_mu[i]);
	free(c->recent);
	free(c->path);
	free(c->moved);
	free(c->read_only);
	free(c);
}

const char *kw_cache_moved_aside(const kw_cache *c)
{
	return c ? c->moved : NULL;
}

const char *kw_cache_read_only(const kw_cache *c)
{
	return c ? c->read_only : NULL;
}
