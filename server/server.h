/*
 * server.h - kwgend's configuration and the state its threads share.
 */
#ifndef KW_SERVER_SERVER_H
#define KW_SERVER_SERVER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "admit.h"
#include "auth.h"
#include "flight.h"
#include "linger.h"
#include "memo.h"
#include "work.h"
#include "kwgen/cache.h"
#include "kwgen/request.h"

/* Flags of kwgend (main.c fills it; see kwgend --help). */
typedef struct kw_srv_config {
	const char *listen;       /* "HOST:PORT", "[ADDR6]:PORT"; port 0 = any free port */
	const char *db_path;      /* SQLite cache file */
	unsigned threads;         /* MHD worker threads */
	int64_t max_cache_bytes;  /* LRU bound, 0 = none */
	size_t max_body_bytes;    /* request body cap (413 beyond it) */
	size_t max_batch;         /* items per batch request */
	unsigned drain_seconds;   /* how long SIGTERM waits for in-flight requests */
	int busy_timeout_ms;      /* SQLite lock wait before a write fails */
	size_t hot_bytes;         /* in-memory response budget of the memo */
	/* hardening: connections, work, access (see kwgend --help) */
	unsigned max_connections;        /* open connections, beyond them refused */
	unsigned max_connections_per_ip; /* per client address, 0 = no cap */
	unsigned connection_timeout;     /* seconds of inactivity before a close */
	unsigned request_timeout;        /* seconds for a whole request body */
	long max_inflight;               /* concurrent generations (503 beyond) */
	const char *auth_tokens;         /* token file, or NULL = no auth */
	int allow_unauth_reads;          /* GETs/HEADs without a token */
	const char *tls_cert, *tls_key;  /* PEM files, or NULL = plain HTTP */
	int reset_corrupt_db;            /* move a damaged cache file aside */
	int64_t db_max_pages;            /* testing: SQLite max_page_count */
	size_t max_response_bytes;       /* bound on one batch response's results */
	int no_ui;                       /* --no-ui: GET / and /ui/ answer 404 */
	/* POST /v1/verify */
	size_t max_verify_bytes;         /* POST /v1/verify body cap (413 beyond it) */
	size_t max_body_memory;          /* all request bodies held at once (503 beyond it), 0 = none */
	size_t max_verify_instructions;  /* instructions one verification reads (422 beyond) */
	int64_t max_verify_work;         /* data-flow work of one verification (422 beyond) */
	size_t max_verify_memory;        /* bytes one verification may hold, 0 = 16 x body + 96 MiB */
	unsigned workers;                /* generation worker threads */
	unsigned work_timeout;           /* seconds a generation job may wait, 0 = none */
	unsigned linger_seconds;         /* lingering close after an early answer, 0 = off */
	unsigned linger_timeout;         /* ...closed sooner after this many idle seconds */
	size_t linger_bytes;             /* bytes a second discarded while lingering, 0 = no bound */
	const char *log_file;            /* --log-file, or NULL = stderr */
} kw_srv_config;

typedef struct kw_srv {
	kw_srv_config cfg;
	kw_cache *cache;
	kw_flights *flights;
	kw_memo *memo;          /* body digest -> key (may be NULL) */
	kw_limits limits;       /* passed to kw_request_parse */
	atomic_int draining;    /* set on SIGTERM/SIGINT */
	int64_t started_ms;     /* start time, ms since the epoch */
	kw_admit admit;         /* the --max-inflight slots */
	kw_auth *auth;          /* --auth-tokens, or NULL */
	char *tls_cert_pem;     /* contents of --tls-cert / --tls-key, or NULL */
	char *tls_key_pem;
	kw_work *work;          /* the generation workers */
	kw_linger *linger;      /* lingering closes */
	atomic_long suspended;  /* requests suspended for the workers now */
} kw_srv;

#endif
