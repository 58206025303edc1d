/*
 * test_verify_assume.c - the atomic-counter assumption recorded in the
 * answer (kw_verify_result_assumption, JSON "assumptions", the totals line)
 * from each of its three sources (kw_verify_opts, a suppression-file line
 * `assume atomic-counters`, an inline `kwgen-verify: assume
 * atomic-counters` comment), with the findings it ruled out counted; and
 * malformed `kwgen-verify` comments refused naming the line and the codes,
 * each next to its well-formed twin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kwgen/verify.h"
#include "verify_helpers.h"

/* Tensile's GSU synchronizer: only the workgroup whose s_atomic_dec
 * returns 1 reduces; with GSU == 1 (s50 == 1) it skips the wait.  Both at
 * once need GSU - 1 >= 1 and GSU == 1: ruled out by the protocol only. */
#define GSU_BODY                                      \
	"\ts_load_dword s50, s[0:1], 0x58\n"          \
	"\ts_waitcnt lgkmcnt(0)\n"                    \
	"\ts_sub_u32 s51, s50, 1\n"                   \
	"\ts_atomic_dec s51, s[24:25], 0x0 glc\n"     \
	"\ts_waitcnt lgkmcnt(0)\n"                    \
	"\ts_cmp_eq_u32 s51, 1\n"                     \
	"\ts_cbranch_scc0 .Ldone\n"                   \
	"\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n" \
	"\ts_cmp_eq_u32 s50, 1\n"                     \
	"\ts_cbranch_scc1 .Lread\n"                   \
	"\ts_waitcnt vmcnt(0)\n"                      \
	".Lread:\n"                                   \
	"\tv_mov_b32 v3, v1\n" /* line 14 */          \
	".Ldone:\n"                                   \
	"\ts_endpgm\n"

static const char gsu[] = "k:\n" GSU_BODY;

static kw_verify_result *run_with(const char *text, int assume, const char *supp)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;

	o.isa = "gfx942";
	o.assume_atomic_counters = assume;
	o.suppressions = supp;
	return run_opts(text, &o);
}

/* The JSON "assumptions" member of r. */
static json_t *assumptions(const kw_verify_result *r)
{
	kw_buf b = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;
	json_t *root, *a;

	assert_int_equal(kw_verify_result_json(&b, r, &err), 0);
	root = json_loadb(b.p, b.len, 0, NULL);
	kw_buf_free(&b);
	assert_non_null(root);
	a = json_object_get(json_object_get(root, "assumptions"), "atomic_counters");
	assert_non_null(a);
	json_incref(a);
	json_decref(root);
	return a;
}

/* The last line of the text output. */
static void totals_line(const kw_verify_result *r, char *out, size_t cap)
{
	kw_buf b = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;
	const char *last;

	assert_int_equal(kw_verify_result_text(&b, r, &err), 0);
	assert_true(b.len > 0 && b.p[b.len - 1] == '\n');
	b.p[b.len - 1] = 0;
	last = strrchr(b.p, '\n');
	snprintf(out, cap, "%s", last ? last + 1 : b.p);
	kw_buf_free(&b);
}

/* Without the assumption: the race, recorded as not assumed, nothing said
 * on the totals line. */
static void test_not_assumed(void **state)
{
	kw_verify_result *r = run_with(gsu, 0, NULL);
	uint64_t line = 99;
	int64_t out = 99;
	json_t *a;
	char t[512];

	(void)state;
	assert_int_equal(races(r), 1);
	assert_int_equal(kw_verify_result_assumption(r, &line, &out), KW_VERIFY_FROM_NONE);
	assert_int_equal(line, 0);
	assert_int_equal(out, 0);
	a = assumptions(r);
	assert_true(json_is_false(json_object_get(a, "assumed")));
	assert_true(json_is_null(json_object_get(a, "from")));
	assert_true(json_is_null(json_object_get(a, "line")));
	assert_int_equal(json_integer_value(json_object_get(a, "ruled_out")), 0);
	json_decref(a);
	totals_line(r, t, sizeof(t));
	assert_null(strstr(t, "assuming"));
	kw_verify_result_free(r);
}

