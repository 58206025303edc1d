/*
 * verify.c - POST /v1/verify and GET /v1/verify/{key} (see verify.h).
 *
 * The path of one request: check the body (Content-Type, JSON shape, ISA
 * name) -> key (SHA-256 of the verifier salt, the form, the ISA, the
 * options and the body) -> cache lookup -> [decode the code object] ->
 * kw_verify_text -> answer JSON -> one cache transaction.  The stored row
 * says "cached": true, which is what later readers are served verbatim.
 */
#include "verify.h"

#include <ctype.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kwgen/buf.h"
#include "kwgen/codeobj.h"
#include "kwgen/request.h"
#include "kwgen/verify.h"
#include "log.h"
#include "metrics.h"

enum { FORM_TEXT = 0, FORM_CODEOBJ = 1 };

/* A verification whose body or decoded text is this large is followed by
 * malloc_trim(0). */
#define KW_VERIFY_TRIM_BYTES ((size_t)1 << 20)

struct kw_vreq {
	int form;
	char *data;      /* the assembly text or the code object bytes (owned) */
	size_t len;
	char isa[32];    /* given (?isa= or "isa"), or "" = from the input */
	char *supp;      /* suppression rules, or NULL */
	int no_redundant;
	int assume_atomic_counters; /* kw_verify_opts.assume_atomic_counters */
	int assume_given;           /* the JSON body named it */
	int bypass;      /* ?cache=bypass: verify even when stored */
	char key[65];
};

const char *kw_vreq_key(const kw_vreq *q)
{
	return q->key;
}

/* After a large verification: give the freed memory back to the system
 * (glibc keeps a freed heap chunk in its arena; see kw_verify_trim_bytes). */
static void trim_after(size_t bytes)
{
#ifdef __GLIBC__
	if (bytes >= KW_VERIFY_TRIM_BYTES)
		malloc_trim(0);
#else
	(void)bytes;
#endif
}

void kw_vreq_free(kw_vreq *q)
{
	size_t n;

	if (!q)
		return;
	n = q->len;
	free(q->data);
	free(q->supp);
	free(q);
	trim_after(n);
}

/* The media type of a Content-Type value, lower case, without parameters. */
static void media_type(char *out, size_t cap, const char *ct)
{
	size_t n = 0;

	if (ct)
		while (*ct == ' ' || *ct == '\t')
			ct++;
	for (; ct && *ct && *ct != ';' && *ct != ' ' && *ct != '\t' && n + 1 < cap; ct++)
		out[n++] = (char)tolower((unsigned char)*ct);
	out[n] = '\0';
}

static int form_of(const char *ct)
{
	char mt[64];

	media_type(mt, sizeof(mt), ct);
	if (strcmp(mt, "text/plain") == 0)
		return FORM_TEXT;
	if (strcmp(mt, "application/octet-stream") == 0)
		return FORM_CODEOBJ;
	if (strcmp(mt, "application/json") == 0)
		return 2;
	return -1;
}

int kw_verify_content_type_ok(const char *content_type)
{
	return form_of(content_type) >= 0;
}

/* An ISA name as given: 1..31 of [a-z0-9]; the verifier checks it is one
 * it models. */
static int isa_ok(const char *isa)
{
	size_t n = strlen(isa);

	if (n == 0 || n >= 32)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)isa[i]) && !isdigit((unsigned char)isa[i]))
			return 0;
	return 1;
}

static int key_of(kw_vreq *q)
{
	static const char hex[] = "0123456789abcdef";
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char d[32];
	unsigned int dl = 0;
	/* the verifier's version (bumped whenever findings may change) and the
	 * generator's (it changes with every generator output change, which
	 * also invalidates verifications: harmless) */
	const char *vsalt = kw_verify_version(), *salt = kw_generator_version();
	/* the options, one character: '0' + no_redundant + 2 x
	 * assume_atomic_counters ('0' / '1' without the second, as before it) */
	char form = q->form == FORM_CODEOBJ ? 'o' : 't',
	     nr = (char)('0' + (q->no_redundant ? 1 : 0) + (q->assume_atomic_counters ? 2 : 0));
	int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 &&
		 EVP_DigestUpdate(md, vsalt, strlen(vsalt) + 1) == 1 &&
		 EVP_DigestUpdate(md, salt, strlen(salt) + 1) == 1 &&
		 EVP_DigestUpdate(md, &form, 1) == 1 && EVP_DigestUpdate(md, "", 1) == 1 &&
		 EVP_DigestUpdate(md, q->isa, strlen(q->isa) + 1) == 1 &&
		 EVP_DigestUpdate(md, &nr, 1) == 1 && EVP_DigestUpdate(md, "", 1) == 1 &&
		 EVP_DigestUpdate(md, q->supp ? q->supp : "", q->supp ? strlen(q->supp) + 1 : 1) == 1 &&
		 EVP_DigestUpdate(md, q->data, q->len) == 1 && EVP_DigestFinal_ex(md, d, &dl) == 1 &&
		 dl == 32;

	EVP_MD_CTX_free(md);
	if (!ok)
		return -1;
	for (int i = 0; i < 32; i++) {
		q->key[2 * i] = hex[d[i] >> 4];
		q->key[2 * i + 1] = hex[d[i] & 15];
	}
	q->key[64] = '\0';
	return 0;
}

