/*
 * cache.c - the SQLite response store behind kwgend (kwgen/cache.h).
 *
 * Owns the schema (the same statements as schema/cache.sql), the writer
 * connection, a pool of reader connections (one per concurrently reading
 * thread), the checkpointer thread and its connection, the prepared
 * statements of each connection, the in-memory hit times, the LRU bounds
 * (stored bytes and disk pages) and the event counters.
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
#include <sys/stat.h>
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
	ST_GET,      /* response of a key */
	ST_TOUCH,    /* rewrite last_access (eviction passing over a touched row) */
	ST_UPSERT,   /* insert or replace a row */
	ST_TOTALS,   /* entries, bytes */
	ST_LRU,      /* the least recently used keys, oldest first */
	ST_DELETE,   /* delete one key */
	ST_PAGES,    /* PRAGMA page_count */
	ST_FREE,     /* PRAGMA freelist_count */
	ST_SOURCE,   /* the source of a key */
	ST_KIND,     /* is a key's row a verification */
	ST_BEGIN,    /* BEGIN IMMEDIATE */
	ST_COMMIT,
	ST_ROLLBACK,
	ST_COUNT
};

/* Statements a read-only connection prepares (the others need writes). */
#define KW_READ_STATEMENTS ((1u << ST_GET) | (1u << ST_TOTALS) | (1u << ST_SOURCE) | (1u << ST_KIND))

/* A verification row (kwgen/cache.h, kw_cache_is_verification): its version
 * column holds the verifier's version; rows written before that carried the
 * generator's, and are known by their request ({"route":"/v1/verify", ...}). */
#define KW_KIND_SQL                                                                                       \
	"(generator_version LIKE '" KW_CACHE_VERIFY_PREFIX "%' OR request LIKE '{\"route\":\"/v1/verify\"%')"

#define KW_LRU_BATCH 32
#define KW_MAX_PASS_OVER 64

/* A put waits up to this many busy_timeout_ms for the writes of this
 * process ahead of it (and the checkpointer's final step). */
#define KW_QUEUE_FACTOR 5

/* Checkpoint tries (1 ms apart) before a write is refused because another
 * connection holds an old snapshot of a WAL past its share (write_begin). */
#define KW_SNAPSHOT_TRIES 20

static const char *const kw_cache_sql[ST_COUNT] = {
	[ST_GET] = "SELECT response FROM entries WHERE key = ?1",
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
	[ST_LRU] = ("SELECT key, last_access FROM entries WHERE key <> ?1 ORDER BY last_access"
		    " LIMIT 32"),
	[ST_DELETE] = "DELETE FROM entries WHERE key = ?1",
	[ST_PAGES] = "PRAGMA page_count",
	[ST_FREE] = "PRAGMA freelist_count",
	[ST_SOURCE] = "SELECT source FROM entries WHERE key = ?1",
	[ST_KIND] = "SELECT " KW_KIND_SQL " FROM entries WHERE key = ?1",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
};

typedef struct kw_cache_conn {
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	struct kw_cache_conn *next; /* free list */
} kw_cache_conn;

/* How a connection is opened. */
enum { OPEN_WRITE, OPEN_READ, OPEN_READ_ONLY, OPEN_IMMUTABLE };

/* The in-memory hit times (see "Recency" in cache.h): sets of KW_WAYS
 * slots, chosen by the key's leading bytes (keys are SHA-256 digests). */
#define KW_WAYS 4
#define KW_RECENT_LOCKS 64

typedef struct kw_recent_slot {
	unsigned char key[32];
	int64_t ms; /* 0 = empty */
} kw_recent_slot;

