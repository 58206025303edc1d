/*
 * verify_helpers.h - what the verifier's unit tests (test_verify*.c) ask of
 * a result: verify a text, count findings at a line, the race-class total,
 * the first finding of a code.  Include after cmocka.h.
 */
#ifndef KWGEN_TEST_VERIFY_HELPERS_H
#define KWGEN_TEST_VERIFY_HELPERS_H

#include <stdint.h>
#include <string.h>

#include "kwgen/verify.h"

/* kw_verify_text with options o; a failure fails the test.  The caller
 * frees the result. */
static inline kw_verify_result *run_opts(const char *text, const kw_verify_opts *o)
{
	kw_verify_result *r = NULL;
	kw_error err = KW_ERROR_INIT;
	int rc = kw_verify_text(&r, text, strlen(text), o, &err);

	if (rc)
		fail_msg("kw_verify_text failed: %s", err.message);
	assert_non_null(r);
	return r;
}

/* findings of code at line */
static inline int at(const kw_verify_result *r, int code, int64_t line)
{
	int n = 0;

	for (size_t i = 0; i < kw_verify_result_count(r); i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		if (f->code == code && f->line == line)
			n++;
	}
	return n;
}

/* race-class findings: race_raw, race_waw, lds_barrier, lds_dma */
static inline uint64_t races(const kw_verify_result *r)
{
	return kw_verify_result_total(r, KW_VF_RACE_RAW) + kw_verify_result_total(r, KW_VF_RACE_WAW) +
	       kw_verify_result_total(r, KW_VF_LDS_BARRIER) + kw_verify_result_total(r, KW_VF_LDS_DMA);
}

/* the first finding of code listed, or NULL */
static inline const kw_verify_finding *first(const kw_verify_result *r, int code)
{
	for (size_t i = 0; i < kw_verify_result_count(r); i++)
		if (kw_verify_result_at(r, i)->code == code)
			return kw_verify_result_at(r, i);
	return NULL;
}

#endif
