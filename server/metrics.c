/*
 * metrics.c - counters, histograms and the /metrics text (see metrics.h).
 * Knows routes and statuses as numbers only; http.c does the recording.
 */
#include "metrics.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kw_route_names[KW_ROUTE_COUNT] = {
#define X(name, text) text,
	KW_FOR_EACH_ROUTE(X)
#undef X
};

/* Statuses with their own series; anything else is "other". */
static const int kw_codes[] = { 200, 304, 400, 404, 405, 413, 415, 422, 500, 503 };
#define KW_NCODES (sizeof(kw_codes) / sizeof(kw_codes[0]))

/* Histogram bucket bounds, seconds. */
static const double kw_buckets[] = { 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
				     0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };
#define KW_NBUCKETS (sizeof(kw_buckets) / sizeof(kw_buckets[0]))

typedef struct kw_histogram {
	atomic_ulong counts[KW_NBUCKETS + 1]; /* last = +Inf only */
	atomic_ulong sum_us;                  /* sum of observations, microseconds */
} kw_histogram;

static atomic_ulong kw_requests[KW_ROUTE_COUNT][KW_NCODES + 1];
static kw_histogram kw_request_hist, kw_generation_hist, kw_verification_hist;
static atomic_ulong kw_generations;
static atomic_ulong kw_kernel_hits, kw_kernel_misses, kw_kernel_errors;
static atomic_long kw_in_flight;
static atomic_ulong kw_verify_hits, kw_verify_misses, kw_verify_errors, kw_verifications;
static atomic_ullong kw_verify_bytes_in;

const char *kw_route_name(int route)
{
	return route >= 0 && route < KW_ROUTE_COUNT ? kw_route_names[route] : "other";
}

static void observe(kw_histogram *h, double seconds)
{
	size_t i = 0;

	while (i < KW_NBUCKETS && seconds > kw_buckets[i])
		i++;
	atomic_fetch_add(&h->counts[i], 1);
	atomic_fetch_add(&h->sum_us, (unsigned long)(seconds * 1e6));
}

void kw_metrics_request(int route, int status, double seconds)
{
	size_t c = 0;

	if (route < 0 || route >= KW_ROUTE_COUNT)
		route = KW_ROUTE_OTHER;
	while (c < KW_NCODES && kw_codes[c] != status)
		c++;
	atomic_fetch_add(&kw_requests[route][c], 1);
	observe(&kw_request_hist, seconds);
}

void kw_metrics_generation(double seconds)
{
	atomic_fetch_add(&kw_generations, 1);
	observe(&kw_generation_hist, seconds);
}

void kw_metrics_kernel(int status, int cached)
{
	if (status == 304 || (status == 200 && cached > 0))
		atomic_fetch_add(&kw_kernel_hits, 1);
	else if (status == 200)
		atomic_fetch_add(&kw_kernel_misses, 1);
	else
		atomic_fetch_add(&kw_kernel_errors, 1);
}

void kw_metrics_kernel_counts(kw_kernel_counts *out)
{
	out->hits = atomic_load(&kw_kernel_hits);
	out->misses = atomic_load(&kw_kernel_misses);
	out->errors = atomic_load(&kw_kernel_errors);
}

void kw_metrics_verify(int status, int cached, size_t body_bytes)
{
	if (status == 304 || (status == 200 && cached > 0))
		atomic_fetch_add(&kw_verify_hits, 1);
	else if (status == 200)
		atomic_fetch_add(&kw_verify_misses, 1);
	else
		atomic_fetch_add(&kw_verify_errors, 1);
	atomic_fetch_add(&kw_verify_bytes_in, (unsigned long long)body_bytes);
}

void kw_metrics_verification(double seconds)
{
	atomic_fetch_add(&kw_verifications, 1);
	observe(&kw_verification_hist, seconds);
}

void kw_metrics_verify_counts(kw_verify_counts *out)
{
	out->hits = atomic_load(&kw_verify_hits);
	out->misses = atomic_load(&kw_verify_misses);
	out->errors = atomic_load(&kw_verify_errors);
	out->runs = atomic_load(&kw_verifications);
	out->bytes_in = atomic_load(&kw_verify_bytes_in);
	out->seconds = (double)atomic_load(&kw_verification_hist.sum_us) / 1e6;
}

void kw_metrics_in_flight(int delta)
{
	atomic_fetch_add(&kw_in_flight, delta);
}

long kw_metrics_in_flight_now(void)
{
	return atomic_load(&kw_in_flight);
}

unsigned long kw_metrics_generations(void)
{
	return atomic_load(&kw_generations);
}

