/*
 * cli/cache.c - `kwgen cache stats|ls|show KEY|rm KEY|purge`: look into a
 * kwgend cache file through lib/cache.c (kwgen/cache.h), safe while the
 * daemon runs on the same file (WAL readers, short write transactions).
 */
#include "cache_cli.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "kwgen/buf.h"
#include "kwgen/cache.h"
#include "kwgen/text.h"

static void usage(FILE *f)
{
	fputs("usage: kwgen cache [--db FILE] COMMAND\n"
	      "Look into a kwgend cache file (default ./kwgen-cache.db, kwgend's default);\n"
	      "safe while kwgend runs on it.\n"
	      "  stats                 entries, bytes, file sizes, per ISA counts and ages\n"
	      "  ls [--limit N] [--json]\n"
	      "                        one line per entry, most recently used first:\n"
	      "                        key, isa, bytes, last use (UTC), source (for a\n"
	      "                        verification of POST /v1/verify: \"verification\"\n"
	      "                        and the verifier's version); --json: one JSON\n"
	      "                        object per line (\"kind\": kernel or verification)\n"
	      "  show KEY [--json]     an entry: its metadata and its assembly as text\n"
	      "                        (kwgen --asm), or a verification's findings;\n"
	      "                        --json prints the stored response\n"
	      "  rm KEY                delete an entry (exit 1 if there is none)\n"
	      "KEY is a whole key or its first 4 or more hex digits (one key only).\n"
	      "  purge [--older-than DAYS]\n"
	      "                        delete the entries not used for DAYS days (a\n"
	      "                        decimal; without it: every entry), oldest first,\n"
	      "                        256 per transaction\n"
	      "The same with the sqlite3 shell: see kwgen(1), CACHE.\n",
	      f);
}

/* "2026-12-01 06:12:03" (UTC) of ms since the epoch. */
static const char *utc(char buf[32], int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, 32, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, 32, "%lld", (long long)ms);
	return buf;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int key_ok(const char *key)
{
	size_t n = strlen(key);

	if (n >= 4 && n <= 64 && strspn(key, "0123456789abcdef") == n)
		return 1;
	fprintf(stderr, "kwgen cache: \"%s\" is not a key (64 lower-case hex digits, the \"key\" of an answer, "
		"or its first 4 or more)\n", key);
	return 0;
}

static int64_t file_bytes(const char *path, const char *suffix)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return stat(p, &st) == 0 ? (int64_t)st.st_size : 0;
}

typedef struct stats_acc {
	int64_t oldest, newest;
	int n;
} stats_acc;

static int print_group(void *ud, const char *isa, int64_t entries, int64_t bytes, int64_t oldest, int64_t newest)
{
	stats_acc *a = ud;
	char b1[32], b2[32];

	if (!a->n++)
		printf("%-9s %10s %14s  %-19s  %-19s\n", "isa", "entries", "bytes", "least recent use", "most recent use");
	printf("%-9s %10lld %14lld  %-19s  %-19s\n", isa, (long long)entries, (long long)bytes, utc(b1, oldest),
	       utc(b2, newest));
	if (!a->oldest || oldest < a->oldest)
		a->oldest = oldest;
	if (newest > a->newest)
		a->newest = newest;
	return 0;
}

static int cmd_stats(kw_cache *c, const char *db, kw_error *err)
{
	kw_cache_stats st;
	stats_acc a = { 0, 0, 0 };
	int rc;

	if ((rc = kw_cache_stats_get(&st, c, err)) < 0)
		return rc;
	printf("file      %s\n", db);
	printf("entries   %lld\n", (long long)st.entries);
	printf("bytes     %lld (stored texts)\n", (long long)st.bytes);
	printf("on disk   %lld (file) + %lld (-wal)\n", (long long)file_bytes(db, ""),
	       (long long)file_bytes(db, "-wal"));
	return kw_cache_groups(c, print_group, &a, err);
}

/* The source as one short line: its --asm text without "// source: ". */
static void put_source(const char *json)
{
	json_t *v = json && *json ? json_loads(json, 0, NULL) : NULL;
	kw_buf b = KW_BUF_INIT;

	if (v && kw_text_source_line(&b, v) == 0 && b.len > 12)
		fwrite(b.p + 11, 1, b.len - 12, stdout);
	else
		fputs("-", stdout);
	kw_buf_free(&b);
	json_decref(v);
}

/* A verification row's version column holds the verifier's version (rows
 * written before it was kept apart hold the generator's). */
static int verifier_version(const kw_cache_row *r)
{
	return r->verification && !strncmp(r->generator_version, KW_CACHE_VERIFY_PREFIX, strlen(KW_CACHE_VERIFY_PREFIX));
}

