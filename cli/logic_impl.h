/*
 * cli/logic_impl.h - the pieces behind `kwgen logic` (cli/logic.h):
 *   lib/logic/  YAML -> requests (libkwgen-logic.a, shared with kwgend)
 *   logic_post.c    batches of requests -> POST /v1/kernels:batch (libcurl
 *                   multi interface: several batches in flight)
 * None of this is public API; it lives with the CLI.
 */
#ifndef KWGEN_CLI_LOGIC_IMPL_H
#define KWGEN_CLI_LOGIC_IMPL_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "kwgen/error.h"
#include "logic/logic.h"

/* ---- logic_post.c ------------------------------------------------------ */

typedef struct kw_poster kw_poster;

/* How to reach a daemon with access control; every field may be NULL. */
typedef struct kw_poster_opts {
	const char *token;   /* sent as "Authorization: Bearer TOKEN" (kwgend --auth-tokens) */
	const char *cacert;  /* PEM bundle of CAs to trust (CURLOPT_CAINFO) */
	const char *capath;  /* directory of CA certificates (CURLOPT_CAPATH) */
} kw_poster_opts;

/* The most batches --inflight may keep in flight. */
#define KW_POSTER_MAX_INFLIGHT 64

/*
 * Connections to a kwgend (or nginx in front of several).  base_url is
 * "http://host:port" or "https://..." (a trailing "/" is ignored);
 * timeout_s bounds each HTTP exchange; inflight (1..KW_POSTER_MAX_INFLIGHT)
 * is how many batches may be in flight at once (libcurl's multi interface,
 * at most that many connections, each reused); po (may be NULL) gives the
 * token and the CAs to trust (the strings must outlive the poster).
 * curl_global_init must have been called.  *out is freed with
 * kw_poster_free, which drops the batches still in flight.
 * Errors: KW_EINVAL (empty URL, inflight out of range, a token with a line
 * break), KW_ENOMEM.
 */
int kw_poster_new(kw_poster **out, const char *base_url, long timeout_s, long inflight, const kw_poster_opts *po,
		  kw_error *err);
void kw_poster_free(kw_poster *p);

/* Batches in flight now, and the most there may be (the inflight given). */
size_t kw_poster_inflight(const kw_poster *p);
size_t kw_poster_slots(const kw_poster *p);

/*
 * Start POSTing {"requests": requests} to BASE/v1/kernels:batch and return
 * at once; the body is dumped here (requests may change afterwards).  tag
 * (owned; may be NULL) is given back with the answer by kw_poster_next.
 * There must be a free slot (kw_poster_inflight < kw_poster_slots): take
 * the oldest answer first.  Memory: one body and one answer per slot.
 * Errors: KW_EINVAL (no free slot), KW_ENOMEM; tag is freed on error.
 */
int kw_poster_send(kw_poster *p, const json_t *requests, json_t *tag, kw_error *err);

/*
 * Wait for the OLDEST batch in flight (answers come in the order sent) and
 * return the daemon's "results" array in *out (new reference, one item per
 * request: {"status", "response" | "error"}) and the batch's tag in *tag
 * (new reference, also on error; the caller frees it).  The other batches
 * move on meanwhile.  Connection failures and 429/502/503/504 are retried
 * (4 attempts, backoff, Retry-After honoured up to 5 s).
 * Errors: KW_EINVAL (nothing in flight), KW_EIO (network, HTTP status
 * other than 200, or an answer that is not {"results": [...]} with one
 * item per request), KW_ENOMEM.
 */
int kw_poster_next(json_t **out, json_t **tag, kw_poster *p, kw_error *err);

/* Move the transfers in flight on without waiting (call it now and then
 * while preparing the next batch: sockets are read only when asked). */
void kw_poster_pump(kw_poster *p);

/* The X-Request-Id the daemon answered the batch last taken by
 * kw_poster_next with ("" when none came); an error message of
 * kw_poster_next names it too.  Owned by p, valid until the next
 * kw_poster_next. */
const char *kw_poster_request_id(const kw_poster *p);

#endif
