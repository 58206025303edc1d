/*
 * test_kernel.c - the kernel dict, tPA/tPB and states from JSON
 * (kwgen/kernel.h): types, int32 bounds, MIWaveTile, fillDefaults,
 * kw_kernel_need naming the missing key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/datatype.h"
#include "kwgen/kernel.h"

#define BIT(k) (1ULL << (k))

static json_t *js(const char *text)
{
	json_error_t e;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &e);

	if (!v)
		fail_msg("bad test JSON %s: %s", text, e.text);
	return v;
}

static void parse_ok(kw_kernel *k, const char *text, int fill)
{
	kw_error err = KW_ERROR_INIT;
	json_t *v = text ? js(text) : NULL;
	int rc = kw_kernel_parse(k, v, fill, &err);

	json_decref(v);
	if (rc)
		fail_msg("kw_kernel_parse(%s): %s", text, err.message);
}

static void parse_bad(const char *text, const char *field, const char *msg_part)
{
	kw_kernel k;
	kw_error err = KW_ERROR_INIT;
	json_t *v = js(text);
	int rc = kw_kernel_parse(&k, v, 0, &err);

	json_decref(v);
	assert_int_equal(rc, KW_EINVAL);
	if (strcmp(err.field, field))
		fail_msg("%s: field \"%s\", want \"%s\" (%s)", text, err.field, field, err.message);
	if (msg_part && !strstr(err.message, msg_part))
		fail_msg("%s: message \"%s\" lacks \"%s\"", text, err.message, msg_part);
}

static void test_empty_and_null(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, NULL, 0);
	assert_int_equal(k.present, 0);
	parse_ok(&k, "null", 0);
	assert_int_equal(k.present, 0);
	parse_ok(&k, "{}", 0);
	assert_int_equal(k.present, 0);
	parse_ok(&k, "{\"SomethingElse\": [1, 2.5, \"x\"], \"ProblemType\": {\"Foo\": 1.5}}", 0);
	assert_int_equal(k.present, 0);
	parse_bad("[]", "kernel", NULL);
	parse_bad("5", "kernel", NULL);
	parse_bad("{\"ProblemType\": 3}", "kernel.ProblemType", NULL);
}

static void test_booleans(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, "{\"BufferLoad\": true, \"DirectToLdsA\": false, \"DirectToLdsB\": 1, \"SourceSwap\": 0,"
		     " \"MIArchVgpr\": 7, \"ProblemType\": {\"Sparse\": true, \"HighPrecisionAccumulate\": 0}}", 0);
	assert_int_equal(k.v[KK_BufferLoad], 1);
	assert_int_equal(k.v[KK_DirectToLdsA], 0);
	assert_int_equal(k.v[KK_DirectToLdsB], 1);
	assert_int_equal(k.v[KK_SourceSwap], 0);
	assert_int_equal(k.v[KK_MIArchVgpr], 1); /* truthiness */
	assert_int_equal(k.v[KK_Sparse], 1);
	assert_int_equal(k.v[KK_HighPrecisionAccumulate], 0);
	assert_true(k.present & BIT(KK_BufferLoad));
	assert_true(k.present & BIT(KK_HighPrecisionAccumulate));
	assert_false(k.present & BIT(KK_DirectToVgprA));
	parse_bad("{\"BufferLoad\": 1.0}", "kernel.BufferLoad", "boolean");
	parse_bad("{\"BufferLoad\": \"true\"}", "kernel.BufferLoad", "boolean");
	parse_bad("{\"BufferLoad\": null}", "kernel.BufferLoad", "boolean");
	parse_bad("{\"ProblemType\": {\"Sparse\": \"no\"}}", "kernel.ProblemType.Sparse", "boolean");
	parse_bad("{\"ProblemType\": {\"MXBlockA\": []}}", "kernel.ProblemType.MXBlockA", NULL);
}

