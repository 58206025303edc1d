/*
 * test_gen.c - the ten generators through the kw_gen_* API (kwgen/gen.h).
 *
 * The first part checks hand-computed cases of each generator; the second
 * runs a table of cases whose expected text was produced by the reference
 * oracle (python3 /work/shared/oracle/oracle.py) for the same inputs.
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

#include "kwgen/datatype.h"
#include "kwgen/gen.h"
#include "kwgen/module.h"

enum { G_TDM, G_WAIT, G_SYNC, G_MAPPER, G_LEN, G_SEQ, G_IMAG, G_MAPREGS, G_MUL, G_MOVE };

typedef struct gcase {
	const char *name, *isa;
	int gen;
	const char *kernel, *tpa, *tpb, *states, *args;
	const char *want_asm;
	const int64_t *want_map;
	int map_len;
	int64_t want_value;
} gcase;

/* Everything a generator call needs, parsed from JSON texts. */
typedef struct fx {
	kw_arena arena;
	kw_caps caps;
	kw_kernel k;
	kw_tp tPA, tPB;
	kw_states st;
	kw_diags diags;
	kw_gen_in in;
	kw_buf out;
	kw_error err;
} fx;

static json_t *js(const char *text)
{
	json_error_t e;
	json_t *v;

	if (!text)
		return NULL;
	v = json_loads(text, JSON_DECODE_ANY, &e);
	if (!v)
		fail_msg("bad test JSON: %s", e.text);
	return v;
}

static void fx_init(fx *f, const char *isa, const char *kernel, const char *tpa, const char *tpb, const char *states)
{
	json_t *v;

	memset(f, 0, sizeof(*f));
	v = json_string(isa);
	if (kw_isa_parse(&f->in.isa, v, &f->err))
		fail_msg("%s", f->err.message);
	json_decref(v);
	kw_caps_for(&f->caps, f->in.isa);
	v = js(kernel);
	if (kw_kernel_parse(&f->k, v, 0, &f->err))
		fail_msg("kernel: %s", f->err.message);
	json_decref(v);
	v = js(tpa);
	if (kw_tp_parse(&f->tPA, v, "tPA", &f->err))
		fail_msg("tPA: %s", f->err.message);
	json_decref(v);
	v = js(tpb);
	if (kw_tp_parse(&f->tPB, v, "tPB", &f->err))
		fail_msg("tPB: %s", f->err.message);
	json_decref(v);
	v = js(states);
	if (kw_states_parse(&f->st, v, &f->err))
		fail_msg("states: %s", f->err.message);
	json_decref(v);
	f->in.arena = &f->arena;
	f->in.caps = &f->caps;
	f->in.k = &f->k;
	f->in.tPA = &f->tPA;
	f->in.tPB = &f->tPB;
	f->in.states = &f->st;
	f->in.diags = &f->diags;
	f->in.max_acc_len = 65536;
}

static void fx_free(fx *f)
{
	kw_arena_free(&f->arena);
	kw_buf_free(&f->out);
}

/* Render it (holders unresolved) into f->out; returns kw_render's code. */
static int fx_render(fx *f, const kw_item *it)
{
	kw_render_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.isa = f->in.isa;
	ctx.caps = &f->caps;
	ctx.diags = &f->diags;
	kw_buf_reset(&f->out);
	kw_error_clear(&f->err);
	return kw_render(&f->out, it, &ctx, &f->err);
}

static const char *text(fx *f)
{
	return f->out.p ? f->out.p : "";
}

static void expect_text(fx *f, const kw_item *it, const char *want)
{
	assert_non_null(it);
	assert_int_equal(fx_render(f, it), 0);
	assert_string_equal(text(f), want);
}

/* ---- shared inputs for the wait cases ---------------------------------- */

/* A: 3 x 2 global loads, B: 4 x 1; MXSA 2 x 1, MXSB 1 x 1, metadata 5 x 1 */
#define WK(extra, pt) \
	"{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false," \
	"\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false," \
	"\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3," \
	"\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1," \
	"\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1," \
	"\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5" extra "," \
	"\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false" pt "}}"
/* local writes: A 2*1*max(4,2)//2 = 4, B 1*3*max(1,2)//1 = 6, A.tpsMetadata 2, A.MX 2, B.MX 3;
 * local reads: A blockWidth 1 (x1), B blockWidth 6 (x2) */
#define WTPA "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1}," \
	"\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1}," \
	"\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}"
#define WTPB "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6}," \
	"\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}"
/* reads per iteration: A 3, B 2, metadata 1, MXSA 5, MXSB 7 */
#define WST "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1," \
	"\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}"

static void wait_case(const char *isa, const char *kernel, int64_t gr, int64_t lw, int64_t lr, int64_t cons,
		      int64_t inst, const char *comment, const char *want)
{
	fx f;
	kw_item *it = NULL;
	kw_wait_args a = KW_WAIT_ARGS_INIT;

	fx_init(&f, isa, kernel, WTPA, WTPB, WST);
	a.skipGlobalRead = gr;
	a.skipLocalWrite = lw;
	a.skipLocalRead = lr;
	a.conservativeWaitCnt = cons;
	a.skipGlobalReadInst = inst;
	a.comment = comment;
	if (kw_gen_wait(&it, &f.in, &a, &f.err))
		fail_msg("wait: %s", f.err.message);
	expect_text(&f, it, want);
	fx_free(&f);
}

static void test_wait_counts(void **state)
{
	(void)state;
	/* vlcnt = 1 * (3*2 + 4*1) = 10 */
	wait_case("gfx942", WK("", ""), 1, -1, -1, 0, -1, "", "s_waitcnt vmcnt(10)\n");
	wait_case("gfx1201", WK("", ""), 1, -1, -1, 0, -1, "", "s_wait_loadcnt 10\n");
	/* dscnt = 1 * (4 + 6) = 10 */
	wait_case("gfx942", WK("", ""), -1, 1, -1, 0, -1, "", "s_waitcnt lgkmcnt(10)\n");
	/* dscnt = 2 * (3*1 + 2*2 + 1) = 16: clamped to 15 on gfx9, kept on gfx1100 */
	wait_case("gfx942", WK("", ""), -1, -1, 2, 0, -1, "", "s_waitcnt lgkmcnt(15)\n");
	wait_case("gfx1100", WK("", ""), -1, -1, 2, 0, -1, "", "s_waitcnt lgkmcnt(16)\n");
	wait_case("gfx1250", WK("", ""), -1, -1, 2, 0, -1, "", "s_wait_dscnt 16\n");
	/* both dscnt and vlcnt: vlcnt is dropped ("preserve prior behavior") */
	wait_case("gfx942", WK("", ""), 0, 0, -1, 0, -1, "c", "s_waitcnt lgkmcnt(0)                               // c\n");
	/* skipGlobalReadInst alone, and added to skipGlobalRead */
	wait_case("gfx942", WK("", ""), -1, -1, -1, 0, 3, "", "s_waitcnt vmcnt(3)\n");
	wait_case("gfx942", WK("", ""), 1, -1, -1, 0, 3, "", "s_waitcnt vmcnt(13)\n");
	/* nothing to wait for: empty */
	wait_case("gfx942", WK("", ""), -1, -1, -1, 0, -1, "x", "");
}

static void test_wait_buffer_load_false(void **state)
{
	(void)state;
	/* flat loads also count in dscnt: 0 + 1 * 10 */
	wait_case("gfx942", WK(",\"BufferLoad\":false", ""), 1, 0, -1, 0, -1, "", "s_waitcnt lgkmcnt(10)\n");
	wait_case("gfx1201", WK(",\"BufferLoad\":false", ""), 1, -1, 0, 0, -1, "", "s_wait_dscnt 10\n");
	/* ... only when dscnt is waited on */
	wait_case("gfx942", WK(",\"BufferLoad\":false", ""), 1, -1, -1, 0, -1, "", "s_waitcnt vmcnt(10)\n");
	/* BufferLoad true: dscnt stays 0 */
	wait_case("gfx1201", WK("", ""), 1, -1, 0, 0, -1, "", "s_wait_dscnt 0\n");
}

static void test_wait_direct(void **state)
{
	(void)state;
	/* DirectToLdsA: A writes nothing locally -> 6 */
	wait_case("gfx942", WK(",\"DirectToLdsA\":true", ""), -1, 1, -1, 0, -1, "", "s_waitcnt lgkmcnt(6)\n");
	/* DirectToVgprB -> 4 */
	wait_case("gfx942", WK(",\"DirectToVgprB\":true", ""), -1, 1, -1, 0, -1, "", "s_waitcnt lgkmcnt(4)\n");
	/* DirectToVgprA: no A reads -> 2*2 + 1 = 5 */
	wait_case("gfx942", WK(",\"DirectToVgprA\":true", ""), -1, -1, 1, 0, -1, "", "s_waitcnt lgkmcnt(5)\n");
}

