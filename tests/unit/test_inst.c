/*
 * test_inst.c - instruction text per ISA (kwgen/inst.h, rendering.md §4,
 * §7-§10): the line format, every seed instruction, SWaitCnt splitting and
 * clamping, SWaitTensorcnt, SBarrier, the gfx1250 VGPR-MSB prefix, and the
 * diagnostics rendering raises.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <string.h>

#include "kwgen/inst.h"

#define V KW_RT_V
#define S KW_RT_S
#define ACC KW_RT_ACC

typedef struct fx {
	kw_arena arena;
	kw_caps caps;
	kw_diags diags;
	kw_render_ctx ctx;
	kw_buf out;
} fx;

static const kw_isa_info *isa_named(const char *name)
{
	const kw_isa_info *info = NULL;
	kw_error err = KW_ERROR_INIT;
	json_t *v = json_string(name);

	if (kw_isa_parse(&info, v, &err))
		fail_msg("%s", err.message);
	json_decref(v);
	return info;
}

static void fx_init(fx *f, const char *isa)
{
	memset(f, 0, sizeof(*f));
	f->ctx.isa = isa_named(isa);
	kw_caps_for(&f->caps, f->ctx.isa);
	f->ctx.caps = &f->caps;
	f->ctx.diags = &f->diags;
	f->ctx.vgpr_msb = 0;
}

static void fx_free(fx *f)
{
	kw_arena_free(&f->arena);
	kw_buf_free(&f->out);
}

/* Render it and compare all of the output so far with want. */
static void fx_expect(fx *f, const kw_item *it, const char *want)
{
	assert_non_null(it);
	kw_buf_reset(&f->out);
	assert_int_equal(kw_item_render(&f->out, it, &f->ctx), 0);
	assert_string_equal(f->out.p ? f->out.p : "", want);
}

static kw_reg vn(int64_t off, int num) { return kw_reg_named(V, "ValuC", 1, off, num); }
static kw_reg hold(int num) { return kw_reg_holder(V, "ValuC", 0, 0, num); }
static kw_reg alpha(int noff, int64_t off, int num) { return kw_reg_named(S, "Alpha", noff, off, num); }

static kw_item *i1(kw_arena *a, kw_op op, kw_reg d, kw_reg s0, const char *c)
{
	kw_operand o[1] = { kw_opr(s0) };
	return kw_inst(a, op, d, 1, o, c);
}

static kw_item *i2(kw_arena *a, kw_op op, kw_reg d, kw_operand s0, kw_operand s1, const char *c)
{
	kw_operand o[2] = { s0, s1 };
	return kw_inst(a, op, d, 2, o, c);
}

static kw_item *i3(kw_arena *a, kw_op op, kw_reg d, kw_reg s0, kw_reg s1, kw_reg s2, const char *c)
{
	kw_operand o[3] = { kw_opr(s0), kw_opr(s1), kw_opr(s2) };
	return kw_inst(a, op, d, 3, o, c);
}

/* ---- §4 line format ---------------------------------------------------- */

static void finish(const char *text, const char *comment, int no_comment, const char *want)
{
	kw_buf b = KW_BUF_INIT;

	kw_buf_puts(&b, "prefix\n");
	kw_buf_puts(&b, text);
	kw_line_finish(&b, 7, comment, no_comment);
	assert_string_equal(b.p + 7, want);
	kw_buf_free(&b);
}

static void test_line_format(void **state)
{
	char t49[50], t50[51], t60[61], w[200];

	(void)state;
	finish("s_waitcnt lgkmcnt(5)", "c", 0, "s_waitcnt lgkmcnt(5)                               // c\n");
	finish("s_waitcnt lgkmcnt(5)", "", 0, "s_waitcnt lgkmcnt(5)\n");
	finish("s_waitcnt lgkmcnt(5)", NULL, 0, "s_waitcnt lgkmcnt(5)\n");
	finish("s_waitcnt lgkmcnt(5)", "c", 1, "s_waitcnt lgkmcnt(5)\n");
	finish("", "c", 0, "                                                   // c\n");
	memset(t49, 'a', 49), t49[49] = '\0';
	memset(t50, 'b', 50), t50[50] = '\0';
	memset(t60, 'c', 60), t60[60] = '\0';
	snprintf(w, sizeof(w), "%s  // x\n", t49);
	finish(t49, "x", 0, w);
	snprintf(w, sizeof(w), "%s // x\n", t50);
	finish(t50, "x", 0, w);
	snprintf(w, sizeof(w), "%s // x\n", t60);
	finish(t60, "x", 0, w);
}

static void test_comment_column_52(void **state)
{
	fx f;
	const char *nl;

	(void)state;
	fx_init(&f, "gfx942");
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, 5, -1, "c", 0),
		  "s_waitcnt lgkmcnt(5)                               // c\n");
	assert_int_equal(strstr(f.out.p, "//") - f.out.p, 51); /* column 52, 1-based */
	fx_expect(&f, i2(&f.arena, KW_OP_V_MUL_F64, hold(2), kw_opr(alpha(0, 0, 2)), kw_opr(vn(8, 2)), "x"),
		  "v_mul_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+8:vgprValuC+8+1] // x\n");
	nl = strchr(f.out.p, '\n');
	assert_ptr_equal(nl, f.out.p + f.out.len - 1);
	fx_free(&f);
}

