/*
 * test_verify_flow.c - the path-aware and interprocedural parts of the
 * wait-count verifier (kwgen/verify.h, lib/verify/flow.c, sfacts.c): SGPR
 * facts that rule branch edges out, s_swappc / s_setpc subroutines followed
 * with the caller's state and returning to their own site, redundant_wait
 * across calls, one `unsupported` per cause.  Each rule has a snippet that
 * must fire and a fixed twin that must not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/buf.h"
#include "kwgen/verify.h"
#include "verify_helpers.h"

static kw_verify_result *run(const char *text)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = "gfx942";
	return run_opts(text, &o);
}

/* ---- path facts (assembly text with labels) ---- */

/* The prefetch is issued only when s11 != 0; the branch to the read
 * without a wait is taken only when s11 == 0: that path does not exist.
 * MOD is inserted between the two tests (the twin overwrites s11). */
#define PREFETCH(MOD)                                   \
	"k:\n"                                          \
	"\ts_cmp_eq_u32 s11, 0\n"                       /* 2 */ \
	"\ts_cbranch_scc1 .Lskip\n"                     \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 4 */ \
	".Lskip:\n"                                     \
	MOD                                             /* 6 */ \
	"\ts_cmp_eq_u32 s11, 0\n"                       \
	"\ts_cbranch_scc0 .Lwait\n"                     \
	"\tv_mov_b32 v3, v1\n"                          /* 9 */ \
	"\ts_endpgm\n"                                  \
	".Lwait:\n"                                     \
	"\ts_waitcnt vmcnt(0)\n"                        \
	"\tv_mov_b32 v3, v1\n"                          \
	"\ts_endpgm\n"

