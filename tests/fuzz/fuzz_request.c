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
 *   - kw_oracle_answer always returns an object with "error" xor "asm".
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kwgen/error.h"
#include "kwgen/request.h"

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
	{
		char *text = json_dumps(answer, JSON_COMPACT);

		if (!text)
			abort();
		free(text);
	}
	json_decref(answer);
	json_decref(root);
	return 0;
}
