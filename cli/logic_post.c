/*
 * cli/logic_post.c - post batches of requests to a kwgend (or to nginx in
 * front of several) with libcurl's multi interface: POST /v1/kernels:batch,
 * up to --inflight batches at once on as many reused connections, retries
 * on overload and on connection failures.  With more
 * than one batch in flight, a thread of its own parses each answer that
 * came back whole (json_loadb: a third of the client's instructions for a
 * warm daemon) while the main thread reads the next files.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <pthread.h>
#include <curl/curl.h>
#include "logic_curl.h"

#include "logic_impl.h"

/* One batch in flight: its body, its easy handle and what came back. */
typedef struct rbuf {
	char *p;
	size_t n, cap;
	int oom;
	int too_big;
} rbuf;

typedef struct slot {
	CURL *curl;
	char *body;               /* the POST body (owned), NULL when the slot is free */
	size_t nreq;              /* requests in it */
	json_t *tag;              /* the caller's, given back by kw_poster_next */
	rbuf rb;
	char errbuf[CURL_ERROR_SIZE];
	int running;              /* added to the multi handle, not done yet */
	CURLcode cc;
	int attempt;
	int parse;                /* PARSE_*: the answer's parse on the parser thread */
	json_t *ans;              /* the parsed answer (PARSE_DONE), NULL if not JSON */
} slot;

enum { PARSE_NONE, PARSE_QUEUED, PARSE_BUSY, PARSE_DONE };

struct kw_poster {
	CURLM *multi;
	slot *slots;              /* a ring: head is the oldest batch in flight */
	size_t nslots, head, count;
	char *url;                /* BASE/v1/kernels:batch */
	char *shown;              /* url as messages print it: a password in it as *** */
	struct curl_slist *headers;
	long timeout_s;
	kw_poster_opts po;
	char request_id[72];      /* X-Request-Id of the last answer taken, or "" */
	pthread_t parser;         /* parses the HTTP 200 answers (inflight > 1) */
	int parser_up, stop;
	pthread_mutex_t mu;       /* guards every slot's parse and ans, and stop */
	pthread_cond_t cv;
};

/* The parser thread: json_loadb of each queued answer, in any order. */
static void *parser_main(void *ud)
{
	kw_poster *p = ud;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		slot *s = NULL;
		for (size_t i = 0; i < p->nslots && !s; i++)
			if (p->slots[i].parse == PARSE_QUEUED)
				s = &p->slots[i];
		if (!s) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		s->parse = PARSE_BUSY;
		pthread_mutex_unlock(&p->mu);
		json_error_t je;
		json_t *ans = s->rb.p ? json_loadb(s->rb.p, s->rb.n, 0, &je) : NULL;
		pthread_mutex_lock(&p->mu);
		s->ans = ans;
		s->parse = PARSE_DONE;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The largest answer read from a server: past it the exchange fails (a
 * server that never stops sending must not take all memory). */
#define MAX_ANSWER_BYTES ((size_t)1 << 30)

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud)
{
	rbuf *b = ud;
	size_t len = size * nmemb;
	if (len > MAX_ANSWER_BYTES - b->n) {
		b->too_big = 1;
		return 0;
	}
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + len + 1)
			cap *= 2;
		char *np = realloc(b->p, cap);
		if (!np) {
			b->oom = 1;
			return 0;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
	b->p[b->n] = '\0';
	return len;
}

/* url without its password (http://user:***@host/...), for messages: a
 * CI log must not show it.  NULL when out of memory. */
static char *shown_url(const char *url)
{
	CURLU *h = curl_url();
	char *pw = NULL, *out = NULL, *copy;

	if (h && curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(h, CURLUPART_PASSWORD, &pw, 0) == CURLUE_OK && pw &&
	    curl_url_set(h, CURLUPART_PASSWORD, "***", 0) == CURLUE_OK)
		curl_url_get(h, CURLUPART_URL, &out, 0);
	curl_free(pw);
	copy = strdup(out ? out : url);
	curl_free(out);
	curl_url_cleanup(h);
	return copy;
}

