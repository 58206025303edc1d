/*
 * test_request.c - request parsing and running (kwgen/request.h): errors
 * name the field, the oracle and farm forms, the default generator set,
 * strict mode, replaceHolder, and the limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/request.h"

static json_t *js(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);

	if (!v)
		fail_msg("bad test JSON %s: %s", text, e.text);
	return v;
}

static kw_request *parse_ok(const char *text)
{
	kw_request *r = NULL;
	kw_error err = KW_ERROR_INIT;
	json_t *v = js(text);
	int rc = kw_request_parse(&r, v, NULL, &err);

	json_decref(v);
	if (rc)
		fail_msg("kw_request_parse(%s): %s", text, err.message);
	return r;
}

static void parse_bad_lim(const char *text, const kw_limits *lim, int code, const char *field, const char *msg_part)
{
	kw_request *r = (kw_request *)1;
	kw_error err = KW_ERROR_INIT;
	json_t *v = js(text);
	int rc = kw_request_parse(&r, v, lim, &err);

	json_decref(v);
	if (rc != code)
		fail_msg("%s: rc %d, want %d (%s)", text, rc, code, err.message);
	assert_null(r);
	if (field && strcmp(err.field, field))
		fail_msg("%s: field \"%s\", want \"%s\" (%s)", text, err.field, field, err.message);
	if (msg_part && !strstr(err.message, msg_part))
		fail_msg("%s: message \"%s\" lacks \"%s\"", text, err.message, msg_part);
}

static void parse_bad(const char *text, int code, const char *field, const char *msg_part)
{
	parse_bad_lim(text, NULL, code, field, msg_part);
}

/* Run generator 0 and return its asm (copied) or NULL; *rc gets the code. */
static char *gen0(const char *text, int *rc, kw_error *err, kw_result *res_out)
{
	kw_request *r = parse_ok(text);
	kw_workspace ws = KW_WORKSPACE_INIT;
	kw_result res;
	char *s = NULL;

	*rc = kw_request_generate(&res, &ws, r, 0, err);
	if (!*rc && res.text)
		s = strdup(res.text);
	if (res_out)
		*res_out = res;
	kw_workspace_free(&ws);
	kw_request_free(r);
	return s;
}

static void test_not_an_object(void **state)
{
	(void)state;
	parse_bad("[]", KW_ESYNTAX, "", NULL);
	parse_bad("\"gfx942\"", KW_ESYNTAX, "", NULL);
	parse_bad("null", KW_ESYNTAX, "", NULL);
}