static void test_infeasible_edge_pruned(void **state)
{
	kw_verify_result *r;

	(void)state;
	r = run(PREFETCH("\ts_nop 0\n"));
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* s11 rewritten from memory between the tests: the path is real */
	r = run(PREFETCH("\ts_load_dword s11, s[0:1], 0x0\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
	/* a write the model does not follow kills the fact too */
	r = run(PREFETCH("\tv_readfirstlane_b32 s11, v7\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
	/* a different register tested: nothing is known */
	r = run(PREFETCH("\ts_mov_b32 s11, s12\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
}

/* A VALU reading the tested SGPR as a source keeps its facts; one whose
 * second operand is a carry out (VOP3b) writes it. */
static void test_valu_sgpr_source(void **state)
{
	static const char *const reads[] = { "\tv_cvt_f32_u32_e32 v6, s11\n",
					     "\tv_mul_u32_u24_e64 v7, v6, s11\n",
					     "\tv_fma_f32 v6, s11, v2, v3\n",
					     "\tv_cmp_eq_u32_e64 s[20:21], v7, s11\n" };
	static const char *const writes[] = { "\tv_add_co_u32_e64 v6, s[10:11], v7, v8\n",
					      "\tv_addc_co_u32_e64 v6, s[10:11], v7, v8, vcc\n",
					      "\tv_mad_u64_u32 v[6:7], s[10:11], v8, v9, 0\n",
					      "\tv_div_scale_f32 v6, s[10:11], v7, v8, v7\n" };
	kw_verify_result *r;
	char text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		snprintf(text, sizeof(text), PREFETCH("%s"), reads[i]);
		r = run(text);
		if (races(r))
			fail_msg("%s: the fact on s11 was dropped", reads[i]);
		kw_verify_result_free(r);
	}
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
		snprintf(text, sizeof(text), PREFETCH("%s"), writes[i]);
		r = run(text);
		if (at(r, KW_VF_RACE_RAW, 9) != 1)
			fail_msg("%s writes s11: the race must be reported", writes[i]);
		kw_verify_result_free(r);
	}
}

/* s_cselect / s_cmov: the register holds one of the sources (both when
 * SCC is unknown, the chosen one when it is decided).  SEL sets s5; the
 * read without a wait is reached only when s5 == 0. */
#define SELECT(SEL)                                     \
	"k:\n"                                          \
	SEL                                             /* 2-4 */ \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" \
	"\ts_cmp_eq_u32 s5, 0\n"                        \
	"\ts_cbranch_scc0 .Lwait\n"                     \
	"\tv_mov_b32 v3, v1\n"                          /* 8 */ \
	"\ts_endpgm\n"                                  \
	".Lwait:\n"                                     \
	"\ts_waitcnt vmcnt(0)\n"                        \
	"\tv_mov_b32 v3, v1\n"                          \
	"\ts_endpgm\n"

static void test_select(void **state)
{
	static const char *const never_zero[] = {
		"\ts_cmp_eq_u32 s61, s62\n\ts_cselect_b32 s5, 1, 2\n\ts_nop 0\n",
		"\ts_and_b32 s9, s9, 3\n\ts_cmp_eq_u32 s9, 0\n\ts_cselect_b32 s5, 4, s9\n",
		"\ts_mov_b32 s6, 0\n\ts_cmp_eq_u32 s6, 0\n\ts_cselect_b32 s5, 1, 0\n",
		"\ts_mov_b32 s5, 1\n\ts_cmp_eq_u32 s61, s62\n\ts_cmov_b32 s5, 2\n",
		"\ts_mov_b32 s5, 1\n\ts_cmp_lg_u32 s5, 1\n\ts_cmov_b32 s5, 0\n",
	};
	static const char *const maybe_zero[] = {
		"\ts_cmp_eq_u32 s61, s62\n\ts_cselect_b32 s5, 0, 2\n\ts_nop 0\n",
		"\ts_and_b32 s9, s9, 3\n\ts_cmp_eq_u32 s61, 0\n\ts_cselect_b32 s5, 4, s9\n",
		"\ts_mov_b32 s6, 0\n\ts_cmp_eq_u32 s6, 0\n\ts_cselect_b32 s5, 0, 1\n",
		"\ts_mov_b32 s5, 1\n\ts_cmp_eq_u32 s61, s62\n\ts_cmov_b32 s5, 0\n",
		"\ts_mov_b32 s5, 1\n\ts_cmp_eq_u32 s5, 1\n\ts_cmovk_i32 s5, 0x0\n",
	};
	kw_verify_result *r;
	char text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(never_zero) / sizeof(never_zero[0]); i++) {
		snprintf(text, sizeof(text), SELECT("%s"), never_zero[i]);
		r = run(text);
		if (races(r))
			fail_msg("%s: s5 is never 0, the path does not exist", never_zero[i]);
		kw_verify_result_free(r);
	}
	for (size_t i = 0; i < sizeof(maybe_zero) / sizeof(maybe_zero[0]); i++) {
		snprintf(text, sizeof(text), SELECT("%s"), maybe_zero[i]);
		r = run(text);
		if (at(r, KW_VF_RACE_RAW, 8) != 1)
			fail_msg("%s: s5 may be 0, the race must be reported", maybe_zero[i]);
		kw_verify_result_free(r);
	}
}

/* A counter derived from the tested register by s_sub / s_lshr by a
 * constant: the second test decides through the relation. */
#define DERIVED(DERIVE, TEST)                           \
	"k:\n"                                          \
	"\ts_cmp_eq_u32 s50, 1\n"                       /* 2 */ \
	"\ts_cbranch_scc1 .Lone\n"                      \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 4 */ \
	".Lone:\n"                                      \
	DERIVE                                          /* 6 */ \
	TEST                                            /* 7 */ \
	"\ts_cbranch_scc0 .Lwait\n"                     \
	"\tv_mov_b32 v3, v1\n"                          /* 9 */ \
	"\ts_endpgm\n"                                  \
	".Lwait:\n"                                     \
	"\ts_waitcnt vmcnt(0)\n"                        \
	"\tv_mov_b32 v3, v1\n"                          \
	"\ts_endpgm\n"

static void test_derived_counter(void **state)
{
	kw_verify_result *r;

	(void)state;
	/* s5 = s50 - 1; s5 == 0 only when s50 == 1: the load was skipped */
	r = run(DERIVED("\ts_sub_u32 s5, s50, 1\n", "\ts_cmp_eq_u32 s5, 0\n"));
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* s5 = s50 >> 1 is 0 for s50 == 0 too, where the load was issued */
	r = run(DERIVED("\ts_lshr_b32 s5, s50, 1\n", "\ts_cmp_eq_u32 s5, 0\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
	/* s5 = s50 - 2 == 0 means s50 == 2: the load was issued */
	r = run(DERIVED("\ts_sub_u32 s5, s50, 2\n", "\ts_cmp_eq_u32 s5, 0\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
	/* the same register compared again with a signed test */
	r = run(DERIVED("\ts_nop 0\n", "\ts_cmp_lt_i32 s50, 2\n"));
	/* s50 < 2 (signed) holds for s50 == 0 and negatives too: real */
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	kw_verify_result_free(r);
	r = run(DERIVED("\ts_nop 0\n", "\ts_cmp_eq_u32 s50, 1\n"));
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* s_cbranch_vccz / vccnz after a v_cmp_*_e64 of SGPRs or constants: the
 * compare is the same in every lane, so VCC != 0 means it held (VCC == 0
 * may also be an empty EXEC: that edge says nothing).  The load is issued
 * only when s11 != 0; BR jumps to the read without a wait. */
#define VCC(CMP, MID, BR)                               \
	"k:\n"                                          \
	"\ts_cmp_eq_u32 s11, 0\n"                       \
	"\ts_cbranch_scc1 .Lskip\n"                     \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" \
	".Lskip:\n"                                     \
	CMP MID BR                                      /* 6-8 */ \
	"\ts_waitcnt vmcnt(0)\n"                        \
	".Lread:\n"                                     \
	"\tv_mov_b32 v3, v1\n"                          /* 11 */ \
	"\ts_endpgm\n"

static void test_vcc_branch(void **state)
{
	static const char *const cases[][4] = {
		/* CMP, MID, BR, races at 11 */
		{ "\tv_cmp_eq_u32_e64 vcc, s11, 0\n", "\ts_nop 0\n", "\ts_cbranch_vccnz .Lread\n", "0" },
		{ "\tv_cmp_gt_u32_e64 vcc, 1, s11\n", "\ts_nop 0\n", "\ts_cbranch_vccnz .Lread\n", "0" },
		{ "\tv_cmp_ne_u32_e64 vcc, s11, 0\n", "\ts_nop 0\n", "\ts_cbranch_vccz .Lread\n", "1" },
		{ "\tv_cmp_eq_u32_e64 vcc, s12, 0\n", "\ts_nop 0\n", "\ts_cbranch_vccnz .Lread\n", "1" },
		{ "\tv_cmp_eq_u32_e64 vcc, s11, 0\n", "\tv_cmp_lt_u32_e32 vcc, v5, v6\n",
		  "\ts_cbranch_vccnz .Lread\n", "1" },
		/* decided when VCC was written: s11 changing after it does not matter */
		{ "\tv_cmp_eq_u32_e64 vcc, s11, 0\n", "\ts_mov_b32 s11, 0\n", "\ts_cbranch_vccnz .Lread\n",
		  "0" },
		{ "\ts_mov_b32 s11, s12\n\tv_cmp_eq_u32_e64 vcc, s11, 0\n", "",
		  "\ts_cbranch_vccnz .Lread\n", "1" },
		{ "\tv_cmp_eq_u32_e64 vcc, s11, 0\n", "\ts_and_b64 vcc, vcc, s[20:21]\n",
		  "\ts_cbranch_vccnz .Lread\n", "1" },
	};
	kw_verify_result *r;
	char text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), VCC("%s", "%s", "%s"), cases[i][0], cases[i][1], cases[i][2]);
		r = run(text);
		if (at(r, KW_VF_RACE_RAW, 11) != atoi(cases[i][3]) || races(r) != (uint64_t)atoi(cases[i][3]))
			fail_msg("%s%s%s: expected %s race(s) at line 11", cases[i][0], cases[i][1],
				 cases[i][2], cases[i][3]);
		kw_verify_result_free(r);
	}
}

/* The count a finding asks for is the one its fix needs: ops issued
 * after the last wait do not count for that wait. */
static void test_fix_at_last_wait(void **state)
{
	static const char text[] = "k:\n"
				   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
				   "\tbuffer_load_dword v0, v2, s[4:7], 0 offen\n" /* 3 */
				   "\tbuffer_load_dword v5, v2, s[4:7], 0 offen\n"
				   "\ts_waitcnt vmcnt(2)\n"                         /* 1 younger than line 3 */
				   "\tbuffer_load_dword v6, v2, s[4:7], 0 offen\n"
				   "\tv_mov_b32 v8, v0\n"                           /* 7 */
				   "\ts_endpgm\n";
	kw_verify_result *r = run(text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 7), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->producer_line, 3);
	assert_int_equal(f->needed, 1);
	assert_int_equal(f->have, 2);
	assert_non_null(strstr(f->message, "use vmcnt(1) in the last wait"));
	kw_verify_result_free(r);
}

/* A read of registers written by two loads still in flight names the one
 * needing the smaller count: its fix covers the other. */
static void test_most_demanding_producer(void **state)
{
	static const char text[] = "k:\n"
				   "\tbuffer_load_dword v0, v2, s[4:7], 0 offen\n" /* 2: needs vmcnt(2) */
				   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 3: needs vmcnt(1) */
				   "\tbuffer_load_dword v5, v2, s[4:7], 0 offen\n"
				   "\ts_waitcnt vmcnt(3)\n"
				   "\tbuffer_load_dword v6, v2, s[4:7], 0 offen\n"
				   "\tv_add_f64 v[8:9], v[0:1], v[0:1]\n"          /* 7 */
				   "\ts_endpgm\n";
	kw_verify_result *r = run(text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 7), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->producer_line, 3);
	assert_int_equal(f->needed, 1);
	kw_verify_result_free(r);
}

/* One producer reaching a read on two path partitions with different
 * counts after it: the finding takes the path needing the smaller count
 * (its fix covers both), whichever partition the analysis met first. */
static void test_tightest_path(void **state)
{
	static const char text[] = "k:\n"
				   "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 2 */
				   "\ts_cmp_eq_u32 s11, 0\n"
				   "\ts_cbranch_scc1 .Lz\n"
				   "\tbuffer_load_dword v5, v2, s[4:7], 0 offen\n"
				   "\tbuffer_load_dword v6, v2, s[4:7], 0 offen\n"
				   ".Lj:\n"
				   "\ts_waitcnt vmcnt(3)\n"
				   "\tv_mov_b32 v3, v1\n"                           /* 9 */
				   "\ts_cmp_eq_u32 s11, 0\n"
				   "\ts_cbranch_scc1 .Le\n"
				   "\ts_nop 0\n"
				   ".Le:\n"
				   "\ts_endpgm\n"
				   ".Lz:\n"
				   "\ts_branch .Lj\n";
	kw_verify_result *r = run(text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->producer_line, 2);
	assert_int_equal(f->needed, 0);
	assert_non_null(strstr(f->message, "use vmcnt(0)"));
	assert_non_null(strstr(f->message, "s11 == 0"));
	kw_verify_result_free(r);
}

/* A loop whose counter changes every trip: the analysis still settles
 * (widening) and keeps the real race of the last trip. */
static void test_loop_settles(void **state)
{
	static const char *text =
		"k:\n"
		"\ts_mov_b32 s11, 0\n"
		".Lloop:\n"
		"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" /* 4 */
		"\ts_add_u32 s11, s11, 1\n"
		"\ts_cmp_lt_u32 s11, s12\n"
		"\ts_cbranch_scc1 .Lloop\n"
		"\tv_mov_b32 v3, v1\n" /* 8 */
		"\ts_endpgm\n";
	kw_verify_result *r = run(text);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 8), 1);
	kw_verify_result_free(r);
}

/* ---- calls (llvm-objdump form: targets are addresses) ---- */

#define HDR "\nt.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n"

/* A subroutine reached by s_swappc through s_getpc + s_add: it waits for
 * nothing (WAIT is s_nop 0) or for the caller's load (s_waitcnt vmcnt(0)). */
#define CALL1(WAIT)                                                                           \
	HDR                                                                                   \
	"0000000000000000 <k_call>:\n"                                                        \
	"\ts_getpc_b64 s[58:59]                  // 000000000000: BEBA1C00\n"             /* 7 */ \
	"\ts_add_i32 s5, 0x20, 4                 // 000000000004: 810584FF 00000020\n"   \
	"\ts_add_u32 s58, s58, s5                // 00000000000C: 803A053A\n"             \
	"\ts_addc_u32 s59, s59, 0                // 000000000010: 823B803B\n"             \
	"\tbuffer_load_dword v1, v2, s[48:51], 0 offen // 000000000014: E0501000 800C0102\n" /* 11 */ \
	"\ts_swappc_b64 s[68:69], s[58:59]       // 00000000001C: BEC41E3A\n"             \
	"\tv_mov_b32_e32 v3, v1                  // 000000000020: 7E060301\n"             /* 13 */ \
	"\ts_endpgm                              // 000000000024: BF810000\n"             \
	"\t" WAIT "                              // 000000000028: BF8C0F70\n"             /* 15 */ \
	"\tv_mov_b32_e32 v4, v5                  // 00000000002C: 7E080305\n"             \
	"\ts_setpc_b64 s[68:69]                  // 000000000030: BE801D44\n"

static void test_call_followed(void **state)
{
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	/* the callee does not wait: the read after the call races */
	r = run(CALL1("s_nop 0"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 13), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	kw_verify_result_free(r);
	/* the callee waits: clean, and its wait is needed */
	r = run(CALL1("s_waitcnt vmcnt(0)"));
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	kw_verify_result_free(r);
	/* the callee's wait inside the subroutine sees the caller's state:
	 * without the load it waits for nothing */
	r = run(HDR "0000000000000000 <k_call>:\n"
		"\ts_getpc_b64 s[58:59]                  // 000000000000: BEBA1C00\n"
		"\ts_add_i32 s5, 0x20, 4                 // 000000000004: 810584FF 00000020\n"
		"\ts_add_u32 s58, s58, s5                // 00000000000C: 803A053A\n"
		"\ts_addc_u32 s59, s59, 0                // 000000000010: 823B803B\n"
		"\ts_nop 0                               // 000000000014: BF800000\n"
		"\ts_nop 0                               // 000000000018: BF800000\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 00000000001C: BEC41E3A\n"
		"\tv_mov_b32_e32 v3, v1                  // 000000000020: 7E060301\n"
		"\ts_endpgm                              // 000000000024: BF810000\n"
		"\ts_waitcnt vmcnt(0)                    // 000000000028: BF8C0F70\n" /* 16 */
		"\tv_mov_b32_e32 v4, v5                  // 00000000002C: 7E080305\n"
		"\ts_setpc_b64 s[68:69]                  // 000000000030: BE801D44\n");
	assert_int_equal(at(r, KW_VF_REDUNDANT_WAIT, 16), 1);
	f = first(r, KW_VF_REDUNDANT_WAIT);
	assert_non_null(f);
	kw_verify_result_free(r);
}

/* A wait after a call that waits for nothing by itself is not redundant
 * (the old model took s_swappc as a full wait). */
static void test_wait_after_call_needed(void **state)
{
	static const char *text =
		HDR "0000000000000000 <k_call>:\n"
		"\ts_getpc_b64 s[58:59]                  // 000000000000: BEBA1C00\n"
		"\ts_add_i32 s5, 0x24, 4                 // 000000000004: 810584FF 00000024\n"
		"\ts_add_u32 s58, s58, s5                // 00000000000C: 803A053A\n"
		"\ts_addc_u32 s59, s59, 0                // 000000000010: 823B803B\n"
		"\tbuffer_load_dword v1, v2, s[48:51], 0 offen // 000000000014: E0501000 800C0102\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 00000000001C: BEC41E3A\n"
		"\ts_waitcnt vmcnt(0)                    // 000000000020: BF8C0F70\n" /* 13 */
		"\tv_mov_b32_e32 v3, v1                  // 000000000024: 7E060301\n"
		"\ts_endpgm                              // 000000000028: BF810000\n"
		"\tv_mov_b32_e32 v4, v5                  // 00000000002C: 7E080305\n"
		"\ts_setpc_b64 s[68:69]                  // 000000000030: BE801D44\n";
	kw_verify_result *r = run(text);

	(void)state;
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
}

/* Two sites call one subroutine; the first has a load in flight and waits
 * after the call, the second has none.  A return that went to every site
 * would carry the first site's load to the second. */
static void test_return_to_own_site(void **state)
{
	static const char *text =
		HDR "0000000000000000 <k_two>:\n"
		"\ts_getpc_b64 s[58:59]                  // 000000000000: BEBA1C00\n"
		"\ts_add_i32 s5, 0x2c, 4                 // 000000000004: 810584FF 0000002C\n"
		"\ts_add_u32 s58, s58, s5                // 00000000000C: 803A053A\n"
		"\ts_addc_u32 s59, s59, 0                // 000000000010: 823B803B\n"
		"\tbuffer_load_dword v1, v2, s[48:51], 0 offen // 000000000014: E0501000 800C0102\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 00000000001C: BEC41E3A\n"
		"\ts_waitcnt vmcnt(0)                    // 000000000020: BF8C0F70\n"
		"\tv_mov_b32_e32 v3, v1                  // 000000000024: 7E060301\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 000000000028: BEC41E3A\n"
		"\tv_mov_b32_e32 v6, v1                  // 00000000002C: 7E0C0301\n" /* 16 */
		"\ts_endpgm                              // 000000000030: BF810000\n"
		"\tv_mov_b32_e32 v4, v5                  // 000000000034: 7E080305\n"
		"\ts_setpc_b64 s[68:69]                  // 000000000038: BE801D44\n";
	kw_verify_result *r = run(text);

	(void)state;
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	kw_verify_result_free(r);
}

/* Calls whose target comes from memory: one `unsupported` for the cause,
 * not one per site; the calling convention is assumed (no race). */
static void test_unknown_call_once(void **state)
{
	static const char *text =
		HDR "0000000000000000 <k_ind>:\n"
		"\ts_load_dwordx2 s[58:59], s[0:1], 0x0  // 000000000000: C0060E80 00000000\n"
		"\tbuffer_load_dword v1, v2, s[48:51], 0 offen // 000000000008: E0501000 800C0102\n"
		"\ts_waitcnt lgkmcnt(0)                  // 000000000010: BF8CC07F\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 000000000014: BEC41E3A\n" /* 10 */
		"\tv_mov_b32_e32 v3, v1                  // 000000000018: 7E060301\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 00000000001C: BEC41E3A\n"
		"\ts_swappc_b64 s[68:69], s[58:59]       // 000000000020: BEC41E3A\n"
		"\ts_endpgm                              // 000000000024: BF810000\n";
	kw_verify_result *r = run(text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 1);
	f = first(r, KW_VF_UNSUPPORTED);
	assert_non_null(f);
	assert_int_equal(f->line, 10);
	assert_non_null(strstr(f->message, "2 more sites"));
	kw_verify_result_free(r);
}


/* An LDS read left in flight by a partial lgkmcnt wait and used 32 or more
 * instructions later: a schedule relying on LDS latency, lds_latency
 * (a warning); used soon after, or with no wait at all since the read (a
 * skipped wait), race_raw (an error). */
static void test_lds_latency(void **state)
{
	char text[4096];
	size_t q = 0;
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	q += (size_t)snprintf(text + q, sizeof(text) - q,
			      "k:\n\tds_read_b64 v[100:101], v36\n\tds_read_b64 v[34:35], v36 offset:8\n"
			      "\ts_waitcnt lgkmcnt(1)\n");
	/* 40 instructions in between, 5 of them MFMAs hiding the latency */
	for (int i = 0; i < 40; i++)
		q += (size_t)snprintf(text + q, sizeof(text) - q,
				      i % 8 ? "\tv_add_f32 v%d, v1, v2\n"
					    : "\tv_mfma_f32_16x16x16_f16 a[4:7], v[16:17], v[18:19], a[4:7] // %d\n",
				      40 + i);
	q += (size_t)snprintf(text + q, sizeof(text) - q,
			      "\tv_mfma_f32_16x16x16_f16 a[0:3], v[34:35], v[16:17], a[0:3]\n" /* 45 */
			      "\ts_endpgm\n");
	r = run(text);
	assert_int_equal(at(r, KW_VF_LDS_LATENCY, 45), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 0);
	assert_int_equal(kw_verify_result_errors(r), 0);
	f = first(r, KW_VF_LDS_LATENCY);
	assert_int_equal(f->severity, KW_VS_WARNING);
	assert_true(kw_verify_code_is_race(f->code));
	assert_non_null(strstr(f->message, "relies on LDS latency"));
	assert_non_null(strstr(f->message, "allow lds_latency"));
	kw_verify_result_free(r);
	/* suppression files written for kwgen-verify-6 name it race_lds_latency */
	for (int old = 0; old < 2; old++) {
		kw_verify_opts o = KW_VERIFY_OPTS_INIT;
		kw_error err = KW_ERROR_INIT;
		o.isa = "gfx942";
		o.suppressions = old ? "race_lds_latency line=45\n" : "lds_latency line=45\n";
		assert_int_equal(kw_verify_text(&r, text, strlen(text), &o, &err), 0);
		assert_int_equal(kw_verify_result_total(r, KW_VF_LDS_LATENCY), 0);
		assert_int_equal(kw_verify_result_suppressed(r), 1);
		kw_verify_result_free(r);
	}
	/* the same distance with no matrix op in between (a relaxed count in
	 * compiler output): race_raw */
	{
		char *t2 = strdup(text), *m;
		assert_non_null(t2);
		while ((m = strstr(t2, "\tv_mfma_f32_16x16x16_f16 a[4:7]")) != NULL)
			memcpy(m, "\tv_add_f32 v1, v1, v2 //       ", 31);
		r = run(t2);
		assert_int_equal(at(r, KW_VF_RACE_RAW, 45), 1);
		assert_int_equal(kw_verify_result_total(r, KW_VF_LDS_LATENCY), 0);
		kw_verify_result_free(r);
		free(t2);
	}
	/* no wait at all since the read: a skipped wait, race_raw */
	memcpy(strstr(text, "\ts_waitcnt lgkmcnt(1)"), "\ts_nop 0             ", 21);
	r = run(text);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 45), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_LDS_LATENCY), 0);
	kw_verify_result_free(r);
	/* the same read used right away: an error */
	r = run("k:\n\tds_read_b64 v[34:35], v36\n"
		"\tv_mfma_f32_16x16x16_f16 a[0:3], v[34:35], v[16:17], a[0:3]\n\ts_endpgm\n");
	assert_int_equal(at(r, KW_VF_RACE_RAW, 3), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_LDS_LATENCY), 0);
	kw_verify_result_free(r);
	/* with the wait: clean */
	r = run("k:\n\tds_read_b64 v[34:35], v36\n\ts_waitcnt lgkmcnt(0)\n"
		"\tv_mfma_f32_16x16x16_f16 a[0:3], v[34:35], v[16:17], a[0:3]\n\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* s_cbranch_execz / execnz are decided where EXEC is known: a kernel
 * starts with a lane on, s_mov_b64 exec, IMM sets it; v_cmpx or
 * anything else naming exec makes it unknown (both edges). */
static void test_exec_branch(void **state)
{
	static const char *const pre[] = {
		"",                            /* entry: EXEC != 0, never taken */
		"\ts_mov_b64 exec, -1\n",      /* set not zero */
		"\tv_cmpx_eq_u32_e32 v5, v6\n", /* per lane: unknown */
		"\ts_mov_b64 exec, 0\n",       /* zero: always taken */
		"\ts_and_saveexec_b64 s[8:9], vcc\n",
	};
	static const int races_expected[] = { 0, 0, 1, 1, 1 };
	char text[512];
	kw_verify_result *r;

	(void)state;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		snprintf(text, sizeof(text),
			 "k:\n\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n%s"
			 "\ts_cbranch_execz .Lout\n\ts_waitcnt vmcnt(0)\n.Lout:\n\tv_mov_b32 v3, v1\n\ts_endpgm\n",
			 pre[i]);
		r = run(text);
		if (races(r) != (uint64_t)races_expected[i])
			fail_msg("case %zu (%s): %d races, expected %d", i, pre[i], (int)races(r), races_expected[i]);
		kw_verify_result_free(r);
	}
	/* execnz at entry: always taken, the read on the fall-through never runs */
	r = run("k:\n\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n\ts_cbranch_execnz .Lw\n"
		"\tv_mov_b32 v3, v1\n.Lw:\n\ts_waitcnt vmcnt(0)\n\tv_mov_b32 v3, v1\n\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* a callable function may be entered with any EXEC: both edges */
	r = run(".text\n.globl f\n.type f,@function\nf:\n\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
		"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n\ts_cbranch_execz .Lout\n"
		"\ts_waitcnt vmcnt(0)\n.Lout:\n\tv_mov_b32 v3, v1\n\ts_setpc_b64 s[30:31]\n");
	assert_int_equal(at(r, KW_VF_RACE_RAW, 10), 1);
	kw_verify_result_free(r);
}

/* A wait reached with fewer younger ops than the use sees (one more load
 * issued after it): the fix is the count that wait needs, not the count
 * at the use (Tensile's vmcnt(55) reached with 54 younger loads). */
static void test_fix_counts_at_the_wait(void **state)
{
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	r = run("k:\n"
		"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
		"\tbuffer_load_dword v3, v2, s[4:7], 0 offen\n"
		"\tbuffer_load_dword v4, v2, s[4:7], 0 offen\n"
		"\ts_waitcnt vmcnt(3)\n" /* 5: reached with 2 younger than v1's load */
		"\tbuffer_load_dword v7, v2, s[4:7], 0 offen\n"
		"\tv_mov_b32 v5, v1\n" /* 7: 3 younger now */
		"\ts_endpgm\n");
	f = first(r, KW_VF_RACE_RAW);
	assert_non_null(f);
	assert_int_equal(f->line, 7);
	assert_int_equal(f->needed, 2);
	assert_non_null(strstr(f->message, "needs vmcnt(2), has vmcnt(3)"));
	assert_non_null(strstr(f->message, "fix: use vmcnt(2)"));
	kw_verify_result_free(r);
	/* its twin with the fix: clean */
	r = run("k:\n"
		"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
		"\tbuffer_load_dword v3, v2, s[4:7], 0 offen\n"
		"\tbuffer_load_dword v4, v2, s[4:7], 0 offen\n"
		"\ts_waitcnt vmcnt(2)\n"
		"\tbuffer_load_dword v7, v2, s[4:7], 0 offen\n"
		"\tv_mov_b32 v5, v1\n"
		"\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* A finding names the fix and the path its branches narrowed; the text
 * ends with the totals, suppressed findings counted. */
static void test_message_and_totals(void **state)
{
	kw_verify_result *r;
	const kw_verify_finding *f;
	kw_buf out = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	static const char *text =
		"k:\n"
		"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
		"\tbuffer_load_dword v3, v2, s[4:7], 0 offen\n"
		"\ts_cmp_eq_u32 s12, 2\n"
		"\ts_cbranch_scc0 .Lout\n"
		"\ts_waitcnt vmcnt(1)\n"
		"\tv_mov_b32 v5, v3\n" /* 7 */
		".Lout:\n"
		"\ts_waitcnt vmcnt(0)\n"
		"\tv_mov_b32 v6, v1 // kwgen-verify: allow redundant_wait\n"
		"\ts_endpgm\n";

	(void)state;
	r = run(text);
	f = first(r, KW_VF_RACE_RAW);
	assert_non_null(f);
	assert_int_equal(f->line, 7);
	assert_non_null(strstr(f->message, "needs vmcnt(0), has vmcnt(1)"));
	assert_non_null(strstr(f->message, "fix: use vmcnt(0)"));
	/* the branch that decided it: line 5 (s_cbranch_scc0), not taken */
	assert_non_null(strstr(f->message, "on the paths where s12 == 2 (s_cbranch_scc0 at line 5 not taken)"));
	assert_int_equal(kw_verify_result_text(&out, r, &err), 0);
	assert_non_null(strstr(out.p, "<input>: totals: 1 error, 0 warnings (race_raw=1); 0 hidden by suppressions; "));
	kw_buf_free(&out);
	kw_verify_result_free(r);
	o.isa = "gfx942";
	o.suppressions = "race_raw line=7\n";
	{
		kw_verify_result *r2 = NULL;
		assert_int_equal(kw_verify_text(&r2, text, strlen(text), &o, &err), 0);
		out = (kw_buf)KW_BUF_INIT;
		assert_int_equal(kw_verify_result_text(&out, r2, &err), 0);
		assert_non_null(strstr(out.p, "totals: 0 errors, 0 warnings; 1 hidden by suppressions; "));
		kw_buf_free(&out);
		kw_verify_result_free(r2);
	}
	{
		/* a clean file says what was checked, too */
		static const char *clean = "k:\n\tglobal_load_dword v1, v[2:3], off\n\ts_waitcnt vmcnt(0)\n"
					   "\tv_add_f32_e32 v5, v1, v5\n\ts_endpgm\n";
		kw_verify_result *r3 = NULL;
		o.suppressions = NULL;
		assert_int_equal(kw_verify_text(&r3, clean, strlen(clean), &o, &err), 0);
		out = (kw_buf)KW_BUF_INIT;
		assert_int_equal(kw_verify_result_text(&out, r3, &err), 0);
		assert_string_equal(out.p, "<input>: totals: 0 errors, 0 warnings; 0 hidden by suppressions; "
					   "4 instructions in 1 function checked\n");
		kw_buf_free(&out);
		kw_verify_result_free(r3);
	}
}

/* One finding per root cause: one load read on two paths (a relaxed wait
 * on one, none on the other) is one finding at the earliest use, whose
 * needed is the smallest count either needs, with a fix giving each use
 * its own count (vmcnt(1) at line 7, vmcnt(2) at line 11: one more load on
 * that path), the same counts and places in uses, and naming the other
 * use; the fix applied as given, no race is left.  Two loads, two
 * findings; a use an inline allow hides is counted suppressed and leaves
 * the other alone. */
#define TWO_PATHS(WAIT_A, READ_B, ALLOW_A, WAIT_B)                              \
	"k:\n"                                                                  \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"  /* 2 */                \
	"\tbuffer_load_dword v5, v2, s[4:7], 0 offen\n"  /* 3 */                \
	"\ts_cmp_eq_u32 s12, 0\n"                                               \
	"\ts_cbranch_scc1 .Lb\n"                                                \
	"\ts_waitcnt vmcnt(" WAIT_A ")\n"                                       \
	"\tv_mov_b32 v3, v1" ALLOW_A "\n"                 /* 7: needs vmcnt(1) */ \
	"\ts_endpgm\n"                                                          \
	".Lb:\n"                                                                \
	"\tbuffer_load_dword v6, v2, s[4:7], 0 offen\n"                         \
	WAIT_B                                                                  \
	"\tv_mov_b32 v4, " READ_B "\n"                    /* 11 (12 with WAIT_B) */ \
	"\ts_endpgm\n"

static void test_one_per_root_cause(void **state)
{
	kw_verify_result *r;
	const kw_verify_finding *f;
	kw_buf out = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	/* one load, two uses on two paths: one finding */
	r = run(TWO_PATHS("2", "v1", "", ""));
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 7);
	assert_int_equal(f->producer_line, 2);
	assert_int_equal(f->needed, 1);
	assert_int_equal(f->have, 2);
	assert_int_equal(f->n_also_lines, 1);
	assert_int_equal(f->also_lines[0], 11);
	assert_non_null(strstr(f->message, "needs vmcnt(1), has vmcnt(2)"));
	assert_non_null(strstr(f->message, "; fix: use vmcnt(1) in the last wait before line 7 and wait for "
					   "vmcnt(2) before line 11"));
	/* each use with its own count and place, as the text says */
	assert_int_equal(f->n_uses, 2);
	assert_int_equal(f->uses[0].line, 7);
	assert_int_equal(f->uses[0].needed, 1);
	assert_int_equal(f->uses[0].have, 2);
	assert_int_equal(f->uses[1].line, 11);
	assert_int_equal(f->uses[1].needed, 2);
	assert_int_equal(f->uses[1].have, -1);
	/* each use with its own path */
	assert_non_null(strstr(f->message, "; on the paths where s12 != 0 (s_cbranch_scc1 at line 5 not taken); also "
					   "read at line 11 on the paths where s12 == 0 (s_cbranch_scc1 at line 5 "
					   "taken)"));
	assert_int_equal(kw_verify_result_json(&out, r, &err), 0);
	assert_non_null(strstr(out.p, "\"also_lines\": [\n    11\n   ]"));
	assert_non_null(strstr(out.p, "\"line\": 11,\n     \"needed\": 2,\n     \"have\": null,\n     \"fix\": "
				      "\"new_wait\""));
	kw_buf_free(&out);
	kw_verify_result_free(r);
	/* the fix applied to both, each its own count: no race */
	r = run(TWO_PATHS("1", "v1", "", "\ts_waitcnt vmcnt(2)\n"));
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* one count less than line 11 asks for would not have been needed:
	 * vmcnt(3) there is still a race */
	r = run(TWO_PATHS("1", "v1", "", "\ts_waitcnt vmcnt(3)\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 12), 1);
	kw_verify_result_free(r);
	/* ... to the reported use only: the other is still a race */
	r = run(TWO_PATHS("1", "v1", "", ""));
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 11), 1);
	assert_int_equal(first(r, KW_VF_RACE_RAW)->n_also_lines, 0);
	kw_verify_result_free(r);
	/* two loads (path b reads v5): two findings, neither naming the other */
	r = run(TWO_PATHS("2", "v5", "", ""));
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 2);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 7), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 11), 1);
	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		f = kw_verify_result_at(r, i);
		assert_int_equal(f->n_also_lines, 0);
		assert_null(strstr(f->message, "also read"));
	}
	kw_verify_result_free(r);
	/* the use at line 7 allowed: counted suppressed, line 11 alone */
	r = run(TWO_PATHS("2", "v1", " // kwgen-verify: allow race_raw", ""));
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 11);
	assert_int_equal(f->needed, 2);
	assert_int_equal(f->n_also_lines, 0);
	assert_non_null(strstr(f->message, "; fix: wait for vmcnt(2) before line 11"));
	kw_verify_result_free(r);
}

