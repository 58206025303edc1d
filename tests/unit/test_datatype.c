/*
 * test_datatype.c - Tensile DataType names, chars and parsing
 * (kwgen/datatype.h, rendering.md §13).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <string.h>

#include "kwgen/datatype.h"

static const struct {
	int v;
	const char *name, *chr;
} table[] = {
	{ 0, "Float", "S" }, { 1, "Double", "D" }, { 2, "ComplexFloat", "C" },
	{ 3, "ComplexDouble", "Z" }, { 4, "Half", "H" }, { 5, "Int8x4", "4xi8" },
	{ 6, "Int32", "I" }, { 7, "BFloat16", "B" }, { 8, "Int8", "I8" },
	{ 9, "Int64", "I64" }, { 10, "XFloat32", "X" },
	{ 11, "Float8_fnuz", "F8N" }, { 12, "BFloat8_fnuz", "B8N" },
	{ 13, "Float8BFloat8_fnuz", "F8B8N" }, { 14, "BFloat8Float8_fnuz", "B8F8N" },
	{ 15, "Float8", "F8" }, { 16, "BFloat8", "B8" }, { 17, "Float8BFloat8", "F8B8" },
	{ 18, "BFloat8Float8", "B8F8" },
	{ 19, "Float6", "F6" }, { 20, "BFloat6", "B6" }, { 21, "Float4", "F4" },
	{ 22, "E8M0", "E8M0" }, { 23, "E5M3", "E5M3" },
	{ 24, "Float8Float6", "F8F6" }, { 25, "Float8BFloat6", "F8B6" }, { 26, "Float8Float4", "F8F4" },
	{ 27, "BFloat8Float6", "B8F6" }, { 28, "BFloat8BFloat6", "B8B6" }, { 29, "BFloat8Float4", "B8F4" },
	{ 30, "Float6Float8", "F6F8" }, { 31, "Float6BFloat8", "F6B8" }, { 32, "Float6BFloat6", "F6B6" },
	{ 33, "Float6Float4", "F6F4" }, { 34, "BFloat6Float8", "B6F8" }, { 35, "BFloat6BFloat8", "B6B8" },
	{ 36, "BFloat6Float6", "B6F6" }, { 37, "BFloat6Float4", "B6F4" }, { 38, "Float4Float8", "F4F8" },
	{ 39, "Float4BFloat8", "F4B8" }, { 40, "Float4Float6", "F4F6" }, { 41, "Float4BFloat6", "F4B6" },
};
#define NT (sizeof(table) / sizeof(table[0]))

static int parse_json(int *out, json_t *v, kw_error *err)
{
	int rc = kw_datatype_parse(out, v, "kernel.ProblemType.DataType", err);
	json_decref(v);
	return rc;
}

static void test_enum_values(void **state)
{
	(void)state;
	assert_int_equal(NT, KW_DT_COUNT);
	assert_int_equal(KW_DT_Float, 0);
	assert_int_equal(KW_DT_Double, 1);
	assert_int_equal(KW_DT_ComplexFloat, 2);
	assert_int_equal(KW_DT_ComplexDouble, 3);
	assert_int_equal(KW_DT_Half, 4);
	assert_int_equal(KW_DT_Int8x4, 5);
	assert_int_equal(KW_DT_Int32, 6);
	assert_int_equal(KW_DT_BFloat16, 7);
	assert_int_equal(KW_DT_Int8, 8);
	assert_int_equal(KW_DT_Int64, 9);
	assert_int_equal(KW_DT_XFloat32, 10);
}

static void test_names_and_chars(void **state)
{
	(void)state;
	for (size_t i = 0; i < NT; i++) {
		assert_int_equal(table[i].v, (int)i);
		assert_string_equal(kw_datatype_name(table[i].v), table[i].name);
		assert_string_equal(kw_datatype_char(table[i].v), table[i].chr);
	}
	assert_null(kw_datatype_name(-1));
	assert_null(kw_datatype_name(42));
	assert_null(kw_datatype_char(-1));
	assert_null(kw_datatype_char(42));
}

static void test_parse_every_value(void **state)
{
	(void)state;
	for (size_t i = 0; i < NT; i++) {
		kw_error err = KW_ERROR_INIT;
		int dt = -1;

		assert_int_equal(parse_json(&dt, json_integer(table[i].v), &err), 0);
		assert_int_equal(dt, table[i].v);
		dt = -1;
		assert_int_equal(parse_json(&dt, json_string(table[i].name), &err), 0);
		assert_int_equal(dt, table[i].v);
		dt = -1;
		assert_int_equal(parse_json(&dt, json_string(table[i].chr), &err), 0);
		assert_int_equal(dt, table[i].v);
	}
}

static void test_case_insensitive(void **state)
{
	(void)state;
	for (size_t i = 0; i < NT; i++) {
		char up[40], lo[40], cl[16];
		kw_error err = KW_ERROR_INIT;
		int dt = -1;
		size_t n = strlen(table[i].name), j;

		for (j = 0; j <= n; j++) {
			up[j] = (char)toupper((unsigned char)table[i].name[j]);
			lo[j] = (char)tolower((unsigned char)table[i].name[j]);
		}
		for (j = 0; j <= strlen(table[i].chr); j++)
			cl[j] = (char)tolower((unsigned char)table[i].chr[j]);
		assert_int_equal(parse_json(&dt, json_string(up), &err), 0);
		assert_int_equal(dt, table[i].v);
		assert_int_equal(parse_json(&dt, json_string(lo), &err), 0);
		assert_int_equal(dt, table[i].v);
		assert_int_equal(parse_json(&dt, json_string(cl), &err), 0);
		assert_int_equal(dt, table[i].v);
	}
	{
		kw_error err = KW_ERROR_INIT;
		int dt = -1;
		assert_int_equal(parse_json(&dt, json_string("complexdouble"), &err), 0);
		assert_int_equal(dt, KW_DT_ComplexDouble);
		assert_int_equal(parse_json(&dt, json_string("z"), &err), 0);
		assert_int_equal(dt, KW_DT_ComplexDouble);
		assert_int_equal(parse_json(&dt, json_string("bFlOaT16"), &err), 0);
		assert_int_equal(dt, KW_DT_BFloat16);
	}
}

static void test_legacy_names(void **state)
{
	kw_error err = KW_ERROR_INIT;
	int dt = -1;

	(void)state;
	/* the oracle's convenience mapping (rendering.md §13) */
	assert_int_equal(parse_json(&dt, json_string("single"), &err), 0);
	assert_int_equal(dt, KW_DT_Float);
	assert_int_equal(parse_json(&dt, json_string("complexSingle"), &err), 0);
	assert_int_equal(dt, KW_DT_ComplexFloat);
	assert_int_equal(parse_json(&dt, json_string("SINGLE"), &err), 0);
	assert_int_equal(dt, KW_DT_Float);
}