static void test_output_no_comment(void **state)
{
	fx f;

	(void)state;
	fx_init(&f, "gfx942");
	f.ctx.output_no_comment = 1;
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, hold(1), vn(3, 1), "Rearrange MI out reg"),
		  "v_mov_b32 v[vgprValuC], v[vgprValuC+3]\n");
	fx_expect(&f, kw_swaitcnt(&f.arena, 0, 0, 0, -1, "c", 0), "s_waitcnt 0\n");
	fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, "debug"), "s_barrier\n");
	fx_expect(&f, kw_swait_tensorcnt(&f.arena, 1, "t"), "s_wait_tensorcnt 1\n");
	fx_expect(&f, kw_text(&f.arena, "// c\n"), "");
	f.ctx.output_no_comment = 0;
	fx_expect(&f, kw_text(&f.arena, "// c\n"), "// c\n");
	fx_free(&f);
}

/* ---- §7 seed instructions ---------------------------------------------- */

static void test_seed_instructions(void **state)
{
	static const char *const isas[] = { "gfx942", "gfx90a", "gfx1100", "gfx1201", "gfx1250" };

	(void)state;
	for (size_t k = 0; k < sizeof(isas) / sizeof(isas[0]); k++) {
		fx f;
		kw_arena *a;
		int agpr;

		fx_init(&f, isas[k]);
		a = &f.arena;
		agpr = f.ctx.isa->has_agpr;
		if (agpr) {
			fx_expect(&f, i1(a, KW_OP_V_ACCVGPR_READ_B32, hold(1), kw_reg_index(ACC, 4, 1), "copy acc to vreg[1]"),
				  "v_accvgpr_read_b32 v[vgprValuC], acc4              // copy acc to vreg[1]\n");
			fx_expect(&f, i1(a, KW_OP_V_ACCVGPR_WRITE_B32, kw_reg_index(ACC, 4, 1), hold(1), "copy vreg[1] to acc"),
				  "v_accvgpr_write_b32 acc4, v[vgprValuC]             // copy vreg[1] to acc\n");
		}
		fx_expect(&f, i3(a, KW_OP_V_FMA_F32, hold(1), alpha(1, 1, 1), kw_reg_minus(vn(16, 1)), kw_reg_index(V, 40, 1), "c.real = ..."),
			  "v_fma_f32 v[vgprValuC], s[sgprAlpha+1], -v[vgprValuC+16], v40 // c.real = ...\n");
		fx_expect(&f, i3(a, KW_OP_V_FMA_F64, hold(2), alpha(1, 2, 2), kw_reg_minus(vn(32, 2)), kw_reg_index(V, 40, 2), ""),
			  "v_fma_f64 v[vgprValuC:vgprValuC+1], s[sgprAlpha+2:sgprAlpha+2+1], -v[vgprValuC+32:vgprValuC+32+1], v[40:41]\n");
		fx_expect(&f, i2(a, KW_OP_V_LSHLREV_B64, hold(2), kw_imm(0), kw_opr(vn(0, 2)), "Rearrange MI out reg"),
			  "v_lshlrev_b64 v[vgprValuC:vgprValuC+1], 0, v[vgprValuC+0:vgprValuC+0+1] // Rearrange MI out reg\n");
		fx_expect(&f, i1(a, KW_OP_V_MOV_B32, hold(1), vn(3, 1), "Rearrange MI out reg"),
			  "v_mov_b32 v[vgprValuC], v[vgprValuC+3]             // Rearrange MI out reg\n");
		fx_expect(&f, i1(a, KW_OP_V_MOVRELSD_2_B32, hold(1), vn(8, 1), "copy MI out reg to vreg[1]"),
			  "v_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+8]      // copy MI out reg to vreg[1]\n");
		fx_expect(&f, i2(a, KW_OP_V_MUL_F32, hold(1), kw_opr(alpha(0, 0, 1)), kw_opr(vn(4, 1)), "Multiply MI out reg with alpha"),
			  "v_mul_f32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
		fx_expect(&f, i2(a, KW_OP_V_MUL_F64, kw_reg_index(V, 40, 2), kw_opr(alpha(1, 0, 2)), kw_opr(vn(0, 2)), ""),
			  "v_mul_f64 v[40:41], s[sgprAlpha+0:sgprAlpha+0+1], v[vgprValuC+0:vgprValuC+0+1]\n");
		fx_expect(&f, i2(a, KW_OP_V_MUL_LO_U32, hold(1), kw_opr(alpha(0, 0, 1)), kw_opr(vn(8, 1)), "Multiply MI out reg with alpha"),
			  "v_mul_lo_u32 v[vgprValuC], s[sgprAlpha], v[vgprValuC+8] // Multiply MI out reg with alpha\n");
		fx_expect(&f, i2(a, KW_OP_V_PK_MUL_F16, hold(1), kw_opr(alpha(0, 0, 1)), kw_opr(vn(4, 1)), "Multiply MI out reg with alpha"),
			  "v_pk_mul_f16 v[vgprValuC], s[sgprAlpha], v[vgprValuC+4] // Multiply MI out reg with alpha\n");
		{
			kw_operand o = kw_imm(-1);
			fx_expect(&f, kw_inst(a, KW_OP_S_MOV_B32, kw_reg_index(S, 1, 1), 1, &o, ""), "s_mov_b32 s1, -1\n");
		}
		/* only v_movrelsd_2_b32 on gfx9 raises a diagnostic */
		assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], agpr ? 1 : 0);
		f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA] = 0;
		assert_int_equal(kw_diag_any(&f.diags), 0);
		fx_free(&f);
	}
}