struct kw_cache {
	char *path;
	char *moved;          /* where a damaged file went (reset_corrupt), or NULL */
	char *read_only;      /* why puts cannot store (names the file), or NULL */
	int damaged;          /* set by conn_open: the file is not a sound database */
	char why[128];        /* SQLite's message of the last failed opening step */
	int why_code;         /* and its primary result code */
	int mode;             /* OPEN_READ, or OPEN_READ_ONLY / OPEN_IMMUTABLE */
	kw_cache_options opt;
	int64_t page_size;
	int64_t wal_share;    /* bytes; journal_size_limit, checkpoint thresholds */
	int64_t db_budget;    /* bytes of used pages allowed (max_disk_bytes > 0) */
	pthread_mutex_t mu;   /* guards idle */
	pthread_mutex_t write_mu; /* one writer at a time in this process: SQLite's
				   * busy handler sleeps, a mutex hands over at once */
	kw_cache_conn *writer;    /* guarded by write_mu; NULL when read-only */
	kw_cache_conn *idle;  /* reader connections not lent out */
	atomic_uint_fast64_t hits, misses, inserts, evictions, checkpoints;
	atomic_int wal_frames; /* pages in the WAL after the last commit (the hook) */
	atomic_int_fast64_t locked_until; /* ms: another connection held the write
					   * lock; puts fail at once until then */
	/* recency */
	size_t nsets;
	kw_recent_slot *recent;
	pthread_mutex_t recent_mu[KW_RECENT_LOCKS];
	/* The checkpointer: request threads checkpoint only when the WAL has
	 * reached its whole share (the hook, on the writer). */
	kw_cache_conn *ckpt;
	pthread_t ckpt_thread;
	int ckpt_running;
	int ckpt_stop;            /* guarded by ckpt_mu */
	int ckpt_kick;            /* guarded by ckpt_mu */
	int ckpt_passive;         /* its PASSIVE round runs; guarded by ckpt_mu */
	pthread_cond_t ckpt_done; /* broadcast when that round ends */
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

static int db_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what)
{
	return kw_error_set(err, KW_EIO, NULL, "cache %s: %s: %s", c->path, what,
			    db ? sqlite3_errmsg(db) : "out of memory");
}

/* db_error for the opening steps: also notes whether the file itself is
 * damaged (not a database, or corrupt), which kw_cache_open reports by name. */
static int open_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what)
{
	int code = db ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;

	if (db)
		snprintf(c->why, sizeof(c->why), "%s", sqlite3_errmsg(db));
	c->why_code = code;
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
		c->damaged = 1;
		return kw_error_set(err, KW_EIO, NULL, "cache: %s is damaged (%s: %s)", c->path,
				    what, sqlite3_errmsg(db));
	}
	return db_error(err, c, db, what);
}

int64_t kw_cache_wal_share(int64_t max_disk_bytes)
{
	int64_t w = max_disk_bytes / 8;

	if (max_disk_bytes <= 0)
		return 4 << 20;
	return w < (64 << 10) ? (64 << 10) : w > (64 << 20) ? (64 << 20) : w;
}

int64_t kw_cache_disk_slack(int64_t max_disk_bytes)
{
	int64_t s = max_disk_bytes / 8;

	return s < (256 << 10) ? (256 << 10) : s > (64 << 20) ? (64 << 20) : s;
}

/* ------------------------------------------------------------ recency */

/* 64 hex digits -> 32 bytes; -1 for anything else (not tracked). */
static int key_bytes(unsigned char out[32], const char *key)
{
	for (int i = 0; i < 64; i++) {
		int ch = (unsigned char)key[i], v;

		if (ch >= '0' && ch <= '9')
			v = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v = ch - 'A' + 10;
		else
			return -1;
		if (i % 2 == 0)
			out[i / 2] = (unsigned char)(v << 4);
		else
			out[i / 2] |= (unsigned char)v;
	}
	return key[64] == '\0' ? 0 : -1;
}

/* The set of a key: its four 8-byte words XORed, then mixed (shift-xor,
 * Fibonacci multiply, shift-xor) so that keys differing only in a few
 * bytes still spread (a SHA-256 digest is uniform already). */
static size_t set_of(const kw_cache *c, const unsigned char k[32])
{
	uint64_t h = 0;

	for (int i = 0; i < 32; i++)
		h ^= (uint64_t)k[i] << (8 * (i % 8));
	h ^= h >> 33;
	h *= UINT64_C(0x9E3779B97F4A7C15);
	h ^= h >> 29;
	return (size_t)(h % c->nsets);
}

