/*
 * kernels.h - the kernel routes: generate (or serve from the cache), batch,
 * and read back by key.  Handlers fill a kw_reply; they never touch HTTP.
 */
#ifndef KW_SERVER_KERNELS_H
#define KW_SERVER_KERNELS_H

#include <stddef.h>

#include "reply.h"
#include "server.h"

/* POST /v1/kernels: body is len bytes of JSON (not NUL-terminated).
 * bypass != 0 regenerates and rewrites the row (?cache=bypass). */
void kw_kernels_post(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass);

/* POST /v1/kernels:batch: {"requests": [request, ...]} with at most
 * s->cfg.max_batch items -> {"results": [{"status", "response" | "error"}]}. */
void kw_kernels_batch(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass);

/* GET/HEAD /v1/kernels/{key}: the stored response with a strong ETag;
 * if_none_match (may be NULL) matching it gives 304. */
void kw_kernels_get(kw_reply *out, kw_srv *s, const char *key, const char *if_none_match);

#endif
