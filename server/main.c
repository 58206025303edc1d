/*
 * main.c - kwgend: flags, signals and the daemon's life cycle.
 *
 *   kwgend [--listen ADDR:PORT] [--db PATH] [--threads N] [--max-cache-bytes N]
 *          [--max-body-bytes N] [--max-batch N] [--drain-seconds N]
 *          [--busy-timeout-ms N] [--hot-cache-bytes N]
 *          [--log-level error|warn|info|debug]
 *
 * Start: open the cache, start the HTTP daemon, print
 * "kwgend: listening on ADDR:PORT" on stderr.  SIGTERM/SIGINT: stop
 * accepting, let in-flight requests finish (up to --drain-seconds), stop
 * the workers, close the database, exit 0.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "log.h"
#include "metrics.h"
#include "server.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kwgend [options]\n"
		"\n"
		"HTTP daemon for kwgen: POST /v1/kernels, POST /v1/kernels:batch,\n"
		"GET|HEAD /v1/kernels/{key}, GET /v1/generators, /v1/isas, /healthz,\n"
		"/readyz, /status, /metrics.  Answers are cached in SQLite.\n"
		"\n"
		"  --listen ADDR:PORT     address to listen on (default 127.0.0.1:8080;\n"
		"                         [ADDR6]:PORT for IPv6; port 0 picks a free port,\n"
		"                         printed as \"kwgend: listening on ADDR:PORT\")\n"
		"  --db PATH              SQLite cache file (default ./kwgen-cache.db)\n"
		"  --threads N            worker threads (default: one per online CPU)\n"
		"  --max-cache-bytes N    evict least-recently-used entries beyond N bytes\n"
		"                         (default 1073741824; 0 = unbounded)\n"
		"  --max-body-bytes N     largest request body accepted, else 413\n"
		"                         (default 1048576)\n"
		"  --max-batch N          most requests in one batch, else 422 (default 256)\n"
		"  --drain-seconds N      on SIGTERM/SIGINT, wait up to N s for in-flight\n"
		"                         requests (default 30)\n"
		"  --busy-timeout-ms N    how long a cache write waits for the SQLite lock\n"
		"                         before the request gets 503 (default 5000)\n"
		"  --hot-cache-bytes N    responses of repeated bodies kept in memory, at\n"
		"                         most N bytes (default 16777216; 0 = none); each\n"
		"                         is re-checked against the file once a second\n"
		"  --log-level LEVEL      error, warn, info (one JSON line per request;\n"
		"                         default) or debug\n"
		"  --help                 this text\n");
}

/* Parse a non-negative decimal integer flag. */
static int num(const char *flag, const char *text, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < 0 || v > max) {
		fprintf(stderr, "kwgend: %s wants an integer in 0..%lld, not \"%s\"\n", flag, max,
			text);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_flags(kw_srv_config *cfg, int argc, char **argv)
{
	enum { O_LISTEN = 1, O_DB, O_THREADS, O_CACHE, O_BODY, O_BATCH, O_DRAIN, O_BUSY, O_HOT, O_LOG, O_HELP };
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, O_LISTEN },
		{ "db", required_argument, NULL, O_DB },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "max-cache-bytes", required_argument, NULL, O_CACHE },
		{ "max-body-bytes", required_argument, NULL, O_BODY },
		{ "max-batch", required_argument, NULL, O_BATCH },
		{ "drain-seconds", required_argument, NULL, O_DRAIN },
		{ "busy-timeout-ms", required_argument, NULL, O_BUSY },
		{ "hot-cache-bytes", required_argument, NULL, O_HOT },
		{ "log-level", required_argument, NULL, O_LOG },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	long long v;
	int o, level;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case O_LISTEN: cfg->listen = optarg; break;
		case O_DB: cfg->db_path = optarg; break;
		case O_THREADS:
			if (num("--threads", optarg, 1024, &v) < 0 || v == 0) {
				fprintf(stderr, "kwgend: --threads wants 1..1024\n");
				return -1;
			}
			cfg->threads = (unsigned)v;
			break;
		case O_CACHE:
			if (num("--max-cache-bytes", optarg, INT64_MAX, &v) < 0)
				return -1;
			cfg->max_cache_bytes = v;
			break;
		case O_BODY:
			if (num("--max-body-bytes", optarg, 1LL << 30, &v) < 0)
				return -1;
			cfg->max_body_bytes = (size_t)v;
			break;
		case O_BATCH:
			if (num("--max-batch", optarg, 1 << 20, &v) < 0)
				return -1;
			cfg->max_batch = (size_t)v;
			break;
		case O_DRAIN:
			if (num("--drain-seconds", optarg, 3600, &v) < 0)
				return -1;
			cfg->drain_seconds = (unsigned)v;
			break;
		case O_BUSY:
			if (num("--busy-timeout-ms", optarg, 3600000, &v) < 0)
				return -1;
			cfg->busy_timeout_ms = (int)v;
			break;
		case O_HOT:
			if (num("--hot-cache-bytes", optarg, 1LL << 40, &v) < 0)
				return -1;
			cfg->hot_bytes = (size_t)v;
			break;
		case O_LOG:
			if ((level = kw_log_parse_level(optarg)) < 0) {
				fprintf(stderr, "kwgend: --log-level wants error, warn, info or debug\n");
				return -1;
			}
			kw_log_set_level(level);
			break;
		case O_HELP: usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kwgend: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static kw_srv s;
	static const kw_limits limits = KW_LIMITS_INIT;
	kw_cache_options copt = KW_CACHE_OPTIONS_INIT;
	kw_error e = KW_ERROR_INIT;
	struct MHD_Daemon *d = NULL;
	struct timespec ts;
	sigset_t sigs;
	char bound[256];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int sig = 0;

	s.cfg = (kw_srv_config){ "127.0.0.1:8080", "./kwgen-cache.db", cpus > 0 ? (unsigned)cpus : 1,
				 1LL << 30, 1u << 20, 256, 30, 5000, 16u << 20 };
	if (parse_flags(&s.cfg, argc, argv) < 0)
		return 2;
	s.limits = limits;
	clock_gettime(CLOCK_REALTIME, &ts);
	s.started_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;

	/* Signals are taken synchronously by this thread only. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	copt.max_bytes = s.cfg.max_cache_bytes;
	copt.busy_timeout_ms = s.cfg.busy_timeout_ms;
	if (kw_cache_open(&s.cache, s.cfg.db_path, &copt, &e) < 0) {
		fprintf(stderr, "kwgend: %s\n", e.message);
		return 1;
	}
	s.memo = kw_memo_new(16384, s.cfg.hot_bytes, 1000);
	if (!(s.flights = kw_flights_new()) || !s.memo) {
		fprintf(stderr, "kwgend: out of memory\n");
		kw_flights_free(s.flights);
		kw_memo_free(s.memo);
		kw_cache_close(s.cache);
		return 1;
	}
	if (kw_http_start(&d, &s, bound, sizeof(bound)) < 0) {
		fprintf(stderr, "kwgend: %s\n", bound);
		kw_flights_free(s.flights);
		kw_memo_free(s.memo);
		kw_cache_close(s.cache);
		return 1;
	}
	fprintf(stderr, "kwgend: listening on %s\n", bound);
	kw_log(KW_LOG_INFO, "listening on %s, db %s, %u threads, generator version %s", bound,
	       s.cfg.db_path, s.cfg.threads, kw_generator_version());

	while (sigwait(&sigs, &sig) != 0)
		;
	atomic_store(&s.draining, 1);
	kw_log(KW_LOG_INFO, "signal %d: draining", sig);
	kw_http_quiesce(d);
	for (unsigned i = 0; i < s.cfg.drain_seconds * 100 && kw_metrics_in_flight_now() > 0; i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	kw_http_stop(d);
	kw_flights_free(s.flights);
	kw_memo_free(s.memo);
	kw_cache_close(s.cache);
	kw_log(KW_LOG_INFO, "stopped");
	return 0;
}