/* Record a hit on key at ms (keeps the later of two times). */
static void recent_touch(kw_cache *c, const char *key, int64_t ms)
{
	unsigned char k[32];
	size_t set;
	kw_recent_slot *s, *victim;
	pthread_mutex_t *lk;

	if (!c->recent || key_bytes(k, key) < 0)
		return;
	set = set_of(c, k);
	s = &c->recent[set * KW_WAYS];
	lk = &c->recent_mu[set % KW_RECENT_LOCKS];
	pthread_mutex_lock(lk);
	victim = &s[0];
	for (int i = 0; i < KW_WAYS; i++) {
		if (s[i].ms && memcmp(s[i].key, k, 32) == 0) {
			victim = &s[i];
			break;
		}
		if (s[i].ms < victim->ms)
			victim = &s[i]; /* an empty slot, else the oldest touch */
	}
	if (memcmp(victim->key, k, 32) != 0 || !victim->ms) {
		memcpy(victim->key, k, 32);
		victim->ms = ms;
	} else if (ms > victim->ms) {
		victim->ms = ms;
	}
	pthread_mutex_unlock(lk);
}

/* The last hit time held for key, 0 when none. */
static int64_t recent_get(kw_cache *c, const char *key)
{
	unsigned char k[32];
	size_t set;
	kw_recent_slot *s;
	int64_t ms = 0;
	pthread_mutex_t *lk;

	if (!c->recent || key_bytes(k, key) < 0)
		return 0;
	set = set_of(c, k);
	s = &c->recent[set * KW_WAYS];
	lk = &c->recent_mu[set % KW_RECENT_LOCKS];
	pthread_mutex_lock(lk);
	for (int i = 0; i < KW_WAYS; i++)
		if (s[i].ms && memcmp(s[i].key, k, 32) == 0)
			ms = s[i].ms;
	pthread_mutex_unlock(lk);
	return ms;
}

void kw_cache_touch(kw_cache *c, const char *key)
{
	if (c && key)
		recent_touch(c, key, now_ms());
}

/* -------------------------------------------------------- connections */

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

/* "file:" + path with '%', '?' and '#' escaped + "?immutable=1"
 * (SQLite's URI form), malloc()ed. */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *u = malloc(3 * n + 32), *w;

	if (!u)
		return NULL;
	w = u + sprintf(u, "file:");
	for (const char *p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#') {
			*w++ = '%';
			*w++ = hex[(unsigned char)*p >> 4];
			*w++ = hex[(unsigned char)*p & 15];
		} else {
			*w++ = *p;
		}
	}
	strcpy(w, "?immutable=1");
	return u;
}

/* The writer's commit hook: the WAL holds frames pages.  At half its share
 * the background thread is woken; at all of it the writer checkpoints now
 * (after any background PASSIVE round; PASSIVE itself waits for no lock;
 * the log restarts at the next write and journal_size_limit trims the
 * file).  Runs with write_mu held; without a background thread, at half
 * the share. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
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

/* Open one connection in the given mode, set its pragmas, apply the
 * schema if asked and prepare its statements. */