static void test_field_errors(void **state)
{
	(void)state;
	parse_bad("{}", KW_EINVAL, "isa", "missing");
	parse_bad("{\"isa\": \"gfx1030\", \"generator\": \"wait\"}", KW_EINVAL, "isa", "gfx1030");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"nope\"}", KW_EINVAL, "generator", "nope");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": 3}", KW_EINVAL, "generator", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"wait\", \"generators\": []}", KW_EINVAL, "generators", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generators\": []}", KW_EINVAL, "generators", "empty");
	parse_bad("{\"isa\": \"gfx942\", \"generators\": {}}", KW_EINVAL, "generators", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generators\": [\"syncThreads\", 5]}", KW_EINVAL, "generators[1]", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generators\": [{\"name\": \"bogus\"}]}", KW_EINVAL, "generators[0]", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generators\": [{\"name\": \"tdmWait\", \"args\": {}}]}", KW_EINVAL,
		  "generators[0].args.tensorcnt", "missing");
	parse_bad("{\"isa\": \"gfx942\", \"generators\": [\"syncThreads\", {\"name\": \"tdmWait\", \"args\": {\"tensorcnt\": 1.5}}]}",
		  KW_EINVAL, "generators[1].args.tensorcnt", "float");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {\"skipGlobalRead\": 1, \"skipLocalWrite\": -1}}",
		  KW_EINVAL, "args.skipLocalRead", "missing");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {\"skipGlobalRead\": true, \"skipLocalWrite\": -1, \"skipLocalRead\": -1}}",
		  KW_EINVAL, "args.skipGlobalRead", "boolean");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {\"skipGlobalRead\": 4294967296, \"skipLocalWrite\": -1, \"skipLocalRead\": -1}}",
		  KW_EINVAL, "args.skipGlobalRead", "out of range");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"tdmWait\", \"args\": {\"tensorcnt\": 1, \"comment\": 5}}",
		  KW_EINVAL, "args.comment", "string");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"skipForceWaitcnt0\": \"y\"}}",
		  KW_EINVAL, "args.skipForceWaitcnt0", "boolean");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"memoryToken\": 1}}",
		  KW_EINVAL, "args.memoryToken", "list");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"memoryToken\": [1, \"a\"]}}",
		  KW_EINVAL, "args.memoryToken", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"mapAcctoArchRegs\", \"args\": {\"maxAgpr\": \"256\"}}",
		  KW_EINVAL, "args.maxAgpr", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"mapAcctoArchRegs\", \"args\": {\"spilledVgprBase\": 1.0}}",
		  KW_EINVAL, "args.spilledVgprBase", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"mulMIoutAlphaToArch\", \"args\": {}}",
		  KW_EINVAL, "args.startVgprAlphaTmp", "missing");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": []}", KW_EINVAL, "args", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {\"NumThreads\": 1.5}}",
		  KW_EINVAL, "kernel.NumThreads", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"tPA\": {\"nrp\": \"x\"}}", KW_EINVAL, "tPA.nrp", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"tPB\": 3}", KW_EINVAL, "tPB", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"states\": {\"numReadsPerIterA\": 0.5}}",
		  KW_EINVAL, "states.numReadsPerIterA", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"asmCaps\": {\"MaxVmcnt\": 1.5}}",
		  KW_EINVAL, "asmCaps.MaxVmcnt", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"archCaps\": []}", KW_EINVAL, "archCaps", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"wavefront\": 48}", KW_EINVAL, "wavefront", "32 or 64");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"wavefront\": \"64\"}", KW_EINVAL, "wavefront", NULL);
	parse_bad("{\"isa\": \"gfx1250\", \"generator\": \"syncThreads\", \"wavefront\": 64}", KW_EINVAL, "wavefront", "gfx1250");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {\"WavefrontSize\": 16}}",
		  KW_EINVAL, "kernel.WavefrontSize", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"outputNoComment\": \"no\"}", KW_EINVAL, "outputNoComment", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"strict\": 1.0}", KW_EINVAL, "strict", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"fillDefaults\": \"yes\"}", KW_EINVAL, "fillDefaults", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"vgprMsb\": 256}", KW_EINVAL, "vgprMsb", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"vgprMsb\": -3}", KW_EINVAL, "vgprMsb", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"vgprIdx\": []}", KW_EINVAL, "vgprIdx", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"vgprIdx\": {\"ValuC\": \"1\"}}", KW_EINVAL, "vgprIdx", "ValuC");
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"replaceHolder\": \"8\"}", KW_EINVAL, "replaceHolder", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"replaceHolder\": [1, 2.5]}", KW_EINVAL, "replaceHolder", NULL);
	parse_bad("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"replaceHolder\": 4294967296}", KW_EINVAL, "replaceHolder", NULL);
}