/* The reverse: the earliest use needs the larger count (one more load on
 * its path), the later one the smaller; needed is the smaller (safe at
 * either), the fix and uses give each its own, and applied as given they
 * leave no race. */
#define TWO_PATHS_REV(WAIT_A, WAIT_B)                                           \
	"k:\n"                                                                  \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"  /* 2 */                \
	"\tbuffer_load_dword v5, v2, s[4:7], 0 offen\n"  /* 3 */                \
	"\ts_cmp_eq_u32 s12, 0\n"                                               \
	"\ts_cbranch_scc1 .Lb\n"                                                \
	"\tbuffer_load_dword v6, v2, s[4:7], 0 offen\n"  /* 6 */                \
	WAIT_A                                                                  \
	"\tv_mov_b32 v3, v1\n"                           /* 7: needs vmcnt(2) */ \
	"\ts_endpgm\n"                                                          \
	".Lb:\n"                                                                \
	WAIT_B                                                                  \
	"\tv_mov_b32 v4, v1\n"                           /* 10: needs vmcnt(1) */ \
	"\ts_endpgm\n"

static void test_one_per_root_cause_counts(void **state)
{
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	r = run(TWO_PATHS_REV("", ""));
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 7);
	assert_int_equal(f->needed, 1);
	assert_int_equal(f->n_uses, 2);
	assert_int_equal(f->uses[0].line, 7);
	assert_int_equal(f->uses[0].needed, 2);
	assert_int_equal(f->uses[1].line, 10);
	assert_int_equal(f->uses[1].needed, 1);
	assert_non_null(strstr(f->message, "needs vmcnt(2), has no wait"));
	assert_non_null(strstr(f->message, "; fix: wait for vmcnt(2) before line 7 and wait for vmcnt(1) before "
					   "line 10;"));
	kw_verify_result_free(r);
	/* applied as given (line 7 becomes 8, 10 becomes 12): no race */
	r = run(TWO_PATHS_REV("\ts_waitcnt vmcnt(2)\n", "\ts_waitcnt vmcnt(1)\n"));
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* one count too high at either: that use is still a race */
	r = run(TWO_PATHS_REV("\ts_waitcnt vmcnt(3)\n", "\ts_waitcnt vmcnt(1)\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 8), 1);
	kw_verify_result_free(r);
	r = run(TWO_PATHS_REV("\ts_waitcnt vmcnt(2)\n", "\ts_waitcnt vmcnt(2)\n"));
	assert_int_equal(at(r, KW_VF_RACE_RAW, 12), 1);
	kw_verify_result_free(r);
}

/* Totals are exact whatever max_findings is: 1,100 loads each read too
 * early (each its own finding, or hidden by an inline allow), then one load
 * read on two paths (one finding), with 1 finding kept or all. */
static void test_one_per_root_cause_totals(void **state)
{
	kw_error err = KW_ERROR_INIT;
	const char *two = TWO_PATHS("2", "v1", "", "");

	(void)state;
	for (int hide = 0; hide < 2; hide++) {
		kw_buf t = KW_BUF_INIT;
		kw_buf_puts(&t, "k:\n");
		for (int i = 0; i < 1100; i++)
			kw_buf_puts(&t, hide ? "\tbuffer_load_dword v9, v2, s[4:7], 0 offen\n"
					       "\tv_mov_b32 v8, v9 // kwgen-verify: allow race_raw\n"
					     : "\tbuffer_load_dword v9, v2, s[4:7], 0 offen\n\tv_mov_b32 v8, v9\n");
		kw_buf_puts(&t, two + 3); /* without its "k:" line */
		assert_false(t.oom);
		for (size_t max = 1; max <= 100000; max *= 100000) {
			kw_verify_opts o = KW_VERIFY_OPTS_INIT;
			kw_verify_result *r = NULL;
			const kw_verify_finding *f;
			o.isa = "gfx942";
			o.max_findings = max;
			assert_int_equal(kw_verify_text(&r, t.p, t.len, &o, &err), 0);
			assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), hide ? 1 : 1101);
			assert_int_equal(kw_verify_result_suppressed(r), hide ? 1100 : 0);
			assert_int_equal(kw_verify_result_count(r), max == 1 ? 1 : hide ? 1 : 1101);
			f = kw_verify_result_at(r, kw_verify_result_count(r) - 1);
			if (hide || max > 1) {
				assert_int_equal(f->code, KW_VF_RACE_RAW);
				assert_int_equal(f->line, 2 * 1100 + 7);
				assert_int_equal(f->n_also_lines, 1);
				assert_int_equal(f->also_lines[0], 2 * 1100 + 11);
				assert_int_equal(f->needed, 1);
				assert_non_null(strstr(f->message, "; fix: use vmcnt(1) in the last wait before line 2207 "
								    "and wait for vmcnt(2) before line 2211"));
			}
			/* past the text held (of max_findings + 1024 uses), the
			 * head is made again without the ops counted */
			if (hide && max == 1)
				assert_non_null(strstr(f->message, "v1 read by v_mov_b32 while buffer_load_dword "
								    "(line 2202) may be in flight: needs vmcnt(1), "
								    "has vmcnt(2); fix: use vmcnt(1)"));
			else if (hide)
				assert_non_null(strstr(f->message, "has vmcnt(2) (1 younger vmcnt ops issued after it)"));
			kw_verify_result_free(r);
		}
		kw_buf_free(&t);
	}
}