static void test_integers(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, "{\"NumThreads\": 256, \"WavefrontSize\": 64, \"MatrixInstM\": 3,"
		     " \"PrefetchGlobalRead\": 2147483647, \"_ScheduleIterAlg\": 0}", 0);
	assert_int_equal(k.v[KK_NumThreads], 256);
	assert_int_equal(k.v[KK_WavefrontSize], 64);
	assert_int_equal(k.v[KK_MatrixInstM], 3);
	assert_int_equal(k.v[KK_PrefetchGlobalRead], 2147483647);
	assert_int_equal(k.v[KK__ScheduleIterAlg], 0);
	assert_int_equal(k.given_bool, 0);
	/* sizes are positive, counts non-negative */
	parse_bad("{\"MatrixInstM\": -3}", "kernel.MatrixInstM", "out of range");
	parse_bad("{\"VectorWidthA\": 0}", "kernel.VectorWidthA", "out of range");
	parse_bad("{\"MIWaveTile\": [4, -1]}", "kernel.MIWaveTile", "out of range");
	parse_bad("{\"NumLoadsCoalescedA\": -1}", "kernel.NumLoadsCoalescedA", "out of range");
	parse_bad("{\"_ScheduleIterAlg\": -2147483648}", "kernel._ScheduleIterAlg", "out of range");
	parse_bad("{\"MIRegPerOut\": false}", "kernel.MIRegPerOut", "out of range");
	/* ints given as booleans: Python reads True as 1 */
	parse_ok(&k, "{\"NumThreads\": true, \"PrefetchGlobalRead\": false}", 0);
	assert_int_equal(k.v[KK_NumThreads], 1);
	assert_int_equal(k.v[KK_PrefetchGlobalRead], 0);
	assert_true(k.given_bool & BIT(KK_NumThreads));
	assert_true(k.given_bool & BIT(KK_PrefetchGlobalRead));
	assert_true(k.present & BIT(KK_NumThreads));
	/* floats and strings are rejected, naming the key */
	parse_bad("{\"NumThreads\": 256.0}", "kernel.NumThreads", "float");
	parse_bad("{\"NumThreads\": \"256\"}", "kernel.NumThreads", "string");
	parse_bad("{\"MatrixInstM\": null}", "kernel.MatrixInstM", "null");
	parse_bad("{\"VectorWidthA\": {}}", "kernel.VectorWidthA", NULL);
	/* int32 bounds */
	parse_bad("{\"NumThreads\": 2147483648}", "kernel.NumThreads", "out of range");
	parse_bad("{\"NumThreads\": -2147483649}", "kernel.NumThreads", "out of range");
	parse_bad("{\"MatrixInstN\": 9223372036854775807}", "kernel.MatrixInstN", "out of range");
}

static void test_miwavetile(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, "{\"MIWaveTile\": [4, 2]}", 0);
	assert_true(k.present & BIT(KK_MIWaveTile));
	assert_int_equal(k.MIWaveTile[0], 4);
	assert_int_equal(k.MIWaveTile[1], 2);
	parse_bad("{\"MIWaveTile\": [4]}", "kernel.MIWaveTile", "two integers");
	parse_bad("{\"MIWaveTile\": [4, 2, 1]}", "kernel.MIWaveTile", "two integers");
	parse_bad("{\"MIWaveTile\": 4}", "kernel.MIWaveTile", "two integers");
	parse_bad("{\"MIWaveTile\": [4, 2.5]}", "kernel.MIWaveTile", NULL);
	parse_bad("{\"MIWaveTile\": [\"4\", 2]}", "kernel.MIWaveTile", NULL);
	parse_bad("{\"MIWaveTile\": [4, 4294967296]}", "kernel.MIWaveTile", "out of range");
}

