/*
 * test_verify_stream.c - kw_verify_stream (kwgen/verify.h): a text verified
 * as it arrives, in pieces of any size, gives kw_verify_text's findings;
 * lines cut at a piece's or a chunk's end, a line longer than a chunk; its
 * bound (the chunks count), a NUL byte, a .macro and a missing ISA
 * refused; findings of a text decoded from data words name the source
 * lines (kw_verify_opts.source_lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/buf.h"
#include "kwgen/verify.h"

/* objdump form, compact lines: v1 read while its load may be in flight
 * (race_raw at line 9, producer line 7) */
static const char RACE[] =
	"\n"
	"k.o:\tfile format elf64-amdgpu\n"
	"\n"
	"Disassembly of section .text:\n"
	"\n"
	"0000000000000000 <k>:\n"
	"\tglobal_load_dword v1, v[2:3], off // 000000000000: DC508000 017F0002\n"
	"\ts_nop 0 // 000000000008: BF800000\n"
	"\tv_add_u32_e32 v4, v1, v1 // 00000000000C: 68080301\n"
	"\ts_endpgm // 000000000010: BF810000\n"
	"\t.type k,@function\n";

static kw_verify_result *whole(const char *text, size_t len)
{
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = "gfx942";
	if (kw_verify_text(&r, text, len, &o, &err))
		fail_msg("kw_verify_text failed: %s", err.message);
	return r;
}

/* text fed in pieces of step bytes (0: through kw_verify_stream_space /
 * commit, 7 bytes at a time) */
static int streamed(const char *text, size_t len, size_t step, const kw_verify_opts *given, kw_verify_result **out,
		    kw_error *err)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_stream *s = NULL;
	int rc;

	if (given)
		o = *given;
	else
		o.isa = "gfx942";
	*out = NULL;
	rc = kw_verify_stream_new(&s, &o, err);
	for (size_t i = 0; !rc && i < len;) {
		size_t n = step ? step : 7;
		if (n > len - i)
			n = len - i;
		if (step) {
			rc = kw_verify_stream_feed(s, text + i, n, err);
		} else {
			char *p;
			size_t avail;
			rc = kw_verify_stream_space(s, 1, &p, &avail, err);
			if (!rc) {
				if (n > avail)
					n = avail;
				memcpy(p, text + i, n);
				rc = kw_verify_stream_commit(s, n, err);
			}
		}
		i += n;
	}
	if (!rc)
		rc = kw_verify_stream_finish(s, out, err);
	kw_verify_stream_free(s);
	return rc;
}

static void same_findings(const kw_verify_result *a, const kw_verify_result *b)
{
	assert_int_equal(kw_verify_result_count(a), kw_verify_result_count(b));
	for (size_t i = 0; i < kw_verify_result_count(a); i++) {
		const kw_verify_finding *x = kw_verify_result_at(a, i), *y = kw_verify_result_at(b, i);
		assert_int_equal(x->code, y->code);
		assert_int_equal(x->line, y->line);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->producer_line, y->producer_line);
		assert_string_equal(x->message, y->message);
		assert_string_equal(x->function, y->function);
	}
	assert_int_equal(kw_verify_result_stats(a)->instructions, kw_verify_result_stats(b)->instructions);
}

static void test_pieces_same_findings(void **state)
{
	(void)state;
	kw_verify_result *w = whole(RACE, strlen(RACE));
	assert_int_equal(kw_verify_result_total(w, KW_VF_RACE_RAW), 1);
	assert_int_equal(kw_verify_result_at(w, 0)->line, 9);
	assert_int_equal(kw_verify_result_at(w, 0)->producer_line, 7);
	size_t steps[] = { 0, 1, 2, 3, 5, 64, 4096 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		kw_verify_result *r;
		kw_error err = KW_ERROR_INIT;
		if (streamed(RACE, strlen(RACE), steps[i], NULL, &r, &err))
			fail_msg("step %zu: %s", steps[i], err.message);
		same_findings(w, r);
		assert_int_equal(kw_verify_result_stats(r)->bytes, strlen(RACE));
		kw_verify_result_free(r);
	}
	/* no newline at the end: the last line is read at finish */
	kw_verify_result *r;
	kw_error err = KW_ERROR_INIT;
	assert_int_equal(streamed(RACE, strlen(RACE) - 1, 3, NULL, &r, &err), 0);
	same_findings(w, r);
	kw_verify_result_free(r);
	kw_verify_result_free(w);
}