/* Each source: the same findings (none), its own "from" and line, one
 * finding ruled out, said on the totals line. */
static void test_sources(void **state)
{
	static const struct {
		const char *text, *supp;
		int opt, from;
		uint64_t line;
		const char *said;
	} c[] = {
		{ gsu, NULL, 1, KW_VERIFY_FROM_OPTION, 0, "(--assume-atomic-counters): 1 finding ruled out" },
		{ gsu, "# GSU kernels\nassume atomic-counters\n", 0, KW_VERIFY_FROM_SUPPRESSIONS, 2,
		  "(`assume atomic-counters` at suppression line 2): 1 finding ruled out" },
		{ "k:   // kwgen-verify: assume atomic-counters\n" GSU_BODY, NULL, 0, KW_VERIFY_FROM_INLINE, 1,
		  "(kwgen-verify: assume atomic-counters at line 1): 1 finding ruled out" },
		{ "k:\n" GSU_BODY "; kwgen-verify: assume atomic-counters (GSU synchronizer)\n", NULL, 0,
		  KW_VERIFY_FROM_INLINE, 17, "at line 17): 1 finding ruled out" },
		/* the option and the comment: the option is named */
		{ "k:   // kwgen-verify: assume atomic-counters\n" GSU_BODY, NULL, 1, KW_VERIFY_FROM_OPTION, 0,
		  "(--assume-atomic-counters): 1 finding" },
	};
	static const char *const names[] = { NULL, "option", "suppressions", "inline" };

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		kw_verify_result *r = run_with(c[i].text, c[i].opt, c[i].supp);
		uint64_t line = 0;
		int64_t out = 0;
		json_t *a;
		char t[512];

		if (races(r) != 0)
			fail_msg("case %zu: %llu race(s) under the assumption", i, (unsigned long long)races(r));
		assert_int_equal(kw_verify_result_assumption(r, &line, &out), c[i].from);
		assert_int_equal(line, c[i].line);
		assert_int_equal(out, 1);
		a = assumptions(r);
		assert_true(json_is_true(json_object_get(a, "assumed")));
		assert_string_equal(json_string_value(json_object_get(a, "from")), names[c[i].from]);
		if (c[i].line)
			assert_int_equal(json_integer_value(json_object_get(a, "line")), c[i].line);
		else
			assert_true(json_is_null(json_object_get(a, "line")));
		assert_int_equal(json_integer_value(json_object_get(a, "ruled_out")), 1);
		json_decref(a);
		totals_line(r, t, sizeof(t));
		if (!strstr(t, "assuming Tensile's atomic-counter protocol") || !strstr(t, c[i].said))
			fail_msg("case %zu: totals line %s", i, t);
		kw_verify_result_free(r);
	}
}

/* Assumed where it decides nothing: recorded, 0 ruled out (no counter
 * atomic: the analysis is not run again); a race it does not rule out
 * stays. */
static void test_nothing_ruled_out(void **state)
{
	static const char plain[] = "k:\n\tglobal_load_dword v1, v[2:3], off\n\tv_mov_b32 v4, v1\n\ts_endpgm\n";
	kw_verify_result *r = run_with(plain, 1, NULL);
	int64_t out = -5;
	char t[512];

	(void)state;
	assert_int_equal(races(r), 1);
	assert_int_equal(kw_verify_result_assumption(r, NULL, &out), KW_VERIFY_FROM_OPTION);
	assert_int_equal(out, 0);
	totals_line(r, t, sizeof(t));
	assert_non_null(strstr(t, "(--assume-atomic-counters): 0 findings ruled out"));
	kw_verify_result_free(r);
}

/* The analysis without the assumption passes max_work where the one with
 * it does not (the pruned edge leads to 400 more instructions): the
 * verification stands, its ruled-out count is not known (-1, JSON null,
 * "not counted" on the totals line). */
