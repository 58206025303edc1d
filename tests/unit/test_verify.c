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

static kw_verify_result *run_opts(const char *text, const kw_verify_opts *o)
{
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	int rc = kw_verify_text(&r, text, strlen(text), o, &err);

	if (rc)
		fail_msg("kw_verify_text failed: %s", err.message);
	assert_non_null(r);
	return r;
}

static kw_verify_result *run(const char *isa, const char *text)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = isa;
	return run_opts(text, &o);
}

/* findings of code at line */
static int at(const kw_verify_result *r, int code, int64_t line)
{
	int n = 0;

	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		if (f->code == code && f->line == line)
			n++;
	}
	return n;
}

static uint64_t races(const kw_verify_result *r)
{
	return kw_verify_result_total(r, KW_VF_RACE_RAW) + kw_verify_result_total(r, KW_VF_RACE_WAW) +
	       kw_verify_result_total(r, KW_VF_LDS_BARRIER) + kw_verify_result_total(r, KW_VF_LDS_DMA);
}

static const kw_verify_finding *first(const kw_verify_result *r, int code)
{
	for (size_t i = 0; i < kw_verify_result_count(r); i++)
		if (kw_verify_result_at(r, i)->code == code)
			return kw_verify_result_at(r, i);
	return NULL;
}

/* ---- in-order LDS: lgkmcnt(N) completes the reads with N younger ---- */

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

static void test_lds_in_order(void **state)
{
	kw_verify_result *r = run("gfx942", LDS11("4"));
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 14), 1);
	assert_int_equal(races(r), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_string_equal(f->reg, "v[28:29]");
	assert_int_equal(f->producer_line, 9);
	assert_string_equal(f->counter, "lgkmcnt");
	assert_int_equal(f->needed, 3);
	assert_int_equal(f->have, 4);
	assert_non_null(strstr(f->message, "needs lgkmcnt(3), has lgkmcnt(4)"));
	assert_int_equal(f->offset, -1);
	kw_verify_result_free(r);
	r = run("gfx942", LDS11("3"));
	assert_int_equal(races(r), 0);
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

/* ---- SMEM is out of order: only a zero count completes it ---- */

static void test_smem_out_of_order(void **state)
{
	static const char *bad =
		"k:\n"
		"\ts_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		"\ts_load_dword s6, s[0:1], 0x8\n"
		"\ts_waitcnt lgkmcnt(1)\n"
		"\ts_add_u32 s7, s4, 1\n" /* 5 */
		"\ts_endpgm\n";
	static const char *good =
		"k:\n"
		"\ts_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		"\ts_load_dword s6, s[0:1], 0x8\n"
		"\ts_waitcnt lgkmcnt(0)\n"
		"\ts_add_u32 s7, s4, 1\n"
		"\ts_endpgm\n";
	static const char *bad12 =
		"k:\n"
		"\ts_load_b64 s[8:9], s[0:1], 0x0\n"
		"\ts_load_b64 s[10:11], s[0:1], 0x8\n"
		"\ts_wait_kmcnt 0x1\n"
		"\ts_add_co_u32 s20, s8, s8\n" /* 5 */
		"\ts_endpgm\n";
	kw_verify_result *r;

	(void)state;
	r = run("gfx90a", bad);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	assert_int_equal(first(r, KW_VF_RACE_RAW)->needed, 0);
	/* lgkmcnt(1) with two SMEM in flight does wait for one: not redundant */
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
	r = run("gfx90a", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	r = run("gfx1201", bad12);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->counter, "kmcnt");
	kw_verify_result_free(r);
}

/* ---- FLAT counts on vmcnt and lgkmcnt: needs both at zero ---- */

static void test_flat_both_counters(void **state)
{
	static const char *bad = "k:\n"
				 "\tflat_load_dwordx4 v[0:3], v[4:5]\n"
				 "\ts_waitcnt vmcnt(0)\n"
				 "\tv_add_f32_e32 v6, v0, v1\n" /* 4 */
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\tflat_load_dwordx4 v[0:3], v[4:5]\n"
				  "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
				  "\tv_add_f32_e32 v6, v0, v1\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", bad);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 4), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->counter, "lgkmcnt");
	kw_verify_result_free(r);
	r = run("gfx942", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* ---- gfx12 combined waits: imm = loadcnt << 8 | dscnt ---- */

static void test_gfx12_combined(void **state)
{
	static const char *bad = "k:\n"
				 "\tglobal_load_b32 v1, v10, s[0:1]\n"
				 "\tds_load_b32 v2, v10\n"
				 "\tds_load_b32 v3, v10 offset:4\n"
				 "\ts_wait_loadcnt_dscnt 0x1\n"
				 "\tv_add_f32_e32 v4, v1, v2\n" /* 6: clean */
				 "\tv_add_f32_e32 v5, v3, v3\n" /* 7: race */
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\tglobal_load_b32 v1, v10, s[0:1]\n"
				  "\tds_load_b32 v2, v10\n"
				  "\tds_load_b32 v3, v10 offset:4\n"
				  "\ts_wait_loadcnt_dscnt 0x0\n"
				  "\tv_add_f32_e32 v4, v1, v2\n"
				  "\tv_add_f32_e32 v5, v3, v3\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx1201", bad);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 6), 0);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 7), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->counter, "dscnt");
	kw_verify_result_free(r);
	r = run("gfx1201", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* ---- loads and stores have separate counters from gfx10 ---- */

static void test_store_counter_separate(void **state)
{
	static const char *bad12 = "k:\n"
				   "\tglobal_load_b32 v3, v10, s[0:1]\n"
				   "\tglobal_store_b32 v10, v2, s[2:3]\n"
				   "\ts_wait_storecnt 0x0\n"
				   "\tv_add_f32_e32 v6, v3, v3\n" /* 5 */
				   "\ts_endpgm\n";
	static const char *good11 = "k:\n"
				    "\tglobal_load_b32 v3, v10, s[0:1]\n"
				    "\tglobal_store_b32 v10, v2, s[2:3]\n"
				    "\ts_waitcnt vmcnt(0)\n"
				    "\tv_add_f32_e32 v6, v3, v3\n"
				    "\ts_waitcnt_vscnt null, 0x0\n"
				    "\ts_endpgm\n";
	static const char *bad11 = "k:\n"
				   "\tglobal_load_b32 v3, v10, s[0:1]\n"
				   "\tglobal_store_b32 v10, v2, s[2:3]\n"
				   "\ts_waitcnt_vscnt null, 0x0\n"
				   "\tv_add_f32_e32 v6, v3, v3\n" /* 5 */
				   "\ts_endpgm\n";
	kw_verify_result *r = run("gfx1201", bad12);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->counter, "loadcnt");
	kw_verify_result_free(r);
	r = run("gfx1100", good11);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
	r = run("gfx1100", bad11);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 5), 1);
	assert_string_equal(first(r, KW_VF_RACE_RAW)->counter, "vmcnt");
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

