/*
 * body.h - request bodies read through libmicrohttpd's upload-data
 * callback, into one buffer capped at --max-body-bytes.
 */
#ifndef KW_SERVER_BODY_H
#define KW_SERVER_BODY_H

#include <stddef.h>

typedef struct kw_body {
	char *p;      /* malloc()ed, owned; NULL until the first byte */
	size_t len;   /* bytes held */
	size_t cap;   /* bytes allocated */
	size_t max;   /* cap on len */
} kw_body;

/* Start an empty body capped at max bytes. */
void kw_body_init(kw_body *b, size_t max);

/* Append n bytes of data.  Returns 0; 1 when len would pass max (nothing
 * is appended); 2 when the buffer would have to grow past the process-wide
 * budget (kw_body_set_budget; nothing appended); -1 when out of memory.
 * Growth is geometric, never beyond max + 1 bytes. */
int kw_body_append(kw_body *b, const char *data, size_t n);

/* The most bytes all bodies together may have allocated (--max-body-memory;
 * 0 = no budget).  Without it, --max-connections clients each sending a
 * body just under --max-verify-bytes make the daemon hold their product
 * (128 GiB with the defaults).  Call before serving. */
void kw_body_set_budget(size_t bytes);

/* Bytes all bodies have allocated now. */
size_t kw_body_held(void);

/* Free the buffer and reset b (max kept). */
void kw_body_free(kw_body *b);

/* 1 if a Content-Type value is application/json (any case, parameters
 * such as "; charset=utf-8" allowed), else 0.  NULL gives 0. */
int kw_body_is_json(const char *content_type);

#endif
