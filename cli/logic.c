/*
 * cli/logic.c - `kwgen logic FILE.yaml...`: read Tensile / hipBLASLt
 * library-logic files, turn each solution into a kwgen request and print
 * the requests as JSON lines, or post them in batches to a daemon.
 *
 * Reading is streamed (lib/logic/yaml.c), derivation is per solution
 * (lib/logic/derive.c), posting is batched (logic_post.c); this file holds the
 * options, the progress bar and the summary.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <curl/curl.h>
#include "logic_curl.h"
#include <openssl/evp.h>

#include "kwgen/arch.h"
#include "kwgen/request.h"
#include "kwgen/tokens.h"
#include "logic.h"
#include "logic_impl.h"

typedef struct opts {
	const char *server;
	long batch;
	int unique;
	const char *isa;
	json_t *generators;
	int progress;             /* -1 auto (a terminal), 0 off, 1 on */
	int quiet;
	const char *output;
	long timeout;
	long inflight;            /* batches in flight at once (--inflight) */
	kw_poster_opts post;      /* token, CA bundle */
} opts;

typedef struct stats {
	size_t files, file_errors, conn_errors;
	size_t solutions, requests, derive_errors, posted, hits, server_errors;
	json_t *errors;           /* error message -> times seen (each printed once) */
	json_t *seen_requests;    /* SHA-256 (hex) of the canonical request text -> true */
	json_t *seen_keys;        /* response key -> true */
} stats;

typedef struct run {
	const opts *o;
	stats *st;
	FILE *out;
	kw_poster *poster;
	json_t *batch;            /* pending requests */
	json_t *batch_where;      /* "FILE#index (line N)" per pending request */
	const char *name;
	char last_name[4096];     /* the last file's name (name may be freed): the final progress line */
	char isa[32];
	json_t *problem_type;
	long size;
	int show_progress;
	double last_draw;
	const char *out_name;     /* "standard output" or the -o FILE */
	int write_failed;         /* out could not be written: stop, exit 2 */
} run;

/* One JSON line to r->out.  A write that fails (a full disk, a closed
 * stdout) is an error that ends the run: returns KW_EIO with err naming the
 * output and the reason, else 0. */
static int put_line(run *r, const json_t *v, size_t flags, kw_error *err)
{
	errno = 0;
	if (json_dumpf(v, r->out, flags) == 0 && fputc('\n', r->out) != EOF && !ferror(r->out))
		return 0;
	r->write_failed = 1;
	return kw_error_set(err, KW_EIO, NULL, "write error on %s: %s", r->out_name, strerror(errno ? errno : EIO));
}

