/*
 * kernels.c - POST /v1/kernels, POST /v1/kernels:batch and
 * GET /v1/kernels/{key}.
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
 */
#define _GNU_SOURCE /* memmem */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kwgen/text.h"
#include "log.h"
#include "metrics.h"

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

/* Every result's asm, concatenated in order (results without asm add
 * nothing).  malloc()ed; NULL when out of memory. */
static char *concat_asm(const json_t *results)
{
	size_t i, total = 0, at = 0;
	json_t *res;
	char *text;

	json_array_foreach(results, i, res)
		total += json_string_length(json_object_get(res, "asm"));
	if (!(text = malloc(total + 1)))
		return NULL;
	json_array_foreach(results, i, res) {
		json_t *a = json_object_get(res, "asm");
		size_t n = json_string_length(a);

		if (n)
			memcpy(text + at, json_string_value(a), n);
		at += n;
	}
	text[at] = '\0';
	return text;
}

/* The tables column: [{"name", "acc2arch"?, "arch2acc"?, "value"?}, ...]. */
static char *tables_json(const json_t *results)
{
	static const char *const keys[] = { "acc2arch", "arch2acc", "value" };
	json_t *tables = json_array(), *res;
	size_t i;
	char *text;

	json_array_foreach(results, i, res) {
		json_t *row = json_object();

		json_object_set(row, "name", json_object_get(res, "name"));
		for (size_t k = 0; k < 3; k++) {
			json_t *v = json_object_get(res, keys[k]);

			if (v)
				json_object_set(row, keys[k], v);
		}
		json_array_append_new(tables, row);
	}
	text = json_dumps(tables, JSON_COMPACT);
	json_decref(tables);
	return text;
}

/* "{" members "," "cached":flag "}" - malloc()ed, or NULL. */
static char *with_cached(const char *members, int flag)
{
	json_t *tail = json_pack("{s:b}", "cached", flag);
	char *cached = tail ? json_dumps(tail, JSON_COMPACT | JSON_EMBED) : NULL;
	size_t a = strlen(members), b = cached ? strlen(cached) : 0;
	char *text = cached ? malloc(a + b + 4) : NULL;

	json_decref(tail);
	if (text) {
		text[0] = '{';
		memcpy(text + 1, members, a);
		text[1 + a] = ',';
		memcpy(text + 2 + a, cached, b);
		text[2 + a + b] = '}';
		text[3 + a + b] = '\0';
	}
	free(cached);
	return text;
}

/*
 * The two texts a miss needs: the answer ("cached": false) and the stored
 * row ("cached": true).  They differ only in that member, so resp (which
 * lacks it) is dumped once with JSON_EMBED - its members without the
 * braces - and each text is "{" members "," cached-member "}", every piece
 * written by jansson.  Returns 0, or -1 when out of memory.
 */
static int response_texts(char **client, char **stored, const json_t *resp)
{
	char *members = json_dumps(resp, JSON_COMPACT | JSON_EMBED);

	*client = members ? with_cached(members, 0) : NULL;
	*stored = members ? with_cached(members, 1) : NULL;
	free(members);
	return *client && *stored ? 0 : -1;
}