static char *dup_bytes(const char *p, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		if (n)
			memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

/* The JSON body form.  Returns 0, or -1 with out filled. */
static int from_json(kw_reply *out, kw_vreq *q, const char *body, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &jerr), *v;
	const char *k;
	int rc = -1;

	if (!root) {
		kw_reply_error(out, 400, "syntax", NULL, "invalid JSON at line %d, column %d: %s", jerr.line,
			       jerr.column, jerr.text);
		return -1;
	}
	if (!json_is_object(root)) {
		kw_reply_error(out, 400, "syntax", NULL,
			       "the body must be a JSON object {\"isa\", \"asm\", \"suppressions\", \"no_redundant\", "
			       "\"assume_atomic_counters\"}");
		goto done;
	}
	json_object_foreach(root, k, v) {
		if (strcmp(k, "isa") && strcmp(k, "asm") && strcmp(k, "suppressions") && strcmp(k, "no_redundant") &&
		    strcmp(k, "assume_atomic_counters")) {
			kw_reply_error(out, 422, "invalid", k,
				       "unknown key \"%s\"; a verify request has \"isa\", \"asm\", \"suppressions\", "
				       "\"no_redundant\" and \"assume_atomic_counters\"",
				       k);
			goto done;
		}
	}
	v = json_object_get(root, "asm");
	if (!json_is_string(v)) {
		kw_reply_error(out, 422, "invalid", "asm",
			       v ? "\"asm\" must be a string: the assembly text"
				 : "\"asm\" is missing: give the assembly text (clang -S or llvm-objdump -d form)");
		goto done;
	}
	q->len = json_string_length(v);
	if (!(q->data = dup_bytes(json_string_value(v), q->len)))
		goto oom;
	v = json_object_get(root, "isa");
	if (v) {
		if (!json_is_string(v) || !isa_ok(json_string_value(v))) {
			kw_reply_error(out, 422, "invalid", "isa",
				       "\"isa\" must be a processor name such as \"gfx942\"");
			goto done;
		}
		snprintf(q->isa, sizeof(q->isa), "%s", json_string_value(v));
	}
	v = json_object_get(root, "suppressions");
	if (v) {
		if (!json_is_string(v)) {
			kw_reply_error(out, 422, "invalid", "suppressions",
				       "\"suppressions\" must be a string: suppression rules, one a line");
			goto done;
		}
		if (!(q->supp = dup_bytes(json_string_value(v), json_string_length(v))))
			goto oom;
	}
	v = json_object_get(root, "no_redundant");
	if (v) {
		if (!json_is_boolean(v)) {
			kw_reply_error(out, 422, "invalid", "no_redundant", "\"no_redundant\" must be true or false");
			goto done;
		}
		q->no_redundant = json_is_true(v);
	}
	v = json_object_get(root, "assume_atomic_counters");
	if (v) {
		if (!json_is_boolean(v)) {
			kw_reply_error(out, 422, "invalid", "assume_atomic_counters",
				       "\"assume_atomic_counters\" must be true or false");
			goto done;
		}
		q->assume_atomic_counters = json_is_true(v);
		q->assume_given = 1;
	}
	rc = 0;
	goto done;
oom:
	kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
	out->retry_after = 1;
done:
	json_decref(root);
	return rc;
}