static void test_wait_sparse(void **state)
{
	(void)state;
	/* local writes + A.tpsMetadata (is_sparse) 1*1*2//1 = 2 -> 12 */
	wait_case("gfx942", WK("", ",\"Sparse\":true"), -1, 1, -1, 0, -1, "", "s_waitcnt lgkmcnt(12)\n");
	/* global reads + metadata 5*1 -> 15 */
	wait_case("gfx942", WK("", ",\"Sparse\":true"), 1, -1, -1, 0, -1, "", "s_waitcnt vmcnt(15)\n");
	/* DirectToVgprSparseMetadata: no metadata term */
	wait_case("gfx942", WK(",\"DirectToVgprSparseMetadata\":true", ",\"Sparse\":true"), 1, 1, -1, 0, -1, "",
		  "s_waitcnt lgkmcnt(10)\n");
}

static void test_wait_mx(void **state)
{
	(void)state;
	/* writes 4 + 6 + MXSA 2 + MXSB 3 = 15 */
	wait_case("gfx1100", WK("", ",\"MXBlockA\":true,\"MXBlockB\":true"), -1, 1, -1, 0, -1, "", "s_waitcnt lgkmcnt(15)\n");
	/* reads 3 + 5 + 4 + 7 + 1 = 20 */
	wait_case("gfx1100", WK("", ",\"MXBlockA\":true,\"MXBlockB\":true"), -1, -1, 1, 0, -1, "", "s_waitcnt lgkmcnt(20)\n");
	/* global reads 2 * (6 + 4 + MXSA 2*1) = 24 */
	wait_case("gfx942", WK("", ",\"MXBlockA\":true"), 2, -1, -1, 0, -1, "", "s_waitcnt vmcnt(24)\n");
	/* DirectToVgprMXSA: no MXSA reads -> 3 + 4 + 7 + 1 = 15 */
	wait_case("gfx1100", WK(",\"DirectToVgprMXSA\":true", ",\"MXBlockA\":true,\"MXBlockB\":true"), -1, -1, 1, 0, -1, "",
		  "s_waitcnt lgkmcnt(15)\n");
}

static void test_wait_block_width_6(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_wait_args a = KW_WAIT_ARGS_INIT;

	(void)state;
	/* both tensors with blockWidth 6: 3*2 + 2*2 + 1 = 11 */
	fx_init(&f, "gfx1100", WK("", ""), WTPB, WTPB, WST);
	a.skipLocalRead = 1;
	assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it, "s_waitcnt lgkmcnt(11)\n");
	fx_free(&f);
	/* both with blockWidth 1 (and 0.5 reads as 1): 3 + 2 + 1 = 6 */
	fx_init(&f, "gfx1100", WK("", ""), WTPA,
		"{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":0.5}}", WST);
	assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it, "s_waitcnt lgkmcnt(6)\n");
	fx_free(&f);
}

static void test_wait_conservative(void **state)
{
	(void)state;
	wait_case("gfx942", WK("", ""), 1, -1, -1, 2, -1, "c",
		  "s_waitcnt 0                                        // debug c\n"
		  "s_barrier                                          // debug\n");
	wait_case("gfx1201", WK("", ""), -1, 0, -1, 4, -1, "c",
		  "s_wait_dscnt 0                                     // debug c\n\n"
		  "s_wait_loadcnt 0                                   // debug c\n\n"
		  "s_wait_storecnt 0                                  // debug c\n"
		  "s_barrier_signal -1\ns_barrier_wait -1              // debug\n");
	wait_case("gfx1100", WK("", ""), -1, -1, 0, 8, -1, "",
		  "s_waitcnt 0                                        // debug \n\n"
		  "s_waitcnt_vscnt null 0                             // debug \n"
		  "s_barrier                                          // debug\n");
	/* a bit that does not match the counters asked for: the plain wait */
	wait_case("gfx942", WK("", ""), 1, -1, -1, 8, -1, "c", "s_waitcnt vmcnt(10)                                // c\n");
}

static void test_wait_type(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_wait_args a = KW_WAIT_ARGS_INIT;

	(void)state;
	fx_init(&f, "gfx942", WK("", ""), WTPA, WTPB, WST);
	a.skipGlobalRead = 0;
	assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), 0);
	assert_int_equal(it->kind, KW_ITEM_WAITCNT); /* a bare SWaitCnt */
	a.conservativeWaitCnt = 2;
	assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), 0);
	assert_int_equal(it->kind, KW_ITEM_MODULE);
	assert_string_equal(it->u.mod.name, "ConservativeWaitCnt");
	fx_free(&f);
}

static void wait_missing(const char *kernel, const char *tpa, const char *tpb, const char *states, int64_t gr, int64_t lw,
			 int64_t lr, const char *field)
{
	fx f;
	kw_item *it = NULL;
	kw_wait_args a = KW_WAIT_ARGS_INIT;

	fx_init(&f, "gfx942", kernel, tpa, tpb, states);
	a.skipGlobalRead = gr;
	a.skipLocalWrite = lw;
	a.skipLocalRead = lr;
	assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), KW_EINVAL);
	if (strcmp(f.err.field, field))
		fail_msg("field \"%s\", want \"%s\" (%s)", f.err.field, field, f.err.message);
	fx_free(&f);
}

static void test_wait_missing_keys(void **state)
{
	(void)state;
	wait_missing("{}", WTPA, WTPB, WST, 1, -1, -1, "kernel.NumLoadsPerpendicularA");
	wait_missing("{}", WTPA, WTPB, WST, -1, 1, -1, "kernel.DirectToLdsA");
	wait_missing(WK("", ""), NULL, WTPB, WST, -1, 1, -1, "tPA");
	wait_missing(WK("", ""), "{\"nrp\":1}", WTPB, WST, -1, 1, -1, "tPA.nrc");
	wait_missing(WK("", ""), WTPA, "{\"nrp\":1,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}", WST, -1, -1, 1,
		     "tPB.localReadInstruction.blockWidth");
	wait_missing(WK("", ""), WTPA, WTPB, "{}", -1, -1, 1, "states.numReadsPerIterA");
	/* nwcvpi is a divisor: 0 is refused when the tensor parameters are parsed */
	{
		kw_tp tp;
		kw_error err = KW_ERROR_INIT;
		json_t *v = js("{\"nrp\":1,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":0}");

		assert_int_equal(kw_tp_parse(&tp, v, "tPB", &err), KW_EINVAL);
		assert_string_equal(err.field, "tPB.nwcvpi");
		json_decref(v);
	}
	/* nothing read when nothing is skipped */
	{
		fx f;
		kw_item *it = NULL;
		kw_wait_args a = KW_WAIT_ARGS_INIT;
		fx_init(&f, "gfx942", NULL, NULL, NULL, NULL);
		assert_int_equal(kw_gen_wait(&it, &f.in, &a, &f.err), 0);
		expect_text(&f, it, "");
		fx_free(&f);
	}
}

/* ---- tdmWait ----------------------------------------------------------- */

static void test_tdm_wait(void **state)
{
	fx f;
	kw_item *it = NULL;

	(void)state;
	fx_init(&f, "gfx1250", NULL, NULL, NULL, NULL);
	assert_int_equal(kw_gen_tdm_wait(&it, &f.in, 5, "c", &f.err), 0);
	expect_text(&f, it, "s_wait_loadcnt 0\ns_wait_tensorcnt 5                                 // c\n");
	assert_int_equal(kw_gen_tdm_wait(&it, &f.in, -1, "c", &f.err), 0);
	expect_text(&f, it, "s_wait_tensorcnt -1                                // c\n");
	assert_int_equal(kw_gen_tdm_wait(&it, &f.in, 0, "", &f.err), 0);
	expect_text(&f, it, "s_wait_loadcnt 0\ns_wait_tensorcnt 0\n");
	assert_int_equal(kw_diag_any(&f.diags), 0);
	fx_free(&f);
	fx_init(&f, "gfx942", NULL, NULL, NULL, NULL);
	assert_int_equal(kw_gen_tdm_wait(&it, &f.in, 0, "", &f.err), 0);
	expect_text(&f, it, "s_waitcnt vmcnt(0)\ns_wait_tensorcnt 0\n");
	assert_true(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA] > 0);
	fx_free(&f);
}

/* ---- syncThreads ------------------------------------------------------- */

static void sync_case(const char *isa, const char *kernel, const char *comment, int skip, const char *want)
{
	fx f;
	kw_item *it = NULL;
	kw_sync_args a = KW_SYNC_ARGS_INIT;
	static const int64_t tok[2] = { 1, 2 };

	fx_init(&f, isa, kernel, NULL, NULL, NULL);
	a.comment = comment;
	a.skipForceWaitcnt0 = skip;
	a.memoryToken = tok;
	a.n_memoryToken = 2;
	if (kw_gen_sync_threads(&it, &f.in, &a, &f.err))
		fail_msg("syncThreads: %s", f.err.message);
	expect_text(&f, it, want);
	fx_free(&f);
}

