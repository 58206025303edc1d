/*
 * test_verify_atomic.c - kw_verify_opts.assume_atomic_counters: the value a
 * 32-bit s_atomic_dec / s_atomic_inc with glc returns lies in [0, data]
 * (Tensile's GSU synchronizer protocol), carried through the SGPR facts
 * (lib/verify/sfacts.c: result <= base + c mod 2^32).  Each pattern the
 * protocol rules out is pruned only with the option; each feasible twin
 * (another GSU, unknown data, u32 wrap-around) is reported with it too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

static kw_verify_result *run(const char *text, int assume)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = "gfx942";
	o.assume_atomic_counters = assume;
	return run_opts(text, &o);
}

/* The race at the read of v1 (v_mov_b32 v3, v1), or NULL. */
static const kw_verify_finding *race_at_read(const kw_verify_result *r)
{
	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		if (f->code == KW_VF_RACE_RAW && !strcmp(f->mnemonic, "v_mov_b32") && !strcmp(f->reg, "v1"))
			return f;
	}
	return NULL;
}

/* Tensile's GSU reduction: s50 = GSU; s51 = GSU - 1 is the data of the
 * synchronizer's s_atomic_dec, and only the workgroup that gets 1 back
 * (the last one) reduces.  GSKIP jumps past the wait (Tensile: when
 * s5 = GSU - 1 == 0).  DATA makes the data, ATOM is the atomic, T1 the
 * test of its result. */
#define GSU(DATA, ATOM, T1, GSKIP)                              \
	"k:\n"                                                  \
	"\ts_load_dword s50, s[0:1], 0x58\n"            /* 2 */ \
	"\ts_waitcnt lgkmcnt(0)\n"                              \
	"\ts_and_b32 s50, s50, 0xff\n"                          \
	DATA                                            /* 5 */ \
	ATOM                                            /* 6 */ \
	"\ts_waitcnt lgkmcnt(0)\n"                              \
	T1                                              /* 8 */ \
	"\ts_cbranch_scc0 .Ldone\n"                             \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 10 */ \
	"\ts_mov_b32 s5, s50\n"                                 \
	"\ts_sub_i32 s5, s5, 1\n"                               \
	GSKIP                                           /* 13 */ \
	"\ts_cbranch_scc1 .Lread\n"                             \
	"\ts_waitcnt vmcnt(0)\n"                                \
	".Lread:\n"                                             \
	"\tv_mov_b32 v3, v1\n"                          /* 17 */ \
	".Ldone:\n"                                             \
	"\ts_endpgm\n"

#define DEC "\ts_atomic_dec s51, s[24:25], 0x0 glc\n"
#define INC "\ts_atomic_inc s51, s[24:25], 0x0 glc\n"
#define SUB1 "\ts_sub_u32 s51, s50, 1\n"
#define IS1 "\ts_cmp_eq_u32 s51, 1\n"
#define S5IS0 "\ts_cmp_eq_i32 s5, 0\n"

static void check_case(const char *text, int without, int with, const char *what)
{
	kw_verify_result *r;

	r = run(text, 0);
	if ((race_at_read(r) != NULL) != without || races(r) != (uint64_t)without)
		fail_msg("%s: expected %d race(s) without --assume-atomic-counters, got %llu", what, without,
			 (unsigned long long)races(r));
	kw_verify_result_free(r);
	r = run(text, 1);
	if ((race_at_read(r) != NULL) != with || races(r) != (uint64_t)with)
		fail_msg("%s: expected %d race(s) with --assume-atomic-counters, got %llu", what, with,
			 (unsigned long long)races(r));
	kw_verify_result_free(r);
}

