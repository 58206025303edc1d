/*
 * kernels_get.c - GET and DELETE /v1/kernels/{key} (kernels.h): a stored
 * answer by its key, from the memory a POST hit uses before SQLite (ETag
 * and the text/plain variant included), and its removal.
 */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "memo.h"

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

/* A stored answer's key, ETag (the text variant's own) and "cached"; when
 * If-None-Match names that ETag, a 304 (text, the stored bytes, freed).
 * Returns 1 if the 304 was given. */
static int not_modified(kw_reply *out, const char *key, int as_text, const char *if_none_match, char *text)
{
	memcpy(out->key, key, 65);
	snprintf(out->etag, sizeof(out->etag), as_text ? "\"%s-text\"" : "\"%s\"", key);
	out->cached = 1;
	if (!etag_matches(if_none_match, out->etag))
		return 0;
	free(text);
	kw_reply_text(out, 304, NULL, 0, NULL);
	return 1;
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
	/* Held in memory (a GET of the last second): no SQLite. */
	if (kw_memo_get_row(s->memo, key, as_text, &text, &len)) {
		kw_cache_touch(s->cache, key); /* recency only */
		if (!not_modified(out, key, as_text, if_none_match, text))
			kw_reply_text(out, 200, text, len, as_text ? "text/plain; charset=utf-8" : NULL);
		return;
	}
	/* the verification routes share the store: a verification is no kernel */
	rc = kw_cache_is_verification(s->cache, key, &e);
	if (rc > 0) {
		kw_reply_error(out, 404, "not_found", "key",
			       "this key is a verification, not a kernel: GET /v1/verify/{key}");
		return;
	}
	if (rc == 0)
		rc = kw_cache_get(&text, &len, s->cache, key, &e);
	if (rc < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	if (not_modified(out, key, as_text, if_none_match, text))
		return;
	kw_reply_text(out, 200, text, len, NULL);
	/* The row's source (a row deleted meanwhile just has none). */
	if (kw_cache_get_source(&src, s->cache, key, NULL) == 0)
		kw_answer_splice_source(out, src);
	free(src);
	if (out->status == 200)
		kw_memo_put_row(s->memo, key, 0, out->body, out->len);
	if (as_text) {
		snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
		kw_kernels_to_text(out);
		if (out->status == 200)
			kw_memo_put_row(s->memo, key, 1, out->body, out->len);
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
	if (kw_cache_is_verification(s->cache, key, NULL) > 0) {
		kw_reply_error(out, 404, "not_found", "key",
			       "this key is a verification, not a kernel: DELETE /v1/verify/{key}");
		return;
	}
	if (kw_cache_delete(s->cache, key, &e) < 0) {
		kw_reply_kw_error(out, &e);
		return;
	}
	kw_memo_forget(s->memo, key);
	kw_reply_json(out, 200, json_pack("{s:s,s:b}", "key", key, "deleted", 1));
}
