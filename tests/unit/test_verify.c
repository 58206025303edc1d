/*
 * test_verify.c - the wait-count verifier (kwgen/verify.h): every rule as a
 * snippet that must fire and its fixed twin that must not; both syntaxes;
 * symbols; suppressions; exact totals; output forms; bounds and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

static kw_verify_result *run(const char *isa, const char *text)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = isa;
	return run_opts(text, &o);
}

/* The version keying kwgend's cached verifications: "kwgen-verify-N". */
static void test_version(void **state)
{
	const char *v = kw_verify_version();

	(void)state;
	assert_non_null(v);
	assert_int_equal(strncmp(v, "kwgen-verify-", 13), 0);
	assert_true(v[13] >= '1' && v[13] <= '9');
	assert_int_equal(strspn(v + 13, "0123456789"), strlen(v + 13));
}

/* ---- rules: each a snippet that must fire (code at line) and its fixed
 * twin that must verify clean, run by one loop (test_rules) ---- */

#define LDS11(W)                                    \
	"k:\n"                                      \
	"\tds_read_b128 v[0:3], v100\n"             /* 2 */ \
	"\tds_read_b128 v[4:7], v100 offset:16\n"   \
	"\tds_read_b128 v[8:11], v100 offset:32\n"  \
	"\tds_read_b128 v[12:15], v100 offset:48\n" \
	"\tds_read_b128 v[16:19], v100 offset:64\n" \
	"\tds_read_b128 v[20:23], v100 offset:80\n" \
	"\tds_read_b128 v[24:27], v100 offset:96\n" \
	"\tds_read_b128 v[28:31], v100 offset:112\n" /* 9 */ \
	"\tds_read_b128 v[32:35], v101\n"           \
	"\tds_read_b128 v[36:39], v101 offset:16\n" \
	"\tds_read_b128 v[40:43], v101 offset:32\n" \
	"\ts_waitcnt lgkmcnt(" W ")\n"              /* 13 */ \
	"\tv_mfma_f32_16x16x16_f16 a[0:3], v[28:29], v[50:51], a[0:3]\n" /* 14 */ \
	"\ts_waitcnt lgkmcnt(0)\n"                  \
	"\tv_mfma_f32_16x16x16_f16 a[4:7], v[30:31], v[40:41], a[4:7]\n" \
	"\ts_endpgm\n"

/* a load at the bottom of a loop read at its top on the back edge */
#define LOOP(TOPWAIT, ENTRYWAIT)                                   \
	"k:\n"                                                     \
	"\tglobal_load_dword v1, v[2:3], off\n"                    \
	"\ts_mov_b32 s4, 0\n" ENTRYWAIT                            \
	".LBB0_1:\n" TOPWAIT                                       \
	"\tv_add_f32_e32 v5, v1, v5\n"                             \
	"\tglobal_load_dword v1, v[2:3], off offset:4\n"           \
	"\ts_add_i32 s4, s4, 1\n"                                  \
	"\ts_cmp_lt_i32 s4, 10\n"                                  \
	"\ts_cbranch_scc1 .LBB0_1\n"                               \
	"\ts_waitcnt vmcnt(0)\n"                                   \
	"\tglobal_store_dword v[2:3], v1, off\n"                   \
	"\ts_endpgm\n"

/* gfx1250 PLR=0 TDM loop: the next trip's LDS reads need the previous
 * trip's tensor_load_to_lds complete (and published by a barrier) */
#define TDM_LOOP(SYNC)                                             \
	"k:\n"                                                     \
	"\ts_mov_b32 s20, 0\n"                                     \
	".LBB0_1:\n" SYNC                                          \
	"\tds_load_b128 v[0:3], v10\n"                             \
	"\ts_wait_dscnt 0x0\n"                                     \
	"\tv_add_f32_e32 v4, v0, v1\n"                             \
	"\ttensor_load_to_lds s[0:3], s[4:11]\n"                   \
	"\ts_add_co_i32 s20, s20, 1\n"                             \
	"\ts_cmp_lt_i32 s20, 10\n"                                 \
	"\ts_cbranch_scc1 .LBB0_1\n"                               \
	"\ts_wait_tensorcnt 0x0\n"                                 \
	"\ts_endpgm\n"

#define NOCHECK (-100)

typedef struct rule_case {
	const char *rule;      /* the rule the pair shows */
	const char *isa;       /* NULL: from the text's .amdgcn_target */
	const char *bad;       /* must report code at line (NULL: fixed only) */
	const char *fixed;     /* its fixed twin: no finding at all */
	int code;
	int64_t line;
	const char *counter, *reg, *msg; /* of the finding at line; NULL = not checked */
	int64_t producer_line; /* 0 = not checked */
	int needed, have;      /* NOCHECK = not checked */
	int nraces;            /* race-class findings on bad; 0 = not checked */
	int64_t clean_line;    /* a line of bad with no race-class finding; 0 = none */
	int also_code;         /* a second expected finding on bad (with also_line) */
	int64_t also_line;
	uint32_t quiet;        /* codes (bit per code) with no finding on bad */
} rule_case;

#define Q(c) (1u << (c))

