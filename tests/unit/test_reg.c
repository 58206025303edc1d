/*
 * test_reg.c - register operands: named / index / holder forms, getMinus,
 * replaceHolder and the gfx1250 bank suffix (kwgen/reg.h, rendering.md
 * §5.1, §5.2, §10).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/reg.h"

#define V KW_RT_V
#define S KW_RT_S
#define ACC KW_RT_ACC

static void expect_msb(kw_reg r, int64_t msb, const char *want)
{
	kw_buf b = KW_BUF_INIT;

	assert_int_equal(kw_reg_render(&b, &r, msb), 0);
	assert_non_null(b.p);
	assert_string_equal(b.p, want);
	kw_buf_free(&b);
}

static void expect(kw_reg r, const char *want)
{
	expect_msb(r, 0, want);
}

/* vgpr(Holder(idx=k), n) */
static kw_reg holder_index(kw_regtype t, int64_t k, int n)
{
	kw_reg r = kw_reg_index(t, k, n);

	r.form = KW_REG_HOLDER_INDEX;
	r.hold_idx = k;
	return r;
}

static void test_named(void **state)
{
	(void)state;
	expect(kw_reg_named(V, "ValuC", 1, 3, 1), "v[vgprValuC+3]");
	expect(kw_reg_named(V, "ValuC", 1, 3, 2), "v[vgprValuC+3:vgprValuC+3+1]");
	expect(kw_reg_named(S, "Alpha", 0, 0, 1), "s[sgprAlpha]");
	expect(kw_reg_named(S, "Alpha", 1, 0, 1), "s[sgprAlpha+0]");
	expect(kw_reg_named(S, "Alpha", 0, 0, 2), "s[sgprAlpha:sgprAlpha+1]");
	expect(kw_reg_named(S, "Alpha", 1, 2, 2), "s[sgprAlpha+2:sgprAlpha+2+1]");
	expect(kw_reg_named(ACC, "Acc", 1, 1, 1), "acc[accgprAcc+1]");
	/* a negative offset is written +<decimal> */
	expect(kw_reg_named(V, "ValuC", 1, -1, 1), "v[vgprValuC+-1]");
}

static void test_index(void **state)
{
	(void)state;
	expect(kw_reg_index(ACC, 5, 1), "acc5");
	expect(kw_reg_index(V, 40, 1), "v40");
	expect(kw_reg_index(V, 40, 2), "v[40:41]");
	expect(kw_reg_index(ACC, 7, 1), "acc7");
	expect(kw_reg_index(ACC, 3, 2), "acc[3:4]");
	expect(kw_reg_index(S, 1, 1), "s1");
	expect(kw_reg_index(V, 0, 1), "v0");
}

static void test_holder_name(void **state)
{
	(void)state;
	expect(kw_reg_holder(V, "ValuC", 0, 0, 1), "v[vgprValuC]");
	expect(kw_reg_holder(V, "ValuC", 1, 1, 1), "v[vgprValuC+1]");
	expect(kw_reg_holder(V, "ValuC", 0, 0, 2), "v[vgprValuC:vgprValuC+1]");
	expect(kw_reg_holder(V, "ValuC", 1, 2, 2), "v[vgprValuC+2:vgprValuC+2+1]");
}

static void test_holder_index(void **state)
{
	(void)state;
	expect(holder_index(V, 4, 1), "v4");
	expect(holder_index(V, 4, 2), "v[4:5]");
}

static void test_minus(void **state)
{
	kw_reg r = kw_reg_named(V, "ValuC", 1, 16, 1), m;

	(void)state;
	m = kw_reg_minus(r);
	expect(m, "-v[vgprValuC+16]");
	expect(r, "v[vgprValuC+16]"); /* the original is unchanged */
	expect(kw_reg_minus(kw_reg_named(V, "ValuC", 1, 16, 2)), "-v[vgprValuC+16:vgprValuC+16+1]");
	expect(kw_reg_minus(kw_reg_index(V, 40, 1)), "-v40");
	expect(kw_reg_minus(kw_reg_index(V, 40, 2)), "-v[40:41]");

	/* the copy of a holder is a plain register: replaceHolder leaves it alone */
	m = kw_reg_minus(kw_reg_holder(V, "ValuC", 1, 1, 1));
	assert_int_equal(m.form, KW_REG_NAMED);
	kw_reg_replace_holder(&m, 8);
	expect(m, "-v[vgprValuC+1]");
	m = kw_reg_minus(holder_index(V, 4, 1));
	assert_int_equal(m.form, KW_REG_INDEX);
	kw_reg_replace_holder(&m, 8);
	expect(m, "-v4");
}

