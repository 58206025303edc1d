/*
 * A quoted symbol name as a label (`"k.1":`, `"my kernel":`), which
 * llvm-mc-22 assembles (LLVM quotes symbol names holding characters outside
 * [A-Za-z0-9_.$]), starts a function like a plain label: it is not read as
 * an instruction (no unknown_instruction) and the kernel's race is found
 * once, in one function.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

#define BODY(LABEL)                                             \
	LABEL ":\n"                                             \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"         \
	"\tv_mov_b32 v3, v1\n" /* line 3 */                     \
	"\ts_endpgm\n"

static void check(const char *text)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;

	o.isa = "gfx942";
	r = run_opts(text, &o);
	assert_int_equal(kw_verify_result_total(r, KW_VF_UNKNOWN_INSTRUCTION), 0);
	assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), 1);
	assert_int_equal(at(r, KW_VF_RACE_RAW, 3), 1);
	kw_verify_result_free(r);
}

static void test_quoted_label(void **state)
{
	(void)state;
	check(BODY("k"));            /* the plain label, as a control */
	check(BODY("\"k.1\""));
	check(BODY("\"my kernel\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoted_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
