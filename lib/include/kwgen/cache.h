/*
 * kwgen/cache.h - the content-addressed response store (SQLite).
 *
 * One SQLite file (schema/cache.sql) holds one row per generated response,
 * keyed by the request key of kw_request_ids (64 lower-case hex digits).
 * The file is opened in WAL mode with synchronous=NORMAL and a busy
 * timeout; every statement is prepared once per connection.
 *
 * Threads: a kw_cache is shared by every thread; it starts one thread of
 * its own that checkpoints the WAL (see checkpoint_ms).  Each call borrows a
 * connection from an internal pool and returns it before it returns, so
 * the pool grows to one connection per thread that calls concurrently
 * (one per worker thread) and no connection is used by two threads at once.
 *
 * Durability: kw_cache_put is one transaction (the row, the running totals
 * and any evictions), so a crash leaves the whole entry or none of it.
 *
 * Size bound: with max_bytes > 0, a put evicts least-recently-used rows
 * (by last_access) until the stored bytes fit; a single entry larger than
 * the bound is still stored, alone.  last_access is refreshed by
 * kw_cache_get at most once per touch_ms per row, so hot reads stay reads.
 *
 * Units: bytes are the sum of the lengths of the request, asm, tables and
 * response texts of a row; times are milliseconds since the Unix epoch.
 *
 * Damage: kw_cache_open runs PRAGMA quick_check(1) on the file; a file that
 * is not a database or fails the check is refused (KW_EIO, the message
 * names the file and says it is damaged) unless reset_corrupt is set: then
 * the file (and its -wal and -shm) is renamed to <path>.corrupt-<unix
 * seconds>[-wal|-shm] and a fresh cache is created in its place
 * (kw_cache_moved_aside names where it went).
 *
 * Ownership: kw_cache is opaque, created by kw_cache_open and released
 * with kw_cache_close.  Strings passed in are copied by SQLite before the
 * call returns.  Strings returned are malloc()ed and owned by the caller.
 */
#ifndef KWGEN_CACHE_H
#define KWGEN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kw_cache_options {
	int64_t max_bytes;   /* LRU bound on stored bytes; 0 = unbounded */
	int busy_timeout_ms; /* how long a connection waits for a lock */
	int64_t touch_ms;    /* refresh last_access at most this often per row */
	int cache_pages_kib; /* SQLite page cache per connection, KiB */
	int64_t checkpoint_ms; /* a background thread checkpoints the WAL this
				* often (PASSIVE); 0 = SQLite's automatic
				* checkpoints inside the committing call */
	int reset_corrupt;   /* move a damaged file aside and start fresh (see
			      * "Damage" above); 0 = refuse to open it */
	int64_t max_pages;   /* PRAGMA max_page_count on every connection: the
			      * file cannot grow past it (writes then fail
			      * with KW_EIO as on a full disk); 0 = SQLite's */
	int skip_check;      /* 1 = no quick_check at open (kwgen cache: a
			      * look into a large file stays quick) */
} kw_cache_options;

#define KW_CACHE_OPTIONS_INIT { 0, 5000, 1000, 1024, 200, 0, 0, 0 }

/* One entry to store.  Every string is NUL-terminated and non-NULL. */
typedef struct kw_cache_entry {
	const char *key;               /* 64 hex digits */
	const char *config_id;         /* 64 hex digits */
	const char *generator_version; /* kw_generator_version() */
	const char *isa;               /* "gfx942" */
	const char *request;           /* canonical request JSON */
	const char *asm_text;          /* results' asm concatenated ("" if none) */
	const char *tables;            /* JSON array, see schema/cache.sql */
	const char *response;          /* the response JSON served on a hit */
	const char *source;            /* the request's "source" as compact JSON, or
					* NULL / "" for none (stored, not part of the key) */
} kw_cache_entry;

/* Counters: entries and bytes are what the file holds now; the others
 * count events since kw_cache_open. */
typedef struct kw_cache_stats {
	int64_t entries;
	int64_t bytes;
	uint64_t hits;      /* kw_cache_get found the key */
	uint64_t misses;    /* kw_cache_get did not */
	uint64_t inserts;   /* rows written by kw_cache_put */
	uint64_t evictions; /* rows removed by the size bound */
} kw_cache_stats;

typedef struct kw_cache kw_cache;

/*
 * Open (creating if needed) the cache file at path and apply the schema.
 * opt may be NULL (KW_CACHE_OPTIONS_INIT).  Returns 0 and *out on success;
 * KW_EIO (err says why: cannot open, not a database, read-only, ...) or
 * KW_ENOMEM.  *out is left alone on failure.
 */
int kw_cache_open(kw_cache **out, const char *path, const kw_cache_options *opt, kw_error *err);

