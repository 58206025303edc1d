/*
 * ffi.c - text-in, text-out calls for bindings (kwgen/ffi.h).  A thin
 * layer over kw_request_answer and kw_text_render; it owns no state.
 */
#include "kwgen/ffi.h"

#include <stdlib.h>
#include <string.h>

#include "kwgen/request.h"
#include "kwgen/text.h"

/* {"error": {"code", "message", "field"}} as compact text: the shape every
 * form answers with (kw_error_answer). */
static char *error_text(const kw_error *e)
{
	json_t *o = kw_error_answer(e);
	char *t = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return t;
}

/* Parse the text (duplicate keys refused, as kwgen and kwgend do) and
 * answer it; *code as in the header. */
static json_t *answer_of(const char *json, size_t len, kw_error *e)
{
	json_error_t jerr;
	json_t *req, *ans;

	if (!json) {
		kw_error_set(e, KW_ESYNTAX, NULL, "no request text");
		return NULL;
	}
	req = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!req) {
		kw_error_set(e, KW_ESYNTAX, NULL, "invalid JSON at line %d, column %d: %s", jerr.line, jerr.column,
			     jerr.text);
		return NULL;
	}
	ans = kw_request_answer(req, NULL, e);
	json_decref(req);
	return ans;
}

char *kw_ffi_generate(const char *json, size_t len, int *code)
{
	kw_error e = KW_ERROR_INIT;
	json_t *ans = answer_of(json, len, &e);
	char *t;

	if (!ans) {
		*code = e.code ? e.code : KW_ENOMEM;
		return error_text(&e);
	}
	t = json_dumps(ans, JSON_COMPACT);
	json_decref(ans);
	*code = t ? 0 : KW_ENOMEM;
	return t;
}

char *kw_ffi_run(const char *json, size_t len, int *code)
{
	kw_error e = KW_ERROR_INIT;
	json_error_t jerr;
	json_t *req, *results = NULL, *ans = NULL;
	kw_request *r = NULL;
	char *t = NULL;

	if (!json) {
		kw_error_set(&e, KW_ESYNTAX, NULL, "no request text");
		goto fail;
	}
	if (!(req = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr))) {
		kw_error_set(&e, KW_ESYNTAX, NULL, "invalid JSON at line %d, column %d: %s", jerr.line, jerr.column,
			     jerr.text);
		goto fail;
	}
	if (kw_request_parse(&r, req, NULL, &e) == 0 && kw_request_run(&results, r, &e) == 0) {
		ans = json_pack("{s:s,s:o}", "isa", kw_request_isa_name(r), "results", results);
		if (ans && kw_request_source(r))
			json_object_set(ans, "source", (json_t *)kw_request_source(r));
		if (!ans)
			kw_error_set(&e, KW_ENOMEM, NULL, "out of memory");
	}
	kw_request_free(r);
	json_decref(req);
	if (!ans)
		goto fail;
	t = json_dumps(ans, JSON_COMPACT);
	json_decref(ans);
	*code = t ? 0 : KW_ENOMEM;
	return t;
fail:
	*code = e.code ? e.code : KW_ENOMEM;
	return error_text(&e);
}

char *kw_ffi_asm(const char *json, size_t len, int *code)
{
	kw_error e = KW_ERROR_INIT;
	kw_buf b = KW_BUF_INIT;
	json_t *ans = answer_of(json, len, &e);
	int rc;

	if (!ans) {
		*code = e.code ? e.code : KW_ENOMEM;
		return error_text(&e);
	}
	rc = kw_text_render(&b, ans, &e);
	json_decref(ans);
	if (rc == 0 && !b.p && kw_buf_grow(&b, 0))
		rc = KW_ENOMEM;
	if (rc) {
		kw_buf_free(&b);
		*code = rc;
		return rc == KW_ENOMEM ? NULL : error_text(&e);
	}
	*code = 0;
	return kw_buf_detach(&b);
}

void kw_ffi_free(char *text)
{
	free(text);
}

const char *kw_ffi_version(void)
{
	return kw_generator_version();
}
