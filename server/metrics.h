/*
 * metrics.h - kwgend's counters and histograms, and their Prometheus text.
 *
 * All counters are process-wide atomics; recording never blocks.  Routes
 * are a fixed enum (bounded label sets); statuses outside the table are
 * counted under "other".
 */
#ifndef KW_SERVER_METRICS_H
#define KW_SERVER_METRICS_H

#include <stddef.h>

#include "admit.h"
#include "kwgen/cache.h"

#define KW_FOR_EACH_ROUTE(X)                  \
	X(KERNELS, "/v1/kernels")             \
	X(BATCH, "/v1/kernels:batch")         \
	X(KERNEL_GET, "/v1/kernels/{key}")    \
	X(GENERATORS, "/v1/generators")       \
	X(ISAS, "/v1/isas")                   \
	X(HEALTHZ, "/healthz")                \
	X(READYZ, "/readyz")                  \
	X(STATUS, "/status")                  \
	X(METRICS, "/metrics")                \
	X(UI, "/ui")                          \
	X(VERIFY, "/v1/verify")               \
	X(VERIFY_GET, "/v1/verify/{key}")     \
	X(OTHER, "other")

enum {
#define X(name, text) KW_ROUTE_##name,
	KW_FOR_EACH_ROUTE(X)
#undef X
	KW_ROUTE_COUNT
};

/* The label text of a route ("/v1/kernels"). */
const char *kw_route_name(int route);

/* One finished request: route, HTTP status, wall time in seconds. */
void kw_metrics_request(int route, int status, double seconds);

/* One generation (kw_request_run) and its wall time in seconds. */
void kw_metrics_generation(double seconds);

/* Requests being handled now: +1 when one starts, -1 when it finishes. */
void kw_metrics_in_flight(int delta);
long kw_metrics_in_flight_now(void);

/*
 * One kernel request answered (POST /v1/kernels, GET/HEAD
 * /v1/kernels/{key}, or one item of a batch), counted once: a hit when the
 * answer came from the cache (memory or file: status 200 with cached set,
 * or 304), a miss when it was generated (200, cached 0; also a follower of
 * a single flight and ?cache=bypass), an error otherwise.
 */
void kw_metrics_kernel(int status, int cached);

/* The counts of kw_metrics_kernel since start. */
typedef struct kw_kernel_counts {
	unsigned long hits, misses, errors;
} kw_kernel_counts;
void kw_metrics_kernel_counts(kw_kernel_counts *out);

/*
 * One verification request answered (POST /v1/verify, GET/HEAD
 * /v1/verify/{key}), counted once as kw_metrics_kernel counts kernels (a
 * hit: 200 from the cache; a miss: 200 verified now, also a follower of a
 * single flight; an error: any other status), with the bytes of its
 * request body (0 for a GET).
 */
void kw_metrics_verify(int status, int cached, size_t body_bytes);

/* One verification run (decode and verify, kw_verify_run on a worker) and
 * its wall time in seconds. */
void kw_metrics_verification(double seconds);

/* The counts of kw_metrics_verify and kw_metrics_verification since start. */
typedef struct kw_verify_counts {
	unsigned long hits, misses, errors, runs;
	unsigned long long bytes_in;
	double seconds; /* of the runs, summed */
} kw_verify_counts;
void kw_metrics_verify_counts(kw_verify_counts *out);

/* Generations since start. */
unsigned long kw_metrics_generations(void);

/* The Prometheus text exposition (version 0.0.4) of every metric, with
 * the cache figures from st (may be NULL) and the --max-inflight slots
 * taken and refused from admit (may be NULL: shown as 0).  Returns
 * malloc()ed text and its length in *len, or NULL when out of memory. */
char *kw_metrics_render(size_t *len, const kw_cache_stats *st, kw_admit *admit);

#endif
