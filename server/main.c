/*
 * main.c - kwgend: flags, signals and the daemon's life cycle.
 *
 *   kwgend [--listen ADDR:PORT] [--db PATH] [--threads N] [--max-cache-bytes N]
 *          [--max-body-bytes N] [--max-batch N] [--drain-seconds N]
 *          [--busy-timeout-ms N] [--hot-cache-bytes N]
 *          [--max-depth N] [--max-string-bytes N] [--max-array-items N]
 *          [--max-generators N] [--max-acc-len N] [--max-output-bytes N]
 *          [--max-response-bytes N]
 *          [--max-connections N] [--max-connections-per-ip N]
 *          [--connection-timeout S] [--request-timeout S] [--max-inflight N]
 *          [--auth-tokens FILE [--allow-unauthenticated-reads]]
 *          [--tls-cert FILE --tls-key FILE] [--reset-corrupt-db] [--no-ui]
 *          [--workers N] [--work-timeout S] [--linger-seconds S] [--linger-timeout S]
 *          [--linger-bytes N]
 *          [--log-level error|warn|info|debug] [--log-file PATH]
 *
 * Start: open the cache, start the generation workers, the lingering-close
 * thread and the HTTP daemon, log the JSON start line (msg "kwgend:
 * listening on ADDR:PORT", event "start").  SIGHUP: reopen --log-file.
 * SIGTERM/SIGINT: stop accepting, let requests in flight finish (up to
 * --drain-seconds; an upload idle for KW_DRAIN_IDLE_S is not waited for),
 * stop the workers (queued jobs get 503), stop HTTP, close the database,
 * log the JSON stop line, exit 0.
 */
#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "testhook.h"
#include "kwgen/codeobj.h"

#ifndef KW_VERSION
#define KW_VERSION "0.1.0" /* as kwgen's (cli/kwgen.c) */
#endif
#include "body.h"
#include "linger.h"
#include "log.h"
#include "metrics.h"
#include "server.h"
#include "work.h"