/* The path a damaged file was moved to by kw_cache_open (reset_corrupt),
 * or NULL when nothing was moved.  Valid until kw_cache_close. */
const char *kw_cache_moved_aside(const kw_cache *c);

/* Close every pooled connection and free c.  No call may be running on c.
 * NULL is a no-op. */
void kw_cache_close(kw_cache *c);

/*
 * Look key up.  On a hit returns 0 with *out the stored response JSON
 * (malloc()ed, NUL-terminated, caller frees) and *out_len its length
 * (out_len may be NULL), and refreshes last_access if it is older than
 * touch_ms.  Returns KW_ENOTFOUND on a miss, KW_EIO on a storage error,
 * KW_ENOMEM; *out is set only on success.  Counts a hit or a miss.
 */
int kw_cache_get(char **out, size_t *out_len, kw_cache *c, const char *key, kw_error *err);

/*
 * Store (or replace) e in one transaction, then evict least-recently-used
 * rows other than e->key while the stored bytes exceed max_bytes.
 * Returns 0, KW_EINVAL (a NULL field), KW_EIO (the transaction was rolled
 * back; nothing changed) or KW_ENOMEM.
 */
int kw_cache_put(kw_cache *c, const kw_cache_entry *e, kw_error *err);

/* Fill *out.  Returns 0 or KW_EIO (entries/bytes then read 0). */
int kw_cache_stats_get(kw_cache_stats *out, kw_cache *c, kw_error *err);

/*
 * Run PRAGMA integrity_check.  Returns 0 and *out = "ok" (malloc()ed) when
 * the file is sound, else 0 and the first problem SQLite reports; KW_EIO
 * if the check could not run.
 */
int kw_cache_integrity(char **out, kw_cache *c, kw_error *err);

/* ---- looking into the file: kwgen cache, DELETE /v1/kernels/{key} ----
 *
 * All of these are safe while kwgend runs on the same file: reads take no
 * write lock (WAL), a delete is one short transaction and a purge deletes
 * in transactions of at most 256 rows, waiting at most busy_timeout_ms for
 * the lock each time.
 */

/*
 * The stored "source" of key (compact JSON text, "" when the request that
 * generated the row had none) into *out (malloc()ed, caller frees).
 * Returns 0, KW_ENOTFOUND, KW_EIO or KW_ENOMEM.
 */
int kw_cache_get_source(char **out, kw_cache *c, const char *key, kw_error *err);

/* One row as kw_cache_list / kw_cache_show hand it over: every string
 * borrowed (valid during the callback only).  request, asm_text, tables and
 * response are NULL in kw_cache_list.  Times: ms since the Unix epoch. */
typedef struct kw_cache_row {
	const char *key, *config_id, *generator_version, *isa;
	const char *source; /* compact JSON, or "" */
	int64_t bytes, created, last_access;
	const char *request, *asm_text, *tables, *response;
} kw_cache_row;

/* Return 0 to go on, non-zero to stop early (not an error). */
typedef int (*kw_cache_row_cb)(void *ud, const kw_cache_row *row);

/* Every row (at most limit; limit <= 0 = all), most recently used first.
 * Returns 0 or KW_EIO. */
int kw_cache_list(kw_cache *c, int64_t limit, kw_cache_row_cb cb, void *ud, kw_error *err);

/* The row of key, with its texts.  Returns 0, KW_ENOTFOUND or KW_EIO. */
int kw_cache_show(kw_cache *c, const char *key, kw_cache_row_cb cb, void *ud, kw_error *err);

/* Per ISA: rows, bytes, oldest and newest last_access (ms).  Sorted by
 * ISA.  Return non-zero from cb to stop.  Returns 0 or KW_EIO. */
typedef int (*kw_cache_group_cb)(void *ud, const char *isa, int64_t entries, int64_t bytes, int64_t oldest_ms,
				 int64_t newest_ms);
int kw_cache_groups(kw_cache *c, kw_cache_group_cb cb, void *ud, kw_error *err);

/* Delete the row of key (one transaction).  Returns 0, KW_ENOTFOUND (no
 * such row) or KW_EIO (busy past the timeout, read-only file, ...). */
int kw_cache_delete(kw_cache *c, const char *key, kw_error *err);

/*
 * Delete every row last used before before_ms (ms since the epoch;
 * INT64_MAX = every row), oldest first, 256 rows per transaction.
 * *out = rows deleted (also when an error stops it part way).
 * Returns 0 or KW_EIO.
 */
int kw_cache_purge(int64_t *out, kw_cache *c, int64_t before_ms, kw_error *err);

#ifdef __cplusplus
}
#endif
#endif
