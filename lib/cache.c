/*
 * cache.c - the SQLite response store behind kwgend (kwgen/cache.h).
 *
 * Owns the schema (the same statements as schema/cache.sql), a pool of
 * connections (one per concurrently calling thread), the prepared
 * statements of each connection, the LRU bound and the event counters.
 * It knows nothing of HTTP or of how a response is generated: rows are
 * opaque text keyed by the request key.
 */
#include "kwgen/cache.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KW_STR_(x) #x
#define KW_STR(x) KW_STR_(x)

/* Keep in step with schema/cache.sql (tests/unit/test_cache.c compares). */
static const char kw_cache_schema[] =
	"CREATE TABLE IF NOT EXISTS entries ("
	" key TEXT PRIMARY KEY NOT NULL,"
	" config_id TEXT NOT NULL,"
	" generator_version TEXT NOT NULL,"
	" isa TEXT NOT NULL,"
	" request TEXT NOT NULL,"
	" asm TEXT NOT NULL,"
	" tables TEXT NOT NULL,"
	" response TEXT NOT NULL,"
	" bytes INTEGER NOT NULL,"
	" created INTEGER NOT NULL,"
	" last_access INTEGER NOT NULL,"
	" source TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX IF NOT EXISTS entries_last_access ON entries (last_access);"
	"CREATE TABLE IF NOT EXISTS totals ("
	" id INTEGER PRIMARY KEY CHECK (id = 1),"
	" entries INTEGER NOT NULL,"
	" bytes INTEGER NOT NULL);"
	"INSERT OR IGNORE INTO totals (id, entries, bytes) VALUES (1, 0, 0);"
	"CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN"
	" UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes WHERE id = 1;"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN"
	" UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes WHERE id = 1;"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS entries_update AFTER UPDATE OF bytes ON entries BEGIN"
	" UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;"
	" END;";

/* The prepared statements of one connection, by role. */
enum {
	ST_GET,      /* response, last_access of a key */
	ST_TOUCH,    /* refresh last_access */
	ST_UPSERT,   /* insert or replace a row */
	ST_TOTALS,   /* entries, bytes */
	ST_LRU,      /* the least recently used keys, oldest first */
	ST_DELETE,   /* delete one key */
	ST_SOURCE,   /* the source of a key */
	ST_BEGIN,    /* BEGIN IMMEDIATE */
	ST_COMMIT,
	ST_ROLLBACK,
	ST_COUNT
};

static const char *const kw_cache_sql[ST_COUNT] = {
	[ST_GET] = "SELECT response, last_access FROM entries WHERE key = ?1",
	[ST_TOUCH] = "UPDATE entries SET last_access = ?2 WHERE key = ?1",
	[ST_UPSERT] =
		"INSERT INTO entries (key, config_id, generator_version, isa, request, asm,"
		" tables, response, bytes, created, last_access, source)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)"
		" ON CONFLICT(key) DO UPDATE SET config_id = excluded.config_id,"
		" generator_version = excluded.generator_version, isa = excluded.isa,"
		" request = excluded.request, asm = excluded.asm, tables = excluded.tables,"
		" response = excluded.response, bytes = excluded.bytes,"
		" created = excluded.created, last_access = excluded.last_access,"
		" source = excluded.source",
	[ST_TOTALS] = "SELECT entries, bytes FROM totals WHERE id = 1",
	[ST_LRU] = "SELECT key FROM entries WHERE key <> ?1 ORDER BY last_access LIMIT 32",
	[ST_DELETE] = "DELETE FROM entries WHERE key = ?1",
	[ST_SOURCE] = "SELECT source FROM entries WHERE key = ?1",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
};

typedef struct kw_cache_conn {
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	struct kw_cache_conn *next; /* free list */
} kw_cache_conn;

struct kw_cache {
	char *path;
	char *moved;          /* where a damaged file went (reset_corrupt), or NULL */
	int damaged;          /* set by conn_open: the file is not a sound database */
	kw_cache_options opt;
	pthread_mutex_t mu;   /* guards idle */
	pthread_mutex_t write_mu; /* one writer at a time in this process: SQLite's
				   * busy handler sleeps, a mutex hands over at once */
	kw_cache_conn *idle;  /* connections not lent out */
	atomic_uint_fast64_t hits, misses, inserts, evictions;
	/* The checkpointer: request threads never checkpoint (an fsync
	 * inside a request would stall every writer behind write_mu). */
	pthread_t ckpt_thread;
	int ckpt_running;
	int ckpt_stop;            /* guarded by ckpt_mu */
	pthread_mutex_t ckpt_mu;
	pthread_cond_t ckpt_cv;
};