static int print_row(void *ud, const kw_cache_row *r)
{
	char b[32];

	if (ud) {
		/* --json: one object per line */
		json_t *src = r->source[0] ? json_loads(r->source, 0, NULL) : NULL;
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:I,s:I}", "key", r->key, "kind",
				      r->verification ? "verification" : "kernel", "config_id", r->config_id,
				      verifier_version(r) ? "verifier" : "generator_version", r->generator_version,
				      "isa", r->isa, "bytes", (json_int_t)r->bytes, "created", (json_int_t)r->created,
				      "last_access", (json_int_t)r->last_access);

		if (o && src)
			json_object_set(o, "source", src);
		if (o && json_dumpf(o, stdout, JSON_COMPACT) == 0)
			putchar('\n');
		json_decref(src);
		json_decref(o);
		return 0;
	}
	printf("%s  %-8s %10lld  %s  ", r->key, r->isa, (long long)r->bytes, utc(b, r->last_access));
	if (r->verification)
		printf("verification (%s)", verifier_version(r) ? r->generator_version : "POST /v1/verify");
	else
		put_source(r->source);
	putchar('\n');
	return 0;
}

typedef struct show_opts {
	int json;
	int rc;
	kw_error *err;
} show_opts;

/* The stored response with the stored source as its "source" member (as
 * GET /v1/kernels/{key} serves it). */
static json_t *stored_answer(const kw_cache_row *r)
{
	json_t *o = json_loads(r->response, 0, NULL);
	json_t *src = r->source[0] ? json_loads(r->source, 0, NULL) : NULL;

	if (o && src)
		json_object_set(o, "source", src);
	json_decref(src);
	return o;
}

/* A verification's stored answer as text: its metadata, then one line per
 * finding (as `kwgen verify` prints them, the file being "request") and the
 * totals. */
static void print_verification(const kw_cache_row *r, const json_t *ans)
{
	const char *ver = json_string_value(json_object_get(ans, "verifier"));
	json_t *f, *totals = json_object_get(ans, "totals"), *n;
	const char *code;
	size_t i;
	int any = 0;
	char b[32];

	printf("// key: %s\n// kind: verification (POST /v1/verify)\n// verifier: %s\n// isa: %s\n", r->key,
	       ver ? ver : r->generator_version, r->isa);
	printf("// request: %s\n", r->request);
	printf("// bytes: %lld\n", (long long)r->bytes);
	printf("// created: %s UTC\n", utc(b, r->created));
	printf("// last used: %s UTC\n", utc(b, r->last_access));
	json_array_foreach(json_object_get(ans, "findings"), i, f) {
		json_t *off = json_object_get(f, "offset");

		printf("request:%lld: %s: %s: %s", (long long)json_integer_value(json_object_get(f, "line")),
		       json_string_value(json_object_get(f, "severity")) ? json_string_value(json_object_get(f, "severity")) : "?",
		       json_string_value(json_object_get(f, "code")) ? json_string_value(json_object_get(f, "code")) : "?",
		       json_string_value(json_object_get(f, "message")) ? json_string_value(json_object_get(f, "message")) : "");
		if (json_is_integer(off))
			printf(" (offset 0x%llx)", (unsigned long long)json_integer_value(off));
		putchar('\n');
	}
	printf("// findings:");
	json_object_foreach(totals, code, n)
		any += json_integer_value(n) != 0;
	if (!any)
		printf(" none");
	json_object_foreach(totals, code, n)
		if (json_integer_value(n))
			printf(" %s %lld", code, (long long)json_integer_value(n));
	if (json_is_true(json_object_get(ans, "truncated")))
		printf(" (list truncated)");
	printf("; %lld suppressed\n", (long long)json_integer_value(json_object_get(ans, "suppressed")));
}

static int print_entry(void *ud, const kw_cache_row *r)
{
	show_opts *o = ud;
	json_t *ans = stored_answer(r);
	char b[32];

	if (!ans) {
		o->rc = kw_error_set(o->err, KW_EIO, "response", "the stored response of %s is not JSON", r->key);
		return 1;
	}
	if (!o->json && r->verification) {
		print_verification(r, ans);
		json_decref(ans);
		return 1;
	}
	if (o->json) {
		json_dumpf(ans, stdout, JSON_INDENT(1));
		putchar('\n');
	} else {
		kw_buf t = KW_BUF_INIT;

		printf("// key: %s\n// config_id: %s\n// generator_version: %s\n// isa: %s\n", r->key, r->config_id,
		       r->generator_version, r->isa);
		printf("// bytes: %lld\n", (long long)r->bytes);
		printf("// created: %s UTC\n", utc(b, r->created));
		printf("// last used: %s UTC\n", utc(b, r->last_access));
		if ((o->rc = kw_text_render(&t, ans, o->err)) == 0 && t.len)
			fwrite(t.p, 1, t.len, stdout);
		kw_buf_free(&t);
	}
	json_decref(ans);
	return 1;
}

static int parse_days(int64_t *before_ms, const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(d) || d < 0 || d > 1e6) {
		fprintf(stderr, "kwgen cache: --older-than takes a number of days 0..1000000 (e.g. 30 or 0.5), not \"%s\"\n",
			s);
		return -1;
	}
	*before_ms = now_ms() - (int64_t)(d * 86400000.0);
	return 0;
}

