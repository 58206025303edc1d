/*
 * jalloc.h - jansson's allocation in kwgend (json_set_alloc_funcs): each
 * thread keeps the small blocks jansson frees (up to 264 bytes each, 128
 * KiB in all) and hands them back to its next
 * allocations of that size, instead of glibc's arena paths (its per-thread
 * cache holds 7 blocks a size; parsing one request body makes and frees
 * about 600 of them).
 *
 * The blocks are malloc()'s own: a block from jansson may be given to
 * free() (json_dumps' text is freed so throughout kwgen) and jansson may
 * free what malloc() made.  A freed block is kept only when its usable
 * size (malloc_usable_size) is exactly one of glibc's small chunk sizes,
 * so an allocator that reports other sizes (a sanitizer's) just frees it.
 */
#ifndef KW_SERVER_JALLOC_H
#define KW_SERVER_JALLOC_H

/* Install the hooks.  Call first thing in main, before any jansson value
 * exists (a value must be freed by the functions that made it; these are
 * interchangeable with malloc/free, so this only matters for speed). */
void kw_jalloc_install(void);

/* Free the calling thread's kept blocks (a thread's are freed when it
 * exits; main calls this before it returns, for the leak checkers). */
void kw_jalloc_thread_release(void);

#endif
