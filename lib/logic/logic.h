/*
 * lib/logic/logic.h - Tensile / hipBLASLt library-logic YAML -> kwgen
 * requests: libkwgen-logic.a, which `kwgen logic` and kwgend link (the core
 * libkwgen does not: it links jansson and OpenSSL's hash only, this links
 * libyaml too).
 *   yaml.c      YAML (libyaml events) -> jansson, streaming the solutions
 *   derive.c    one solution dict -> one kwgen request (Tensile defaults,
 *               derived tPA / tPB / states)
 *   solution.c  one solution's YAML text (kwgend's POST /v1/kernels with
 *               Content-Type: application/yaml) -> one request; a generator
 *               list ("wait,syncThreads" or a JSON array)
 * Internal to kwgen and kwgend: not installed, no stable API.
 */
#ifndef KWGEN_LOGIC_LOGIC_H
#define KWGEN_LOGIC_LOGIC_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "kwgen/error.h"

/* ---- yaml.c: the reader -------------------------------------------------- */

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

/* ---- derive.c: one solution -> one request -------------------------------- */

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

/* ---- solution.c: one solution's YAML -------------------------------------- */

/*
 * One Tensile solution given as YAML text (len bytes, not NUL-terminated),
 * as a person copies it out of a logic file: a mapping of solution keys, or
 * a list holding one such mapping ("- 1LDSBuffer: 0 ...", or "- - ..." for
 * the first solution of a file), flow mappings
 * wrapped over lines as PyYAML writes them included.  It goes through the
 * reader (kw_yaml_logic_read: the same scalar typing, alias and nesting
 * bounds) and kw_logic_request with ctx (may be NULL: the solution's own
 * ISA [M, m, s] and ProblemType); name prefixes syntax errors
 * ("NAME:LINE:COLUMN: ...").  *out (new reference, caller's) is the
 * request, with "source": {"SolutionIndex", "SolutionNameMin" or
 * "KernelNameMin"} when the solution has them; untouched on failure.
 * Errors: KW_ESYNTAX (malformed YAML with line:column; not one mapping; a
 * whole logic file or several solutions: one is wanted), KW_EINVAL /
 * KW_EUNSUPPORTED (as kw_logic_request, err->field naming the key),
 * KW_ENOMEM.
 */
int kw_logic_solution(json_t **out, const char *yaml, size_t len, const char *name, const kw_logic_ctx *ctx,
		      kw_error *err);

/*
 * A generator list as `kwgen logic --generators` and kwgend's ?generators=
 * take it: names separated by commas ("wait,syncThreads"), or a JSON array
 * of {"name", "args"} objects ("[{"name":"wait","args":{...}}]").  *out is
 * a new JSON array of {"name"} / the given objects (caller's reference);
 * the names are checked later, by kw_request_parse.
 * Errors: KW_ESYNTAX (an empty list, JSON that is not a non-empty array),
 * KW_ENOMEM.
 */
int kw_logic_generators(json_t **out, const char *list, kw_error *err);

#endif