/* A growable text buffer with a sticky out-of-memory flag. */
typedef struct kw_text {
	char *p;
	size_t len, cap;
	int oom;
} kw_text;

static void add(kw_text *t, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void add(kw_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = 1;
			return;
		}
		if (t->p && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 8192;
		while (cap <= t->len + (size_t)n)
			cap *= 2;
		char *p = realloc(t->p, cap);
		if (!p) {
			t->oom = 1;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
}

static void histogram(kw_text *t, const char *name, const char *help, kw_histogram *h)
{
	unsigned long cum = 0;

	add(t, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
	for (size_t i = 0; i < KW_NBUCKETS; i++) {
		cum += atomic_load(&h->counts[i]);
		add(t, "%s_bucket{le=\"%g\"} %lu\n", name, kw_buckets[i], cum);
	}
	cum += atomic_load(&h->counts[KW_NBUCKETS]);
	add(t, "%s_bucket{le=\"+Inf\"} %lu\n", name, cum);
	add(t, "%s_sum %.6f\n%s_count %lu\n", name, (double)atomic_load(&h->sum_us) / 1e6, name, cum);
}

char *kw_metrics_render(size_t *len, const kw_cache_stats *st, kw_admit *admit)
{
	kw_text t = { 0 };
	kw_cache_stats zero = { 0 };

	if (!st)
		st = &zero;
	add(&t, "# HELP kwgen_requests_total HTTP requests by route and status.\n"
		"# TYPE kwgen_requests_total counter\n");
	for (int r = 0; r < KW_ROUTE_COUNT; r++) {
		for (size_t c = 0; c <= KW_NCODES; c++) {
			unsigned long n = atomic_load(&kw_requests[r][c]);
			char code[16];

			if (!n)
				continue;
			if (c < KW_NCODES)
				snprintf(code, sizeof(code), "%d", kw_codes[c]);
			else
				snprintf(code, sizeof(code), "other");
			add(&t, "kwgen_requests_total{route=\"%s\",code=\"%s\"} %lu\n",
			    kw_route_names[r], code, n);
		}
	}
	histogram(&t, "kwgen_request_duration_seconds", "Time from request start to response queued.",
		  &kw_request_hist);
	histogram(&t, "kwgen_generation_duration_seconds", "Time spent in kw_request_run.",
		  &kw_generation_hist);
	add(&t, "# HELP kwgen_generations_total Generator runs (cache misses that generated).\n"
		"# TYPE kwgen_generations_total counter\nkwgen_generations_total %lu\n",
	    atomic_load(&kw_generations));
	add(&t, "# HELP kwgen_in_flight_requests Requests being handled now.\n"
		"# TYPE kwgen_in_flight_requests gauge\nkwgen_in_flight_requests %ld\n",
	    atomic_load(&kw_in_flight));
	add(&t, "# HELP kwgen_inflight_slots --max-inflight slots taken now (a miss one, a batch one"
		" per item up to the cap).\n"
		"# TYPE kwgen_inflight_slots gauge\nkwgen_inflight_slots %ld\n"
		"# HELP kwgen_inflight_refused_total Requests answered 503 overloaded for want of a"
		" --max-inflight slot.\n"
		"# TYPE kwgen_inflight_refused_total counter\nkwgen_inflight_refused_total %lu\n",
	    admit ? atomic_load(&admit->now) : 0L, admit ? atomic_load(&admit->refused) : 0UL);
	add(&t, "# HELP kwgen_cache_hits_total Kernel requests (and batch items) answered from the"
		" cache, in memory or in the file.\n"
		"# TYPE kwgen_cache_hits_total counter\nkwgen_cache_hits_total %lu\n",
	    atomic_load(&kw_kernel_hits));
	add(&t, "# HELP kwgen_cache_misses_total Kernel requests (and batch items) answered by"
		" generating.\n"
		"# TYPE kwgen_cache_misses_total counter\nkwgen_cache_misses_total %lu\n",
	    atomic_load(&kw_kernel_misses));
	add(&t, "# HELP kwgen_kernel_errors_total Kernel requests (and batch items) answered with"
		" an error status.\n"
		"# TYPE kwgen_kernel_errors_total counter\nkwgen_kernel_errors_total %lu\n",
	    atomic_load(&kw_kernel_errors));
	add(&t, "# HELP kwgen_verify_hits_total Verification requests answered from the cache.\n"
		"# TYPE kwgen_verify_hits_total counter\nkwgen_verify_hits_total %lu\n",
	    atomic_load(&kw_verify_hits));
	add(&t, "# HELP kwgen_verify_misses_total Verification requests answered by verifying.\n"
		"# TYPE kwgen_verify_misses_total counter\nkwgen_verify_misses_total %lu\n",
	    atomic_load(&kw_verify_misses));
	add(&t, "# HELP kwgen_verify_errors_total Verification requests answered with an error status.\n"
		"# TYPE kwgen_verify_errors_total counter\nkwgen_verify_errors_total %lu\n",
	    atomic_load(&kw_verify_errors));
	add(&t, "# HELP kwgen_verify_body_bytes_total Request body bytes of verification requests.\n"
		"# TYPE kwgen_verify_body_bytes_total counter\nkwgen_verify_body_bytes_total %llu\n",
	    (unsigned long long)atomic_load(&kw_verify_bytes_in));
	add(&t, "# HELP kwgen_verifications_total Verifier runs (decode and verify; cache misses).\n"
		"# TYPE kwgen_verifications_total counter\nkwgen_verifications_total %lu\n",
	    atomic_load(&kw_verifications));
	histogram(&t, "kwgen_verification_duration_seconds", "Time spent decoding and verifying one body.",
		  &kw_verification_hist);
	add(&t, "# HELP kwgen_cache_inserts_total Rows written.\n"
		"# TYPE kwgen_cache_inserts_total counter\nkwgen_cache_inserts_total %llu\n",
	    (unsigned long long)st->inserts);
	add(&t, "# HELP kwgen_cache_evictions_total Rows evicted by the size bound.\n"
		"# TYPE kwgen_cache_evictions_total counter\nkwgen_cache_evictions_total %llu\n",
	    (unsigned long long)st->evictions);
	add(&t, "# HELP kwgen_cache_bytes Bytes stored in the cache.\n"
		"# TYPE kwgen_cache_bytes gauge\nkwgen_cache_bytes %lld\n", (long long)st->bytes);
	add(&t, "# HELP kwgen_cache_entries Rows stored in the cache.\n"
		"# TYPE kwgen_cache_entries gauge\nkwgen_cache_entries %lld\n", (long long)st->entries);
	add(&t, "# HELP kwgen_cache_file_bytes Size of the cache files (db, -wal, -shm).\n"
		"# TYPE kwgen_cache_file_bytes gauge\n"
		"kwgen_cache_file_bytes{file=\"db\"} %lld\nkwgen_cache_file_bytes{file=\"wal\"} %lld\n"
		"kwgen_cache_file_bytes{file=\"shm\"} %lld\n", (long long)st->db_file_bytes,
	    (long long)st->wal_bytes, (long long)st->shm_bytes);
	add(&t, "# HELP kwgen_cache_checkpoints_total WAL checkpoints run.\n"
		"# TYPE kwgen_cache_checkpoints_total counter\nkwgen_cache_checkpoints_total %llu\n",
	    (unsigned long long)st->checkpoints);
	add(&t, "# HELP kwgen_cache_file_reads_total Rows read from the cache file (a hit not held in"
		" memory, a GET not held in memory).\n"
		"# TYPE kwgen_cache_file_reads_total counter\nkwgen_cache_file_reads_total %llu\n",
	    (unsigned long long)st->hits);
	add(&t, "# HELP kwgen_cache_file_absent_total Keys looked up in the cache file and not"
		" found (a miss looks once; again when a flight of a key like its own finished"
		" meanwhile).\n"
		"# TYPE kwgen_cache_file_absent_total counter\nkwgen_cache_file_absent_total %llu\n",
	    (unsigned long long)st->misses);
	add(&t, "# HELP kwgen_cache_group_commits_total Transactions that stored the rows of misses"
		" (group commit: several rows each).\n"
		"# TYPE kwgen_cache_group_commits_total counter\nkwgen_cache_group_commits_total %llu\n",
	    (unsigned long long)st->groups);
	add(&t, "# HELP kwgen_cache_recency_flushes_total Rounds that wrote the hit times held in memory"
		" to the file's last_access.\n"
		"# TYPE kwgen_cache_recency_flushes_total counter\nkwgen_cache_recency_flushes_total %llu\n",
	    (unsigned long long)st->recency_flushes);
	add(&t, "# HELP kwgen_cache_read_only 1 when the cache file cannot be written.\n"
		"# TYPE kwgen_cache_read_only gauge\nkwgen_cache_read_only %d\n", st->read_only);
	if (t.oom) {
		free(t.p);
		return NULL;
	}
	*len = t.len;
	return t.p;
}