#define SK(nt, wave) "{\"NumThreads\":" #nt ",\"WavefrontSize\":" #wave ",\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}"

static void test_sync_threads_per_isa(void **state)
{
	(void)state;
	sync_case("gfx908", SK(256, 64), "c",
		  0, "s_waitcnt 0                                        // force waitcnt0\n"
		     "s_barrier                                          // c\n");
	sync_case("gfx942", SK(256, 64), "c",
		  0, "s_waitcnt 0                                        // force waitcnt0\n"
		     "s_barrier                                          // c\n");
	sync_case("gfx950", SK(256, 64), "", 0, "s_waitcnt 0                                        // force waitcnt0\ns_barrier\n");
	sync_case("gfx1100", SK(256, 32), "c",
		  0, "s_waitcnt lgkmcnt(0)                               // extra navi wait\n"
		     "s_barrier                                          // c\n");
	sync_case("gfx1100", SK(256, 32), "", 1, "s_waitcnt lgkmcnt(0)                               // extra navi wait\ns_barrier\n");
	sync_case("gfx1201", SK(256, 32), "c", 0, "s_barrier_signal -1\ns_barrier_wait -1              // c\n");
	sync_case("gfx1250", SK(256, 32), "c", 0, "s_barrier_signal -1\ns_barrier_wait -1              // c\n");
}

static void test_sync_threads_skip(void **state)
{
	(void)state;
	sync_case("gfx942", "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":2}", "", 0,
		  "// Skip force waitcnt0\ns_barrier\n");
	sync_case("gfx942", "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":2}", "", 0,
		  "// Skip force waitcnt0\ns_barrier\n");
	sync_case("gfx942", SK(256, 64), "", 1, "// Skip force waitcnt0\ns_barrier\n");
	sync_case("gfx1201", SK(256, 32), "", 1, "// Skip force waitcnt0\ns_barrier_signal -1\ns_barrier_wait -1\n");
	/* no barrier for one wave */
	sync_case("gfx942", SK(64, 64), " (x)", 0, "// Skip barrier: NumThreads=64 (x)\n");
	sync_case("gfx1100", SK(32, 32), "", 0, "// Skip barrier: NumThreads=32\n");
	/* NumThreads given as a boolean prints as Python would */
	sync_case("gfx942", "{\"NumThreads\":true,\"WavefrontSize\":64}", "c", 0, "// Skip barrier: NumThreads=Truec\n");
}

static void test_sync_threads_caps_and_missing(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_sync_args a = KW_SYNC_ARGS_INIT;

	(void)state;
	/* Waitcnt0Disabled off on gfx942: no forced wait */
	fx_init(&f, "gfx942", SK(256, 64), NULL, NULL, NULL);
	f.caps.arch[KW_ARCH_Waitcnt0Disabled] = 0;
	assert_int_equal(kw_gen_sync_threads(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it, "s_barrier\n");
	fx_free(&f);

	fx_init(&f, "gfx942", "{\"NumThreads\":256}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_sync_threads(&it, &f.in, &a, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.WavefrontSize");
	fx_free(&f);
	fx_init(&f, "gfx942", "{\"NumThreads\":256,\"WavefrontSize\":64}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_sync_threads(&it, &f.in, &a, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel._ScheduleIterAlg");
	fx_free(&f);
	/* gfx1100 does not read _ScheduleIterAlg */
	fx_init(&f, "gfx1100", "{\"NumThreads\":256,\"WavefrontSize\":32}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_sync_threads(&it, &f.in, &a, &f.err), 0);
	fx_free(&f);
}

/* ---- accToArchMapper and friends --------------------------------------- */

#define MKPT(extra, pt) "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1," \
	"\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false," \
	"\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true" extra "," \
	"\"ProblemType\":" pt "}"
/* extra keys repeat a key of the base object: jansson keeps the last value */
#define MK(extra) MKPT(extra, "{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}")

static void test_mapper_small(void **state)
{
	fx f;
	kw_acc_map m;
	int64_t v;
	int seq;

	(void)state;
	/* 16x16 on wave64: O = 4; MIWaveTile [2,1], VW 1 -> 8 registers, identity */
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[2,1]"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), 0);
	assert_int_equal(m.len, 8);
	for (int64_t i = 0; i < 8; i++) {
		assert_int_equal(m.acc2arch[i], i);
		assert_int_equal(m.arch2acc[i], i);
	}
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 8);
	assert_int_equal(kw_gen_has_sequential_valuc(&seq, &f.in, &f.err), 0);
	assert_int_equal(seq, 1);
	assert_int_equal(kw_gen_acc_vgpr_imag_num_offset(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 8);
	fx_free(&f);

	/* VW0 = 2, MIWaveTile [2,1]: TT0 = 1, O = 4.
	 * SourceSwap 0: src = t + 4*v0, dst = v0 + 2*t -> acc2arch [0,2,4,6,1,3,5,7] */
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[2,1],\"VectorWidthA\":2"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), 0);
	{
		static const int64_t want[8] = { 0, 2, 4, 6, 1, 3, 5, 7 };
		assert_int_equal(m.len, 8);
		assert_memory_equal(m.acc2arch, want, sizeof(want));
		for (int64_t i = 0; i < 8; i++)
			assert_int_equal(m.arch2acc[m.acc2arch[i]], i);
	}
	assert_int_equal(kw_gen_has_sequential_valuc(&seq, &f.in, &f.err), 0);
	assert_int_equal(seq, 0);
	fx_free(&f);

	/* SourceSwap 1 with VW1 = 2, MIWaveTile [1,2]: src = t + 4*v1, dst = v1 + 2*t... -> same shape */
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[1,2],\"VectorWidthB\":2,\"SourceSwap\":true"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), 0);
	{
		static const int64_t want[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
		assert_int_equal(m.len, 8);
		/* swap: dst = v0 + VW0*(b0 + BM*(wg0 + TT0*(v1 + VW1*(t + ...)))) = v1 + 2*t; src = t + 4*v1 */
		(void)want;
		for (int64_t t = 0; t < 4; t++)
			for (int64_t v1 = 0; v1 < 2; v1++)
				assert_int_equal(m.acc2arch[t + 4 * v1], v1 + 2 * t);
	}
	fx_free(&f);
}

static void test_mapper_matrix_inst_m4(void **state)
{
	fx f;
	kw_acc_map m;
	int64_t v;

	(void)state;
	/* M = N = 4 fold BM/BN into the instruction: O = (4*4)*(4*2)/64 = 2, BM = BN = 1 */
	fx_init(&f, "gfx942", MK(",\"MatrixInstM\":4,\"MatrixInstN\":4,\"MatrixInstBM\":4,\"MatrixInstBN\":2,\"MIWaveTile\":[1,1]"),
		NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), 0);
	assert_int_equal(m.len, 2);
	assert_int_equal(m.acc2arch[0], 0);
	assert_int_equal(m.acc2arch[1], 1);
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 2);
	fx_free(&f);
	/* 32x32, BM 2: O = 16, len 32, identity */
	fx_init(&f, "gfx942", MK(",\"MatrixInstM\":32,\"MatrixInstN\":32,\"MatrixInstBM\":2,\"MIWaveTile\":[1,1]"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 32);
	fx_free(&f);
}

