/* stream.c - kw_verify_stream: a text verified as it arrives (kwgen/verify.h).
 *
 * The text is kept in pieces (a list of chunks, never one buffer that
 * grows and is copied): the reader's instructions, symbols and findings
 * point into it, so every chunk lives until the stream is freed.  Whole
 * lines are read as soon as they are in; a line cut at a chunk's end is
 * moved to the start of the next chunk, so that every line the reader
 * sees is contiguous.  The chunks count against the memory bound of the
 * verification (vf_rd_mem_check) as they are allocated. */
#include "verify/read_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK ((size_t)1 << 20)

typedef struct chunk {
	struct chunk *next;
	size_t cap, len;   /* bytes of data[], bytes in */
	size_t done;       /* bytes read as lines */
	char data[];
} chunk;

struct kw_verify_stream {
	kw_verify_opts o;
	char isa[32];
	kw_verify_result *res;
	vf_prog p;
	rd r;
	kw_error *err;     /* of the call in progress (r.err points here) */
	kw_error err_buf;
	chunk *first, *cur;
	uint32_t lineno;
	uint64_t bytes;
	int failed;        /* an error was returned: every later call returns it */
	double t0;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void kw_verify_stream_free(kw_verify_stream *s)
{
	if (!s)
		return;
	vf_rd_free(&s->r);
	vf_prog_free(&s->p);
	kw_verify_result_free(s->res);
	for (chunk *c = s->first, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(s);
}

int kw_verify_stream_new(kw_verify_stream **out, const kw_verify_opts *o, kw_error *err)
{
	kw_verify_stream *s;
	int rc;

	*out = NULL;
	if (!o || !o->isa)
		return kw_error_set(err, KW_EINVAL, "isa", "a streamed text needs its ISA given (kw_verify_opts.isa)");
	s = calloc(1, sizeof(*s));
	if (!s)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the verification");
	s->t0 = now_s();
	s->o = *o;
	snprintf(s->isa, sizeof(s->isa), "%s", o->isa);
	s->o.isa = s->isa;
	s->o.suppressions = NULL; /* parsed below; not kept */
	rc = vf_result_new(&s->res, o, err);
	if (!rc && o->suppressions)
		rc = vf_rules_parse(s->res, o->suppressions, err);
	if (!rc) {
		s->p.max_instructions = o->max_instructions ? o->max_instructions : (size_t)64 << 20;
		s->p.max_memory = o->max_memory ? o->max_memory : vf_default_memory(0);
		s->p.assume_atomic_counters = o->assume_atomic_counters || o->assume_line ||
					      s->res->assume_from == KW_VERIFY_FROM_SUPPRESSIONS;
		s->p.assume_line = o->assume_line;
		rc = vf_rd_begin(&s->r, &s->p, NULL, 0, s->isa, NULL, err);
		s->r.stream = 1;
	}
	if (rc) {
		kw_verify_stream_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* Fail the stream: every later call answers the same. */
static int fail(kw_verify_stream *s, kw_error *err, int rc)
{
	if (!s->failed) {
		/* the reader returns -1 for every error it names in err */
		if (err && err->code)
			rc = err->code;
		s->failed = rc ? rc : KW_EINTERNAL;
		if (err && err != &s->err_buf)
			s->err_buf = *err;
	}
	return s->failed;
}

static int failed(kw_verify_stream *s, kw_error *err)
{
	if (err)
		*err = s->err_buf;
	return s->failed;
}

int kw_verify_stream_space(kw_verify_stream *s, size_t want, char **p, size_t *avail, kw_error *err)
{
	chunk *c = s->cur, *n;
	size_t tail, cap;

	*p = NULL;
	*avail = 0;
	if (s->failed)
		return failed(s, err);
	if (!want)
		want = 1;
	if (c && c->cap - c->len >= want) {
		*p = c->data + c->len;
		*avail = c->cap - c->len;
		return 0;
	}
	/* a new chunk, starting with the line not yet complete */
	tail = c ? c->len - c->done : 0;
	cap = CHUNK;
	if (cap < 2 * tail + want)
		cap = 2 * tail + want;
	s->r.err = err;
	if (vf_rd_mem_check(&s->r, cap + sizeof(chunk)))
		return fail(s, err, KW_ELIMIT);
	n = malloc(sizeof(chunk) + cap);
	if (!n)
		return fail(s, err, kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the text"));
	n->next = NULL;
	n->cap = cap;
	n->len = tail;
	n->done = 0;
	if (tail)
		memcpy(n->data, c->data + c->done, tail);
	if (c) {
		c->len = c->done; /* the moved tail is not this chunk's */
		c->next = n;
	} else {
		s->first = n;
	}
	s->cur = n;
	s->r.held += sizeof(chunk) + cap;
	*p = n->data + n->len;
	*avail = n->cap - n->len;
	return 0;
}

/* Read the lines of c from c->done up to (and with last: past) its last
 * newline. */
static int read_lines(kw_verify_stream *s, chunk *c, int last)
{
	const char *q = c->data + c->done, *end = c->data + c->len;

	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *e = nl ? nl : end;
		int rc;
		if (!nl && !last)
			break;
		if (s->lineno == UINT32_MAX)
			return kw_error_set(s->r.err, KW_ELIMIT, NULL, "the text has more than 4G lines");
		s->lineno++;
		rc = vf_rd_line(&s->r, q, e, s->lineno);
		if (rc)
			return rc;
		q = nl ? nl + 1 : end;
	}
	c->done = (size_t)(q - c->data);
	return 0;
}

int kw_verify_stream_commit(kw_verify_stream *s, size_t n, kw_error *err)
{
	chunk *c = s->cur;
	int rc;

	if (s->failed)
		return failed(s, err);
	if (!n)
		return 0;
	if (!c || n > c->cap - c->len)
		return fail(s, err, kw_error_set(err, KW_EINVAL, NULL, "committed more bytes than were given"));
	if (memchr(c->data + c->len, 0, n))
		return fail(s, err, kw_error_set(err, KW_EINVAL, NULL,
						 "the input contains a NUL byte: not assembly text"));
	c->len += n;
	s->bytes += n;
	s->r.err = err;
	rc = read_lines(s, c, 0);
	return rc ? fail(s, err, rc) : 0;
}

int kw_verify_stream_feed(kw_verify_stream *s, const char *data, size_t len, kw_error *err)
{
	while (len) {
		char *p;
		size_t avail;
		int rc = kw_verify_stream_space(s, 1, &p, &avail, err);
		if (rc)
			return rc;
		if (avail > len)
			avail = len;
		memcpy(p, data, avail);
		rc = kw_verify_stream_commit(s, avail, err);
		if (rc)
			return rc;
		data += avail;
		len -= avail;
	}
	return s->failed ? failed(s, err) : 0;
}

int kw_verify_stream_finish(kw_verify_stream *s, kw_verify_result **out, kw_error *err)
{
	int rc;

	*out = NULL;
	if (s->failed)
		return failed(s, err);
	s->r.err = err;
	rc = s->cur ? read_lines(s, s->cur, 1) : 0;
	if (!rc) {
		s->p.nlines = s->lineno;
		rc = vf_rd_end(&s->r);
		if (rc > 0)
			rc = KW_EINVAL;
	}
	if (!rc) {
		if (s->o.source_lines && s->o.n_source_lines) {
			s->res->src = s->o.source_lines;
			s->res->nsrc = s->o.n_source_lines;
			s->res->src_prog = &s->p;
		}
		rc = vf_analyze_assumed(&s->p, s->res, &s->o, err);
		s->res->src = NULL;
		s->res->nsrc = 0;
		s->res->src_prog = NULL;
	}
	if (rc)
		return fail(s, err, rc);
	snprintf(s->res->isa, sizeof(s->res->isa), "%s", s->p.isa->name);
	vf_findings_sort(s->res);
	s->res->stats.bytes = s->bytes;
	s->res->stats.seconds = now_s() - s->t0;
	*out = s->res;
	s->res = NULL;
	s->failed = KW_EINVAL; /* finished: nothing more to give */
	kw_error_set(&s->err_buf, KW_EINVAL, NULL, "the stream is finished");
	return 0;
}
