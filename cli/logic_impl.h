/*
 * cli/logic_impl.h - the pieces behind `kwgen logic` (cli/logic.h):
 *   logic_yaml.c    YAML (libyaml events) -> jansson, streaming the solutions
 *   logic_derive.c  one solution dict -> one kwgen request (Tensile defaults,
 *                   derived tPA / tPB / states)
 *   logic_post.c    batches of requests -> POST /v1/kernels:batch (libcurl)
 * None of this is public API; it lives with the CLI.
 */
#ifndef KWGEN_CLI_LOGIC_IMPL_H
#define KWGEN_CLI_LOGIC_IMPL_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "kwgen/error.h"

/* ---- logic_yaml.c ------------------------------------------------------ */

/* One item handed to the reader's callback. */
typedef struct kw_yaml_item {
	const char *key;       /* key in a top-level mapping, or NULL when the top level is a list */
	size_t index;          /* position in the top-level list, or in the solutions list */
	int solution;          /* 1: an element of the solutions list, 0: a top-level item */
	const json_t *value;   /* borrowed: valid during the call only (json_incref to keep) */
	unsigned long line;    /* 1-based line where the item starts */
	size_t offset;         /* input bytes consumed so far (for progress) */
} kw_yaml_item;

/* Called once per item, in file order.  Return 0 to go on, a negative
 * KW_E* code (with err filled) to stop the reader, which returns it. */
typedef int (*kw_yaml_cb)(void *ud, const kw_yaml_item *item, kw_error *err);

/*
 * Read a logic file from f (name is used in messages only).
 *
 * The top level must be a list - [version, schedule name, architecture,
 * device names, problem type, solutions, ...] - or a mapping; element 5 of
 * the list (or the value of a top-level "Solutions" key) is streamed: each
 * solution is built, handed to cb with solution = 1 and freed, so memory
 * stays bounded for files of many thousands of solutions.  Every other
 * top-level item is handed to cb whole, with solution = 0.
 *
 * Scalars are typed as PyYAML (YAML 1.1) does for the plain style: null/~,
 * true/false (also yes/no/on/off), decimal and 0x integers, floats with a
 * dot; quoted scalars and explicit !!str are strings.  Anchors and aliases
 * are resolved by sharing the anchored value; the values aliases add to one
 * item or solution, counted expanded, are bounded (100000; past it
 * KW_ESYNTAX naming the alias's line); mapping keys must be scalars.
 *
 * Errors: KW_ESYNTAX with err->message "NAME:LINE:COLUMN: ..." for
 * malformed YAML or an unsupported construct; KW_EIO for read errors;
 * KW_ENOMEM; or whatever cb returned.
 */
int kw_yaml_logic_read(FILE *f, const char *name, kw_yaml_cb cb, void *ud, kw_error *err);

/* ---- logic_derive.c ---------------------------------------------------- */

/* What the file says outside the solutions list. */
typedef struct kw_logic_ctx {
	const char *isa;             /* "gfx942" (from ArchitectureName or --isa), or NULL: use the solution's ISA */
	const json_t *problem_type;  /* the file-level ProblemType dict, or NULL */
	const json_t *generators;    /* array for "generators", or NULL (omitted = all that apply) */
} kw_logic_ctx;

/*
 * Turn one solution dict into a kwgen request:
 *   {"isa", "kernel": {the keys the helpers read, Tensile defaults filled},
 *    "tPA", "tPB", "states" (derived, main loop), ["generators"]}
 * Derivation as in corpus/README.md and call-sites.md section 2.
 * *out is a new reference owned by the caller; untouched on failure.
 * Errors: KW_EINVAL (err->field names the missing / ill-typed solution key,
 * e.g. "GlobalReadVectorWidthB"), KW_EUNSUPPORTED (sparse or MX solutions:
 * their metadata / MX tensor parameters are not derived), KW_ENOMEM.
 */
int kw_logic_request(json_t **out, const json_t *solution, const kw_logic_ctx *ctx, kw_error *err);

/* The ISA name of an ArchitectureName item ("gfx942", "gfx90a:xnack+",
 * {"Architecture": "gfx942", ...}) written to buf (size n): the gfx part,
 * lower case.  Returns 0, or KW_EINVAL if v holds no gfx name. */
int kw_logic_arch_name(char *buf, size_t n, const json_t *v);

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