static const rule_case rules[] = {
	/* in-order LDS: lgkmcnt(N) completes the reads with N younger */
	{ .rule = "lds_in_order", .isa = "gfx942", .bad = LDS11("4"), .fixed = LDS11("3"),
	  .code = KW_VF_RACE_RAW, .line = 14, .reg = "v[28:29]", .producer_line = 9,
	  .counter = "lgkmcnt", .needed = 3, .have = 4, .nraces = 1,
	  .msg = "needs lgkmcnt(3), has lgkmcnt(4)" },
	/* SMEM is out of order: only a zero count completes it; lgkmcnt(1)
	 * with two SMEM in flight does wait for one: not redundant */
	{ .rule = "smem_out_of_order", .isa = "gfx90a",
	  .bad = "k:\n\ts_load_dwordx2 s[4:5], s[0:1], 0x0\n\ts_load_dword s6, s[0:1], 0x8\n"
		 "\ts_waitcnt lgkmcnt(1)\n\ts_add_u32 s7, s4, 1\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_load_dwordx2 s[4:5], s[0:1], 0x0\n\ts_load_dword s6, s[0:1], 0x8\n"
		   "\ts_waitcnt lgkmcnt(0)\n\ts_add_u32 s7, s4, 1\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 5, .needed = 0, .have = NOCHECK,
	  .quiet = Q(KW_VF_REDUNDANT_WAIT) },
	{ .rule = "smem_out_of_order_kmcnt", .isa = "gfx1201",
	  .bad = "k:\n\ts_load_b64 s[8:9], s[0:1], 0x0\n\ts_load_b64 s[10:11], s[0:1], 0x8\n"
		 "\ts_wait_kmcnt 0x1\n\ts_add_co_u32 s20, s8, s8\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_load_b64 s[8:9], s[0:1], 0x0\n\ts_load_b64 s[10:11], s[0:1], 0x8\n"
		   "\ts_wait_kmcnt 0x0\n\ts_add_co_u32 s20, s8, s8\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 5, .counter = "kmcnt", .needed = NOCHECK, .have = NOCHECK },
	/* scalar atomics with glc return the old value into their first
	 * operand, tracked like s_load (gfx94x spells it glc on SMEM too) */
	{ .rule = "smem_atomic_glc_returns", .isa = "gfx942",
	  .bad = "k:\n\ts_atomic_dec s51, s[0:1], 0x10 glc\n\ts_add_u32 s2, s51, 1\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_atomic_dec s51, s[0:1], 0x10 glc\n\ts_waitcnt lgkmcnt(0)\n"
		   "\ts_add_u32 s2, s51, 1\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 3, .reg = "s51", .producer_line = 2,
	  .counter = "lgkmcnt", .needed = 0, .have = NOCHECK, .nraces = 1 },
	{ .rule = "smem_atomic_glc_returns_gfx90a", .isa = "gfx90a",
	  .bad = "k:\n\ts_atomic_dec s51, s[0:1], 0x10 glc\n\ts_mov_b32 s51, 0\n"
		 "\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_atomic_dec s51, s[0:1], 0x10 glc\n\ts_waitcnt lgkmcnt(0)\n"
		   "\ts_mov_b32 s51, 0\n\ts_endpgm\n",
	  .code = KW_VF_RACE_WAW, .line = 3, .reg = "s51", .needed = NOCHECK, .have = NOCHECK },
	/* without glc nothing is returned: s51 is only the data it sends */
	{ .rule = "smem_atomic_no_glc_no_return", .isa = "gfx942",
	  .fixed = "k:\n\ts_atomic_dec s51, s[0:1], 0x10\n\ts_add_u32 s2, s51, 1\n"
		   "\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n",
	  .needed = NOCHECK, .have = NOCHECK },
	/* FLAT counts on vmcnt and lgkmcnt: needs both at zero */
	{ .rule = "flat_both_counters", .isa = "gfx942",
	  .bad = "k:\n\tflat_load_dwordx4 v[0:3], v[4:5]\n\ts_waitcnt vmcnt(0)\n"
		 "\tv_add_f32_e32 v6, v0, v1\n\ts_endpgm\n",
	  .fixed = "k:\n\tflat_load_dwordx4 v[0:3], v[4:5]\n\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "\tv_add_f32_e32 v6, v0, v1\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 4, .counter = "lgkmcnt", .needed = NOCHECK,
	  .have = NOCHECK },
	/* gfx12 combined waits: imm = loadcnt << 8 | dscnt */
	{ .rule = "gfx12_combined_wait", .isa = "gfx1201",
	  .bad = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\tds_load_b32 v2, v10\n"
		 "\tds_load_b32 v3, v10 offset:4\n\ts_wait_loadcnt_dscnt 0x1\n"
		 "\tv_add_f32_e32 v4, v1, v2\n\tv_add_f32_e32 v5, v3, v3\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\tds_load_b32 v2, v10\n"
		   "\tds_load_b32 v3, v10 offset:4\n\ts_wait_loadcnt_dscnt 0x0\n"
		   "\tv_add_f32_e32 v4, v1, v2\n\tv_add_f32_e32 v5, v3, v3\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 7, .clean_line = 6, .counter = "dscnt",
	  .needed = NOCHECK, .have = NOCHECK },
	/* loads and stores have separate counters from gfx10 */
	{ .rule = "storecnt_does_not_cover_loads", .isa = "gfx1201",
	  .bad = "k:\n\tglobal_load_b32 v3, v10, s[0:1]\n\tglobal_store_b32 v10, v2, s[2:3]\n"
		 "\ts_wait_storecnt 0x0\n\tv_add_f32_e32 v6, v3, v3\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v3, v10, s[0:1]\n\tglobal_store_b32 v10, v2, s[2:3]\n"
		   "\ts_wait_loadcnt 0x0\n\tv_add_f32_e32 v6, v3, v3\n\ts_wait_storecnt 0x0\n"
		   "\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 5, .counter = "loadcnt", .needed = NOCHECK,
	  .have = NOCHECK },
	{ .rule = "vscnt_does_not_cover_loads", .isa = "gfx1100",
	  .bad = "k:\n\tglobal_load_b32 v3, v10, s[0:1]\n\tglobal_store_b32 v10, v2, s[2:3]\n"
		 "\ts_waitcnt_vscnt null, 0x0\n\tv_add_f32_e32 v6, v3, v3\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v3, v10, s[0:1]\n\tglobal_store_b32 v10, v2, s[2:3]\n"
		   "\ts_waitcnt vmcnt(0)\n\tv_add_f32_e32 v6, v3, v3\n"
		   "\ts_waitcnt_vscnt null, 0x0\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 5, .counter = "vmcnt", .needed = NOCHECK,
	  .have = NOCHECK },
	/* loops: the back edge brings the bottom load to the top */
	{ .rule = "loop_back_edge", .isa = "gfx942",
	  .bad = LOOP("", "\ts_waitcnt vmcnt(0)\n"), .fixed = LOOP("\ts_waitcnt vmcnt(0)\n", ""),
	  .code = KW_VF_RACE_RAW, .line = 6, .producer_line = 7, .nraces = 1,
	  .needed = NOCHECK, .have = NOCHECK },
	/* WAW: an ALU write to a register an in-flight load will write */
	{ .rule = "waw_alu_over_load", .isa = "gfx90a",
	  .bad = "k:\n\tglobal_load_dwordx2 v[0:1], v[4:5], off\n\tv_mov_b32_e32 v1, 0\n"
		 "\ts_waitcnt vmcnt(0)\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_dwordx2 v[0:1], v[4:5], off\n\ts_waitcnt vmcnt(0)\n"
		   "\tv_mov_b32_e32 v1, 0\n\ts_endpgm\n",
	  .code = KW_VF_RACE_WAW, .line = 3, .reg = "v1", .needed = NOCHECK, .have = NOCHECK },
	/* two loads of one in-order class write in order up to gfx11 */
	{ .rule = "waw_same_class_in_order", .isa = "gfx90a",
	  .fixed = "k:\n\tglobal_load_dwordx2 v[0:1], v[4:5], off\n"
		   "\tglobal_load_dwordx2 v[0:1], v[4:5], off offset:8\n\ts_waitcnt vmcnt(0)\n"
		   "\tv_add_f32_e32 v2, v0, v1\n\ts_endpgm\n",
	  .needed = NOCHECK, .have = NOCHECK },
	{ .rule = "waw_same_class_in_order_gfx11", .isa = "gfx1100",
	  .fixed = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\tglobal_load_b32 v2, v10, s[0:1] offset:4\n"
		   "\tglobal_load_b32 v1, v10, s[0:1] offset:8\n\ts_waitcnt vmcnt(0)\n"
		   "\tv_add_f32_e32 v4, v1, v2\n\ts_endpgm\n",
	  .needed = NOCHECK, .have = NOCHECK },
	/* gfx12 VMEM loads may write one VGPR out of order (llvm-project
	 * #105549): the overwriting load needs the count of the older one */
	{ .rule = "gfx12_vmem_waw_out_of_order", .isa = "gfx1201",
	  .bad = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\tglobal_load_b32 v2, v10, s[0:1] offset:4\n"
		 "\tglobal_load_b32 v1, v10, s[0:1] offset:8\n\ts_wait_loadcnt 0x0\n"
		 "\tv_add_f32_e32 v4, v1, v2\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\tglobal_load_b32 v2, v10, s[0:1] offset:4\n"
		   "\ts_wait_loadcnt 0x1\n\tglobal_load_b32 v1, v10, s[0:1] offset:8\n"
		   "\ts_wait_loadcnt 0x0\n\tv_add_f32_e32 v4, v1, v2\n\ts_endpgm\n",
	  .code = KW_VF_RACE_WAW, .line = 4, .reg = "v1", .producer_line = 2,
	  .counter = "loadcnt", .needed = 1, .have = -1, .nraces = 1 },
	{ .rule = "gfx1250_vmem_waw_out_of_order", .isa = "gfx1250",
	  .bad = "k:\n\tglobal_load_b64 v[0:1], v10, s[0:1]\n\tglobal_load_b32 v1, v10, s[0:1] offset:8\n"
		 "\ts_wait_loadcnt 0x0\n\tv_add_f32_e32 v4, v0, v1\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b64 v[0:1], v10, s[0:1]\n\ts_wait_loadcnt 0x0\n"
		   "\tglobal_load_b32 v1, v10, s[0:1] offset:8\n\ts_wait_loadcnt 0x0\n"
		   "\tv_add_f32_e32 v4, v0, v1\n\ts_endpgm\n",
	  .code = KW_VF_RACE_WAW, .line = 3, .reg = "v1", .counter = "loadcnt", .needed = 0,
	  .have = NOCHECK },
	/* LDS written by an in-flight op at a barrier */
	{ .rule = "lds_write_at_barrier", .isa = "gfx942",
	  .bad = "k:\n\tds_write_b64 v9, v[16:17]\n\ts_barrier\n\tds_read_b64 v[2:3], v10\n"
		 "\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n",
	  .fixed = "k:\n\tds_write_b64 v9, v[16:17]\n\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n"
		   "\tds_read_b64 v[2:3], v10\n\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n",
	  .code = KW_VF_LDS_BARRIER, .line = 3, .nraces = 1, .needed = NOCHECK, .have = NOCHECK },
	{ .rule = "lds_write_at_barrier_signal", .isa = "gfx1201",
	  .bad = "k:\n\tds_store_b64 v9, v[16:17]\n\ts_barrier_signal -1\n\ts_barrier_wait -1\n"
		 "\ts_endpgm\n",
	  .fixed = "k:\n\tds_store_b64 v9, v[16:17]\n\ts_wait_dscnt 0x0\n\ts_barrier_signal -1\n"
		   "\ts_barrier_wait -1\n\ts_endpgm\n",
	  .code = KW_VF_LDS_BARRIER, .line = 3, .counter = "dscnt", .needed = NOCHECK,
	  .have = NOCHECK },
	/* an LDS read in flight at a barrier: after it another wave may
	 * overwrite that LDS (LDS ops of different waves may reorder) */
	{ .rule = "lds_read_at_barrier", .isa = "gfx942",
	  .bad = "k:\n\tds_read_b64 v[2:3], v10\n\tds_read_b64 v[4:5], v10 offset:8\n"
		 "\ts_waitcnt lgkmcnt(1)\n\ts_barrier\n\ts_waitcnt lgkmcnt(0)\n"
		 "\tv_add_f32_e32 v6, v2, v4\n\ts_endpgm\n",
	  .fixed = "k:\n\tds_read_b64 v[2:3], v10\n\tds_read_b64 v[4:5], v10 offset:8\n"
		   "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n\tv_add_f32_e32 v6, v2, v4\n\ts_endpgm\n",
	  .code = KW_VF_LDS_BARRIER, .line = 5, .producer_line = 3, .counter = "lgkmcnt",
	  .needed = 0, .have = 1, .nraces = 1 },
	{ .rule = "lds_read_at_barrier_signal", .isa = "gfx1201",
	  .bad = "k:\n\tds_load_b64 v[2:3], v10\n\ts_barrier_signal -1\n\ts_barrier_wait -1\n"
		 "\ts_wait_dscnt 0x0\n\tv_add_f32_e32 v6, v2, v3\n\ts_endpgm\n",
	  .fixed = "k:\n\tds_load_b64 v[2:3], v10\n\ts_wait_dscnt 0x0\n\ts_barrier_signal -1\n"
		   "\ts_barrier_wait -1\n\tv_add_f32_e32 v6, v2, v3\n\ts_endpgm\n",
	  .code = KW_VF_LDS_BARRIER, .line = 3, .producer_line = 2, .counter = "dscnt",
	  .needed = 0, .have = -1, .nraces = 1 },
	/* LDS DMA completes on vmcnt; v1 is its address, not a result */
	{ .rule = "lds_dma_wrong_counter", .isa = "gfx942",
	  .bad = "k:\n\ts_mov_b32 m0, 0\n\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
		 "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n\tds_read_b32 v2, v3\n"
		 "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n\tv_add_u32_e32 v4, v2, v2\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_mov_b32 m0, 0\n\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
		   "\ts_waitcnt vmcnt(0)\n\ts_barrier\n\tds_read_b32 v2, v3\n"
		   "\ts_waitcnt lgkmcnt(0)\n\tv_add_u32_e32 v4, v2, v2\n\ts_endpgm\n",
	  .code = KW_VF_LDS_DMA, .line = 6, .counter = "vmcnt", .also_code = KW_VF_LDS_BARRIER,
	  .also_line = 5, .quiet = Q(KW_VF_RACE_RAW), .needed = NOCHECK, .have = NOCHECK },
	/* double buffering: the DMA into the other buffer stays in flight
	 * behind a partial vmcnt wait */
	{ .rule = "lds_dma_double_buffer", .isa = "gfx942",
	  .fixed = "k:\n\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
		   "\tbuffer_load_dword v1, s[4:7], 0 offen offset:256 lds\n\ts_waitcnt vmcnt(1)\n"
		   "\ts_barrier\n\tds_read_b32 v2, v3\n\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "\tv_add_u32_e32 v4, v2, v2\n\ts_endpgm\n",
	  .needed = NOCHECK, .have = NOCHECK },
	/* tensor_load_to_lds completes on tensorcnt, as LDS DMA on vmcnt */
	{ .rule = "tensor_load_at_barrier", .isa = "gfx1250",
	  .bad = "k:\n\ttensor_load_to_lds s[0:3], s[4:11]\n\ts_barrier_signal -1\n"
		 "\ts_barrier_wait -1\n\tds_load_b32 v2, v3\n\ts_wait_dscnt 0x0\n"
		 "\tv_add_f32_e32 v4, v2, v2\n\ts_wait_tensorcnt 0x0\n\ts_endpgm\n",
	  .fixed = "k:\n\ttensor_load_to_lds s[0:3], s[4:11]\n\ts_wait_tensorcnt 0x0\n"
		   "\ts_barrier_signal -1\n\ts_barrier_wait -1\n\tds_load_b32 v2, v3\n"
		   "\ts_wait_dscnt 0x0\n\tv_add_f32_e32 v4, v2, v2\n\ts_endpgm\n",
	  .code = KW_VF_LDS_BARRIER, .line = 3, .counter = "tensorcnt", .producer_line = 2,
	  .also_code = KW_VF_LDS_DMA, .also_line = 5, .needed = NOCHECK, .have = NOCHECK },
	/* rocm-libraries PR 7839: the next trip's ds_load reads the LDS the
	 * previous trip's tensor_load_to_lds may still be writing */
	{ .rule = "tensor_load_next_trip", .isa = "gfx1250",
	  .bad = TDM_LOOP(""),
	  .fixed = TDM_LOOP("\ts_wait_tensorcnt 0x0\n\ts_barrier_signal -1\n\ts_barrier_wait -1\n"),
	  .code = KW_VF_LDS_DMA, .line = 4, .producer_line = 7, .counter = "tensorcnt",
	  .needed = 0, .have = -1, .nraces = 1 },
	/* the same for LDS DMA (buffer_load ... lds) on vmcnt */
	{ .rule = "lds_dma_next_trip", .isa = "gfx942",
	  .bad = "k:\n\ts_mov_b32 s20, 0\n.LBB0_1:\n\tds_read_b128 v[0:3], v10\n"
		 "\ts_waitcnt lgkmcnt(0)\n\tv_add_f32_e32 v4, v0, v1\n"
		 "\tbuffer_load_dword v5, s[4:7], 0 offen lds\n\ts_add_i32 s20, s20, 1\n"
		 "\ts_cmp_lt_i32 s20, 10\n\ts_cbranch_scc1 .LBB0_1\n\ts_waitcnt vmcnt(0)\n"
		 "\ts_endpgm\n",
	  .fixed = "k:\n\ts_mov_b32 s20, 0\n.LBB0_1:\n\ts_waitcnt vmcnt(0)\n\ts_barrier\n"
		   "\tds_read_b128 v[0:3], v10\n\ts_waitcnt lgkmcnt(0)\n\tv_add_f32_e32 v4, v0, v1\n"
		   "\tbuffer_load_dword v5, s[4:7], 0 offen lds\n\ts_add_i32 s20, s20, 1\n"
		   "\ts_cmp_lt_i32 s20, 10\n\ts_cbranch_scc1 .LBB0_1\n\ts_waitcnt vmcnt(0)\n"
		   "\ts_endpgm\n",
	  .code = KW_VF_LDS_DMA, .line = 4, .producer_line = 7, .counter = "vmcnt",
	  .needed = 0, .nraces = 1, .have = NOCHECK },
	/* redundant waits: a warning, not an error */
	{ .rule = "redundant_wait", .isa = "gfx90a",
	  .bad = "k:\n\ts_load_dword s0, s[0:1], 0x24\n\ts_waitcnt lgkmcnt(0)\n"
		 "\tv_mov_b32_e32 v0, s0\n\tds_add_u32 v0, v1\n\ts_waitcnt lgkmcnt(0)\n"
		 "\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n",
	  .fixed = "k:\n\ts_load_dword s0, s[0:1], 0x24\n\ts_waitcnt lgkmcnt(0)\n"
		   "\tv_mov_b32_e32 v0, s0\n\tds_add_u32 v0, v1\n\ts_waitcnt lgkmcnt(0)\n"
		   "\ts_endpgm\n",
	  .code = KW_VF_REDUNDANT_WAIT, .line = 7, .needed = NOCHECK, .have = NOCHECK },
	/* unknown instructions are findings, known families are not */
	{ .rule = "unknown_instruction", .isa = "gfx942",
	  .bad = "k:\n\tv_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]\n\ts_setprio 3\n"
		 "\tbuffer_wbl2 sc1\n\tmy_macro v1, v2\n\ts_endpgm\n",
	  .fixed = "k:\n\tv_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]\n\ts_setprio 3\n"
		   "\tbuffer_wbl2 sc1\n\ts_endpgm\n",
	  .code = KW_VF_UNKNOWN_INSTRUCTION, .line = 5, .needed = NOCHECK, .have = NOCHECK },
	/* s_waitcnt does not exist on gfx12 */
	{ .rule = "no_s_waitcnt_on_gfx12", .isa = "gfx1201",
	  .bad = "k:\n\ts_waitcnt vmcnt(0)\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\ts_wait_loadcnt 0x0\n\ts_endpgm\n",
	  .code = KW_VF_UNKNOWN_INSTRUCTION, .line = 2, .needed = NOCHECK, .have = NOCHECK },
	/* .set symbols in register indices, raw s_waitcnt immediates */
	{ .rule = "symbols_in_registers", .isa = "gfx90a",
	  .bad = ".set vgprValuC, 12\nvgprG = vgprValuC + 8\nk:\n"
		 "\tbuffer_load_dwordx2 v[vgprValuC+3:vgprValuC+3+1], v[vgprG], s[4:7], 0 offen\n"
		 "\ts_waitcnt 0x3f70\n\tv_mov_b32 v0, v16\n"
		 "\tbuffer_load_dword v[vgprValuC], v20, s[4:7], 0 offen\n\tv_mov_b32 v0, v12\n"
		 "\ts_waitcnt vmcnt(0) & lgkmcnt(0)\n\ts_endpgm\n",
	  .fixed = ".set vgprValuC, 12\nvgprG = vgprValuC + 8\nk:\n"
		   "\tbuffer_load_dwordx2 v[vgprValuC+3:vgprValuC+3+1], v[vgprG], s[4:7], 0 offen\n"
		   "\ts_waitcnt 0x3f70\n\tv_mov_b32 v0, v16\n"
		   "\tbuffer_load_dword v[vgprValuC], v20, s[4:7], 0 offen\n"
		   "\ts_waitcnt vmcnt(0) & lgkmcnt(0)\n\tv_mov_b32 v0, v12\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 8, .reg = "v12", .nraces = 1, .needed = NOCHECK,
	  .have = NOCHECK },
	/* gfx11 raw immediate: vmcnt in bits 15:10 -> 0x03f7 is vmcnt(0) */
	{ .rule = "raw_waitcnt_immediate_gfx11", .isa = "gfx1100",
	  .bad = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\ts_waitcnt 0xfc07\n"
		 "\tv_add_f32_e32 v4, v1, v1\n\ts_endpgm\n",
	  .fixed = "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\ts_waitcnt 0x3f7\n"
		   "\tv_add_f32_e32 v4, v1, v1\n\ts_endpgm\n",
	  .code = KW_VF_RACE_RAW, .line = 4, .needed = NOCHECK, .have = NOCHECK },
};

static const kw_verify_finding *find_at(const kw_verify_result *r, int code, int64_t line)
{
	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		if (f->code == code && f->line == line)
			return f;
	}
	return NULL;
}