/* 3 MiB of comment on one line, and 40,000 instructions: lines across
 * 1 MiB chunks and a line longer than one */
static void test_chunks(void **state)
{
	(void)state;
	kw_buf b = KW_BUF_INIT;
	kw_buf_put(&b, RACE, strlen(RACE) - strlen("\ts_endpgm // 000000000010: BF810000\n\t.type k,@function\n"));
	kw_buf_puts(&b, "// ");
	for (int i = 0; i < (3 << 20) / 8; i++)
		kw_buf_puts(&b, "comment ");
	kw_buf_putc(&b, '\n');
	for (int i = 0; i < 40000; i++) {
		char line[96];
		snprintf(line, sizeof line, "\ts_nop 0 // %012X: BF800000\n", 0x10 + 4 * i);
		kw_buf_puts(&b, line);
	}
	kw_buf_puts(&b, "\tv_add_u32_e32 v5, v1, v1 // 000000027110: 680A0301\n\ts_endpgm // 000000027114: BF810000\n");
	assert_false(b.oom);
	kw_verify_result *w = whole(b.p, b.len);
	size_t steps[] = { 65536, 1000003 };
	for (size_t i = 0; i < 2; i++) {
		kw_verify_result *r;
		kw_error err = KW_ERROR_INIT;
		if (streamed(b.p, b.len, steps[i], NULL, &r, &err))
			fail_msg("step %zu: %s", steps[i], err.message);
		same_findings(w, r);
		assert_int_equal(kw_verify_result_stats(r)->instructions, 40005);
		kw_verify_result_free(r);
	}
	kw_verify_result_free(w);
	kw_buf_free(&b);
}

static void test_refused(void **state)
{
	(void)state;
	kw_verify_result *r;
	kw_error err = KW_ERROR_INIT;
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_stream *s = NULL;
	int rc;

	/* no ISA */
	assert_int_equal(kw_verify_stream_new(&s, &o, &err), KW_EINVAL);
	assert_null(s);
	assert_string_equal(err.field, "isa");
	/* a NUL byte; every later call says it again */
	o.isa = "gfx942";
	kw_error_clear(&err);
	assert_int_equal(kw_verify_stream_new(&s, &o, &err), 0);
	assert_int_equal(kw_verify_stream_feed(s, "k:\n\ts_nop 0\0\n", 13, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, "NUL"));
	kw_error_clear(&err);
	assert_int_equal(kw_verify_stream_finish(s, &r, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, "NUL"));
	assert_null(r);
	kw_verify_stream_free(s);
	/* a .macro */
	kw_error_clear(&err);
	static const char mac[] = "k:\n.macro m\n\ts_nop 0\n.endm\n\tm\n\ts_endpgm\n";
	assert_int_equal(streamed(mac, strlen(mac), 4, &o, &r, &err), KW_EINVAL);
	assert_non_null(strstr(err.message, ".macro"));
	/* the bound: 2 MiB given, 4 MiB of text; the chunks count */
	kw_buf b = KW_BUF_INIT;
	kw_buf_puts(&b, "k:\n");
	while (b.len < (4u << 20))
		kw_buf_puts(&b, "\ts_nop 0\n");
	kw_buf_puts(&b, "\ts_endpgm\n");
	o.max_memory = 2u << 20;
	kw_error_clear(&err);
	rc = streamed(b.p, b.len, 65536, &o, &r, &err);
	if (rc != KW_ELIMIT)
		fail_msg("%d: %s", rc, err.message);
	assert_string_equal(err.field, "max_memory");
	assert_non_null(strstr(err.message, "memory bound"));
	/* within a larger one it verifies */
	o.max_memory = 64u << 20;
	kw_error_clear(&err);
	assert_int_equal(streamed(b.p, b.len, 65536, &o, &r, &err), 0);
	kw_verify_result_free(r);
	kw_buf_free(&b);
}

