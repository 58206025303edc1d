/*
 * A race reached only through a join whose path facts are all dropped, on
 * a path that needs the value an s_atomic_dec returned: the message never
 * says "on the paths where ;" (an empty fact list before the atomic's
 * hint); it names the facts or leaves the clause out, and keeps the hint.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

static const char text[] =
	"k:\n"
	"\ts_load_dword s50, s[0:1], 0x58\n"
	"\ts_waitcnt lgkmcnt(0)\n"
	"\ts_sub_u32 s51, s50, 1\n"
	"\ts_atomic_dec s51, s[24:25], 0x0 glc\n"
	"\ts_waitcnt lgkmcnt(0)\n"
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
	"\ts_cmp_eq_u32 s51, 1\n"
	"\ts_cbranch_scc0 .Lwait\n"
	"\ts_cmp_eq_u32 s60, 1\n"
	"\ts_cbranch_scc1 .Lread\n"
	".Lwait:\n"
	"\ts_waitcnt vmcnt(0)\n"
	".Lread:\n"
	"\tv_mov_b32 v3, v1\n" /* line 15 */
	"\ts_endpgm\n";

static void test_no_empty_path_clause(void **state)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	const kw_verify_finding *f;

	(void)state;
	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 15), 1);
	f = first(r, KW_VF_RACE_RAW);
	assert_non_null(strstr(f->message, "s_atomic_dec at line 5 returned"));
	assert_null(strstr(f->message, "where ;"));
	assert_null(strstr(f->message, "where  "));
	kw_verify_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_empty_path_clause),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