static int is_race_code(int code)
{
	return code == KW_VF_RACE_RAW || code == KW_VF_RACE_WAW || code == KW_VF_LDS_BARRIER ||
	       code == KW_VF_LDS_DMA;
}

/* Problems of one rule are printed (every rule is checked, so one run
 * lists every broken rule) and counted. */
#define BAD(...) (print_error(__VA_ARGS__), nbad++)

static int check_bad(const rule_case *c)
{
	kw_verify_result *r = run(c->isa, c->bad);
	const kw_verify_finding *f = find_at(r, c->code, c->line);
	int nbad = 0;

	if (!f) {
		BAD("%s (%s): no %s at line %lld\n", c->rule, c->isa ? c->isa : "-",
		    kw_verify_code_name(c->code), (long long)c->line);
		kw_verify_result_free(r);
		return nbad;
	}
	if (f->offset != -1)
		BAD("%s: text form has offset %lld\n", c->rule, (long long)f->offset);
	if (c->counter && (!f->counter || strcmp(f->counter, c->counter)))
		BAD("%s: counter %s, expected %s\n", c->rule, f->counter ? f->counter : "(none)",
		    c->counter);
	if (c->reg && (!f->reg || strcmp(f->reg, c->reg)))
		BAD("%s: register %s, expected %s\n", c->rule, f->reg ? f->reg : "(none)", c->reg);
	if (c->msg && !strstr(f->message, c->msg))
		BAD("%s: message \"%s\" lacks \"%s\"\n", c->rule, f->message, c->msg);
	if (c->producer_line && f->producer_line != c->producer_line)
		BAD("%s: producer line %lld, expected %lld\n", c->rule, (long long)f->producer_line,
		    (long long)c->producer_line);
	if (c->needed != NOCHECK && f->needed != c->needed)
		BAD("%s: needed %d, expected %d\n", c->rule, f->needed, c->needed);
	if (c->have != NOCHECK && f->have != c->have)
		BAD("%s: have %d, expected %d\n", c->rule, f->have, c->have);
	if (c->nraces && races(r) != (uint64_t)c->nraces)
		BAD("%s: %llu race-class findings, expected %d\n", c->rule,
		    (unsigned long long)races(r), c->nraces);
	if (c->clean_line)
		for (int code = 0; code < KW_VF_CODE_COUNT; code++)
			if (is_race_code(code) && at(r, code, c->clean_line))
				BAD("%s: %s on clean line %lld\n", c->rule, kw_verify_code_name(code),
				    (long long)c->clean_line);
	if (c->also_line && !find_at(r, c->also_code, c->also_line))
		BAD("%s: no %s at line %lld\n", c->rule, kw_verify_code_name(c->also_code),
		    (long long)c->also_line);
	for (int code = 0; code < KW_VF_CODE_COUNT; code++)
		if ((c->quiet >> code) & 1 && kw_verify_result_total(r, code))
			BAD("%s: %s reported\n", c->rule, kw_verify_code_name(code));
	/* every race is an error; a redundant wait is only a warning */
	if (f->severity != (c->code == KW_VF_REDUNDANT_WAIT ? KW_VS_WARNING : KW_VS_ERROR))
		BAD("%s: severity %d\n", c->rule, f->severity);
	kw_verify_result_free(r);
	return nbad;
}