static void test_mnemonics(void **state)
{
	static const char *const want[KW_OP_COUNT] = {
		"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_fma_f32", "v_fma_f64", "v_lshlrev_b64",
		"v_mov_b32", "v_movrelsd_2_b32", "v_mul_f32", "v_mul_f64", "v_mul_lo_u32", "v_pk_mul_f16",
		"s_mov_b32",
	};
	(void)state;
	for (int i = 0; i < KW_OP_COUNT; i++)
		assert_string_equal(kw_op_mnemonic((kw_op)i), want[i]);
}

static void test_holder_after_replace_prints(void **state)
{
	fx f;
	kw_reg d = kw_reg_holder(V, "ValuC", 1, 1, 1);

	(void)state;
	fx_init(&f, "gfx942");
	kw_reg_replace_holder(&d, 8);
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, d, vn(3, 1), "m"),
		  "v_mov_b32 v[vgprValuC+8+1], v[vgprValuC+3]         // m\n");
	fx_free(&f);
}

/* ---- §9.1 SWaitCnt ----------------------------------------------------- */

typedef struct wcase {
	int64_t vl, vs, ds, km;
	const char *comment;
	int all;
	const char *gfx9, *gfx11, *gfx12;
} wcase;

static const wcase wcases[] = {
	{ 0, 0, 0, -1, "c", 0,
	  "s_waitcnt 0                                        // c\n",
	  "s_waitcnt 0                                        // c\n\ns_waitcnt_vscnt null 0                             // c\n",
	  "s_wait_dscnt 0                                     // c\n\ns_wait_loadcnt 0                                   // c\n\ns_wait_storecnt 0                                  // c\n" },
	{ -1, -1, 5, -1, "", 0, "s_waitcnt lgkmcnt(5)\n", "s_waitcnt lgkmcnt(5)\n", "s_wait_dscnt 5\n" },
	{ -1, -1, 40, -1, "", 0, "s_waitcnt lgkmcnt(15)\n", "s_waitcnt lgkmcnt(40)\n", "s_wait_dscnt 40\n" },
	{ 3, 2, -1, -1, "", 0, "s_waitcnt vmcnt(5)\n", "s_waitcnt vmcnt(3)\n\ns_waitcnt_vscnt null 2\n",
	  "s_wait_loadcnt 3\n\ns_wait_storecnt 2\n" },
	{ 7, -1, 2, 1, "", 0, "s_waitcnt lgkmcnt(3), vmcnt(7)\n", "s_waitcnt lgkmcnt(3), vmcnt(7)\n",
	  "s_wait_dscnt 2\n\ns_wait_kmcnt 1\n\ns_wait_loadcnt 7\n" },
	{ -1, -1, -1, -1, "", 0, "", "", "" },
	{ -1, -1, -1, -1, "c", 0, "", "", "" }, /* a comment alone prints nothing */
	{ -1, -1, -1, -1, "x", 1,
	  "s_waitcnt 0                                        // (Wait all)\n",
	  "s_waitcnt 0                                        // (Wait all)\n\ns_waitcnt_vscnt null 0                             // (Wait all)\n",
	  "s_wait_dscnt 0                                     // (Wait all)\n\ns_wait_kmcnt 0                                     // (Wait all)\n\ns_wait_loadcnt 0                                   // (Wait all)\n\ns_wait_storecnt 0                                  // (Wait all)\n" },
	{ 9, 9, 9, 9, "", 1, /* waitAll overrides the counts and the comment */
	  "s_waitcnt 0                                        // (Wait all)\n",
	  "s_waitcnt 0                                        // (Wait all)\n\ns_waitcnt_vscnt null 0                             // (Wait all)\n",
	  "s_wait_dscnt 0                                     // (Wait all)\n\ns_wait_kmcnt 0                                     // (Wait all)\n\ns_wait_loadcnt 0                                   // (Wait all)\n\ns_wait_storecnt 0                                  // (Wait all)\n" },
	{ -1, -1, -1, 40, "k", 0,
	  "s_waitcnt lgkmcnt(15)                              // k\n",
	  "s_waitcnt lgkmcnt(40)                              // k\n",
	  "s_wait_kmcnt 31                                    // k\n" },
	{ -1, 100, -1, -1, "", 0, "s_waitcnt vmcnt(63)\n", "s_waitcnt_vscnt null 63\n", "s_wait_storecnt 63\n" },
	{ 100, -1, -1, -1, "", 0, "s_waitcnt vmcnt(63)\n", "s_waitcnt vmcnt(63)\n", "s_wait_loadcnt 63\n" },
	{ -1, -1, -5, -1, "", 0, "s_waitcnt lgkmcnt(-5)\n", "s_waitcnt lgkmcnt(-5)\n", "s_wait_dscnt -5\n" },
	{ -1, 1, -1, 3, "", 0, "s_waitcnt lgkmcnt(3), vmcnt(1)\n", "s_waitcnt lgkmcnt(3)\n\ns_waitcnt_vscnt null 1\n",
	  "s_wait_kmcnt 3\n\ns_wait_storecnt 1\n" },
	{ 0, -1, 0, -1, "", 0, "s_waitcnt 0\n", "s_waitcnt 0\n", "s_wait_dscnt 0\n\ns_wait_loadcnt 0\n" },
	{ 0, -1, -1, -1, "", 0, "s_waitcnt vmcnt(0)\n", "s_waitcnt vmcnt(0)\n", "s_wait_loadcnt 0\n" },
	{ -1, -1, 0, -1, "", 0, "s_waitcnt lgkmcnt(0)\n", "s_waitcnt lgkmcnt(0)\n", "s_wait_dscnt 0\n" },
	{ 4, -1, 0, -1, "", 0, "s_waitcnt lgkmcnt(0), vmcnt(4)\n", "s_waitcnt lgkmcnt(0), vmcnt(4)\n",
	  "s_wait_dscnt 0\n\ns_wait_loadcnt 4\n" },
};