/* ---- loops: a load at the bottom read at the top on the back edge ---- */

static void test_loop(void **state)
{
	static const char *bad = "k:\n"
				 "\tglobal_load_dword v1, v[2:3], off\n"
				 "\ts_mov_b32 s4, 0\n"
				 "\ts_waitcnt vmcnt(0)\n"
				 ".LBB0_1:\n"
				 "\tv_add_f32_e32 v5, v1, v5\n" /* 6 */
				 "\tglobal_load_dword v1, v[2:3], off offset:4\n"
				 "\ts_add_i32 s4, s4, 1\n"
				 "\ts_cmp_lt_i32 s4, 10\n"
				 "\ts_cbranch_scc1 .LBB0_1\n"
				 "\ts_waitcnt vmcnt(0)\n"
				 "\tglobal_store_dword v[2:3], v1, off\n" /* 12 */
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\tglobal_load_dword v1, v[2:3], off\n"
				  "\ts_mov_b32 s4, 0\n"
				  ".LBB0_1:\n"
				  "\ts_waitcnt vmcnt(0)\n"
				  "\tv_add_f32_e32 v5, v1, v5\n"
				  "\tglobal_load_dword v1, v[2:3], off offset:4\n"
				  "\ts_add_i32 s4, s4, 1\n"
				  "\ts_cmp_lt_i32 s4, 10\n"
				  "\ts_cbranch_scc1 .LBB0_1\n"
				  "\ts_waitcnt vmcnt(0)\n"
				  "\tglobal_store_dword v[2:3], v1, off\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", bad);
	const kw_verify_stats *st;

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_RAW, 6), 1);
	assert_int_equal(first(r, KW_VF_RACE_RAW)->producer_line, 7);
	assert_int_equal(races(r), 1);
	st = kw_verify_result_stats(r);
	assert_int_equal(st->instructions, 11);
	assert_int_equal(st->blocks, 3);
	assert_int_equal(st->functions, 1);
	assert_int_equal(st->waits, 2);
	kw_verify_result_free(r);
	r = run("gfx942", good);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
}

/* ---- WAW: an ALU write to a register an in-flight load will write ---- */