static void test_count_past_bound(void **state)
{
	char text[16384];
	size_t k = 0;
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r;
	uint64_t w_with, w_without;
	int64_t out = 0;
	json_t *a;
	char t[512];

	(void)state;
	k += (size_t)snprintf(text + k, sizeof(text) - k,
			      "k:\n\ts_load_dword s50, s[0:1], 0x58\n\ts_waitcnt lgkmcnt(0)\n\ts_sub_u32 s51, s50, 1\n"
			      "\ts_atomic_dec s51, s[24:25], 0x0 glc\n\ts_waitcnt lgkmcnt(0)\n\ts_cmp_eq_u32 s51, 1\n"
			      "\ts_cbranch_scc0 .Ldone\n\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
			      "\ts_cmp_eq_u32 s50, 1\n\ts_cbranch_scc1 .Lread\n\ts_waitcnt vmcnt(0)\n"
			      "\ts_branch .Ldone\n.Lread:\n");
	for (int i = 0; i < 400; i++)
		k += (size_t)snprintf(text + k, sizeof(text) - k, "\tv_add_u32 v%d, v%d, v%d\n", 10 + i % 50,
				      10 + i % 50, 11 + i % 50);
	snprintf(text + k, sizeof(text) - k, "\tv_mov_b32 v3, v1\n.Ldone:\n\ts_endpgm\n");
	o.isa = "gfx942";
	o.max_work = 1u << 30;
	o.assume_atomic_counters = 1;
	r = run_opts(text, &o);
	w_with = kw_verify_result_stats(r)->work;
	assert_int_equal(kw_verify_result_assumption(r, NULL, &out), KW_VERIFY_FROM_OPTION);
	assert_int_equal(out, 1);
	kw_verify_result_free(r);
	o.assume_atomic_counters = 0;
	r = run_opts(text, &o);
	w_without = kw_verify_result_stats(r)->work;
	kw_verify_result_free(r);
	if (w_without < w_with + 200)
		fail_msg("the pruned edge saves too little work: %llu against %llu", (unsigned long long)w_with,
			 (unsigned long long)w_without);
	o.assume_atomic_counters = 1;
	o.max_work = w_with + (w_without - w_with) / 2;
	r = run_opts(text, &o);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_assumption(r, NULL, &out), KW_VERIFY_FROM_OPTION);
	assert_int_equal(out, -1);
	a = assumptions(r);
	assert_true(json_is_null(json_object_get(a, "ruled_out")));
	json_decref(a);
	totals_line(r, t, sizeof(t));
	if (!strstr(t, "(--assume-atomic-counters): findings ruled out not counted"))
		fail_msg("totals line: %s", t);
	kw_verify_result_free(r);
}

/* The inline form reaches a streamed verification (decoded .long words)
 * through kw_verify_opts.assume_line. */
static void test_stream_line(void **state)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_stream *st = NULL;
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	uint64_t line = 0;

	(void)state;
	o.isa = "gfx942";
	o.assume_line = 7;
	assert_int_equal(kw_verify_stream_new(&st, &o, &err), 0);
	assert_int_equal(kw_verify_stream_feed(st, gsu, strlen(gsu), &err), 0);
	if (kw_verify_stream_finish(st, &r, &err))
		fail_msg("kw_verify_stream_finish: %s", err.message);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_assumption(r, &line, NULL), KW_VERIFY_FROM_INLINE);
	assert_int_equal(line, 7);
	kw_verify_result_free(r);
	kw_verify_stream_free(st);
}

/* A text that must be refused: KW_EINVAL, field, and each of want in the
 * message. */
static void refused(const char *text, const char *supp, const char *field, const char *const *want)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	int rc;

	o.isa = "gfx942";
	o.suppressions = supp;
	rc = kw_verify_text(&r, text, strlen(text), &o, &err);
	if (rc != KW_EINVAL || r)
		fail_msg("not refused (rc %d): %.200s", rc, text);
	assert_string_equal(err.field, field);
	for (; *want; want++)
		if (!strstr(err.message, *want))
			fail_msg("message lacks \"%s\": %s", *want, err.message);
}