static void test_swaitcnt_table(void **state)
{
	static const struct {
		const char *isa;
		int col;
	} isas[] = {
		{ "gfx908", 0 }, { "gfx90a", 0 }, { "gfx940", 0 }, { "gfx941", 0 }, { "gfx942", 0 }, { "gfx950", 0 },
		{ "gfx1100", 1 }, { "gfx1101", 1 }, { "gfx1102", 1 },
		{ "gfx1200", 2 }, { "gfx1201", 2 }, { "gfx1250", 2 },
	};
	(void)state;
	for (size_t k = 0; k < sizeof(isas) / sizeof(isas[0]); k++)
		for (size_t i = 0; i < sizeof(wcases) / sizeof(wcases[0]); i++) {
			const wcase *w = &wcases[i];
			const char *want = isas[k].col == 0 ? w->gfx9 : isas[k].col == 1 ? w->gfx11 : w->gfx12;
			fx f;

			fx_init(&f, isas[k].isa);
			kw_buf_reset(&f.out);
			assert_int_equal(kw_item_render(&f.out, kw_swaitcnt(&f.arena, w->vl, w->vs, w->ds, w->km, w->comment, w->all), &f.ctx), 0);
			if (strcmp(f.out.p ? f.out.p : "", want))
				fail_msg("%s case %zu: got \"%s\" want \"%s\"", isas[k].isa, i, f.out.p ? f.out.p : "", want);
			fx_free(&f);
		}
}

static void test_swaitcnt_empty_is_empty(void **state)
{
	fx f;

	(void)state;
	fx_init(&f, "gfx942");
	kw_buf_puts(&f.out, "before\n");
	assert_int_equal(kw_item_render(&f.out, kw_swaitcnt(&f.arena, -1, -1, -1, -1, "c", 0), &f.ctx), 0);
	assert_string_equal(f.out.p, "before\n");
	assert_int_equal(kw_diag_any(&f.diags), 0);
	fx_free(&f);
}

static void test_swaitcnt_clamp_and_missing_cap(void **state)
{
	fx f;
	json_t *o;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	fx_init(&f, "gfx942");
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, 40, -1, "", 0), "s_waitcnt lgkmcnt(15)\n");
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_CLAMPED], 1);
	assert_non_null(strstr(f.diags.message[KW_DIAG_COUNT_CLAMPED], "lgkmcnt 40"));
	/* a cap that reads 0 clamps to (0) */
	o = json_pack("{s:i}", "MaxVmcnt", 0);
	assert_int_equal(kw_caps_override(&f.caps, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	fx_expect(&f, kw_swaitcnt(&f.arena, 5, -1, -1, -1, "", 0), "s_waitcnt vmcnt(0)\n");
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_CLAMPED], 2);
	fx_free(&f);

	/* gfx12 caps on a gfx9 table: SeparateVMcnt/LGKMcnt set, Max* missing -> 0 */
	fx_init(&f, "gfx942");
	o = json_pack("{s:i,s:i}", "SeparateVMcnt", 1, "SeparateLGKMcnt", 1);
	assert_int_equal(kw_caps_override(&f.caps, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	fx_expect(&f, kw_swaitcnt(&f.arena, 3, -1, 2, -1, "", 0), "s_wait_dscnt 0\n\ns_wait_loadcnt 0\n");
	assert_true(f.diags.count[KW_DIAG_COUNT_CLAMPED] > 0);
	assert_true(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA] > 0);
	fx_free(&f);

	/* within range: no diagnostic */
	fx_init(&f, "gfx1201");
	fx_expect(&f, kw_swaitcnt(&f.arena, 63, 63, 63, 31, "", 0),
		  "s_wait_dscnt 63\n\ns_wait_kmcnt 31\n\ns_wait_loadcnt 63\n\ns_wait_storecnt 63\n");
	assert_int_equal(kw_diag_any(&f.diags), 0);
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, -1, 32, "", 0), "s_wait_kmcnt 31\n");
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_CLAMPED], 1);
	fx_free(&f);
}

