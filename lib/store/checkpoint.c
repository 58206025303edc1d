/*
 * checkpoint.c - keeping the WAL within its share (see "WAL" in
 * kwgen/cache.h): the writer's commit hook and the background thread.
 */
#include "store/store.h"
#include <time.h>

/* The writer's commit hook: the WAL holds frames pages.  At half its share
 * the background thread is woken; at all of it the writer checkpoints now
 * (after any background PASSIVE round; PASSIVE itself waits for no lock;
 * the log restarts at the next write and journal_size_limit trims the
 * file).  Runs with write_mu held; without a background thread, at half
 * the share. */
int store_wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	kw_cache *c = arg;
	int64_t bytes = (int64_t)frames * c->page_size;

	atomic_store(&c->wal_frames, frames);
	if (bytes >= c->wal_share || (bytes >= c->wal_share / 2 && !c->ckpt_running)) {
		/* wait out the background thread's PASSIVE round (a second
		 * checkpoint would get SQLITE_BUSY and the WAL would grow
		 * meanwhile), then keep it from starting another */
		pthread_mutex_lock(&c->ckpt_mu);
		while (c->ckpt_passive)
			pthread_cond_wait(&c->ckpt_done, &c->ckpt_mu);
		if (sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) ==
		    SQLITE_OK)
			atomic_fetch_add(&c->checkpoints, 1);
		pthread_mutex_unlock(&c->ckpt_mu);
	} else if (bytes >= c->wal_share / 2) {
		pthread_mutex_lock(&c->ckpt_mu);
		c->ckpt_kick = 1;
		pthread_cond_signal(&c->ckpt_cv);
		pthread_mutex_unlock(&c->ckpt_mu);
	}
	return SQLITE_OK;
}

/*
 * One round: a PASSIVE checkpoint beside the writers (the bulk of the
 * copying and its fsyncs; the writer's own checkpoint waits for it rather
 * than find it running and do nothing), then, holding write_mu so that no
 * write of this process lands in between (a log that gains frames
 * meanwhile cannot restart), a RESTART checkpoint of what was committed
 * meanwhile that waits up to 20 ms for readers of older snapshots (and
 * another process's writer), so that the next write starts the log again
 * at the head of the -wal file (journal_size_limit trims the file to the
 * share then).  Not TRUNCATE: emptying the file made every round's writes
 * extend it again block by block, which halved the misses per second
 * under --max-cache-bytes 2000000 (make bench-http).  When it cannot, it
 * has still copied what it could.  Readers never wait for it.  The
 * connection read once when it was opened (kw_cache_open): one that has
 * never read has no WAL open and its checkpoints do nothing; reading
 * again here would pin a snapshot that the writer's checkpoint must stop
 * at.
 */
static void checkpoint_once(kw_cache *c)
{
	kw_cache_conn *k = c->ckpt;
	int rc;

	/* a WAL under half its share stays: checkpoints cost fsyncs that
	 * hold up the writers */
	if ((int64_t)atomic_load(&c->wal_frames) * c->page_size < c->wal_share / 2 &&
	    store_file_size(c->path, "-wal") <= c->wal_share)
		return;
	pthread_mutex_lock(&c->ckpt_mu);
	c->ckpt_passive = 1;
	pthread_mutex_unlock(&c->ckpt_mu);
	sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	pthread_mutex_lock(&c->ckpt_mu);
	c->ckpt_passive = 0;
	pthread_cond_broadcast(&c->ckpt_done);
	pthread_mutex_unlock(&c->ckpt_mu);
	pthread_mutex_lock(&c->write_mu);
	sqlite3_busy_timeout(k->db, 20);
	rc = sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
	sqlite3_busy_timeout(k->db, 0);
	if (rc == SQLITE_OK) {
		atomic_store(&c->wal_frames, 0);
		atomic_fetch_add(&c->checkpoints, 1);
	}
	pthread_mutex_unlock(&c->write_mu);
}

/* Checkpoint when the writer asks (the WAL at half its share), and look
 * every checkpoint_ms (a -wal file over its share after another process
 * wrote, or a log that could not restart), until kw_cache_close. */
void *store_checkpointer(void *arg)
{
	kw_cache *c = arg;

	pthread_mutex_lock(&c->ckpt_mu);
	while (!c->ckpt_stop) {
		if (!c->ckpt_kick) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (long)(c->opt.checkpoint_ms % 1000) * 1000000L;
			ts.tv_sec += (time_t)(c->opt.checkpoint_ms / 1000) + ts.tv_nsec / 1000000000L;
			ts.tv_nsec %= 1000000000L;
			pthread_cond_timedwait(&c->ckpt_cv, &c->ckpt_mu, &ts);
		}
		if (c->ckpt_stop)
			break;
		c->ckpt_kick = 0;
		pthread_mutex_unlock(&c->ckpt_mu);
		if (store_now_ms() - c->last_flush_ms >= c->opt.recent_flush_ms) {
			store_recent_flush(c);
			c->last_flush_ms = store_now_ms();
		}
		checkpoint_once(c);
		pthread_mutex_lock(&c->ckpt_mu);
	}
	pthread_mutex_unlock(&c->ckpt_mu);
	return NULL;
}
