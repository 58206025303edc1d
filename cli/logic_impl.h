/*
 * cli/logic_impl.h - the pieces behind `kwgen logic` (cli/logic.h):
 *   lib/logic/  YAML -> requests (libkwgen-logic.a, shared with kwgend)
 *   logic_post.c    batches of requests -> POST /v1/kernels:batch (libcurl)
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

/*
 * A connection to a kwgend (or nginx in front of several).  base_url is
 * "http://host:port" or "https://..." (a trailing "/" is ignored);
 * timeout_s bounds each HTTP exchange; po (may be NULL) gives the token and
 * the CAs to trust (the strings must outlive the poster).  curl_global_init
 * must have been called.  *out is freed with kw_poster_free.
 * Errors: KW_EINVAL (empty URL, a token with a line break), KW_ENOMEM.
 */
int kw_poster_new(kw_poster **out, const char *base_url, long timeout_s, const kw_poster_opts *po, kw_error *err);
void kw_poster_free(kw_poster *p);

/*
 * POST {"requests": requests} to BASE/v1/kernels:batch and return the
 * daemon's "results" array in *out (new reference, one item per request:
 * {"status", "response" | "error"}).  Connection failures and 429/502/503/504
 * are retried (4 attempts, backoff, Retry-After honoured up to 5 s).
 * Errors: KW_EIO (network, HTTP status other than 200, or an answer that is
 * not {"results": [...]} with one item per request), KW_ENOMEM.
 */
int kw_poster_batch(json_t **out, kw_poster *p, const json_t *requests, kw_error *err);

/* The X-Request-Id the daemon answered the last batch with ("" when none
 * came); an error message of kw_poster_batch names it too.  Owned by p,
 * valid until the next kw_poster_batch. */
const char *kw_poster_request_id(const kw_poster *p);

#endif