static void test_diag_count_out_of_range(void **state)
{
	fx f;
	json_t *o;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	/* MaxLgkmcnt raised past the gfx9 field width (15) */
	fx_init(&f, "gfx942");
	o = json_pack("{s:i}", "MaxLgkmcnt", 63);
	assert_int_equal(kw_caps_override(&f.caps, 0, o, "asmCaps", &err), 0);
	json_decref(o);
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, 40, -1, "", 0), "s_waitcnt lgkmcnt(40)\n");
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_CLAMPED], 0);
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_OUT_OF_RANGE], 1);
	fx_free(&f);

	/* a count below -1 prints as given and is flagged */
	fx_init(&f, "gfx942");
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, -5, -1, "", 0), "s_waitcnt lgkmcnt(-5)\n");
	assert_int_equal(f.diags.count[KW_DIAG_COUNT_OUT_OF_RANGE], 1);
	fx_free(&f);

	fx_init(&f, "gfx1100");
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, 40, -1, "", 0), "s_waitcnt lgkmcnt(40)\n");
	assert_int_equal(kw_diag_any(&f.diags), 0);
	fx_free(&f);
}

/* ---- §9.2 SWaitTensorcnt ----------------------------------------------- */

static void test_swait_tensorcnt(void **state)
{
	static const char *const isas[] = { "gfx908", "gfx942", "gfx1100", "gfx1201", "gfx1250" };

	(void)state;
	for (size_t k = 0; k < sizeof(isas) / sizeof(isas[0]); k++) {
		fx f;
		int tdm = !strcmp(isas[k], "gfx1250");

		fx_init(&f, isas[k]);
		fx_expect(&f, kw_swait_tensorcnt(&f.arena, -1, "t"), "s_wait_tensorcnt -1                                // t\n");
		fx_expect(&f, kw_swait_tensorcnt(&f.arena, 3, ""), "s_wait_tensorcnt 3\n");
		fx_expect(&f, kw_swait_tensorcnt(&f.arena, 0, ""), "s_wait_tensorcnt 0\n");
		fx_expect(&f, kw_swait_tensorcnt(&f.arena, 1000, ""), "s_wait_tensorcnt 1000\n"); /* no clamping */
		assert_int_equal(f.diags.count[KW_DIAG_COUNT_CLAMPED], 0);
		assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA] != 0, !tdm);
		fx_free(&f);
	}
}

/* ---- §8 SBarrier ------------------------------------------------------- */

static void test_sbarrier(void **state)
{
	static const struct {
		const char *isa;
		int nb;
	} isas[] = { { "gfx908", 0 }, { "gfx942", 0 }, { "gfx950", 0 }, { "gfx1100", 0 },
		     { "gfx1200", 1 }, { "gfx1201", 1 }, { "gfx1250", 1 } };

	(void)state;
	for (size_t k = 0; k < sizeof(isas) / sizeof(isas[0]); k++) {
		fx f;

		fx_init(&f, isas[k].isa);
		if (isas[k].nb) {
			fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, "debug"),
				  "s_barrier_signal -1\ns_barrier_wait -1              // debug\n");
			fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, ""), "s_barrier_signal -1\ns_barrier_wait -1\n");
		} else {
			fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, "debug"),
				  "s_barrier                                          // debug\n");
			fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, ""), "s_barrier\n");
		}
		assert_int_equal(kw_diag_any(&f.diags), 0);
		fx_free(&f);
	}
}

static void test_sbarrier_text_fixed_at_construction(void **state)
{
	fx f;
	kw_item *b;
	kw_caps other;

	(void)state;
	fx_init(&f, "gfx942");
	b = kw_sbarrier(&f.arena, &f.caps, "");
	/* printing with gfx12 caps later does not change the text */
	kw_caps_for(&other, isa_named("gfx1201"));
	f.ctx.caps = &other;
	fx_expect(&f, b, "s_barrier\n");
	/* a memory token is never printed */
	{
		static const int64_t tok[2] = { 1, 2 };
		b->u.barrier.tokens = tok;
		b->u.barrier.ntokens = 2;
		fx_expect(&f, b, "s_barrier\n");
	}
	fx_free(&f);
}

/* ---- §10 VGPR-MSB ------------------------------------------------------ */

static const kw_vgpr_name valuc240[] = { { "ValuC", 240 } };

static void render_seq(fx *f, kw_item **items, size_t n)
{
	kw_buf_reset(&f->out);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(kw_item_render(&f->out, items[i], &f->ctx), 0);
}