/* Milliseconds since the Unix epoch. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int db_error(kw_error *err, sqlite3 *db, const char *what)
{
	return kw_error_set(err, KW_EIO, NULL, "cache: %s: %s", what,
			    db ? sqlite3_errmsg(db) : "out of memory");
}

/* db_error for the opening steps: also notes whether the file itself is
 * damaged (not a database, or corrupt), which kw_cache_open reports by name. */
static int open_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what)
{
	int code = db ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;

	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
		c->damaged = 1;
		return kw_error_set(err, KW_EIO, NULL, "cache: %s is damaged (%s: %s)", c->path,
				    what, sqlite3_errmsg(db));
	}
	return db_error(err, db, what);
}

/* PRAGMA quick_check(1) on k: 0 when "ok", else KW_EIO (damaged). */
static int quick_check(kw_cache *c, kw_cache_conn *k, kw_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(k->db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = open_error(err, c, k->db, "quick_check");
	} else {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		if (!t || strcmp(t, "ok") != 0) {
			c->damaged = 1;
			rc = kw_error_set(err, KW_EIO, NULL, "cache: %s is damaged (quick_check: %s)",
					  c->path, t ? t : "no answer");
		}
	}
	sqlite3_finalize(st);
	return rc;
}

static void conn_free(kw_cache_conn *k)
{
	if (!k)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(k->st[i]);
	sqlite3_close(k->db);
	free(k);
}

/* A file made before the source column: add it (inside the schema
 * transaction).  Returns an SQLite result code. */
static int add_source_column(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int has = 0, rc;

	if ((rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('entries')", -1, &st, NULL)) !=
	    SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!strcmp((const char *)sqlite3_column_text(st, 0), "source"))
			has = 1;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	return has ? SQLITE_OK
		   : sqlite3_exec(db, "ALTER TABLE entries ADD COLUMN source TEXT NOT NULL DEFAULT ''", NULL, NULL, NULL);
}

/* Open one connection, set its pragmas, apply the schema if asked and
 * prepare its statements. */
static int conn_open(kw_cache_conn **out, kw_cache *c, int apply_schema, kw_error *err)
{
	kw_cache_conn *k;
	char pragmas[160];
	int rc;

	k = calloc(1, sizeof(*k));
	if (!k)
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	rc = sqlite3_open_v2(c->path, &k->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		open_error(err, c, k->db, c->path);
		goto fail;
	}
	sqlite3_extended_result_codes(k->db, 1);
	sqlite3_busy_timeout(k->db, c->opt.busy_timeout_ms);
	/* journal_mode answers with a row; run it through exec and check below. */
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-%d;"
		 " PRAGMA foreign_keys=OFF; PRAGMA wal_autocheckpoint=%d;",
		 c->opt.cache_pages_kib > 0 ? c->opt.cache_pages_kib : 1024,
		 c->opt.checkpoint_ms > 0 ? 0 : 1000);
	if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
		open_error(err, c, k->db, c->path);
		goto fail;
	}
	if (c->opt.max_pages > 0) {
		snprintf(pragmas, sizeof(pragmas), "PRAGMA max_page_count=%lld;",
			 (long long)c->opt.max_pages);
		if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
			db_error(err, k->db, "max_page_count");
			goto fail;
		}
	}
	if (apply_schema) {
		if (!c->opt.skip_check && quick_check(c, k, err) < 0)
			goto fail;
		if (sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(k->db, kw_cache_schema, NULL, NULL, NULL) != SQLITE_OK ||
		    add_source_column(k->db) != SQLITE_OK ||
		    sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			open_error(err, c, k->db, "applying the schema");
			sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
	}
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(k->db, kw_cache_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &k->st[i], NULL) != SQLITE_OK) {
			db_error(err, k->db, "preparing a statement");
			goto fail;
		}
	}
	*out = k;
	return 0;
fail:
	conn_free(k);
	return err ? err->code : KW_EIO;
}

/* Borrow a connection (opening one if the pool is empty). */
static int conn_get(kw_cache_conn **out, kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;

	pthread_mutex_lock(&c->mu);
	k = c->idle;
	if (k)
		c->idle = k->next;
	pthread_mutex_unlock(&c->mu);
	if (k) {
		*out = k;
		return 0;
	}
	return conn_open(out, c, 0, err);
}

