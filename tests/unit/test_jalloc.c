/*
 * test_jalloc.c - server/jalloc.c, kwgend's jansson allocation hooks: a
 * block jansson frees comes back to the same thread's next allocation of
 * its size, a thread keeps at most 128 KiB of them, the blocks mix with
 * malloc/free both ways (json_dumps' text freed with free()), and a
 * thread's blocks are freed when it exits (the ASan run checks leaks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/jalloc.h"

static json_malloc_t jm;
static json_free_t jf;

static int setup(void **state)
{
	(void)state;
	kw_jalloc_install();
	json_get_alloc_funcs(&jm, &jf);
	return jm && jf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	kw_jalloc_thread_release();
	return 0;
}

static void test_block_reused(void **state)
{
	void *p, *q, *r;

	(void)state;
	assert_ptr_not_equal(jm, malloc); /* the hooks are in */
	p = jm(40);
	assert_non_null(p);
	memset(p, 0xab, 40);
	jf(p);
	q = jm(33); /* the same size class as 40 */
	assert_ptr_equal(q, p);
	memset(q, 0xcd, 33);
	r = jm(40);
	assert_ptr_not_equal(r, q);
	jf(q);
	jf(r);
	jf(NULL);
}

/* 2,000 blocks of 264 bytes freed: the first 496 (128 KiB) are kept and
 * come back last in, first out; the rest went back to malloc (had one
 * more been kept, it would come back first). */
static void test_kept_bytes_bounded(void **state)
{
	enum { N = 2000, K = (128 << 10) / 264 };
	void **blocks = malloc(N * sizeof(*blocks)), **again = malloc(N * sizeof(*again));

	(void)state;
	kw_jalloc_thread_release(); /* start empty */
	assert_non_null(blocks);
	assert_non_null(again);
	for (int i = 0; i < N; i++)
		assert_non_null(blocks[i] = jm(264));
	for (int i = 0; i < N; i++)
		jf(blocks[i]);
	for (int i = 0; i < N; i++)
		assert_non_null(again[i] = jm(260)); /* the same class */
	for (int i = 0; i < K; i++)
		assert_ptr_equal(again[i], blocks[K - 1 - i]);
	for (int i = 0; i < N; i++)
		jf(again[i]);
	free(blocks);
	free(again);
}

static void test_mixes_with_malloc(void **state)
{
	json_t *o = json_pack("{s:i,s:s,s:[i,i]}", "a", 1, "b", "text", "c", 2, 3);
	char *text, *m = malloc(40);
	void *p = jm(100);

	(void)state;
	assert_non_null(o);
	text = json_dumps(o, JSON_COMPACT);
	assert_string_equal(text, "{\"a\":1,\"b\":\"text\",\"c\":[2,3]}");
	free(text); /* as kwgen frees json_dumps' text */
	json_decref(o);
	assert_non_null(m);
	jf(m); /* malloc()'s block given to jansson's free */
	assert_non_null(p);
	free(p);
	p = jm(1 << 20); /* past the classes: malloc's */
	assert_non_null(p);
	jf(p);
}

static void *thread_work(void *arg)
{
	(void)arg;
	for (int round = 0; round < 10; round++) {
		json_t *a = json_array();

		for (int i = 0; i < 500; i++)
			json_array_append_new(a, json_integer(i));
		json_decref(a);
	}
	return NULL;
}

/* A thread's kept blocks are freed when it exits (LSan in asan-unit). */
static void test_thread_exit(void **state)
{
	pthread_t t[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thread_work, NULL), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_reused),
		cmocka_unit_test(test_kept_bytes_bounded),
		cmocka_unit_test(test_mixes_with_malloc),
		cmocka_unit_test(test_thread_exit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