/* Nonzero, with a message, when what was written to stdout may not have
 * arrived: the flush fails, or an earlier buffered write did (after which
 * fflush may succeed: ferror). */
static int stdout_error(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "kwgen cache: write error on standard output: %s\n", strerror(errno ? errno : EIO));
	return 1;
}

int kw_cli_cache(int argc, char **argv)
{
	kw_cache_options opt = KW_CACHE_OPTIONS_INIT;
	kw_error err = KW_ERROR_INIT;
	kw_cache *c = NULL;
	const char *db = "kwgen-cache.db", *cmd = NULL, *key = NULL;
	char full[65];
	int64_t limit = 0, before = INT64_MAX, n = 0;
	int json = 0, rc = 0, older = 0;
	struct stat st;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return stdout_error() ? 2 : 0;
		} else if (!strcmp(a, "--db") && i + 1 < argc) {
			db = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--limit") && i + 1 < argc) {
			char *end;

			limit = strtoll(argv[++i], &end, 10);
			if (*end || limit < 1) {
				fputs("kwgen cache: --limit takes a count of 1 or more\n", stderr);
				return 2;
			}
		} else if (!strcmp(a, "--older-than") && i + 1 < argc) {
			if (parse_days(&before, argv[++i]) < 0)
				return 2;
			older = 1;
		} else if (i + 1 == argc && (!strcmp(a, "--db") || !strcmp(a, "--limit") || !strcmp(a, "--older-than"))) {
			fprintf(stderr, "kwgen cache: %s needs a value (%s)\n", a,
				!strcmp(a, "--db") ? "the cache FILE" : !strcmp(a, "--limit") ? "a count" : "DAYS");
			return 2;
		} else if (a[0] == '-') {
			fprintf(stderr, "kwgen cache: unknown option %s\n", a);
			usage(stderr);
			return 2;
		} else if (!cmd) {
			cmd = a;
		} else if (!key) {
			key = a;
		} else {
			fprintf(stderr, "kwgen cache: unexpected argument %s\n", a);
			return 2;
		}
	}
	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (strcmp(cmd, "stats") && strcmp(cmd, "ls") && strcmp(cmd, "show") && strcmp(cmd, "rm") &&
	    strcmp(cmd, "purge")) {
		fprintf(stderr, "kwgen cache: unknown command \"%s\"; allowed: stats, ls, show KEY, rm KEY, purge\n", cmd);
		return 2;
	}
	if ((!strcmp(cmd, "show") || !strcmp(cmd, "rm")) != (key != NULL)) {
		fprintf(stderr, "kwgen cache: %s %s\n", cmd, key ? "takes no KEY" : "needs a KEY");
		return 2;
	}
	if (key && !key_ok(key))
		return 2;
	if ((json && strcmp(cmd, "show") && strcmp(cmd, "ls")) || (limit && strcmp(cmd, "ls")) ||
	    (older && strcmp(cmd, "purge"))) {
		fprintf(stderr, "kwgen cache: %s takes none of --json, --limit, --older-than but its own (kwgen cache --help)\n", cmd);
		return 2;
	}
	/* A missing file is an error, not an empty cache to create. */
	if (stat(db, &st) != 0) {
		fprintf(stderr, "kwgen cache: %s: %s (give the cache file with --db FILE)\n", db, strerror(errno));
		return 2;
	}
	opt.checkpoint_ms = 0;
	opt.skip_check = 1;
	opt.busy_timeout_ms = 5000; /* a person can wait for a daemon's write */
	if (kw_cache_open(&c, db, &opt, &err) < 0) {
		fprintf(stderr, "kwgen cache: %s\n", err.message);
		return 2;
	}
	/* a key prefix names the one key it starts */
	if (key && (rc = kw_cache_resolve(full, c, key, &err)) == 0)
		key = full;
	if (rc < 0) {
		/* reported below */
	} else if (!strcmp(cmd, "stats")) {
		rc = cmd_stats(c, db, &err);
	} else if (!strcmp(cmd, "ls")) {
		rc = kw_cache_list(c, limit, print_row, json ? &json : NULL, &err);
	} else if (!strcmp(cmd, "show")) {
		show_opts o = { json, 0, &err };

		rc = kw_cache_show(c, key, print_entry, &o, &err);
		if (rc == 0)
			rc = o.rc;
	} else if (!strcmp(cmd, "rm")) {
		if ((rc = kw_cache_delete(c, key, &err)) == 0)
			printf("deleted %s\n", key);
	} else {
		rc = kw_cache_purge(&n, c, before, &err);
		printf("purged %lld entries\n", (long long)n);
	}
	kw_cache_close(c);
	if (stdout_error())
		return 2;
	if (rc < 0) {
		fprintf(stderr, "kwgen cache: %s\n", err.message);
		return rc == KW_ENOTFOUND ? 1 : 2;
	}
	return 0;
}
