/*
 * test_module.c - modules: concatenation, nesting, addComment, empty slots,
 * replaceHolder recursion (kwgen/module.h, rendering.md §5.2, §6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <string.h>

#include "kwgen/module.h"

typedef struct fx {
	kw_arena arena;
	kw_caps caps;
	kw_render_ctx ctx;
	kw_buf out;
} fx;

static void fx_init(fx *f, const char *isa)
{
	kw_error err = KW_ERROR_INIT;
	json_t *v = json_string(isa);

	memset(f, 0, sizeof(*f));
	if (kw_isa_parse(&f->ctx.isa, v, &err))
		fail_msg("%s", err.message);
	json_decref(v);
	kw_caps_for(&f->caps, f->ctx.isa);
	f->ctx.caps = &f->caps;
}

static void fx_free(fx *f)
{
	kw_arena_free(&f->arena);
	kw_buf_free(&f->out);
}

static void expect_render(fx *f, const kw_item *m, const char *want)
{
	kw_error err = KW_ERROR_INIT;

	kw_buf_reset(&f->out);
	assert_int_equal(kw_render(&f->out, m, &f->ctx, &err), 0);
	assert_string_equal(f->out.p ? f->out.p : "", want);
}

static kw_item *mov(kw_arena *a, kw_reg d, kw_reg s, const char *c)
{
	kw_operand o = kw_opr(s);
	return kw_inst(a, KW_OP_V_MOV_B32, d, 1, &o, c);
}

static kw_reg hv(void) { return kw_reg_holder(KW_RT_V, "ValuC", 0, 0, 1); }
static kw_reg hv1(void) { return kw_reg_holder(KW_RT_V, "ValuC", 1, 1, 1); }
static kw_reg vn(int64_t o) { return kw_reg_named(KW_RT_V, "ValuC", 1, o, 1); }

static void test_empty_module(void **state)
{
	fx f;
	kw_item *m;

	(void)state;
	fx_init(&f, "gfx942");
	m = kw_module(&f.arena, "Empty");
	assert_non_null(m);
	assert_int_equal(m->kind, KW_ITEM_MODULE);
	expect_render(&f, m, "");
	m = kw_module(&f.arena, NULL);
	assert_string_equal(m->u.mod.name, "");
	expect_render(&f, m, "");
	fx_free(&f);
}

static void test_concatenation(void **state)
{
	fx f;
	kw_item *m;

	(void)state;
	fx_init(&f, "gfx942");
	m = kw_module(&f.arena, "ConservativeWaitCnt");
	assert_int_equal(kw_module_add(&f.arena, m, kw_swaitcnt(&f.arena, 0, 0, 0, -1, "debug c", 0)), 0);
	assert_int_equal(kw_module_add(&f.arena, m, kw_sbarrier(&f.arena, &f.caps, "debug")), 0);
	assert_int_equal(kw_module_add(&f.arena, m, NULL), 0); /* add(None) is ignored */
	assert_int_equal(m->u.mod.n, 2);
	/* no name, header or separator */
	expect_render(&f, m,
		      "s_waitcnt 0                                        // debug c\n"
		      "s_barrier                                          // debug\n");
	fx_free(&f);
}

static void test_nested(void **state)
{
	fx f;
	kw_item *outer, *inner, *inner2;

	(void)state;
	fx_init(&f, "gfx942");
	outer = kw_module(&f.arena, "outer");
	inner = kw_module(&f.arena, "inner");
	inner2 = kw_module(&f.arena, "inner2");
	kw_module_add(&f.arena, inner, mov(&f.arena, hv(), vn(0), "a"));
	kw_module_add(&f.arena, inner, mov(&f.arena, hv1(), vn(4), "b"));
	kw_module_add(&f.arena, inner2, kw_swaitcnt(&f.arena, -1, -1, -1, -1, "", 0)); /* prints nothing */
	kw_module_add(&f.arena, outer, kw_text(&f.arena, "// head\n"));
	kw_module_add(&f.arena, outer, inner);
	kw_module_add(&f.arena, outer, inner2);
	kw_module_add(&f.arena, outer, kw_module(&f.arena, "empty"));
	kw_module_add(&f.arena, outer, mov(&f.arena, hv(), vn(8), ""));
	expect_render(&f, outer,
		      "// head\n"
		      "v_mov_b32 v[vgprValuC], v[vgprValuC+0]             // a\n"
		      "v_mov_b32 v[vgprValuC+1], v[vgprValuC+4]           // b\n"
		      "v_mov_b32 v[vgprValuC], v[vgprValuC+8]\n");
	fx_free(&f);
}