#define USE_LINE(COMMENT) "k:\n\tglobal_load_dword v1, v[2:3], off\n\tv_mov_b32 v4, v1" COMMENT "\n\ts_endpgm\n"

/* A misspelled code (or none, or no colon, or another word) in an inline
 * allow is refused naming the line and the codes; the correct twin hides
 * the race. */
static void test_inline_malformed(void **state)
{
	static const char *const unknown[] = { "line 3", "race_rwa", "unknown code", "race_raw, race_waw",
					       "lds_latency", NULL };
	static const char *const none[] = { "line 3", "no code to allow", NULL };
	static const char *const colon[] = { "line 3", "no colon", NULL };
	static const char *const verb[] = { "line 3", "kwgen-verify: allow CODE", NULL };
	static const char *const assume[] = { "line 1", "atomic-counter", "assume atomic-counters", NULL };
	kw_verify_result *r;

	(void)state;
	refused(USE_LINE(" // kwgen-verify: allow race_rwa"), NULL, "allow", unknown);
	refused(USE_LINE(" // kwgen-verify: allow race_raw, race_rwa"), NULL, "allow", unknown);
	refused(USE_LINE(" ; kwgen-verify: allow"), NULL, "allow", none);
	refused(USE_LINE(" // kwgen-verify allow race_raw"), NULL, "allow", colon);
	refused(USE_LINE(" /* kwgen-verify: alow race_raw */"), NULL, "allow", verb);
	refused("k: // kwgen-verify: assume atomic-counter\n\ts_endpgm\n", NULL, "allow", assume);
	/* the twins */
	r = run_with(USE_LINE(" // kwgen-verify: allow race_raw"), 0, NULL);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	kw_verify_result_free(r);
	r = run_with(USE_LINE(" // kwgen-verify: allow lds_latency, race_raw -- read early on purpose"), 0, NULL);
	assert_int_equal(races(r), 0);
	kw_verify_result_free(r);
	r = run_with(USE_LINE(" // kwgen-verify: allow *"), 0, NULL);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	kw_verify_result_free(r);
	/* a comment that only names the tool is no rule */
	r = run_with(USE_LINE(" // checked by kwgen-verify"), 0, NULL);
	assert_int_equal(races(r), 1);
	kw_verify_result_free(r);
}

/* Several codes are separated by commas only: another separator (`/`,
 * `|`, `+`, a blank alone), a trailing comma or other text after the codes
 * is refused naming the line and the codes, not read as the first code
 * alone; a note starting `--` or `(` after them is accepted, and each
 * comma-separated code counts (race_raw second hides the race). */
static void test_inline_separators(void **state)
{
	static const char *const sep[] = { "line 3", "codes are separated by commas", "race_raw, race_waw",
					   "lds_latency", NULL };
	static const char *const comma[] = { "line 3", "a comma with no code after it", NULL };
	static const char *const bad[] = {
		" // kwgen-verify: allow race_waw/race_raw",
		" // kwgen-verify: allow race_waw|race_raw",
		" // kwgen-verify: allow race_waw+race_raw",
		" // kwgen-verify: allow race_waw race_raw",
		" ; kwgen-verify: allow race_raw because LDS is slow",
		" /* kwgen-verify: allow race_raw; reviewed */",
	};
	static const char *const good[] = {
		" // kwgen-verify: allow race_waw,race_raw",
		" // kwgen-verify: allow race_waw , race_raw",
		" // kwgen-verify: allow race_waw,\trace_raw (reviewed)",
		" // kwgen-verify: allow race_waw, race_raw -- because LDS is slow",
		" /* kwgen-verify: allow race_waw, race_raw (reviewed) */",
	};
	char text[256];
	kw_verify_result *r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), USE_LINE("%s"), bad[i]);
		refused(text, NULL, "allow", sep);
	}
	refused(USE_LINE(" // kwgen-verify: allow race_raw,"), NULL, "allow", comma);
	refused(USE_LINE(" // kwgen-verify: allow race_raw, -- note"), NULL, "allow", comma);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), USE_LINE("%s"), good[i]);
		r = run_with(text, 0, NULL);
		if (!r || races(r) != 0 || kw_verify_result_suppressed(r) != 1)
			fail_msg("not hidden: %s", good[i]);
		kw_verify_result_free(r);
	}
}

