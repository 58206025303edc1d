/*
 * bench_gen - time generation alone: request already parsed -> rendered
 * text and tables (kw_request_generate), per generator and in total.
 *
 *   gzip -dc tests/golden/requests.jsonl.gz | build/bench/bench_gen [SECONDS]
 *
 * Each request is parsed into a kw_request right before it is generated,
 * as kwgen and kwgend do (untimed; the parsed request is then warm in the
 * cache, as it is in real use), and only kw_request_generate is timed.
 * Passes over the whole set repeat until SECONDS (default 3) are spent.
 *
 * Prints one JSON object: {"total": {"calls", "seconds", "calls_per_sec"},
 * "per_generator": {"wait": {...}, ...}, "requests", "skipped", "rounds"}.
 * Requests that answer an error are skipped (counted in "skipped").
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
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int slot(acc *per, int *nper, const char *g)
{
	int k;

	for (k = 0; k < *nper && strcmp(per[k].name, g); k++)
		;
	if (k == *nper) {
		if (*nper == MAX_GEN)
			return -1;
		per[k].name = g;
		per[k].seconds = 0;
		per[k].calls = 0;
		(*nper)++;
	}
	return k;
}

int main(int argc, char **argv)
{
	double budget = argc > 1 ? atof(argv[1]) : 3.0;
	json_t **reqs = NULL;
	int *gen = NULL;
	size_t n = 0, cap = 0, skipped = 0;
	char *line = NULL;
	size_t lcap = 0;
	acc per[MAX_GEN];
	int nper = 0;
	kw_workspace ws = KW_WORKSPACE_INIT;
	long rounds = 0, total_calls = 0;
	double t0, total = 0;
	json_t *out, *pg;

	while (getline(&line, &lcap, stdin) > 0) {
		json_error_t je;
		json_t *j = json_loads(line, 0, &je);
		kw_request *r = NULL;
		kw_error err = KW_ERROR_INIT;
		kw_result res;
		int k;

		if (!j)
			continue;
		if (kw_request_parse(&r, j, NULL, &err) || kw_request_generate(&res, &ws, r, 0, &err) ||
		    (k = slot(per, &nper, kw_request_gen_name(r, 0))) < 0) {
			skipped++;
			kw_request_free(r);
			json_decref(j);
			continue;
		}
		kw_request_free(r);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			reqs = realloc(reqs, cap * sizeof(*reqs));
			gen = realloc(gen, cap * sizeof(*gen));
			if (!reqs || !gen)
				return 2;
		}
		gen[n] = k;
		reqs[n++] = j;
	}
	free(line);
	if (!n) {
		fputs("bench_gen: no requests on stdin\n", stderr);
		return 2;
	}
	t0 = now();
	do {
		for (size_t i = 0; i < n; i++) {
			kw_error err = KW_ERROR_INIT;
			kw_request *r = NULL;
			kw_result res;
			double a, b;

			if (kw_request_parse(&r, reqs[i], NULL, &err))
				return 2;
			a = now();
			kw_request_generate(&res, &ws, r, 0, &err);
			b = now();
			kw_request_free(r);
			per[gen[i]].seconds += b - a;
			per[gen[i]].calls++;
			total += b - a;
			total_calls++;
		}
		rounds++;
	} while (now() - t0 < budget);

	out = json_pack("{s:{s:I,s:f,s:f},s:I,s:I,s:I,s:{}}", "total", "calls", (json_int_t)total_calls,
			"seconds", total, "calls_per_sec", total_calls / total, "requests", (json_int_t)n,
			"skipped", (json_int_t)skipped, "rounds", (json_int_t)rounds, "per_generator");
	pg = json_object_get(out, "per_generator");
	for (int k = 0; k < nper; k++)
		json_object_set_new(pg, per[k].name, json_pack("{s:I,s:f,s:f}", "calls", (json_int_t)per[k].calls,
							       "seconds", per[k].seconds, "calls_per_sec", per[k].calls / per[k].seconds));
	json_dumpf(out, stdout, JSON_INDENT(1));
	fputc('\n', stdout);
	json_decref(out);
	for (size_t i = 0; i < n; i++)
		json_decref(reqs[i]);
	free(reqs);
	free(gen);
	kw_workspace_free(&ws);
	return 0;
}
