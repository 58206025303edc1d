/*
 * kernels.h - the kernel routes: generate (or serve from the cache), batch,
 * and read back by key.  Handlers fill a kw_reply; they never touch HTTP.
 *
 * Where the work runs: everything that cannot generate (a cache hit, an
 * error, GET by key) is answered on the calling (polling) thread.  Work
 * that must generate becomes a kw_kjob: the caller suspends its request,
 * then calls kw_kjob_start, and the job's done hook is called exactly
 * once, on whatever thread finishes it (a worker of s->work, the leader
 * of a single flight, the cache's committer once a miss's row is written,
 * the pool's reaper, or inside kw_kjob_start itself),
 * when its reply is ready.
 */
#ifndef KW_SERVER_KERNELS_H
#define KW_SERVER_KERNELS_H

#include <stddef.h>

#include "reply.h"
#include "server.h"

typedef struct kw_kjob kw_kjob;

/* Called once when the job's reply is ready; the last thing the finishing
 * thread does with the job, so the owner may free it as soon as it runs. */
typedef void (*kw_kjob_done_fn)(void *arg);

/*
 * POST /v1/kernels: body is len bytes of JSON (not NUL-terminated).
 * bypass != 0 regenerates and rewrites the row (?cache=bypass); text != 0
 * answers a 200 as plain text (kw_kernels_to_text).
 * Returns 0 with out filled (a hit, an error), or 1 with *job set: a miss,
 * to be suspended and started with kw_kjob_start.  (-1 is never returned;
 * failures are replies.)
 */
int kw_kernels_post(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
		    int bypass, int text);

/*
 * POST /v1/kernels:batch: {"requests": [request, ...]} with at most
 * s->cfg.max_batch items -> {"results": [{"status", "response" | "error"}]}.
 * Returns 0 with out filled (a malformed body, too many items, no slot
 * under --max-inflight) or 1 with *job set, to be suspended and started.
 * The items run one at a time on the pool, taking turns with other jobs.
 */
int kw_kernels_batch(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
		     int bypass);

/*
 * Any other slow work as a job: fn(out, arg) runs on a worker (one slot
 * of --max-inflight, the same --work-timeout), free_arg(arg) when the job
 * is freed.  key (64 hex digits, or NULL): the job joins key's single
 * flight as a kernel miss does: while one job of that key runs, the others
 * take no slot, do not run and are answered with its reply (fn must then
 * answer the same for every job of the key).  Returns 1 with *job set, or
 * 0 with out filled (503 overloaded, only without a key; free_arg has
 * run).
 */
int kw_kjob_call(kw_reply *out, kw_kjob **job, kw_srv *s, const char *key,
		 void (*fn)(kw_reply *out, void *arg), void (*free_arg)(void *arg), void *arg);

/* Start a job from kw_kernels_post/kw_kernels_batch/kw_kjob_call after its request was
 * suspended: done(arg) will be called exactly once (possibly before this
 * returns). */
void kw_kjob_start(kw_kjob *j, kw_kjob_done_fn done, void *arg);

/* After done: move the reply out of the job into out. */
void kw_kjob_reply(kw_kjob *j, kw_reply *out);

/* Free a job that was never started, or whose done hook has run. */
void kw_kjob_free(kw_kjob *j);

/* GET/HEAD /v1/kernels/{key}: the stored response (with the row's source)
 * and a strong ETag (404 for a verification's key: GET /v1/verify/{key}) ("<key>", "<key>-text" for text); if_none_match (may
 * be NULL) matching it gives 304.  as_text: plain text (Accept). */
void kw_kernels_get(kw_reply *out, kw_srv *s, const char *key, const char *if_none_match, int as_text);

/* DELETE /v1/kernels/{key}: remove the row (and what memory holds of it).
 * 200 {"key", "deleted": true}, 404 not_found (also a verification's key:
 * DELETE /v1/verify/{key}), 503 storage. */
void kw_kernels_delete(kw_reply *out, kw_srv *s, const char *key);

/* Turn a 200 reply's JSON answer into its text (kwgen/text.h), Content-Type
 * text/plain; an ETag "<key>" becomes "<key>-text".  Other replies (errors)
 * stay JSON. */
void kw_kernels_to_text(kw_reply *out);

#endif