static void test_oracle_form(void **state)
{
	kw_request *r;
	json_t *v, *out = NULL, *e;
	kw_error err = KW_ERROR_INIT;
	int ok = 0;

	(void)state;
	r = parse_ok("{\"isa\": [9, 4, 2], \"generator\": \"tdmWait\", \"args\": {\"tensorcnt\": 2, \"comment\": \"c\"}}");
	assert_int_equal(kw_request_ngen(r), 1);
	assert_string_equal(kw_request_gen_name(r, 0), "tdmWait");
	assert_null(kw_request_gen_name(r, 1));
	assert_string_equal(kw_request_isa_name(r), "gfx942");
	assert_int_equal(kw_request_strict(r), 0);
	assert_int_equal(kw_request_run(&out, r, &err), 0);
	assert_int_equal(json_array_size(out), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0), "asm")),
			    "s_waitcnt vmcnt(0)\ns_wait_tensorcnt 2                                 // c\n");
	assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0), "type")), "Module");
	json_decref(out);
	kw_request_free(r);

	v = js("{\"isa\": \"gfx1201\", \"generator\": \"wait\", \"kernel\": {\"NumLoadsPerpendicularA\": 2, \"NumLoadsCoalescedA\": 1,"
	       " \"NumLoadsPerpendicularB\": 1, \"NumLoadsCoalescedB\": 1, \"ProblemType\": {\"MXBlockA\": false, \"MXBlockB\": false, \"Sparse\": false}},"
	       " \"args\": {\"skipGlobalRead\": 1, \"skipLocalWrite\": -1, \"skipLocalRead\": -1}}");
	out = kw_oracle_answer(v, NULL, &ok);
	json_decref(v);
	assert_int_equal(ok, 1);
	assert_string_equal(json_string_value(json_object_get(out, "asm")), "s_wait_loadcnt 3\n");
	assert_string_equal(json_string_value(json_object_get(out, "type")), "SWaitCnt");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(out, "isa"), 0)), 12);
	assert_int_equal(json_array_size(json_object_get(out, "diagnostics")), 0);
	json_decref(out);

	/* errors come back as {"error": {"code", "message", "field"}}, the
	 * shape every other form answers with, naming the key */
	v = js("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {}}");
	out = kw_oracle_answer(v, NULL, &ok);
	json_decref(v);
	assert_int_equal(ok, 0);
	e = json_object_get(out, "error");
	assert_true(json_is_object(e));
	assert_string_equal(json_string_value(json_object_get(e, "code")), "invalid");
	assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "NumThreads"));
	assert_non_null(strstr(json_string_value(json_object_get(e, "message")), "syncThreads"));
	assert_non_null(json_object_get(e, "field"));
	json_decref(out);
	/* a parse error too */
	v = js("{\"isa\": \"gfx942\", \"generator\": \"noSuchGen\", \"args\": {}}");
	out = kw_oracle_answer(v, NULL, &ok);
	json_decref(v);
	assert_int_equal(ok, 0);
	e = json_object_get(out, "error");
	assert_true(json_is_object(e));
	assert_true(json_is_string(json_object_get(e, "code")));
	assert_true(json_is_string(json_object_get(e, "message")));
	json_decref(out);
}

static void test_farm_form(void **state)
{
	kw_request *r;
	json_t *out = NULL, *e;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	r = parse_ok("{\"isa\": \"gfx1100\", \"kernel\": {\"NumThreads\": 256, \"WavefrontSize\": 32},"
		     " \"generators\": [\"syncThreads\", {\"name\": \"tdmWait\", \"args\": {\"tensorcnt\": -1}},"
		     " {\"name\": \"syncThreads\", \"args\": {\"comment\": \"x\", \"memoryToken\": [3]}}]}");
	assert_int_equal(kw_request_ngen(r), 3);
	assert_string_equal(kw_request_gen_name(r, 0), "syncThreads");
	assert_string_equal(kw_request_gen_name(r, 1), "tdmWait");
	assert_int_equal(kw_request_run(&out, r, &err), 0);
	assert_int_equal(json_array_size(out), 3);
	e = json_array_get(out, 0);
	assert_string_equal(json_string_value(json_object_get(e, "name")), "syncThreads");
	assert_string_equal(json_string_value(json_object_get(e, "asm")),
			    "s_waitcnt lgkmcnt(0)                               // extra navi wait\ns_barrier\n");
	assert_true(json_is_false(json_object_get(json_object_get(e, "args"), "skipForceWaitcnt0")));
	assert_true(json_is_null(json_object_get(json_object_get(e, "args"), "memoryToken")));
	e = json_array_get(out, 1);
	assert_string_equal(json_string_value(json_object_get(e, "asm")), "s_wait_tensorcnt -1\n");
	assert_int_equal(json_array_size(json_object_get(e, "diagnostics")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(e, "diagnostics"), 0), "code")),
			    "instruction_not_on_isa");
	e = json_array_get(out, 2);
	assert_string_equal(json_string_value(json_object_get(e, "asm")),
			    "s_waitcnt lgkmcnt(0)                               // extra navi wait\n"
			    "s_barrier                                          // x\n");
	assert_int_equal(json_array_size(json_object_get(json_object_get(e, "args"), "memoryToken")), 1);
	json_decref(out);
	kw_request_free(r);
}

#define FULL_KERNEL \
	"\"kernel\": {\"NumThreads\": 256, \"WavefrontSize\": 64, \"MatrixInstM\": 16, \"MatrixInstN\": 16," \
	" \"MIWaveTile\": [2, 1], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"ProblemType\": {\"DataType\": \"S\", \"ComputeDataType\": \"S\"}}"