static void test_many_items_grow(void **state)
{
	fx f;
	kw_item *m;

	(void)state;
	fx_init(&f, "gfx942");
	m = kw_module(&f.arena, "big");
	for (int i = 0; i < 1000; i++)
		assert_int_equal(kw_module_add(&f.arena, m, kw_text(&f.arena, "x")), 0);
	assert_int_equal(m->u.mod.n, 1000);
	kw_buf_reset(&f.out);
	{
		kw_error err = KW_ERROR_INIT;
		assert_int_equal(kw_render(&f.out, m, &f.ctx, &err), 0);
	}
	assert_int_equal(f.out.len, 1000);
	fx_free(&f);
}

static void test_add_comment(void **state)
{
	fx f;
	kw_item *m;

	(void)state;
	fx_init(&f, "gfx942");
	m = kw_module(&f.arena, "syncThreads");
	assert_int_equal(kw_module_add_comment(&f.arena, m, "Skip force waitcnt0"), 0);
	assert_int_equal(kw_module_add_comment(&f.arena, m, ""), 0);
	expect_render(&f, m, "// Skip force waitcnt0\n// \n");
	/* TextBlocks print nothing with outputNoComment */
	f.ctx.output_no_comment = 1;
	expect_render(&f, m, "");
	fx_free(&f);
}

static void test_empty_slot_unsupported(void **state)
{
	fx f;
	kw_item *m, *outer;
	kw_error err = KW_ERROR_INIT;

	(void)state;
	fx_init(&f, "gfx942");
	m = kw_module(&f.arena, "MulAlpha");
	assert_int_equal(kw_module_set_size(&f.arena, m, 3), 0);
	assert_int_equal(m->u.mod.n, 3);
	kw_module_set(m, 0, mov(&f.arena, hv(), vn(0), ""));
	kw_module_set(m, 2, mov(&f.arena, hv(), vn(2), ""));
	kw_module_set(m, 7, mov(&f.arena, hv(), vn(7), "")); /* out of range: ignored */
	assert_int_equal(kw_render(&f.out, m, &f.ctx, &err), KW_EUNSUPPORTED);
	assert_int_equal(err.code, KW_EUNSUPPORTED);
	assert_non_null(strstr(err.message, "MulAlpha"));
	assert_non_null(strstr(err.message, "1"));

	/* also when nested */
	kw_error_clear(&err);
	outer = kw_module(&f.arena, "outer");
	kw_module_add(&f.arena, outer, m);
	kw_buf_reset(&f.out);
	assert_int_equal(kw_render(&f.out, outer, &f.ctx, &err), KW_EUNSUPPORTED);

	/* filled: renders */
	kw_module_set(m, 1, mov(&f.arena, hv(), vn(1), ""));
	expect_render(&f, m,
		      "v_mov_b32 v[vgprValuC], v[vgprValuC+0]\n"
		      "v_mov_b32 v[vgprValuC], v[vgprValuC+1]\n"
		      "v_mov_b32 v[vgprValuC], v[vgprValuC+2]\n");

	/* set_size(0): empty */
	assert_int_equal(kw_module_set_size(&f.arena, m, 0), 0);
	expect_render(&f, m, "");
	fx_free(&f);
}

