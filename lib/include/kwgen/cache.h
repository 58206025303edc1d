/*
 * kwgen/cache.h - the content-addressed response store (SQLite), in
 * libkwgen-store.a (lib/store), never in libkwgen.
 *
 * One SQLite file (schema/cache.sql) holds one row per generated response,
 * keyed by the request key of kw_request_ids (64 lower-case hex digits).
 * The file is opened in WAL mode with synchronous=NORMAL; every statement
 * is prepared once per connection.
 *
 * Connections and threads: a kw_cache is shared by every thread.  Writes
 * (kw_cache_put) go through one writer connection, one at a time; reads
 * borrow a connection from a pool of readers (one per thread that reads
 * concurrently).  A reader never waits for a lock (busy timeout 0; in WAL
 * mode a read needs none): a hit is answered whatever a writer, in this
 * process or another, is doing.  A write waits at most busy_timeout_ms for
 * SQLite's write lock and then fails with KW_EIO, which kwgend answers
 * with 503; for busy_timeout_ms after that, puts try once without
 * waiting (writes queued behind a held lock do not each wait it out).
 * Writes of this process queue for up to 5 x busy_timeout_ms (a slow
 * fsync ahead).  At open, the schema step waits up to 5 s (or
 * busy_timeout_ms if longer) for another connection's write.
 *
 * Recency: a hit does not write.  kw_cache_get (and kw_cache_touch) note
 * the time of the hit in memory (a fixed table of recent_slots keys, four
 * per set; a full set forgets its oldest touch).  Eviction reads
 * candidates by the stored last_access, oldest first; a candidate touched
 * in memory since then has its last_access rewritten to that time and is
 * passed over, so rows are evicted in least-recently-used order while only
 * the rows an eviction passes over are written (at most 64 per put; past
 * that, candidates go in stored order).  The hit path never writes: the
 * background thread (checkpoint_ms > 0) writes the hit times noted since
 * its last round to last_access every recent_flush_ms (at most 1024 rows
 * and a quarter of the WAL's share per transaction, through the writer
 * like a put), and kw_cache_close writes
 * the rest, so that another process's purge and list (kwgen cache) see
 * rows served recently.  Times noted when a set was full and forgot them,
 * or lost in a crash, are not written (those rows keep an older time).
 *
 * Size bound: with max_bytes > 0, a put evicts least-recently-used rows
 * until the stored bytes (below) fit; with max_disk_bytes > 0 also until
 * the database's used pages fit max_disk_bytes minus the WAL's share
 * (kw_cache_wal_share) and the -shm file's, so that db + -wal + -shm stay
 * within max_disk_bytes plus kw_cache_disk_slack (one entry's pages written
 * before its evictions, and a WAL a long reader kept from restarting).  A
 * single entry larger than the bound is still stored, alone.
 *
 * WAL: the writer's commit hook (sqlite3_wal_hook) wakes a background
 * thread once the WAL holds half its share; that thread runs a PASSIVE
 * checkpoint beside the writers (the copying and its fsyncs), then holds
 * them off for a RESTART checkpoint of what they committed meanwhile,
 * after which the next write starts the log again at the head of the -wal
 * file (waiting at most 20 ms for readers of older snapshots; the file is
 * reused, not emptied).  Once the WAL holds its whole share the writer checkpoints
 * itself (PASSIVE, after any background round); the log then restarts at
 * the next write and journal_size_limit trims the file to the share and a
 * quarter (the most one group commit takes the log past the share: a file
 * cut to the share alone was extended again, block by block, every
 * round).  The
 * background thread also looks every checkpoint_ms for a -wal file over
 * its share.  Its connection reads before each checkpoint (a connection
 * that has never read has no WAL open and its checkpoint does nothing).
 * Each checkpoint costs two fsyncs: with a small max_disk_bytes they come
 * every few puts.  The writer runs with secure_delete=FAST: an evicted or
 * deleted row's freed pages are not rewritten with zeros (the pages
 * written anyway lose its bytes), so an eviction writes no more pages
 * than its leaf and index changes.
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
 * Read-only: a file that can be read but not written (mode 0444, a
 * directory without write permission, a read-only mount) opens read-only
 * (kw_cache_read_only says why): gets work, puts fail with KW_EIO naming
 * the file.  When the directory cannot hold the -shm file either, the file
 * is opened immutable (SQLite's immutable=1: nothing else may change it
 * while it is open).
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
	int busy_timeout_ms; /* how long a put waits for SQLite's write lock
			      * before failing with KW_EIO (and the writes of
			      * this process ahead of it: up to 5 times as
			      * long); reads never wait */
	int64_t max_disk_bytes; /* LRU bound on db + -wal + -shm bytes (plus
				 * kw_cache_disk_slack); 0 = unbounded */
	int cache_pages_kib; /* SQLite page cache per connection, KiB */
	int64_t checkpoint_ms; /* the background thread also checkpoints this
				* often (PASSIVE); 0 = no thread: the writer
				* checkpoints at half the WAL's share */
	int reset_corrupt;   /* move a damaged file aside and start fresh (see
			      * "Damage" above); 0 = refuse to open it */
	int64_t max_pages;   /* PRAGMA max_page_count on every connection: the
			      * file cannot grow past it (writes then fail
			      * with KW_EIO as on a full disk); 0 = SQLite's */
	int skip_check;      /* 1 = no quick_check at open (kwgen cache: a
			      * look into a large file stays quick) */
	int recent_slots;    /* keys whose hit times are held in memory
			      * (about 48 bytes each); 0 = 65536 */
	int64_t recent_flush_ms; /* the background thread writes the hit times
				  * noted in memory to last_access this often
				  * (see "Recency"); 0 = 5000 */
} kw_cache_options;