static void test_default_generators(void **state)
{
	kw_request *r;
	static const char *const mi_gfx942[] = { "syncThreads", "accToArchMapper", "getAccToArchLen", "hasSequentialValuC",
						 "accVgprImagNumOffset", "mapAcctoArchRegs" };
	json_t *out = NULL;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	/* no kernel: only syncThreads */
	r = parse_ok("{\"isa\": \"gfx942\"}");
	assert_int_equal(kw_request_ngen(r), 1);
	assert_string_equal(kw_request_gen_name(r, 0), "syncThreads");
	kw_request_free(r);

	/* matrix instructions on gfx942 (AGPRs): + the mapper family and mapAcctoArchRegs */
	r = parse_ok("{\"isa\": \"gfx942\", \"fillDefaults\": true, " FULL_KERNEL "}");
	assert_int_equal(kw_request_ngen(r), 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(kw_request_gen_name(r, i), mi_gfx942[i]);
	assert_int_equal(kw_request_run(&out, r, &err), 0);
	assert_int_equal(json_array_size(out), 6);
	assert_true(json_is_true(json_object_get(json_array_get(out, 2 + 0), "value")) ||
		    json_is_integer(json_object_get(json_array_get(out, 2), "value")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(out, 2), "value")), 8);
	assert_true(json_is_true(json_object_get(json_array_get(out, 3), "value")));
	assert_int_equal(json_array_size(json_object_get(json_array_get(out, 1), "acc2arch")), 8);
	json_decref(out);
	kw_request_free(r);

	/* gfx1100 without MIArchVgpr: no mapAcctoArchRegs */
	r = parse_ok("{\"isa\": \"gfx1100\", \"fillDefaults\": true, \"wavefront\": 64, " FULL_KERNEL "}");
	assert_int_equal(kw_request_ngen(r), 5);
	kw_request_free(r);

	/* MIArchVgpr: + mulMIoutAlphaToArch and moveMIoutToArch */
	r = parse_ok("{\"isa\": \"gfx1100\", \"fillDefaults\": true, \"wavefront\": 64, \"kernel\": {\"NumThreads\": 256,"
		     " \"WavefrontSize\": 64, \"MatrixInstM\": 16, \"MatrixInstN\": 16, \"MIArchVgpr\": true, \"MIWaveTile\": [1, 1],"
		     " \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"ProblemType\": {\"DataType\": \"S\", \"ComputeDataType\": \"S\"}}}");
	assert_int_equal(kw_request_ngen(r), 8);
	assert_string_equal(kw_request_gen_name(r, 6), "mulMIoutAlphaToArch");
	assert_string_equal(kw_request_gen_name(r, 7), "moveMIoutToArch");
	kw_request_free(r);

	/* tPA, tPB and states: + six waits */
	r = parse_ok("{\"isa\": \"gfx942\", \"tPA\": {}, \"tPB\": {}, \"states\": {\"numReadsPerIterA\": 1}}");
	assert_int_equal(kw_request_ngen(r), 7);
	for (size_t i = 1; i < 7; i++)
		assert_string_equal(kw_request_gen_name(r, i), "wait");
	kw_request_free(r);
}

static void test_missing_key_reported_at_run(void **state)
{
	kw_request *r;
	json_t *out = (json_t *)1;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	r = parse_ok("{\"isa\": \"gfx942\", \"generator\": \"accToArchMapper\", \"kernel\": {\"MatrixInstM\": 16}}");
	assert_int_equal(kw_request_run(&out, r, &err), KW_EINVAL);
	assert_null(out);
	assert_string_equal(err.field, "kernel.MatrixInstN");
	assert_true(strncmp(err.message, "accToArchMapper", 15) == 0);
	kw_request_free(r);
}

