/*
 * write.c - every write to the store (kwgen/cache.h): taking the writer,
 * storing a row, evicting least-recently-used rows past the bounds,
 * deleting and purging.
 */
#include "store/store.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Over the bound?  1 yes, 0 no, -1 error. */
static int over(kw_cache *c, kw_cache_conn *k)
{
	int64_t entries, bytes, pages, free_pages;

	if (c->opt.max_bytes > 0) {
		if (store_totals(k, &entries, &bytes) < 0)
			return -1;
		if (bytes > c->opt.max_bytes)
			return 1;
	}
	if (c->opt.max_disk_bytes > 0) {
		if ((pages = store_one_int(k->st[ST_PAGES])) < 0 ||
		    (free_pages = store_one_int(k->st[ST_FREE])) < 0)
			return -1;
		if ((pages - free_pages) * c->page_size > c->db_budget)
			return 1;
	}
	return 0;
}

/*
 * Delete least-recently-used rows (never keep_key) while over the bound.
 * Candidates come by stored last_access, want at a time (1 to
 * KW_LRU_BATCH: about the rows the caller expects to delete, one per row
 * it wrote, so a put that evicts one row reads two, not a batch); one hit
 * in memory since (recent_get) has its last_access rewritten to the hit's
 * time instead, and a candidate stored as newer than such a rewritten time
 * waits for the next batch (which then orders both).  At most
 * KW_MAX_PASS_OVER rows are rewritten per put, so that one put's WAL stays
 * small when every row is hot; past that, candidates go in stored order.
 * Returns the number of rows deleted or -1 on error.
 */
static long evict(kw_cache *c, kw_cache_conn *k, const char *keep_key, int want)
{
	char keys[KW_LRU_BATCH][65];
	int64_t last[KW_LRU_BATCH];
	long n = 0;
	int o, moves = 0;

	while ((o = over(c, k)) == 1) {
		sqlite3_stmt *lru = k->st[ST_LRU];
		int got = 0, rc, progressed = 0;
		int64_t moved_min = INT64_MAX;

		sqlite3_bind_text(lru, 1, keep_key, -1, SQLITE_STATIC);
		sqlite3_bind_int(lru, 2, want < 1 ? 1 : want > KW_LRU_BATCH ? KW_LRU_BATCH : want);
		while (got < KW_LRU_BATCH && (rc = sqlite3_step(lru)) == SQLITE_ROW) {
			const char *key = (const char *)sqlite3_column_text(lru, 0);

			snprintf(keys[got], sizeof(keys[got]), "%s", key ? key : "");
			last[got++] = sqlite3_column_int64(lru, 1);
		}
		sqlite3_reset(lru);
		sqlite3_clear_bindings(lru);
		for (int i = 0; i < got; i++) {
			int64_t hit = moves < KW_MAX_PASS_OVER ? store_recent_get(c, keys[i]) : 0;
			sqlite3_stmt *st;

			if (hit > last[i]) {
				moves++;
				st = k->st[ST_TOUCH];
				sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
				sqlite3_bind_int64(st, 2, hit);
				rc = store_run(st);
				sqlite3_clear_bindings(st);
				if (rc < 0)
					return -1;
				if (hit < moved_min)
					moved_min = hit;
				progressed = 1;
				continue;
			}
			if (last[i] > moved_min)
				break; /* a passed-over row is older: order them again */
			st = k->st[ST_DELETE];
			sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
			rc = store_run(st);
			sqlite3_clear_bindings(st);
			if (rc < 0)
				return -1;
			n++;
			progressed = 1;
			if ((o = over(c, k)) != 1)
				return o < 0 ? -1 : n;
		}
		if (!progressed)
			return n; /* only keep_key is left */
		want = KW_LRU_BATCH; /* more than expected: a full batch next */
	}
	return o < 0 ? -1 : n;
}

/* Take write_mu by the deadline (CLOCK_REALTIME).  0 or -1. */
static int lock_by(pthread_mutex_t *mu, const struct timespec *deadline)
{
	return pthread_mutex_timedlock(mu, deadline) == 0 ? 0 : -1;
}

/*
 * Take the writer: write_mu within KW_QUEUE_FACTOR x busy_timeout_ms, then
 * BEGIN IMMEDIATE waiting at most busy_timeout_ms for SQLite's lock (no
 * wait at all for busy_timeout_ms after another connection was found
 * holding it).  Returns 0 with write_mu held and a transaction open, or
 * KW_EIO (naming the file) with neither.
 */