#define KW_CACHE_OPTIONS_INIT { 0, 200, 0, 1024, 200, 0, 0, 0, 0, 0 }

/* A verification's row (kwgend's POST /v1/verify) carries the verifier's
 * version (kw_verify_version(), which starts so) as its generator_version. */
#define KW_CACHE_VERIFY_PREFIX "kwgen-verify-"

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

/* Counters: entries and bytes are what the file holds now, the file sizes
 * what stat(2) says now; the others count events since kw_cache_open. */
typedef struct kw_cache_stats {
	int64_t entries;
	int64_t bytes;
	uint64_t hits;      /* kw_cache_get found the key in the file */
	uint64_t misses;    /* kw_cache_get did not */
	uint64_t inserts;   /* rows written by kw_cache_put */
	uint64_t evictions; /* rows removed by the size bound */
	int64_t db_file_bytes, wal_bytes, shm_bytes; /* the three files */
	uint64_t checkpoints; /* WAL checkpoints run */
	uint64_t groups;    /* transactions of kw_cache_put_async's committer */
	uint64_t recency_flushes; /* rounds that wrote hit times to last_access */
	int read_only;      /* 1 when puts cannot store anything */
} kw_cache_stats;

typedef struct kw_cache kw_cache;

/*
 * Open (creating if needed) the cache file at path and apply the schema.
 * path is a file name: "" and ":memory:" are refused with KW_EINVAL (each
 * pooled connection would get its own empty database).  opt may be NULL
 * (KW_CACHE_OPTIONS_INIT).  Returns 0 and *out on success (read-only when
 * the file cannot be written, see "Read-only"); KW_EINVAL, KW_EIO (err
 * names the file and says why: cannot open, not a database, damaged, ...)
 * or KW_ENOMEM.  *out is left alone on failure.
 */
int kw_cache_open(kw_cache **out, const char *path, const kw_cache_options *opt, kw_error *err);

/* The path a damaged file was moved to by kw_cache_open (reset_corrupt),
 * or NULL when nothing was moved.  Valid until kw_cache_close. */
const char *kw_cache_moved_aside(const kw_cache *c);

/* NULL when c can store entries; else why not (names the file).  Valid
 * until kw_cache_close. */
const char *kw_cache_read_only(const kw_cache *c);

/* The WAL's share of max_disk_bytes: a quarter, at least 64 KiB, at most
 * 64 MiB (4 MiB when max_disk_bytes is 0).  journal_size_limit is the
 * share and a quarter (a group commit's most).
 * (Each checkpoint costs two fsyncs; under a small bound an eighth made
 * them come every few puts.) */
int64_t kw_cache_wal_share(int64_t max_disk_bytes);