static void test_mapper_limits_and_missing(void **state)
{
	fx f;
	kw_acc_map m;
	int64_t v;
	int seq;

	(void)state;
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[64,64]"), NULL, NULL, NULL);
	f.in.max_acc_len = 100; /* 64*64*4 = 16384 registers */
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), KW_ELIMIT);
	assert_string_equal(f.err.field, "kernel.MIWaveTile");
	assert_null(f.arena.head); /* refused before allocating */
	/* getAccToArchLen answers the same kernels accToArchMapper does */
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), KW_ELIMIT);
	assert_string_equal(f.err.field, "kernel.MIWaveTile");
	assert_non_null(strstr(f.err.message, "16384"));
	f.in.max_acc_len = 16384;
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 16384);
	fx_free(&f);

	fx_init(&f, "gfx942", "{\"MatrixInstM\":16}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.MatrixInstN");
	assert_non_null(strstr(f.err.message, "accToArchMapper"));
	fx_free(&f);

	fx_init(&f, "gfx942", "{\"EnableMatrixInstruction\":false}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_has_sequential_valuc(&seq, &f.in, &f.err), 0);
	assert_int_equal(seq, 0);
	fx_free(&f);

	/* degenerate tile (MIWaveTile[0] < VectorWidthA): length 0 from getAccToArchLen, empty maps */
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[1,2],\"VectorWidthA\":2"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), 0);
	assert_int_equal(m.len, 0);
	fx_free(&f);

	fx_init(&f, "gfx942", MK(",\"WavefrontSize\":0"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.WavefrontSize");
	fx_free(&f);
}

/* ---- mapAcctoArchRegs -------------------------------------------------- */

static void test_map_regs_read_write(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_map_args a = KW_MAP_ARGS_INIT;

	(void)state;
	/* VW0 2, MIWaveTile [2,1]: acc2arch [0,2,4,6,1,3,5,7]; item k moves acc arch2acc[k] */
	fx_init(&f, "gfx942", MK(",\"MIWaveTile\":[2,1],\"VectorWidthA\":2"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	assert_string_equal(it->u.mod.name, "AccVgprRead");
	assert_int_equal(it->u.mod.n, 8);
	expect_text(&f, it->u.mod.items[1], "v_accvgpr_read_b32 v[vgprValuC], acc4              // copy acc to vreg[1]\n");
	expect_text(&f, it->u.mod.items[2], "v_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[2]\n");
	kw_replace_holder(it->u.mod.items[1], 1);
	expect_text(&f, it->u.mod.items[1], "v_accvgpr_read_b32 v[vgprValuC+1], acc4            // copy acc to vreg[1]\n");
	a.write = 1;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	assert_string_equal(it->u.mod.name, "AccVgprWrite");
	expect_text(&f, it->u.mod.items[1], "v_accvgpr_write_b32 acc4, v[vgprValuC]             // copy vreg[1] to acc\n");
	assert_int_equal(f.diags.count[KW_DIAG_AGPR_SPILL], 0);
	fx_free(&f);
}

static void test_map_regs_spill(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_map_args a = KW_MAP_ARGS_INIT;

	(void)state;
	/* 16 accumulators, maxAgpr 2: acc0, acc1, then 14 from arch VGPRs */
	fx_init(&f, "gfx942", MK(""), NULL, NULL, NULL);
	a.maxAgpr = 2;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	assert_int_equal(it->u.mod.n, 16);
	expect_text(&f, it->u.mod.items[1], "v_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[1]\n");
	expect_text(&f, it->u.mod.items[2], "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // copy MI out reg to vreg[2]\n");
	expect_text(&f, it->u.mod.items[15], "v_mov_b32 v[vgprValuC], v[vgprValuC+13]            // copy MI out reg to vreg[15]\n");
	assert_int_equal(f.diags.count[KW_DIAG_AGPR_SPILL], 1);
	assert_non_null(strstr(f.diags.message[KW_DIAG_AGPR_SPILL], "14 accumulator"));
	fx_free(&f);

	/* with spilledVgprBase: plain indices from the base */
	fx_init(&f, "gfx942", MK(""), NULL, NULL, NULL);
	a.has_spilledVgprBase = 1;
	a.spilledVgprBase = 100;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it->u.mod.items[2], "v_mov_b32 v[vgprValuC], v100                       // copy MI out reg to vreg[2]\n");
	expect_text(&f, it->u.mod.items[15], "v_mov_b32 v[vgprValuC], v113                       // copy MI out reg to vreg[15]\n");
	assert_int_equal(f.diags.count[KW_DIAG_AGPR_SPILL], 1);
	assert_non_null(strstr(f.diags.message[KW_DIAG_AGPR_SPILL], "spilledVgprBase"));
	a.write = 1;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it->u.mod.items[2], "v_mov_b32 v100, v[vgprValuC]                       // copy vreg[2] to MI out reg\n");
	fx_free(&f);

	/* no spill: no diagnostic */
	fx_init(&f, "gfx942", MK(""), NULL, NULL, NULL);
	a = (kw_map_args)KW_MAP_ARGS_INIT;
	a.maxAgpr = 16;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	assert_int_equal(f.diags.count[KW_DIAG_AGPR_SPILL], 0);
	fx_free(&f);
}

static void test_map_regs_arch_vgpr(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_map_args a = KW_MAP_ARGS_INIT;

	(void)state;
	fx_init(&f, "gfx1100", MK(",\"MIWaveTile\":[2,1],\"MIArchVgpr\":true"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it->u.mod.items[3], "v_mov_b32 v[vgprValuC], v[vgprValuC+3]             // copy MI out reg to vreg[3]\n");
	a.write = 1;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it->u.mod.items[3], "v_mov_b32 v[vgprValuC+3], v[vgprValuC]             // copy vreg[3] to MI out reg\n");
	fx_free(&f);
	fx_init(&f, "gfx1100", MK(",\"MIWaveTile\":[2,1],\"MIArchVgpr\":true,\"CompactLoopStore\":true"), NULL, NULL, NULL);
	a.write = 0;
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	expect_text(&f, it->u.mod.items[3], "v_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+3]      // copy MI out reg to vreg[3]\n");
	fx_free(&f);
	/* missing MIArchVgpr */
	fx_init(&f, "gfx942", "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,"
		"\"MIWaveTile\":[1,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,"
		"\"ProblemType\":{\"DataType\":0}}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.MIArchVgpr");
	fx_free(&f);
}

static void test_map_regs_complex(void **state)
{
	fx f;
	kw_item *it = NULL;
	kw_map_args a = KW_MAP_ARGS_INIT;

	(void)state;
	/* complex: 2 items per accumulator, the imaginary part len later */
	fx_init(&f, "gfx942", "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,"
		"\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,"
		"\"MIArchVgpr\":false,\"ProblemType\":{\"DataType\":\"C\"}}", NULL, NULL, NULL);
	assert_int_equal(kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err), 0);
	assert_int_equal(it->u.mod.n, 16);
	expect_text(&f, it->u.mod.items[0], "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\n");
	expect_text(&f, it->u.mod.items[1], "v_accvgpr_read_b32 v[vgprValuC], acc8              // copy acc to vreg[1]\n");
	expect_text(&f, it->u.mod.items[15], "v_accvgpr_read_b32 v[vgprValuC], acc15             // copy acc to vreg[15]\n");
	fx_free(&f);
}

/* ---- mulMIoutAlphaToArch / moveMIoutToArch ----------------------------- */

static void alpha_case(const char *cdt, int hpa, int mul, int item, const char *want)
{
	fx f;
	kw_item *it = NULL;
	char kernel[1024];

	snprintf(kernel, sizeof(kernel),
		 "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,"
		 "\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":%d,"
		 "\"ProblemType\":{\"ComputeDataType\":\"%s\",\"HighPrecisionAccumulate\":%s}}",
		 (!strcmp(cdt, "D") || !strcmp(cdt, "Z")) ? 2 : 1, cdt, hpa ? "true" : "false");
	fx_init(&f, "gfx942", kernel, NULL, NULL, NULL);
	if (mul)
		assert_int_equal(kw_gen_mul_miout_alpha_to_arch(&it, &f.in, 40, &f.err), 0);
	else
		assert_int_equal(kw_gen_move_miout_to_arch(&it, &f.in, 40, &f.err), 0);
	assert_string_equal(it->u.mod.name, "MulAlpha");
	assert_int_equal(it->u.mod.n, 8);
	expect_text(&f, it->u.mod.items[item], want);
	fx_free(&f);
}

