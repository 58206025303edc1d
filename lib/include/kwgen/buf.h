/*
 * kwgen/buf.h - growable byte buffer and bump arena.
 *
 * kw_buf: a NUL-terminated growable string.  Owned by whoever declares it;
 * release with kw_buf_free.  Appends return 0 or KW_ENOMEM; after a failed
 * append the buffer is marked failed (b->oom) and further appends are no-ops,
 * so a sequence of appends can be checked once at the end.
 *
 * kw_arena: chunked bump allocator for the items of one generator run; every
 * allocation lives until kw_arena_free.  Allocations are 16-byte aligned.
 * Not thread-safe; one arena per run.
 */
#ifndef KWGEN_BUF_H
#define KWGEN_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct kw_buf {
	char *p;
	size_t len, cap;
	int oom;
} kw_buf;

#define KW_BUF_INIT { NULL, 0, 0, 0 }

int kw_buf_grow(kw_buf *b, size_t extra);
int kw_buf_put(kw_buf *b, const char *s, size_t n);
int kw_buf_puts(kw_buf *b, const char *s);
int kw_buf_putc(kw_buf *b, char c);
int kw_buf_put_i64(kw_buf *b, int64_t v);
int kw_buf_spaces(kw_buf *b, size_t n);
void kw_buf_reset(kw_buf *b);
void kw_buf_free(kw_buf *b);
/* Hand the NUL-terminated text to the caller (free()); b is reset. */
char *kw_buf_detach(kw_buf *b);

/* Decimal text of v into out (at least 21 bytes); returns its length. */
size_t kw_i64_to_str(char *out, int64_t v);

typedef struct kw_arena_chunk kw_arena_chunk;
typedef struct kw_arena {
	kw_arena_chunk *head;
	size_t used, size; /* of head */
} kw_arena;

#define KW_ARENA_INIT { NULL, 0, 0 }

/* NULL when out of memory. */
void *kw_arena_alloc(kw_arena *a, size_t n);
void *kw_arena_calloc(kw_arena *a, size_t n);
char *kw_arena_strdup(kw_arena *a, const char *s);
/* Free every chunk but keep the first (reuse across runs). */
void kw_arena_reset(kw_arena *a);
void kw_arena_free(kw_arena *a);

#endif
