/*
 * fuzz_http.c - libFuzzer harness: kwgend's request handling without
 * sockets.  The input is "PATH\nBODY": the first line is the request path
 * (with an optional "?cache=bypass" query), routed as kwgend routes it -
 *   /v1/kernels           POST: kw_kernels_post (JSON or text answer)
 *   /v1/kernels:batch     POST: kw_kernels_batch (the batch is split and each
 *                         item answered as a single request)
 *   /v1/kernels/KEY       GET: kw_kernels_get, then DELETE: kw_kernels_delete
 * - and the rest is the body, parsed by the daemon's own code
 * (JSON_REJECT_DUPLICATES, its limits: --max-batch 8, the default request
 * limits).  Work that must generate becomes a job, run by the daemon's own
 * worker pool (two workers) and waited for as kwgend's suspended request
 * waits.  Answers are stored in a real SQLite cache (a temporary file,
 * bounded to 4 MiB) and the hot-cache memo, so repeats take the hit paths.
 *
 * Properties (abort() on violation): every reply has a status in 200..599
 * other than 500 and a body; a JSON body parses (with duplicate keys
 * rejected) to an object; an error body is {"error": {"code", "message",
 * "field"}} with a non-empty code and message; a batch answers one result
 * per request.  Everything is freed, so LeakSanitizer sees leaks.
 *
 * Build and run: make fuzz (mk/fuzz.mk).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "kernels.h"
#include "log.h"
#include "reply.h"
#include "server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static kw_srv S;
static char db_path[64];

static void cleanup(void)
{
	kw_work_stop(S.work);
	kw_work_free(S.work);
	kw_flights_free(S.flights);
	kw_memo_free(S.memo);
	kw_cache_close(S.cache);
	unlink(db_path);
	for (const char *sfx = "-wal"; sfx; sfx = strcmp(sfx, "-wal") == 0 ? "-shm" : NULL) {
		char p[80];

		snprintf(p, sizeof(p), "%s%s", db_path, sfx);
		unlink(p);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const kw_limits limits = KW_LIMITS_INIT;
	kw_cache_options copt = KW_CACHE_OPTIONS_INIT;
	kw_error e = KW_ERROR_INIT;
	int fd;

	(void)argc;
	(void)argv;
	snprintf(db_path, sizeof(db_path), "/tmp/kwgen-fuzz-http-XXXXXX");
	if ((fd = mkstemp(db_path)) < 0)
		abort();
	close(fd);
	unlink(db_path);
	S.cfg.db_path = db_path;
	S.cfg.threads = 1;
	S.cfg.max_cache_bytes = 4 << 20;
	S.cfg.max_body_bytes = 1 << 20;
	S.cfg.max_batch = 8;
	S.cfg.busy_timeout_ms = 1000;
	S.cfg.hot_bytes = 1 << 20;
	S.cfg.max_inflight = 4;
	S.cfg.max_response_bytes = 1 << 20;
	S.cfg.workers = 2;
	S.limits = limits;
	kw_admit_init(&S.admit, 4);
	copt.max_bytes = S.cfg.max_cache_bytes;
	copt.checkpoint_ms = 0;
	if (kw_cache_open(&S.cache, db_path, &copt, &e) < 0)
		abort();
	if (!(S.flights = kw_flights_new()) || !(S.memo = kw_memo_new(1024, S.cfg.hot_bytes, 1000)) ||
	    !(S.work = kw_work_new(S.cfg.workers)))
		abort();
	kw_log_set_level(0);
	atexit(cleanup);
	return 0;
}

/* An error body: {"error": {"code": "...", "message": "...", "field": ...}}. */
static void check_error_body(const json_t *body)
{
	json_t *err = json_object_get(body, "error");

	if (!json_is_object(err))
		abort();
	if (!json_is_string(json_object_get(err, "code")) || !json_string_length(json_object_get(err, "code")))
		abort();
	if (!json_is_string(json_object_get(err, "message")) ||
	    !json_string_length(json_object_get(err, "message")))
		abort();
}