static int check_fixed(const rule_case *c)
{
	kw_verify_result *r = run(c->isa, c->fixed);
	int nbad = 0;

	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		BAD("%s (%s): fixed twin reports %s at line %lld: %s\n", c->rule,
		    c->isa ? c->isa : "-", kw_verify_code_name(f->code), (long long)f->line,
		    f->message);
	}
	kw_verify_result_free(r);
	return nbad;
}

static void test_rules(void **state)
{
	size_t n = sizeof(rules) / sizeof(rules[0]);
	int nbad = 0;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		/* every rule has its fixed twin (or is a clean-only snippet) */
		assert_non_null(rules[i].fixed);
		if (rules[i].bad)
			nbad += check_bad(&rules[i]);
		nbad += check_fixed(&rules[i]);
	}
	assert_int_equal(nbad, 0);
}

/* the bad snippet of a rule in the table */
static const char *rules_text(const char *rule)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].rule, rule) && rules[i].bad)
			return rules[i].bad;
	fail_msg("no rule %s", rule);
	return NULL;
}

/* ---- what the table does not hold: stats, options, totals ---- */

static void test_loop_stats(void **state)
{
	kw_verify_result *r = run("gfx942", LOOP("", "\ts_waitcnt vmcnt(0)\n"));
	const kw_verify_stats *st = kw_verify_result_stats(r);

	(void)state;
	assert_int_equal(st->instructions, 11);
	assert_int_equal(st->blocks, 3);
	assert_int_equal(st->functions, 1);
	assert_int_equal(st->waits, 2);
	kw_verify_result_free(r);
}

