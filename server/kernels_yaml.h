/*
 * kernels_yaml.h - POST /v1/kernels with Content-Type: application/yaml:
 * one Tensile solution, as copied out of a logic file, read and derived by
 * the same code as `kwgen logic` (lib/logic/: tPA, tPB and states derived,
 * so `wait` runs), then answered as the JSON request would be.
 */
#ifndef KW_SERVER_KERNELS_YAML_H
#define KW_SERVER_KERNELS_YAML_H

#include <stddef.h>

#include "kernels.h"

/* 1 if a Content-Type value is YAML: application/yaml, application/x-yaml,
 * text/yaml or text/x-yaml (any case, parameters such as "; charset=utf-8"
 * allowed), else 0.  NULL gives 0. */
int kw_kernels_is_yaml(const char *content_type);

/*
 * POST /v1/kernels with a YAML body (len bytes, not NUL-terminated; the
 * caller bounded it by --max-body-bytes).  The query parameters, each may
 * be NULL:
 *   isa         the ISA to generate for ("gfx942"); default: the
 *               solution's ISA [M, m, s]
 *   generators  "wait,syncThreads" or a JSON array of {"name", "args"},
 *               as `kwgen logic --generators`; default: all that apply
 *   derive      "only": answer the derived request (200, JSON: what
 *               `kwgen logic` prints for the solution, checked as a
 *               request) without generating
 * Otherwise the derived request goes to kw_kernels_post (bypass, text as
 * there) and the return value is kw_kernels_post's.
 * Errors are replies: 400 syntax (malformed YAML, with "body:LINE:COLUMN:";
 * not one solution; a bad query parameter, field naming it), 422 for a
 * solution the derivation or the request checks refuse (field naming the
 * key), 503 out of memory.
 */
int kw_kernels_post_yaml(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
			 const char *isa, const char *generators, const char *derive, int bypass, int text);

#endif
