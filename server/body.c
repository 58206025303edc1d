/*
 * body.c - the capped request-body buffer and the Content-Type test
 * (see body.h).
 */
#include "body.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t budget;        /* 0 = none; set once before serving */
static atomic_size_t held;   /* bytes allocated by every kw_body */

void kw_body_set_budget(size_t bytes)
{
	budget = bytes;
}

size_t kw_body_held(void)
{
	return atomic_load(&held);
}

void kw_body_init(kw_body *b, size_t max)
{
	b->p = NULL;
	b->len = b->cap = 0;
	b->max = max;
}

int kw_body_append(kw_body *b, const char *data, size_t n)
{
	if (n > b->max - b->len)
		return 1;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (cap > b->max + 1)
			cap = b->max + 1;
		if (budget && atomic_fetch_add(&held, cap - b->cap) + (cap - b->cap) > budget) {
			atomic_fetch_sub(&held, cap - b->cap);
			return 2;
		}
		if (!budget)
			atomic_fetch_add(&held, cap - b->cap);
		if (!(p = realloc(b->p, cap))) {
			atomic_fetch_sub(&held, cap - b->cap);
			return -1;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void kw_body_free(kw_body *b)
{
	atomic_fetch_sub(&held, b->cap);
	free(b->p);
	kw_body_init(b, b->max);
}

int kw_body_is_json(const char *content_type)
{
	static const char json[] = "application/json";
	size_t n = sizeof(json) - 1;

	if (!content_type)
		return 0;
	while (*content_type == ' ' || *content_type == '\t')
		content_type++;
	if (strncasecmp(content_type, json, n) != 0)
		return 0;
	content_type += n;
	while (*content_type == ' ' || *content_type == '\t')
		content_type++;
	return *content_type == '\0' || *content_type == ';';
}