/* An upload with no byte for this long is not waited for on SIGTERM. */
#define KW_DRAIN_IDLE_S 2.0

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kwgend [options]\n"
		"\n"
		"HTTP daemon for kwgen: POST /v1/kernels, POST /v1/kernels:batch,\n"
		"POST /v1/verify, GET|HEAD|DELETE /v1/verify/{key},\n"
		"GET|HEAD|DELETE /v1/kernels/{key}, GET /v1/generators, /v1/isas,\n"
		"/healthz, /readyz, /status, /metrics.  Answers are cached in SQLite\n"
		"(look into the file with `kwgen cache`).  \"Accept: text/plain\" on\n"
		"POST /v1/kernels and GET /v1/kernels/{key} answers the assembly as text\n"
		"(the text form of kwgen(1)); a request's \"source\" comes back with its answer and is\n"
		"not part of the key.  GET / is the playground page (its files are\n"
		"built in; no token needed for them).\n"
		"\n"
		"  --listen HOST:PORT     address to listen on (default 127.0.0.1:8080); HOST\n"
		"                         is a name (localhost) or an address, [ADDR6]:PORT\n"
		"                         for IPv6, :PORT for every address; port 0 picks a\n"
		"                         free port; the start line says \"kwgend: listening\n"
		"                         on ADDR:PORT\"\n"
		"  --db PATH              SQLite cache file (default ./kwgen-cache.db; a\n"
		"                         regular file's path: not \"\", :memory:, a device\n"
		"                         or a directory); a file that\n"
		"                         cannot be written is served read-only (writes\n"
		"                         get 503 \"storage\")\n"
		"  --threads N            HTTP polling threads (default: one per online CPU);\n"
		"                         they answer hits, GETs and health checks and never\n"
		"                         generate\n"
		"  --workers N            generation threads (default: one per online CPU)\n"
		"  --max-cache-bytes N    bound on the cache files: the database, its -wal\n"
		"                         and -shm together stay within N bytes plus a\n"
		"                         slack of N/8 (at least 256 KiB, at most 64 MiB);\n"
		"                         the WAL's share is N/4 (64 KiB..64 MiB);\n"
		"                         least-recently-used entries are evicted\n"
		"                         (default 1073741824; 0 = unbounded)\n"
		"  --max-body-bytes N     largest request body accepted, else 413\n"
		"                         (default 1048576)\n"
		"  --max-batch N          most requests in one batch, else 422 (default 256)\n"
		"  --drain-seconds N      on SIGTERM/SIGINT, wait up to N s for in-flight\n"
		"                         requests (default 30)\n"
		"  --busy-timeout-ms N    how long a cache write waits for the write lock\n"
		"                         (other writes of this daemon, then SQLite's)\n"
		"                         before the request gets 503 \"storage\" (default\n"
		"                         200); hits never wait for a lock\n"
		"  --hot-cache-bytes N    responses of repeated bodies kept in memory, at\n"
		"                         most N bytes (default 16777216; 0 = none); each\n"
		"                         is re-checked against the file once a second\n"
		"  --log-level LEVEL      error, warn, info (one JSON line per request;\n"
		"                         default) or debug\n"
		"  --log-file PATH        append the log to PATH instead of stderr; SIGHUP\n"
		"                         reopens it (after logrotate moved it)\n"
		"\n"
		"Request limits (each refused with a 4xx that names the limit):\n"
		"  --max-depth N          JSON nesting depth of a request, else 422\n"
		"                         (default 32)\n"
		"  --max-string-bytes N   longest string argument (comments), else 422\n"
		"                         (default 4096)\n"
		"  --max-array-items N    most items in an array argument (replaceHolder,\n"
		"                         memoryToken), else 422 (default 65536)\n"
		"  --max-generators N     most entries in \"generators\", else 422 (default 64)\n"
		"  --max-acc-len N        most accumulator registers per thread of a tile\n"
		"                         (accToArchMapper length), else 422 (default 65536)\n"
		"  --max-output-bytes N   most assembly bytes per generator result, checked\n"
		"                         before generating, else 422 (default 16777216)\n"
		"  --max-response-bytes N most bytes of results in one response: a request\n"
		"                         whose results pass it gets 422 \"limit\" (counted\n"
		"                         as they are generated); in a batch, the items past\n"
		"                         it get 422 \"limit\" without being generated\n"
		"                         (default 67108864)\n"
		"  --max-verify-bytes N   largest POST /v1/verify body (assembly text or code\n"
		"                         object), else 413 (default 134217728)\n"
		"  --max-body-memory N    bytes all request bodies being read or served may\n"
		"                         hold together; a body that would pass it gets 503\n"
		"                         \"overloaded\" + Retry-After (default 1073741824;\n"
		"                         0 = no bound; over --max-body-bytes and\n"
		"                         --max-verify-bytes)\n"
		"  --max-verify-instructions N\n"
		"                         most instructions one verification reads, else 422\n"
		"                         \"limit\" (default 16777216)\n"
		"  --max-verify-work N    most data-flow steps (instructions visited over\n"
		"                         all fixed-point passes) of one verification, else\n"
		"                         422 \"limit\" (default 0 = 256 per instruction plus 1M)\n"
		"  --max-verify-memory N  bytes one verification may hold (decoded text,\n"
		"                         macro expansions, instructions), else 422 \"limit\"\n"
		"                         naming the bound (default 0 = 16 x the body +\n"
		"                         96 MiB)\n"
		"\n"
		"Connections and load:\n"
		"  --max-connections N    open connections; more are refused at accept\n"
		"                         (default 1024)\n"
		"  --max-connections-per-ip N\n"
		"                         open connections per client address (default 0 =\n"
		"                         no per-address cap)\n"
		"  --connection-timeout S close a connection idle for S seconds (default 60)\n"
		"  --request-timeout S    close a connection whose request body is not\n"
		"                         complete S seconds after its headers (slow\n"
		"                         senders; default 30); a request head (line\n"
		"                         and headers) not complete --connection-timeout\n"
		"                         + S seconds after the connection opened or its\n"
		"                         last answer was sent closes it too\n"
		"  --max-inflight N       generations queued or running at once (a miss counts\n"
		"                         1, a batch its items, at most N); past it 503 +\n"
		"                         Retry-After at once (default 1024); hits, GETs and\n"
		"                         waiting for an identical request never count\n"
		"  --work-timeout S       a job still queued S seconds after it arrived gets\n"
		"                         503 \"timeout\"; batch items not started by then too\n"
		"                         (default 120; 0 = none)\n"
		"  --linger-seconds S     after answering before the body was read (413,\n"
		"                         401, 404, ...), read and discard what the client\n"
		"                         still sends for up to S seconds in all before\n"
		"                         closing, so it reads the answer instead of a reset\n"
		"                         (nginx's lingering_time; default 30; 0 = close at\n"
		"                         once)\n"
		"  --linger-timeout S     ...closing sooner when nothing came for S seconds\n"
		"                         (nginx's lingering_timeout; default 5)\n"
		"  --linger-bytes N       ...reading at most N bytes a second (a burst of N,\n"
		"                         then N a second; past that the client is slowed\n"
		"                         down, not cut off; default 67108864, 0 = no bound)\n"
		"\n"
		"Access:\n"
		"  --auth-tokens FILE     require \"Authorization: Bearer TOKEN\" with a token\n"
		"                         listed in FILE (one per line, # comments), else\n"
		"                         401 (default: no authentication; the default\n"
		"                         --listen is loopback only)\n"
		"  --allow-unauthenticated-reads\n"
		"                         with --auth-tokens, GET/HEAD of /v1/kernels/{key},\n"
		"                         /v1/generators, /v1/isas, /healthz, /readyz,\n"
		"                         /status and /metrics need no token\n"
		"  --tls-cert FILE        serve HTTPS with this PEM certificate (chain)...\n"
		"  --tls-key FILE         ...and this PEM private key (both or neither)\n"
		"\n"
		"Page:\n"
		"  --no-ui                GET / and /ui/* answer 404 (default: the\n"
		"                         playground page is served)\n"
		"\n"
		"Storage:\n"
		"  --reset-corrupt-db     if --db is damaged, rename it to\n"
		"                         PATH.corrupt-<unix seconds> and start with an\n"
		"                         empty cache (default: refuse to start, exit 1)\n"
		"  --version              the version and the generators' version\n"
		"  --help                 this text\n");
}

