/*
 * kernels_yaml.c - POST /v1/kernels with a YAML body (kernels_yaml.h).
 *
 * The YAML is turned into the request `kwgen logic` would print for it
 * (kw_logic_solution: libyaml reader, Tensile defaults, derived tPA / tPB /
 * states) and that request takes the JSON path (kw_kernels_post): the same
 * key, cache row and answer as posting the request itself.
 */
#include "kernels_yaml.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kwgen/request.h"
#include "logic/logic.h"

int kw_kernels_is_yaml(const char *content_type)
{
	static const char *const types[] = { "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml" };

	if (!content_type)
		return 0;
	while (*content_type == ' ' || *content_type == '\t')
		content_type++;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t n = strlen(types[i]);
		const char *p = content_type + n;

		if (strncasecmp(content_type, types[i], n) != 0)
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == ';')
			return 1;
	}
	return 0;
}

int kw_kernels_post_yaml(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
			 const char *isa, const char *generators, const char *derive, int bypass, int text)
{
	kw_logic_ctx ctx = { NULL, NULL, NULL };
	kw_error e = KW_ERROR_INIT;
	json_t *gens = NULL, *req = NULL;
	char *json;
	int rc;

	*job = NULL;
	if (derive && strcmp(derive, "only") != 0) {
		kw_reply_error(out, 400, "syntax", "derive", "?derive= takes \"only\", not \"%.64s\"", derive);
		return 0;
	}
	if (isa) {
		if (strncasecmp(isa, "gfx", 3) != 0 || strlen(isa) < 4 || strlen(isa) > 31) {
			kw_reply_error(out, 400, "syntax", "isa", "?isa= takes a gfx name such as gfx942, not \"%.64s\"", isa);
			return 0;
		}
		ctx.isa = isa; /* known or not: kw_request_parse judges it with libkwgen's table */
	}
	if (generators) {
		if (kw_logic_generators(&gens, generators, &e) < 0) {
			kw_reply_kw_error(out, &e);
			return 0;
		}
		ctx.generators = gens;
	}
	rc = kw_logic_solution(&req, body, len, "body", &ctx, &e);
	json_decref(gens);
	if (rc < 0) {
		kw_reply_kw_error(out, &e);
		return 0;
	}
	if (derive) { /* the request itself, checked as kw_kernels_post would */
		kw_request *r = NULL;

		if (kw_request_parse(&r, req, &s->limits, &e) < 0) {
			json_decref(req);
			kw_reply_kw_error(out, &e);
			return 0;
		}
		kw_request_free(r);
		kw_reply_json(out, 200, req);
		return 0;
	}
	json = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (!json) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return 0;
	}
	rc = kw_kernels_post(out, job, s, json, strlen(json), bypass, text);
	free(json);
	return rc;
}