static void test_strict(void **state)
{
	int rc;
	kw_error err = KW_ERROR_INIT;
	kw_result res;
	char *s;

	(void)state;
	/* s_wait_tensorcnt on gfx942: a diagnostic, not an error */
	s = gen0("{\"isa\": \"gfx942\", \"generator\": \"tdmWait\", \"args\": {\"tensorcnt\": 1}}", &rc, &err, &res);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "s_waitcnt vmcnt(0)\ns_wait_tensorcnt 1\n");
	assert_true(res.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA] > 0);
	free(s);
	/* strict turns it into KW_ESTRICT naming the code */
	s = gen0("{\"isa\": \"gfx942\", \"strict\": true, \"generator\": \"tdmWait\", \"args\": {\"tensorcnt\": 1}}", &rc, &err, NULL);
	assert_int_equal(rc, KW_ESTRICT);
	assert_null(s);
	assert_string_equal(err.field, "strict");
	assert_non_null(strstr(err.message, "instruction_not_on_isa"));
	assert_non_null(strstr(err.message, "tdmWait"));
	/* strict without diagnostics is fine */
	kw_error_clear(&err);
	s = gen0("{\"isa\": \"gfx1250\", \"strict\": true, \"generator\": \"tdmWait\", \"args\": {\"tensorcnt\": 1}}", &rc, &err, NULL);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "s_wait_loadcnt 0\ns_wait_tensorcnt 1\n");
	free(s);
	{
		kw_request *r = parse_ok("{\"isa\": \"gfx942\", \"strict\": 1, \"generator\": \"syncThreads\"}");
		assert_int_equal(kw_request_strict(r), 1);
		kw_request_free(r);
	}
}

#define MAPREQ(extra) \
	"{\"isa\": \"gfx942\", \"generator\": \"moveMIoutToArch\", \"args\": {\"startVgprAlphaTmp\": -1}, " \
	"\"kernel\": {\"MatrixInstM\": 16, \"MatrixInstN\": 16, \"MatrixInstBM\": 1, \"MatrixInstBN\": 1, \"WavefrontSize\": 64," \
	" \"MIWaveTile\": [1, 1], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"SourceSwap\": false, \"MIRegPerOut\": 1," \
	" \"ProblemType\": {\"ComputeDataType\": \"S\"}}" extra "}"

static void test_replace_holder(void **state)
{
	int rc;
	kw_error err = KW_ERROR_INIT;
	char *s;

	(void)state;
	s = gen0(MAPREQ(", \"replaceHolder\": 8"), &rc, &err, NULL);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "v_mov_b32 v[vgprValuC+8], v[vgprValuC+0]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+8], v[vgprValuC+1]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+8], v[vgprValuC+2]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+8], v[vgprValuC+3]           // Rearrange MI out reg\n");
	free(s);
	s = gen0(MAPREQ(", \"replaceHolder\": [0, 1, 2, 3]"), &rc, &err, NULL);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "v_mov_b32 v[vgprValuC+0], v[vgprValuC+0]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+1], v[vgprValuC+1]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+2], v[vgprValuC+2]           // Rearrange MI out reg\n"
			       "v_mov_b32 v[vgprValuC+3], v[vgprValuC+3]           // Rearrange MI out reg\n");
	free(s);
	/* list length must match the items */
	s = gen0(MAPREQ(", \"replaceHolder\": [0, 1, 2]"), &rc, &err, NULL);
	assert_int_equal(rc, KW_EINVAL);
	assert_null(s);
	assert_string_equal(err.field, "replaceHolder");
	assert_non_null(strstr(err.message, "3"));
	assert_non_null(strstr(err.message, "4"));
	/* outputNoComment */
	s = gen0(MAPREQ(", \"outputNoComment\": true, \"replaceHolder\": 1"), &rc, &err, NULL);
	assert_int_equal(rc, 0);
	assert_string_equal(s, "v_mov_b32 v[vgprValuC+1], v[vgprValuC+0]\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+1]\n"
			       "v_mov_b32 v[vgprValuC+1], v[vgprValuC+2]\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+3]\n");
	free(s);
}

static void test_vgpr_msb_request(void **state)
{
	int rc;
	kw_error err = KW_ERROR_INIT;
	char *s;

	(void)state;
	s = gen0("{\"isa\": \"gfx1250\", \"generator\": \"moveMIoutToArch\", \"args\": {\"startVgprAlphaTmp\": -1},"
		 " \"vgprIdx\": {\"ValuC\": 254}, \"vgprMsb\": -1, \"replaceHolder\": 0,"
		 " \"kernel\": {\"MatrixInstM\": 16, \"MatrixInstN\": 16, \"MatrixInstBM\": 1, \"MatrixInstBN\": 1, \"WavefrontSize\": 32,"
		 " \"MIWaveTile\": [1, 1], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"SourceSwap\": false, \"MIRegPerOut\": 1,"
		 " \"ProblemType\": {\"ComputeDataType\": \"S\"}}}",
		 &rc, &err, NULL);
	assert_int_equal(rc, 0);
	/* 16x16 on wave32: 8 registers; ValuC+2.. cross into bank 1 */
	assert_true(strncmp(s, "s_nop 0\ns_set_vgpr_msb 0                                   // src0: 0, src1: 0, src2: 0, dst: 0\n"
			       "v_mov_b32 v[vgprValuC+0], v[vgprValuC+0]           // Rearrange MI out reg\n", 170) == 0);
	assert_non_null(strstr(s, "s_set_vgpr_msb 1                                   // src0: 1, src1: 0, src2: 0, dst: 0\n"
				  "v_mov_b32 v[vgprValuC+0], v[vgprValuC+2-256]       // Rearrange MI out reg\n"));
	free(s);
}