int kw_verify_prepare(kw_reply *out, kw_vreq **req, kw_srv *s, const char *body, size_t len,
		      const char *content_type, const char *isa_q, const char *assume_q, int bypass)
{
	int form = form_of(content_type);
	kw_vreq *q;
	char *hit = NULL;
	size_t hit_len = 0;

	*req = NULL;
	if (form < 0) {
		kw_reply_error(out, 415, "unsupported_media_type", NULL,
			       "POST /v1/verify takes text/plain (assembly), application/json "
			       "({\"isa\", \"asm\"}) or application/octet-stream (a code object)");
		return 0;
	}
	if (len > s->cfg.max_verify_bytes) {
		kw_reply_error(out, 413, "too_large", NULL, "the body is over %zu bytes (--max-verify-bytes)",
			       s->cfg.max_verify_bytes);
		return 0;
	}
	if (!(q = calloc(1, sizeof(*q)))) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		return 0;
	}
	if (form == 2) {
		if (from_json(out, q, body, len) < 0)
			goto refuse;
		q->form = FORM_TEXT;
	} else {
		q->form = form;
		if (len == 0) {
			kw_reply_error(out, 422, "invalid", "body",
				       form == FORM_TEXT ? "the body is empty: send the assembly text"
							 : "the body is empty: send the code object (ELF)");
			goto refuse;
		}
		if (form == FORM_CODEOBJ && !kw_codeobj_is_elf(body, len)) {
			kw_reply_error(out, 422, "invalid", "body",
				       "an application/octet-stream body must be an AMDGPU code object "
				       "(ELF, starting with \\x7fELF); send assembly as text/plain");
			goto refuse;
		}
		if (form == FORM_CODEOBJ) {
			/* a foreign ELF is refused here, before a decoder
			 * process is started for it (?isa= overrides e_flags,
			 * not e_machine) */
			kw_error me = KW_ERROR_INIT;

			if (kw_codeobj_check_machine(body, len, &me) < 0) {
				kw_reply_error(out, 422, "invalid", "body", "%s", me.message);
				goto refuse;
			}
		}
		if (!(q->data = dup_bytes(body, len))) {
			kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
			out->retry_after = 1;
			goto refuse;
		}
		q->len = len;
	}
	if (assume_q) {
		/* ?assume_atomic_counters=true|false: the JSON member for a
		 * text/plain or code-object body; with a JSON body both must agree */
		int v = !strcmp(assume_q, "true") || !strcmp(assume_q, "1") ? 1
			: !strcmp(assume_q, "false") || !strcmp(assume_q, "0") ? 0 : -1;
		if (v < 0) {
			kw_reply_error(out, 422, "invalid", "assume_atomic_counters",
				       "?assume_atomic_counters= must be true or false (or 1 or 0)");
			goto refuse;
		}
		if (q->assume_given && q->assume_atomic_counters != v) {
			kw_reply_error(out, 422, "invalid", "assume_atomic_counters",
				       "?assume_atomic_counters= and the body's \"assume_atomic_counters\" disagree");
			goto refuse;
		}
		q->assume_atomic_counters = v;
	}
	if (isa_q && q->isa[0] && strcmp(isa_q, q->isa) != 0) {
		kw_reply_error(out, 422, "invalid", "isa", "?isa= and the body's \"isa\" disagree; give one");
		goto refuse;
	}
	if (isa_q && !q->isa[0]) {
		if (!isa_ok(isa_q)) {
			kw_reply_error(out, 422, "invalid", "isa",
				       "?isa= must be a processor name such as gfx942");
			goto refuse;
		}
		snprintf(q->isa, sizeof(q->isa), "%s", isa_q);
	}
	if (key_of(q) < 0) {
		kw_reply_error(out, 500, "internal", NULL, "SHA-256 unavailable");
		goto refuse;
	}
	memcpy(out->key, q->key, sizeof(out->key));
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", q->key);
	if (!bypass && kw_cache_get(&hit, &hit_len, s->cache, q->key, NULL) == 0) {
		kw_reply_text(out, 200, hit, hit_len, NULL);
		out->cached = 1;
		kw_vreq_free(q);
		return 0;
	}
	q->bypass = bypass;
	*req = q;
	return 1;
refuse:
	kw_vreq_free(q);
	return 0;
}

/* out = the answer for r under key: client ("cached": false) and stored
 * ("cached": true) texts.  Returns 0, or -1 when out of memory. */