int store_write_begin(kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;
	struct timespec deadline;
	int64_t wait = KW_QUEUE_FACTOR * (int64_t)c->opt.busy_timeout_ms;
	int rc, probe;

	if (c->read_only)
		return kw_error_set(err, KW_EIO, NULL, "%s", c->read_only);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += (long)(wait % 1000) * 1000000L;
	deadline.tv_sec += (time_t)(wait / 1000) + deadline.tv_nsec / 1000000000L;
	deadline.tv_nsec %= 1000000000L;
	if (lock_by(&c->write_mu, &deadline) < 0)
		return kw_error_set(err, KW_EIO, NULL,
				    "cache %s: the writes ahead of this one took over %lld ms; retry",
				    c->path, (long long)wait);
	k = c->writer;
	/* A WAL past its share plus half the slack: a checkpoint could not
	 * reach its end, because another connection (a `sqlite3` session left
	 * in a transaction, a backup) reads an old snapshot.  The log cannot
	 * restart while it does, so each write would make the file longer
	 * (without bound).  One PASSIVE checkpoint decides: all backfilled,
	 * the log restarts at this write; else the write is refused. */
	if (c->opt.max_disk_bytes > 0 &&
	    (int64_t)atomic_load(&c->wal_frames) * c->page_size >
		    c->wal_share + kw_cache_disk_slack(c->opt.max_disk_bytes) / 2) {
		int n_log = -1, n_done = -1, ck = SQLITE_OK;

		/* This process's own reads (hits) that began before the last
		 * commit also hold the checkpoint back, for well under a
		 * millisecond; no commit can come while write_mu is held, so a
		 * few tries 1 ms apart tell them from a reader that stays.  Reads
		 * that began after the last commit see the whole log and hold
		 * nothing back, so once KW_SNAPSHOT_TRIES ms have passed since
		 * that commit one try decides (the writes refused one after
		 * another while a reader stays answer at once, not after 20 ms
		 * each). */
		int64_t settled = atomic_load(&c->last_commit_ms) + KW_SNAPSHOT_TRIES;

		for (int tries = 0; tries < KW_SNAPSHOT_TRIES; tries++) {
			if (tries) {
				if (store_now_ms() >= settled)
					break;
				nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
			}
			pthread_mutex_lock(&c->ckpt_mu);
			while (c->ckpt_passive)
				pthread_cond_wait(&c->ckpt_done, &c->ckpt_mu);
			ck = sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &n_log, &n_done);
			pthread_mutex_unlock(&c->ckpt_mu);
			if (ck == SQLITE_OK && n_log >= 0 && n_done >= n_log)
				break;
		}
		if (ck != SQLITE_OK || n_log < 0 || n_done < n_log) {
			int64_t wal = (int64_t)atomic_load(&c->wal_frames) * c->page_size;

			pthread_mutex_unlock(&c->write_mu);
			return kw_error_set(err, KW_EIO, NULL,
					    "cache %s: its WAL is %lld bytes, over its share (%lld) and half the slack: another "
					    "connection reads an old snapshot of it, so it cannot be checkpointed; "
					    "writes resume when that reader ends; retry",
					    c->path, (long long)wal, (long long)c->wal_share);
		}
	}
	/* Another connection held the lock a moment ago: one try without
	 * waiting, rather than each queued put waiting it out in turn. */
	probe = store_now_ms() < atomic_load(&c->locked_until);
	sqlite3_busy_timeout(k->db, probe ? 0 : c->opt.busy_timeout_ms);
	if (store_run(k->st[ST_BEGIN]) == 0)
		return 0;
	if ((sqlite3_extended_errcode(k->db) & 0xff) == SQLITE_BUSY) {
		if (!probe)
			atomic_store(&c->locked_until, store_now_ms() + c->opt.busy_timeout_ms);
		rc = kw_error_set(err, KW_EIO, NULL,
				  "cache %s: another connection holds the write lock (waited %d ms);"
				  " retry", c->path, probe ? 0 : c->opt.busy_timeout_ms);
	} else {
		rc = store_db_error(err, c, k->db, "starting a write");
	}
	sqlite3_busy_timeout(k->db, 0);
	pthread_mutex_unlock(&c->write_mu);
	return rc;
}

/* Commit (ok) or roll back the writer's transaction and let go of it.
 * Returns 0, or KW_EIO when the commit failed (rolled back). */
int store_write_end(kw_cache *c, int ok, kw_error *err)
{
	kw_cache_conn *k = c->writer;
	int rc = 0;

	if (ok && store_run(k->st[ST_COMMIT]) < 0) {
		rc = store_db_error(err, c, k->db, "committing");
		ok = 0;
	}
	if (ok)
		atomic_store(&c->last_commit_ms, store_now_ms());
	if (!ok)
		store_run(k->st[ST_ROLLBACK]);
	sqlite3_busy_timeout(k->db, 0);
	pthread_mutex_unlock(&c->write_mu);
	return rc;
}