static void msb_sequence(int64_t state0, const char *prefix)
{
	fx f;
	kw_item *items[5];
	char want[2048];

	fx_init(&f, "gfx1250");
	f.ctx.vgpr_idx = valuc240;
	f.ctx.n_vgpr_idx = 1;
	f.ctx.vgpr_msb = state0;
	items[0] = i1(&f.arena, KW_OP_V_MOV_B32, hold(1), vn(16, 1), "copy MI out reg to vreg[16]");
	items[1] = i1(&f.arena, KW_OP_V_MOV_B32, hold(1), vn(17, 1), "x");
	items[2] = i1(&f.arena, KW_OP_V_MOV_B32, vn(1, 1), vn(2, 1), "y");
	items[3] = kw_swaitcnt(&f.arena, -1, -1, 1, -1, "w", 0);
	items[4] = i2(&f.arena, KW_OP_V_MUL_F32, kw_reg_index(V, 300, 1), kw_opr(alpha(0, 0, 1)),
		      kw_opr(kw_reg_index(V, 600, 1)), "z");
	render_seq(&f, items, 5);
	snprintf(want, sizeof(want), "%s%s", prefix,
		 "s_set_vgpr_msb 1                                   // src0: 1, src1: 0, src2: 0, dst: 0\n"
		 "v_mov_b32 v[vgprValuC], v[vgprValuC+16-256]        // copy MI out reg to vreg[16]\n"
		 "v_mov_b32 v[vgprValuC], v[vgprValuC+17-256]        // x\n"
		 "s_set_vgpr_msb 0                                   // src0: 0, src1: 0, src2: 0, dst: 0\n"
		 "v_mov_b32 v[vgprValuC+1], v[vgprValuC+2]           // y\n"
		 "s_wait_dscnt 1                                     // w\n"
		 "s_set_vgpr_msb 72                                  // src0: 0, src1: 2, src2: 0, dst: 1\n"
		 "v_mul_f32 v[300-256], s[sgprAlpha], v[600-512]     // z\n");
	assert_string_equal(f.out.p, want);
	assert_int_equal(f.ctx.vgpr_msb, 72);
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 0);
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 0);
	fx_free(&f);
}

static void test_msb_from_state_0(void **state)
{
	(void)state;
	msb_sequence(0, "");
}

static void test_msb_from_state_minus1(void **state)
{
	(void)state;
	msb_sequence(-1, "s_nop 0\n");
}

static void test_msb_no_vgpr_instructions(void **state)
{
	fx f;
	kw_item *items[4];

	(void)state;
	fx_init(&f, "gfx1250");
	f.ctx.vgpr_msb = -1;
	items[0] = kw_swaitcnt(&f.arena, -1, -1, 1, -1, "w", 0);
	items[1] = i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 1, 1), kw_reg_index(V, 2, 1), "a");
	items[2] = kw_swait_tensorcnt(&f.arena, 2, "t");
	items[3] = i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 1, 1), kw_reg_index(V, 2, 1), "a");
	render_seq(&f, items, 4);
	/* the wait turned -1 into -2: the bank line follows without s_nop */
	assert_string_equal(f.out.p,
			    "s_wait_dscnt 1                                     // w\n"
			    "s_set_vgpr_msb 0                                   // src0: 0, src1: 0, src2: 0, dst: 0\n"
			    "v_mov_b32 v1, v2                                   // a\n"
			    "s_wait_tensorcnt 2                                 // t\n"
			    "v_mov_b32 v1, v2                                   // a\n");
	fx_free(&f);

	/* an instruction without any v register also turns -1 into -2 */
	fx_init(&f, "gfx1250");
	f.ctx.vgpr_msb = -1;
	items[0] = i1(&f.arena, KW_OP_S_MOV_B32, kw_reg_index(S, 1, 1), kw_reg_index(S, 2, 1), "a");
	items[1] = i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 1, 1), kw_reg_index(V, 2, 1), "a");
	render_seq(&f, items, 2);
	assert_string_equal(f.out.p,
			    "s_mov_b32 s1, s2                                   // a\n"
			    "s_set_vgpr_msb 0                                   // src0: 0, src1: 0, src2: 0, dst: 0\n"
			    "v_mov_b32 v1, v2                                   // a\n");
	fx_free(&f);

	/* SBarrier and s_waitcnt do not take part */
	fx_init(&f, "gfx1250");
	f.ctx.vgpr_msb = -1;
	items[0] = kw_sbarrier(&f.arena, &f.caps, "");
	items[1] = i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 1, 1), kw_reg_index(V, 2, 1), "a");
	render_seq(&f, items, 2);
	assert_string_equal(f.out.p,
			    "s_barrier_signal -1\ns_barrier_wait -1\n"
			    "s_nop 0\n"
			    "s_set_vgpr_msb 0                                   // src0: 0, src1: 0, src2: 0, dst: 0\n"
			    "v_mov_b32 v1, v2                                   // a\n");
	fx_free(&f);
}

static void test_msb_three_sources(void **state)
{
	fx f;
	kw_item *items[2];

	(void)state;
	fx_init(&f, "gfx1250");
	items[0] = i3(&f.arena, KW_OP_V_FMA_F32, kw_reg_index(V, 1, 1), kw_reg_index(V, 300, 1), kw_reg_index(V, 600, 1),
		      kw_reg_index(V, 800, 1), "f");
	items[1] = i3(&f.arena, KW_OP_V_FMA_F32, kw_reg_index(V, 1, 1), kw_reg_index(S, 3, 1), kw_reg_index(V, 2, 1),
		      kw_reg_index(V, 800, 1), "f");
	render_seq(&f, items, 2);
	assert_string_equal(f.out.p,
			    "s_set_vgpr_msb 57                                  // src0: 1, src1: 2, src2: 3, dst: 0\n"
			    "v_fma_f32 v1, v[300-256], v[600-512], v[800-768]   // f\n"
			    "s_set_vgpr_msb 48                                  // src0: 0, src1: 0, src2: 3, dst: 0\n"
			    "v_fma_f32 v1, s3, v2, v[800-768]                   // f\n");
	fx_free(&f);
}