static void test_redundant_option(void **state)
{
	const char *text = rules_text("redundant_wait");
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r = run("gfx90a", text);

	(void)state;
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 1);
	assert_int_equal(kw_verify_result_errors(r), 0);
	kw_verify_result_free(r);
	o.isa = "gfx90a";
	o.no_redundant = 1;
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
}

static void test_unknown_instruction(void **state)
{
	kw_verify_result *r = run("gfx942", rules_text("unknown_instruction"));
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 1);
	f = first(r, KW_VF_UNKNOWN_INSTRUCTION);
	assert_string_equal(f->mnemonic, "my_macro");
	assert_int_equal(kw_verify_result_errors(r), 1);
	kw_verify_result_free(r);
}

/* ---- every late producer is reported at its own first use ---- */

static void test_each_producer(void **state)
{
	static const char *text = "k:\n"
				  "\tds_read_b32 v1, v0\n"
				  "\tds_read_b32 v2, v0 offset:4\n"
				  "\tv_add_u32_e32 v3, v2, v2\n" /* 4: the younger read */
				  "\tv_add_u32_e32 v5, v2, v3\n" /* 5: same producer: once */
				  "\tv_add_u32_e32 v4, v1, v1\n" /* 6: the older read, still late */
				  "\ts_waitcnt lgkmcnt(0)\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", text);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 4), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 0);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 6), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
}

/* ---- back-pressure: a counter holds at most its all-ones value ---- */

static void test_back_pressure(void **state)
{
	char text[4096];
	size_t n = 0;
	kw_verify_result *r;

	(void)state;
	/* 1 + 15 younger LDS reads: the first is complete on gfx942 (15) */
	n += (size_t)snprintf(text + n, sizeof(text) - n, "k:\n\tds_read_b32 v51, v16\n");
	for (int i = 0; i < 15; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\tds_read_b32 v%d, v16 offset:%d\n",
				      60 + i, 4 * (i + 1));
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "\tv_perm_b32 v18, v51, v50, s77\n\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n");
	r = run("gfx942", text);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* the same on gfx1100 (lgkmcnt holds 63): a race */
	r = run("gfx1100", text);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 18), 1);
	assert_int_equal(first(r, KW_VF_RACE_RAW)->needed, 15);
	kw_verify_result_free(r);
}

