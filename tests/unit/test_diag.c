/*
 * test_diag.c - diagnostics collection (kwgen/diag.h): stable code names,
 * first message kept, occurrences counted, kw_diag_again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/diag.h"

static void test_code_names(void **state)
{
	(void)state;
	assert_string_equal(kw_diag_code_name(KW_DIAG_COUNT_CLAMPED), "count_clamped");
	assert_string_equal(kw_diag_code_name(KW_DIAG_COUNT_OUT_OF_RANGE), "count_out_of_range");
	assert_string_equal(kw_diag_code_name(KW_DIAG_VGPR_PAIR_MISALIGNED), "vgpr_pair_misaligned");
	assert_string_equal(kw_diag_code_name(KW_DIAG_AGPR_SPILL), "agpr_spill");
	assert_string_equal(kw_diag_code_name(KW_DIAG_REGISTER_OUT_OF_RANGE), "register_out_of_range");
	assert_string_equal(kw_diag_code_name(KW_DIAG_INSTRUCTION_NOT_ON_ISA), "instruction_not_on_isa");
	assert_string_equal(kw_diag_code_name(KW_DIAG_NCODES), "unknown");
}

static void test_first_message_kept(void **state)
{
	kw_diags d;

	(void)state;
	memset(&d, 0, sizeof(d));
	assert_int_equal(kw_diag_any(&d), 0);
	kw_diag_add(&d, KW_DIAG_COUNT_CLAMPED, "lgkmcnt %d requested, %d emitted", 40, 15);
	kw_diag_add(&d, KW_DIAG_COUNT_CLAMPED, "lgkmcnt %d requested, %d emitted", 99, 15);
	assert_int_equal(d.count[KW_DIAG_COUNT_CLAMPED], 2);
	assert_string_equal(d.message[KW_DIAG_COUNT_CLAMPED], "lgkmcnt 40 requested, 15 emitted");
	assert_int_equal(kw_diag_any(&d), 1);
	kw_diag_add(&d, KW_DIAG_AGPR_SPILL, "spill");
	assert_int_equal(kw_diag_any(&d), 2);
	/* out-of-range codes and a NULL sink are ignored */
	kw_diag_add(&d, KW_DIAG_NCODES, "x");
	kw_diag_add(NULL, KW_DIAG_AGPR_SPILL, "x");
	assert_int_equal(kw_diag_any(&d), 2);
}

static void test_again(void **state)
{
	kw_diags d;

	(void)state;
	memset(&d, 0, sizeof(d));
	assert_int_equal(kw_diag_again(&d, KW_DIAG_REGISTER_OUT_OF_RANGE), 0);
	assert_int_equal(d.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 0);
	kw_diag_add(&d, KW_DIAG_REGISTER_OUT_OF_RANGE, "v256");
	assert_int_equal(kw_diag_again(&d, KW_DIAG_REGISTER_OUT_OF_RANGE), 1);
	assert_int_equal(d.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 2);
	assert_string_equal(d.message[KW_DIAG_REGISTER_OUT_OF_RANGE], "v256");
	assert_int_equal(kw_diag_again(NULL, KW_DIAG_REGISTER_OUT_OF_RANGE), 1);
}

static void test_long_message_truncated(void **state)
{
	kw_diags d;
	char big[400];

	(void)state;
	memset(&d, 0, sizeof(d));
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kw_diag_add(&d, KW_DIAG_COUNT_CLAMPED, "%s", big);
	assert_int_equal(strlen(d.message[KW_DIAG_COUNT_CLAMPED]), sizeof(d.message[0]) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_names),
		cmocka_unit_test(test_first_message_kept),
		cmocka_unit_test(test_again),
		cmocka_unit_test(test_long_message_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