static void test_msb_comment_kept_without_comments(void **state)
{
	fx f;

	(void)state;
	fx_init(&f, "gfx1250");
	f.ctx.vgpr_idx = valuc240;
	f.ctx.n_vgpr_idx = 1;
	f.ctx.output_no_comment = 1;
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, hold(1), vn(16, 1), "copy"),
		  "s_set_vgpr_msb 1                                   // src0: 1, src1: 0, src2: 0, dst: 0\n"
		  "v_mov_b32 v[vgprValuC], v[vgprValuC+16-256]\n");
	fx_free(&f);
}

static void test_msb_not_on_other_isas(void **state)
{
	fx f;

	(void)state;
	/* no suffix and no bank line without HasVgprMSB, whatever the state */
	fx_init(&f, "gfx1201");
	f.ctx.vgpr_idx = valuc240;
	f.ctx.n_vgpr_idx = 1;
	f.ctx.vgpr_msb = -1;
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, hold(1), vn(16, 1), "c"),
		  "v_mov_b32 v[vgprValuC], v[vgprValuC+16]            // c\n");
	fx_free(&f);
}

/* ---- diagnostics ------------------------------------------------------- */

static void test_diag_instruction_not_on_isa(void **state)
{
	fx f;

	(void)state;
	fx_init(&f, "gfx1100");
	fx_expect(&f, i1(&f.arena, KW_OP_V_ACCVGPR_READ_B32, hold(1), kw_reg_index(ACC, 4, 1), ""),
		  "v_accvgpr_read_b32 v[vgprValuC], acc4\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 1);
	assert_non_null(strstr(f.diags.message[KW_DIAG_INSTRUCTION_NOT_ON_ISA], "v_accvgpr_read_b32"));
	assert_non_null(strstr(f.diags.message[KW_DIAG_INSTRUCTION_NOT_ON_ISA], "gfx1100"));
	fx_free(&f);

	fx_init(&f, "gfx942");
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOVRELSD_2_B32, hold(1), vn(8, 1), ""), "v_movrelsd_2_b32 v[vgprValuC], v[vgprValuC+8]\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 1);
	fx_expect(&f, kw_swait_tensorcnt(&f.arena, 0, ""), "s_wait_tensorcnt 0\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 2);
	fx_free(&f);

	fx_init(&f, "gfx1201");
	fx_expect(&f, i1(&f.arena, KW_OP_V_ACCVGPR_WRITE_B32, kw_reg_index(ACC, 4, 1), hold(1), ""),
		  "v_accvgpr_write_b32 acc4, v[vgprValuC]\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 1);
	fx_free(&f);

	/* the gfx9 forms with caps that select them on gfx1250 */
	fx_init(&f, "gfx1250");
	memset(f.caps.asm_, 0, sizeof(f.caps.asm_));
	fx_expect(&f, kw_swaitcnt(&f.arena, -1, -1, 0, -1, "", 0), "s_waitcnt lgkmcnt(0)\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 1);
	fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, ""), "s_barrier\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 2);
	fx_free(&f);

	/* the gfx12 barrier on gfx942 */
	fx_init(&f, "gfx942");
	f.caps.asm_[KW_ASM_HasNewBarrier] = 1;
	fx_expect(&f, kw_sbarrier(&f.arena, &f.caps, ""), "s_barrier_signal -1\ns_barrier_wait -1\n");
	assert_int_equal(f.diags.count[KW_DIAG_INSTRUCTION_NOT_ON_ISA], 1);
	fx_free(&f);
}

static void test_diag_register_out_of_range(void **state)
{
	fx f;

	(void)state;
	fx_init(&f, "gfx942");
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 300, 1), kw_reg_index(V, 1, 1), ""), "v_mov_b32 v300, v1\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 1);
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 255, 1), kw_reg_index(V, 1, 1), ""), "v_mov_b32 v255, v1\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 1);
	/* a pair that runs past v255 */
	fx_expect(&f, i2(&f.arena, KW_OP_V_MUL_F64, kw_reg_index(V, 254, 2), kw_opr(alpha(0, 0, 2)), kw_opr(kw_reg_index(V, 255, 2)), ""),
		  "v_mul_f64 v[254:255], s[sgprAlpha:sgprAlpha+1], v[255:256]\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 2);
	fx_expect(&f, i1(&f.arena, KW_OP_V_ACCVGPR_READ_B32, kw_reg_index(V, 1, 1), kw_reg_index(ACC, 256, 1), ""),
		  "v_accvgpr_read_b32 v1, acc256\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 3);
	/* named registers are checked against the name map (empty: base 0) */
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, vn(256, 1), kw_reg_index(V, 1, 1), ""), "v_mov_b32 v[vgprValuC+256], v1\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 4);
	fx_free(&f);

	fx_init(&f, "gfx1250");
	fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 1023, 1), kw_reg_index(V, 1, 1), ""),
		  "s_set_vgpr_msb 192                                 // src0: 0, src1: 0, src2: 0, dst: 3\n"
		  "v_mov_b32 v[1023-768], v1\n");
	assert_int_equal(f.diags.count[KW_DIAG_REGISTER_OUT_OF_RANGE], 0);
	fx_free(&f);
}