/* ---- callable functions: entry state unknown; LLVM waits first ---- */

static void test_callable_entry(void **state)
{
	static const char *text = "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n"
				  "\t.text\n"
				  "\t.type k,@function\n"
				  "k:\n"
				  "\tv_add_f32_e32 v1, v0, v0\n" /* 5: kernel, clean */
				  "\ts_endpgm\n"
				  "\t.type f,@function\n"
				  "f:\n"
				  "\tv_add_f32_e32 v1, v0, v0\n" /* 9: race */
				  "\ts_setpc_b64 s[30:31]\n"
				  "\t.type g,@function\n"
				  "g:\n"
				  "\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n"
				  "\tv_add_f32_e32 v1, v0, v0\n" /* 14: clean */
				  "\ts_setpc_b64 s[30:31]\n"
				  "\t.section .rodata\n"
				  "\t.amdhsa_kernel k\n"
				  "\t.end_amdhsa_kernel\n";
	kw_verify_result *r = run(NULL, text);

	(void)state;
	assert_string_equal(kw_verify_result_isa(r), "gfx942");
	assert_int_equal(at(r, KW_VF_RACE_RAW, 9), 1);
	assert_int_equal(races(r), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->function, "f");
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	assert_int_equal(kw_verify_result_stats(r)->functions, 3);
	kw_verify_result_free(r);
}

/* ---- objdump: a function that returns is callable; padding between functions ---- */

static void test_objdump_callable(void **state)
{
	static const char *text =
		"0000000000000000 <helper>:\n"
		"\tv_add_f32_e32 v1, v0, v0                                   // 000000000000: 02020100\n"
		"\ts_setpc_b64 s[30:31]                                       // 000000000004: BE801D1E\n"
		"\ts_nop 0                                                    // 000000000008: BF800000\n"
		"\n0000000000000100 <k>:\n"
		"\tv_add_f32_e32 v1, v0, v0                                   // 000000000100: 02020100\n"
		"\ts_endpgm                                                   // 000000000104: BF810000\n";
	kw_verify_result *r = run("gfx942", text);

	(void)state;
	assert_int_equal(kw_verify_result_stats(r)->functions, 2);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 2), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->function, "helper");
	assert_int_equal(races(r), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	kw_verify_result_free(r);
}

/* ---- calls: the callee waits before it returns; reported as unsupported ---- */

static void test_call(void **state)
{
	static const char *text = "k:\n"
				  "\tglobal_load_dword v1, v[2:3], off\n"
				  "\ts_swappc_b64 s[30:31], s[16:17]\n" /* 3 */
				  "\tv_add_f32_e32 v5, v1, v5\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx90a", text);

	(void)state;
	assert_int_equal(races(r), 0);
	assert_int_equal(at(r, KW_VF_UNSUPPORTED, 3), 1);
	kw_verify_result_free(r);
}

/* ---- objdump form: addresses, <sym+0xOFF> targets, encoding targets ---- */

static void test_objdump(void **state)
{
	static const char *text =
		"\nloop.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n"
		"0000000000000000 <k_loop>:\n"
		"\tbuffer_load_dwordx2 v[50:51], v38, s[48:51], 0 offen       // 000000000000: E0541000 800C3226\n"
		"\ts_mov_b32 s4, 0                                            // 000000000008: BE840080\n"
		"\ts_waitcnt vmcnt(0)                                         // 00000000000C: BF8C0F70\n"
		"\tv_mov_b64_e32 v[78:79], v[50:51]                           // 000000000010: 7E9C7132\n"
		"\tbuffer_load_dwordx2 v[50:51], v38, s[48:51], 0 offen offset:8// 000000000014: E0541008 800C3226\n"
		"\tv_add_f32_e32 v80, v78, v80                                // 00000000001C: 02A0A14E\n"
		"\ts_add_i32 s4, s4, 1                                        // 000000000020: 81048104\n"
		"\ts_cmp_lt_i32 s4, 10                                        // 000000000024: BF048A04\n"
		"\ts_cbranch_scc1 65528                                       // 000000000028: BF85FFF8 <k_loop+0xc>\n"
		"\tv_mov_b64_e32 v[82:83], v[50:51]                           // 00000000002C: 7EA47132\n"
		"\ts_waitcnt vmcnt(0)                                         // 000000000030: BF8C0F70\n"
		"\ts_endpgm                                                   // 000000000034: BF810000\n";
	kw_verify_result *r = run("gfx942", text);
	const kw_verify_finding *f;
	char *copy;
	char *p;

	(void)state;
	assert_int_equal(races(r), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 16);
	assert_int_equal(f->offset, 0x2c);
	assert_int_equal(f->producer_line, 11);
	assert_int_equal(f->producer_offset, 0x14);
	assert_string_equal(f->function, "k_loop");
	kw_verify_result_free(r);
	/* the same without the <k_loop+0xc> comment: target from the encoding */
	copy = strdup(text);
	p = strstr(copy, " <k_loop+0xc>");
	memset(p, ' ', strlen(" <k_loop+0xc>"));
	r = run("gfx942", copy);
	assert_int_equal(races(r), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 16), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 10), 0);
	kw_verify_result_free(r);
	free(copy);
}

/* ---- objdump: a long branch (s_getpc + s_add + s_addc + s_setpc) is followed ---- */

static void test_long_branch(void **state)
{
	static const char *text =
		"0000000000000000 <k>:\n"
		"\tglobal_load_dword v1, v[2:3], off                          // 000000000000: DC508000 017F0002\n"
		"\ts_getpc_b64 s[60:61]                                       // 000000000008: BEBC1C00\n"
		"\n000000000000000c <label_pc>:\n"
		"\ts_add_u32 s60, s60, lit(0x18)                              // 00000000000C: 803CFF3C 00000018\n"
		"\ts_addc_u32 s61, s61, 0                                     // 000000000014: 823D803D\n"
		"\ts_setpc_b64 s[60:61]                                       // 000000000018: BE801D3C\n"
		"\tv_mov_b32_e32 v1, 0                                        // 00000000001C: 7E020280\n"
		"\ts_nop 0                                                    // 000000000020: BF800000\n"
		"\n0000000000000024 <label_far>:\n"
		"\tv_add_f32_e32 v5, v1, v5                                   // 000000000024: 020A0B01\n"
		"\ts_endpgm                                                   // 000000000028: BF810000\n";
	kw_verify_result *r = run("gfx942", text);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 13), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	assert_int_equal(kw_verify_result_stats(r)->functions, 1);
	kw_verify_result_free(r);
	/* text form: Tensile's long branch names its label */
	r = run("gfx942", "k:\n"
			  "  buffer_load_dword v5, v1, s[8:11], 0 offen\n"
			  "  s_cmp_eq_u32 s11, 0x1\n"
			  "  s_cbranch_scc1 label_NoBranch_0\n"
			  "  s_getpc_b64 s[64:65]\n"
			  "  s_add_i32 s66, label_Sync_EDN_0, 0x4\n"
			  "  s_add_u32 s64, s64, s66\n"
			  "  s_addc_u32 s65, s65, 0\n"
			  "  s_setpc_b64 s[64:65]\n"
			  "label_NoBranch_0:\n"
			  "  s_waitcnt vmcnt(0)\n"
			  "  s_endpgm\n"
			  "label_Sync_EDN_0:\n"
			  "  v_add_u32 v6, v5, v5\n" /* 14 */
			  "  s_endpgm\n");
	assert_int_equal(at(r, KW_VF_RACE_RAW, 14), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNSUPPORTED), 0);
	kw_verify_result_free(r);
}