/* decoded from data words: the findings name the source lines */
static void test_source_lines(void **state)
{
	(void)state;
	/* the words of RACE at offsets 0, 8, 12, 16 came from lines 20, 21, 30, 31 */
	static const kw_verify_word_line map[] = { { 0, 20, 0 }, { 8, 21, 0 }, { 12, 30, 0 }, { 16, 31, 0 } };
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	kw_error err = KW_ERROR_INIT;

	o.isa = "gfx942";
	o.source_lines = map;
	o.n_source_lines = 4;
	if (streamed(RACE, strlen(RACE), 16, &o, &r, &err))
		fail_msg("%s", err.message);
	assert_int_equal(kw_verify_result_count(r), 1);
	const kw_verify_finding *f = kw_verify_result_at(r, 0);
	assert_int_equal(f->line, 30);
	assert_int_equal(f->offset, 12);
	assert_int_equal(f->producer_line, 20);
	assert_non_null(strstr(f->message, "(line 20)"));
	assert_non_null(strstr(f->message, "before line 30"));
	assert_null(strstr(f->message, "line 7"));
	assert_null(strstr(f->message, "line 9"));
	kw_verify_result_free(r);
	/* a suppression by line names the source line too */
	o.suppressions = "race_raw line=30\n";
	kw_error_clear(&err);
	if (streamed(RACE, strlen(RACE), 16, &o, &r, &err))
		fail_msg("%s", err.message);
	assert_int_equal(kw_verify_result_count(r), 0);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	kw_verify_result_free(r);
}

/* decoded from data words: an inline allow on the source line of an
 * instruction's first word suppresses the codes it names there, as on a
 * text line; on another line (the producer's), or naming another code, it
 * does not */
static void test_source_lines_allow(void **state)
{
	(void)state;
	kw_verify_word_line map[] = { { 0, 20, 0 }, { 8, 21, 0 }, { 12, 30, 0 }, { 16, 31, 0 } };
	const struct {
		size_t entry;
		uint32_t allow;
		size_t kept;
	} cases[] = {
		{ 2, 1u << KW_VF_RACE_RAW, 0 }, /* the use's line: hidden */
		{ 2, 0xff, 0 },                 /* allow * */
		{ 2, 1u << KW_VF_RACE_WAW, 1 }, /* another code */
		{ 0, 1u << KW_VF_RACE_RAW, 1 }, /* the producer's line */
		{ 3, 1u << KW_VF_RACE_RAW, 1 }, /* the next line */
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		kw_verify_opts o = KW_VERIFY_OPTS_INIT;
		kw_verify_result *r;
		kw_error err = KW_ERROR_INIT;

		for (size_t k = 0; k < 4; k++)
			map[k].allow = k == cases[i].entry ? cases[i].allow : 0;
		o.isa = "gfx942";
		o.source_lines = map;
		o.n_source_lines = 4;
		if (streamed(RACE, strlen(RACE), 16, &o, &r, &err))
			fail_msg("%s", err.message);
		assert_int_equal(kw_verify_result_total(r, KW_VF_RACE_RAW), cases[i].kept);
		assert_int_equal(kw_verify_result_suppressed(r), 1 - cases[i].kept);
		if (cases[i].kept)
			assert_int_equal(kw_verify_result_at(r, 0)->line, 30);
		kw_verify_result_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pieces_same_findings),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_source_lines),
		cmocka_unit_test(test_source_lines_allow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
