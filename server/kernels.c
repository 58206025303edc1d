/*
 * kernels.c - POST /v1/kernels, POST /v1/kernels:batch and a keyed call
 * (a verification's flight); GET and DELETE /v1/kernels/{key} are in
 * kernels_get.c, the answer's texts in answer.c.
 *
 * The path of one request: parse (kw_request_parse) -> key
 * (kw_request_ids) -> cache lookup -> single-flight -> kw_request_run ->
 * response JSON -> one cache transaction.  The response is stored with
 * "cached": true, which is what every later reader is served verbatim.
 *
 * "source" (where a request came from) is not part of the key: the row
 * keeps the source of the request that generated it (the first miss, or
 * the latest ?cache=bypass) in its own column, and every answer to a POST
 * carries the source of that POST (none if it has none), spliced in as the
 * last member; GET /v1/kernels/{key} carries the stored one.
 *
 * Threads: the lookup up to a hit runs on the polling thread that called
 * (kernels.h); a miss becomes a kw_kjob.  One kernel: the job joins the
 * key's flight; a follower hangs a waiter on it and is answered by the
 * leader, a leader takes an --max-inflight slot and generates on the pool.
 * A batch takes one slot and runs its items one per slice on the pool, an
 * item that finds its key in flight parking the batch on that flight until
 * the leader wakes it.  A call (kw_kjob_call: a verification) with a key
 * joins that key's flight the same way.  A batch response is assembled as text from the
 * items' texts (each written once by jansson), never parsed back.
 */
#define _GNU_SOURCE /* memmem */
#include "kernels.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer.h"
#include "kwgen/buf.h"
#include "kwgen/text.h"
#include "log.h"
#include "metrics.h"
#include "work.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Parse a body that must be one JSON object.  Returns the object or NULL
 * with out set to a 400. */
static json_t *parse_object(kw_reply *out, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &jerr);

	if (!root) {
		kw_reply_error(out, 400, "syntax", NULL, "invalid JSON at line %d, column %d: %s",
			       jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		kw_reply_error(out, 400, "syntax", NULL, "the body must be a JSON object");
		return NULL;
	}
	return root;
}

