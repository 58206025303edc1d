/*
 * bench_gen - libkwgen's stages timed separately, single-threaded, on one
 * set of requests, with every output checked against the golden answers
 * before any timing counts.
 *
 *   build/bench/bench_gen REQUESTS.jsonl ANSWERS.jsonl [RUNS] [PASSES]
 *
 * Stages (the Python side, bench/bench_gen.py, times the same ones):
 *   parse     decoded JSON request -> kw_request (kw_request_parse: ISA and
 *             capability tables, kernel keys, defaults, argument checks)
 *   generate  kw_request -> rendered asm text, accumulator maps and values
 *             (kw_request_generate: the generator and the rendering of its
 *             instructions to text)
 * JSON decoding of the input and encoding of the answer are not timed (the
 * Python side leaves json.loads / json.dumps out too).
 *
 * Check: each request is parsed and generated once; its asm text, type and
 * value must equal the golden answer's (answers.jsonl line for line;
 * requests whose golden answer is an error must fail here too).  Any
 * mismatch: exit 1 before timing.
 *
 * Timing: RUNS (default 7) runs of PASSES (default 3) passes over the
 * requests that answer without error, in file order; each call's parse and
 * generate timed with CLOCK_MONOTONIC.  Prints one JSON object:
 *   {"requests", "checked", "runs": [{"parse_s", "generate_s", "calls",
 *    "per_generator": {"wait": {"calls", "generate_s"}, ...}}, ...]}
 * (bench_gen.py takes the median, min and max over the runs).
 */
#include "kwgen/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_GEN 16

typedef struct acc {
	const char *name;
	double seconds;
	long calls;
} acc;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int slot(const char **names, int *n, const char *g)
{
	int k;

	for (k = 0; k < *n && strcmp(names[k], g); k++)
		;
	if (k == *n) {
		if (*n == MAX_GEN)
			return -1;
		names[(*n)++] = g;
	}
	return k;
}

static json_t **read_lines(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	json_t **v = NULL;
	size_t cap = 0;
	char *line = NULL;
	size_t lcap = 0;

	*n = 0;
	if (!f)
		return NULL;
	while (getline(&line, &lcap, f) > 0) {
		json_t *j = json_loads(line, JSON_REJECT_DUPLICATES, NULL);

		if (!j)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			if (!(v = realloc(v, cap * sizeof(*v))))
				exit(2);
		}
		v[(*n)++] = j;
	}
	free(line);
	fclose(f);
	return v;
}

/* Does a generated result equal the golden answer?  Returns a reason or NULL. */
static const char *mismatch(const kw_result *res, const json_t *want)
{
	const json_t *asm_ = json_object_get(want, "asm"), *type = json_object_get(want, "type");
	const json_t *value = json_object_get(want, "value");

	if (json_is_string(asm_)) {
		if (!res->type || !res->text || res->text_len != json_string_length(asm_) ||
		    memcmp(res->text, json_string_value(asm_), res->text_len) != 0)
			return "asm differs";
		if (!json_is_string(type) || strcmp(res->type, json_string_value(type)) != 0)
			return "type differs";
	} else if (res->type) {
		return "asm where the oracle has none";
	}
	if (json_is_integer(value) && (res->value_kind != 1 || res->value != json_integer_value(value)))
		return "value differs";
	if (json_is_boolean(value) && (res->value_kind != 2 || (res->value != 0) != json_is_true(value)))
		return "value differs";
	if (json_object_get(want, "acc2arch") && !res->has_map)
		return "no accumulator map";
	return NULL;
}

int main(int argc, char **argv)
{
	size_t n = 0, na = 0, nok = 0, bad = 0;
	json_t **reqs, **answers, *out, *runs;
	int runs_n = argc > 3 ? atoi(argv[3]) : 7, passes = argc > 4 ? atoi(argv[4]) : 3;
	const char *names[MAX_GEN];
	int nnames = 0, *gen;
	size_t *ok;
	kw_workspace ws = KW_WORKSPACE_INIT;

	if (argc < 3 || runs_n < 1 || passes < 1) {
		fputs("usage: bench_gen REQUESTS.jsonl ANSWERS.jsonl [RUNS] [PASSES]\n", stderr);
		return 2;
	}
	reqs = read_lines(argv[1], &n);
	answers = read_lines(argv[2], &na);
	if (!n || n != na) {
		fprintf(stderr, "bench_gen: %zu requests, %zu answers\n", n, na);
		return 2;
	}
	gen = calloc(n, sizeof(*gen));
	ok = calloc(n, sizeof(*ok));
	if (!gen || !ok)
		return 2;

	/* the check: every output against its golden answer */
	for (size_t i = 0; i < n; i++) {
		kw_error err = KW_ERROR_INIT;
		kw_request *r = NULL;
		kw_result res;
		int want_error = json_object_get(answers[i], "error") != NULL, failed;
		const char *why = NULL;

		failed = kw_request_parse(&r, reqs[i], NULL, &err) || kw_request_generate(&res, &ws, r, 0, &err);
		if (want_error != failed)
			why = failed ? err.message : "the oracle answers an error";
		else if (!failed && (why = mismatch(&res, answers[i])) == NULL) {
			int k = slot(names, &nnames, kw_request_gen_name(r, 0));

			if (k < 0)
				return 2;
			gen[nok] = k;
			ok[nok++] = i;
		}
		if (why && bad++ < 5)
			fprintf(stderr, "bench_gen: request %zu: %s\n", i + 1, why);
		kw_request_free(r);
	}
	if (bad) {
		fprintf(stderr, "bench_gen: %zu of %zu outputs differ from the golden answers: no timing\n", bad, n);
		return 1;
	}

	runs = json_array();
	for (int run = 0; run < runs_n; run++) {
		acc per[MAX_GEN];
		double parse_s = 0, gen_s = 0;
		long calls = 0;
		json_t *pg = json_object();

		for (int k = 0; k < nnames; k++)
			per[k] = (acc){ names[k], 0, 0 };
		for (int p = 0; p < passes; p++) {
			for (size_t j = 0; j < nok; j++) {
				kw_error err = KW_ERROR_INIT;
				kw_request *r = NULL;
				kw_result res;
				double a, b, c;

				a = now();
				if (kw_request_parse(&r, reqs[ok[j]], NULL, &err))
					return 2;
				b = now();
				if (kw_request_generate(&res, &ws, r, 0, &err))
					return 2;
				c = now();
				kw_request_free(r);
				parse_s += b - a;
				gen_s += c - b;
				per[gen[j]].seconds += c - b;
				per[gen[j]].calls++;
				calls++;
			}
		}
		for (int k = 0; k < nnames; k++)
			json_object_set_new(pg, per[k].name, json_pack("{s:I,s:f}", "calls", (json_int_t)per[k].calls,
								       "generate_s", per[k].seconds));
		json_array_append_new(runs, json_pack("{s:f,s:f,s:I,s:o}", "parse_s", parse_s, "generate_s", gen_s,
						      "calls", (json_int_t)calls, "per_generator", pg));
	}
	out = json_pack("{s:I,s:I,s:I,s:o}", "requests", (json_int_t)n, "checked", (json_int_t)n, "timed",
			(json_int_t)nok, "runs", runs);
	json_dumpf(out, stdout, JSON_INDENT(1));
	fputc('\n', stdout);
	json_decref(out);
	for (size_t i = 0; i < n; i++) {
		json_decref(reqs[i]);
		json_decref(answers[i]);
	}
	free(reqs);
	free(answers);
	free(gen);
	free(ok);
	kw_workspace_free(&ws);
	return 0;
}