/* How far db + -wal + -shm may pass max_disk_bytes for a moment: one
 * eighth of it, at least 256 KiB, at most 64 MiB. */
int64_t kw_cache_disk_slack(int64_t max_disk_bytes);

/* Close every pooled connection and free c.  No call may be running on c.
 * NULL is a no-op. */
void kw_cache_close(kw_cache *c);

/*
 * Look key up.  On a hit returns 0 with *out the stored response JSON
 * (malloc()ed, NUL-terminated, caller frees) and *out_len its length
 * (out_len may be NULL), and notes the hit's time in memory (see
 * "Recency"; nothing is written).  Never waits for a lock.  Returns
 * KW_ENOTFOUND on a miss, KW_EIO on a storage error, KW_ENOMEM; *out is
 * set only on success.  Counts a hit or a miss.
 */
int kw_cache_get(char **out, size_t *out_len, kw_cache *c, const char *key, kw_error *err);

/* Note a hit on key served without kw_cache_get (a copy held in memory):
 * the same as kw_cache_get's touch.  Never blocks on SQLite. */
void kw_cache_touch(kw_cache *c, const char *key);

/*
 * Store (or replace) e in one transaction, then evict least-recently-used
 * rows other than e->key while the stored bytes exceed max_bytes or the
 * used pages exceed the disk budget (see "Size bound").  Waits at most
 * busy_timeout_ms for the write lock.  Returns 0, KW_EINVAL (a NULL
 * field), KW_EIO (the lock was not had in time, the file is read-only or
 * full, ...: the transaction was rolled back, nothing changed; the message
 * names the file) or KW_ENOMEM.
 */
int kw_cache_put(kw_cache *c, const kw_cache_entry *e, kw_error *err);

/* How an asynchronous put went: rc 0 (the row is committed: in the file's
 * WAL, so it survives a crash of the process), or the code kw_cache_put
 * would return with err saying why (err is NULL when rc is 0). */
typedef void (*kw_cache_put_fn)(void *arg, int rc, const kw_error *err);

/*
 * Group commit: queue e for the cache's committer thread (started on the
 * first call) and return at once.  The committer writes every put queued
 * while its previous transaction ran (up to a quarter of the WAL's share
 * of bytes; the rest go in the next) in one transaction (each put then
 * evicts as kw_cache_put does), commits it, and then calls done(arg, ...)
 * once per put, on its own thread, in queue order.  A group that fails part
 * way is rolled back and its puts are retried one transaction each, so
 * done reports what kw_cache_put would have for that entry alone.
 * e's strings must stay valid until done is called (the struct itself is
 * copied).  Returns 0 (done will be called exactly once) or, without
 * calling done, KW_EINVAL (a NULL field or done), KW_EIO (read-only, or
 * the cache is closing) or KW_ENOMEM.  kw_cache_close commits what is
 * queued (and calls done) before it closes.
 */
int kw_cache_put_async(kw_cache *c, const kw_cache_entry *e, kw_cache_put_fn done, void *arg, kw_error *err);

/* Wait until every put queued by kw_cache_put_async so far has been
 * committed and its done called.  NULL is a no-op. */
void kw_cache_flush(kw_cache *c);

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
 * the lock each time (as kw_cache_put does).  Purge and list go by the
 * stored last_access: hits held in memory by another process (see
 * "Recency") are seen once its background thread has written them (every
 * recent_flush_ms) or it has closed the cache.
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
	int verification; /* 1: a verification's row (kw_cache_is_verification) */
} kw_cache_row;

/* Is key's row a verification (POST /v1/verify; KW_CACHE_VERIFY_PREFIX,
 * or, in rows written before versions were kept apart, a request whose
 * "route" is "/v1/verify") rather than a kernel?  Returns 1, 0,
 * KW_ENOTFOUND or KW_EIO.  Never waits for a lock. */
int kw_cache_is_verification(kw_cache *c, const char *key, kw_error *err);

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

/* The one key that starts with prefix (4..64 lower-case hex digits; a
 * whole key resolves to itself when stored) into out.  Returns 0;
 * KW_ENOTFOUND (no key starts so); KW_EINVAL (not hex, too short, or the
 * start of more than one key: the message says so); KW_EIO. */
int kw_cache_resolve(char out[65], kw_cache *c, const char *prefix, kw_error *err);

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
