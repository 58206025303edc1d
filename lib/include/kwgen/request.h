/*
 * kwgen/request.h - request JSON -> generator calls -> response JSON;
 * the canonical form of a request and its key.
 *
 * A request is a JSON object in one of two forms (design.md, oracle README):
 *
 *   oracle form:  {"isa", "generator": "wait", "args": {...}, "kernel", ...}
 *   farm form:    {"isa", "generators": [{"name": "wait", "args": {...}}, ...], "kernel", ...}
 *                 ("generators" omitted = every generator that applies)
 *
 * Shared keys: isa ("gfx942" or [9,4,2]), wavefront, kernel (a Tensile
 * solution dict; unknown keys ignored), tPA, tPB, states, archCaps,
 * asmCaps, vgprIdx, vgprMsb, outputNoComment, fillDefaults, replaceHolder,
 * strict, source (where the request came from; not part of the key).
 * Parsing validates types; a key a generator needs but the request lacks
 * is reported when that generator runs (as Tensile's KeyError would be),
 * naming the key.
 *
 * Ownership: kw_request is opaque, created by kw_request_parse and released
 * with kw_request_free.  The parsed request keeps no reference to the input
 * json_t.  Returned json_t values are new references owned by the caller.
 * Returned strings are malloc()ed and owned by the caller (free()).
 *
 * Thread-safety: a kw_request may be run from one thread at a time; distinct
 * requests may run concurrently (no global state).
 */
#ifndef KWGEN_REQUEST_H
#define KWGEN_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "kwgen/buf.h"
#include "kwgen/diag.h"
#include "kwgen/error.h"
#include "kwgen/gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds checked before any generation work (issue: hardening). */
typedef struct kw_limits {
	long max_acc_len;           /* max accToArchMapper length (registers of the C tile per thread) */
	size_t max_output_bytes;    /* max rendered assembly bytes per generator result (estimated up front) */
	size_t max_generators;      /* max entries in "generators" */
	size_t max_string_bytes;    /* max length of any string argument (comments) */
	size_t max_array_items;     /* max items in any array (replaceHolder, memoryToken) */
	int max_depth;              /* max JSON nesting depth accepted */
	size_t max_results_bytes;   /* max bytes of all of one request's results together (assembly
	                               text + 24 per acc2arch/arch2acc entry), summed as they are
	                               generated: the generator that passes it fails the request with
	                               KW_ELIMIT, field "generators" (0 = no bound; kwgend:
	                               --max-response-bytes) */
} kw_limits;

#define KW_LIMITS_INIT { 65536, 16u << 20, 64, 4096, 1u << 16, 32, 0 }

typedef struct kw_request kw_request;

/*
 * Parse and validate a request object.  lim may be NULL (KW_LIMITS_INIT).
 * Returns 0 and *out on success; KW_ESYNTAX if root is not an object,
 * KW_EINVAL/KW_ELIMIT with err naming the field otherwise.
 */
int kw_request_parse(kw_request **out, const json_t *root, const kw_limits *lim, kw_error *err);

void kw_request_free(kw_request *r);

/* Number of generator calls in the request, and the name of the i-th. */
size_t kw_request_ngen(const kw_request *r);
const char *kw_request_gen_name(const kw_request *r, size_t i);

/* The ISA as rocisa's gfx name ("gfx942", "gfx90a") - static storage. */
const char *kw_request_isa_name(const kw_request *r);

/* True if the request said "strict": true. */
int kw_request_strict(const kw_request *r);

/*
 * The request's "source" (where it came from: {"file", "SolutionIndex",
 * "SolutionNameMin", ...} from kwgen logic, or the golden corpus's
 * "FILE#index" string), validated by kw_request_parse: an object of at most
 * 16 members (keys 1..64 bytes) whose values are strings (at most
 * max_string_bytes, no NUL) or int32 integers, "SolutionIndex" >= 0; or a
 * string.  Not part of the canonical form or the key.  Borrowed (valid
 * until kw_request_free); NULL when the request has none.
 */
const json_t *kw_request_source(const kw_request *r);