static void test_waw(void **state)
{
	static const char *bad = "k:\n"
				 "\tglobal_load_dwordx2 v[0:1], v[4:5], off\n"
				 "\tv_mov_b32_e32 v1, 0\n" /* 3 */
				 "\ts_waitcnt vmcnt(0)\n"
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\tglobal_load_dwordx2 v[0:1], v[4:5], off\n"
				  "\ts_waitcnt vmcnt(0)\n"
				  "\tv_mov_b32_e32 v1, 0\n"
				  "\ts_endpgm\n";
	/* two loads of one in-order class write in order: no hazard */
	static const char *same = "k:\n"
				  "\tglobal_load_dwordx2 v[0:1], v[4:5], off\n"
				  "\tglobal_load_dwordx2 v[0:1], v[4:5], off offset:8\n"
				  "\ts_waitcnt vmcnt(0)\n"
				  "\tv_add_f32_e32 v2, v0, v1\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx90a", bad);

	(void)state;
	assert_int_equal(at(r, KW_VF_RACE_WAW, 3), 1);
	assert_string_equal(first(r, KW_VF_RACE_WAW)->reg, "v1");
	kw_verify_result_free(r);
	r = run("gfx90a", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	r = run("gfx90a", same);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* ---- LDS written by an in-flight op at a barrier ---- */

static void test_lds_barrier(void **state)
{
	static const char *bad = "k:\n"
				 "\tds_write_b64 v9, v[16:17]\n"
				 "\ts_barrier\n" /* 3 */
				 "\tds_read_b64 v[2:3], v10\n"
				 "\ts_waitcnt lgkmcnt(0)\n"
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\tds_write_b64 v9, v[16:17]\n"
				  "\ts_waitcnt lgkmcnt(0)\n"
				  "\ts_barrier\n"
				  "\tds_read_b64 v[2:3], v10\n"
				  "\ts_waitcnt lgkmcnt(0)\n"
				  "\ts_endpgm\n";
	static const char *bad12 = "k:\n"
				   "\tds_store_b64 v9, v[16:17]\n"
				   "\ts_barrier_signal -1\n" /* 3 */
				   "\ts_barrier_wait -1\n"
				   "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", bad);

	(void)state;
	assert_int_equal(at(r, KW_VF_LDS_BARRIER, 3), 1);
	assert_int_equal(races(r), 1);
	kw_verify_result_free(r);
	r = run("gfx942", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	r = run("gfx1201", bad12);
	assert_int_equal(at(r, KW_VF_LDS_BARRIER, 3), 1);
	assert_string_equal(first(r, KW_VF_LDS_BARRIER)->counter, "dscnt");
	kw_verify_result_free(r);
}

/* ---- LDS DMA completes on vmcnt ---- */

static void test_lds_dma(void **state)
{
	static const char *bad = "k:\n"
				 "\ts_mov_b32 m0, 0\n"
				 "\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
				 "\ts_waitcnt lgkmcnt(0)\n"
				 "\ts_barrier\n" /* 5 */
				 "\tds_read_b32 v2, v3\n" /* 6 */
				 "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
				 "\tv_add_u32_e32 v4, v2, v2\n"
				 "\ts_endpgm\n";
	static const char *good = "k:\n"
				  "\ts_mov_b32 m0, 0\n"
				  "\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
				  "\ts_waitcnt vmcnt(0)\n"
				  "\ts_barrier\n"
				  "\tds_read_b32 v2, v3\n"
				  "\ts_waitcnt lgkmcnt(0)\n"
				  "\tv_add_u32_e32 v4, v2, v2\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", bad);

	(void)state;
	assert_int_equal(at(r, KW_VF_LDS_DMA, 6), 1);
	assert_int_equal(at(r, KW_VF_LDS_BARRIER, 5), 1);
	assert_string_equal(first(r, KW_VF_LDS_DMA)->counter, "vmcnt");
	/* v1 is the address of the DMA load, not a result: no race on it */
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 0);
	kw_verify_result_free(r);
	r = run("gfx942", good);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	/* double buffering: the DMA into the other buffer stays in flight
	 * behind a partial vmcnt wait */
	r = run("gfx942", "k:\n"
			  "\tbuffer_load_dword v1, s[4:7], 0 offen lds\n"
			  "\tbuffer_load_dword v1, s[4:7], 0 offen offset:256 lds\n"
			  "\ts_waitcnt vmcnt(1)\n"
			  "\ts_barrier\n"
			  "\tds_read_b32 v2, v3\n"
			  "\ts_waitcnt vmcnt(0) lgkmcnt(0)\n"
			  "\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
}

/* ---- redundant waits ---- */

