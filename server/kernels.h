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
 * bypass != 0 regenerates and rewrites the row (?cache=bypass); text != 0
 * answers a 200 as plain text (kw_kernels_to_text). */
void kw_kernels_post(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass, int text);

/* POST /v1/kernels:batch: {"requests": [request, ...]} with at most
 * s->cfg.max_batch items -> {"results": [{"status", "response" | "error"}]}. */
void kw_kernels_batch(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass);

/* GET/HEAD /v1/kernels/{key}: the stored response (with the row's source)
 * and a strong ETag ("<key>", "<key>-text" for text); if_none_match (may
 * be NULL) matching it gives 304.  as_text: plain text (Accept). */
void kw_kernels_get(kw_reply *out, kw_srv *s, const char *key, const char *if_none_match, int as_text);

/* DELETE /v1/kernels/{key}: remove the row (and what memory holds of it).
 * 200 {"key", "deleted": true}, 404 not_found, 503 storage. */
void kw_kernels_delete(kw_reply *out, kw_srv *s, const char *key);

/* Turn a 200 reply's JSON answer into its text (kwgen/text.h), Content-Type
 * text/plain; an ETag "<key>" becomes "<key>-text".  Other replies (errors)
 * stay JSON. */
void kw_kernels_to_text(kw_reply *out);

#endif
