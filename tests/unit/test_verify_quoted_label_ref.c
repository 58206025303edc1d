/*
 * A quoted label is the same symbol wherever a plain one is used: as a
 * branch target (`s_cbranch_scc0 "my loop"`, so the back edge is followed
 * and the race it carries is found), with a backslash-escaped quote and a
 * colon inside the quotes (`"a\"b:c":`), in .type / .amdhsa_kernel, and
 * as a GSU kernel's name (the atomic's note and --assume-atomic-counters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

/* v1 is read at line 2 before the load of line 3 reaches it on the
 * next trip round the loop: a race only along the back edge */
#define LOOP(DEF, REF)                                          \
	DEF ":\n"                                               \
	"\tv_mov_b32 v3, v1\n" /* line 2 */                     \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"         \
	"\ts_cbranch_scc0 " REF "\n"                            \
	"\ts_endpgm\n"

static void check_loop(const char *text)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;

	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 2), 1);
	kw_verify_result_free(r);
}

static void test_quoted_branch_target(void **state)
{
	(void)state;
	check_loop(LOOP("loop", "loop"));                     /* control */
	check_loop(LOOP("\"my loop\"", "\"my loop\""));
	check_loop(LOOP("\"loop\"", "loop"));                 /* "loop" is loop */
	check_loop(LOOP("\"a\\\"b:c\"", "\"a\\\"b:c\""));    /* escaped quote, colon */
}

/* A quoted kernel declared by .type and .amdhsa_kernel: one kernel, its
 * race found once, nothing unknown. */
static void test_quoted_declarations(void **state)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	const char *text = "\t.text\n"
			   "\t.type \"k.1\",@function\n"
			   "\"k.1\":\n"
			   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
			   "\tv_mov_b32 v3, v1\n" /* line 5 */
			   "\ts_endpgm\n"
			   "\t.amdhsa_kernel \"k.1\"\n"
			   "\t.end_amdhsa_kernel\n";

	(void)state;
	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	kw_verify_result_free(r);
}

/* Tensile's GSU synchronizer under a quoted kernel name: the race keeps
 * its note on the s_atomic_dec's value, and --assume-atomic-counters
 * rules it out, as under a plain name. */
static void test_quoted_gsu(void **state)
{
	static const char text[] = "\"k.1\":\n"
				   "\ts_load_dword s50, s[0:1], 0x58\n"
				   "\ts_waitcnt lgkmcnt(0)\n"
				   "\ts_sub_u32 s51, s50, 1\n"
				   "\ts_atomic_dec s51, s[24:25], 0x0 glc\n"
				   "\ts_waitcnt lgkmcnt(0)\n"
				   "\ts_cmp_eq_u32 s51, 1\n"
				   "\ts_cbranch_scc0 .Ldone\n"
				   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
				   "\ts_cmp_eq_u32 s50, 1\n"
				   "\ts_cbranch_scc1 .Lread\n"
				   "\ts_waitcnt vmcnt(0)\n"
				   ".Lread:\n"
				   "\tv_mov_b32 v3, v1\n" /* line 14 */
				   ".Ldone:\n"
				   "\ts_endpgm\n";
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;

	(void)state;
	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 14), 1);
	assert_non_null(strstr(first(r, KW_VF_RACE_RAW)->message, "s_atomic_dec at line 5 returned"));
	kw_verify_result_free(r);
	o.assume_atomic_counters = 1;
	r = run_opts(text, &o);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoted_branch_target),
		cmocka_unit_test(test_quoted_declarations),
		cmocka_unit_test(test_quoted_gsu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