static void conn_put(kw_cache *c, kw_cache_conn *k)
{
	pthread_mutex_lock(&c->mu);
	k->next = c->idle;
	c->idle = k;
	pthread_mutex_unlock(&c->mu);
}

/* Checkpoint the WAL every checkpoint_ms (PASSIVE: never waits for
 * readers or writers) until kw_cache_close. */
static void *checkpointer(void *arg)
{
	kw_cache *c = arg;
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 0);
	pthread_mutex_lock(&c->ckpt_mu);
	while (!c->ckpt_stop) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(c->opt.checkpoint_ms % 1000) * 1000000L;
		ts.tv_sec += (time_t)(c->opt.checkpoint_ms / 1000) + ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&c->ckpt_cv, &c->ckpt_mu, &ts);
		if (c->ckpt_stop)
			break;
		pthread_mutex_unlock(&c->ckpt_mu);
		sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&c->ckpt_mu);
	}
	pthread_mutex_unlock(&c->ckpt_mu);
	sqlite3_close(db);
	return NULL;
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

int kw_cache_open(kw_cache **out, const char *path, const kw_cache_options *opt, kw_error *err)
{
	static const kw_cache_options defaults = KW_CACHE_OPTIONS_INIT;
	kw_cache *c;
	kw_cache_conn *k = NULL;
	int rc;

	if (!path)
		return kw_error_set(err, KW_EINVAL, NULL, "cache: no path");
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	c->opt = opt ? *opt : defaults;
	pthread_mutex_init(&c->mu, NULL);
	pthread_mutex_init(&c->write_mu, NULL);
	pthread_mutex_init(&c->ckpt_mu, NULL);
	pthread_cond_init(&c->ckpt_cv, NULL);
	rc = conn_open(&k, c, 1, err);
	if (rc < 0 && c->damaged && c->opt.reset_corrupt) {
		c->damaged = 0;
		if ((rc = move_aside(c, err)) == 0)
			rc = conn_open(&k, c, 1, err);
	}
	if (rc < 0) {
		kw_cache_close(c);
		return rc;
	}
	conn_put(c, k);
	if (c->opt.checkpoint_ms > 0) {
		if (pthread_create(&c->ckpt_thread, NULL, checkpointer, c) != 0) {
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
	if (c->ckpt_running) {
		pthread_mutex_lock(&c->ckpt_mu);
		c->ckpt_stop = 1;
		pthread_cond_signal(&c->ckpt_cv);
		pthread_mutex_unlock(&c->ckpt_mu);
		pthread_join(c->ckpt_thread, NULL);
	}
	while ((k = c->idle)) {
		c->idle = k->next;
		conn_free(k);
	}
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->write_mu);
	pthread_mutex_destroy(&c->ckpt_mu);
	pthread_cond_destroy(&c->ckpt_cv);
	free(c->path);
	free(c->moved);
	free(c);
}

const char *kw_cache_moved_aside(const kw_cache *c)
{
	return c ? c->moved : NULL;
}

int kw_cache_get(char **out, size_t *out_len, kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	char *text = NULL;
	size_t len = 0;
	int64_t last = 0, now;
	int rc;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_GET];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		len = (size_t)sqlite3_column_bytes(st, 0);
		text = malloc(len + 1);
		if (text) {
			memcpy(text, sqlite3_column_text(st, 0), len);
			text[len] = '\0';
		}
		last = sqlite3_column_int64(st, 1);
		rc = text ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	} else {
		rc = db_error(err, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);

	if (rc == 0 && (now = now_ms()) - last >= c->opt.touch_ms) {
		/* Best effort: a busy writer must not turn a hit into an error. */
		st = k->st[ST_TOUCH];
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, now);
		sqlite3_step(st);
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
	conn_put(c, k);
	if (rc == 0) {
		atomic_fetch_add(&c->hits, 1);
		*out = text;
		if (out_len)
			*out_len = len;
	} else if (rc == KW_ENOTFOUND) {
		atomic_fetch_add(&c->misses, 1);
	}
	return rc;
}

