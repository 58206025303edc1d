/*
 * test_buf.c - kw_buf (growable NUL-terminated string) and kw_arena (bump
 * allocator) of kwgen/buf.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kwgen/buf.h"
#include "kwgen/error.h"

static void test_buf_empty(void **state)
{
	kw_buf b = KW_BUF_INIT;

	(void)state;
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	kw_buf_reset(&b); /* reset of an unallocated buffer is fine */
	assert_int_equal(b.len, 0);
	kw_buf_free(&b);
	assert_null(b.p);
}

static void test_buf_appends(void **state)
{
	kw_buf b = KW_BUF_INIT;

	(void)state;
	assert_int_equal(kw_buf_puts(&b, "s_waitcnt"), 0);
	assert_int_equal(kw_buf_putc(&b, ' '), 0);
	assert_int_equal(kw_buf_put(&b, "0123", 2), 0);
	assert_int_equal(kw_buf_spaces(&b, 3), 0);
	assert_int_equal(kw_buf_put_i64(&b, -42), 0);
	assert_string_equal(b.p, "s_waitcnt 01   -42");
	assert_int_equal(b.len, strlen("s_waitcnt 01   -42"));
	assert_int_equal(b.oom, 0);
	assert_true(b.cap > b.len);
	kw_buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.p, "");
	assert_int_equal(kw_buf_puts(&b, "x"), 0);
	assert_string_equal(b.p, "x");
	kw_buf_free(&b);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
}

static void test_buf_zero_length(void **state)
{
	kw_buf b = KW_BUF_INIT;

	(void)state;
	assert_int_equal(kw_buf_put(&b, "", 0), 0);
	assert_non_null(b.p);
	assert_string_equal(b.p, "");
	assert_int_equal(kw_buf_spaces(&b, 0), 0);
	assert_int_equal(b.len, 0);
	kw_buf_free(&b);
}

static void test_buf_grows_large(void **state)
{
	kw_buf b = KW_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		assert_int_equal(kw_buf_putc(&b, (char)('a' + i % 26)), 0);
	assert_int_equal(b.len, 100000);
	assert_int_equal(b.p[100000], '\0');
	for (i = 0; i < 100000; i++)
		if (b.p[i] != (char)('a' + i % 26))
			fail_msg("byte %zu", i);
	assert_int_equal(kw_buf_spaces(&b, 70000), 0);
	assert_int_equal(b.len, 170000);
	assert_int_equal(b.p[169999], ' ');
	kw_buf_free(&b);
}

static void test_buf_overflow_marks_oom(void **state)
{
	kw_buf b = KW_BUF_INIT;

	(void)state;
	assert_int_equal(kw_buf_puts(&b, "abc"), 0);
	assert_int_equal(kw_buf_grow(&b, SIZE_MAX - 8), KW_ENOMEM);
	assert_int_equal(b.oom, 1);
	/* further appends are no-ops that report failure */
	assert_int_equal(kw_buf_puts(&b, "def"), KW_ENOMEM);
	assert_int_equal(kw_buf_putc(&b, 'x'), KW_ENOMEM);
	assert_int_equal(b.len, 3);
	assert_string_equal(b.p, "abc");
	kw_buf_reset(&b);
	assert_int_equal(b.oom, 0);
	assert_int_equal(kw_buf_puts(&b, "ok"), 0);
	assert_string_equal(b.p, "ok");
	kw_buf_free(&b);
}

static void test_buf_detach(void **state)
{
	kw_buf b = KW_BUF_INIT;
	char *s;

	(void)state;
	kw_buf_puts(&b, "v_mov_b32 v1, v2\n");
	s = kw_buf_detach(&b);
	assert_string_equal(s, "v_mov_b32 v1, v2\n");
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	free(s);
	/* detaching an empty buffer gives "" (buf.h: "Hand the NUL-terminated
	 * text to the caller"); regression: kw_buf_grow(b, 0) on a NULL buffer
	 * used to leave the first byte unset */
	s = kw_buf_detach(&b);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	kw_buf_free(&b);
}