static void test_redundant(void **state)
{
	static const char *text = "k:\n"
				  "\ts_load_dword s0, s[0:1], 0x24\n"
				  "\ts_waitcnt lgkmcnt(0)\n" /* 3: needed */
				  "\tv_mov_b32_e32 v0, s0\n"
				  "\tds_add_u32 v0, v1\n"
				  "\ts_waitcnt lgkmcnt(0)\n" /* 6: needed (the ds_add) */
				  "\ts_waitcnt lgkmcnt(0)\n" /* 7: redundant */
				  "\ts_endpgm\n";
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r = run("gfx90a", text);

	(void)state;
	assert_int_equal(at(r, KW_VF_REDUNDANT_WAIT, 7), 1);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 1);
	assert_int_equal(first(r, KW_VF_REDUNDANT_WAIT)->severity, KW_VS_WARNING);
	assert_int_equal(kw_verify_result_errors(r), 0);
	kw_verify_result_free(r);
	o.isa = "gfx90a";
	o.no_redundant = 1;
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_REDUNDANT_WAIT), 0);
	kw_verify_result_free(r);
}

/* ---- unknown instructions are findings, known families are not ---- */

static void test_unknown_instruction(void **state)
{
	static const char *text = "k:\n"
				  "\tv_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]\n"
				  "\ts_setprio 3\n"
				  "\tbuffer_wbl2 sc1\n"
				  "\tmy_macro v1, v2\n" /* 5 */
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx942", text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 1);
	f = first(r, KW_VF_UNKNOWN_INSTRUCTION);
	assert_int_equal(f->line, 5);
	assert_string_equal(f->mnemonic, "my_macro");
	assert_int_equal(kw_verify_result_errors(r), 1);
	kw_verify_result_free(r);
	/* s_waitcnt does not exist on gfx12 */
	r = run("gfx1201", "k:\n\ts_waitcnt vmcnt(0)\n\ts_endpgm\n");
	assert_int_equal(at(r, KW_VF_UNKNOWN_INSTRUCTION, 2), 1);
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

/* ---- .set symbols in register indices, raw s_waitcnt immediates ---- */

static void test_symbols_and_immediates(void **state)
{
	static const char *text = ".set vgprValuC, 12\n"
				  "vgprG = vgprValuC + 8\n"
				  "k:\n"
				  "\tbuffer_load_dwordx2 v[vgprValuC+3:vgprValuC+3+1], v[vgprG], s[4:7], 0 offen\n"
				  "\ts_waitcnt 0x3f70\n" /* 5: gfx9 vmcnt(0) */
				  "\tv_mov_b32 v0, v16\n"
				  "\tbuffer_load_dword v[vgprValuC], v20, s[4:7], 0 offen\n"
				  "\tv_mov_b32 v0, v12\n" /* 8 */
				  "\ts_waitcnt vmcnt(0) & lgkmcnt(0)\n"
				  "\ts_endpgm\n";
	kw_verify_result *r = run("gfx90a", text);
	const kw_verify_finding *f;

	(void)state;
	assert_int_equal(races(r), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_int_equal(f->line, 8);
	assert_string_equal(f->reg, "v12");
	kw_verify_result_free(r);
	/* gfx11 raw immediate: vmcnt in bits 15:10 -> 0x03f7 is vmcnt(0) */
	r = run("gfx1100", "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\ts_waitcnt 0x3f7\n"
			   "\tv_add_f32_e32 v4, v1, v1\n\ts_endpgm\n");
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	r = run("gfx1100", "k:\n\tglobal_load_b32 v1, v10, s[0:1]\n\ts_waitcnt 0xfc07\n"
			   "\tv_add_f32_e32 v4, v1, v1\n\ts_endpgm\n");
	assert_int_equal(at(r, KW_VF_RACE_RAW, 4), 1);
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
		cmocka_unit_test(test_lds_in_order),
		cmocka_unit_test(test_each_producer),
		cmocka_unit_test(test_smem_out_of_order),
		cmocka_unit_test(test_flat_both_counters),
		cmocka_unit_test(test_gfx12_combined),
		cmocka_unit_test(test_store_counter_separate),
		cmocka_unit_test(test_back_pressure),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_waw),
		cmocka_unit_test(test_lds_barrier),
		cmocka_unit_test(test_lds_dma),
		cmocka_unit_test(test_redundant),
		cmocka_unit_test(test_unknown_instruction),
		cmocka_unit_test(test_callable_entry),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_objdump_callable),
		cmocka_unit_test(test_objdump),
		cmocka_unit_test(test_long_branch),
		cmocka_unit_test(test_symbols_and_immediates),
		cmocka_unit_test(test_macros),
		cmocka_unit_test(test_suppressions),
		cmocka_unit_test(test_totals_exact),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_code_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