static void test_datatypes(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, "{\"ProblemType\": {\"DataType\": \"Z\", \"ComputeDataType\": \"half\", \"DestDataType\": 0}}", 0);
	assert_int_equal(k.v[KK_DataType], KW_DT_ComplexDouble);
	assert_int_equal(k.v[KK_ComputeDataType], KW_DT_Half);
	parse_ok(&k, "{\"ProblemType\": {\"DataType\": 2, \"ComputeDataType\": null}}", 0);
	assert_int_equal(k.v[KK_DataType], KW_DT_ComplexFloat);
	assert_false(k.present & BIT(KK_ComputeDataType)); /* None: absent */
	parse_bad("{\"ProblemType\": {\"DataType\": \"Quad\"}}", "kernel.ProblemType.DataType", NULL);
	parse_bad("{\"ProblemType\": {\"ComputeDataType\": 1.0}}", "kernel.ProblemType.ComputeDataType", NULL);
	/* every other DataType key of ProblemType is validated too */
	parse_bad("{\"ProblemType\": {\"DestDataType\": \"nope\"}}", "kernel.ProblemType.DestDataType", NULL);
	parse_bad("{\"ProblemType\": {\"DataTypeA\": 99}}", "kernel.ProblemType.DataTypeA", NULL);
	/* a DataType at the top level of the kernel is not a ProblemType key */
	parse_ok(&k, "{\"DataType\": \"whatever\"}", 0);
	assert_false(k.present & BIT(KK_DataType));
}

static void test_fill_defaults(void **state)
{
	kw_kernel k;

	(void)state;
	parse_ok(&k, "{\"BufferLoad\": false, \"NumLoadsCoalescedA\": 4}", 1);
	assert_int_equal(k.v[KK_BufferLoad], 0); /* given values win */
	assert_int_equal(k.v[KK_NumLoadsCoalescedA], 4);
	assert_int_equal(k.v[KK_NumLoadsPerpendicularA], 1);
	assert_int_equal(k.v[KK_NumLoadsCoalescedB], 1);
	assert_int_equal(k.v[KK_NumLoadsPerpendicularMXSA], 0);
	assert_int_equal(k.v[KK_DirectToLdsA], 0);
	assert_int_equal(k.v[KK_DirectToVgprB], 0);
	assert_int_equal(k.v[KK__ScheduleIterAlg], 3);
	assert_int_equal(k.v[KK_PrefetchGlobalRead], 1);
	assert_int_equal(k.v[KK_EnableMatrixInstruction], 1);
	assert_int_equal(k.v[KK_MatrixInstBM], 1);
	assert_int_equal(k.v[KK_MatrixInstBN], 1);
	assert_int_equal(k.v[KK_SourceSwap], 0);
	assert_int_equal(k.v[KK_MIRegPerOut], 1);
	assert_int_equal(k.v[KK_MIArchVgpr], 0);
	/* no defaults for the shape or the thread count */
	assert_false(k.present & BIT(KK_NumThreads));
	assert_false(k.present & BIT(KK_WavefrontSize));
	assert_false(k.present & BIT(KK_MatrixInstM));
	assert_false(k.present & BIT(KK_MIWaveTile));
	assert_false(k.present & BIT(KK_DataType));
	/* ProblemType flags only when ProblemType is given */
	assert_false(k.present & BIT(KK_Sparse));
	parse_ok(&k, "{\"ProblemType\": {\"MXBlockB\": true}}", 1);
	assert_int_equal(k.v[KK_MXBlockA], 0);
	assert_int_equal(k.v[KK_MXBlockB], 1);
	assert_int_equal(k.v[KK_Sparse], 0);
	assert_int_equal(k.v[KK_HighPrecisionAccumulate], 0);
	/* without fillDefaults nothing is added */
	parse_ok(&k, "{\"ProblemType\": {}}", 0);
	assert_int_equal(k.present, 0);
}