static void test_alpha_real(void **state)
{
	(void)state;
	/* acc2arch [0,2,4,6,1,3,5,7]: arch item 1 comes from acc 4 */
	alpha_case("S", 0, 1, 1, "v_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
	alpha_case("S", 0, 0, 1, "v_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\n");
	alpha_case("H", 0, 1, 1, "v_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
	alpha_case("H", 1, 1, 1, "v_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
	alpha_case("H", 0, 0, 1, "v_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\n");
	alpha_case("I", 0, 1, 1, "v_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
	alpha_case("I", 0, 0, 2, "v_mov_b32 v[vgprValuC], v[vgprValuC+1]             // Rearrange MI out reg\n");
	/* double: MIRegPerOut 2, src = acc * 2 */
	alpha_case("D", 0, 1, 1,
		   "v_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+8:vgprValuC+8+1] // Multiply MI out reg with alpha\n");
	alpha_case("D", 0, 0, 1,
		   "v_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+8:vgprValuC+8+1] // Rearrange MI out reg\n");
}

static void test_alpha_complex(void **state)
{
	(void)state;
	/* complex float: imaginary parts at len * MIRegPerOut = 8 past the real ones */
	alpha_case("C", 0, 1, 1,
		   "v_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+4]      // tmp1 = a.real * b.real\n"
		   "v_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+4]      // tmp2 = a.imag * b.real\n"
		   "v_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+12], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\n"
		   "v_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+12], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\n");
	alpha_case("C", 0, 0, 1,
		   "v_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\n"
		   "v_mov_b32 v[vgprValuC+1], v[vgprValuC+12]          // Rearrange MI out reg\n");
	/* complex double: MIRegPerOut 2, imaginary 16 past */
	alpha_case("Z", 0, 1, 1,
		   "v_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+8:vgprValuC+8+1]\n"
		   "v_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+8:vgprValuC+8+1]\n"
		   "v_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+24:vgprValuC+24+1], v[40:41]\n"
		   "v_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+24:vgprValuC+24+1], v[42:43]\n");
	alpha_case("Z", 0, 0, 1,
		   "v_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+8:vgprValuC+8+1] // Rearrange MI out reg\n"
		   "v_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+24:vgprValuC+24+1] // Rearrange MI out reg\n");
}

static void test_alpha_unsupported_and_missing(void **state)
{
	fx f;
	kw_item *it = NULL;

	(void)state;
	/* BFloat16 compute: the seed leaves every slot None; the generator says so */
	fx_init(&f, "gfx942", MKPT(",\"MIWaveTile\":[2,1]", "{\"ComputeDataType\":\"B\"}"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_mul_miout_alpha_to_arch(&it, &f.in, 40, &f.err), KW_EUNSUPPORTED);
	assert_int_equal(f.err.code, KW_EUNSUPPORTED);
	assert_string_equal(f.err.field, "kernel.ProblemType.ComputeDataType");
	assert_non_null(strstr(f.err.message, "BFloat16"));
	assert_int_equal(kw_gen_move_miout_to_arch(&it, &f.in, 40, &f.err), KW_EUNSUPPORTED);
	fx_free(&f);
	/* Half reads HighPrecisionAccumulate */
	fx_init(&f, "gfx942", MKPT(",\"MIWaveTile\":[2,1]", "{\"ComputeDataType\":\"H\"}"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_mul_miout_alpha_to_arch(&it, &f.in, 40, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.ProblemType.HighPrecisionAccumulate");
	fx_free(&f);
	fx_init(&f, "gfx942", MKPT(",\"MIWaveTile\":[2,1]", "{}"), NULL, NULL, NULL);
	assert_int_equal(kw_gen_move_miout_to_arch(&it, &f.in, 40, &f.err), KW_EINVAL);
	assert_string_equal(f.err.field, "kernel.ProblemType.ComputeDataType");
	fx_free(&f);
}

/* ---- oracle table ------------------------------------------------------ */

static const int64_t map_m_ss0[] = { 0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15, 16, 18, 20, 22, 17, 19, 21, 23, 24, 26, 28, 30, 25, 27, 29, 31 };
static const int64_t map_m_ss1[] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 16, 20, 24, 28, 17, 21, 25, 29, 18, 22, 26, 30, 19, 23, 27, 31 };
static const int64_t map_m_ss1_vwb[] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
static const int64_t map_m_m4[] = { 0, 1 };
static const int64_t map_m_m4_ss1[] = { 0, 1 };
static const int64_t map_m_bm2[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
static const gcase gcases[] = {
	{ "w_gr1", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt vmcnt(10)\n", NULL, 0, 0 },
	{ "w_lw1", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(10)\n", NULL, 0, 0 },
	{ "w_lr2", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":2,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(15)\n", NULL, 0, 0 },
	{ "w_lr2_1100", "gfx1100", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":2,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(16)\n", NULL, 0, 0 },
	{ "w_gr0_lw0", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":0,\"skipLocalWrite\":0,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"c\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(0)                               // c\n", NULL, 0, 0 },
	{ "w_gr1_lw0_nobl", "gfx942", G_WAIT, "{\"BufferLoad\":false,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":0,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(10)\n", NULL, 0, 0 },
	{ "w_gr1_lr0_nobl_1201", "gfx1201", G_WAIT, "{\"BufferLoad\":false,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":0,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_wait_dscnt 10\n", NULL, 0, 0 },
	{ "w_gr1_nobl_nods", "gfx942", G_WAIT, "{\"BufferLoad\":false,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt vmcnt(10)\n", NULL, 0, 0 },
	{ "w_lw1_dtla", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":true,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(6)\n", NULL, 0, 0 },
	{ "w_lw1_dtvb", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":true,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(4)\n", NULL, 0, 0 },
	{ "w_lr1_dtva", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":true,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(5)\n", NULL, 0, 0 },
	{ "w_sparse_lw", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":true}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(12)\n", NULL, 0, 0 },
	{ "w_sparse_gr", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":true}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt vmcnt(15)\n", NULL, 0, 0 },
	{ "w_sparse_dtvsm", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":true,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":true}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(10)\n", NULL, 0, 0 },
	{ "w_mx_lw", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":true,\"MXBlockB\":true,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(15)\n", NULL, 0, 0 },
	{ "w_mx_lr", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":true,\"MXBlockB\":true,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(15)\n", NULL, 0, 0 },
	{ "w_mx_gr", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":true,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":2,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt vmcnt(24)\n", NULL, 0, 0 },
	{ "w_bw6_both", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt lgkmcnt(8)\n", NULL, 0, 0 },
	{ "w_inst3", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":3}",
	  "s_waitcnt vmcnt(3)\n", NULL, 0, 0 },
	{ "w_gr1_inst3", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"\",\"skipGlobalReadInst\":3}",
	  "s_waitcnt vmcnt(13)\n", NULL, 0, 0 },
	{ "w_none", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":0,\"comment\":\"x\",\"skipGlobalReadInst\":-1}",
	  "", NULL, 0, 0 },
	{ "w_cons2", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":2,\"comment\":\"c\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt 0                                        // debug c\ns_barrier                                          // debug\n", NULL, 0, 0 },
	{ "w_cons4_1201", "gfx1201", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":-1,\"skipLocalWrite\":0,\"skipLocalRead\":-1,\"conservativeWaitCnt\":4,\"comment\":\"c\",\"skipGlobalReadInst\":-1}",
	  "s_wait_dscnt 0                                     // debug c\n\ns_wait_loadcnt 0                                   // debug c\n\ns_wait_storecnt 0                                  // debug c\ns_barrier_signal -1\ns_barrier_wait -1              // debug\n", NULL, 0, 0 },
	{ "w_cons8_not", "gfx942", G_WAIT, "{\"BufferLoad\":true,\"DirectToLdsA\":false,\"DirectToLdsB\":false,\"DirectToVgprA\":false,\"DirectToVgprB\":false,\"DirectToVgprSparseMetadata\":false,\"DirectToVgprMXSA\":false,\"DirectToVgprMXSB\":false,\"NumLoadsCoalescedA\":2,\"NumLoadsPerpendicularA\":3,\"NumLoadsCoalescedB\":1,\"NumLoadsPerpendicularB\":4,\"NumLoadsCoalescedMXSA\":1,\"NumLoadsPerpendicularMXSA\":2,\"NumLoadsCoalescedMXSB\":1,\"NumLoadsPerpendicularMXSB\":1,\"NumLoadsCoalescedMetadata\":1,\"NumLoadsPerpendicularMetadata\":5,\"ProblemType\":{\"MXBlockA\":false,\"MXBlockB\":false,\"Sparse\":false}}", "{\"nrp\":2,\"nrc\":1,\"nwcv\":4,\"nwpv\":2,\"nwcvpi\":2,\"localReadInstruction\":{\"blockWidth\":1},\"is_sparse\":true,\"tpsMetadata\":{\"nrp\":1,\"nrc\":1,\"nwcv\":2,\"nwpv\":1,\"nwcvpi\":1},\"MX\":{\"nrp\":1,\"nrc\":2,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"nrp\":1,\"nrc\":3,\"nwcv\":1,\"nwpv\":2,\"nwcvpi\":1,\"localReadInstruction\":{\"blockWidth\":6},\"MX\":{\"nrp\":3,\"nrc\":1,\"nwcv\":1,\"nwpv\":1,\"nwcvpi\":1}}", "{\"numReadsPerIterA\":3,\"numReadsPerIterB\":2,\"numReadsPerIterMetadata\":1,\"numReadsPerIterMXSA\":5,\"numReadsPerIterMXSB\":7}", "{\"skipGlobalRead\":1,\"skipLocalWrite\":-1,\"skipLocalRead\":-1,\"conservativeWaitCnt\":8,\"comment\":\"c\",\"skipGlobalReadInst\":-1}",
	  "s_waitcnt vmcnt(10)                                // c\n", NULL, 0, 0 },
	{ "s_gfx908", "gfx908", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"c\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "s_waitcnt 0                                        // force waitcnt0\ns_barrier                                          // c\n", NULL, 0, 0 },
	{ "s_gfx942", "gfx942", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"c\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "s_waitcnt 0                                        // force waitcnt0\ns_barrier                                          // c\n", NULL, 0, 0 },
	{ "s_gfx1100", "gfx1100", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":32,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"c\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "s_waitcnt lgkmcnt(0)                               // extra navi wait\ns_barrier                                          // c\n", NULL, 0, 0 },
	{ "s_gfx1201", "gfx1201", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":32,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"c\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "s_barrier_signal -1\ns_barrier_wait -1              // c\n", NULL, 0, 0 },
	{ "s_gfx1250", "gfx1250", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":32,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"c\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "s_barrier_signal -1\ns_barrier_wait -1              // c\n", NULL, 0, 0 },
	{ "s_sia2", "gfx942", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":2,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "// Skip force waitcnt0\ns_barrier\n", NULL, 0, 0 },
	{ "s_pgr2", "gfx942", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":2}", NULL, NULL, NULL, "{\"comment\":\"\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "// Skip force waitcnt0\ns_barrier\n", NULL, 0, 0 },
	{ "s_skip", "gfx942", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"\",\"skipForceWaitcnt0\":true,\"memoryToken\":[1,2]}",
	  "// Skip force waitcnt0\ns_barrier\n", NULL, 0, 0 },
	{ "s_skip_1100", "gfx1100", G_SYNC, "{\"NumThreads\":256,\"WavefrontSize\":32,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\"\",\"skipForceWaitcnt0\":true,\"memoryToken\":[1,2]}",
	  "s_waitcnt lgkmcnt(0)                               // extra navi wait\ns_barrier\n", NULL, 0, 0 },
	{ "s_small", "gfx942", G_SYNC, "{\"NumThreads\":64,\"WavefrontSize\":64,\"_ScheduleIterAlg\":3,\"PrefetchGlobalRead\":1}", NULL, NULL, NULL, "{\"comment\":\" (x)\",\"skipForceWaitcnt0\":false,\"memoryToken\":[1,2]}",
	  "// Skip barrier: NumThreads=64 (x)\n", NULL, 0, 0 },
	{ "s_bool", "gfx942", G_SYNC, "{\"NumThreads\":true,\"WavefrontSize\":64}", NULL, NULL, NULL, "{\"comment\":\"c\"}",
	  "// Skip barrier: NumThreads=Truec\n", NULL, 0, 0 },
	{ "m_ss0", "gfx942", G_MAPPER, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[4,2],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_ss0, 32, 0 },
	{ "m_ss1", "gfx942", G_MAPPER, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[4,2],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":true,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_ss1, 32, 0 },
	{ "m_ss1_vwb", "gfx942", G_MAPPER, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":2,\"SourceSwap\":true,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_ss1_vwb, 16, 0 },
	{ "m_m4", "gfx942", G_MAPPER, "{\"MatrixInstM\":4,\"MatrixInstN\":4,\"MatrixInstBM\":4,\"MatrixInstBN\":2,\"WavefrontSize\":64,\"MIWaveTile\":[1,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_m4, 2, 0 },
	{ "m_m4_ss1", "gfx942", G_MAPPER, "{\"MatrixInstM\":4,\"MatrixInstN\":4,\"MatrixInstBM\":2,\"MatrixInstBN\":2,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":true,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_m4_ss1, 2, 0 },
	{ "m_bm2", "gfx942", G_MAPPER, "{\"MatrixInstM\":32,\"MatrixInstN\":32,\"MatrixInstBM\":2,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[1,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, map_m_bm2, 32, 0 },
	{ "len", "gfx942", G_LEN, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[4,2],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 32 },
	{ "len_deg", "gfx942", G_LEN, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[1,2],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 0 },
	{ "seq_id", "gfx942", G_SEQ, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 1 },
	{ "seq_no", "gfx942", G_SEQ, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[4,2],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 0 },
	{ "seq_nomi", "gfx942", G_SEQ, "{\"EnableMatrixInstruction\":false}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 0 },
	{ "imag", "gfx942", G_IMAG, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  NULL, NULL, 0, 32 },
	{ "map_r", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\nv_accvgpr_read_b32 v[vgprValuC], acc4              // copy acc to vreg[1]\nv_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[2]\nv_accvgpr_read_b32 v[vgprValuC], acc5              // copy acc to vreg[3]\nv_accvgpr_read_b32 v[vgprValuC], acc2              // copy acc to vreg[4]\nv_accvgpr_read_b32 v[vgprValuC], acc6              // copy acc to vreg[5]\nv_accvgpr_read_b32 v[vgprValuC], acc3              // copy acc to vreg[6]\nv_accvgpr_read_b32 v[vgprValuC], acc7              // copy acc to vreg[7]\n", NULL, 0, 0 },
	{ "map_w", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"write\":true}",
	  "v_accvgpr_write_b32 acc0, v[vgprValuC]             // copy vreg[0] to acc\nv_accvgpr_write_b32 acc4, v[vgprValuC]             // copy vreg[1] to acc\nv_accvgpr_write_b32 acc1, v[vgprValuC]             // copy vreg[2] to acc\nv_accvgpr_write_b32 acc5, v[vgprValuC]             // copy vreg[3] to acc\nv_accvgpr_write_b32 acc2, v[vgprValuC]             // copy vreg[4] to acc\nv_accvgpr_write_b32 acc6, v[vgprValuC]             // copy vreg[5] to acc\nv_accvgpr_write_b32 acc3, v[vgprValuC]             // copy vreg[6] to acc\nv_accvgpr_write_b32 acc7, v[vgprValuC]             // copy vreg[7] to acc\n", NULL, 0, 0 },
	{ "map_c", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"C\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\nv_accvgpr_read_b32 v[vgprValuC], acc8              // copy acc to vreg[1]\nv_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[2]\nv_accvgpr_read_b32 v[vgprValuC], acc9              // copy acc to vreg[3]\nv_accvgpr_read_b32 v[vgprValuC], acc2              // copy acc to vreg[4]\nv_accvgpr_read_b32 v[vgprValuC], acc10             // copy acc to vreg[5]\nv_accvgpr_read_b32 v[vgprValuC], acc3              // copy acc to vreg[6]\nv_accvgpr_read_b32 v[vgprValuC], acc11             // copy acc to vreg[7]\nv_accvgpr_read_b32 v[vgprValuC], acc4              // copy acc to vreg[8]\nv_accvgpr_read_b32 v[vgprValuC], acc12             // copy acc to vreg[9]\nv_accvgpr_read_b32 v[vgprValuC], acc5              // copy acc to vreg[10]\nv_accvgpr_read_b32 v[vgprValuC], acc13             // copy acc to vreg[11]\nv_accvgpr_read_b32 v[vgprValuC], acc6              // copy acc to vreg[12]\nv_accvgpr_read_b32 v[vgprValuC], acc14             // copy acc to vreg[13]\nv_accvgpr_read_b32 v[vgprValuC], acc7              // copy acc to vreg[14]\nv_accvgpr_read_b32 v[vgprValuC], acc15             // copy acc to vreg[15]\n", NULL, 0, 0 },
	{ "map_spill", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"maxAgpr\":2}",
	  "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\nv_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[1]\nv_mov_b32 v[vgprValuC], v[vgprValuC+0]             // copy MI out reg to vreg[2]\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // copy MI out reg to vreg[3]\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // copy MI out reg to vreg[4]\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // copy MI out reg to vreg[5]\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // copy MI out reg to vreg[6]\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // copy MI out reg to vreg[7]\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // copy MI out reg to vreg[8]\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // copy MI out reg to vreg[9]\nv_mov_b32 v[vgprValuC], v[vgprValuC+8]             // copy MI out reg to vreg[10]\nv_mov_b32 v[vgprValuC], v[vgprValuC+9]             // copy MI out reg to vreg[11]\nv_mov_b32 v[vgprValuC], v[vgprValuC+10]            // copy MI out reg to vreg[12]\nv_mov_b32 v[vgprValuC], v[vgprValuC+11]            // copy MI out reg to vreg[13]\nv_mov_b32 v[vgprValuC], v[vgprValuC+12]            // copy MI out reg to vreg[14]\nv_mov_b32 v[vgprValuC], v[vgprValuC+13]            // copy MI out reg to vreg[15]\n", NULL, 0, 0 },
	{ "map_spill_w", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"maxAgpr\":2,\"write\":true,\"spilledVgprBase\":100}",
	  "v_accvgpr_write_b32 acc0, v[vgprValuC]             // copy vreg[0] to acc\nv_accvgpr_write_b32 acc1, v[vgprValuC]             // copy vreg[1] to acc\nv_mov_b32 v100, v[vgprValuC]                       // copy vreg[2] to MI out reg\nv_mov_b32 v101, v[vgprValuC]                       // copy vreg[3] to MI out reg\nv_mov_b32 v102, v[vgprValuC]                       // copy vreg[4] to MI out reg\nv_mov_b32 v103, v[vgprValuC]                       // copy vreg[5] to MI out reg\nv_mov_b32 v104, v[vgprValuC]                       // copy vreg[6] to MI out reg\nv_mov_b32 v105, v[vgprValuC]                       // copy vreg[7] to MI out reg\nv_mov_b32 v106, v[vgprValuC]                       // copy vreg[8] to MI out reg\nv_mov_b32 v107, v[vgprValuC]                       // copy vreg[9] to MI out reg\nv_mov_b32 v108, v[vgprValuC]                       // copy vreg[10] to MI out reg\nv_mov_b32 v109, v[vgprValuC]                       // copy vreg[11] to MI out reg\nv_mov_b32 v110, v[vgprValuC]                       // copy vreg[12] to MI out reg\nv_mov_b32 v111, v[vgprValuC]                       // copy vreg[13] to MI out reg\nv_mov_b32 v112, v[vgprValuC]                       // copy vreg[14] to MI out reg\nv_mov_b32 v113, v[vgprValuC]                       // copy vreg[15] to MI out reg\n", NULL, 0, 0 },
	{ "map_spill_b", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,2],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"maxAgpr\":2,\"spilledVgprBase\":100}",
	  "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\nv_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[1]\nv_mov_b32 v[vgprValuC], v100                       // copy MI out reg to vreg[2]\nv_mov_b32 v[vgprValuC], v101                       // copy MI out reg to vreg[3]\nv_mov_b32 v[vgprValuC], v102                       // copy MI out reg to vreg[4]\nv_mov_b32 v[vgprValuC], v103                       // copy MI out reg to vreg[5]\nv_mov_b32 v[vgprValuC], v104                       // copy MI out reg to vreg[6]\nv_mov_b32 v[vgprValuC], v105                       // copy MI out reg to vreg[7]\nv_mov_b32 v[vgprValuC], v106                       // copy MI out reg to vreg[8]\nv_mov_b32 v[vgprValuC], v107                       // copy MI out reg to vreg[9]\nv_mov_b32 v[vgprValuC], v108                       // copy MI out reg to vreg[10]\nv_mov_b32 v[vgprValuC], v109                       // copy MI out reg to vreg[11]\nv_mov_b32 v[vgprValuC], v110                       // copy MI out reg to vreg[12]\nv_mov_b32 v[vgprValuC], v111                       // copy MI out reg to vreg[13]\nv_mov_b32 v[vgprValuC], v112                       // copy MI out reg to vreg[14]\nv_mov_b32 v[vgprValuC], v113                       // copy MI out reg to vreg[15]\n", NULL, 0, 0 },
	{ "map_archv", "gfx1100", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":true,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // copy MI out reg to vreg[0]\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // copy MI out reg to vreg[1]\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // copy MI out reg to vreg[2]\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // copy MI out reg to vreg[3]\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // copy MI out reg to vreg[4]\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // copy MI out reg to vreg[5]\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // copy MI out reg to vreg[6]\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // copy MI out reg to vreg[7]\n", NULL, 0, 0 },
	{ "map_archv_w", "gfx1100", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":true,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"write\":true}",
	  "v_mov_b32 v[vgprValuC+0], v[vgprValuC]             // copy vreg[0] to MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC]             // copy vreg[1] to MI out reg\nv_mov_b32 v[vgprValuC+2], v[vgprValuC]             // copy vreg[2] to MI out reg\nv_mov_b32 v[vgprValuC+3], v[vgprValuC]             // copy vreg[3] to MI out reg\nv_mov_b32 v[vgprValuC+4], v[vgprValuC]             // copy vreg[4] to MI out reg\nv_mov_b32 v[vgprValuC+5], v[vgprValuC]             // copy vreg[5] to MI out reg\nv_mov_b32 v[vgprValuC+6], v[vgprValuC]             // copy vreg[6] to MI out reg\nv_mov_b32 v[vgprValuC+7], v[vgprValuC]             // copy vreg[7] to MI out reg\n", NULL, 0, 0 },
	{ "map_cls", "gfx1100", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":true,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false},\"CompactLoopStore\":true}", NULL, NULL, NULL, "{}",
	  "v_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+0]      // copy MI out reg to vreg[0]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+1]      // copy MI out reg to vreg[1]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+2]      // copy MI out reg to vreg[2]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+3]      // copy MI out reg to vreg[3]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+4]      // copy MI out reg to vreg[4]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+5]      // copy MI out reg to vreg[5]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+6]      // copy MI out reg to vreg[6]\nv_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+7]      // copy MI out reg to vreg[7]\n", NULL, 0, 0 },
	{ "map_rpo2", "gfx942", G_MAPREGS, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{}",
	  "v_accvgpr_read_b32 v[vgprValuC], acc0              // copy acc to vreg[0]\nv_accvgpr_read_b32 v[vgprValuC], acc1              // copy acc to vreg[1]\nv_accvgpr_read_b32 v[vgprValuC], acc2              // copy acc to vreg[2]\nv_accvgpr_read_b32 v[vgprValuC], acc3              // copy acc to vreg[3]\nv_accvgpr_read_b32 v[vgprValuC], acc4              // copy acc to vreg[4]\nv_accvgpr_read_b32 v[vgprValuC], acc5              // copy acc to vreg[5]\nv_accvgpr_read_b32 v[vgprValuC], acc6              // copy acc to vreg[6]\nv_accvgpr_read_b32 v[vgprValuC], acc7              // copy acc to vreg[7]\nv_accvgpr_read_b32 v[vgprValuC], acc8              // copy acc to vreg[8]\nv_accvgpr_read_b32 v[vgprValuC], acc9              // copy acc to vreg[9]\nv_accvgpr_read_b32 v[vgprValuC], acc10             // copy acc to vreg[10]\nv_accvgpr_read_b32 v[vgprValuC], acc11             // copy acc to vreg[11]\nv_accvgpr_read_b32 v[vgprValuC], acc12             // copy acc to vreg[12]\nv_accvgpr_read_b32 v[vgprValuC], acc13             // copy acc to vreg[13]\nv_accvgpr_read_b32 v[vgprValuC], acc14             // copy acc to vreg[14]\nv_accvgpr_read_b32 v[vgprValuC], acc15             // copy acc to vreg[15]\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_S", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+0] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+1] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+5] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+2] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+6] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+3] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+7] // Multiply MI out reg with alpha\n", NULL, 0, 0 },
	{ "moveMIoutToArch_S", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"S\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_D", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"D\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+0:vgprValuC+0+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+8:vgprValuC+8+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+2:vgprValuC+2+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+10:vgprValuC+10+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+4:vgprValuC+4+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+12:vgprValuC+12+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+6:vgprValuC+6+1] // Multiply MI out reg with alpha\nv_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+14:vgprValuC+14+1] // Multiply MI out reg with alpha\n", NULL, 0, 0 },
	{ "moveMIoutToArch_D", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"D\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+0:vgprValuC+0+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+8:vgprValuC+8+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+2:vgprValuC+2+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+10:vgprValuC+10+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+4:vgprValuC+4+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+12:vgprValuC+12+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+6:vgprValuC+6+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+14:vgprValuC+14+1] // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_C", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"C\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+0]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+0]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+8], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+8], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+4]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+4]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+12], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+12], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+1]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+1]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+9], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+9], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+5]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+5]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+13], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+13], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+2]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+2]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+10], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+10], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+6]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+6]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+14], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+14], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+3]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+3]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+11], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+11], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\nv_mul_f32 v40, s[sgprAlpha+0], v[vgprValuC+7]      // tmp1 = a.real * b.real\nv_mul_f32 v41, s[sgprAlpha+1], v[vgprValuC+7]      // tmp2 = a.imag * b.real\nv_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+15], v40 // c.real = a.real * b.real - a.imag * b.imag = tmp1 - a.imag * b.imag\nv_fma_f32 v[vgprValuC+1], s[sgprAlpha+0], v[vgprValuC+15], v41 // c.imag = a.real * b.imag + a.imag * b.real = a.real * b.imag + tmp2\n", NULL, 0, 0 },
	{ "moveMIoutToArch_C", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"C\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+8]           // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+12]          // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+9]           // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+13]          // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+10]          // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+14]          // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+11]          // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC+1], v[vgprValuC+15]          // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_Z", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"Z\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+0:vgprValuC+0+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+0:vgprValuC+0+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+16:vgprValuC+16+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+16:vgprValuC+16+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+8:vgprValuC+8+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+8:vgprValuC+8+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+24:vgprValuC+24+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+24:vgprValuC+24+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+2:vgprValuC+2+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+2:vgprValuC+2+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+18:vgprValuC+18+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+18:vgprValuC+18+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+10:vgprValuC+10+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+10:vgprValuC+10+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+26:vgprValuC+26+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+26:vgprValuC+26+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+4:vgprValuC+4+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+4:vgprValuC+4+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+20:vgprValuC+20+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+20:vgprValuC+20+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+12:vgprValuC+12+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+12:vgprValuC+12+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+28:vgprValuC+28+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+28:vgprValuC+28+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+6:vgprValuC+6+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+6:vgprValuC+6+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+22:vgprValuC+22+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+22:vgprValuC+22+1], v[42:43]\nv_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+14:vgprValuC+14+1]\nv_mul_f64 v[42:43], s[sgprAlpha+2:sgprAlpha+2+1], v[vgprValuC+14:vgprValuC+14+1]\nv_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+30:vgprValuC+30+1], v[40:41]\nv_fma_f64 v[vgprValuC+2:vgprValuC+2+1], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+30:vgprValuC+30+1], v[42:43]\n", NULL, 0, 0 },
	{ "moveMIoutToArch_Z", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":2,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"Z\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+0:vgprValuC+0+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+16:vgprValuC+16+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+8:vgprValuC+8+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+24:vgprValuC+24+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+2:vgprValuC+2+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+18:vgprValuC+18+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+10:vgprValuC+10+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+26:vgprValuC+26+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+4:vgprValuC+4+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+20:vgprValuC+20+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+12:vgprValuC+12+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+28:vgprValuC+28+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+6:vgprValuC+6+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+22:vgprValuC+22+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+14:vgprValuC+14+1] // Rearrange MI out reg\nv_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+30:vgprValuC+30+1] // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_H", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"H\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+0] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+1] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+5] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+2] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+6] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+3] // Multiply MI out reg with alpha\nv_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+7] // Multiply MI out reg with alpha\n", NULL, 0, 0 },
	{ "moveMIoutToArch_H", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"H\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mulMIoutAlphaToArch_I", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"I\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+0] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+1] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+5] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+2] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+6] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+3] // Multiply MI out reg with alpha\nv_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+7] // Multiply MI out reg with alpha\n", NULL, 0, 0 },
	{ "moveMIoutToArch_I", "gfx942", G_MOVE, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":2,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"I\",\"HighPrecisionAccumulate\":false}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+4]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+1]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+5]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+2]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+6]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+3]             // Rearrange MI out reg\nv_mov_b32 v[vgprValuC], v[vgprValuC+7]             // Rearrange MI out reg\n", NULL, 0, 0 },
	{ "mul_H_hpa", "gfx942", G_MUL, "{\"MatrixInstM\":16,\"MatrixInstN\":16,\"MatrixInstBM\":1,\"MatrixInstBN\":1,\"WavefrontSize\":64,\"MIWaveTile\":[2,1],\"VectorWidthA\":1,\"VectorWidthB\":1,\"SourceSwap\":false,\"MIRegPerOut\":1,\"MIArchVgpr\":false,\"EnableMatrixInstruction\":true,\"ProblemType\":{\"DataType\":\"S\",\"ComputeDataType\":\"H\",\"HighPrecisionAccumulate\":true}}", NULL, NULL, NULL, "{\"startVgprAlphaTmp\":40}",
	  "v_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+0] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+1] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+2] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+3] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+5] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+6] // Multiply MI out reg with alpha\nv_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+7] // Multiply MI out reg with alpha\n", NULL, 0, 0 },
	{ "tdm_5", "gfx1250", G_TDM, NULL, NULL, NULL, NULL, "{\"tensorcnt\":5,\"comment\":\"c\"}",
	  "s_wait_loadcnt 0\ns_wait_tensorcnt 5                                 // c\n", NULL, 0, 0 },
	{ "tdm_m1", "gfx1250", G_TDM, NULL, NULL, NULL, NULL, "{\"tensorcnt\":-1,\"comment\":\"c\"}",
	  "s_wait_tensorcnt -1                                // c\n", NULL, 0, 0 },
	{ "tdm_942", "gfx942", G_TDM, NULL, NULL, NULL, NULL, "{\"tensorcnt\":0}",
	  "s_waitcnt vmcnt(0)\ns_wait_tensorcnt 0\n", NULL, 0, 0 },
};

static int64_t arg_int(json_t *args, const char *k, int64_t def)
{
	json_t *v = json_object_get(args, k);
	return json_is_integer(v) ? json_integer_value(v) : def;
}

static void run_case(const gcase *c)
{
	fx f;
	json_t *args = js(c->args);
	kw_item *it = NULL;
	int rc = 0;
	int64_t v = 0;

	fx_init(&f, c->isa, c->kernel, c->tpa, c->tpb, c->states);
	switch (c->gen) {
	case G_TDM: {
		json_t *cm = json_object_get(args, "comment");
		rc = kw_gen_tdm_wait(&it, &f.in, arg_int(args, "tensorcnt", 0), cm ? json_string_value(cm) : "", &f.err);
		break;
	}
	case G_WAIT: {
		kw_wait_args a = KW_WAIT_ARGS_INIT;
		a.skipGlobalRead = arg_int(args, "skipGlobalRead", -1);
		a.skipLocalWrite = arg_int(args, "skipLocalWrite", -1);
		a.skipLocalRead = arg_int(args, "skipLocalRead", -1);
		a.conservativeWaitCnt = arg_int(args, "conservativeWaitCnt", 0);
		a.skipGlobalReadInst = arg_int(args, "skipGlobalReadInst", -1);
		a.comment = json_string_value(json_object_get(args, "comment"));
		if (!a.comment)
			a.comment = "";
		rc = kw_gen_wait(&it, &f.in, &a, &f.err);
		break;
	}
	case G_SYNC: {
		kw_sync_args a = KW_SYNC_ARGS_INIT;
		a.comment = json_string_value(json_object_get(args, "comment"));
		if (!a.comment)
			a.comment = "";
		a.skipForceWaitcnt0 = json_is_true(json_object_get(args, "skipForceWaitcnt0"));
		rc = kw_gen_sync_threads(&it, &f.in, &a, &f.err);
		break;
	}
	case G_MAPPER: {
		kw_acc_map m;
		rc = kw_gen_acc_to_arch_mapper(&m, &f.in, &f.err);
		if (!rc) {
			assert_int_equal(m.len, c->map_len);
			for (int i = 0; i < c->map_len; i++) {
				if (m.acc2arch[i] != c->want_map[i])
					fail_msg("%s: acc2arch[%d] = %lld, oracle %lld", c->name, i, (long long)m.acc2arch[i],
						 (long long)c->want_map[i]);
				assert_int_equal(m.arch2acc[c->want_map[i]], i);
			}
		}
		break;
	}
	case G_LEN:
		rc = kw_gen_get_acc_to_arch_len(&v, &f.in, &f.err);
		break;
	case G_SEQ: {
		int s = 0;
		rc = kw_gen_has_sequential_valuc(&s, &f.in, &f.err);
		v = s;
		break;
	}
	case G_IMAG:
		rc = kw_gen_acc_vgpr_imag_num_offset(&v, &f.in, &f.err);
		break;
	case G_MAPREGS: {
		kw_map_args a = KW_MAP_ARGS_INIT;
		json_t *sb = json_object_get(args, "spilledVgprBase");
		a.maxAgpr = arg_int(args, "maxAgpr", 256);
		a.write = json_is_true(json_object_get(args, "write"));
		if (json_is_integer(sb)) {
			a.has_spilledVgprBase = 1;
			a.spilledVgprBase = json_integer_value(sb);
		}
		rc = kw_gen_map_acc_to_arch_regs(&it, &f.in, &a, &f.err);
		break;
	}
	case G_MUL:
		rc = kw_gen_mul_miout_alpha_to_arch(&it, &f.in, arg_int(args, "startVgprAlphaTmp", -1), &f.err);
		break;
	case G_MOVE:
		rc = kw_gen_move_miout_to_arch(&it, &f.in, arg_int(args, "startVgprAlphaTmp", -1), &f.err);
		break;
	}
	if (rc)
		fail_msg("%s: %s", c->name, f.err.message);
	if (c->gen == G_LEN || c->gen == G_SEQ || c->gen == G_IMAG) {
		if (v != c->want_value)
			fail_msg("%s: value %lld, oracle %lld", c->name, (long long)v, (long long)c->want_value);
	}
	if (c->want_asm) {
		assert_non_null(it);
		assert_int_equal(fx_render(&f, it), 0);
		if (strcmp(text(&f), c->want_asm))
			fail_msg("%s:\n--- got ---\n%s--- oracle ---\n%s", c->name, text(&f), c->want_asm);
	} else {
		assert_null(it);
	}
	json_decref(args);
	fx_free(&f);
}

static void test_oracle_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(gcases) / sizeof(gcases[0]); i++)
		run_case(&gcases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_counts),
		cmocka_unit_test(test_wait_buffer_load_false),
		cmocka_unit_test(test_wait_direct),
		cmocka_unit_test(test_wait_sparse),
		cmocka_unit_test(test_wait_mx),
		cmocka_unit_test(test_wait_block_width_6),
		cmocka_unit_test(test_wait_conservative),
		cmocka_unit_test(test_wait_type),
		cmocka_unit_test(test_wait_missing_keys),
		cmocka_unit_test(test_tdm_wait),
		cmocka_unit_test(test_sync_threads_per_isa),
		cmocka_unit_test(test_sync_threads_skip),
		cmocka_unit_test(test_sync_threads_caps_and_missing),
		cmocka_unit_test(test_mapper_small),
		cmocka_unit_test(test_mapper_matrix_inst_m4),
		cmocka_unit_test(test_mapper_limits_and_missing),
		cmocka_unit_test(test_map_regs_read_write),
		cmocka_unit_test(test_map_regs_spill),
		cmocka_unit_test(test_map_regs_arch_vgpr),
		cmocka_unit_test(test_map_regs_complex),
		cmocka_unit_test(test_alpha_real),
		cmocka_unit_test(test_alpha_complex),
		cmocka_unit_test(test_alpha_unsupported_and_missing),
		cmocka_unit_test(test_oracle_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