/* ---- Tensile macros: expanded with their arguments ---- */

static void test_macros(void **state)
{
	static const char *text =
		".set sgprStrideAL, 41\n"
		".macro _v_add_co_u32 dst:req, cc:req, src0:req, src1:req, dpp=\n"
		"   v_add_co_u32 \\dst, \\cc, \\src0, \\src1 \\dpp\n"
		".endm\n"
		"/* Global Offset A */\n"
		".macro GLOBAL_OFFSET_A vgprAddr:req vgprOffset0I:req vgprOffsetL:req vgprTmp:req\n"
		"v_mul_lo_u32 v[\\vgprTmp+0], s[sgprStrideAL], v[\\vgprOffsetL] // mul d1 lower\n"
		"_v_add_co_u32 v[\\vgprAddr+0], vcc, v[\\vgprOffset0I], v[\\vgprTmp+0] // accumulate\n"
		".endm\n"
		"k:\n"
		"  buffer_load_dword v5, v1, s[8:11], 0 offen\n"
		"  GLOBAL_OFFSET_A 10, 5, 6, 7\n" /* 12: v5 read in the expansion */
		"  s_waitcnt vmcnt(0)\n"
		"  buffer_load_dword v5, v1, s[8:11], 0 offen\n"
		"  GLOBAL_OFFSET_A 10, 5, 6, 7  // kwgen-verify: allow race_raw\n"
		"  s_waitcnt vmcnt(0)\n"
		"  s_endpgm\n";
	kw_verify_result *r = run("gfx908", text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 12);
	assert_string_equal(f->reg, "v5");
	assert_string_equal(f->mnemonic, "v_add_co_u32");
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	assert_int_equal(kw_verify_result_stats(r)->instructions, 9);
	kw_verify_result_free(r);
	/* conditional assembly: only the taken branch is read */
	r = run("gfx942", ".set X, 1\n"
			  "k:\n"
			  "\tbuffer_load_dword v5, v1, s[8:11], 0 offen\n"
			  ".if X == 0 && 1\n"
			  "\tv_add_u32 v6, v5, v5\n"
			  ".else\n"
			  "\ts_waitcnt vmcnt(0)\n"
			  ".endif\n"
			  ".ifdef Y\n"
			  "\tv_add_u32 v6, v5, v5\n"
			  ".endif\n"
			  "\tv_add_u32 v7, v5, v5\n"
			  "\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_stats(r)->instructions, 4);
	kw_verify_result_free(r);
}

/* ---- suppressions (file rules and inline), exact totals ---- */

static void test_suppressions(void **state)
{
	static const char *text = "k:\n"
				  "\tds_read_b64 v[34:35], v36 offset:32\n"
				  "\tv_mfma_f32_16x16x16_f16 a[0:3], v[34:35], v[16:17], a[0:3] // kwgen-verify: allow race_raw\n"
				  "\tds_read_b64 v[36:37], v36 offset:40\n"
				  "\tv_mfma_f32_16x16x16_f16 a[0:3], v[36:37], v[16:17], a[0:3]\n" /* 5 */
				  "\ts_waitcnt lgkmcnt(0)\n"
				  "\ts_endpgm\n";
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	assert_non_null(strstr(first(r, KW_VF_RACE_RAW)->message, "relies on LDS latency"));
	kw_verify_result_free(r);
	o.suppressions = "# accept LDS-latency schedules\nrace_raw function=k counter=lgkmcnt\n";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 0);
	assert_int_equal(kw_verify_result_suppressed(r), 2);
	kw_verify_result_free(r);
	o.suppressions = "race_raw line=4\n";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	kw_verify_result_free(r);
	o.suppressions = "race_rw line=4\n";
	r = NULL;
	assert_int_equal(kw_verify_text(&r, text, strlen(text), &o, &err), KW_EINVAL);
	assert_null(r);
	assert_non_null(strstr(err.message, "suppression line 1"));
}

static void test_totals_exact(void **state)
{
	char *text = malloc(200000);
	size_t n = 0;
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	kw_buf out = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	n += (size_t)sprintf(text + n, "k:\n");
	for (int i = 0; i < 500; i++)
		n += (size_t)sprintf(text + n, "\tglobal_load_dword v1, v[2:3], off\n\tv_add_f32_e32 v5, v1, v5\n");
	sprintf(text + n, "\ts_endpgm\n");
	o.isa = "gfx942";
	o.max_findings = 10;
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_count(r), 10);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 500);
	assert_int_equal(kw_verify_result_json(&out, r, &err), 0);
	{
		json_error_t je;
		json_t *j = json_loads(out.p, 0, &je);
		assert_non_null(j);
		assert_true(json_is_true(json_object_get(j, "truncated")));
		assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "totals"), "race_raw")), 500);
		assert_int_equal(json_array_size(json_object_get(j, "findings")), 10);
		json_decref(j);
	}
	kw_buf_reset(&out);
	assert_int_equal(kw_verify_result_text(&out, r, &err), 0);
	assert_non_null(strstr(out.p, "490 more findings not listed"));
	/* the totals line is the last, after that note */
	assert_true(strstr(out.p, "490 more findings not listed") < strstr(out.p, ": totals: "));
	assert_non_null(strstr(strstr(out.p, ": totals: "), "checked\n"));
	assert_int_equal(out.p[out.len - 1], '\n');
	assert_null(strchr(strstr(out.p, ": totals: "), '\n')[1] ? "text after the totals line" : NULL);
	kw_buf_free(&out);
	kw_verify_result_free(r);
	free(text);
}

/* ---- output forms ---- */

static void test_output(void **state)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	kw_buf out = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;
	json_error_t je;
	json_t *j, *f;

	(void)state;
	o.isa = "gfx942";
	o.filename = "tile.s";
	r = run_opts(LDS11("4"), &o);
	assert_int_equal(kw_verify_result_text(&out, r, &err), 0);
	assert_non_null(strstr(out.p, "tile.s:14: error: v[28:29] read by v_mfma_f32_16x16x16_f16"));
	assert_non_null(strstr(out.p, "[race_raw]\n"));
	kw_buf_reset(&out);
	assert_int_equal(kw_verify_result_json(&out, r, &err), 0);
	j = json_loads(out.p, 0, &je);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "isa")), "gfx942");
	f = json_array_get(json_object_get(j, "findings"), 0);
	assert_string_equal(json_string_value(json_object_get(f, "code")), "race_raw");
	assert_int_equal(json_integer_value(json_object_get(f, "line")), 14);
	assert_string_equal(json_string_value(json_object_get(f, "register")), "v[28:29]");
	assert_int_equal(json_integer_value(json_object_get(f, "producer_line")), 9);
	assert_int_equal(json_integer_value(json_object_get(f, "needed")), 3);
	assert_int_equal(json_integer_value(json_object_get(f, "have")), 4);
	assert_null(json_object_get(f, "offset"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "stats"), "instructions")), 16);
	json_decref(j);
	kw_buf_free(&out);
	kw_verify_result_free(r);
}