static void test_replace_holder_name(void **state)
{
	kw_reg r;

	(void)state;
	r = kw_reg_holder(V, "ValuC", 0, 0, 1);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[vgprValuC+8]");
	r = kw_reg_holder(V, "ValuC", 1, 1, 1);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[vgprValuC+8+1]");
	r = kw_reg_holder(V, "ValuC", 0, 0, 2);
	kw_reg_replace_holder(&r, 6);
	expect(r, "v[vgprValuC+6:vgprValuC+6+1]");
	r = kw_reg_holder(V, "ValuC", 1, 2, 2);
	kw_reg_replace_holder(&r, 0);
	expect(r, "v[vgprValuC+0+2:vgprValuC+0+2+1]");
	r = kw_reg_holder(V, "ValuC", 0, 0, 1);
	kw_reg_replace_holder(&r, -3);
	expect(r, "v[vgprValuC+-3]");
}

static void test_replace_holder_index(void **state)
{
	kw_reg r;

	(void)state;
	r = holder_index(V, 4, 1);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v12");
	r = holder_index(V, 4, 2);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[12:13]");
}

static void test_replace_holder_rebases(void **state)
{
	kw_reg r;

	(void)state;
	/* calling it again re-bases from the holder's own offsets */
	r = kw_reg_holder(V, "ValuC", 1, 1, 1);
	kw_reg_replace_holder(&r, 8);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[vgprValuC+8+1]");
	kw_reg_replace_holder(&r, 2);
	expect(r, "v[vgprValuC+2+1]");
	r = kw_reg_holder(V, "ValuC", 0, 0, 2);
	kw_reg_replace_holder(&r, 6);
	kw_reg_replace_holder(&r, 10);
	expect(r, "v[vgprValuC+10:vgprValuC+10+1]");
	r = holder_index(V, 4, 1);
	kw_reg_replace_holder(&r, 8);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v12");
	kw_reg_replace_holder(&r, 0);
	expect(r, "v4");
}

static void test_replace_holder_plain_noop(void **state)
{
	kw_reg r;

	(void)state;
	r = kw_reg_named(V, "ValuC", 1, 3, 1);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[vgprValuC+3]");
	r = kw_reg_index(V, 40, 2);
	kw_reg_replace_holder(&r, 8);
	expect(r, "v[40:41]");
	r = kw_reg_index(ACC, 4, 1);
	kw_reg_replace_holder(&r, 8);
	expect(r, "acc4");
}

static void test_total(void **state)
{
	kw_reg r;

	(void)state;
	r = kw_reg_index(V, 300, 1);
	assert_int_equal(kw_reg_total(&r, 1000), 300);
	r = kw_reg_named(V, "ValuC", 1, 16, 1);
	assert_int_equal(kw_reg_total(&r, 0), 16);
	assert_int_equal(kw_reg_total(&r, 240), 256);
	r = kw_reg_named(V, "ValuC", 0, 0, 1);
	assert_int_equal(kw_reg_total(&r, 5), 5);
	r = kw_reg_holder(V, "ValuC", 1, 1, 1);
	kw_reg_replace_holder(&r, 8);
	assert_int_equal(kw_reg_total(&r, 240), 249);
	r = holder_index(V, 4, 1);
	kw_reg_replace_holder(&r, 8);
	assert_int_equal(kw_reg_total(&r, 99), 12);
}

static void test_msb_suffix(void **state)
{
	kw_reg r;

	(void)state;
	/* rendering.md §10 */
	expect_msb(kw_reg_named(V, "ValuC", 1, 16, 1), 1, "v[vgprValuC+16-256]");
	expect_msb(kw_reg_index(V, 300, 1), 1, "v[300-256]");
	expect_msb(kw_reg_index(V, 300, 2), 1, "v[300-256:301-256]");
	expect_msb(kw_reg_named(V, "ValuC", 1, 300, 2), 1, "v[vgprValuC+300-256:vgprValuC+300-256+1]");
	expect_msb(kw_reg_index(V, 300, 4), 1, "v[300-256:303-256]");
	expect_msb(kw_reg_index(V, 600, 1), 2, "v[600-512]");
	expect_msb(kw_reg_index(V, 800, 2), 3, "v[800-768:801-768]");
	r = kw_reg_holder(V, "ValuC", 0, 0, 1);
	kw_reg_replace_holder(&r, 16);
	expect_msb(r, 1, "v[vgprValuC+16-256]");
	expect_msb(kw_reg_minus(kw_reg_index(V, 300, 1)), 1, "-v[300-256]");
	/* msb 0: no suffix */
	expect_msb(kw_reg_index(V, 255, 1), 0, "v255");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_holder_name),
		cmocka_unit_test(test_holder_index),
		cmocka_unit_test(test_minus),
		cmocka_unit_test(test_replace_holder_name),
		cmocka_unit_test(test_replace_holder_index),
		cmocka_unit_test(test_replace_holder_rebases),
		cmocka_unit_test(test_replace_holder_plain_noop),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_msb_suffix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