int kw_poster_new(kw_poster **out, const char *base_url, long timeout_s, long inflight, const kw_poster_opts *po,
		  kw_error *err)
{
	if (!base_url || !*base_url)
		return kw_error_set(err, KW_EINVAL, "--server", "--server needs a URL such as http://127.0.0.1:8080");
	if (strncasecmp(base_url, "http://", 7) != 0 && strncasecmp(base_url, "https://", 8) != 0) {
		char *shown = shown_url(base_url);
		kw_error_set(err, KW_EINVAL, "--server",
			     "--server %.200s: the URL must start with http:// or https:// (such as "
			     "http://127.0.0.1:8080)", shown ? shown : "");
		free(shown);
		return KW_EINVAL;
	}
	if (inflight < 1 || inflight > KW_POSTER_MAX_INFLIGHT)
		return kw_error_set(err, KW_EINVAL, "--inflight", "--inflight wants 1..%d, not %ld",
				    KW_POSTER_MAX_INFLIGHT, inflight);
	if (po && po->token && (strpbrk(po->token, "\r\n") || !*po->token))
		return kw_error_set(err, KW_EINVAL, "--token", "the token is empty or holds a line break");
	kw_poster *p = calloc(1, sizeof *p);
	if (!p)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	size_t len = strlen(base_url);
	while (len > 0 && base_url[len - 1] == '/')
		len--;
	const char *path = "/v1/kernels:batch";
	p->url = malloc(len + strlen(path) + 1);
	p->multi = curl_multi_init();
	p->slots = calloc((size_t)inflight, sizeof *p->slots);
	p->nslots = (size_t)inflight;
	int easy_ok = p->slots != NULL;
	for (size_t i = 0; easy_ok && i < p->nslots; i++)
		easy_ok = (p->slots[i].curl = curl_easy_init()) != NULL;
	p->headers = curl_slist_append(NULL, "Content-Type: application/json");
	if (p->headers && po && po->token) {
		size_t n = strlen(po->token) + 32;
		char *h = malloc(n);
		struct curl_slist *nh = NULL;
		if (h) {
			snprintf(h, n, "Authorization: Bearer %s", po->token);
			nh = curl_slist_append(p->headers, h);
			free(h);
		}
		if (!nh) {
			curl_slist_free_all(p->headers);
			p->headers = NULL;
		} else {
			p->headers = nh;
		}
	}
	if (po)
		p->po = *po;
	if (!p->url || !p->multi || !easy_ok || !p->headers) {
		kw_poster_free(p);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	/* A few connections, each kept: one per batch in flight at most. */
	curl_multi_setopt(p->multi, CURLMOPT_MAX_HOST_CONNECTIONS, inflight);
	curl_multi_setopt(p->multi, CURLMOPT_MAXCONNECTS, inflight);
	memcpy(p->url, base_url, len);
	strcpy(p->url + len, path);
	p->shown = shown_url(p->url);
	if (!p->shown) {
		kw_poster_free(p);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	p->timeout_s = timeout_s > 0 ? timeout_s : 120;
	if (p->nslots > 1) { /* without the thread, answers are parsed where they are taken */
		if (pthread_mutex_init(&p->mu, NULL) == 0) {
			if (pthread_cond_init(&p->cv, NULL) == 0) {
				if (pthread_create(&p->parser, NULL, parser_main, p) == 0)
					p->parser_up = 1;
				else
					pthread_cond_destroy(&p->cv);
			}
			if (!p->parser_up)
				pthread_mutex_destroy(&p->mu);
		}
	}
	*out = p;
	return 0;
}

static void slot_clear(slot *s)
{
	free(s->body);
	s->body = NULL;
	free(s->rb.p);
	memset(&s->rb, 0, sizeof s->rb);
	json_decref(s->tag);
	s->tag = NULL;
	json_decref(s->ans);
	s->ans = NULL;
	s->parse = PARSE_NONE;
	s->nreq = 0;
	s->attempt = 0;
}

void kw_poster_free(kw_poster *p)
{
	if (!p)
		return;
	if (p->parser_up) { /* answers not begun are dropped; the one being parsed is waited for */
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		for (size_t i = 0; i < p->nslots; i++)
			if (p->slots[i].parse == PARSE_QUEUED)
				p->slots[i].parse = PARSE_NONE;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->parser, NULL);
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
	}
	for (size_t i = 0; p->slots && i < p->nslots; i++) {
		slot *s = &p->slots[i];
		if (s->running && p->multi)
			curl_multi_remove_handle(p->multi, s->curl);
		if (s->curl)
			curl_easy_cleanup(s->curl);
		slot_clear(s);
	}
	if (p->multi)
		curl_multi_cleanup(p->multi);
	free(p->slots);
	curl_slist_free_all(p->headers);
	free(p->url);
	free(p->shown);
	free(p);
}

size_t kw_poster_inflight(const kw_poster *p)
{
	return p->count;
}

size_t kw_poster_slots(const kw_poster *p)
{
	return p->nslots;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* (Re)start the exchange of slot s on the multi handle. */
static int slot_start(kw_poster *p, slot *s, kw_error *err)
{
	CURL *c = s->curl;
	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, p->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)MAX_ANSWER_BYTES); /* a Content-Length past it */
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, p->headers);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, s->body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(s->body));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &s->rb);
	curl_easy_setopt(c, CURLOPT_PRIVATE, s);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, p->timeout_s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kwgen-logic/1");
	if (p->po.cacert)
		curl_easy_setopt(c, CURLOPT_CAINFO, p->po.cacert);
	if (p->po.capath)
		curl_easy_setopt(c, CURLOPT_CAPATH, p->po.capath);
	s->errbuf[0] = '\0';
	s->rb.n = 0;
	s->rb.too_big = 0;
	s->rb.oom = 0;
	if (s->rb.p)
		s->rb.p[0] = '\0';
	s->cc = CURLE_OK;
	if (curl_multi_add_handle(p->multi, c) != CURLM_OK)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory (starting a POST)");
	s->running = 1;
	return 0;
}