static int conn_open(kw_cache_conn **out, kw_cache *c, int how, int apply_schema, kw_error *err)
{
	kw_cache_conn *k;
	char pragmas[256], *uri = NULL;
	int rc, flags = SQLITE_OPEN_NOMUTEX;
	int writes = how == OPEN_WRITE || how == OPEN_READ;

	k = calloc(1, sizeof(*k));
	if (!k)
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	if (how == OPEN_WRITE)
		flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	else if (how == OPEN_READ)
		flags |= SQLITE_OPEN_READWRITE;
	else
		flags |= SQLITE_OPEN_READONLY;
	if (how == OPEN_IMMUTABLE) {
		if (!(uri = immutable_uri(c->path))) {
			free(k);
			return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
		}
		flags |= SQLITE_OPEN_URI;
	}
	rc = sqlite3_open_v2(uri ? uri : c->path, &k->db, flags, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		open_error(err, c, k->db, "opening");
		goto fail;
	}
	sqlite3_extended_result_codes(k->db, 1);
	/* readers never wait; the writer's wait is set per put */
	sqlite3_busy_timeout(k->db, 0);
	if (writes) {
		/* journal_mode answers with a row; exec ignores it.  Only the
		 * writer commits, so only its hook checkpoints. */
		snprintf(pragmas, sizeof(pragmas),
			 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-%d;"
			 " PRAGMA foreign_keys=OFF; PRAGMA journal_size_limit=%lld;",
			 c->opt.cache_pages_kib > 0 ? c->opt.cache_pages_kib : 1024,
			 (long long)c->wal_share);
	} else {
		snprintf(pragmas, sizeof(pragmas), "PRAGMA cache_size=-%d;",
			 c->opt.cache_pages_kib > 0 ? c->opt.cache_pages_kib : 1024);
	}
	if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
		open_error(err, c, k->db, "setting it up");
		goto fail;
	}
	if (writes && c->opt.max_pages > 0) {
		snprintf(pragmas, sizeof(pragmas), "PRAGMA max_page_count=%lld;",
			 (long long)c->opt.max_pages);
		if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
			db_error(err, c, k->db, "max_page_count");
			goto fail;
		}
	}
	if (apply_schema) {
		/* at start-up another connection's write may be in progress:
		 * wait for it (at least 5 s) rather than take the file for
		 * read-only */
		sqlite3_busy_timeout(k->db, c->opt.busy_timeout_ms > 5000 ? c->opt.busy_timeout_ms : 5000);
		if (!c->opt.skip_check && quick_check(c, k, err) < 0)
			goto fail;
		if (how == OPEN_WRITE &&
		    (sqlite3_exec(k->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
		     sqlite3_exec(k->db, kw_cache_schema, NULL, NULL, NULL) != SQLITE_OK ||
		     add_source_column(k->db) != SQLITE_OK ||
		     sqlite3_exec(k->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)) {
			open_error(err, c, k->db, "applying the schema");
			sqlite3_exec(k->db, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
	}
	sqlite3_busy_timeout(k->db, 0);
	for (int i = 0; i < ST_COUNT; i++) {
		if (!writes && !(KW_READ_STATEMENTS & (1u << i)))
			continue;
		if (sqlite3_prepare_v3(k->db, kw_cache_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &k->st[i], NULL) != SQLITE_OK) {
			open_error(err, c, k->db, "preparing a statement");
			goto fail;
		}
	}
	if (how == OPEN_WRITE)
		sqlite3_wal_hook(k->db, wal_hook, c);
	*out = k;
	return 0;
fail:
	conn_free(k);
	return err ? err->code : KW_EIO;
}

/* Borrow a reader connection (opening one if the pool is empty). */
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
	return conn_open(out, c, c->mode, 0, err);
}

static void conn_put(kw_cache *c, kw_cache_conn *k)
{
	pthread_mutex_lock(&c->mu);
	k->next = c->idle;
	c->idle = k;
	pthread_mutex_unlock(&c->mu);
}

/* Step a statement that returns no row; reset it. */
static int run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Read the running totals (inside the current transaction, if any). */
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

/* One integer from a statement (a PRAGMA); -1 on error. */
static int64_t one_int(sqlite3_stmt *st)
{
	int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;

	sqlite3_reset(st);
	return v;
}

/* A one-off integer PRAGMA; -1 on error. */
static int64_t pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int64_t file_size(const char *path, const char *suffix)
{
	char name[4096];
	struct stat sb;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return stat(name, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

/* ------------------------------------------------------- checkpointer */

/*
 * One round: a PASSIVE checkpoint beside the writers (the bulk of the
 * copying and its fsyncs; the writer's own checkpoint waits for it rather
 * than find it running and do nothing), then, holding write_mu so that no
 * write of this process lands in between (a log that gains frames
 * meanwhile cannot restart), a TRUNCATE checkpoint of what was committed
 * meanwhile that waits up to 20 ms for readers of older snapshots (and
 * another process's writer) and empties the -wal file; when it cannot, it
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
	    file_size(c->path, "-wal") <= c->wal_share)
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
	rc = sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
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
static void *checkpointer(void *arg)
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
		checkpoint_once(c);
		pthread_mutex_lock(&c->ckpt_mu);
	}
	pthread_mutex_unlock(&c->ckpt_mu);
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
		if (conn_open(k, c, modes[i], 1, &e2) < 0) {
			if (c->damaged) {
				*err = e2;
				return e2.code;
			}
			continue;
		}
		if (totals(*k, &entries, &bytes) < 0) { /* not a kwgen cache */
			conn_free(*k);
			*k = NULL;
			continue;
		}
		c->mode = modes[i];
		snprintf(msg, sizeof(msg), "cache: %s is read-only%s (%s); stored entries are served,"
			 " new results are not stored", c->path,
			 modes[i] == OPEN_IMMUTABLE ? " and opened immutable" : "", reason);
		if (!(c->read_only = strdup(msg))) {
			conn_free(*k);
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
	for (int i = 0; i < KW_RECENT_LOCKS; i++)
		pthread_mutex_init(&c->recent_mu[i], NULL);
	slots = c->opt.recent_slots > 0 ? (size_t)c->opt.recent_slots : 65536;
	c->nsets = (slots + KW_WAYS - 1) / KW_WAYS;
	if (!(c->recent = calloc(c->nsets * KW_WAYS, sizeof(*c->recent)))) {
		kw_cache_close(c);
		return kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	}
	rc = conn_open(&k, c, OPEN_WRITE, 1, &why);
	if (rc < 0 && c->damaged && c->opt.reset_corrupt) {
		c->damaged = 0;
		if ((rc = move_aside(c, &why)) == 0)
			rc = conn_open(&k, c, OPEN_WRITE, 1, &why);
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
		c->page_size = pragma_int(k->db, "PRAGMA page_size");
		if (c->page_size <= 0)
			c->page_size = 4096;
	} else {
		conn_put(c, k);
	}
	if (!c->read_only && c->opt.checkpoint_ms > 0) {
		int64_t e, b;

		/* one read opens the WAL on this connection for good (see
		 * checkpoint_once) */
		if ((rc = conn_open(&c->ckpt, c, OPEN_READ, 0, err)) < 0 ||
		    (totals(c->ckpt, &e, &b) < 0 &&
		     (rc = db_error(err, c, c->ckpt->db, "reading totals")) < 0)) {
			kw_cache_close(c);
			return rc;
		}
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
	conn_free(c->ckpt);
	while ((k = c->idle)) {
		c->idle = k->next;
		conn_free(k);
	}
	/* the last connection to close checkpoints and removes the WAL */
	conn_free(c->writer);
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->write_mu);
	pthread_mutex_destroy(&c->ckpt_mu);
	pthread_cond_destroy(&c->ckpt_cv);
	pthread_cond_destroy(&c->ckpt_done);
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

int kw_cache_get(char **out, size_t *out_len, kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	char *text = NULL;
	size_t len = 0;
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
		rc = text ? 0 : kw_error_set(err, KW_ENOMEM, NULL, "cache: out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	} else {
		rc = db_error(err, c, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	conn_put(c, k);
	if (rc == 0) {
		recent_touch(c, key, now_ms());
		atomic_fetch_add(&c->hits, 1);
		*out = text;
		if (out_len)
			*out_len = len;
	} else if (rc == KW_ENOTFOUND) {
		atomic_fetch_add(&c->misses, 1);
	}
	return rc;
}

/* Over the bound?  1 yes, 0 no, -1 error. */
static int over(kw_cache *c, kw_cache_conn *k)
{
	int64_t entries, bytes, pages, free_pages;

	if (c->opt.max_bytes > 0) {
		if (totals(k, &entries, &bytes) < 0)
			return -1;
		if (bytes > c->opt.max_bytes)
			return 1;
	}
	if (c->opt.max_disk_bytes > 0) {
		if ((pages = one_int(k->st[ST_PAGES])) < 0 ||
		    (free_pages = one_int(k->st[ST_FREE])) < 0)
			return -1;
		if ((pages - free_pages) * c->page_size > c->db_budget)
			return 1;
	}
	return 0;
}

/*
 * Delete least-recently-used rows (never keep_key) while over the bound.
 * Candidates come by stored last_access, KW_LRU_BATCH at a time; one hit
 * in memory since (recent_get) has its last_access rewritten to the hit's
 * time instead, and a candidate stored as newer than such a rewritten time
 * waits for the next batch (which then orders both).  At most
 * KW_MAX_PASS_OVER rows are rewritten per put, so that one put's WAL stays
 * small when every row is hot; past that, candidates go in stored order.
 * Returns the number of rows deleted or -1 on error.
 */
static long evict(kw_cache *c, kw_cache_conn *k, const char *keep_key)
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
		while (got < KW_LRU_BATCH && (rc = sqlite3_step(lru)) == SQLITE_ROW) {
			const char *key = (const char *)sqlite3_column_text(lru, 0);

			snprintf(keys[got], sizeof(keys[got]), "%s", key ? key : "");
			last[got++] = sqlite3_column_int64(lru, 1);
		}
		sqlite3_reset(lru);
		sqlite3_clear_bindings(lru);
		for (int i = 0; i < got; i++) {
			int64_t hit = moves < KW_MAX_PASS_OVER ? recent_get(c, keys[i]) : 0;
			sqlite3_stmt *st;

			if (hit > last[i]) {
				moves++;
				st = k->st[ST_TOUCH];
				sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
				sqlite3_bind_int64(st, 2, hit);
				rc = run(st);
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
			rc = run(st);
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
static int write_begin(kw_cache *c, kw_error *err)
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
		 * few tries 1 ms apart tell them from a reader that stays. */
		for (int tries = 0; tries < KW_SNAPSHOT_TRIES; tries++) {
			if (tries)
				nanosleep(&(struct timespec){ 0, 1000000L }, NULL);
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
	probe = now_ms() < atomic_load(&c->locked_until);
	sqlite3_busy_timeout(k->db, probe ? 0 : c->opt.busy_timeout_ms);
	if (run(k->st[ST_BEGIN]) == 0)
		return 0;
	if ((sqlite3_extended_errcode(k->db) & 0xff) == SQLITE_BUSY) {
		if (!probe)
			atomic_store(&c->locked_until, now_ms() + c->opt.busy_timeout_ms);
		rc = kw_error_set(err, KW_EIO, NULL,
				  "cache %s: another connection holds the write lock (waited %d ms);"
				  " retry", c->path, probe ? 0 : c->opt.busy_timeout_ms);
	} else {
		rc = db_error(err, c, k->db, "starting a write");
	}
	sqlite3_busy_timeout(k->db, 0);
	pthread_mutex_unlock(&c->write_mu);
	return rc;
}

/* Commit (ok) or roll back the writer's transaction and let go of it.
 * Returns 0, or KW_EIO when the commit failed (rolled back). */
static int write_end(kw_cache *c, int ok, kw_error *err)
{
	kw_cache_conn *k = c->writer;
	int rc = 0;

	if (ok && run(k->st[ST_COMMIT]) < 0) {
		rc = db_error(err, c, k->db, "committing");
		ok = 0;
	}
	if (!ok)
		run(k->st[ST_ROLLBACK]);
	sqlite3_busy_timeout(k->db, 0);
	pthread_mutex_unlock(&c->write_mu);
	return rc;
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
	bytes = (int64_t)(strlen(e->request) + strlen(e->asm_text) + strlen(e->tables) +
			  strlen(e->response) + (e->source ? strlen(e->source) : 0));
	if ((rc = write_begin(c, err)) < 0)
		return rc;
	k = c->writer;
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
		rc = db_error(err, c, k->db, "writing");
		write_end(c, 0, NULL);
		return rc;
	}
	if ((c->opt.max_bytes > 0 || c->opt.max_disk_bytes > 0) &&
	    (evicted = evict(c, k, e->key)) < 0) {
		rc = db_error(err, c, k->db, "evicting");
		write_end(c, 0, NULL);
		return rc;
	}
	if ((rc = write_end(c, 1, err)) < 0)
		return rc;
	atomic_fetch_add(&c->inserts, 1);
	atomic_fetch_add(&c->evictions, (uint_fast64_t)evicted);
	return 0;
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
	out->checkpoints = atomic_load(&c->checkpoints);
	out->db_file_bytes = file_size(c->path, "");
	out->wal_bytes = file_size(c->path, "-wal");
	out->shm_bytes = file_size(c->path, "-shm");
	out->read_only = c->read_only != NULL;
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	rc = totals(k, &out->entries, &out->bytes) < 0 ? db_error(err, c, k->db, "reading totals") : 0;
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
		rc = db_error(err, c, k->db, "integrity_check");
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
		rc = db_error(err, c, k->db, "reading");
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	conn_put(c, k);
	return rc;
}

int kw_cache_is_verification(kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st;
	int rc;

	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	st = k->st[ST_KIND];
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		rc = sqlite3_column_int(st, 0) ? 1 : 0;
	else if (rc == SQLITE_DONE)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", key);
	else
		rc = db_error(err, c, k->db, "reading");
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
		rc = db_error(err, c, k->db, "preparing a query");
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
		r.verification = sqlite3_column_int(st, 8);
		if (full) {
			r.request = col(st, 9);
			r.asm_text = col(st, 10);
			r.tables = col(st, 11);
			r.response = col(st, 12);
		}
		(*found)++;
		if (cb(ud, &r) != 0)
			break;
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(err, c, k->db, "reading");
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}

#define KW_ROW_COLS "key, config_id, generator_version, isa, bytes, created, last_access, source, " KW_KIND_SQL

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
		rc = db_error(err, c, k->db, "preparing a query");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(ud, col(st, 0), sqlite3_column_int64(st, 1), (int64_t)sqlite3_column_double(st, 2),
		       sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)) != 0)
			break;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(err, c, k->db, "reading");
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}

int kw_cache_delete(kw_cache *c, const char *key, kw_error *err)
{
	kw_cache_conn *k;
	int rc, n = 0;

	if ((rc = write_begin(c, err)) < 0)
		return rc;
	k = c->writer;
	sqlite3_bind_text(k->st[ST_DELETE], 1, key, -1, SQLITE_STATIC);
	if (run(k->st[ST_DELETE]) < 0)
		rc = db_error(err, c, k->db, "deleting");
	else
		n = sqlite3_changes(k->db);
	sqlite3_clear_bindings(k->st[ST_DELETE]);
	if ((rc = rc < 0 ? (write_end(c, 0, NULL), rc) : write_end(c, 1, err)) < 0)
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
		rc = db_error(err, c, c->writer->db, "preparing a query");
	pthread_mutex_unlock(&c->write_mu);
	if (rc < 0)
		return rc;
	do {
		if ((rc = write_begin(c, err)) < 0)
			break;
		sqlite3_bind_int64(st, 1, before_ms);
		n = 0;
		if (run(st) < 0) {
			rc = db_error(err, c, c->writer->db, "purging");
			write_end(c, 0, NULL);
		} else {
			n = sqlite3_changes(c->writer->db);
			if ((rc = write_end(c, 1, err)) < 0)
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

int kw_cache_resolve(char out[65], kw_cache *c, const char *prefix, kw_error *err)
{
	kw_cache_conn *k;
	sqlite3_stmt *st = NULL;
	char hi[66];
	size_t n = strlen(prefix);
	int rc, found = 0;

	if (n < 4 || n > 64 || strspn(prefix, "0123456789abcdef") != n)
		return kw_error_set(err, KW_EINVAL, "key", "\"%s\" is not a key or a key prefix (4..64 lower-case hex digits)",
				    prefix);
	/* keys from prefix up to (not including) prefix + "g": a range on the
	 * primary key's index */
	snprintf(hi, sizeof(hi), "%sg", prefix);
	if ((rc = conn_get(&k, c, err)) < 0)
		return rc;
	if (sqlite3_prepare_v2(k->db, "SELECT key FROM entries WHERE key >= ?1 AND key < ?2 ORDER BY key LIMIT 2", -1,
			       &st, NULL) != SQLITE_OK) {
		rc = db_error(err, c, k->db, "preparing a query");
		goto out;
	}
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, hi, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (found++ == 0)
			snprintf(out, 65, "%s", col(st, 0));
	if (rc != SQLITE_DONE)
		rc = db_error(err, c, k->db, "reading");
	else if (found == 0)
		rc = kw_error_set(err, KW_ENOTFOUND, "key", "no entry for key %s", prefix);
	else if (found > 1)
		rc = kw_error_set(err, KW_EINVAL, "key", "%s is the start of more than one key; give more digits", prefix);
	else
		rc = 0;
out:
	sqlite3_finalize(st);
	conn_put(c, k);
	return rc;
}