static void usage(FILE *f)
{
	fputs("usage: kwgen logic [options] FILE.yaml|DIR [...]   (- reads stdin)\n"
	      "Turn every solution of a Tensile/hipBLASLt logic file into a kwgen request.\n"
	      "A directory is walked recursively for *.yaml and *.yml files (hipBLASLt's\n"
	      "Logic/asm_full/<arch>/<gfx>/... layout), in name order.  Every request is\n"
	      "checked with libkwgen's own tables (ISA, generators, argument and key types)\n"
	      "before it is printed or posted; an error seen again is counted, not reprinted.\n"
	      "  --server URL       post the requests to a kwgend (POST URL/v1/kernels:batch)\n"
	      "                     instead of printing them; prints a summary with cache hits\n"
	      "  --token TOKEN      bearer token for a kwgend started with --auth-tokens\n"
	      "  --token-file FILE  read the token from FILE, kwgend's --auth-tokens format:\n"
	      "                     one token a line, # comments; the first token is sent\n"
	      "                     (default: the KWGEN_TOKEN environment variable)\n"
	      "  --cacert FILE      trust the CA certificates in FILE for https:// (default:\n"
	      "                     $CURL_CA_BUNDLE, else $SSL_CERT_FILE, else the system's;\n"
	      "                     $SSL_CERT_DIR names a directory of certificates)\n"
	      "  --batch N          requests per batch (default 64)\n"
	      "  --inflight N       batches in flight at once, over at most N connections\n"
	      "                     (1..64, default 4; 1 waits for each answer before\n"
	      "                     reading on)\n"
	      "  --unique           keep only the first of identical requests\n"
	      "  --isa GFX          ISA for every solution (default: the file's ArchitectureName)\n"
	      "  --generators LIST  comma-separated generator names, or a JSON array of\n"
	      "                     {\"name\", \"args\"} (default: all that apply)\n"
	      "  --timeout SEC      per HTTP exchange (default 120)\n"
	      "  -o FILE            write the JSON lines to FILE instead of stdout (- is\n"
	      "                     stdout; with --server: the answers)\n"
	      "  --progress, --no-progress   progress bar on stderr (default: when a terminal)\n"
	      "  -q, --quiet        no progress bar, no summary\n"
	      "Exit status: 0 every solution converted (and answered); 1 some solutions\n"
	      "failed; 2 a usage error or a file that cannot be read or is not a logic file.\n",
	      f);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "s" unless n is 1: "1 file", "2 files". */
static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/*
 * The progress line: the file being read (its path's end, so the file
 * name shows however deep the directory), how far into it, then the
 * running totals of the whole run, each named: files begun, solutions,
 * and, with --server, requests posted and cache hits among them (none
 * before the first batch is posted), errors.
 */
static void draw_progress(run *r, size_t offset, int final)
{
	if (!r->show_progress)
		return;
	double t = now_s();
	if (!final && t - r->last_draw < 0.1)
		return;
	r->last_draw = t;
	double frac = r->size > 0 ? (double)offset / (double)r->size : 0.0;
	if (final || frac > 1.0)
		frac = 1.0;
	char bar[21];
	int fill = (int)(frac * 20.0);
	for (int i = 0; i < 20; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[20] = '\0';
	size_t len = strlen(r->name), nerr = r->st->derive_errors + r->st->server_errors;
	const char *tail = len > 40 ? r->name + len - 37 : r->name;
	char posted[80] = "";
	if (r->poster && !r->st->posted)
		snprintf(posted, sizeof posted, ", none posted yet");
	else if (r->poster)
		snprintf(posted, sizeof posted, ", %zu posted, %zu hit%s", r->st->posted, r->st->hits,
			 plural(r->st->hits));
	fprintf(stderr, "\r%s%s [%s] %3d%% | %zu file%s, %zu solution%s%s, %zu error%s\033[K%s", len > 40 ? "..." : "",
		tail, bar, (int)(frac * 100.0), r->st->files, plural(r->st->files), r->st->solutions,
		plural(r->st->solutions), posted, nerr, plural(nerr), final ? "\n" : "");
	fflush(stderr);
}

/* Report one error: printed with where it happened the first time its
 * message is seen; later identical messages are only counted (the summary
 * gives the counts).  Returns KW_ENOMEM or 0. */
/* rid: the daemon's request id of the batch that answered msg, or NULL
 * (printed, not part of the counted message). */
static int report_rid(run *r, const char *where, const char *msg, const char *rid)
{
	json_t *n = json_object_get(r->st->errors, msg);

	if (n)
		return json_integer_set(n, json_integer_value(n) + 1) ? KW_ENOMEM : 0;
	if (r->show_progress)
		fputc('\n', stderr);
	fprintf(stderr, "kwgen logic: %s: %s%s%s%s\n", where, msg, rid && *rid ? " (request id " : "",
		rid && *rid ? rid : "", rid && *rid ? ")" : "");
	return json_object_set_new(r->st->errors, msg, json_integer(1)) ? KW_ENOMEM : 0;
}

static int report(run *r, const char *where, const char *msg)
{
	return report_rid(r, where, msg, NULL);
}

/* Take the answer of the oldest batch in flight and account for it: the
 * answers are taken in the order the batches were sent, so the counts,
 * the errors (with the batch's request id) and -o's lines come out as with
 * one batch at a time. */
static int take_answer(run *r, kw_error *err)
{
	json_t *results = NULL, *where = NULL;
	int rc = kw_poster_next(&results, &where, r->poster, err);
	if (rc < 0) {
		json_decref(where);
		return rc;
	}
	size_t n = json_array_size(results);
	r->st->posted += n;
	for (size_t i = 0; i < n && rc == 0; i++) {
		json_t *it = json_array_get(results, i);
		json_t *resp = json_object_get(it, "response");
		json_int_t status = json_integer_value(json_object_get(it, "status"));
		if (!json_is_object(resp) || (status && status != 200)) {
			const json_t *e = json_object_get(it, "error");
			const char *msg = json_string_value(json_object_get(e, "message"));
			if (!msg)
				msg = json_string_value(e);
			char text[700];
			r->st->server_errors++;
			snprintf(text, sizeof text, "server error %lld: %s", (long long)status, msg ? msg : "(no message)");
			if (report_rid(r, json_string_value(json_array_get(where, i)), text,
				       kw_poster_request_id(r->poster)))
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			continue;
		}
		if (json_is_true(json_object_get(resp, "cached")))
			r->st->hits++;
		const char *key = json_string_value(json_object_get(resp, "key"));
		if (key && json_object_set_new(r->st->seen_keys, key, json_true()) < 0)
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		else if (r->out && put_line(r, resp, JSON_COMPACT, err))
			rc = KW_EIO;
	}
	json_decref(results);
	json_decref(where);
	return rc;
}

/* Take every answer still to come. */
static int drain(run *r, kw_error *err)
{
	int rc = 0;
	while (rc == 0 && r->poster && kw_poster_inflight(r->poster) > 0)
		rc = take_answer(r, err);
	return rc;
}

/* Send the pending batch, taking the oldest answer first when --inflight
 * batches are already out (--inflight 1: send, then wait for its answer). */
static int flush_batch(run *r, kw_error *err)
{
	size_t n = json_array_size(r->batch);
	if (n == 0)
		return 0;
	int rc = 0;
	if (kw_poster_inflight(r->poster) >= kw_poster_slots(r->poster))
		rc = take_answer(r, err);
	json_t *next_where = rc == 0 ? json_array() : NULL;
	if (rc == 0 && !next_where)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	if (rc == 0) {
		rc = kw_poster_send(r->poster, r->batch, r->batch_where, err);
		r->batch_where = next_where;
		json_array_clear(r->batch);
	} else {
		json_decref(next_where);
	}
	if (rc == 0 && kw_poster_slots(r->poster) == 1)
		rc = take_answer(r, err);
	return rc;
}

/* req.source = {"file": name, "SolutionIndex": the solution's own index
 * (else its position in the list), "SolutionNameMin" (when the solution
 * has one)}: every answer can be matched back to its solution.  Returns 0,
 * -1 when out of memory. */
/* name as a JSON string: a file name need not be UTF-8 (JSON strings
 * must), so a byte that does not start a valid sequence becomes U+FFFD.
 * jansson decides what is valid.  NULL when out of memory. */
static json_t *name_string(const char *name)
{
	json_t *j = json_string(name);
	if (j)
		return j;
	size_t len = strlen(name), o = 0;
	char *buf = malloc(3 * len + 1);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		size_t n = 1;
		if ((unsigned char)name[i] >= 0x80) {
			for (n = 2; n <= 4 && i + n <= len; n++) {
				json_t *t = json_stringn(name + i, n);
				if (t) {
					json_decref(t);
					break;
				}
			}
			if (n > 4 || i + n > len) { /* not the start of a valid sequence */
				memcpy(buf + o, "\xEF\xBF\xBD", 3);
				o += 3;
				continue;
			}
		}
		memcpy(buf + o, name + i, n);
		o += n;
		i += n - 1;
	}
	buf[o] = '\0';
	j = json_string(buf);
	free(buf);
	return j;
}

static int add_source(json_t *req, const char *name, const kw_yaml_item *it)
{
	const json_t *idx = json_object_get(it->value, "SolutionIndex");
	const json_t *nm = json_object_get(it->value, "SolutionNameMin");
	json_t *src = json_pack("{s:o,s:I}", "file", name_string(name), "SolutionIndex",
				json_is_integer(idx) && json_integer_value(idx) >= 0 && json_integer_value(idx) <= 2147483647
					? json_integer_value(idx) : (json_int_t)it->index);

	if (src && json_is_string(nm) && json_object_set(src, "SolutionNameMin", (json_t *)nm) < 0) {
		json_decref(src);
		return -1;
	}
	return src && json_object_set_new(req, "source", src) == 0 ? 0 : -1;
}

static int on_solution(run *r, const kw_yaml_item *it, kw_error *err)
{
	kw_logic_ctx ctx = { r->isa[0] ? r->isa : NULL, r->problem_type, r->o->generators };
	json_t *req = NULL;
	kw_error derr = KW_ERROR_INIT;
	r->st->solutions++;
	int rc = kw_logic_request(&req, it->value, &ctx, &derr);
	if (rc == KW_ENOMEM)
		return kw_error_set(err, rc, NULL, "out of memory");
	if (rc == 0) { /* the checks kwgend makes, with the same tables (libkwgen) */
		kw_request *kr = NULL;
		rc = kw_request_parse(&kr, req, NULL, &derr);
		kw_request_free(kr);
		if (rc == KW_ENOMEM) {
			json_decref(req);
			return kw_error_set(err, rc, NULL, "out of memory");
		}
		if (rc < 0) {
			json_decref(req);
			req = NULL;
		}
	}
	if (rc < 0) {
		char where[300];
		r->st->derive_errors++;
		snprintf(where, sizeof where, "%.200s: solution #%zu (line %lu)", r->name, it->index, it->line);
		if (report(r, where, derr.message))
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		draw_progress(r, it->offset, 0);
		return 0;
	}
	char *canon = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	if (!canon) {
		json_decref(req);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	/* The digest, not the text, is kept: a tree of 10^5..10^6 solutions
	 * would otherwise hold ~1.5 KB per unique request for the whole run. */
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char seen[2 * EVP_MAX_MD_SIZE + 1];
	if (EVP_Digest(canon, strlen(canon), md, &mdlen, EVP_sha256(), NULL) != 1) {
		free(canon);
		json_decref(req);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory (hashing a request)");
	}
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(seen + 2 * i, 3, "%02x", md[i]);
	int dup = json_object_get(r->st->seen_requests, seen) != NULL;
	if (!dup && json_object_set_new(r->st->seen_requests, seen, json_true()) < 0)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	/* Where it came from (after the duplicate check: two solutions with
	 * the same configuration are the same request). */
	if (rc == 0 && add_source(req, r->name, it) < 0)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	if (rc == 0 && !(dup && r->o->unique)) {
		r->st->requests++;
		if (r->poster) {
			char where[300];
			snprintf(where, sizeof where, "%.200s solution #%zu (line %lu)", r->name, it->index, it->line);
			if (json_array_append(r->batch, req) < 0 ||
			    json_array_append_new(r->batch_where, name_string(where)) < 0)
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			else if ((long)json_array_size(r->batch) >= r->o->batch)
				rc = flush_batch(r, err);
			else if ((r->st->requests & 15) == 0)
				kw_poster_pump(r->poster); /* the answers in flight keep coming in */
		} else {
			rc = put_line(r, req, JSON_COMPACT | JSON_SORT_KEYS, err);
		}
	}
	free(canon);
	json_decref(req);
	draw_progress(r, it->offset, 0);
	return rc;
}

static int on_item(void *ud, const kw_yaml_item *it, kw_error *err)
{
	run *r = ud;
	if (it->solution)
		return on_solution(r, it, err);
	int is_arch = it->key ? strcmp(it->key, "ArchitectureName") == 0 : it->index == 2;
	int is_pt = it->key ? strcmp(it->key, "ProblemType") == 0 : it->index == 4;
	if (it->index == 0 && !it->key && !json_is_object(it->value))
		return kw_error_set(err, KW_ESYNTAX, NULL,
				    "%s:%lu: not a Tensile logic file: the first item should be {MinimumRequiredVersion: ...}",
				    r->name, it->line);
	if (is_arch && !r->o->isa) {
		if (kw_logic_arch_name(r->isa, sizeof r->isa, it->value) < 0)
			return kw_error_set(err, KW_ESYNTAX, NULL,
					    "%s:%lu: the architecture item should name a gfx target (\"gfx942\")", r->name, it->line);
	}
	if (is_pt && json_is_object(it->value)) {
		json_decref(r->problem_type);
		r->problem_type = json_incref((json_t *)it->value);
	}
	return 0;
}

static int run_file(run *r, const char *path, kw_error *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return kw_error_set(err, KW_EIO, NULL, "%s: %s", path, strerror(errno));
	struct stat sb;
	if (f != stdin && fstat(fileno(f), &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode) &&
	    !S_ISCHR(sb.st_mode)) {
		fclose(f);
		return kw_error_set(err, KW_EIO, NULL, "%s: not a regular file", path);
	}
	r->size = (f != stdin && fstat(fileno(f), &sb) == 0) ? (long)sb.st_size : 0;
	r->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	r->isa[0] = '\0';
	if (r->o->isa)
		snprintf(r->isa, sizeof r->isa, "%s", r->o->isa);
	r->last_draw = 0;
	size_t before = r->st->solutions;
	int rc = kw_yaml_logic_read(f, r->name, on_item, r, err);
	if (f != stdin)
		fclose(f);
	json_decref(r->problem_type);
	r->problem_type = NULL;
	if (rc == 0 && r->st->solutions == before)
		rc = kw_error_set(err, KW_ESYNTAX, NULL,
				  "%s: not a Tensile logic file: no solutions found (a logic file is a list "
				  "[version, schedule, architecture, devices, problem type, solutions, ...], "
				  "or a mapping with a Solutions list)", r->name);
	if (rc == 0 && r->poster)
		rc = flush_batch(r, err);
	if (rc == 0)
		draw_progress(r, (size_t)r->size, 1);
	snprintf(r->last_name, sizeof r->last_name, "%s", r->name);
	if (rc != 0 && r->show_progress)
		fputc('\n', stderr);
	return rc;
}

/* "wait,syncThreads" or a JSON array such as
 * [{"name":"wait","args":{"skipGlobalRead":0}}] (kw_logic_generators). */
static int parse_generators(opts *o, const char *list)
{
	o->generators = NULL;
	return kw_logic_generators(&o->generators, list, NULL) < 0 ? -1 : 0;
}

/* --isa and --generators checked with libkwgen's tables, as kwgend checks
 * them: a probe request with an empty kernel (kernel keys are checked when
 * a generator runs, so only the ISA and the generator list are judged). */
static int check_options(const opts *o)
{
	kw_error e = KW_ERROR_INIT;

	if (o->isa) {
		const kw_isa_info *info;
		json_t *v = json_string(o->isa);
		int rc = v ? kw_isa_parse(&info, v, &e) : KW_ENOMEM;
		json_decref(v);
		if (rc) {
			fprintf(stderr, "kwgen logic: --isa %s: %s\n", o->isa, e.message);
			return 2;
		}
	}
	if (o->generators) {
		kw_request *kr = NULL;
		json_t *probe = json_pack("{s:s,s:{},s:O}", "isa", "gfx942", "kernel", "generators", o->generators);
		int rc = probe ? kw_request_parse(&kr, probe, NULL, &e) : KW_ENOMEM;
		kw_request_free(kr);
		json_decref(probe);
		if (rc) {
			fprintf(stderr, "kwgen logic: --generators: %s\n", e.message);
			return 2;
		}
	}
	return 0;
}

/* Files of a directory tree, *.yaml / *.yml, for walk_dir (nftw has no user pointer). */
static struct {
	char **paths;
	size_t n, cap;
	int oom;
	int skip;           /* 1: the file (skip_dev, skip_ino) is -o's: not an input */
	dev_t skip_dev;
	ino_t skip_ino;
} walk;

static int on_walk(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)ftw;
	size_t len = strlen(path);
	if (type != FTW_F || !((len > 5 && !strcmp(path + len - 5, ".yaml")) || (len > 4 && !strcmp(path + len - 4, ".yml"))))
		return 0;
	if (walk.skip && sb->st_dev == walk.skip_dev && sb->st_ino == walk.skip_ino)
		return 0; /* the -o file being written */
	if (!S_ISREG(sb->st_mode)) { /* a FIFO would block the walk for ever, a device never ends */
		fprintf(stderr, "kwgen logic: %s: not a regular file (a FIFO, device or socket): skipped\n", path);
		return 0;
	}
	if (walk.n == walk.cap) {
		size_t cap = walk.cap ? 2 * walk.cap : 64;
		char **p = realloc(walk.paths, cap * sizeof *p);
		if (!p) {
			walk.oom = 1;
			return 1;
		}
		walk.paths = p;
		walk.cap = cap;
	}
	if (!(walk.paths[walk.n] = strdup(path))) {
		walk.oom = 1;
		return 1;
	}
	walk.n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_free(void)
{
	for (size_t i = 0; i < walk.n; i++)
		free(walk.paths[i]);
	free(walk.paths);
	walk.paths = NULL;
	walk.n = walk.cap = 0;
	walk.oom = 0;
}

/* Run every logic file under dir (sorted, so the output does not depend on
 * the file system's order). */
static int run_dir(run *r, const char *dir, int *status)
{
	kw_error err = KW_ERROR_INIT;
	int rc = 0;

	walk_free();
	if (nftw(dir, on_walk, 32, FTW_PHYS) != 0 || walk.oom) {
		fprintf(stderr, "kwgen logic: %s: %s\n", dir, walk.oom ? "out of memory" : strerror(errno));
		r->st->file_errors++;
		*status = 2;
		walk_free();
		return walk.oom ? KW_ENOMEM : 0;
	}
	if (walk.n == 0) {
		fprintf(stderr, "kwgen logic: %s: no *.yaml or *.yml file under this directory\n", dir);
		r->st->file_errors++;
		*status = 2;
	}
	if (walk.n)
		qsort(walk.paths, walk.n, sizeof *walk.paths, cmp_str);
	for (size_t i = 0; i < walk.n && rc != KW_ENOMEM; i++) {
		kw_error_clear(&err);
		r->st->files++;
		rc = run_file(r, walk.paths[i], &err);
		if (rc < 0) {
			fprintf(stderr, "kwgen logic: %s\n", err.message);
			if (rc == KW_EIO && r->poster && strstr(err.message, "POST "))
				r->st->conn_errors++;
			else if (!r->write_failed)
				r->st->file_errors++;
			*status = 2;
			json_array_clear(r->batch);
			json_array_clear(r->batch_where);
			if (r->write_failed || (rc == KW_EIO && r->poster && strstr(err.message, "POST ")))
				break;
		}
	}
	walk_free();
	return rc == KW_ENOMEM || r->write_failed || (rc == KW_EIO && r->poster && strstr(err.message, "POST ")) ? rc : 0;
}

/* The first token of a --token-file (kwgend's --auth-tokens format). */
typedef struct first_token {
	char *buf;
	size_t cap;
	int got;
} first_token;

static int keep_first(const char *tok, size_t len, void *ud)
{
	first_token *ft = ud;

	if (!ft->got && len < ft->cap) {
		memcpy(ft->buf, tok, len + 1);
		ft->got = 1;
	}
	return 0;
}

/* --token-file FILE: the file kwgend's --auth-tokens reads (kwgen/tokens.h),
 * read by the same code; its first token is sent. */
static int read_token_file(opts *o, const char *path, char *buf, size_t n)
{
	first_token ft = { buf, n, 0 };
	kw_error err = KW_ERROR_INIT;

	if (kw_tokens_read(path, "--token-file", keep_first, &ft, &err)) {
		fprintf(stderr, "kwgen logic: %s\n", err.message[0] ? err.message : "out of memory");
		return 2;
	}
	o->post.token = buf;
	return 0;
}

int kw_cli_logic(int argc, char **argv)
{
	opts o = { NULL, 64, 0, NULL, NULL, -1, 0, NULL, 120, 4, { NULL, NULL, NULL } };
	stats st;
	static char token_buf[KW_TOKEN_MAX + 1];
	memset(&st, 0, sizeof st);
	int i = 1, status = 0, nfiles = 0;
	/* Accept both ("logic", args...) and (prog, "logic", args...). */
	if (argc > 1 && strcmp(argv[1], "logic") == 0 && (!argv[0] || strcmp(argv[0], "logic") != 0))
		i = 2;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files)
		return 2;
	int opts_done = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;
		char name[64];
		const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
		if (opts_done || strcmp(a, "-") == 0 || a[0] != '-') {
			files[nfiles++] = a; /* after --, even "-x.yaml" is a file */
			continue;
		}
		if (strcmp(a, "--") == 0) {
			opts_done = 1;
			continue;
		}
		if (eq && (size_t)(eq - a) < sizeof name) { /* --name=value, as kwgend takes it */
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			a = name;
			v = eq + 1;
			takes = 0;
		}
		if (strcmp(a, "--server") == 0 && v)
			o.server = v;
		else if (strcmp(a, "--batch") == 0 && v) {
			char *end;
			o.batch = strtol(v, &end, 10);
			if (*end || o.batch < 1 || o.batch > 10000) {
				fprintf(stderr, "kwgen logic: --batch wants 1..10000, not %s\n", v);
				status = 2;
			}
		} else if (strcmp(a, "--inflight") == 0 && v) {
			char *end;
			errno = 0;
			o.inflight = strtol(v, &end, 10);
			if (end == v || *end || errno || o.inflight < 1 || o.inflight > KW_POSTER_MAX_INFLIGHT) {
				fprintf(stderr, "kwgen logic: --inflight wants 1..%d, not %s\n", KW_POSTER_MAX_INFLIGHT, v);
				status = 2;
			}
		} else if (strcmp(a, "--timeout") == 0 && v) {
			char *end;
			o.timeout = strtol(v, &end, 10);
			if (*end || o.timeout < 1) {
				fprintf(stderr, "kwgen logic: --timeout wants seconds >= 1, not %s\n", v);
				status = 2;
			}
		} else if (strcmp(a, "--isa") == 0 && v) {
			if (strncmp(v, "gfx", 3) != 0 || strlen(v) >= 32) {
				fprintf(stderr, "kwgen logic: --isa wants a gfx name such as gfx942, not %s\n", v);
				status = 2;
			}
			o.isa = v;
		} else if (strcmp(a, "--generators") == 0 && v) {
			json_decref(o.generators);
			if (parse_generators(&o, v) < 0) {
				fprintf(stderr, "kwgen logic: --generators wants a comma-separated list of names "
					"or a non-empty JSON array\n");
				status = 2;
			}
		} else if (strcmp(a, "--token") == 0 && v) {
			o.post.token = v;
		} else if (strcmp(a, "--token-file") == 0 && v) {
			if (read_token_file(&o, v, token_buf, sizeof token_buf))
				status = 2;
		} else if (strcmp(a, "--cacert") == 0 && v) {
			o.post.cacert = v;
		} else if (strcmp(a, "-o") == 0 && v)
			o.output = v;
		else if (eq) {
			fprintf(stderr, "kwgen logic: unknown option %s (or it takes no value)\n", argv[i]);
			status = 2;
		} else {
			takes = 0;
			if (strcmp(a, "--unique") == 0)
				o.unique = 1;
			else if (strcmp(a, "--progress") == 0)
				o.progress = 1;
			else if (strcmp(a, "--no-progress") == 0)
				o.progress = 0;
			else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
				o.quiet = 1;
			else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
				errno = 0;
				usage(stdout);
				free(files);
				json_decref(o.generators);
				if (fflush(stdout) != 0 || ferror(stdout)) {
					fprintf(stderr, "kwgen logic: write error on standard output: %s\n",
						strerror(errno ? errno : EIO));
					return 2;
				}
				return 0;
			} else if (a[0] == '-' && a[1] != '\0') {
				fprintf(stderr, "kwgen logic: unknown option %s (or it lacks its value)\n", a);
				status = 2;
			} else
				files[nfiles++] = a;
		}
		i += takes;
	}
	if (status == 0 && nfiles == 0) {
		fprintf(stderr, "kwgen logic: no logic file given\n");
		status = 2;
	}
	if (!o.post.token && getenv("KWGEN_TOKEN") && *getenv("KWGEN_TOKEN"))
		o.post.token = getenv("KWGEN_TOKEN");
	if (!o.post.cacert) { /* what the curl tool honours; libcurl itself does not read them */
		const char *env[] = { "CURL_CA_BUNDLE", "SSL_CERT_FILE" };
		for (int k = 0; k < 2 && !o.post.cacert; k++)
			if (getenv(env[k]) && *getenv(env[k]))
				o.post.cacert = getenv(env[k]);
	}
	if (getenv("SSL_CERT_DIR") && *getenv("SSL_CERT_DIR"))
		o.post.capath = getenv("SSL_CERT_DIR");
	if (status) {
		usage(stderr);
		free(files);
		json_decref(o.generators);
		return status;
	}
	if ((status = check_options(&o))) {
		free(files);
		json_decref(o.generators);
		return status;
	}

	run r;
	memset(&r, 0, sizeof r);
	r.o = &o;
	r.st = &st;
	r.show_progress = o.quiet ? 0 : o.progress >= 0 ? o.progress : isatty(fileno(stderr));
	st.seen_requests = json_object();
	st.seen_keys = json_object();
	st.errors = json_object();
	r.batch = json_array();
	r.batch_where = json_array();
	kw_error err = KW_ERROR_INIT;
	int curl_up = 0;
	r.out = stdout;
	int out_dash = o.output && strcmp(o.output, "-") == 0; /* -o -: standard output, also with --server */
	const char *out_file = out_dash ? NULL : o.output;
	r.out_name = out_file ? out_file : "standard output";
	struct stat osb;
	if (out_file && stat(out_file, &osb) == 0 && S_ISREG(osb.st_mode)) {
		/* "w" truncates: an input named again as -o would be lost unread */
		for (int f = 0; f < nfiles; f++) {
			struct stat isb;
			if (strcmp(files[f], "-") != 0 && stat(files[f], &isb) == 0 && isb.st_dev == osb.st_dev &&
			    isb.st_ino == osb.st_ino) {
				fprintf(stderr, "kwgen logic: -o %s is also an input file: it would be emptied before it "
					"is read\n", out_file);
				status = 2;
				r.out = NULL;
				goto done;
			}
		}
	}
	if (out_file && !(r.out = fopen(out_file, "w"))) {
		fprintf(stderr, "kwgen logic: %s: %s\n", out_file, strerror(errno));
		status = 2;
		r.out = NULL;
		goto done;
	}
	if (r.out && r.out != stdout && fstat(fileno(r.out), &osb) == 0) {
		walk.skip = 1;
		walk.skip_dev = osb.st_dev;
		walk.skip_ino = osb.st_ino;
	}
	if (!st.seen_requests || !st.seen_keys || !st.errors || !r.batch || !r.batch_where) {
		fprintf(stderr, "kwgen logic: out of memory\n");
		status = 2;
		goto done;
	}
	if (o.server) {
		char why[256];
		if (kw_curl_load(why, sizeof(why))) {
			fprintf(stderr, "kwgen logic: %s\n", why);
			status = 2;
			goto done;
		}
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			fprintf(stderr, "kwgen logic: libcurl failed to initialise\n");
			status = 2;
			goto done;
		}
		curl_up = 1;
		if (kw_poster_new(&r.poster, o.server, o.timeout, o.inflight, &o.post, &err) < 0) {
			fprintf(stderr, "kwgen logic: %s\n", err.message);
			status = 2;
			goto done;
		}
		if (!o.output)
			r.out = NULL; /* with --server, responses go to -o FILE only */
	}
	int stopped = 0;          /* a fatal error: what is in flight is dropped */
	for (int f = 0; f < nfiles; f++) {
		struct stat sb;
		int rc;
		kw_error_clear(&err);
		if (strcmp(files[f], "-") != 0 && stat(files[f], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			rc = run_dir(&r, files[f], &status);
			if (rc < 0) {
				stopped = 1;
				break;
			}
			continue;
		}
		st.files++;
		rc = run_file(&r, files[f], &err);
		if (rc < 0) {
			fprintf(stderr, "kwgen logic: %s\n", err.message);
			if (rc == KW_EIO && r.poster && strstr(err.message, "POST "))
				st.conn_errors++;
			else if (!r.write_failed)
				st.file_errors++;
			status = 2;
			json_array_clear(r.batch);
			json_array_clear(r.batch_where);
			if (rc == KW_ENOMEM || r.write_failed || (rc == KW_EIO && r.poster && strstr(err.message, "POST "))) {
				stopped = 1;
				break;
			}
		}
	}
	if (!stopped && r.poster) { /* the batches still in flight */
		kw_error_clear(&err);
		size_t pending = kw_poster_inflight(r.poster);
		int drc = drain(&r, &err);
		if (pending && drc == 0) { /* the counts of the answers just taken */
			r.name = r.last_name;
			draw_progress(&r, (size_t)r.size, 1);
		}
		if (drc < 0) {
			fprintf(stderr, "kwgen logic: %s\n", err.message);
			if (strstr(err.message, "POST "))
				st.conn_errors++;
			status = 2;
		}
	}
	/* What was written must have arrived: the last buffered bytes too. */
	if (r.out && !r.write_failed) {
		errno = 0;
		int bad = fflush(r.out) != 0 || ferror(r.out);
		if (r.out != stdout && fclose(r.out) != 0)
			bad = 1;
		if (r.out != stdout)
			r.out = NULL;
		if (bad) {
			fprintf(stderr, "kwgen logic: write error on %s: %s\n", r.out_name, strerror(errno ? errno : EIO));
			r.write_failed = 1;
		}
	}
	if (r.write_failed)
		status = 2;
	if (status == 0 && (st.derive_errors || st.server_errors))
		status = 1;
	if (!o.quiet) {
		size_t uniq = json_object_size(st.seen_requests);
		size_t nerr = st.file_errors + st.conn_errors + st.derive_errors + st.server_errors;
		char errs[240];
		size_t ndist = json_object_size(st.errors) + st.file_errors + (r.poster ? st.conn_errors : 0);
		if (nerr && r.poster)
			snprintf(errs, sizeof errs, "%zu error%s (%zu in files, %zu in solutions, %zu answered by the server, "
				 "%zu exchange%s failed; %zu distinct message%s)",
				 nerr, plural(nerr), st.file_errors, st.derive_errors, st.server_errors, st.conn_errors,
				 plural(st.conn_errors), ndist, plural(ndist));
		else if (nerr)
			snprintf(errs, sizeof errs, "%zu error%s (%zu in files, %zu in solutions; %zu distinct message%s)",
				 nerr, plural(nerr), st.file_errors, st.derive_errors, ndist, plural(ndist));
		else
			snprintf(errs, sizeof errs, "no errors");
		if (r.write_failed) { /* the output is incomplete whatever else happened */
			size_t l = strlen(errs);
			snprintf(errs + l, sizeof errs - l, ", the output incomplete (write error)");
		}
		const char *msg;
		json_t *cnt;
		json_object_foreach(st.errors, msg, cnt)
			if (json_integer_value(cnt) > 1)
				fprintf(stderr, "kwgen logic: %lld times: %s\n", (long long)json_integer_value(cnt), msg);
		if (r.poster) {
			size_t keys = json_object_size(st.seen_keys);
			fprintf(stderr,
				"kwgen logic: %zu file%s, %zu solution%s, %zu unique request%s, %zu posted, %zu unique key%s, "
				"%zu cache hit%s (%.1f%%), %s; exit %d\n",
				st.files, plural(st.files), st.solutions, plural(st.solutions), uniq, plural(uniq), st.posted,
				keys, plural(keys), st.hits, plural(st.hits),
				st.posted ? 100.0 * (double)st.hits / (double)st.posted : 0.0, errs, status);
		} else {
			fprintf(stderr, "kwgen logic: %zu file%s, %zu solution%s, %zu unique request%s, %zu written, %s; exit %d\n",
				st.files, plural(st.files), st.solutions, plural(st.solutions), uniq, plural(uniq), st.requests,
				errs, status);
		}
	}
done:
	if (r.out && r.out != stdout)
		fclose(r.out);
	else if (r.out)
		fflush(r.out);
	kw_poster_free(r.poster);
	if (curl_up)
		curl_global_cleanup();
	json_decref(r.batch);
	json_decref(r.batch_where);
	json_decref(r.problem_type);
	json_decref(st.seen_requests);
	json_decref(st.seen_keys);
	json_decref(st.errors);
	json_decref(o.generators);
	free(files);
	return status;
}