/* Step a statement that returns no row; reset it. */
static int run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Read the running totals inside the current transaction. */
static int totals(kw_cache_conn *k, int64_t *entries, int64_t *bytes)
{
	sqlite3_stmt *st = k->st[ST_TOTALS];
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		*entries = sqlite3_column_int64(st, 0);
		*bytes = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Delete LRU rows (never keep_key) until bytes <= max.  Returns the number
 * of rows deleted or -1 on error. */
static long evict(kw_cache_conn *k, const char *keep_key, int64_t max)
{
	int64_t entries, bytes;
	long n = 0;

	for (;;) {
		sqlite3_stmt *lru = k->st[ST_LRU];
		int rc, progressed = 0;

		if (totals(k, &entries, &bytes) < 0)
			return -1;
		if (bytes <= max)
			return n;
		sqlite3_bind_text(lru, 1, keep_key, -1, SQLITE_STATIC);
		while (bytes > max && (rc = sqlite3_step(lru)) == SQLITE_ROW) {
			sqlite3_stmt *del = k->st[ST_DELETE];

			sqlite3_bind_text(del, 1, (const char *)sqlite3_column_text(lru, 0), -1,
					  SQLITE_TRANSIENT);
			if (run(del) < 0) {
				sqlite3_reset(lru);
				return -1;
			}
			n++;
			progressed = 1;
			if (totals(k, &entries, &bytes) < 0) {
				sqlite3_reset(lru);
				return -1;
			}
		}
		sqlite3_reset(lru);
		sqlite3_clear_bindings(lru);
		if (!progressed)
			return n; /* only keep_key is left */
	}
}

int kw_cache_put(kw_cache *c, const kw_cache_entry *e, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	int64_t bytes, now = now_ms();
	long evicted = 0;
	int rc;

	if (!e || !e->key || !e->config_id || !e->generator_version || !e->isa || !e->request ||
	    !e->asm_text || !e->tables || !e->response)
		return kw_error_set(err, KW_EINVAL, NULL, "cache: incomplete entry");
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	bytes = (int64_t)(strlen(e->request) + strlen(e->asm_text) + strlen(e->tables) +
			  strlen(e->response) + (e->source ? strlen(e->source) : 0));
	pthread_mutex_lock(&c->write_mu);
	if (run(k->st[ST_BEGIN]) < 0) {
		rc = db_error(err, k->db, "starting a write");
		goto out;
	}
	st = k->st[ST_UPSERT];
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
	rc = run(st);
	sqlite3_clear_bindings(st);
	if (rc < 0) {
		rc = db_error(err, k->db, "writing");
		goto rollback;
	}
	if (c->opt.max_bytes > 0 && (evicted = evict(k, e->key, c->opt.max_bytes)) < 0) {
		rc = db_error(err, k->db, "evicting");
		goto rollback;
	}
	if (run(k->st[ST_COMMIT]) < 0) {
		rc = db_error(err, k->db, "committing");
		goto rollback;
	}
	atomic_fetch_add(&c->inserts, 1);
	atomic_fetch_add(&c->evictions, (uint_fast64_t)evicted);
	rc = 0;
	goto out;
rollback:
	run(k->st[ST_ROLLBACK]);
out:
	pthread_mutex_unlock(&c->write_mu);
	conn_put(c, k);
	return rc;
}

int kw_cache_stats_get(kw_cache_stats *out, kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;
	int rc;

	memset(out, 0, sizeof(*out));
	out->hits = atomic_load(&c->hits);
	out->misses = atomic_load(&c->misses);
	out->inserts = atomic_load(&c->inserts);
	out->evictions = atomic_load(&c->evictions);
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	rc = totals(k, &out->entries, &out->bytes) < 0 ? db_error(err, k->db, "reading totals") : 0;
	conn_put(c, k);
	return rc;
}

int kw_cache_integrity(char **out, kw_cache *c, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, "PRAGMA integrity_check(1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = db_error(err, k->db, "integrity_check");
	} else {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*out = strdup(t ? t : "");
		rc = *out ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}

/* ---- looking into the file (kwgen cache, DELETE /v1/kernels/{key}) ---- */

int kw_cache_get_source(char **out, kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	int rc;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_SOURCE];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*out = strdup(t ? t : "");
		rc = *out ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	} else {
		rc = db_error(err, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	conn_put(c, k);
	return rc;
}

/* Column i of st as text, "" for NULL. */
static const char *col(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t ? t : "";
}

/* Run the row query q (bound by bind, may be NULL) and hand each row to
 * cb; full = the query also selects request, asm, tables, response. */
static int rows(kw_cache *c, const char *q, const char *key, int64_t n, int full, kw_cache_row_cb cb, void *ud,
		int *found, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, q, -1, &st, NULL) != SQLITE_OK) {
		rc = db_error(err, k->db, "preparing a query");
		goto out;
	}
	if (key)
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, n);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		kw_cache_row r;

		memset(&r, 0, sizeof(r));
		r.key = col(st, 0);
		r.config_id = col(st, 1);
		r.generator_version = col(st, 2);
		r.isa = col(st, 3);
		r.bytes = sqlite3_column_int64(st, 4);
		r.created = sqlite3_column_int64(st, 5);
		r.last_access = sqlite3_column_int64(st, 6);
		r.source = col(st, 7);
		if (full) {
			r.request = col(st, 8);
			r.asm_text = col(st, 9);
			r.tables = col(st, 10);
			r.response = col(st, 11);
		}
		(*found)++;
		if (cb(ud, &r) != 0)
			break;
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(err, k->db, "reading");
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}

