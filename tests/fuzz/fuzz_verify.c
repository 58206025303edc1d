/*
 * fuzz_verify.c - libFuzzer harness: AMDGPU assembly text -> kw_verify_text
 * (reader, per-ISA model, CFG, data-flow, findings) -> JSON and text output.
 *
 * Input: the first byte picks the ISA (byte % the number of ISAs below),
 * the rest is the assembly text, in either syntax (clang -S or
 * llvm-objdump -d; the reader detects which).  Work is bounded by small
 * max_instructions / max_work limits so that a slow input is a limit error,
 * never a libFuzzer timeout.
 *
 * Properties checked (abort() on violation, which libFuzzer reports):
 *   - kw_verify_text returns 0 with a result, or a negative KW_E* code with
 *     no result and a non-empty message;
 *   - every finding has a known code, a line within the text (1..lines+1)
 *     and a non-empty message;
 *   - the per-code totals are at least the findings kept of that code;
 *   - the JSON output parses (jansson) into an object whose "findings"
 *     array has exactly kw_verify_result_count members;
 *   - a second run over the same bytes gives the same findings (the
 *     verifier is a pure function of its input).
 *
 * Build and run: make fuzz (mk/fuzz.mk); seeds made at build time in
 * $(FUZZ_BUILD)/seeds-fuzz_verify/ by tests/fuzz/make_seeds_paths.py from
 * tests/verify/cases and tests/verify/llvm.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kwgen/buf.h"
#include "kwgen/error.h"
#include "kwgen/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const isas[] = { "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100",
				    "gfx1101", "gfx1201", "gfx1250", NULL /* from the text */ };
#define N_ISAS (sizeof(isas) / sizeof(isas[0]))

static int run(kw_verify_result **r, const char *text, size_t len, const char *isa, int assume)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_error err = KW_ERROR_INIT;

	o.isa = isa;
	o.max_instructions = 20000;
	o.max_work = 2000000;
	o.max_findings = 1000;
	o.filename = "fuzz.s";
	o.assume_atomic_counters = assume;
	int rc = kw_verify_text(r, text, len, &o, &err);
	if (rc == 0 && !*r)
		abort();
	if (rc != 0 && (rc > 0 || *r || !err.message[0]))
		abort();
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *isa = isas[data[0] % N_ISAS];
	/* the next bit of the first byte: assume_atomic_counters */
	int assume = (data[0] / N_ISAS) & 1;
	const char *text = (const char *)data + 1;
	size_t len = size - 1, lines = 1;
	kw_verify_result *r = NULL, *r2 = NULL;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (run(&r, text, len, isa, assume) != 0)
		return 0;

	size_t n = kw_verify_result_count(r);
	uint64_t kept[KW_VF_CODE_COUNT] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const kw_verify_finding *f = kw_verify_result_at(r, i);
		if (!f || f->code < 0 || f->code >= KW_VF_CODE_COUNT || !kw_verify_code_name(f->code))
			abort();
		if (f->line < 1 || (size_t)f->line > lines + 1 || !f->message || !f->message[0])
			abort();
		kept[f->code]++;
	}
	for (int c = 0; c < KW_VF_CODE_COUNT; c++)
		if (kw_verify_result_total(r, c) < kept[c])
			abort();

	kw_buf js = KW_BUF_INIT, tx = KW_BUF_INIT;
	kw_error err = KW_ERROR_INIT;
	if (kw_verify_result_json(&js, r, &err) != 0 || kw_verify_result_text(&tx, r, &err) != 0)
		abort();
	json_error_t jerr;
	json_t *root = json_loadb(js.p, js.len, 0, &jerr);
	json_t *fs = root ? json_object_get(root, "findings") : NULL;
	if (!json_is_array(fs) || json_array_size(fs) != n)
		abort();
	json_decref(root);

	if (run(&r2, text, len, isa, assume) != 0 || kw_verify_result_count(r2) != n)
		abort();
	for (size_t i = 0; i < n; i++) {
		const kw_verify_finding *a = kw_verify_result_at(r, i), *b = kw_verify_result_at(r2, i);
		if (a->code != b->code || a->line != b->line || strcmp(a->message, b->message) != 0)
			abort();
	}
	kw_buf_free(&js);
	kw_buf_free(&tx);
	kw_verify_result_free(r);
	kw_verify_result_free(r2);
	return 0;
}