/* The integer flags of the request limits and the connection settings,
 * with their bounds (one table, after Redis' config.c).  dst points into
 * kw_srv_config or kw_limits; type says how to store the value. */
enum { NF_INT, NF_UNSIGNED, NF_LONG, NF_SIZE, NF_I64 };
typedef struct num_flag {
	const char *name;
	int type;
	long long min, max;
	void *dst;
} num_flag;

static void store(const num_flag *f, long long v)
{
	switch (f->type) {
	case NF_INT: *(int *)f->dst = (int)v; break;
	case NF_UNSIGNED: *(unsigned *)f->dst = (unsigned)v; break;
	case NF_LONG: *(long *)f->dst = (long)v; break;
	case NF_SIZE: *(size_t *)f->dst = (size_t)v; break;
	default: *(int64_t *)f->dst = (int64_t)v; break;
	}
}

/* Parse a decimal integer flag in min..max (one message, the real range). */
static int num(const char *flag, const char *text, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		fprintf(stderr, "kwgend: %s wants an integer in %lld..%lld, not \"%s\"\n", flag, min, max,
			text);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_flags(kw_srv_config *cfg, kw_limits *lim, int argc, char **argv)
{
	enum { O_LISTEN = 1, O_DB, O_THREADS, O_CACHE, O_BODY, O_BATCH, O_DRAIN, O_BUSY, O_HOT, O_LOG, O_HELP,
	       O_AUTH, O_UNAUTH_READS, O_TLS_CERT, O_TLS_KEY, O_RESET_DB, O_NO_UI, O_LOG_FILE, O_VERSION, O_NUM = 100 };
	const num_flag nums[] = {
		{ "max-depth", NF_INT, 1, 2048, &lim->max_depth },
		{ "max-string-bytes", NF_SIZE, 1, 1LL << 30, &lim->max_string_bytes },
		{ "max-array-items", NF_SIZE, 1, 1LL << 24, &lim->max_array_items },
		{ "max-generators", NF_SIZE, 1, 1LL << 16, &lim->max_generators },
		{ "max-acc-len", NF_LONG, 1, 1LL << 24, &lim->max_acc_len },
		{ "max-output-bytes", NF_SIZE, 1024, 1LL << 32, &lim->max_output_bytes },
		{ "max-response-bytes", NF_SIZE, 1024, 1LL << 32, &cfg->max_response_bytes },
		{ "max-verify-bytes", NF_SIZE, 1, 1LL << 34, &cfg->max_verify_bytes },
		{ "max-body-memory", NF_SIZE, 0, 1LL << 40, &cfg->max_body_memory },
		{ "max-verify-instructions", NF_SIZE, 1, 1LL << 32, &cfg->max_verify_instructions },
		{ "max-verify-work", NF_I64, 0, 1LL << 50, &cfg->max_verify_work },
		{ "max-verify-memory", NF_SIZE, 0, 1LL << 40, &cfg->max_verify_memory },
		{ "max-connections", NF_UNSIGNED, 1, 1LL << 20, &cfg->max_connections },
		{ "max-connections-per-ip", NF_UNSIGNED, 0, 1LL << 20, &cfg->max_connections_per_ip },
		{ "connection-timeout", NF_UNSIGNED, 1, 86400, &cfg->connection_timeout },
		{ "request-timeout", NF_UNSIGNED, 1, 86400, &cfg->request_timeout },
		{ "max-inflight", NF_LONG, 1, 1LL << 20, &cfg->max_inflight },
		{ "workers", NF_UNSIGNED, 1, 1024, &cfg->workers },
		{ "work-timeout", NF_UNSIGNED, 0, 86400, &cfg->work_timeout },
		{ "linger-seconds", NF_UNSIGNED, 0, 3600, &cfg->linger_seconds },
		{ "linger-bytes", NF_SIZE, 0, 1LL << 36, &cfg->linger_bytes },
		{ "linger-timeout", NF_UNSIGNED, 1, 3600, &cfg->linger_timeout },
		/* testing a full disk: cap the cache file at N SQLite pages */
		{ "test-db-max-pages", NF_I64, 1, 1LL << 31, &cfg->db_max_pages },
	};
	enum { NNUMS = sizeof(nums) / sizeof(nums[0]) };
	static const struct option fixed[] = {
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
		{ "version", no_argument, NULL, O_VERSION },
		{ "auth-tokens", required_argument, NULL, O_AUTH },
		{ "allow-unauthenticated-reads", no_argument, NULL, O_UNAUTH_READS },
		{ "tls-cert", required_argument, NULL, O_TLS_CERT },
		{ "tls-key", required_argument, NULL, O_TLS_KEY },
		{ "reset-corrupt-db", no_argument, NULL, O_RESET_DB },
		{ "no-ui", no_argument, NULL, O_NO_UI },
		{ "log-file", required_argument, NULL, O_LOG_FILE },
	};
	enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
	struct option opts[NFIXED + NNUMS + 1];
	char flag[64], lmsg[512];
	struct stat sb;
	long long v;
	int o, level;

	memcpy(opts, fixed, sizeof(fixed));
	for (int i = 0; i < NNUMS; i++)
		opts[NFIXED + i] = (struct option){ nums[i].name, required_argument, NULL, O_NUM + i };
	opts[NFIXED + NNUMS] = (struct option){ NULL, 0, NULL, 0 };
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (o >= O_NUM && o < O_NUM + NNUMS) {
			const num_flag *f = &nums[o - O_NUM];

			snprintf(flag, sizeof(flag), "--%s", f->name);
			if (num(flag, optarg, f->min, f->max, &v) < 0)
				return -1;
			store(f, v);
			continue;
		}
		switch (o) {
		case O_AUTH: cfg->auth_tokens = optarg; break;
		case O_UNAUTH_READS: cfg->allow_unauth_reads = 1; break;
		case O_TLS_CERT: cfg->tls_cert = optarg; break;
		case O_TLS_KEY: cfg->tls_key = optarg; break;
		case O_RESET_DB: cfg->reset_corrupt_db = 1; break;
		case O_NO_UI: cfg->no_ui = 1; break;
		case O_LOG_FILE: cfg->log_file = optarg; break;
		case O_LISTEN:
			/* a malformed value is a usage error (exit 2), found before
			 * the cache is opened; a port that cannot be bound is not */
			if (kw_http_listen_ok(optarg, lmsg, sizeof(lmsg)) < 0) {
				fprintf(stderr, "kwgend: %s\n", lmsg);
				return -1;
			}
			cfg->listen = optarg;
			break;
		case O_DB:
			if (!*optarg || strcmp(optarg, ":memory:") == 0) {
				fprintf(stderr, "kwgend: --db wants a file path, not \"%s\": an in-memory"
					" or temporary database would be a different empty one for each"
					" connection\n", optarg);
				return -1;
			}
			/* a device, FIFO or directory is no cache: SQLite would
			 * make PATH-journal next to it (/dev/null-journal) */
			if (stat(optarg, &sb) == 0 && !S_ISREG(sb.st_mode)) {
				fprintf(stderr, "kwgend: --db %s is %s, not a regular file; give the path"
					" of a cache file (it is made if missing)\n", optarg,
					S_ISDIR(sb.st_mode) ? "a directory" :
					S_ISFIFO(sb.st_mode) ? "a FIFO" :
					S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" : "a special file");
				return -1;
			}
			cfg->db_path = optarg;
			break;
		case O_THREADS:
			if (num("--threads", optarg, 1, 1024, &v) < 0)
				return -1;
			cfg->threads = (unsigned)v;
			break;
		case O_CACHE:
			if (num("--max-cache-bytes", optarg, 0, INT64_MAX, &v) < 0)
				return -1;
			cfg->max_cache_bytes = v;
			break;
		case O_BODY:
			if (num("--max-body-bytes", optarg, 0, 1LL << 30, &v) < 0)
				return -1;
			cfg->max_body_bytes = (size_t)v;
			break;
		case O_BATCH:
			if (num("--max-batch", optarg, 0, 1 << 20, &v) < 0)
				return -1;
			cfg->max_batch = (size_t)v;
			break;
		case O_DRAIN:
			if (num("--drain-seconds", optarg, 0, 3600, &v) < 0)
				return -1;
			cfg->drain_seconds = (unsigned)v;
			break;
		case O_BUSY:
			if (num("--busy-timeout-ms", optarg, 0, 3600000, &v) < 0)
				return -1;
			cfg->busy_timeout_ms = (int)v;
			break;
		case O_HOT:
			if (num("--hot-cache-bytes", optarg, 0, 1LL << 40, &v) < 0)
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
		case O_VERSION:
			/* the same line as kwgen --version */
			printf("kwgend %s (generators %s)\n", KW_VERSION, kw_generator_version());
			exit(fflush(stdout) || ferror(stdout) ? 2 : 0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kwgend: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (!cfg->tls_cert != !cfg->tls_key) {
		fprintf(stderr, "kwgend: --tls-cert and --tls-key go together\n");
		return -1;
	}
	if (cfg->max_body_memory && (cfg->max_body_memory <= cfg->max_body_bytes ||
				     cfg->max_body_memory <= cfg->max_verify_bytes)) {
		fprintf(stderr, "kwgend: --max-body-memory %zu must be over --max-body-bytes (%zu) and "
			"--max-verify-bytes (%zu), or 0 (no budget)\n", cfg->max_body_memory,
			cfg->max_body_bytes, cfg->max_verify_bytes);
		return -1;
	}
	if (cfg->allow_unauth_reads && !cfg->auth_tokens) {
		fprintf(stderr, "kwgend: --allow-unauthenticated-reads needs --auth-tokens\n");
		return -1;
	}
	return 0;
}

/* Read a whole (PEM) file into a NUL-terminated malloc()ed string. */
static char *slurp(const char *flag, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "kwgend: %s %s: %s\n", flag, path, strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *p = cap > (1u << 24) ? NULL : realloc(text, cap = cap ? cap * 2 : 8192);

			if (!p) {
				fprintf(stderr, "kwgend: %s %s: too large or out of memory\n", flag, path);
				free(text);
				fclose(f);
				return NULL;
			}
			text = p;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f) || !len) {
		fprintf(stderr, "kwgend: %s %s: %s\n", flag, path, len ? strerror(errno) : "empty file");
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[len] = '\0';
	return text;
}

/* Seconds on CLOCK_MONOTONIC since *t0. */
static double mono_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Free what main() set up, in reverse order. */
static void teardown(kw_srv *s)
{
	kw_work_stop(s->work);
	kw_work_free(s->work);
	kw_linger_free(s->linger);
	kw_flights_free(s->flights);
	kw_memo_free(s->memo);
	kw_cache_close(s->cache);
	kw_auth_free(s->auth);
	free(s->tls_cert_pem);
	if (s->tls_key_pem)
		memset(s->tls_key_pem, 0, strlen(s->tls_key_pem));
	free(s->tls_key_pem);
}

/* The fields of the start line. */
static json_t *start_fields(const kw_srv *s, const char *bound)
{
	return json_pack("{s:s,s:s,s:s,s:i,s:i,s:I,s:s,s:s}", "listen", bound, "listen_flag",
			 s->cfg.listen, "db", s->cfg.db_path, "threads", (int)s->cfg.threads,
			 "workers", (int)s->cfg.workers, "max_inflight", (json_int_t)s->admit.max,
			 "generator_version", kw_generator_version(), "libmicrohttpd",
			 kw_http_library_version());
}

int main(int argc, char **argv)
{
	static kw_srv s;
	static const kw_limits limits = KW_LIMITS_INIT;
	char msg[512];
	kw_cache_options copt = KW_CACHE_OPTIONS_INIT;
	kw_error e = KW_ERROR_INIT;
	struct MHD_Daemon *d = NULL;
	struct timespec ts, t0, t1;
	sigset_t sigs;
	char bound[512];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int sig = 0;
	long busy;

	/* POST /v1/verify decodes code objects in a child process: this
	 * executable again, in its decoder mode (lib/codeobj/child.c) */
	if (argc > 1 && !strcmp(argv[1], KW_CODEOBJ_CHILD_ARG)) {
		/* KWGEND_TEST_DECODE_DELAY_MS: the decoder process sleeps N ms
		 * before it decodes, so a test holds a decoder process running
		 * with a small body, whatever the machine's speed (tests only) */
		long decode_delay_ms = kw_test_hook_ms("KWGEND_TEST_DECODE_DELAY_MS", 1, 600000);
		if (decode_delay_ms)
			kw_test_hook_sleep("KWGEND_TEST_DECODE_DELAY_MS", decode_delay_ms);
		return kw_codeobj_child_main(argc, argv);
	}
#ifdef __GLIBC__
	/* Blocks of 1 MiB and more (bodies, decoded text, answers) are mapped
	 * and unmapped on their own.  glibc's default threshold rises with
	 * each large block freed (up to 32 MiB), after which such blocks stay
	 * in the arenas once freed: 2.6x the idle RSS after a few large
	 * verifications, 1.1x with this (make bench-verify-memory). */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	/* Fixing that threshold also fixes the trim threshold at its 128 KiB
	 * default (glibc's dynamic rule would have raised it to twice the mmap
	 * threshold): each thread's arena then gave its freed top back with
	 * madvise after nearly every miss (a TLB shoot-down on the other
	 * cores) and faulted the pages in again on the next.  Twice the mmap
	 * threshold, as glibc's rule does: kwgend's CPU per miss -13 % in
	 * bench-http's misses, no change under a 2 MB cache bound
	 * (bench/README.md); large verifications still trim (verify.c). */
	mallopt(M_TRIM_THRESHOLD, 2 << 20);
#endif
	s.cfg = (kw_srv_config){
		.listen = "127.0.0.1:8080", .db_path = "./kwgen-cache.db",
		.threads = cpus > 0 ? (unsigned)cpus : 1, .max_cache_bytes = 1LL << 30,
		.max_body_bytes = 1u << 20, .max_batch = 256, .drain_seconds = 30,
		.busy_timeout_ms = 200, .hot_bytes = 16u << 20, .max_connections = 1024,
		.max_connections_per_ip = 0, .connection_timeout = 60, .request_timeout = 30,
		.max_inflight = 0, .max_response_bytes = 64u << 20,
		.workers = cpus > 0 ? (unsigned)cpus : 1, .work_timeout = 120,
		.linger_seconds = 30, .linger_timeout = 5, .linger_bytes = 64u << 20,
		/* --max-verify-bytes, -instructions, -work (0 = the verifier's default) */
		.max_verify_bytes = 128u << 20, .max_verify_instructions = 16u << 20,
		.max_body_memory = 1u << 30,
		.max_verify_work = 0,
	};
	s.limits = limits;
	if (parse_flags(&s.cfg, &s.limits, argc, argv) < 0)
		return 2;
	/* one POST /v1/kernels (and each batch item) answers at most this */
	s.limits.max_results_bytes = s.cfg.max_response_bytes;
	kw_body_set_budget(s.cfg.max_body_memory);
	if (s.cfg.log_file && kw_log_open(s.cfg.log_file) < 0) {
		fprintf(stderr, "kwgend: --log-file %s: %s\n", s.cfg.log_file, strerror(errno));
		return 1;
	}
	kw_admit_init(&s.admit, s.cfg.max_inflight > 0 ? s.cfg.max_inflight : 1024);
	if (s.cfg.auth_tokens && kw_auth_load(&s.auth, s.cfg.auth_tokens, msg, sizeof(msg)) < 0) {
		kw_log(KW_LOG_ERROR, "kwgend: %s", msg);
		return 1;
	}
	if (s.cfg.tls_cert && (!(s.tls_cert_pem = slurp("--tls-cert", s.cfg.tls_cert)) ||
			       !(s.tls_key_pem = slurp("--tls-key", s.cfg.tls_key)))) {
		teardown(&s);
		return 1;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	s.started_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;

	/* Signals are taken synchronously by this thread only (every thread
	 * started below inherits the mask). */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	copt.max_bytes = s.cfg.max_cache_bytes;
	copt.max_disk_bytes = s.cfg.max_cache_bytes;
	copt.busy_timeout_ms = s.cfg.busy_timeout_ms;
	copt.reset_corrupt = s.cfg.reset_corrupt_db;
	copt.max_pages = s.cfg.db_max_pages;
	/* KWGEND_TEST_RECENCY_FLUSH_MS: hit times reach last_access every N ms
	 * instead of every 5 s (a test waits for two rounds, not 10 s) */
	copt.recent_flush_ms = kw_test_hook_ms("KWGEND_TEST_RECENCY_FLUSH_MS", 100, 60000);
	if (kw_cache_open(&s.cache, s.cfg.db_path, &copt, &e) < 0) {
		kw_log(KW_LOG_ERROR, "kwgend: %s", e.message);
		if (strstr(e.message, " is damaged "))
			kw_log(KW_LOG_ERROR, "kwgend: --reset-corrupt-db moves %s aside and starts with an"
			       " empty cache", s.cfg.db_path);
		teardown(&s);
		return 1;
	}
	if (kw_cache_read_only(s.cache))
		kw_log_event(KW_LOG_ALWAYS, "read_only", NULL, "kwgend: %s", kw_cache_read_only(s.cache));
	if (kw_cache_moved_aside(s.cache))
		kw_log_event(KW_LOG_ALWAYS, "reset_corrupt_db", NULL, "kwgend: %s was damaged; moved it to %s and started an empty cache",
		       s.cfg.db_path, kw_cache_moved_aside(s.cache));
	/* KWGEND_TEST_MEMO_FRESH_MS: an answer held in memory is served without
	 * confirming its row for N ms instead of 1 s, so a check that deletes
	 * the row behind the daemon's back sees memory answer on any machine */
	long fresh_ms = kw_test_hook_ms("KWGEND_TEST_MEMO_FRESH_MS", 100, 600000);
	s.memo = kw_memo_new(16384, s.cfg.hot_bytes, fresh_ms ? fresh_ms : 1000);
	s.flights = kw_flights_new();
	s.work = kw_work_new(s.cfg.workers);
	s.linger = kw_linger_new(s.cfg.linger_seconds, s.cfg.linger_timeout, s.cfg.linger_bytes);
	if (!s.flights || !s.memo || !s.work || !s.linger) {
		kw_log(KW_LOG_ERROR, "kwgend: out of memory or threads");
		teardown(&s);
		return 1;
	}
	if (kw_http_start(&d, &s, bound, sizeof(bound)) < 0) {
		kw_log_event(KW_LOG_ERROR, "start_failed", json_pack("{s:s}", "listen_flag", s.cfg.listen),
			     "kwgend: %s", bound);
		teardown(&s);
		return 1;
	}
	kw_log_event(KW_LOG_ALWAYS, "start", start_fields(&s, bound), "kwgend: listening on %s", bound);

	for (;;) {
		while (sigwait(&sigs, &sig) != 0)
			;
		if (sig != SIGHUP)
			break;
		if (kw_log_reopen() < 0)
			kw_log(KW_LOG_ERROR, "SIGHUP: cannot reopen --log-file %s: %s", s.cfg.log_file,
			       strerror(errno));
		else
			kw_log_event(KW_LOG_INFO, "reopen", NULL, "SIGHUP: log %s",
				     s.cfg.log_file ? "reopened" : "is stderr; nothing to reopen");
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	atomic_store(&s.draining, 1);
	kw_log_event(KW_LOG_INFO, "drain", json_pack("{s:i}", "signal", sig), "signal %d: draining", sig);
	kw_http_quiesce(d);
	/* the deadline on the clock, not in 10 ms sleeps: on a loaded machine
	 * each sleep takes longer, and 100 of them passed the drain by 1 s */
	while (kw_http_busy(KW_DRAIN_IDLE_S) > 0 && mono_since(&t0) < (double)s.cfg.drain_seconds)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	/* Decoder processes still running are killed now (their requests get
	 * 503 draining), so that no running slice waits on one past the drain. */
	kw_codeobj_child_stop_all();
	/* Whatever is still queued gets 503 draining; running slices finish. */
	kw_work_stop(s.work);
	/* Misses whose rows are queued for the group commit are answered once
	 * it has written them. */
	kw_cache_flush(s.cache);
	/* No request suspends any more; the running slices finish and every
	 * suspended request is resumed (its own bound: a slice may take as
	 * long as a drain).  MHD_stop_daemon with one still suspended would
	 * abort the process (libmicrohttpd 0.9.75 panics). */
	if (kw_http_wait_unsuspended(s.cfg.drain_seconds > 5 ? s.cfg.drain_seconds : 5) < 0) {
		kw_log_event(KW_LOG_ERROR, "stop", json_pack("{s:i,s:I}", "signal", sig, "suspended",
							     (json_int_t)atomic_load(&s.suspended)),
			     "kwgend: requests still generating after %u s; exiting without closing them",
			     s.cfg.drain_seconds > 5 ? s.cfg.drain_seconds : 5);
		_exit(1);
	}
	/* Let the resumed connections send what they were given (1 s at most). */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	while (kw_http_busy(0.2) > 0 && mono_since(&t1) < 1.0)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	busy = kw_http_busy(0);
	kw_http_stop(d);
	teardown(&s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kw_log_event(KW_LOG_ALWAYS, "stop",
		     json_pack("{s:i,s:f,s:I}", "signal", sig, "drain_seconds",
			       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
			       "cut_requests", (json_int_t)busy),
		     "kwgend: stopped");
	return 0;
}