#define KW_ROW_COLS "key, config_id, generator_version, isa, bytes, created, last_access, source"

int kw_cache_list(kw_cache *c, int64_t limit, kw_cache_row_cb cb, void *ud, kw_error *err)
{
	int found;

	return rows(c, "SELECT " KW_ROW_COLS " FROM entries ORDER BY last_access DESC LIMIT ?1", NULL,
		    limit > 0 ? limit : -1, 0, cb, ud, &found, err);
}

int kw_cache_show(kw_cache *c, const char *key, kw_cache_row_cb cb, void *ud, kw_error *err)
{
	int found, rc;

	rc = rows(c, "SELECT " KW_ROW_COLS ", request, asm, tables, response FROM entries WHERE key = ?1", key, 0, 1,
		  cb, ud, &found, err);
	if (rc == 0 && !found)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	return rc;
}

int kw_cache_groups(kw_cache *c, kw_cache_group_cb cb, void *ud, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db,
			       "SELECT isa, count(*), total(bytes), min(last_access), max(last_access)"
			       " FROM entries GROUP BY isa ORDER BY isa", -1, &st, NULL) != SQLITE_OK) {
		rc = db_error(err, k->db, "preparing a query");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ud, col(st, 0), sqlite3_column_int64(st, 1), (int64_t)sqlite3_column_double(st, 2),
		       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)) != 0)
			break;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(err, k->db, "reading");
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}

int kw_cache_delete(kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	int rc, n = 0;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	pthread_mutex_lock(&c->write_mu);
	sqlite3_bind_text(k->st[ST_DELETE], 1, key, -1, SQLITE_STATIC);
	if (run(k->st[ST_DELETE]) < 0)
		rc = db_error(err, k->db, "deleting");
	else
		n = sqlite3_changes(k->db);
	sqlite3_clear_bindings(k->st[ST_DELETE]);
	pthread_mutex_unlock(&c->write_mu);
	conn_put(c, k);
	if (rc == 0 && n == 0)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	return rc;
}

/* Rows deleted per purge transaction: each write lock is short. */
#define KW_PURGE_BATCH 256

int kw_cache_purge(int64_t *out, kw_cache *c, int64_t before_ms, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	int64_t total = 0;
	int rc, n;

	*out = 0;
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db,
			       "DELETE FROM entries WHERE key IN (SELECT key FROM entries WHERE last_access < ?1"
			       " ORDER BY last_access LIMIT " KW_STR(KW_PURGE_BATCH) ")", -1, &st, NULL) != SQLITE_OK) {
		rc = db_error(err, k->db, "preparing a query");
		goto out;
	}
	do {
		pthread_mutex_lock(&c->write_mu);
		sqlite3_bind_int64(st, 1, before_ms);
		n = 0;
		if (run(k->st[ST_BEGIN]) < 0 || run(st) < 0) {
			rc = db_error(err, k->db, "purging");
			run(k->st[ST_ROLLBACK]);
		} else {
			n = sqlite3_changes(k->db);
			if (run(k->st[ST_COMMIT]) < 0) {
				rc = db_error(err, k->db, "committing");
				run(k->st[ST_ROLLBACK]);
				n = 0;
			}
		}
		pthread_mutex_unlock(&c->write_mu);
		total += n;
	} while (rc == 0 && n == KW_PURGE_BATCH);
	*out = total;
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}
