/*
 * jalloc.h - jansson's allocations for one miss in a bump arena.
 *
 * A miss builds three JSON trees that never leave the request: the body
 * (until it is parsed into a kw_request), the canonical request
 * (kw_request_ids) and the answer (kw_request_run, dumped to text at
 * once).  Their ~800 small blocks a miss went through malloc and free one
 * by one (about a tenth of a miss's instructions).  Inside a scope
 * (kw_jalloc_begin .. kw_jalloc_end) on a thread, jansson takes its blocks
 * from that thread's arena instead; frees of arena blocks do nothing, and
 * the outermost kw_jalloc_end frees the arena.  kw_jalloc_pause sends new
 * blocks to malloc again for what must outlive the scope (a kw_request's
 * own copies, json_dumps texts that callers free(), error replies), while
 * the arena's trees stay readable.  Blocks of KW_JALLOC_MAX bytes and more
 * (a long asm string) always use malloc.
 */
#ifndef KW_SERVER_JALLOC_H
#define KW_SERVER_JALLOC_H

#define KW_JALLOC_MAX (64u << 10)

/* Make jansson allocate through this module (kwgend's main, before any
 * thread starts). */
void kw_jalloc_init(void);

/* Open a scope on this thread and allocate from its arena; returns the
 * state to give kw_jalloc_end (scopes nest). */
int kw_jalloc_begin(void);

/* Allocate from malloc again; the arena's blocks stay until the scope
 * ends. */
void kw_jalloc_pause(void);

/* Close the scope begin opened (prev: what it returned): the outermost
 * frees the arena; an inner one goes back to the state before it. */
void kw_jalloc_end(int prev);

#endif
