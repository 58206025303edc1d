/*
 * verify.h - POST /v1/verify and GET /v1/verify/{key}: the wait-count
 * verifier (kwgen/verify.h) as a cached service.  Handlers fill a kw_reply;
 * they never touch HTTP.
 *
 * Bodies (Content-Type):
 *   text/plain                 the assembly (clang -S / Tensile text or
 *                              llvm-objdump -d text); ISA from ?isa= or
 *                              the text's .amdgcn_target
 *   application/json           {"isa"?, "asm", "suppressions"?,
 *                              "no_redundant"?, "assume_atomic_counters"?}
 *                              (unknown keys are 422; the last two are
 *                              kw_verify_opts' options of those names)
 *   application/octet-stream   an AMDGPU code object (ELF); ISA from ?isa=
 *                              or the ELF header's e_flags; decoded with
 *                              libkwgen-codeobj (LLVM's disassembler)
 * Answer: the `kwgen verify --json` object (isa, findings, totals,
 * suppressed, truncated, stats) plus "key", "verifier" (kw_verify_version())
 * and "cached".  Key = SHA-256(kw_verify_version() NUL kw_generator_version()
 * NUL form NUL isa NUL options NUL suppressions NUL body): a new verifier
 * version never serves an older one's findings.  The answer is stored in the
 * kernel cache (SQLite) under it and served by GET /v1/verify/{key}.
 *
 * Limits (kwgend flags): --max-verify-bytes (body, 413),
 * --max-verify-instructions and --max-verify-work (kw_verify_opts bounds and
 * the code-object decoder's instruction bound; 422 "limit").
 *
 * Threads: kw_verify_prepare is cheap (parse, key, cache lookup);
 * kw_verify_run is the slow part (decode, verify, store).  Both are
 * thread-agnostic; http.c runs kw_verify_prepare on the request's thread
 * (a cache hit is answered there without waiting for a worker) and only a
 * miss's kw_verify_run as a job on the worker pool (kw_kjob_call), which also
 * takes its --max-inflight slot.  Identical misses at once verify once: the
 * job joins the key's single flight (as a kernel miss does), and its
 * leader looks the key up again before decoding.
 *
 * Rows: a verification is stored with kw_verify_version() in the row's
 * version column (KW_CACHE_VERIFY_PREFIX), so that the kernel routes answer
 * 404 for it and `kwgen cache` shows it as a verification.
 */
#ifndef KW_SERVER_VERIFY_H
#define KW_SERVER_VERIFY_H

#include <stddef.h>

#include "reply.h"
#include "server.h"

typedef struct kw_vreq kw_vreq;

/*
 * Check a POST /v1/verify body.  content_type, isa_q (the ?isa= value) and
 * assume_q (?assume_atomic_counters=: true/false/1/0, for any body; with a
 * JSON body that names the member too, both must agree) may be NULL.
 * bypass != 0 skips the cache lookup (?cache=bypass).
 * Returns 0 with out filled (an error, or a cache hit), or 1 with *req set:
 * the work to do with kw_verify_run (then kw_vreq_free).
 */
int kw_verify_prepare(kw_reply *out, kw_vreq **req, kw_srv *s, const char *body, size_t len,
		      const char *content_type, const char *isa_q, const char *assume_q, int bypass);

/* Decode (code object), verify, store and answer: out gets the 200 answer
 * ("cached": false) or the 4xx/503 error. */
void kw_verify_run(kw_reply *out, kw_srv *s, kw_vreq *req);

void kw_vreq_free(kw_vreq *req);

/* The request's key (64 hex digits; its single flight's name). */
const char *kw_vreq_key(const kw_vreq *req);

/* GET /v1/verify/{key}: the stored answer ("cached": true), 404 for a key
 * that is not a stored verification. */
void kw_verify_get(kw_reply *out, kw_srv *s, const char *key);

/* DELETE /v1/verify/{key}: remove a stored verification.  200 {"key",
 * "deleted": true}; 404 when the key is not a stored verification (a
 * kernel's key included: DELETE /v1/kernels/{key}); 503 storage. */
void kw_verify_delete(kw_reply *out, kw_srv *s, const char *key);

/* 1 if the Content-Type is one POST /v1/verify takes (text/plain,
 * application/json, application/octet-stream; parameters allowed). */
int kw_verify_content_type_ok(const char *content_type);

#endif