/*
 * Run every generator.  *out = JSON array, one object per generator call:
 *   {"name", "args" (with defaults filled), "asm" (string or null), "type"
 *    ("Module" / "SWaitCnt", only when asm is a string), "acc2arch",
 *    "arch2acc" (accToArchMapper), "value" (scalar generators),
 *    "diagnostics": [{"code", "message"}, ...]}
 * Errors: KW_EINVAL (missing/ill-typed key, message names it),
 * KW_EUNSUPPORTED (the seed leaves an empty slot), KW_ESTRICT (strict and a
 * diagnostic was raised), KW_ELIMIT, KW_ENOMEM.  The message is prefixed
 * with the generator name.
 */
int kw_request_run(json_t **out, const kw_request *r, kw_error *err);

/*
 * The canonical request: only the keys the chosen generators read, defaults
 * filled, booleans as true/false, DataType as its enum int, ISA as a
 * triple, effective caps merged, generators with their full args, keys
 * sorted, compact.  *out is malloc()ed text.
 */
int kw_request_canonical(char **out, const kw_request *r, kw_error *err);

/* The generator-version salt: changes whenever any output changes. */
const char *kw_generator_version(void);

/*
 * config_id = SHA-256(canonical), key = SHA-256(salt || canonical), both
 * as 64 lower-case hex digits plus NUL.  canonical_out (may be NULL)
 * receives the canonical text (malloc()ed, caller frees).
 */
int kw_request_ids(char config_id[65], char key[65], char **canonical_out,
		   const kw_request *r, kw_error *err);

/*
 * The oracle-compatible answer for one oracle-form request:
 * {"asm", "type", "acc2arch", "arch2acc" | "value", "isa": [M,m,s],
 *  "diagnostics": [...]} or, on any failure, the error in the one shape
 * every form answers with (kw_error_answer).
 * Always returns a new object (NULL only when out of memory); *ok is set
 * to 1 for a successful answer, 0 for an error answer.
 */
json_t *kw_oracle_answer(const json_t *req, const kw_limits *lim, int *ok);

/*
 * The error answer of e: {"error": {"code": kw_error_code_name(e->code),
 * "message": e->message, "field": e->field or null}} (a message or field
 * that is not UTF-8 is replaced by a note saying so), the shape kwgen,
 * kwgend and the Python module answer every error with.  A new object, or
 * NULL when out of memory.
 */
json_t *kw_error_answer(const kw_error *e);

/*
 * The farm-form answer of one request (either form):
 *   {"isa", "config_id", "key", "generator_version", "results": [...]
 *    (as kw_request_run), "source" (only when the request has one)}
 * lim may be NULL (KW_LIMITS_INIT).  Returns a new object, or NULL with err
 * filled (every error of kw_request_parse, kw_request_ids and
 * kw_request_run).  kwgen's single mode, its --asm and the Python module
 * (kwgen/ffi.h) answer with it.
 */
json_t *kw_request_answer(const json_t *req, const kw_limits *lim, kw_error *err);

/* The generator table for GET /v1/generators: a JSON array of
 * {"name", "args": [{"name", "type", "default" | "required": true}], "needs": [...]} */
json_t *kw_generators_json(void);

/* ---- lower level: generation without JSON (bench-gen, the daemon's hot path) ---- */

/* Scratch memory reused across generate calls (one per thread). */
typedef struct kw_workspace {
	kw_arena arena;
	kw_buf text;
} kw_workspace;

#define KW_WORKSPACE_INIT { KW_ARENA_INIT, KW_BUF_INIT }

void kw_workspace_free(kw_workspace *ws);

/* One generator's result.  Pointers point into the workspace and are valid
 * until the next kw_request_generate with the same workspace. */
typedef struct kw_result {
	const char *type;        /* "Module", "SWaitCnt", or NULL (no asm) */
	const char *text;        /* rendered asm (NUL-terminated) when type != NULL */
	size_t text_len;
	int has_map;             /* accToArchMapper: map is set */
	kw_acc_map map;
	int value_kind;          /* 0 none, 1 integer, 2 boolean */
	int64_t value;
	kw_diags diags;
} kw_result;

/* Run generator call i of r (0 <= i < kw_request_ngen(r)).  Errors as
 * kw_request_run (strict is checked here too). */
int kw_request_generate(kw_result *res, kw_workspace *ws, const kw_request *r, size_t i, kw_error *err);

#ifdef __cplusplus
}
#endif
#endif
