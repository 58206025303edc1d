/*
 * fuzz_yaml.c - libFuzzer harness: the logic-file reader of `kwgen logic`
 * (lib/logic/yaml.c, libyaml) and the derivation of a request from each
 * solution (lib/logic/derive.c), as `kwgen logic FILE` runs them.
 *
 * The input is the YAML file.  Every item the reader hands over is dumped
 * as JSON; every solution goes through kw_logic_request with the file's
 * context (ArchitectureName, ProblemType; gfx942 when the file names no
 * architecture), and a
 * request that comes out is parsed back by libkwgen (kw_request_parse).
 *
 * The same input also goes through kw_logic_solution (one solution's text,
 * as kwgend's POST /v1/kernels with Content-Type: application/yaml).
 *
 * Properties (abort() on violation): a failing call fills err with a known
 * negative code and a non-empty message; an item's value is never NULL;
 * a derived request is an object that dumps to JSON.  Alias expansion is
 * bounded by the reader (libFuzzer's -rss_limit_mb catches a bomb).
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kwgen/error.h"
#include "kwgen/request.h"
#include "logic/logic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const kw_error *err, int rc)
{
	if (rc >= 0 || rc < KW_EINTERNAL || rc == KW_EINTERNAL)
		abort();
	if (memchr(err->message, '\0', sizeof(err->message)) == NULL || err->message[0] == '\0')
		abort();
}

typedef struct state {
	kw_logic_ctx ctx;
	char isa[32];
	json_t *problem_type; /* kept (incref) from the top-level item */
	size_t items;
} state;

static int on_item(void *ud, const kw_yaml_item *it, kw_error *err)
{
	static const kw_limits lim = KW_LIMITS_INIT;
	state *st = ud;
	char *text;

	(void)err;
	if (!it->value)
		abort();
	if (!(text = json_dumps(it->value, JSON_COMPACT | JSON_ENCODE_ANY)))
		abort();
	free(text);
	st->items++;
	if (!it->solution) {
		/* the file's context, as cli/logic.c takes it: architecture and problem type */
		int arch = it->key ? strcmp(it->key, "ArchitectureName") == 0 : it->index == 2;
		int ptype = it->key ? strcmp(it->key, "ProblemType") == 0 : it->index == 4;

		if (arch && kw_logic_arch_name(st->isa, sizeof(st->isa), it->value) == 0)
			st->ctx.isa = st->isa;
		if (ptype && json_is_object(it->value)) {
			json_decref(st->problem_type);
			st->problem_type = json_incref((json_t *)it->value);
			st->ctx.problem_type = st->problem_type;
		}
	} else {
		json_t *req = NULL;
		kw_error e = KW_ERROR_INIT;
		int rc = kw_logic_request(&req, it->value, &st->ctx, &e);

		if (rc < 0) {
			check_error(&e, rc);
			if (req)
				abort();
		} else {
			kw_request *r = NULL;
			kw_error e2 = KW_ERROR_INIT;

			if (!json_is_object(req))
				abort();
			if (!(text = json_dumps(req, JSON_COMPACT)))
				abort();
			free(text);
			if (kw_request_parse(&r, req, &lim, &e2) == 0)
				kw_request_free(r);
			json_decref(req);
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kw_error err = KW_ERROR_INIT;
	state st;
	FILE *f;
	int rc;

	if (size == 0)
		return 0;
	memset(&st, 0, sizeof(st));
	st.ctx.isa = "gfx942";
	if (!(f = fmemopen((void *)data, size, "r")))
		abort();
	rc = kw_yaml_logic_read(f, "fuzz.yaml", on_item, &st, &err);
	fclose(f);
	if (rc < 0)
		check_error(&err, rc);
	json_decref(st.problem_type);

	/* the same text as one solution (kwgend's application/yaml body) */
	{
		json_t *req = NULL;
		kw_error e = KW_ERROR_INIT;

		rc = kw_logic_solution(&req, (const char *)data, size, "body", NULL, &e);
		if (rc < 0) {
			check_error(&e, rc);
			if (req)
				abort();
		} else {
			if (!json_is_object(req))
				abort();
			json_decref(req);
		}
	}
	return 0;
}
