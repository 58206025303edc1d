/*
 * conn.c - one SQLite connection of the store (kwgen/cache.h): the schema
 * (the same statements as schema/cache.sql), opening a connection in one of
 * its modes with its pragmas and prepared statements, the reader pool, and
 * the small statement helpers every other file of the store uses.
 */
#include "store/store.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

static const char *const kw_cache_sql[ST_COUNT] = {
	[ST_GET] = "SELECT response FROM entries WHERE key = ?1",
	[ST_TOUCH] = "UPDATE entries SET last_access = ?2 WHERE key = ?1 AND last_access < ?2",
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
		    " LIMIT ?2"),
	[ST_DELETE] = "DELETE FROM entries WHERE key = ?1",
	[ST_PAGES] = "PRAGMA page_count",
	[ST_FREE] = "PRAGMA freelist_count",
	[ST_SOURCE] = "SELECT source FROM entries WHERE key = ?1",
	[ST_KIND] = "SELECT " KW_KIND_SQL " FROM entries WHERE key = ?1",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
};

/* Milliseconds since the Unix epoch. */
int64_t store_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int store_db_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what)
{
	return kw_error_set(err, KW_EIO, NULL, "cache %s: %s: %s", c->path, what,
			    db ? sqlite3_errmsg(db) : "out of memory");
}

/* db_error for the opening steps: also notes whether the file itself is
 * damaged (not a database, or corrupt), which kw_cache_open reports by name. */
int store_open_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what)
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
	return store_db_error(err, c, db, what);
}

/* PRAGMA quick_check(1) on k: 0 when "ok", else KW_EIO (damaged). */
static int quick_check(kw_cache *c, kw_cache_conn *k, kw_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(k->db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		rc = store_open_error(err, c, k->db, "quick_check");
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

void store_conn_free(kw_cache_conn *k)
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

/* Open one connection in the given mode, set its pragmas, apply the
 * schema if asked and prepare its statements. */
int store_conn_open(kw_cache_conn **out, kw_cache *c, int how, int apply_schema, kw_error *err)
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
		store_open_error(err, c, k->db, "opening");
		goto fail;
	}
	sqlite3_extended_result_codes(k->db, 1);
	/* readers never wait; the writer's wait is set per put */
	sqlite3_busy_timeout(k->db, 0);
	if (writes) {
		/* journal_mode answers with a row; exec ignores it.  Only the
		 * writer commits, so only its hook checkpoints.  The log may pass
		 * its share by one group (a quarter of it) before the writer
		 * checkpoints: journal_size_limit leaves the file that long
		 * rather than cut it to be extended again every round.
		 * secure_delete=FAST: a deleted or evicted row's freed pages are
		 * not rewritten with zeros (Debian builds SQLite with
		 * secure_delete on, which made each eviction write its pages
		 * to the WAL again and the checkpoint copy them); the pages
		 * written anyway lose the row's bytes. */
		snprintf(pragmas, sizeof(pragmas),
			 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-%d;"
			 " PRAGMA foreign_keys=OFF; PRAGMA secure_delete=FAST;"
			 " PRAGMA journal_size_limit=%lld;",
			 c->opt.cache_pages_kib > 0 ? c->opt.cache_pages_kib : 1024,
			 (long long)(c->wal_share + c->wal_share / 4));
	} else {
		snprintf(pragmas, sizeof(pragmas), "PRAGMA cache_size=-%d;",
			 c->opt.cache_pages_kib > 0 ? c->opt.cache_pages_kib : 1024);
	}
	if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
		store_open_error(err, c, k->db, "setting it up");
		goto fail;
	}
	if (writes && c->opt.max_pages > 0) {
		snprintf(pragmas, sizeof(pragmas), "PRAGMA max_page_count=%lld;",
			 (long long)c->opt.max_pages);
		if (sqlite3_exec(k->db, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
			store_db_error(err, c, k->db, "max_page_count");
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
			store_open_error(err, c, k->db, "applying the schema");
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
			store_open_error(err, c, k->db, "preparing a statement");
			goto fail;
		}
	}
	if (how == OPEN_WRITE)
		sqlite3_wal_hook(k->db, store_wal_hook, c);
	*out = k;
	return 0;
fail:
	store_conn_free(k);
	return err ? err->code : KW_EIO;
}

/* Borrow a reader connection (opening one if the pool is empty). */
int store_conn_get(kw_cache_conn **out, kw_cache *c, kw_error *err)
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
	return store_conn_open(out, c, c->mode, 0, err);
}

void store_conn_put(kw_cache *c, kw_cache_conn *k)
{
	pthread_mutex_lock(&c->mu);
	k->next = c->idle;
	c->idle = k;
	pthread_mutex_unlock(&c->mu);
}

/* Step a statement that returns no row; reset it. */
int store_run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Read the running totals (inside the current transaction, if any). */
int store_totals(kw_cache_conn *k, int64_t *entries, int64_t *bytes)
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
int64_t store_one_int(sqlite3_stmt *st)
{
	int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;

	sqlite3_reset(st);
	return v;
}

/* A one-off integer PRAGMA; -1 on error. */
int64_t store_pragma_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int64_t store_file_size(const char *path, const char *suffix)
{
	char name[4096];
	struct stat sb;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return stat(name, &sb) == 0 ? (int64_t)sb.st_size : 0;
}