/* s51 == 1 needs GSU - 1 >= 1, GSU >= 2; the skip needs GSU == 1. */
static void test_protocol_pruned(void **state)
{
	(void)state;
	check_case(GSU(SUB1, DEC, IS1, S5IS0), 1, 0, "s_atomic_dec, GSU == 1 skip");
	check_case(GSU(SUB1, INC, IS1, S5IS0), 1, 0, "s_atomic_inc, GSU == 1 skip");
	/* the base tested directly, unsigned */
	check_case(GSU(SUB1, DEC, IS1, "\ts_cmp_eq_u32 s50, 1\n"), 1, 0, "s50 == 1 tested");
	/* a result larger than any data: GSU - 1 <= 254 */
	check_case(GSU(SUB1, DEC, "\ts_cmp_eq_u32 s51, 300\n", "\ts_cmp_eq_u32 s50, 3\n"), 1, 0,
		   "s51 == 300 above the data's range");
}

/* Paths the protocol allows stay reported with the option. */
static void test_feasible_twins(void **state)
{
	(void)state;
	/* GSU == 2: s51 == 1 is a value the counter can return */
	check_case(GSU(SUB1, DEC, IS1, "\ts_cmp_eq_i32 s5, 1\n"), 1, 1, "GSU == 2 skip");
	/* the result tested against 0: GSU == 1 gives 0 */
	check_case(GSU(SUB1, DEC, "\ts_cmp_eq_u32 s51, 0\n", S5IS0), 1, 1, "s51 == 0, GSU == 1");
	/* data unknown (not derived from s50): no bound on the result */
	check_case(GSU("\ts_load_dword s51, s[0:1], 0x60\n\ts_waitcnt lgkmcnt(0)\n", DEC, IS1, S5IS0), 1, 1,
		   "unknown data");
	/* without glc the atomic returns nothing and s51 is not its result */
	check_case(GSU(SUB1, "\ts_atomic_dec s51, s[24:25], 0x0\n", IS1, S5IS0), 1, 1, "no glc");
	/* the result overwritten before the test */
	check_case(GSU(SUB1, DEC "\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 s51, s60\n", IS1, S5IS0), 1, 1,
		   "result overwritten");
	/* the base overwritten after the atomic: the bound no longer holds */
	check_case(GSU(SUB1, DEC "\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 s50, s60\n", IS1, S5IS0), 1, 1,
		   "base overwritten");
}

/* u32 wrap-around: GSU == 0 makes the data GSU - 1 = 0xffffffff, so
 * s51 == 1 is possible; GSU + 1 wraps to 0 for GSU == 0xffffffff. */
static void test_wrap(void **state)
{
	static const char unmasked[] = "k:\n"
				       "\ts_load_dword s50, s[0:1], 0x58\n"
				       "\ts_waitcnt lgkmcnt(0)\n"
				       "\ts_add_u32 s51, s50, 1\n" /* 4 */
				       DEC
				       "\ts_waitcnt lgkmcnt(0)\n"
				       "\ts_cmp_eq_u32 s51, 1\n"
				       "\ts_cbranch_scc0 .Ldone\n"
				       "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
				       "\ts_cmp_eq_u32 s50, %s\n" /* 10 */
				       "\ts_cbranch_scc1 .Lread\n"
				       "\ts_waitcnt vmcnt(0)\n"
				       ".Lread:\n"
				       "\tv_mov_b32 v3, v1\n" /* 14 */
				       ".Ldone:\n"
				       "\ts_endpgm\n";
	char text[1024];
	kw_verify_result *r;

	(void)state;
	check_case(GSU(SUB1, DEC, IS1, "\ts_cmp_eq_u32 s50, 0\n"), 1, 1, "GSU == 0: data wraps to 0xffffffff");
	/* GSU = 0xffffffff: data = GSU + 1 = 0, the result is 0 */
	for (int k = 0; k < 2; k++) {
		snprintf(text, sizeof(text), unmasked, k ? "0xfffffffe" : "0xffffffff");
		r = run(text, 1);
		/* 0xfffffffe: data 0xffffffff, s51 == 1 possible */
		if (races(r) != (uint64_t)k)
			fail_msg("s50 == %s, data s50 + 1: expected %d race(s), got %llu",
				 k ? "0xfffffffe" : "0xffffffff", k, (unsigned long long)races(r));
		kw_verify_result_free(r);
		r = run(text, 0);
		assert_int_equal(races(r), 1);
		kw_verify_result_free(r);
	}
}

