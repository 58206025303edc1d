/*
 * test_text.c - lib/text.c (an answer as text), lib/ffi.c (text in, text
 * out) and the request "source" (kw_request_source): its validation and
 * that it never changes the key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kwgen/ffi.h"
#include "kwgen/request.h"
#include "kwgen/text.h"

static void test_render(void **state)
{
	const char *ans =
		"{\"results\": ["
		"{\"name\": \"wait\", \"args\": {\"skipGlobalRead\": 0, \"comment\": \"w\\\"q\", \"flag\": true,"
		" \"none\": null, \"tok\": [1, 2]}, \"asm\": \"s_waitcnt vmcnt(0)\", \"diagnostics\":"
		" [{\"code\": \"count_clamped\", \"message\": \"two\\nlines\"}]},"
		"{\"name\": \"getAccToArchLen\", \"args\": {}, \"asm\": null, \"value\": 16, \"diagnostics\": []},"
		"{\"name\": \"accToArchMapper\", \"args\": {}, \"asm\": null, \"acc2arch\": [1, 0],"
		" \"arch2acc\": [1, 0], \"diagnostics\": []}],"
		" \"source\": {\"Rank\": 2, \"SolutionNameMin\": \"Cijk\", \"file\": \"a.yaml\", \"SolutionIndex\": 5}}";
	json_t *a = json_loads(ans, 0, NULL);
	kw_buf b = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	assert_non_null(a);
	assert_int_equal(kw_text_render(&b, a, &err), 0);
	assert_string_equal(b.p,
			    "// source: a.yaml, SolutionIndex 5, SolutionNameMin Cijk, Rank 2\n"
			    "// wait(skipGlobalRead=0, comment=\"w\\\"q\", flag=True, none=None, tok=[1, 2])\n"
			    "s_waitcnt vmcnt(0)\n"
			    "// warning: count_clamped: two lines\n"
			    "// getAccToArchLen() = 16\n"
			    "// accToArchMapper()\n"
			    "// acc2arch: [1, 0]\n"
			    "// arch2acc: [1, 0]\n");
	json_decref(a);
	kw_buf_reset(&b);
	/* an error answer has no results */
	a = json_loads("{\"error\": {\"code\": \"invalid\"}}", 0, NULL);
	assert_int_equal(kw_text_render(&b, a, &err), KW_EINVAL);
	json_decref(a);
	/* a string source is printed as is */
	a = json_string("lib/x.yaml#3");
	assert_int_equal(kw_text_source_line(&b, a), 0);
	assert_string_equal(b.p, "// source: lib/x.yaml#3\n");
	assert_int_equal(kw_text_source_line(&b, NULL), 0);
	json_decref(a);
	kw_buf_free(&b);
}

static const char *example =
	"{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"comment\": \"s\"},"
	" \"kernel\": {\"NumThreads\": 256, \"WavefrontSize\": 64, \"_ScheduleIterAlg\": 3,"
	" \"PrefetchGlobalRead\": 1}%s}";

static char *with(const char *extra)
{
	size_t n = strlen(example) + strlen(extra) + 1;
	char *t = malloc(n);

	snprintf(t, n, example, extra);
	return t;
}