/* Path-pruning and calls are deterministic: the same text gives the same
 * findings in the same order. */
static void test_deterministic(void **state)
{
	kw_verify_result *a = run(CALL1("s_nop 0")), *b = run(CALL1("s_nop 0"));
	kw_buf x = KW_BUF_INIT, y = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	assert_int_equal(kw_verify_result_text(&x, a, &err), 0);
	assert_int_equal(kw_verify_result_text(&y, b, &err), 0);
	assert_int_equal(x.len, y.len);
	assert_memory_equal(x.p, y.p, x.len);
	kw_buf_free(&x);
	kw_buf_free(&y);
	kw_verify_result_free(a);
	kw_verify_result_free(b);
}

/* Twenty uses of one load: one finding whose fix lists the first 16 lines
 * and "and 4 more", never a list cut mid-way; also_lines has all 19 others. */
static void test_one_per_root_cause_many(void **state)
{
	char text[4096];
	size_t k = 0;
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	k += (size_t)snprintf(text + k, sizeof(text) - k, "k:\n\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n");
	for (int i = 0; i < 20; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k,
				      "\ts_cmp_eq_u32 s%d, 1\n\ts_cbranch_scc1 .L%d\n\tv_mov_b32 v3, v1\n.L%d:\n", i, i, i);
	snprintf(text + k, sizeof(text) - k, "\ts_endpgm\n");
	r = run(text);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_non_null(f);
	assert_int_equal(f->line, 5);
	assert_non_null(strstr(f->message, "fix: wait for vmcnt(0) before lines 5, 9, 13, "));
	assert_non_null(strstr(f->message, ", 65 and 4 more"));
	assert_null(strstr(f->message, ", ;"));
	assert_int_equal(f->n_also_lines, 19);
	kw_verify_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_infeasible_edge_pruned),
		cmocka_unit_test(test_derived_counter),
		cmocka_unit_test(test_valu_sgpr_source),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_vcc_branch),
		cmocka_unit_test(test_fix_at_last_wait),
		cmocka_unit_test(test_most_demanding_producer),
		cmocka_unit_test(test_tightest_path),
		cmocka_unit_test(test_loop_settles),
		cmocka_unit_test(test_call_followed),
		cmocka_unit_test(test_wait_after_call_needed),
		cmocka_unit_test(test_one_per_root_cause_counts),
		cmocka_unit_test(test_return_to_own_site),
		cmocka_unit_test(test_unknown_call_once),
		cmocka_unit_test(test_lds_latency),
		cmocka_unit_test(test_message_and_totals),
		cmocka_unit_test(test_fix_counts_at_the_wait),
		cmocka_unit_test(test_exec_branch),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_one_per_root_cause),
		cmocka_unit_test(test_one_per_root_cause_totals),
		cmocka_unit_test(test_one_per_root_cause_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