int store_entry_check(const kw_cache_entry *e, kw_error *err)
{
	if (!e || !e->key || !e->config_id || !e->generator_version || !e->isa || !e->request ||
	    !e->asm_text || !e->tables || !e->response)
		return kw_error_set(err, KW_EINVAL, NULL, "cache: incomplete entry");
	return 0;
}

long store_stage(kw_cache *c, const kw_cache_entry *e, int evict_rows, kw_error *err)
{
	kw_cache_conn *k = c->writer;
	sqlite3_stmt *st = k->st[ST_UPSERT];
	int64_t bytes, now = store_now_ms();
	long evicted = 0;
	int rc;

	bytes = (int64_t)(strlen(e->request) + strlen(e->asm_text) + strlen(e->tables) +
			  strlen(e->response) + (e->source ? strlen(e->source) : 0));
	sqlite3_bind_text(st, 1, e->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, e->config_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, e->generator_version, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, e->isa, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, e->request, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, e->asm_text, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, e->tables, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, e->response, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 9, bytes);
	sqlite3_bind_int64(st, 10, now);
	sqlite3_bind_text(st, 11, e->source ? e->source : "", -1, SQLITE_STATIC);
	rc = store_run(st);
	sqlite3_clear_bindings(st);
	if (rc < 0)
		return store_db_error(err, c, k->db, "writing");
	if (evict_rows > 0 && (c->opt.max_bytes > 0 || c->opt.max_disk_bytes > 0) &&
	    (evicted = evict(c, k, e->key, evict_rows + 1)) < 0)
		return store_db_error(err, c, k->db, "evicting");
	return evicted;
}

int kw_cache_put(kw_cache *c, const kw_cache_entry *e, kw_error *err)
{
	long evicted;
	int rc;

	if ((rc = store_entry_check(e, err)) < 0)
		return rc;
	if ((rc = store_write_begin(c, err)) < 0)
		return rc;
	if ((evicted = store_stage(c, e, 1, err)) < 0) {
		store_write_end(c, 0, NULL);
		return (int)evicted;
	}
	if ((rc = store_write_end(c, 1, err)) < 0)
		return rc;
	atomic_fetch_add(&c->inserts, 1);
	atomic_fetch_add(&c->evictions, (uint_fast64_t)evicted);
	return 0;
}

int kw_cache_delete(kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	int rc, n = 0;

	if ((rc = store_write_begin(c, err)) < 0)
		return rc;
	k = c->writer;
	sqlite3_bind_text(k->st[ST_DELETE], 1, key, -1, SQLITE_STATIC);
	if (store_run(k->st[ST_DELETE]) < 0)
		rc = store_db_error(err, c, k->db, "deleting");
	else
		n = sqlite3_changes(k->db);
	sqlite3_clear_bindings(k->st[ST_DELETE]);
	if ((rc = rc < 0 ? (store_write_end(c, 0, NULL), rc) : store_write_end(c, 1, err)) < 0)
		return rc;
	if (n == 0)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	return rc;
}

/* Rows deleted per purge transaction: each write lock is short. */
#define KW_PURGE_BATCH 256

int kw_cache_purge(int64_t *out, kw_cache *c, int64_t before_ms, kw_error *err)
{
	sqlite3_stmt *st = NULL;
	int64_t total = 0;
	int rc = 0, n;

	*out = 0;
	if (c->read_only)
		return kw_error_set(err, KW_EIO, NULL, "%s", c->read_only);
	pthread_mutex_lock(&c->write_mu);
	if (sqlite3_prepare_v2(c->writer->db,
			       "DELETE FROM entries WHERE key IN (SELECT key FROM entries WHERE last_access < ?1"
			       " ORDER BY last_access LIMIT " KW_STR(KW_PURGE_BATCH) ")", -1, &st, NULL) != SQLITE_OK)
		rc = store_db_error(err, c, c->writer->db, "preparing a query");
	pthread_mutex_unlock(&c->write_mu);
	if (rc < 0)
		return rc;
	do {
		if ((rc = store_write_begin(c, err)) < 0)
			break;
		sqlite3_bind_int64(st, 1, before_ms);
		n = 0;
		if (store_run(st) < 0) {
			rc = store_db_error(err, c, c->writer->db, "purging");
			store_write_end(c, 0, NULL);
		} else {
			n = sqlite3_changes(c->writer->db);
			if ((rc = store_write_end(c, 1, err)) < 0)
				n = 0;
		}
		total += n;
	} while (rc == 0 && n == KW_PURGE_BATCH);
	*out = total;
	pthread_mutex_lock(&c->write_mu);
	sqlite3_finalize(st);
	pthread_mutex_unlock(&c->write_mu);
	return rc;
}