static void test_i64_to_str(void **state)
{
	char out[24];

	(void)state;
	assert_int_equal(kw_i64_to_str(out, 0), 1);
	assert_string_equal(out, "0");
	assert_int_equal(kw_i64_to_str(out, -1), 2);
	assert_string_equal(out, "-1");
	assert_int_equal(kw_i64_to_str(out, 256), 3);
	assert_string_equal(out, "256");
	assert_int_equal(kw_i64_to_str(out, INT64_MAX), 19);
	assert_string_equal(out, "9223372036854775807");
	assert_int_equal(kw_i64_to_str(out, INT64_MIN), 20);
	assert_string_equal(out, "-9223372036854775808");
}

static void test_put_i64_extremes(void **state)
{
	kw_buf b = KW_BUF_INIT;

	(void)state;
	kw_buf_put_i64(&b, INT64_MIN);
	kw_buf_putc(&b, ',');
	kw_buf_put_i64(&b, INT64_MAX);
	kw_buf_putc(&b, ',');
	kw_buf_put_i64(&b, -256);
	assert_string_equal(b.p, "-9223372036854775808,9223372036854775807,-256");
	kw_buf_free(&b);
}

static void test_arena_alloc_aligned(void **state)
{
	kw_arena a = KW_ARENA_INIT;
	void *p[64];

	(void)state;
	for (int i = 0; i < 64; i++) {
		p[i] = kw_arena_alloc(&a, (size_t)(i * 7 + 1));
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], i, (size_t)(i * 7 + 1));
	}
	for (int i = 0; i < 64; i++)
		assert_int_equal(((unsigned char *)p[i])[0], i);
	kw_arena_free(&a);
	assert_null(a.head);
}

static void test_arena_calloc_strdup(void **state)
{
	kw_arena a = KW_ARENA_INIT;
	unsigned char *z;
	char *s;

	(void)state;
	z = kw_arena_calloc(&a, 100);
	assert_non_null(z);
	for (int i = 0; i < 100; i++)
		assert_int_equal(z[i], 0);
	s = kw_arena_strdup(&a, "ValuC");
	assert_non_null(s);
	assert_string_equal(s, "ValuC");
	s = kw_arena_strdup(&a, "");
	assert_string_equal(s, "");
	kw_arena_free(&a);
}

static void test_arena_big_and_many(void **state)
{
	kw_arena a = KW_ARENA_INIT;
	unsigned char *big;

	(void)state;
	/* bigger than the first chunk and than the chunk cap */
	big = kw_arena_alloc(&a, (size_t)5 << 20);
	assert_non_null(big);
	memset(big, 0xab, (size_t)5 << 20);
	for (int i = 0; i < 10000; i++) {
		int64_t *v = kw_arena_alloc(&a, sizeof(int64_t) * 3);
		assert_non_null(v);
		v[0] = v[1] = v[2] = i;
	}
	assert_int_equal(big[((size_t)5 << 20) - 1], 0xab);
	kw_arena_free(&a);
}

static void test_arena_reset_reuses(void **state)
{
	kw_arena a = KW_ARENA_INIT;

	(void)state;
	for (int i = 0; i < 1000; i++)
		assert_non_null(kw_arena_alloc(&a, 1000));
	kw_arena_reset(&a);
	assert_non_null(a.head);
	assert_int_equal(a.used, 0);
	for (int i = 0; i < 100; i++) {
		char *p = kw_arena_alloc(&a, 64);
		assert_non_null(p);
		memset(p, 'x', 64);
	}
	kw_arena_reset(&a);
	kw_arena_free(&a);
	/* reset and free of an empty arena are no-ops */
	kw_arena_reset(&a);
	kw_arena_free(&a);
	assert_null(a.head);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_empty),
		cmocka_unit_test(test_buf_appends),
		cmocka_unit_test(test_buf_zero_length),
		cmocka_unit_test(test_buf_grows_large),
		cmocka_unit_test(test_buf_overflow_marks_oom),
		cmocka_unit_test(test_buf_detach),
		cmocka_unit_test(test_i64_to_str),
		cmocka_unit_test(test_put_i64_extremes),
		cmocka_unit_test(test_arena_alloc_aligned),
		cmocka_unit_test(test_arena_calloc_strdup),
		cmocka_unit_test(test_arena_big_and_many),
		cmocka_unit_test(test_arena_reset_reuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