static void test_need_and_get(void **state)
{
	kw_kernel k;
	kw_error err = KW_ERROR_INIT;
	int64_t v = 77;

	(void)state;
	parse_ok(&k, "{\"NumThreads\": 256}", 0);
	assert_int_equal(kw_kernel_need(&v, &k, KK_NumThreads, "syncThreads", &err), 0);
	assert_int_equal(v, 256);
	v = 77;
	assert_int_equal(kw_kernel_need(&v, &k, KK_WavefrontSize, "syncThreads", &err), KW_EINVAL);
	assert_int_equal(v, 77);
	assert_string_equal(err.field, "kernel.WavefrontSize");
	assert_non_null(strstr(err.message, "WavefrontSize"));
	assert_non_null(strstr(err.message, "syncThreads"));
	kw_error_clear(&err);
	assert_int_equal(kw_kernel_need(&v, &k, KK_HighPrecisionAccumulate, "mulMIoutAlphaToArch", &err), KW_EINVAL);
	assert_string_equal(err.field, "kernel.ProblemType.HighPrecisionAccumulate");
	assert_int_equal(kw_kernel_need(&v, &k, KK_NumThreads, "x", NULL), 0);
	assert_int_equal(kw_kernel_need(&v, &k, KK_MatrixInstM, "x", NULL), KW_EINVAL);
	assert_int_equal(kw_kernel_get(&k, KK_NumThreads, 5), 256);
	assert_int_equal(kw_kernel_get(&k, KK_CompactLoopStore, 0), 0);
	assert_int_equal(kw_kernel_get(&k, KK_CompactLoopStore, 9), 9);
}

static void test_key_paths(void **state)
{
	(void)state;
	assert_string_equal(kw_kernel_key_path(KK_BufferLoad), "BufferLoad");
	assert_string_equal(kw_kernel_key_path(KK_DataType), "ProblemType.DataType");
	assert_string_equal(kw_kernel_key_path(KK_MXBlockB), "ProblemType.MXBlockB");
	assert_int_equal(kw_kernel_key_type(KK_MIWaveTile), KW_KT_PAIR);
	assert_int_equal(kw_kernel_key_type(KK_ComputeDataType), KW_KT_DTYPE);
	assert_int_equal(kw_kernel_key_type(KK_NumThreads), KW_KT_INT);
	assert_int_equal(kw_kernel_key_type(KK_SourceSwap), KW_KT_BOOL);
	assert_string_equal(kw_tpc_name(KW_TPC_nwcvpi), "nwcvpi");
	assert_string_equal(kw_states_name(KW_ST_numReadsPerIterMetadata), "numReadsPerIterMetadata");
}

static void test_kernel_to_json(void **state)
{
	kw_kernel k;
	json_t *o;
	char *s;

	(void)state;
	parse_ok(&k, "{\"NumThreads\": 256, \"BufferLoad\": 1, \"MIWaveTile\": [2, 1],"
		     " \"ProblemType\": {\"DataType\": \"S\"}}", 0);
	o = kw_kernel_to_json(&k, ~0ULL);
	s = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(s, "{\"BufferLoad\":true,\"MIWaveTile\":[2,1],\"NumThreads\":256,\"ProblemType\":{\"DataType\":0}}");
	free(s);
	json_decref(o);
	o = kw_kernel_to_json(&k, BIT(KK_NumThreads));
	s = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(s, "{\"NumThreads\":256}");
	free(s);
	json_decref(o);
}

static void tp_bad(const char *text, const char *field, const char *msg_part)
{
	kw_tp tp;
	kw_error err = KW_ERROR_INIT;
	json_t *v = js(text);
	int rc = kw_tp_parse(&tp, v, "tPA", &err);

	json_decref(v);
	assert_int_equal(rc, KW_EINVAL);
	if (strcmp(err.field, field))
		fail_msg("%s: field \"%s\", want \"%s\" (%s)", text, err.field, field, err.message);
	if (msg_part && !strstr(err.message, msg_part))
		fail_msg("%s: message \"%s\" lacks \"%s\"", text, err.message, msg_part);
}