/* The request's source as compact JSON, or NULL (none, or out of memory). */
static char *source_text(const kw_request *r)
{
	const json_t *src = kw_request_source(r);

	return src ? json_dumps(src, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* Make a 200 reply's JSON object body end in ,"source":src} (src is
 * compact JSON; NULL or "" leaves the body alone).  Out of memory turns
 * the reply into a 503. */
static void splice_source(kw_reply *out, const char *src)
{
	static const char member[] = ",\"source\":";
	size_t n = src ? strlen(src) : 0, m = sizeof(member) - 1;
	char *text;

	if (!n || out->status != 200 || out->len < 2 || out->body[out->len - 1] != '}')
		return;
	if (!(text = malloc(out->len + m + n + 1))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return;
	}
	memcpy(text, out->body, out->len - 1);
	memcpy(text + out->len - 1, member, m);
	memcpy(text + out->len - 1 + m, src, n);
	text[out->len - 1 + m + n] = '}';
	text[out->len + m + n] = '\0';
	free(out->body);
	out->body = text;
	out->len += m + n;
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

/* Generate r and store the answer.  out gets the response (cached:false),
 * a 4xx for a request the generators refuse, or a 503 when the row could
 * not be written. */
static void generate(kw_reply *out, kw_srv *s, const kw_request *r, const char *key,
		     const char *config_id, const char *canonical)
{
	kw_error e = KW_ERROR_INIT;
	json_t *results = NULL, *resp;
	char *client = NULL, *stored = NULL, *asm_text = NULL, *tables = NULL, *source = NULL;
	double t0 = now_s();
	int rc;

	rc = kw_request_run(&results, r, &e);
	kw_metrics_generation(now_s() - t0);
	if (rc < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	resp = json_pack("{s:s,s:s,s:s,s:s,s:o}", "key", key, "config_id", config_id,
			 "generator_version", kw_generator_version(), "isa", kw_request_isa_name(r),
			 "results", results);
	if (resp) {
		response_texts(&client, &stored, resp);
		results = json_object_get(resp, "results");
		asm_text = concat_asm(results);
		tables = tables_json(results);
	}
	if (!client || !stored || !asm_text || !tables) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		goto done;
	}
	source = source_text(r);
	kw_cache_entry entry = { key, config_id, kw_generator_version(), kw_request_isa_name(r),
				 canonical, asm_text, tables, stored, source };
	if ((rc = kw_cache_put(s->cache, &entry, &e)) < 0) {
		kw_log(KW_LOG_ERROR, "cache write failed for %s: %s", key, e.message);
		kw_reply_error(out, 503, "storage", NULL, "the cache could not store the result: %s",
			       e.message);
		out->retry_after = 1;
		goto done;
	}
	kw_reply_text(out, 200, client, strlen(client), NULL);
	client = NULL;
	out->cached = 0;
done:
	json_decref(resp);
	free(client);
	free(stored);
	free(asm_text);
	free(tables);
	free(source);
}

/* Answer one parsed request object (used by single and batch). */
static void kernels_one(kw_reply *out, kw_srv *s, const json_t *root, int bypass)
{
	kw_error e = KW_ERROR_INIT;
	kw_request *r = NULL;
	kw_flight *f = NULL;
	char config_id[65], key[65], *canonical = NULL, *hit = NULL;
	size_t hit_len;
	int leader;

	if (kw_request_parse(&r, root, &s->limits, &e) < 0 ||
	    kw_request_ids(config_id, key, &canonical, r, &e) < 0) {
		kw_reply_kw_error(out, &e);
		goto done;
	}
	memcpy(out->key, key, sizeof(out->key));
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
	if (!bypass && kw_cache_get(&hit, &hit_len, s->cache, key, &e) == 0)
		goto hit;
	if ((leader = kw_flight_join(&f, s->flights, key)) < 0) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		goto done;
	}
	if (!leader) {
		kw_flight_wait(s->flights, f, out);
		goto done;
	}
	/* A flight for this key may have finished between our lookup and our
	 * join: look again so that key is generated once. */
	if (!bypass && kw_cache_get(&hit, &hit_len, s->cache, key, &e) == 0) {
		kw_reply_text(out, 200, hit, hit_len, NULL);
		out->cached = 1;
		hit = NULL;
	} else if (!kw_admit_enter(&s->admit)) {
		kw_reply_error(out, 503, "overloaded", NULL,
			       "%ld generations are running (--max-inflight); retry shortly",
			       s->admit.max);
		out->retry_after = 1;
	} else {
		generate(out, s, r, key, config_id, canonical);
		kw_admit_leave(&s->admit);
	}
	kw_flight_finish(s->flights, f, out);
	goto done;
hit:
	kw_reply_text(out, 200, hit, hit_len, NULL);
	out->cached = 1;
done:
	if (r && kw_request_source(r)) {
		char *src = source_text(r);

		splice_source(out, src);
		free(src);
	}
	if (f)
		kw_flight_release(s->flights, f);
	free(canonical);
	kw_request_free(r);
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

void kw_kernels_post(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass, int text)
{
	unsigned char digest[32];
	int have_digest = s->memo && kw_memo_digest(s->memo, digest, body, len) == 0;
	json_t *root;

	if (have_digest && !bypass && memo_hit(out, s, digest, body, len)) {
		if (text)
			kw_kernels_to_text(out);
		return;
	}
	if (!(root = parse_object(out, body, len)))
		return;
	kernels_one(out, s, root, bypass);
	json_decref(root);
	/* Hold the response only when it is the stored text (a hit); a fresh
	 * answer says "cached": false, which a repeat must not. */
	if (have_digest && out->status == 200)
		kw_memo_put(s->memo, digest, out->key, out->cached == 1 ? out->body : NULL,
			    out->len);
	if (text)
		kw_kernels_to_text(out);
}

void kw_kernels_batch(kw_reply *out, kw_srv *s, const char *body, size_t len, int bypass)
{
	json_t *root = parse_object(out, body, len), *reqs, *results, *item;
	size_t i, total = 0;

	if (!root)
		return;
	reqs = json_object_get(root, "requests");
	if (!json_is_array(reqs)) {
		kw_reply_error(out, 422, "invalid", "requests",
			       "\"requests\" must be an array of kernel requests");
		goto done;
	}
	if (json_array_size(reqs) > s->cfg.max_batch) {
		kw_reply_error(out, 422, "limit", "requests",
			       "at most %zu requests per batch (got %zu)", s->cfg.max_batch,
			       json_array_size(reqs));
		goto done;
	}
	results = json_array();
	json_array_foreach(reqs, i, item) {
		kw_reply one = KW_REPLY_INIT;
		json_t *parsed, *entry;

		if (total >= s->cfg.max_response_bytes)
			kw_reply_error(&one, 422, "limit", "requests",
				       "requests[%zu] not generated: the batch response reached --max-response-bytes "
				       "(%zu bytes); send the rest in another batch", i, s->cfg.max_response_bytes);
		else if (json_is_object(item))
			kernels_one(&one, s, item, bypass);
		else
			kw_reply_error(&one, 400, "syntax", "requests", "requests[%zu] is not an object", i);
		total += one.len;
		kw_metrics_kernel(one.status, one.cached);
		parsed = one.body ? json_loadb(one.body, one.len, 0, NULL) : NULL;
		if (one.status == 200)
			entry = json_pack("{s:i,s:o}", "status", 200, "response",
					  parsed ? parsed : json_null());
		else {
			json_t *eo = json_object_get(parsed, "error");

			entry = json_pack("{s:i,s:o}", "status", one.status, "error",
					  eo ? json_incref(eo) : json_null());
			json_decref(parsed);
		}
		json_array_append_new(results, entry);
		kw_reply_reset(&one);
	}
	kw_reply_json(out, 200, json_pack("{s:o}", "results", results));
done:
	json_decref(root);
}

/* Does an If-None-Match value name etag (or "*")? */
static int etag_matches(const char *header, const char *etag)
{
	size_t n = strlen(etag);
	const char *p;

	if (!header)
		return 0;
	if (strcmp(header, "*") == 0)
		return 1;
	for (p = strstr(header, etag); p; p = strstr(p + 1, etag))
		if ((p == header || p[-1] == ' ' || p[-1] == ',') &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return 1;
	return 0;
}

void kw_kernels_get(kw_reply *out, kw_srv *s, const char *key, const char *if_none_match, int as_text)
{
	kw_error e = KW_ERROR_INIT;
	char *text = NULL, *src = NULL;
	size_t len = 0;
	int rc;

	if (strlen(key) != 64 || strspn(key, "0123456789abcdef") != 64) {
		kw_reply_error(out, 404, "not_found", "key",
			       "a key is 64 lower-case hex digits (the \"key\" of a response)");
		return;
	}
	rc = kw_cache_get(&text, &len, s->cache, key, &e);
	if (rc < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	memcpy(out->key, key, 65);
	snprintf(out->etag, sizeof(out->etag), as_text ? "\"%s-text\"" : "\"%s\"", key);
	out->cached = 1;
	if (etag_matches(if_none_match, out->etag)) {
		free(text);
		kw_reply_text(out, 304, NULL, 0, NULL);
		return;
	}
	kw_reply_text(out, 200, text, len, NULL);
	/* The row's source (a row deleted meanwhile just has none). */
	if (kw_cache_get_source(&src, s->cache, key, NULL) == 0)
		splice_source(out, src);
	free(src);
	if (as_text) {
		snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
		kw_kernels_to_text(out);
	}
}

void kw_kernels_delete(kw_reply *out, kw_srv *s, const char *key)
{
	kw_error e = KW_ERROR_INIT;

	if (strlen(key) != 64 || strspn(key, "0123456789abcdef") != 64) {
		kw_reply_error(out, 404, "not_found", "key",
			       "a key is 64 lower-case hex digits (the \"key\" of a response)");
		return;
	}
	memcpy(out->key, key, 65);
	if (kw_cache_delete(s->cache, key, &e) < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	kw_memo_forget(s->memo, key);
	kw_reply_json(out, 200, json_pack("{s:s,s:b}", "key", key, "deleted", 1));
}