static void test_empty_slot_unsupported(void **state)
{
	int rc;
	kw_error err = KW_ERROR_INIT;
	char *s;

	(void)state;
	s = gen0("{\"isa\": \"gfx942\", \"generator\": \"mulMIoutAlphaToArch\", \"args\": {\"startVgprAlphaTmp\": 40},"
		 " \"kernel\": {\"MatrixInstM\": 16, \"MatrixInstN\": 16, \"MatrixInstBM\": 1, \"MatrixInstBN\": 1, \"WavefrontSize\": 64,"
		 " \"MIWaveTile\": [1, 1], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"SourceSwap\": false, \"MIRegPerOut\": 1,"
		 " \"ProblemType\": {\"ComputeDataType\": \"B\"}}}",
		 &rc, &err, NULL);
	assert_int_equal(rc, KW_EUNSUPPORTED);
	assert_null(s);
	assert_true(strncmp(err.message, "mulMIoutAlphaToArch", 19) == 0);
}

static void test_empty_wait_text(void **state)
{
	kw_request *r = parse_ok("{\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {\"skipGlobalRead\": -1,"
				 " \"skipLocalWrite\": -1, \"skipLocalRead\": -1}}");
	kw_workspace ws = KW_WORKSPACE_INIT;
	kw_result res;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	assert_int_equal(kw_request_generate(&res, &ws, r, 0, &err), 0);
	assert_string_equal(res.type, "SWaitCnt");
	assert_int_equal(res.text_len, 0);
	/* kw_result documents a NUL-terminated text; regression: with a fresh
	 * workspace the empty text used to be an unset byte */
	assert_non_null(res.text);
	assert_int_equal(res.text[0], '\0');
	kw_workspace_free(&ws);
	kw_request_free(r);
}

