/*
 * store/store.h - what the files of the store (the .c files of lib/store, the
 * implementation of kwgen/cache.h) share: the connection and cache
 * structures, the statements by role, and the helpers of conn.c,
 * recent.c, checkpoint.c and write.c.  Private to lib/store.
 *
 * The store knows nothing of HTTP or of how a response is generated: rows
 * are opaque text keyed by the request key.  It is its own library
 * (libkwgen-store.a, linked by kwgen and kwgend): libkwgen itself links
 * no SQLite.
 */
#ifndef KWGEN_STORE_STORE_H
#define KWGEN_STORE_STORE_H

#include "kwgen/cache.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>

#define KW_STR_(x) #x
#define KW_STR(x) KW_STR_(x)

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
 * connection holds an old snapshot of a WAL past its share (write_begin):
 * this process's own reads that began before its last commit get this many
 * ms after that commit to end; later tries stop once they have had them. */
#define KW_SNAPSHOT_TRIES 20

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
	unsigned char dirty; /* ms not yet written to the file (store_recent_flush) */
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
	atomic_int_fast64_t last_commit_ms; /* ms: this process's last commit */
	/* recency */
	size_t nsets;
	kw_recent_slot *recent;
	pthread_mutex_t recent_mu[KW_RECENT_LOCKS];
	/* 1 once a slot was made dirty since store_recent_flush last looked:
	 * a flush with none skips its scan of every slot (nsets * KW_WAYS,
	 * ~3 MB by default: an idle daemon's checkpointer and every close
	 * read-faulted all of it) */
	atomic_int recent_dirty;
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
	/* The committer (group.c): puts queued by kw_cache_put_async, all
	 * that arrived while the previous group committed go in one
	 * transaction. */
	pthread_mutex_t group_mu;
	pthread_cond_t group_cv;
	struct store_put *group_head, **group_tail; /* the queue; guarded by group_mu */
	pthread_t group_thread;
	int group_running;        /* the thread was started (under group_mu) */
	int group_stop;           /* guarded by group_mu */
	int group_busy;           /* a group is being committed; guarded by group_mu */
	pthread_cond_t group_idle; /* broadcast when a group has been answered */
	atomic_uint_fast64_t groups; /* transactions the committer ran */
	atomic_uint_fast64_t recency_flushes; /* store_recent_flush rounds */
	int64_t last_flush_ms;    /* the checkpointer's last flush (its thread only) */
};


/* conn.c */
int64_t store_now_ms(void);
int store_db_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what);
int store_open_error(kw_error *err, kw_cache *c, sqlite3 *db, const char *what);
void store_conn_free(kw_cache_conn *k);
int store_conn_open(kw_cache_conn **out, kw_cache *c, int how, int apply_schema, kw_error *err);
int store_conn_get(kw_cache_conn **out, kw_cache *c, kw_error *err);
void store_conn_put(kw_cache *c, kw_cache_conn *k);
int store_run(sqlite3_stmt *st);
int store_totals(kw_cache_conn *k, int64_t *entries, int64_t *bytes);
int64_t store_one_int(sqlite3_stmt *st);
int64_t store_pragma_int(sqlite3 *db, const char *sql);
int64_t store_file_size(const char *path, const char *suffix);

/* recent.c */
void store_recent_touch(kw_cache *c, const char *key, int64_t ms);
int64_t store_recent_get(kw_cache *c, const char *key);
/* Write every hit time noted since the last flush to its row's
 * last_access (later times only), at most 1024 rows per transaction and a
 * quarter of the WAL's share, on
 * the calling (background) thread.  0, or -1 when a write failed (those
 * times stay in memory, for eviction). */
int store_recent_flush(kw_cache *c);

/* checkpoint.c */
int store_wal_hook(void *arg, sqlite3 *db, const char *name, int frames);
void *store_checkpointer(void *arg);

/* write.c */
int store_write_begin(kw_cache *c, kw_error *err);
int store_write_end(kw_cache *c, int ok, kw_error *err);
/* KW_EINVAL when a field of e is NULL, else 0. */
int store_entry_check(const kw_cache_entry *e, kw_error *err);
/* Inside the writer's open transaction: upsert e, then, when evict_rows
 * > 0, evict past the bounds (never e's row; evict_rows: the rows written
 * since the last eviction, which sizes the first batch of candidates).  A
 * group stages its puts with 0 and evicts once, after its last.  Returns
 * the rows evicted, or KW_EIO (err set; the caller rolls back). */
long store_stage(kw_cache *c, const kw_cache_entry *e, int evict_rows, kw_error *err);

/* group.c */
/* Commit what is queued, stop the committer thread (kw_cache_close). */
void store_group_stop(kw_cache *c);

#endif