static void test_replace_holder_recursive(void **state)
{
	fx f;
	kw_item *outer, *inner, *solo;
	kw_reg h2 = kw_reg_holder(KW_RT_V, "ValuC", 0, 0, 2);
	kw_operand o[2];

	(void)state;
	fx_init(&f, "gfx942");
	outer = kw_module(&f.arena, "outer");
	inner = kw_module(&f.arena, "inner");
	kw_module_add(&f.arena, inner, mov(&f.arena, hv(), vn(16), "r"));
	kw_module_add(&f.arena, inner, mov(&f.arena, hv1(), vn(17), "i"));
	o[0] = kw_imm(0);
	o[1] = kw_opr(kw_reg_named(KW_RT_V, "ValuC", 1, 0, 2));
	kw_module_add(&f.arena, outer, inner);
	kw_module_add(&f.arena, outer, kw_inst(&f.arena, KW_OP_V_LSHLREV_B64, h2, 2, o, ""));
	kw_module_add(&f.arena, outer, kw_swaitcnt(&f.arena, -1, -1, 0, -1, "", 0));
	kw_module_add(&f.arena, outer, kw_text(&f.arena, "// t\n"));
	kw_replace_holder(outer, 8);
	expect_render(&f, outer,
		      "v_mov_b32 v[vgprValuC+8], v[vgprValuC+16]          // r\n"
		      "v_mov_b32 v[vgprValuC+8+1], v[vgprValuC+17]        // i\n"
		      "v_lshlrev_b64 v[vgprValuC+8:vgprValuC+8+1], 0, v[vgprValuC+0:vgprValuC+0+1]\n"
		      "s_waitcnt lgkmcnt(0)\n"
		      "// t\n");
	/* again: re-based, not accumulated */
	kw_replace_holder(outer, 2);
	expect_render(&f, outer,
		      "v_mov_b32 v[vgprValuC+2], v[vgprValuC+16]          // r\n"
		      "v_mov_b32 v[vgprValuC+2+1], v[vgprValuC+17]        // i\n"
		      "v_lshlrev_b64 v[vgprValuC+2:vgprValuC+2+1], 0, v[vgprValuC+0:vgprValuC+0+1]\n"
		      "s_waitcnt lgkmcnt(0)\n"
		      "// t\n");
	/* per item, as GlobalWriteBatch does */
	kw_replace_holder(inner->u.mod.items[0], 5);
	kw_replace_holder(inner->u.mod.items[1], 6);
	kw_buf_reset(&f.out);
	expect_render(&f, inner,
		      "v_mov_b32 v[vgprValuC+5], v[vgprValuC+16]          // r\n"
		      "v_mov_b32 v[vgprValuC+6+1], v[vgprValuC+17]        // i\n");
	/* a bare instruction and NULL */
	solo = mov(&f.arena, hv(), kw_reg_index(KW_RT_V, 3, 1), "");
	kw_replace_holder(solo, 12);
	expect_render(&f, solo, "v_mov_b32 v[vgprValuC+12], v3\n");
	kw_replace_holder(NULL, 1);
	/* a module with an empty slot: the others are still replaced */
	{
		kw_item *m = kw_module(&f.arena, "slots");
		kw_module_set_size(&f.arena, m, 2);
		kw_module_set(m, 1, mov(&f.arena, hv(), vn(1), ""));
		kw_replace_holder(m, 4);
		expect_render(&f, m->u.mod.items[1], "v_mov_b32 v[vgprValuC+4], v[vgprValuC+1]\n");
	}
	fx_free(&f);
}

static void test_replace_holder_sources(void **state)
{
	fx f;
	kw_item *it;

	(void)state;
	fx_init(&f, "gfx942");
	/* holders among the sources are replaced too (write direction) */
	{
		kw_operand o = kw_opr(hv());
		it = kw_inst(&f.arena, KW_OP_V_ACCVGPR_WRITE_B32, kw_reg_index(KW_RT_ACC, 4, 1), 1, &o, "copy vreg[1] to acc");
	}
	kw_replace_holder(it, 1);
	expect_render(&f, it, "v_accvgpr_write_b32 acc4, v[vgprValuC+1]           // copy vreg[1] to acc\n");
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_module),
		cmocka_unit_test(test_concatenation),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_many_items_grow),
		cmocka_unit_test(test_add_comment),
		cmocka_unit_test(test_empty_slot_unsupported),
		cmocka_unit_test(test_replace_holder_recursive),
		cmocka_unit_test(test_replace_holder_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