static void test_diag_vgpr_pair_misaligned(void **state)
{
	static const struct {
		const char *isa;
		int flagged;
	} isas[] = { { "gfx908", 0 }, { "gfx90a", 1 }, { "gfx942", 1 }, { "gfx950", 1 }, { "gfx1100", 0 }, { "gfx1201", 0 } };

	(void)state;
	for (size_t k = 0; k < sizeof(isas) / sizeof(isas[0]); k++) {
		fx f;

		fx_init(&f, isas[k].isa);
		fx_expect(&f, i2(&f.arena, KW_OP_V_MUL_F64, kw_reg_index(V, 41, 2), kw_opr(alpha(0, 0, 2)), kw_opr(vn(0, 2)), ""),
			  "v_mul_f64 v[41:42], s[sgprAlpha:sgprAlpha+1], v[vgprValuC+0:vgprValuC+0+1]\n");
		assert_int_equal(f.diags.count[KW_DIAG_VGPR_PAIR_MISALIGNED] != 0, isas[k].flagged);
		/* even pairs are fine */
		f.diags.count[KW_DIAG_VGPR_PAIR_MISALIGNED] = 0;
		fx_expect(&f, i2(&f.arena, KW_OP_V_LSHLREV_B64, kw_reg_index(V, 40, 2), kw_imm(0), kw_opr(vn(2, 2)), ""),
			  "v_lshlrev_b64 v[40:41], 0, v[vgprValuC+2:vgprValuC+2+1]\n");
		assert_int_equal(f.diags.count[KW_DIAG_VGPR_PAIR_MISALIGNED], 0);
		/* a 32-bit instruction is not checked for pairs */
		fx_expect(&f, i1(&f.arena, KW_OP_V_MOV_B32, kw_reg_index(V, 41, 1), kw_reg_index(V, 43, 1), ""), "v_mov_b32 v41, v43\n");
		assert_int_equal(f.diags.count[KW_DIAG_VGPR_PAIR_MISALIGNED], 0);
		fx_free(&f);
	}
}

static void test_diag_names(void **state)
{
	kw_diags d;

	(void)state;
	assert_string_equal(kw_diag_code_name(KW_DIAG_COUNT_CLAMPED), "count_clamped");
	assert_string_equal(kw_diag_code_name(KW_DIAG_COUNT_OUT_OF_RANGE), "count_out_of_range");
	assert_string_equal(kw_diag_code_name(KW_DIAG_VGPR_PAIR_MISALIGNED), "vgpr_pair_misaligned");
	assert_string_equal(kw_diag_code_name(KW_DIAG_AGPR_SPILL), "agpr_spill");
	assert_string_equal(kw_diag_code_name(KW_DIAG_REGISTER_OUT_OF_RANGE), "register_out_of_range");
	assert_string_equal(kw_diag_code_name(KW_DIAG_INSTRUCTION_NOT_ON_ISA), "instruction_not_on_isa");
	assert_string_equal(kw_diag_code_name(KW_DIAG_NCODES), "unknown");
	memset(&d, 0, sizeof(d));
	assert_int_equal(kw_diag_any(&d), 0);
	kw_diag_add(&d, KW_DIAG_AGPR_SPILL, "first %d", 1);
	kw_diag_add(&d, KW_DIAG_AGPR_SPILL, "second %d", 2);
	kw_diag_add(&d, KW_DIAG_COUNT_CLAMPED, "x");
	kw_diag_add(NULL, KW_DIAG_COUNT_CLAMPED, "ignored");
	assert_int_equal(d.count[KW_DIAG_AGPR_SPILL], 2);
	assert_string_equal(d.message[KW_DIAG_AGPR_SPILL], "first 1");
	assert_int_equal(kw_diag_any(&d), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_format),
		cmocka_unit_test(test_comment_column_52),
		cmocka_unit_test(test_output_no_comment),
		cmocka_unit_test(test_seed_instructions),
		cmocka_unit_test(test_mnemonics),
		cmocka_unit_test(test_holder_after_replace_prints),
		cmocka_unit_test(test_swaitcnt_table),
		cmocka_unit_test(test_swaitcnt_empty_is_empty),
		cmocka_unit_test(test_swaitcnt_clamp_and_missing_cap),
		cmocka_unit_test(test_diag_count_out_of_range),
		cmocka_unit_test(test_swait_tensorcnt),
		cmocka_unit_test(test_sbarrier),
		cmocka_unit_test(test_sbarrier_text_fixed_at_construction),
		cmocka_unit_test(test_msb_from_state_0),
		cmocka_unit_test(test_msb_from_state_minus1),
		cmocka_unit_test(test_msb_no_vgpr_instructions),
		cmocka_unit_test(test_msb_three_sources),
		cmocka_unit_test(test_msb_comment_kept_without_comments),
		cmocka_unit_test(test_msb_not_on_other_isas),
		cmocka_unit_test(test_diag_instruction_not_on_isa),
		cmocka_unit_test(test_diag_register_out_of_range),
		cmocka_unit_test(test_diag_vgpr_pair_misaligned),
		cmocka_unit_test(test_diag_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
