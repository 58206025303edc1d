/*
 * kwgen/module.h - rocisa's Module: an ordered list of items (instructions,
 * text blocks, nested modules), rendered by plain concatenation with no
 * header (rendering.md §6), and replaceHolder (§5.2).
 *
 * Modules live in a kw_arena like every item.
 */
#ifndef KWGEN_MODULE_H
#define KWGEN_MODULE_H

#include "kwgen/error.h"
#include "kwgen/inst.h"

/* New empty module; name is kept by pointer (static or arena string). */
kw_item *kw_module(kw_arena *a, const char *name);
/* Module.add: append item (NULL is ignored, as rocisa's add does). 0 or KW_ENOMEM. */
int kw_module_add(kw_arena *a, kw_item *mod, kw_item *item);
/* Module.setItems([None] * n): n empty slots to fill with kw_module_set. */
int kw_module_set_size(kw_arena *a, kw_item *mod, size_t n);
void kw_module_set(kw_item *mod, size_t i, kw_item *item);
/* Module.addComment(c): the text "// " + c + "\n". */
int kw_module_add_comment(kw_arena *a, kw_item *mod, const char *c);

/*
 * str(item): render into b.  Returns 0; KW_EUNSUPPORTED when a module has
 * an empty slot (the seed left None there; real rocisa would crash), with
 * err saying which slot; KW_ENOMEM.
 */
int kw_render(kw_buf *b, const kw_item *it, kw_render_ctx *ctx, kw_error *err);

/* replaceHolder(item, dst): every holder operand gets base dst; recursive. */
void kw_replace_holder(kw_item *it, int64_t dst);

#endif
