/*
 * fuzz_request.c - libFuzzer harness: request JSON -> parse -> validate ->
 * generate -> render -> response JSON, the path every kwgen / kwgend
 * request takes.
 *
 * The input is the request body.  It is parsed with jansson (as the CLI
 * does), handed to kw_request_parse with the daemon's limits, run, and the
 * results are serialised; the same JSON is also answered in the oracle form
 * (kw_oracle_answer).  Everything is freed, so LeakSanitizer sees leaks.
 *
 * Properties checked (abort() on violation, which libFuzzer reports):
 *   - a failing call fills err with a known negative code and a non-empty,
 *     NUL-terminated message, and never reports KW_EINTERNAL;
 *   - a successful run returns an array with one object per generator call;
 *   - kw_oracle_answer always returns an object with "error" xor "asm";
 *   - the text of a successful run (kw_text_render, kwgen --asm) renders,
 *     starts with a comment line, and has one header line per result;
 *   - kw_ffi_asm and kw_ffi_run on the raw input return a text, and a JSON
 *     error object exactly when the code is non-zero.
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kwgen/error.h"
#include "kwgen/ffi.h"
#include "kwgen/request.h"
#include "kwgen/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const kw_error *err, int rc)
{
	if (rc >= 0 || rc < KW_EINTERNAL || rc == KW_EINTERNAL)
		abort();
	if (err->code != rc)
		abort();
	if (memchr(err->message, '\0', sizeof(err->message)) == NULL || err->message[0] == '\0')
		abort();
	if (memchr(err->field, '\0', sizeof(err->field)) == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const kw_limits lim = KW_LIMITS_INIT;
	kw_error err = KW_ERROR_INIT;
	kw_request *r = NULL;
	json_t *root, *results = NULL, *answer;
	int rc, ok = 0;

	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL); /* as kwgen and kwgend parse */
	if (!root)
		return 0;

	rc = kw_request_parse(&r, root, &lim, &err);
	if (rc) {
		check_error(&err, rc);
		if (r)
			abort();
	} else {
		size_t n = kw_request_ngen(r);

		if (!kw_request_isa_name(r))
			abort();
		for (size_t i = 0; i < n; i++)
			if (!kw_request_gen_name(r, i))
				abort();
		kw_error_clear(&err);
		rc = kw_request_run(&results, r, &err);
		if (rc) {
			check_error(&err, rc);
			if (results)
				abort();
		} else {
			char *text;

			if (!json_is_array(results) || json_array_size(results) != n)
				abort();
			text = json_dumps(results, JSON_COMPACT);
			if (!text)
				abort();
			free(text);
			{
				json_t *ans = json_pack("{s:O}", "results", results);
				kw_buf b = KW_BUF_INIT;
				size_t heads = 0;

				if (!ans)
					abort();
				if (kw_request_source(r))
					json_object_set(ans, "source", (json_t *)kw_request_source(r));
				if (kw_text_render(&b, ans, &err) != 0 || !b.p || strncmp(b.p, "// ", 3) != 0)
					abort();
				for (size_t i = 0; i < n; i++) {
					char head[64];

					snprintf(head, sizeof(head), "// %s(", kw_request_gen_name(r, i));
					for (const char *p = b.p; (p = strstr(p, head)); p++)
						if (p == b.p || p[-1] == '\n') {
							heads++;
							break;
						}
				}
				if (heads == 0 && n > 0)
					abort();
				kw_buf_free(&b);
				json_decref(ans);
			}
			json_decref(results);
		}
		kw_request_free(r);
	}

	answer = kw_oracle_answer(root, &lim, &ok);
	if (!json_is_object(answer))
		abort();
	if (ok != (json_object_get(answer, "error") == NULL))
		abort();
	if (ok && !json_object_get(answer, "asm"))
		abort();
	if (!ok && !json_is_string(json_object_get(json_object_get(answer, "error"), "code")))
		abort();
	{
		char *text = json_dumps(answer, JSON_COMPACT);

		if (!text)
			abort();
		free(text);
	}
	json_decref(answer);
	{
		static const char err_head[] = "{\"error\":{\"code\":";
		int code = 1;
		char *t = kw_ffi_asm((const char *)data, size, &code);

		if (!t)
			abort();
		if ((code != 0) != (strncmp(t, err_head, sizeof(err_head) - 1) == 0))
			abort();
		kw_ffi_free(t);
		t = kw_ffi_run((const char *)data, size, &code);
		if (!t || (code != 0) != (strncmp(t, err_head, sizeof(err_head) - 1) == 0))
			abort();
		kw_ffi_free(t);
	}
	json_decref(root);
	return 0;
}