static void test_tp(void **state)
{
	kw_tp tp;
	kw_error err = KW_ERROR_INIT;
	json_t *v;

	(void)state;
	assert_int_equal(kw_tp_parse(&tp, NULL, "tPA", &err), 0);
	assert_int_equal(tp.given, 0);
	v = js("{\"nrp\": 2, \"nrc\": 1, \"nwcv\": 4, \"nwpv\": 2, \"nwcvpi\": 2,"
	       " \"localReadInstruction\": {\"blockWidth\": 0.5}, \"is_sparse\": true,"
	       " \"tpsMetadata\": {\"nrp\": 1}, \"MX\": null, \"other\": \"ignored\"}");
	assert_int_equal(kw_tp_parse(&tp, v, "tPA", &err), 0);
	json_decref(v);
	assert_int_equal(tp.given, 1);
	assert_int_equal(tp.c.present, 0x1f);
	assert_int_equal(tp.c.v[KW_TPC_nrp], 2);
	assert_int_equal(tp.c.v[KW_TPC_nwcv], 4);
	assert_int_equal(tp.c.v[KW_TPC_nwcvpi], 2);
	assert_int_equal(tp.has_block_width, 1);
	assert_true(tp.block_width == 0.5);
	assert_int_equal(tp.has_is_sparse, 1);
	assert_int_equal(tp.is_sparse, 1);
	assert_int_equal(tp.has_tpsMetadata, 1);
	assert_int_equal(tp.tpsMetadata.present, 1);
	assert_int_equal(tp.has_MX, 1);
	assert_int_equal(tp.MX.is_null, 1);

	tp_bad("[1]", "tPA", NULL);
	tp_bad("{\"nrp\": 1.5}", "tPA.nrp", "float");
	tp_bad("{\"nwcvpi\": \"2\"}", "tPA.nwcvpi", "string");
	tp_bad("{\"nrc\": 4294967296}", "tPA.nrc", "out of range");
	tp_bad("{\"localReadInstruction\": 6}", "tPA.localReadInstruction.blockWidth", NULL);
	tp_bad("{\"localReadInstruction\": {\"blockWidth\": \"6\"}}", "tPA.localReadInstruction.blockWidth", "number");
	tp_bad("{\"is_sparse\": \"yes\"}", "tPA.is_sparse", "boolean");
	tp_bad("{\"tpsMetadata\": {\"nrp\": true}}", "tPA.tpsMetadata.nrp", NULL);
	tp_bad("{\"MX\": {\"nwpv\": 1.0}}", "tPA.MX.nwpv", NULL);
	tp_bad("{\"MX\": 3}", "tPA.MX", NULL);
}

static void test_states(void **state)
{
	kw_states st;
	kw_error err = KW_ERROR_INIT;
	json_t *v;

	(void)state;
	assert_int_equal(kw_states_parse(&st, NULL, &err), 0);
	assert_int_equal(st.present, 0);
	v = js("{\"numReadsPerIterA\": 3, \"numReadsPerIterMetadata\": 0, \"x\": 1.5}");
	assert_int_equal(kw_states_parse(&st, v, &err), 0);
	json_decref(v);
	assert_int_equal(st.present, (1u << KW_ST_numReadsPerIterA) | (1u << KW_ST_numReadsPerIterMetadata));
	assert_int_equal(st.v[KW_ST_numReadsPerIterA], 3);
	v = js("{\"numReadsPerIterB\": 2.0}");
	assert_int_equal(kw_states_parse(&st, v, &err), KW_EINVAL);
	json_decref(v);
	assert_string_equal(err.field, "states.numReadsPerIterB");
	kw_error_clear(&err);
	v = js("[]");
	assert_int_equal(kw_states_parse(&st, v, &err), KW_EINVAL);
	json_decref(v);
	assert_string_equal(err.field, "states");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_null),
		cmocka_unit_test(test_booleans),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_miwavetile),
		cmocka_unit_test(test_datatypes),
		cmocka_unit_test(test_fill_defaults),
		cmocka_unit_test(test_need_and_get),
		cmocka_unit_test(test_key_paths),
		cmocka_unit_test(test_kernel_to_json),
		cmocka_unit_test(test_tp),
		cmocka_unit_test(test_states),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