static int answer_texts(char **client, char **stored, const kw_verify_result *r, const char *key)
{
	kw_buf b = KW_BUF_INIT;
	kw_error e = KW_ERROR_INIT;
	json_t *root = NULL;

	*client = *stored = NULL;
	if (kw_verify_result_json(&b, r, &e) == 0)
		root = json_loadb(b.p, b.len, 0, NULL);
	kw_buf_free(&b);
	if (!root || json_object_set_new(root, "key", json_string(key)) ||
	    json_object_set_new(root, "verifier", json_string(kw_verify_version())) ||
	    json_object_set_new(root, "cached", json_false()) ||
	    !(*client = json_dumps(root, JSON_COMPACT)) ||
	    json_object_set_new(root, "cached", json_true()) || !(*stored = json_dumps(root, JSON_COMPACT))) {
		json_decref(root);
		free(*client);
		*client = NULL;
		return -1;
	}
	json_decref(root);
	return 0;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void kw_verify_run(kw_reply *out, kw_srv *s, kw_vreq *q)
{
	kw_verify_opts o = KW_VERIFY_OPTS_INIT;
	kw_verify_result *r = NULL;
	kw_error e = KW_ERROR_INIT;
	char *dis = NULL, *client = NULL, *stored = NULL, *request = NULL, *hit = NULL;
	const char *text = q->data, *isa = q->isa[0] ? q->isa : NULL;
	char isa_buf[KW_CODEOBJ_ISA_MAX];
	size_t len = q->len, hit_len = 0;
	double t0 = mono_s();
	/* the memory bound of this verification: a decoded text and what
	 * reading it holds together */
	size_t budget = s->cfg.max_verify_memory ? s->cfg.max_verify_memory
		      : q->len > (SIZE_MAX - ((size_t)96 << 20)) / 16 ? SIZE_MAX
								      : 16 * q->len + ((size_t)96 << 20);

	memcpy(out->key, q->key, sizeof(out->key));
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", q->key);
	/* the leader of this key's flight: an identical request's flight may
	 * have stored it between kw_verify_prepare's lookup and the join */
	if (!q->bypass && kw_cache_get(&hit, &hit_len, s->cache, q->key, NULL) == 0) {
		kw_reply_text(out, 200, hit, hit_len, NULL);
		out->cached = 1;
		return;
	}
	o.isa = isa;
	o.max_instructions = s->cfg.max_verify_instructions;
	o.max_work = (uint64_t)s->cfg.max_verify_work;
	o.suppressions = q->supp;
	o.max_memory = budget;
	o.no_redundant = q->no_redundant;
	o.assume_atomic_counters = q->assume_atomic_counters;
	o.filename = "request";
	if (q->form == FORM_CODEOBJ) {
		int undecodable = 0, decoder = 0;

		/* decoded in a child process (LLVM's disassembler crashes on
		 * some bytes, which must not take the daemon down), its text
		 * verified as it comes */
		if (kw_codeobj_verify_child(q->data, q->len, isa, "code object", s->cfg.max_verify_instructions, NULL,
					    &o, &r, isa_buf, &undecodable, &decoder, &e) < 0) {
			/* KW_ENOMEM from the decoder: its text passed the
			 * decoder process's bound (a property of the body:
			 * retrying cannot help) */
			if (undecodable || (decoder && e.code == KW_ENOMEM)) {
				kw_log(KW_LOG_WARN, "verification %s: %s", q->key, e.message);
				if (undecodable)
					kw_reply_error(out, 422, "undecodable", "body", "%s", e.message);
				else
					kw_reply_error(out, 422, "undecodable", "body", "cannot decode the code object: %s",
						       e.message);
				goto done;
			}
			if (e.code == KW_EIO && atomic_load(&s->draining)) {
				/* stopped at the end of --drain-seconds */
				kw_reply_error(out, 503, "draining", NULL,
					       "the server is shutting down; the decoding was stopped");
				out->retry_after = 1;
				goto done;
			}
			if (decoder && e.code == KW_ELIMIT && strcmp(e.field, "max_memory"))
				snprintf(e.message + strlen(e.message), sizeof(e.message) - strlen(e.message),
					 " (--max-verify-instructions)");
			kw_reply_kw_error(out, &e);
			goto done;
		}
	}
	if (q->form == FORM_TEXT && kw_verify_text(&r, text, len, &o, &e) < 0 && !strcmp(e.field, "data_words")) {
		/* instructions as .long words (Tensile's shipped kernels):
		 * decoded with LLVM's disassembler in a child process,
		 * verified as they come; findings name the words' lines */
		kw_error we = KW_ERROR_INIT;
		int undecodable = 0, decoder = 0;

		if (kw_codeobj_verify_words_child(q->data, q->len, isa, "request", s->cfg.max_verify_instructions, NULL,
						  &o, &r, isa_buf, &undecodable, &decoder, &we) == 0) {
			kw_error_clear(&e);
		} else if (undecodable || (decoder && we.code == KW_ENOMEM)) {
			kw_reply_error(out, 422, "undecodable", "body", "%s", we.message);
			goto done;
		} else if (we.code == KW_EIO && atomic_load(&s->draining)) {
			/* stopped at the end of --drain-seconds, as a code object's */
			kw_reply_error(out, 503, "draining", NULL,
				       "the server is shutting down; the decoding was stopped");
			out->retry_after = 1;
			goto done;
		} else if (strcmp(we.field, "objdump")) {
			e = we; /* why the words cannot be decoded */
		}
	}
	if (!r) {
		kw_reply_kw_error(out, &e);
		goto done;
	}
	json_t *rq = json_pack("{s:s,s:s,s:s,s:I,s:b,s:b}", "route", "/v1/verify", "form",
			       q->form == FORM_CODEOBJ ? "code_object" : "text", "isa", kw_verify_result_isa(r),
			       "bytes", (json_int_t)q->len, "no_redundant", q->no_redundant, "assume_atomic_counters",
			       q->assume_atomic_counters);
	request = rq ? json_dumps(rq, JSON_COMPACT) : NULL;
	json_decref(rq);
	if (!request || answer_texts(&client, &stored, r, q->key) < 0) {
		kw_reply_error(out, 503, "no_memory", NULL, "out of memory");
		out->retry_after = 1;
		goto done;
	}
	/* the row carries the verifier's version (KW_CACHE_VERIFY_PREFIX):
	 * kwgen cache and the kernel routes tell it from a kernel by it */
	kw_cache_entry entry = { q->key, q->key, kw_verify_version(), kw_verify_result_isa(r), request, "",
				 "[]", stored, NULL };
	if (kw_cache_put(s->cache, &entry, &e) < 0) {
		kw_log(KW_LOG_ERROR, "cache write failed for verification %s: %s", q->key, e.message);
		kw_reply_error(out, 503, "storage", NULL, "the cache could not store the result: %s", e.message);
		out->retry_after = 1;
		goto done;
	}
	kw_reply_text(out, 200, client, strlen(client), NULL);
	client = NULL;
	out->cached = 0;
done:
	kw_metrics_verification(mono_s() - t0);
	kw_verify_result_free(r);
	free(dis);
	free(client);
	free(stored);
	free(request);
	trim_after(len > q->len ? len : q->len);
}

/* The route's key: 64 lower-case hex digits naming a stored verification
 * (kernel rows share the store).  1 it is one; 0 the 404 is in out;
 * negative a store error in e (KW_ENOTFOUND: no such row). */
static int verification_key(kw_reply *out, kw_srv *s, const char *key, const char *method, kw_error *e)
{
	int rc;

	if (strlen(key) != 64 || strspn(key, "0123456789abcdef") != 64) {
		kw_reply_error(out, 404, "not_found", "key",
			       "a key is 64 lower-case hex digits (the \"key\" of a POST /v1/verify answer)");
		return 0;
	}
	rc = kw_cache_is_verification(s->cache, key, e);
	if (rc == 0)
		kw_reply_error(out, 404, "not_found", "key",
			       "this key is a kernel, not a verification: %s /v1/kernels/{key}", method);
	return rc;
}

/* A store error after verification_key or the read / delete it allowed. */
static void reply_store_error(kw_reply *out, int rc, const kw_error *e)
{
	if (rc == KW_ENOTFOUND)
		kw_reply_error(out, 404, "not_found", "key", "no stored verification has this key");
	else
		kw_reply_kw_error(out, e);
}

void kw_verify_get(kw_reply *out, kw_srv *s, const char *key)
{
	kw_error e = KW_ERROR_INIT;
	char *text = NULL;
	size_t len = 0;
	int rc = verification_key(out, s, key, "GET", &e);

	if (rc == 0)
		return;
	if (rc > 0)
		rc = kw_cache_get(&text, &len, s->cache, key, &e);
	if (rc < 0) {
		reply_store_error(out, rc, &e);
		return;
	}
	memcpy(out->key, key, 65);
	snprintf(out->etag, sizeof(out->etag), "\"%s\"", key);
	out->cached = 1;
	kw_reply_text(out, 200, text, len, NULL);
}

void kw_verify_delete(kw_reply *out, kw_srv *s, const char *key)
{
	kw_error e = KW_ERROR_INIT;
	int rc = verification_key(out, s, key, "DELETE", &e);

	if (rc == 0)
		return;
	memcpy(out->key, key, 65);
	if (rc > 0)
		rc = kw_cache_delete(s->cache, key, &e);
	if (rc < 0) {
		reply_store_error(out, rc, &e);
		return;
	}
	kw_reply_json(out, 200, json_pack("{s:s,s:b}", "key", key, "deleted", 1));
}
