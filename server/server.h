/*
 * server.h - kwgend's configuration and the state its threads share.
 */
#ifndef KW_SERVER_SERVER_H
#define KW_SERVER_SERVER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "flight.h"
#include "memo.h"
#include "kwgen/cache.h"
#include "kwgen/request.h"

/* Flags of kwgend (main.c fills it; see kwgend --help). */
typedef struct kw_srv_config {
	const char *listen;       /* "ADDR:PORT", "[ADDR6]:PORT"; port 0 = any free port */
	const char *db_path;      /* SQLite cache file */
	unsigned threads;         /* MHD worker threads */
	int64_t max_cache_bytes;  /* LRU bound, 0 = none */
	size_t max_body_bytes;    /* request body cap (413 beyond it) */
	size_t max_batch;         /* items per batch request */
	unsigned drain_seconds;   /* how long SIGTERM waits for in-flight requests */
	int busy_timeout_ms;      /* SQLite lock wait before a write fails */
	size_t hot_bytes;         /* in-memory response budget of the memo */
} kw_srv_config;

typedef struct kw_srv {
	kw_srv_config cfg;
	kw_cache *cache;
	kw_flights *flights;
	kw_memo *memo;          /* body digest -> key (may be NULL) */
	kw_limits limits;       /* passed to kw_request_parse */
	atomic_int draining;    /* set on SIGTERM/SIGINT */
	int64_t started_ms;     /* start time, ms since the epoch */
} kw_srv;

#endif