static void test_limits(void **state)
{
	kw_limits lim = KW_LIMITS_INIT;
	kw_request *r;
	kw_error err = KW_ERROR_INIT;
	json_t *out = NULL;
	char big[600];

	(void)state;
	/* max_acc_len: refused with KW_ELIMIT before allocating the maps */
	{
		json_t *v = js("{\"isa\": \"gfx942\", \"generator\": \"accToArchMapper\", \"kernel\": {\"MatrixInstM\": 32,"
			       " \"MatrixInstN\": 32, \"MatrixInstBM\": 1, \"MatrixInstBN\": 1, \"WavefrontSize\": 64,"
			       " \"MIWaveTile\": [2147483647, 2147483647], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"SourceSwap\": false}}");
		assert_int_equal(kw_request_parse(&r, v, NULL, &err), 0);
		json_decref(v);
		assert_int_equal(kw_request_run(&out, r, &err), KW_ELIMIT);
		assert_string_equal(err.field, "kernel.MIWaveTile");
		kw_request_free(r);
	}
	lim.max_acc_len = 4;
	{
		json_t *v = js("{\"isa\": \"gfx942\", \"generator\": \"accToArchMapper\", \"kernel\": {\"MatrixInstM\": 16,"
			       " \"MatrixInstN\": 16, \"MatrixInstBM\": 1, \"MatrixInstBN\": 1, \"WavefrontSize\": 64,"
			       " \"MIWaveTile\": [2, 1], \"VectorWidthA\": 1, \"VectorWidthB\": 1, \"SourceSwap\": false}}");
		assert_int_equal(kw_request_parse(&r, v, &lim, &err), 0);
		json_decref(v);
		kw_error_clear(&err);
		assert_int_equal(kw_request_run(&out, r, &err), KW_ELIMIT);
		assert_non_null(strstr(err.message, "8"));
		kw_request_free(r);
	}

	/* max_generators */
	lim = (kw_limits)KW_LIMITS_INIT;
	lim.max_generators = 2;
	parse_bad_lim("{\"isa\": \"gfx942\", \"generators\": [\"syncThreads\", \"syncThreads\", \"syncThreads\"]}", &lim,
		      KW_ELIMIT, "generators", "limit");
	r = NULL;
	{
		json_t *v = js("{\"isa\": \"gfx942\", \"generators\": [\"syncThreads\", \"syncThreads\"]}");
		assert_int_equal(kw_request_parse(&r, v, &lim, &err), 0);
		json_decref(v);
		kw_request_free(r);
	}

	/* max_string_bytes */
	lim = (kw_limits)KW_LIMITS_INIT;
	lim.max_string_bytes = 500;
	memset(big, 'x', 501);
	big[501] = '\0';
	{
		char req[800];
		snprintf(req, sizeof(req), "{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"comment\": \"%s\"}}", big);
		parse_bad_lim(req, &lim, KW_ELIMIT, "args.comment", "limit");
		big[500] = '\0';
		snprintf(req, sizeof(req), "{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"comment\": \"%s\"}}", big);
		{
			json_t *v = js(req);
			assert_int_equal(kw_request_parse(&r, v, &lim, &err), 0);
			json_decref(v);
			kw_request_free(r);
		}
	}

	/* max_array_items */
	lim = (kw_limits)KW_LIMITS_INIT;
	lim.max_array_items = 2;
	parse_bad_lim("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"replaceHolder\": [1, 2, 3]}", &lim, KW_ELIMIT,
		      "replaceHolder", NULL);
	parse_bad_lim("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"args\": {\"memoryToken\": [1, 2, 3]}}", &lim,
		      KW_ELIMIT, "args.memoryToken", NULL);

	/* max_depth */
	lim = (kw_limits)KW_LIMITS_INIT;
	lim.max_depth = 3; /* the root object is level 1, every value one more */
	parse_bad_lim("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {\"x\": {\"y\": 1}}}", &lim, KW_ELIMIT, NULL,
		      "nests deeper");
	{
		json_t *v = js("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {\"x\": 1}}");
		assert_int_equal(kw_request_parse(&r, v, &lim, &err), 0);
		json_decref(v);
		kw_request_free(r);
	}
	/* the default depth bound */
	{
		char deep[200] = "{\"isa\": \"gfx942\", \"kernel\": ";
		size_t n = strlen(deep);
		for (int i = 0; i < 40; i++)
			deep[n++] = '[';
		for (int i = 0; i < 40; i++)
			deep[n++] = ']';
		deep[n++] = '}';
		deep[n] = '\0';
		parse_bad(deep, KW_ELIMIT, NULL, "32");
	}

	/* max_output_bytes */
	lim = (kw_limits)KW_LIMITS_INIT;
	lim.max_output_bytes = 10;
	{
		json_t *v = js("{\"isa\": \"gfx942\", \"generator\": \"syncThreads\", \"kernel\": {\"NumThreads\": 256, \"WavefrontSize\": 64,"
			       " \"_ScheduleIterAlg\": 2}}");
		assert_int_equal(kw_request_parse(&r, v, &lim, &err), 0);
		json_decref(v);
		assert_int_equal(kw_request_run(&out, r, &err), KW_ELIMIT);
		kw_request_free(r);
	}
}

static void test_generators_json(void **state)
{
	json_t *g = kw_generators_json();

	(void)state;
	assert_non_null(g);
	assert_int_equal(json_array_size(g), 10);
	assert_string_equal(json_string_value(json_object_get(json_array_get(g, 0), "name")), "tdmWait");
	assert_string_equal(json_string_value(json_object_get(json_array_get(g, 9), "name")), "moveMIoutToArch");
	json_decref(g);
	assert_non_null(kw_generator_version());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_an_object),
		cmocka_unit_test(test_field_errors),
		cmocka_unit_test(test_oracle_form),
		cmocka_unit_test(test_farm_form),
		cmocka_unit_test(test_default_generators),
		cmocka_unit_test(test_missing_key_reported_at_run),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_replace_holder),
		cmocka_unit_test(test_vgpr_msb_request),
		cmocka_unit_test(test_empty_slot_unsupported),
		cmocka_unit_test(test_empty_wait_text),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_generators_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