/* The suppression file: a misspelled code or assumption is refused naming
 * its line; the twins work. */
static void test_suppression_malformed(void **state)
{
	static const char *const code[] = { "suppression line 2", "race_raw, race_waw", "assume atomic-counters",
					    NULL };
	kw_verify_result *r;

	(void)state;
	refused(gsu, "# rules\nrace_rwa function=k\n", "suppressions", code);
	refused(gsu, "# rules\nassume atomic-counter\n", "suppressions", code);
	refused(gsu, "# rules\nassume atomic-counters please\n", "suppressions", code);
	r = run_with(gsu, 0, "# rules\nrace_raw function=k\n");
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_suppressed(r), 1);
	assert_int_equal(kw_verify_result_assumption(r, NULL, NULL), KW_VERIFY_FROM_NONE);
	kw_verify_result_free(r);
}

/* Rules are the author's: a streamed text (a code object's decoded text,
 * whose comments hold ELF symbol names) has none, so a symbol named like
 * a rule neither hides a race nor refuses the text; nor do lines a false
 * .if skips. */
static void test_rules_not_read(void **state)
{
	static const char *const texts[] = {
		USE_LINE(" // 0000000000000004: 7E060301 <kwgen-verify: allow *+0x4>"),
		USE_LINE(" // <kwgen-verify: alow race_raw>"),
		"k:  // <kwgen-verify: assume atomic-counters>\n" GSU_BODY,
	};
	kw_verify_result *r;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		kw_verify_opts o = KW_VERIFY_OPTS_INIT;
		kw_verify_stream *st = NULL;
		kw_error err = KW_ERROR_INIT;

		o.isa = "gfx942";
		r = NULL;
		assert_int_equal(kw_verify_stream_new(&st, &o, &err), 0);
		assert_int_equal(kw_verify_stream_feed(st, texts[i], strlen(texts[i]), &err), 0);
		if (kw_verify_stream_finish(st, &r, &err))
			fail_msg("stream %zu: %s", i, err.message);
		assert_int_equal(races(r), 1);
		assert_int_equal(kw_verify_result_suppressed(r), 0);
		assert_int_equal(kw_verify_result_assumption(r, NULL, NULL), KW_VERIFY_FROM_NONE);
		kw_verify_result_free(r);
		kw_verify_stream_free(st);
	}
	/* a false .if: its lines' comments are not rules */
	r = run_with(".if 0\n// kwgen-verify: alow\n// kwgen-verify: assume atomic-counters\n.endif\n" "k:\n" GSU_BODY,
		     0, NULL);
	assert_int_equal(races(r), 1);
	assert_int_equal(kw_verify_result_assumption(r, NULL, NULL), KW_VERIFY_FROM_NONE);
	kw_verify_result_free(r);
	/* its true twin is read */
	r = run_with(".if 1\n// kwgen-verify: assume atomic-counters\n.endif\n" "k:\n" GSU_BODY, 0, NULL);
	assert_int_equal(races(r), 0);
	assert_int_equal(kw_verify_result_assumption(r, NULL, NULL), KW_VERIFY_FROM_INLINE);
	kw_verify_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_assumed),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_nothing_ruled_out),
		cmocka_unit_test(test_count_past_bound),
		cmocka_unit_test(test_stream_line),
		cmocka_unit_test(test_inline_malformed),
		cmocka_unit_test(test_inline_separators),
		cmocka_unit_test(test_suppression_malformed),
		cmocka_unit_test(test_rules_not_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