static void test_ffi(void **state)
{
	char *req = with(", \"source\": {\"file\": \"f.yaml\", \"SolutionIndex\": 2}");
	int code = 99;
	char *out = kw_ffi_generate(req, strlen(req), &code);
	json_t *o;

	(void)state;
	assert_int_equal(code, 0);
	o = json_loads(out, 0, NULL);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "isa")), "gfx942");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "source"), "SolutionIndex")), 2);
	assert_int_equal(json_array_size(json_object_get(o, "results")), 1);
	json_decref(o);
	kw_ffi_free(out);
	out = kw_ffi_run(req, strlen(req), &code);
	assert_int_equal(code, 0);
	o = json_loads(out, 0, NULL);
	assert_non_null(o);
	assert_null(json_object_get(o, "key"));
	assert_int_equal(json_array_size(json_object_get(o, "results")), 1);
	assert_non_null(json_object_get(o, "source"));
	json_decref(o);
	kw_ffi_free(out);
	out = kw_ffi_run("{\"isa\": \"gfx1\"}", 15, &code);
	assert_int_equal(code, KW_EINVAL);
	assert_non_null(strstr(out, "\"field\":\"isa\""));
	kw_ffi_free(out);
	out = kw_ffi_run("[", 1, &code);
	assert_int_equal(code, KW_ESYNTAX);
	kw_ffi_free(out);
	out = kw_ffi_asm(req, strlen(req), &code);
	assert_int_equal(code, 0);
	assert_non_null(strstr(out, "// source: f.yaml, SolutionIndex 2\n// syncThreads(comment=\"s\""));
	kw_ffi_free(out);
	free(req);
	/* errors: {"error": {code, message, field}} and the code */
	out = kw_ffi_generate("{\"isa\": 5}", 10, &code);
	assert_int_equal(code, KW_EINVAL);
	o = json_loads(out, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "error"), "field")), "isa");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "error"), "code")), "invalid");
	json_decref(o);
	kw_ffi_free(out);
	out = kw_ffi_asm("{\"isa\": ", 8, &code);
	assert_int_equal(code, KW_ESYNTAX);
	assert_non_null(strstr(out, "\"syntax\""));
	kw_ffi_free(out);
	out = kw_ffi_generate(NULL, 0, &code);
	assert_int_equal(code, KW_ESYNTAX);
	kw_ffi_free(out);
	kw_ffi_free(NULL);
	assert_string_equal(kw_ffi_version(), kw_generator_version());
}

/* Parse "example + extra": 0 and the key, or the error code and field. */
static int parse(const char *extra, char key[65], kw_error *err)
{
	char *t = with(extra), cid[65];
	json_t *j = json_loads(t, 0, NULL);
	kw_request *r = NULL;
	int rc;

	free(t);
	assert_non_null(j);
	rc = kw_request_parse(&r, j, NULL, err);
	if (rc == 0)
		rc = kw_request_ids(cid, key, NULL, r, err);
	kw_request_free(r);
	json_decref(j);
	return rc;
}

static void test_source(void **state)
{
	static const struct {
		const char *extra;
		int rc;
		const char *field;
	} cases[] = {
		{ ", \"source\": {\"file\": \"a\", \"SolutionIndex\": 0, \"SolutionNameMin\": \"C\", \"x\": -5}", 0, "" },
		{ ", \"source\": \"a.yaml#1\"", 0, "" },
		{ ", \"source\": null", 0, "" },
		{ ", \"source\": 3", KW_EINVAL, "source" },
		{ ", \"source\": [\"a\"]", KW_EINVAL, "source" },
		{ ", \"source\": {\"SolutionIndex\": -1}", KW_EINVAL, "source.SolutionIndex" },
		{ ", \"source\": {\"SolutionIndex\": \"1\"}", KW_EINVAL, "source.SolutionIndex" },
		{ ", \"source\": {\"file\": 1}", KW_EINVAL, "source.file" },
		{ ", \"source\": {\"SolutionNameMin\": true}", KW_EINVAL, "source.SolutionNameMin" },
		{ ", \"source\": {\"x\": 1.5}", KW_EINVAL, "source.x" },
		{ ", \"source\": {\"x\": {}}", KW_EINVAL, "source.x" },
		{ ", \"source\": {\"x\": 2147483648}", KW_EINVAL, "source.x" },
		{ ", \"source\": {\"\": 1}", KW_EINVAL, "source" },
		{ ", \"source\": {\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1,\"g\":1,\"h\":1,\"i\":1,\"j\":1,"
		  "\"k\":1,\"l\":1,\"m\":1,\"n\":1,\"o\":1,\"p\":1,\"q\":1}", KW_ELIMIT, "source" },
	};
	char base[65], key[65];
	kw_error err = KW_ERROR_INIT;

	(void)state;
	assert_int_equal(parse("", base, &err), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kw_error_clear(&err);
		assert_int_equal(parse(cases[i].extra, key, &err), cases[i].rc);
		if (cases[i].rc == 0)
			assert_string_equal(key, base); /* never part of the key */
		else
			assert_string_equal(err.field, cases[i].field);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_ffi),
		cmocka_unit_test(test_source),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
