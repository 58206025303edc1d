/* jalloc.c - jansson's allocations for one miss in a bump arena (jalloc.h). */
#include "jalloc.h"

#include <jansson.h>
#include <stdlib.h>

#include "kwgen/buf.h"

static _Thread_local kw_arena arena = KW_ARENA_INIT;
static _Thread_local int depth;  /* open scopes */
static _Thread_local int active; /* new blocks from the arena */

static void *jalloc_malloc(size_t n)
{
	if (active && n < KW_JALLOC_MAX)
		return kw_arena_alloc(&arena, n);
	return malloc(n);
}

/* An arena block is freed with its arena (the outermost kw_jalloc_end). */
static void jalloc_free(void *p)
{
	if (p && arena.head && kw_arena_owns(&arena, p))
		return;
	free(p);
}

void kw_jalloc_init(void)
{
	json_set_alloc_funcs(jalloc_malloc, jalloc_free);
}

int kw_jalloc_begin(void)
{
	int prev = active;

	depth++;
	active = 1;
	return prev;
}

void kw_jalloc_pause(void)
{
	active = 0;
}

void kw_jalloc_end(int prev)
{
	if (--depth > 0) {
		active = prev;
		return;
	}
	depth = 0;
	active = 0;
	kw_arena_free(&arena); /* nothing kept between misses or past a thread's end */
}