static void test_predicates(void **state)
{
	(void)state;
	for (int i = 0; i < KW_DT_COUNT; i++)
		assert_int_equal(kw_dt_is_complex(i), i == 2 || i == 3);
}

static void expect_bad(json_t *v, const char *word)
{
	kw_error err = KW_ERROR_INIT;
	int dt = 1234;

	assert_int_equal(parse_json(&dt, v, &err), KW_EINVAL);
	assert_int_equal(err.code, KW_EINVAL);
	assert_string_equal(err.field, "kernel.ProblemType.DataType");
	assert_non_null(strstr(err.message, "kernel.ProblemType.DataType"));
	if (word)
		assert_non_null(strstr(err.message, word));
	assert_int_equal(dt, 1234); /* untouched */
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_bad(json_integer(-1), "out of range");
	expect_bad(json_integer(42), "out of range");
	expect_bad(json_integer(1000000), "out of range");
	expect_bad(json_string("Quad"), "Quad");
	expect_bad(json_string(""), NULL);
	expect_bad(json_string("Float "), NULL);
	expect_bad(json_string("SS"), NULL);
	expect_bad(json_real(0.0), "float");
	expect_bad(json_true(), "boolean");
	expect_bad(json_null(), "null");
	expect_bad(json_array(), NULL);
	expect_bad(json_object(), NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enum_values),
		cmocka_unit_test(test_names_and_chars),
		cmocka_unit_test(test_parse_every_value),
		cmocka_unit_test(test_case_insensitive),
		cmocka_unit_test(test_legacy_names),
		cmocka_unit_test(test_predicates),
		cmocka_unit_test(test_bad_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
