/* buf.c - growable buffer and bump arena (kwgen/buf.h). */
#include "kwgen/buf.h"
#include "kwgen/error.h"

#include <stdlib.h>
#include <string.h>

int kw_buf_grow(kw_buf *b, size_t extra)
{
	size_t need, ncap;
	char *np;

	if (b->oom)
		return KW_ENOMEM;
	if (extra > SIZE_MAX / 2 - b->len - 1)
		goto fail;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 256;
	while (ncap < need)
		ncap *= 2;
	np = realloc(b->p, ncap);
	if (!np)
		goto fail;
	b->p = np;
	b->cap = ncap;
	b->p[b->len] = '\0';
	return 0;
fail:
	b->oom = 1;
	return KW_ENOMEM;
}

int kw_buf_put(kw_buf *b, const char *s, size_t n)
{
	if (kw_buf_grow(b, n))
		return KW_ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int kw_buf_puts(kw_buf *b, const char *s)
{
	return kw_buf_put(b, s, strlen(s));
}

int kw_buf_putc(kw_buf *b, char c)
{
	if (kw_buf_grow(b, 1))
		return KW_ENOMEM;
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
	return 0;
}

size_t kw_i64_to_str(char *out, int64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n, i = 0;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;
		u /= 100;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	}
	if (u >= 10) {
		unsigned d = (unsigned)u * 2;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		out[i++] = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out + i, p, n);
	out[i + n] = '\0';
	return i + n;
}

int kw_buf_put_i64(kw_buf *b, int64_t v)
{
	char tmp[24];
	size_t n = kw_i64_to_str(tmp, v);

	return kw_buf_put(b, tmp, n);
}

int kw_buf_spaces(kw_buf *b, size_t n)
{
	if (kw_buf_grow(b, n))
		return KW_ENOMEM;
	memset(b->p + b->len, ' ', n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void kw_buf_reset(kw_buf *b)
{
	b->len = 0;
	b->oom = 0;
	if (b->p)
		b->p[0] = '\0';
}

void kw_buf_free(kw_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

char *kw_buf_detach(kw_buf *b)
{
	char *p;

	if (!b->p && kw_buf_grow(b, 0))
		return NULL;
	p = b->p;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

struct kw_arena_chunk {
	kw_arena_chunk *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

void *kw_arena_alloc(kw_arena *a, size_t n)
{
	kw_arena_chunk *c;
	size_t sz;

	n = (n + 15) & ~(size_t)15;
	if (a->head && a->size - a->used >= n) {
		void *p = a->head->data + a->used;
		a->used += n;
		return p;
	}
	sz = a->head ? a->head->size * 2 : 16384;
	if (sz > (1u << 22))
		sz = 1u << 22;
	if (sz < n)
		sz = n;
	c = malloc(sizeof(*c) + sz);
	if (!c)
		return NULL;
	c->size = sz;
	c->next = a->head;
	a->head = c;
	a->size = sz;
	a->used = n;
	return c->data;
}

void *kw_arena_calloc(kw_arena *a, size_t n)
{
	void *p = kw_arena_alloc(a, n);

	if (p)
		memset(p, 0, n);
	return p;
}

char *kw_arena_strdup(kw_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kw_arena_alloc(a, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

void kw_arena_reset(kw_arena *a)
{
	kw_arena_chunk *c = a->head, *next;

	if (!c)
		return;
	/* keep the newest (largest) chunk */
	next = c->next;
	c->next = NULL;
	while (next) {
		kw_arena_chunk *n2 = next->next;
		free(next);
		next = n2;
	}
	a->used = 0;
	a->size = c->size;
}

void kw_arena_free(kw_arena *a)
{
	kw_arena_chunk *c = a->head;

	while (c) {
		kw_arena_chunk *n = c->next;
		free(c);
		c = n;
	}
	a->head = NULL;
	a->used = a->size = 0;
}