static void check_reply(const kw_reply *r, int head_ok)
{
	json_error_t jerr;
	json_t *body;

	if (r->status < 200 || r->status > 599 || r->status == 500)
		abort();
	if (r->status == 304 && head_ok)
		return;
	if (!r->body || !r->len)
		abort();
	if (r->content_type && strncmp(r->content_type, "application/json", 16) != 0)
		return; /* text answers */
	if (!(body = json_loadb(r->body, r->len, JSON_REJECT_DUPLICATES, &jerr)) || !json_is_object(body))
		abort();
	if (r->status >= 400)
		check_error_body(body);
	json_decref(body);
}

static size_t count_requests(const char *body, size_t len)
{
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
	json_t *reqs = json_object_get(root, "requests");
	size_t n = json_is_array(reqs) ? json_array_size(reqs) : (size_t)-1;

	json_decref(root);
	return n;
}

/* A suspended request: the job's done hook wakes the waiting thread. */
typedef struct waiter {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
} waiter;

static void on_done(void *arg)
{
	waiter *w = arg;

	pthread_mutex_lock(&w->mu);
	w->done = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* rc from kw_kernels_post / kw_kernels_batch: 1 = run the job, wait for it,
 * take its reply into out (as kwgend resumes the request). */
static void finish(int rc, kw_kjob *job, kw_reply *out)
{
	waiter w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

	if (rc == 0)
		return;
	if (rc != 1 || !job)
		abort();
	kw_kjob_start(job, on_done, &w);
	pthread_mutex_lock(&w.mu);
	while (!w.done)
		pthread_cond_wait(&w.cv, &w.mu);
	pthread_mutex_unlock(&w.mu);
	kw_kjob_reply(job, out);
	kw_kjob_free(job);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kw_kjob *job = NULL;
	const char *nl = memchr(data, '\n', size);
	char path[256];
	size_t plen;
	const char *body;
	size_t blen;
	int bypass = 0, text = 0;
	kw_reply r = KW_REPLY_INIT;
	char *q;

	if (!nl)
		return 0;
	plen = (size_t)(nl - (const char *)data);
	if (plen >= sizeof(path))
		return 0;
	memcpy(path, data, plen);
	path[plen] = '\0';
	body = nl + 1;
	blen = size - plen - 1;
	if ((q = strchr(path, '?'))) {
		bypass = strstr(q, "cache=bypass") != NULL;
		text = strstr(q, "text") != NULL;
		*q = '\0';
	}
	if (strcmp(path, "/v1/kernels") == 0) {
		finish(kw_kernels_post(&r, &job, &S, body, blen, bypass, text), job, &r);
		check_reply(&r, 0);
	} else if (strcmp(path, "/v1/kernels:batch") == 0) {
		size_t n = count_requests(body, blen);

		finish(kw_kernels_batch(&r, &job, &S, body, blen, bypass), job, &r);
		check_reply(&r, 0);
		if (r.status == 200) {
			json_t *ans = json_loadb(r.body, r.len, JSON_REJECT_DUPLICATES, NULL);

			if (!json_is_array(json_object_get(ans, "results")) ||
			    json_array_size(json_object_get(ans, "results")) != n)
				abort();
			json_decref(ans);
		}
	} else if (strncmp(path, "/v1/kernels/", 12) == 0) {
		char *key = strndup(path + 12, plen);

		if (!key)
			abort();
		kw_kernels_get(&r, &S, key, blen ? "\"x\"" : NULL, text);
		check_reply(&r, 1);
		kw_reply_reset(&r);
		kw_kernels_delete(&r, &S, key);
		if (r.status != 200 && r.status != 404 && r.status != 400)
			abort();
		free(key);
	}
	kw_reply_reset(&r);
	return 0;
}
