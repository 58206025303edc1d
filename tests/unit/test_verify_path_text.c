/*
 * test_verify_path_text.c - the path a finding names ("on the paths where
 * ...", lib/verify/sfacts_describe.c): a fact that holds for every value
 * (`s12 in [0, 4294967295]`, left by a comparison of two unknown SGPRs) is
 * left out and its branch still named; an interval narrowed as signed only
 * is given as signed, not as the full unsigned range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

/* The path text of the only race_raw in text (from "; on the paths"). */
static void path_of(const char *text, char *out, size_t n)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	const kw_verify_finding *f;
	const char *p;

	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	f = first(r, KW_VF_RACE_RAW);
	p = strstr(f->message, "; on the paths where ");
	if (!p)
		fail_msg("no path in: %s", f->message);
	snprintf(out, n, "%s", p + 21);
	kw_verify_result_free(r);
}

#define K(CMP, BR, MORE)                                        \
	"k:\n"                                                  \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"         \
	"\t" CMP "\n"                                           \
	"\ts_cbranch_" BR " .Lw\n" /* 4 */                      \
	MORE                                                    \
	"\tv_mov_b32 v3, v1\n"                                  \
	".Lw:\n"                                                \
	"\ts_waitcnt vmcnt(0)\n"                                \
	"\ts_endpgm\n"

static void test_trivial_left_out(void **state)
{
	char p[512];

	(void)state;
	/* s12 == s13 of two unknown SGPRs narrows neither: only the branch */
	path_of(K("s_cmp_eq_u32 s12, s13", "scc0", ""), p, sizeof(p));
	assert_string_equal(p, "s_cbranch_scc0 at line 4 is not taken");
	assert_null(strstr(p, "4294967295"));
	/* the branch kept in the list next to one that says something */
	path_of(K("s_cmp_lg_u32 s12, s13", "scc1", "\ts_cmp_eq_u32 s15, 3\n\ts_cbranch_scc1 .Lw\n"), p, sizeof(p));
	assert_string_equal(p, "s_cbranch_scc1 at line 4 is not taken, s15 != 3 (s_cbranch_scc1 at line 6 not "
			       "taken)");
	/* a fact that says something stays, in the branch's parentheses */
	path_of(K("s_cmp_lt_u32 s12, s13", "scc0", ""), p, sizeof(p));
	assert_string_equal(p, "s12 in [0, 4294967294], s13 != 0 (s_cbranch_scc0 at line 4 not taken)");
}

/* -5 < s12 < 5, signed: every unsigned value is possible (0xfffffffc ..
 * 0xffffffff and 0 .. 4), so the signed interval is what it says. */
static void test_signed_interval(void **state)
{
	char p[512];

	(void)state;
	path_of(K("s_cmp_gt_i32 s12, -5", "scc0", "\ts_cmp_lt_i32 s12, 5\n\ts_cbranch_scc0 .Lw\n"), p, sizeof(p));
	assert_string_equal(p, "s12 in [-4, 4] (signed) (s_cbranch_scc0 at line 6 not taken)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trivial_left_out),
		cmocka_unit_test(test_signed_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
