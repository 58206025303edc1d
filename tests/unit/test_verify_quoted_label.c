/*
 * Quoted symbol names (`"k.1":`, `"my kernel":`), which llvm-mc-22
 * assembles (LLVM quotes names holding characters outside
 * [A-Za-z0-9_.$]), are the same symbols as plain ones wherever those are
 * used: a label that starts a function (not read as an instruction: no
 * unknown_instruction, the kernel's race found once), a branch target
 * (`s_cbranch_scc0 "my loop"`: the back edge is followed and the race it
 * carries is found), with a backslash-escaped quote and a colon inside the
 * quotes (`"a\"b:c":`), in .type / .amdhsa_kernel, and as a GSU kernel's
 * name (the atomic's note and --assume-atomic-counters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

/* text on gfx942 has one race_raw, at line, and nothing unknown or
 * unsupported */
static void check_race(const char *text, uint32_t line)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;

	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, line), 1);
	kw_verify_result_free(r);
}

#define BODY(LABEL)                                             \
	LABEL ":\n"                                             \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"         \
	"\tv_mov_b32 v3, v1\n" /* line 3 */                     \
	"\ts_endpgm\n"

static void test_quoted_label(void **state)
{
	(void)state;
	check_race(BODY("k"), 3);            /* the plain label, as a control */
	check_race(BODY("\"k.1\""), 3);
	check_race(BODY("\"my kernel\""), 3);
}

/* v1 is read at line 2 before the load of line 3 reaches it on the
 * next trip round the loop: a race only along the back edge */
#define LOOP(DEF, REF)                                          \
	DEF ":\n"                                               \
	"\tv_mov_b32 v3, v1\n" /* line 2 */                     \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"         \
	"\ts_cbranch_scc0 " REF "\n"                            \
	"\ts_endpgm\n"

static void test_quoted_branch_target(void **state)
{
	(void)state;
	check_race(LOOP("loop", "loop"), 2);                     /* control */
	check_race(LOOP("\"my loop\"", "\"my loop\""), 2);
	check_race(LOOP("\"loop\"", "loop"), 2);                 /* "loop" is loop */
	check_race(LOOP("\"a\\\"b:c\"", "\"a\\\"b:c\""), 2);    /* escaped quote, colon */
}

/* A quoted kernel declared by .type and .amdhsa_kernel: one kernel, its
 * race found once, nothing unknown. */
static void test_quoted_declarations(void **state)
{
	(void)state;
	check_race("\t.text\n"
		   "\t.type \"k.1\",@function\n"
		   "\"k.1\":\n"
		   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
		   "\tv_mov_b32 v3, v1\n" /* line 5 */
		   "\ts_endpgm\n"
		   "\t.amdhsa_kernel \"k.1\"\n"
		   "\t.end_amdhsa_kernel\n",
		   5);
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
		cmocka_unit_test(test_quoted_label),
		cmocka_unit_test(test_quoted_branch_target),
		cmocka_unit_test(test_quoted_declarations),
		cmocka_unit_test(test_quoted_gsu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