/* ---- bounds and bad input ---- */

static void test_bad_input(void **state)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	static const char nul[] = "k:\n\ts_endpgm\0\n";

	(void)state;
	assert_int_equal(kw_verify_text(&r, "k:\n\ts_endpgm\n", 12, &o, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, "--isa"));
	assert_null(r);
	o.isa = "gfx999";
	assert_int_equal(kw_verify_text(&r, "k:\n", 3, &o, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, "gfx942"));
	o.isa = "gfx942";
	assert_int_equal(kw_verify_text(&r, nul, sizeof(nul) - 1, &o, &err), KW_EINVAL);
	o.max_instructions = 2;
	{
		const char *three = "k:\n\ts_nop 0\n\ts_nop 0\n\ts_endpgm\n";
		assert_int_equal(kw_verify_text(&r, three, strlen(three), &o, &err), KW_ELIMIT);
	}
	assert_non_null(strstr(err.message, "max_instructions"));
	o.max_instructions = 0;
	o.max_work = 3;
	{
		const char *loop = "k:\n.L1:\n\ts_nop 0\n\ts_nop 0\n\ts_cbranch_scc1 .L1\n\ts_nop 0\n\ts_endpgm\n";
		assert_int_equal(kw_verify_text(&r, loop, strlen(loop), &o, &err), KW_ELIMIT);
		assert_non_null(strstr(err.message, "max_work"));
	}
	assert_null(r);
	/* empty text, or text without instructions, is refused: nothing was
	 * checked; instructions given as data words too (garbage is unknown) */
	o.max_work = 0;
	assert_int_equal(kw_verify_text(&r, "", 0, &o, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, "nothing was checked"));
	assert_null(r);
	assert_int_equal(kw_verify_text(&r, "k:\n.set x, 1\n", 13, &o, &err), KW_EINVAL);
	assert_null(r);
	{
		const char *words = ".text\nk:\n.long 0xBF810000\n";
		kw_verify_words w;
		assert_int_equal(kw_verify_text(&r, words, strlen(words), &o, &err), KW_EINVAL);
		assert_string_equal(err.field, "data_words");
		assert_non_null(strstr(err.message, "line 3"));
		assert_null(r);
		assert_int_equal(kw_verify_text_words(&w, words, strlen(words), "gfx942", &err), 0);
		assert_int_equal(w.len, 4);
		assert_int_equal(w.bytes[3], 0xBF);
		assert_int_equal(w.nsyms, 1);
		assert_string_equal(w.syms[0].name, "k");
		assert_int_equal(w.nlines, 1);
		assert_int_equal(w.lines[0].allow, 0);
		kw_verify_words_free(&w);
	}
	/* an inline allow on a word's line (or on the macro call that makes
	 * it) comes with the line; a malformed one is refused naming its
	 * line, as on a text line */
	{
		const char *words = ".text\n"
				    ".macro W x\n"
				    ".long \\x\n"
				    ".endm\n"
				    "k:\n"
				    ".long 0xBF800000 // kwgen-verify: allow race_raw\n"            /* 6 */
				    ".long 0xBF800000 ; no rule here\n"                             /* 7 */
				    ".long 0xBF800000 // kwgen-verify: allow *\n"                   /* 8 */
				    "W 0xBF800000 // kwgen-verify: allow lds_latency, race_waw\n" /* 9 */
				    ".long 0xBF810000\n";                                           /* 10 */
		const char *bad[] = { ".text\nk:\n.long 0xBF800000 ; kwgen-verify: allow race_rw\n",
				      ".text\nk:\n.long 0xBF810000 // kwgen-verify allow race_raw\n" };
		kw_verify_words w;
		for (size_t i = 0; i < 2; i++) {
			assert_int_equal(kw_verify_text_words(&w, bad[i], strlen(bad[i]), "gfx942", &err), KW_EINVAL);
			assert_string_equal(err.field, "allow");
			assert_non_null(strstr(err.message, "line 3"));
			kw_error_clear(&err);
		}
		assert_int_equal(kw_verify_text_words(&w, words, strlen(words), "gfx942", &err), 0);
		assert_int_equal(w.len, 20);
		assert_int_equal(w.nlines, 5);
		for (size_t i = 0; i < 5; i++) {
			assert_int_equal(w.lines[i].offset, 4 * i);
			assert_int_equal(w.lines[i].line, 6 + i);
		}
		assert_int_equal(w.lines[0].allow, 1u << KW_VF_RACE_RAW);
		assert_int_equal(w.lines[1].allow, 0);
		assert_int_equal(w.lines[2].allow, 0xff);
		assert_int_equal(w.lines[3].allow, (1u << KW_VF_LDS_LATENCY) | (1u << KW_VF_RACE_WAW));
		assert_int_equal(w.lines[4].allow, 0);
		kw_verify_words_free(&w);
	}
	/* words in a data section are data, not skipped code */
	{
		const char *data = ".rodata\nt:\n.long 7\n.text\nk:\n\ts_endpgm\n";
		assert_int_equal(kw_verify_text(&r, data, strlen(data), &o, &err), 0);
		kw_verify_result_free(r);
	}
	assert_int_equal(kw_verify_text(&r, "\x01\x02 ]]] [[[ ,,,\n", 14, &o, &err), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 1);
	kw_verify_result_free(r);
}

static void test_code_names(void **state)
{
	(void)state;
	for (int c = 0; c < KW_VF_CODE_COUNT; c++)
		assert_int_equal(kw_verify_code_from_name(kw_verify_code_name(c)), c);
	assert_null(kw_verify_code_name(KW_VF_CODE_COUNT));
	assert_int_equal(kw_verify_code_from_name("nope"), -1);
	assert_true(kw_verify_code_is_race(KW_VF_LDS_DMA));
	assert_false(kw_verify_code_is_race(KW_VF_REDUNDANT_WAIT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_loop_stats),
		cmocka_unit_test(test_redundant_option),
		cmocka_unit_test(test_unknown_instruction),
		cmocka_unit_test(test_each_producer),
		cmocka_unit_test(test_back_pressure),
		cmocka_unit_test(test_callable_entry),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_objdump_callable),
		cmocka_unit_test(test_objdump),
		cmocka_unit_test(test_long_branch),
		cmocka_unit_test(test_macros),
		cmocka_unit_test(test_suppressions),
		cmocka_unit_test(test_totals_exact),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_code_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