/* The base tested before the result: s5 == 0 gives GSU == 1, which
 * bounds the result by 0 before it is compared. */
static void test_base_first(void **state)
{
	static const char text[] = "k:\n"
				   "\ts_load_dword s50, s[0:1], 0x58\n"
				   "\ts_waitcnt lgkmcnt(0)\n"
				   "\ts_sub_u32 s51, s50, 1\n"
				   DEC
				   "\ts_waitcnt lgkmcnt(0)\n"
				   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
				   "\ts_mov_b32 s5, s50\n"
				   "\ts_sub_i32 s5, s5, 1\n"
				   "\ts_cmp_eq_i32 s5, 0\n"
				   "\ts_cbranch_scc0 .Lwait\n"
				   "\ts_cmp_eq_u32 s51, 1\n"
				   "\ts_cbranch_scc1 .Lread\n"
				   ".Lwait:\n"
				   "\ts_waitcnt vmcnt(0)\n"
				   ".Lread:\n"
				   "\tv_mov_b32 v3, v1\n"
				   "\ts_endpgm\n";
	kw_verify_result *r;

	(void)state;
	r = run(text, 0);
	assert_int_equal(races(r), 1);
	kw_verify_result_free(r);
	r = run(text, 1);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* Without the option the finding says which value its path hangs on and
 * what rules it out; with it, only what is assumed. */
static void test_message(void **state)
{
	static const char text[] = GSU(SUB1, DEC, IS1, "\ts_cmp_eq_i32 s5, 1\n");
	kw_verify_result *r;
	const kw_verify_finding *f;
	const char *m;

	(void)state;
	r = run(GSU(SUB1, DEC, IS1, S5IS0), 0);
	f = race_at_read(r);
	assert_non_null(f);
	m = strstr(f->message, "s51 is the value s_atomic_dec at line 6 returned");
	if (!m || !strstr(m, "--assume-atomic-counters"))
		fail_msg("message does not name the atomic and the option: %s", f->message);
	/* once */
	assert_null(strstr(m + 1, "s51 is the value"));
	kw_verify_result_free(r);
	r = run(text, 1);
	f = race_at_read(r);
	assert_non_null(f);
	if (!strstr(f->message, "s51 is the value s_atomic_dec at line 6 returned, assumed in [0, its data]"))
		fail_msg("message does not say what is assumed: %s", f->message);
	assert_null(strstr(f->message, "--assume-atomic-counters"));
	kw_verify_result_free(r);
	/* a race whose path does not test the value says nothing of it */
	r = run(GSU(SUB1, DEC, "\ts_cmp_eq_u32 s52, 1\n", S5IS0), 0);
	f = race_at_read(r);
	assert_non_null(f);
	assert_null(strstr(f->message, "s_atomic_dec"));
	kw_verify_result_free(r);
}

/* A verification as it streams in (code objects, .long words) takes the
 * option too. */
static void test_stream(void **state)
{
	static const char text[] = GSU(SUB1, DEC, IS1, S5IS0);

	(void)state;
	for (int assume = 0; assume < 2; assume++) {
		kw_verify_opts o = KW_VERIFY_OPTS_INIT;
		kw_verify_stream *st = NULL;
		kw_verify_result *r = NULL;
		kw_error err = KW_ERROR_INIT;

		o.isa = "gfx942";
		o.assume_atomic_counters = assume;
		assert_int_equal(kw_verify_stream_new(&st, &o, &err), 0);
		assert_int_equal(kw_verify_stream_feed(st, text, strlen(text), &err), 0);
		if (kw_verify_stream_finish(st, &r, &err))
			fail_msg("kw_verify_stream_finish: %s", err.message);
		assert_int_equal(races(r), assume ? 0 : 1);
		kw_verify_result_free(r);
		kw_verify_stream_free(st);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_protocol_pruned),
		cmocka_unit_test(test_feasible_twins),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_base_first),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
