/*
 * test_error.c - the error struct (kwgen/error.h): kw_error_set fills code,
 * field and message and returns the code; truncation; NULL err; field
 * joining; code names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "kwgen/error.h"

static void test_set_and_clear(void **state)
{
	kw_error e = KW_ERROR_INIT;

	(void)state;
	assert_int_equal(kw_error_set(&e, KW_EINVAL, "kernel.MIWaveTile", "%s must be %d integers", "MIWaveTile", 2),
			 KW_EINVAL);
	assert_int_equal(e.code, KW_EINVAL);
	assert_string_equal(e.field, "kernel.MIWaveTile");
	assert_string_equal(e.message, "MIWaveTile must be 2 integers");
	assert_int_equal(kw_error_set(&e, KW_ENOMEM, NULL, "out of memory"), KW_ENOMEM);
	assert_string_equal(e.field, "");
	kw_error_clear(&e);
	assert_int_equal(e.code, 0);
	assert_string_equal(e.message, "");
	/* a NULL err only returns the code */
	assert_int_equal(kw_error_set(NULL, KW_ELIMIT, "f", "m"), KW_ELIMIT);
	kw_error_clear(NULL);
}

static void test_truncation(void **state)
{
	kw_error e = KW_ERROR_INIT;
	char big[2000];

	(void)state;
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kw_error_set(&e, KW_EINVAL, big, "%s", big);
	assert_int_equal(strlen(e.message), KW_ERROR_MESSAGE_MAX - 1);
	assert_int_equal(strlen(e.field), KW_ERROR_FIELD_MAX - 1);
}

static void test_field_join(void **state)
{
	char f[KW_ERROR_FIELD_MAX], big[300];

	(void)state;
	assert_string_equal(kw_field_join(f, "kernel", ".", "MIWaveTile"), "kernel.MIWaveTile");
	assert_string_equal(kw_field_join(f, "", "", "strict"), "strict");
	assert_string_equal(kw_field_join(f, "tPA", NULL, NULL), "tPA");
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(strlen(kw_field_join(f, big, ".", big)), KW_ERROR_FIELD_MAX - 1);
}

static void test_code_names(void **state)
{
	(void)state;
	assert_string_equal(kw_error_code_name(KW_OK), "ok");
	assert_string_equal(kw_error_code_name(KW_EINVAL), "invalid");
	assert_string_equal(kw_error_code_name(KW_EUNSUPPORTED), "unsupported");
	assert_string_equal(kw_error_code_name(KW_ESTRICT), "strict");
	assert_string_equal(kw_error_code_name(KW_ELIMIT), "limit");
	assert_string_equal(kw_error_code_name(KW_ESYNTAX), "syntax");
	assert_string_equal(kw_error_code_name(KW_ENOTFOUND), "not_found");
	assert_string_equal(kw_error_code_name(KW_EINTERNAL), "internal");
	assert_string_equal(kw_error_code_name(-1000), "internal");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_and_clear),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_field_join),
		cmocka_unit_test(test_code_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