/* Move every transfer on without waiting; note the ones that ended. */
static void pump(kw_poster *p)
{
	int still = 0, left = 0;
	CURLMsg *m;
	curl_multi_perform(p->multi, &still);
	while ((m = curl_multi_info_read(p->multi, &left))) {
		if (m->msg != CURLMSG_DONE)
			continue;
		slot *s = NULL;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&s);
		if (s) {
			s->cc = m->data.result;
			s->running = 0;
		}
		curl_multi_remove_handle(p->multi, m->easy_handle);
		long status = 0;
		if (s && p->parser_up && s->cc == CURLE_OK &&
		    curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK && status == 200) {
			pthread_mutex_lock(&p->mu);
			s->parse = PARSE_QUEUED;
			pthread_cond_signal(&p->cv);
			pthread_mutex_unlock(&p->mu);
		}
	}
}

void kw_poster_pump(kw_poster *p)
{
	if (p->count)
		pump(p);
}

int kw_poster_send(kw_poster *p, const json_t *requests, json_t *tag, kw_error *err)
{
	if (p->count == p->nslots) {
		json_decref(tag);
		return kw_error_set(err, KW_EINVAL, NULL, "every batch slot is in flight: take an answer first");
	}
	slot *s = &p->slots[(p->head + p->count) % p->nslots];
	json_t *doc = json_pack("{s:O}", "requests", (json_t *)requests);
	s->body = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	s->tag = tag;
	s->nreq = json_array_size(requests);
	if (!s->body) {
		slot_clear(s);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	int rc = slot_start(p, s, err);
	if (rc < 0) {
		slot_clear(s);
		return rc;
	}
	p->count++;
	pump(p);
	return 0;
}

/* Wait until slot s is done. */
static void wait_for(kw_poster *p, slot *s)
{
	while (s->running) {
		pump(p);
		if (s->running)
			curl_multi_poll(p->multi, NULL, 0, 1000, NULL);
	}
}

/* The outcome of slot s once done: 0 and *status, or KW_EIO / KW_ENOMEM with
 * err set and *retry = 1 when trying again may help. */
static int outcome(kw_poster *p, slot *s, long *status, long *retry_after, int *retry, kw_error *err)
{
	CURL *c = s->curl;
	CURLcode cc = s->cc;
	*retry = 0;
	*retry_after = 0;
	p->request_id[0] = '\0';
	if (cc != CURLE_OK) {
		*retry = cc == CURLE_COULDNT_CONNECT || cc == CURLE_OPERATION_TIMEDOUT || cc == CURLE_SEND_ERROR ||
			 cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING;
		if (s->rb.oom)
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory reading the answer of %s", p->shown);
		if (s->rb.too_big || cc == CURLE_FILESIZE_EXCEEDED)
			return kw_error_set(err, KW_EIO, NULL, "POST %s: the answer is over %zu bytes (not a kwgend?)", p->shown,
					    MAX_ANSWER_BYTES);
		return kw_error_set(err, KW_EIO, NULL, "POST %s: %s%s", p->shown,
				    s->errbuf[0] ? s->errbuf : curl_easy_strerror(cc),
				    cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CACERT_BADFILE
					    ? " (give the daemon's CA with --cacert FILE or CURL_CA_BUNDLE)" : "");
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	struct curl_header *rid = NULL;
	if (curl_easy_header(c, "X-Request-Id", 0, CURLH_HEADER, -1, &rid) == CURLHE_OK && rid && rid->value)
		snprintf(p->request_id, sizeof p->request_id, "%s", rid->value);
	curl_off_t ra = -1;
	if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
		*retry_after = (long)ra;
	return 0;
}

const char *kw_poster_request_id(const kw_poster *p)
{
	return p->request_id;
}

/* The answer of slot s (done, status known) into *out. */
static int take_answer(json_t **out, kw_poster *p, slot *s, long status, kw_error *err)
{
	json_error_t je;
	json_t *ans = NULL;
	int rc;
	if (s->parse != PARSE_NONE) { /* queued for the parser thread: wait for it */
		pthread_mutex_lock(&p->mu);
		while (s->parse != PARSE_DONE)
			pthread_cond_wait(&p->cv, &p->mu);
		ans = s->ans;
		s->ans = NULL;
		s->parse = PARSE_NONE;
		pthread_mutex_unlock(&p->mu);
	} else if (s->rb.p) {
		ans = json_loadb(s->rb.p, s->rb.n, 0, &je);
	}
	if (status != 200) {
		const char *msg = NULL, *field = NULL;
		json_t *e = json_object_get(ans, "error");
		if (json_is_object(e)) {
			msg = json_string_value(json_object_get(e, "message"));
			field = json_string_value(json_object_get(e, "field"));
		}
		rc = kw_error_set(err, KW_EIO, NULL, "POST %s: HTTP %ld%s%s%s%s%s%s", p->shown, status, msg ? ": " : "", msg ? msg : "",
				  p->request_id[0] ? " (request id " : "", p->request_id, p->request_id[0] ? ")" : "",
				  status == 401 ? (p->po.token ? " (the daemon refused the token given)"
							       : " (the daemon wants a bearer token: give --token, --token-file or KWGEN_TOKEN)")
				  : status == 422 && field && strcmp(field, "requests") == 0
					? " (give --batch N with N at most the daemon's --max-batch)"
				  : status == 413 ? " (give a smaller --batch N: the daemon's --max-body-bytes is smaller)"
						: "");
		json_decref(ans);
		return rc;
	}
	json_t *res = json_object_get(ans, "results");
	if (!json_is_array(res) || json_array_size(res) != s->nreq) {
		json_decref(ans);
		return kw_error_set(err, KW_EIO, NULL, "POST %s: the answer is not {\"results\": [...]} with %zu items",
				    p->shown, s->nreq);
	}
	*out = json_incref(res);
	json_decref(ans);
	return 0;
}

int kw_poster_next(json_t **out, json_t **tag, kw_poster *p, kw_error *err)
{
	*out = NULL;
	*tag = NULL;
	if (p->count == 0)
		return kw_error_set(err, KW_EINVAL, NULL, "no batch in flight");
	slot *s = &p->slots[p->head];
	int rc = 0;
	long status = 0;
	for (;;) {
		int retry = 0;
		long retry_after = 0;
		wait_for(p, s);
		rc = outcome(p, s, &status, &retry_after, &retry, err);
		if (rc == 0 && (status == 429 || status == 502 || status == 503 || status == 504)) {
			rc = kw_error_set(err, KW_EIO, NULL, "POST %s: HTTP %ld", p->shown, status);
			retry = 1;
			if (retry_after > 0)
				sleep_ms((retry_after > 5 ? 5 : retry_after) * 1000L);
		}
		if (rc == 0 || !retry || ++s->attempt >= 4)
			break;
		sleep_ms(200L << s->attempt);
		if (slot_start(p, s, err) < 0) {
			rc = KW_ENOMEM;
			break;
		}
	}
	if (rc == 0)
		rc = take_answer(out, p, s, status, err);
	*tag = s->tag;
	s->tag = NULL;
	slot_clear(s);
	p->head = (p->head + 1) % p->nslots;
	p->count--;
	return rc;
}