/* The request's source as compact JSON, or NULL (none, or out of memory). */
static char *source_text(const kw_request *r)
{
	const json_t *src = kw_request_source(r);

	return src ? json_dumps(src, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

void kw_kernels_to_text(kw_reply *out)
{
	kw_error e = KW_ERROR_INIT;
	kw_buf b = KW_BUF_INIT;
	json_t *ans;

	if (out->status != 200 || !out->body)
		return;
	ans = json_loadb(out->body, out->len, 0, NULL);
	if (!ans || kw_text_render(&b, ans, &e) < 0 || (!b.p && kw_buf_grow(&b, 0))) {
		json_decref(ans);
		kw_buf_free(&b);
		kw_reply_error(out, 500, "internal", NULL, "the answer could not be rendered as text");
		return;
	}
	json_decref(ans);
	free(out->body);
	out->len = b.len;
	out->body = kw_buf_detach(&b);
	out->content_type = "text/plain; charset=utf-8";
	if (out->etag[0] && out->etag[0] == '"' && strlen(out->etag) == 66) {
		/* A representation of its own: "<key>-text" (68 bytes with quotes). */
		out->etag[65] = '\0';
		strcat(out->etag, "-text\"");
	}
}

/* A generated answer on its way into the cache: the row's texts, kept
 * until its commit (kw_cache_put_async reads them until then). */
typedef struct kw_fresh {
	char *client, *stored, *asm_text, *tables, *source;
	kw_cache_entry entry;
} kw_fresh;

static void fresh_free(kw_fresh *f)
{
	free(f->client);
	free(f->stored);
	free(f->asm_text);
	free(f->tables);
	free(f->source);
	memset(f, 0, sizeof(*f));
}

/* Generate r into f (the texts to store and serve).  Returns 0, or -1
 * with out set: a 4xx for a request the generators refuse, 503 out of
 * memory.  key, config_id and canonical must outlive f's put. */
static int generate_fresh(kw_reply *out, kw_fresh *f, const kw_request *r, const char *key,
			  const char *config_id, const char *canonical)
{
	kw_error e = KW_ERROR_INIT;
	json_t *results = NULL, *resp;
	double t0 = now_s();
	int rc;

	memset(f, 0, sizeof(*f));
	rc = kw_request_run(&results, r, &e);
	kw_metrics_generation(now_s() - t0);
	if (rc < 0) {
		if (rc == KW_ELIMIT && strcmp(e.field, "generators") == 0) /* s->limits.max_results_bytes */
			snprintf(e.message + strlen(e.message), sizeof(e.message) - strlen(e.message),
				 " (--max-response-bytes)");
		kw_reply_kw_error(out, &e);
		return -1;
	}
	resp = json_pack("{s:s,s:s,s:s,s:s,s:o}", "key", key, "config_id", config_id,
			 "generator_version", kw_generator_version(), "isa", kw_request_isa_name(r),
			 "results", results);
	if (resp) {
		kw_answer_texts(&f->client, &f->stored, &f->tables, resp);
		f->asm_text = kw_answer_concat_asm(json_object_get(resp, "results"));
	}
	json_decref(resp);
	if (!f->client || !f->stored || !f->asm_text || !f->tables) {
		fresh_free(f);
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return -1;
	}
	f->source = source_text(r);
	f->entry = (kw_cache_entry){ key, config_id, kw_generator_version(), kw_request_isa_name(r),
				     canonical, f->asm_text, f->tables, f->stored, f->source };
	return 0;
}

/* f's put ended with rc (e when it failed): out gets the answer
 * (cached: false) or a 503; f is freed.  A GET answer held for the key is
 * dropped (the row was rewritten, perhaps with another source). */
static void fresh_stored(kw_reply *out, kw_srv *s, kw_fresh *f, int rc, const kw_error *e)
{
	kw_memo_forget_row(s->memo, f->entry.key);
	if (rc < 0) {
		const char *why = e ? e->message : "unknown error";

		kw_log(KW_LOG_ERROR, "cache write failed for %s: %s", f->entry.key, why);
		kw_reply_error(out, 503, "storage", NULL, "the cache could not store the result: %s", why);
		out->retry_after = 1;
	} else {
		kw_reply_text(out, 200, f->client, strlen(f->client), NULL);
		f->client = NULL;
		out->cached = 0;
	}
	fresh_free(f);
}

/* Generate r and store the answer before returning (a batch item).  out
 * gets the response (cached:false), a 4xx for a request the generators
 * refuse, or a 503 when the row could not be written. */
static void generate(kw_reply *out, kw_srv *s, const kw_request *r, const char *key,
		     const char *config_id, const char *canonical)
{
	kw_error e = KW_ERROR_INIT;
	kw_fresh f;
	int rc;

	if (generate_fresh(out, &f, r, key, config_id, canonical) < 0)
		return;
	rc = kw_cache_put(s->cache, &f.entry, &e);
	fresh_stored(out, s, &f, rc, &e);
}

/* A miss or a batch waiting for (or being given) generation. */
struct kw_kjob {
	kw_job base;             /* s->work's queue link and hooks */
	kw_flight_waiter waiter; /* hung on a flight while waiting for its leader */
	kw_srv *s;
	int batch;               /* 0: one kernel, 1: a batch, 2: a call */
	int bypass;
	long slots;              /* --max-inflight slots held */
	kw_kjob_done_fn done;
	void *done_arg;
	kw_reply out;            /* the answer, once done */
	/* one kernel (a miss found on the polling thread) */
	kw_request *r;
	char key[65], config_id[65];
	char *canonical;
	kw_flight *flight;       /* the flight this job leads */
	unsigned char digest[32];
	int have_digest;
	unsigned long epoch;     /* kw_flight_epoch of the key before its first lookup */
	int again;               /* the leader looks the key up again before generating */
	char *source;            /* the request's "source" as JSON, or NULL */
	int text;                /* answer a 200 as plain text */
	kw_fresh fresh;          /* its answer while the cache commits it */
	/* a batch */
	json_t *root, *reqs;
	size_t n, next;          /* items, the next one to answer */
	size_t total;            /* bytes of item answers so far (--max-response-bytes) */
	kw_buf resp;             /* the response so far */
	kw_reply item;           /* item `next`'s answer from a flight's leader */
	int have_item;
	char *item_source;       /* item `next`'s "source" as JSON, or NULL */
	unsigned char item_digest[32]; /* digest of item `next`'s compact text */
	int have_item_digest;
	/* a call */
	void (*fn)(kw_reply *out, void *arg);
	void (*free_arg)(void *arg);
	void *arg;
};

static double deadline_of(const kw_srv *s)
{
	return s->cfg.work_timeout ? now_s() + (double)s->cfg.work_timeout : 0;
}

/* The job is answered: give back the slot, then tell the owner (last). */
static void job_done(kw_kjob *j)
{
	kw_kjob_done_fn done = j->done;
	void *arg = j->done_arg;

	if (j->slots) {
		kw_admit_leave_n(&j->s->admit, j->slots);
		j->slots = 0;
	}
	done(arg); /* j may be freed from here on */
}

static void overloaded(kw_reply *out, const kw_srv *s)
{
	kw_reply_error(out, 503, "overloaded", NULL,
		       "%ld generations are queued or running (--max-inflight); retry shortly",
		       s->admit.max);
	out->retry_after = 1;
}

/* The 503 of a job that did not run: why = KW_CANCEL_*. */
static void cancelled(kw_reply *out, const kw_srv *s, int why)
{
	if (why == KW_CANCEL_TIMEOUT)
		kw_reply_error(out, 503, "timeout", NULL,
			       "not generated within --work-timeout (%u s); the server is busy, retry",
			       s->cfg.work_timeout);
	else
		kw_reply_error(out, 503, "draining", NULL, "the server is shutting down");
	out->retry_after = 1;
}

/* Parse and key one request object.  Returns 0, or -1 with out set. */
static int prepare(kw_reply *out, kw_request **r, char config_id[65], char key[65],
		   char **canonical, kw_srv *s, const json_t *root)
{
	kw_error e = KW_ERROR_INIT;

	if (kw_request_parse(r, root, &s->limits, &e) < 0 ||
	    kw_request_ids(config_id, key, canonical, *r, &e) < 0) {
		kw_reply_kw_error(out, &e);
		return -1;
	}
	memcpy(out->key, key, 65);
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
	return 0;
}

/* A stored row for key into out (cached); returns 1, or 0 when absent. */
static int lookup(kw_reply *out, kw_srv *s, const char *key)
{
	char *hit = NULL;
	size_t len = 0;

	if (kw_cache_get(&hit, &len, s->cache, key, NULL) != 0)
		return 0;
	kw_reply_text(out, 200, hit, len, NULL);
	out->cached = 1;
	return 1;
}

/* Leader of key's flight: look again when a flight of the key may have
 * finished between the first lookup and the join (again set), else
 * generate; then answer the followers. */
static void lead(kw_reply *out, kw_srv *s, kw_flight *f, const kw_request *r, const char *key,
		 const char *config_id, const char *canonical, int again)
{
	if (!again || !lookup(out, s, key))
		generate(out, s, r, key, config_id, canonical);
	kw_flight_finish(s->flights, f, out);
}

/* ---- one kernel ---- */

/* One kernel's reply is in j->out: this request's source, the memo, text;
 * then answer. */
static void one_answer(kw_kjob *j)
{
	kw_answer_splice_source(&j->out, j->source);
	/* Hold the response only when it is the stored text (a hit); a fresh
	 * answer says "cached": false, which a repeat must not. */
	if (j->have_digest && j->out.status == 200)
		kw_memo_put(j->s->memo, j->digest, j->out.key,
			    j->out.cached == 1 ? j->out.body : NULL, j->out.len);
	if (j->text)
		kw_kernels_to_text(&j->out);
	job_done(j);
}

/* The committer has written the job's row (or failed to): answer the
 * followers and the job.  Runs on the cache's committer thread. */
static void one_stored(void *arg, int rc, const kw_error *e)
{
	kw_kjob *j = arg;

	fresh_stored(&j->out, j->s, &j->fresh, rc, e);
	kw_flight_finish(j->s->flights, j->flight, &j->out);
	j->flight = NULL;
	one_answer(j);
}

/* The leader of one kernel, on a worker: look again if a flight for the
 * key may have finished between the first lookup and the join, else generate
 * and hand the row to the cache's committer (group commit), which answers
 * once the row is committed; the worker goes on meanwhile. */
static int one_slice(kw_job *b)
{
	kw_kjob *j = (kw_kjob *)b;
	kw_error e = KW_ERROR_INIT;
	int rc;

	if ((j->again && lookup(&j->out, j->s, j->key)) ||
	    generate_fresh(&j->out, &j->fresh, j->r, j->key, j->config_id, j->canonical) < 0) {
		kw_flight_finish(j->s->flights, j->flight, &j->out);
		j->flight = NULL;
		one_answer(j);
		return KW_JOB_DONE;
	}
	if ((rc = kw_cache_put_async(j->s->cache, &j->fresh.entry, one_stored, j, &e)) < 0) {
		one_stored(j, rc, &e);
		return KW_JOB_DONE;
	}
	return KW_JOB_PARKED; /* one_stored answers; j is not ours any more */
}

static void one_cancel(kw_job *b, int why)
{
	kw_kjob *j = (kw_kjob *)b;

	cancelled(&j->out, j->s, why);
	memcpy(j->out.key, j->key, sizeof(j->key));
	kw_flight_finish(j->s->flights, j->flight, &j->out);
	j->flight = NULL;
	one_answer(j);
}

/* A follower of one kernel: the leader's answer is ours. */
static void one_wake(kw_flight_waiter *w, const kw_reply *r)
{
	kw_kjob *j = (kw_kjob *)((char *)w - offsetof(kw_kjob, waiter));

	kw_reply_copy(&j->out, r);
	one_answer(j);
}

/* One kernel or a keyed call: join its flight; a leader takes a slot and is
 * queued (j->base.cancel answers if the queue refuses it). */
static void flight_start(kw_kjob *j)
{
	int rc = kw_flight_join(&j->flight, j->s->flights, j->key, &j->waiter);

	if (rc == 0)
		return; /* a follower: j->waiter.wake answers (j is not ours any more) */
	if (rc < 0) {
		kw_reply_error(&j->out, 503, "no_memory", NULL, "out of memory");
		j->out.retry_after = 1;
		job_done(j);
		return;
	}
	/* a flight of the key finished since the polling thread's lookup: its
	 * row may be there now */
	j->again = !j->bypass && kw_flight_epoch(j->s->flights, j->key) != j->epoch;
	if (!(j->slots = kw_admit_enter_n(&j->s->admit, 1))) {
		overloaded(&j->out, j->s);
		kw_flight_finish(j->s->flights, j->flight, &j->out);
		j->flight = NULL;
		job_done(j);
		return;
	}
	j->base.deadline = deadline_of(j->s);
	if (kw_work_submit(j->s->work, &j->base) < 0)
		j->base.cancel(&j->base, KW_CANCEL_SHUTDOWN);
}

/* The fast path: a body seen before.  A fresh response held in memory is
 * served as is (its hit noted with kw_cache_touch); otherwise the known key
 * is read from the cache file and the response is held again.  Returns 1 with
 * out filled, 0 to take the full path. */
static int memo_hit(kw_reply *out, kw_srv *s, const unsigned char digest[32], const char *body,
		    size_t body_len)
{
	char key[65], *text = NULL;
	size_t len = 0;
	int found = kw_memo_get(s->memo, digest, key, &text, &len);

	if (found == 0)
		return 0;
	if (found == 1) {
		/* The stored row lacks this body's "source": take the full path,
		 * which splices it in (a held response already has it). */
		if (memmem(body, body_len, "\"source\"", 8))
			return 0;
		if (kw_cache_get(&text, &len, s->cache, key, NULL) != 0)
			return 0;
		kw_memo_put(s->memo, digest, key, text, len);
	} else {
		kw_cache_touch(s->cache, key); /* recency only: no SQLite */
	}
	kw_reply_text(out, 200, text, len, NULL);
	memcpy(out->key, key, sizeof(out->key));
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
	out->cached = 1;
	return 1;
}

static kw_kjob *job_new(kw_srv *s, int batch, int bypass)
{
	static const kw_reply init = KW_REPLY_INIT;
	kw_kjob *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->s = s;
	j->batch = batch;
	j->bypass = bypass;
	j->out = init;
	j->item = init;
	return j;
}

int kw_kernels_post(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
		    int bypass, int text)
{
	unsigned char digest[32];
	int have_digest = s->memo && kw_memo_digest(s->memo, digest, body, len) == 0;
	unsigned long epoch;
	kw_request *r = NULL;
	char config_id[65], key[65], *canonical = NULL;
	json_t *root;
	kw_kjob *j;

	*job = NULL;
	if (have_digest && !bypass && memo_hit(out, s, digest, body, len)) {
		if (text)
			kw_kernels_to_text(out);
		return 0;
	}
	if (!(root = parse_object(out, body, len)))
		return 0;
	if (prepare(out, &r, config_id, key, &canonical, s, root) < 0) {
		json_decref(root);
		kw_request_free(r);
		return 0;
	}
	json_decref(root);
	epoch = kw_flight_epoch(s->flights, key); /* before the lookup (flight_start) */
	if (!bypass && lookup(out, s, key)) {
		char *src = kw_request_source(r) ? source_text(r) : NULL;

		kw_answer_splice_source(out, src);
		free(src);
		/* Hold the response: it is the stored text (with this body's
		 * source). */
		if (have_digest && out->status == 200)
			kw_memo_put(s->memo, digest, key, out->body, out->len);
		if (text)
			kw_kernels_to_text(out);
		free(canonical);
		kw_request_free(r);
		return 0;
	}
	if (!(j = job_new(s, 0, bypass))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		free(canonical);
		kw_request_free(r);
		return 0;
	}
	memcpy(j->out.key, key, sizeof(key));
	memcpy(j->out.etag, out->etag, sizeof(j->out.etag));
	j->r = r;
	j->canonical = canonical;
	memcpy(j->key, key, sizeof(key));
	memcpy(j->config_id, config_id, sizeof(config_id));
	j->epoch = epoch;
	j->have_digest = have_digest;
	if (have_digest)
		memcpy(j->digest, digest, sizeof(digest));
	j->source = kw_request_source(r) ? source_text(r) : NULL;
	j->text = text;
	j->base.slice = one_slice;
	j->base.cancel = one_cancel;
	j->waiter.wake = one_wake;
	*job = j;
	return 1;
}

/* ---- a batch ---- */

/* Append item i's entry {"status": N, "response" | "error": ...} to the
 * batch text.  The item's body is a complete JSON text from jansson (a
 * response, or {"error": {...}}), embedded as it is. */
static void append_entry(kw_kjob *j, size_t i, const kw_reply *item)
{
	char status[40];
	json_t *st = json_pack("{s:i}", "status", item->status);
	size_t n = st ? json_dumpb(st, status, sizeof(status), JSON_COMPACT | JSON_EMBED) : 0;

	json_decref(st);
	if (!n || n >= sizeof(status)) {
		j->resp.oom = 1;
		return;
	}
	if (i > 0)
		kw_buf_putc(&j->resp, ',');
	kw_buf_putc(&j->resp, '{');
	kw_buf_put(&j->resp, status, n);
	if (item->status == 200 && item->body) {
		kw_buf_puts(&j->resp, ",\"response\":");
		kw_buf_put(&j->resp, item->body, item->len);
		kw_buf_putc(&j->resp, '}');
	} else if (item->body && item->len > 2 && item->body[0] == '{') {
		/* {"error":{...}} -> the members after the brace */
		kw_buf_putc(&j->resp, ',');
		kw_buf_put(&j->resp, item->body + 1, item->len - 1);
	} else {
		kw_buf_puts(&j->resp, ",\"error\":null}");
	}
}

/* Item `next` of a batch, on a worker.  Returns 1 with j->item filled, 0
 * when the batch is parked on a flight (j is not ours any more). */
/*
 * The fast path of a batch item, as memo_hit is a POST's: the digest of
 * the item's compact text (jansson's dump of the parsed item: the same
 * item always gives the same text, and the key depends on nothing else)
 * names a key seen before.  A fresh response held for it (its source
 * spliced in already) is served as is; a known key is read from the file
 * without parsing and keying the request again.  Returns 1 with j->item
 * filled, 0 to take the full path (j->item_digest then set for
 * batch_take to record).
 */
static int batch_memo_hit(kw_kjob *j, const json_t *req)
{
	kw_srv *s = j->s;
	char key[65], *text = NULL, *dump;
	size_t len = 0;
	int found;

	j->have_item_digest = 0;
	if (!s->memo || j->bypass || !(dump = json_dumps(req, JSON_COMPACT)))
		return 0;
	j->have_item_digest = kw_memo_digest(s->memo, j->item_digest, dump, strlen(dump)) == 0;
	free(dump);
	if (!j->have_item_digest || !(found = kw_memo_get(s->memo, j->item_digest, key, &text, &len)))
		return 0;
	if (found == 1) {
		const json_t *src = json_object_get(req, "source");

		if (kw_cache_get(&text, &len, s->cache, key, NULL) != 0)
			return 0;
		/* the stored row has no source of this item's: batch_take
		 * splices it in (and holds the result) */
		j->item_source = src ? json_dumps(src, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	} else {
		kw_cache_touch(s->cache, key); /* recency only: no SQLite */
		j->have_item_digest = 0;       /* held already */
	}
	kw_reply_text(&j->item, 200, text, len, NULL);
	memcpy(j->item.key, key, sizeof(j->item.key));
	snprintf(j->item.etag, sizeof(j->item.etag), "\"%s\"", key);
	j->item.cached = 1;
	return 1;
}

static int batch_item(kw_kjob *j, const json_t *req)
{
	kw_srv *s = j->s;
	kw_request *r = NULL;
	char config_id[65], key[65], *canonical = NULL;
	kw_flight *f = NULL;
	unsigned long epoch;
	int rc;

	if (batch_memo_hit(j, req))
		return 1;
	if (prepare(&j->item, &r, config_id, key, &canonical, s, req) < 0)
		goto done;
	j->item_source = kw_request_source(r) ? source_text(r) : NULL;
	epoch = kw_flight_epoch(s->flights, key);
	if (!j->bypass && lookup(&j->item, s, key))
		goto done;
	rc = kw_flight_join(&f, s->flights, key, &j->waiter);
	if (rc == 0) {
		free(canonical);
		kw_request_free(r);
		return 0; /* batch_wake requeues the batch */
	}
	if (rc < 0) {
		kw_reply_error(&j->item, 503, "no_memory", NULL, "out of memory");
		j->item.retry_after = 1;
		goto done;
	}
	lead(&j->item, s, f, r, key, config_id, canonical,
	     !j->bypass && kw_flight_epoch(s->flights, key) != epoch);
done:
	free(canonical);
	kw_request_free(r);
	return 1;
}

/* Close the batch text and answer. */
static void batch_finish(kw_kjob *j)
{
	kw_buf_puts(&j->resp, "]}");
	if (j->resp.oom) {
		kw_buf_free(&j->resp);
		kw_reply_error(&j->out, 503, "no_memory", NULL, "out of memory");
		j->out.retry_after = 1;
	} else {
		size_t len = j->resp.len;

		kw_reply_text(&j->out, 200, kw_buf_detach(&j->resp), len, NULL);
	}
	job_done(j);
}

/* Take item `next`'s answer into the text. */
static void batch_take(kw_kjob *j)
{
	kw_answer_splice_source(&j->item, j->item_source);
	free(j->item_source);
	j->item_source = NULL;
	/* Remember the item's key, and its response when it is the stored
	 * text (a hit; a fresh answer says "cached": false). */
	if (j->have_item_digest && j->item.status == 200 && j->item.key[0])
		kw_memo_put(j->s->memo, j->item_digest, j->item.key, j->item.cached == 1 ? j->item.body : NULL,
			    j->item.len);
	j->have_item_digest = 0;
	append_entry(j, j->next, &j->item);
	j->total += j->item.len;
	kw_metrics_kernel(j->item.status, j->item.cached);
	kw_reply_reset(&j->item);
	j->have_item = 0;
	j->next++;
}

static int batch_slice(kw_job *b)
{
	kw_kjob *j = (kw_kjob *)b;
	kw_srv *s = j->s;

	if (!j->have_item && j->next < j->n) {
		size_t i = j->next;
		json_t *req = json_array_get(j->reqs, i);

		if (j->base.deadline > 0 && now_s() > j->base.deadline)
			cancelled(&j->item, s, KW_CANCEL_TIMEOUT);
		else if (j->total >= s->cfg.max_response_bytes)
			kw_reply_error(&j->item, 422, "limit", "requests",
				       "requests[%zu] not generated: the batch response reached --max-response-bytes "
				       "(%zu bytes); send the rest in another batch", i, s->cfg.max_response_bytes);
		else if (!json_is_object(req))
			kw_reply_error(&j->item, 400, "syntax", "requests", "requests[%zu] is not an object", i);
		else if (!batch_item(j, req))
			return KW_JOB_PARKED;
		j->have_item = 1;
	}
	if (j->have_item)
		batch_take(j);
	if (j->next < j->n)
		return KW_JOB_MORE;
	batch_finish(j);
	return KW_JOB_DONE;
}

/* Queued past the deadline or stopping: the items not yet answered get
 * a 503 each; the answers so far are kept. */
static void batch_cancel(kw_job *b, int why)
{
	kw_kjob *j = (kw_kjob *)b;

	if (j->have_item)
		batch_take(j);
	while (j->next < j->n) {
		cancelled(&j->item, j->s, why);
		batch_take(j);
	}
	batch_finish(j);
}

/* An item's flight finished: take its answer and queue the batch again. */
static void batch_wake(kw_flight_waiter *w, const kw_reply *r)
{
	kw_kjob *j = (kw_kjob *)((char *)w - offsetof(kw_kjob, waiter));

	kw_reply_copy(&j->item, r);
	j->have_item = 1;
	kw_work_requeue(j->s->work, &j->base);
}

int kw_kernels_batch(kw_reply *out, kw_kjob **job, kw_srv *s, const char *body, size_t len,
		     int bypass)
{
	json_t *root = parse_object(out, body, len), *reqs;
	kw_kjob *j;

	*job = NULL;
	if (!root)
		return 0;
	reqs = json_object_get(root, "requests");
	if (!json_is_array(reqs)) {
		kw_reply_error(out, 422, "invalid", "requests",
			       "\"requests\" must be an array of kernel requests");
		json_decref(root);
		return 0;
	}
	if (json_array_size(reqs) > s->cfg.max_batch) {
		kw_reply_error(out, 422, "limit", "requests",
			       "at most %zu requests per batch (got %zu)", s->cfg.max_batch,
			       json_array_size(reqs));
		json_decref(root);
		return 0;
	}
	if (!(j = job_new(s, 1, bypass))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		json_decref(root);
		return 0;
	}
	if (!(j->slots = kw_admit_enter_n(&s->admit, (long)json_array_size(reqs)))) {
		overloaded(out, s);
		free(j);
		json_decref(root);
		return 0;
	}
	j->root = root;
	j->reqs = reqs;
	j->n = json_array_size(reqs);
	kw_buf_puts(&j->resp, "{\"results\":[");
	j->base.slice = batch_slice;
	j->base.cancel = batch_cancel;
	j->waiter.wake = batch_wake;
	*job = j;
	return 1;
}

/* ---- a call ---- */

static int call_slice(kw_job *b)
{
	kw_kjob *j = (kw_kjob *)b;

	j->fn(&j->out, j->arg);
	if (j->flight) { /* a keyed call leads its flight: answer the followers */
		kw_flight_finish(j->s->flights, j->flight, &j->out);
		j->flight = NULL;
	}
	job_done(j);
	return KW_JOB_DONE;
}

static void call_cancel(kw_job *b, int why)
{
	kw_kjob *j = (kw_kjob *)b;

	cancelled(&j->out, j->s, why);
	if (j->flight) {
		kw_flight_finish(j->s->flights, j->flight, &j->out);
		j->flight = NULL;
	}
	job_done(j);
}

/* A follower of a keyed call: the leader's answer is ours. */
static void call_wake(kw_flight_waiter *w, const kw_reply *r)
{
	kw_kjob *j = (kw_kjob *)((char *)w - offsetof(kw_kjob, waiter));

	kw_reply_copy(&j->out, r);
	job_done(j);
}

int kw_kjob_call(kw_reply *out, kw_kjob **job, kw_srv *s, const char *key,
		 void (*fn)(kw_reply *out, void *arg), void (*free_arg)(void *arg), void *arg)
{
	kw_kjob *j = job_new(s, 2, 0);

	*job = NULL;
	if (!j) {
		free_arg(arg);
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return 0;
	}
	if (key) { /* the slot is taken by the flight's leader (kw_kjob_start) */
		snprintf(j->key, sizeof(j->key), "%s", key);
		memcpy(j->out.key, j->key, sizeof(j->key));
		j->fn = fn;
		j->free_arg = free_arg;
		j->arg = arg;
		j->base.slice = call_slice;
		j->base.cancel = call_cancel;
		j->waiter.wake = call_wake;
		*job = j;
		return 1;
	}
	if (!(j->slots = kw_admit_enter_n(&s->admit, 1))) {
		free_arg(arg);
		free(j);
		overloaded(out, s);
		return 0;
	}
	j->fn = fn;
	j->free_arg = free_arg;
	j->arg = arg;
	j->base.slice = call_slice;
	j->base.cancel = call_cancel;
	*job = j;
	return 1;
}

/* ---- all ---- */

void kw_kjob_start(kw_kjob *j, kw_kjob_done_fn done, void *arg)
{
	j->done = done;
	j->done_arg = arg;
	if (j->batch == 0) {
		flight_start(j);
		return;
	}
	if (j->batch == 2 && j->key[0]) {
		flight_start(j);
		return;
	}
	j->base.deadline = deadline_of(j->s);
	if (kw_work_submit(j->s->work, &j->base) < 0)
		j->base.cancel(&j->base, KW_CANCEL_SHUTDOWN);
}

void kw_kjob_reply(kw_kjob *j, kw_reply *out)
{
	kw_reply_move(out, &j->out);
}

void kw_kjob_free(kw_kjob *j)
{
	if (!j)
		return;
	if (j->slots)
		kw_admit_leave_n(&j->s->admit, j->slots);
	if (j->flight) /* never started as a leader: cannot happen, but answer its followers */
		kw_flight_finish(j->s->flights, j->flight, &j->out);
	kw_reply_reset(&j->out);
	kw_reply_reset(&j->item);
	fresh_free(&j->fresh);
	kw_buf_free(&j->resp);
	json_decref(j->root);
	free(j->canonical);
	free(j->source);
	free(j->item_source);
	if (j->free_arg)
		j->free_arg(j->arg);
	kw_request_free(j->r);
	free(j);
}
