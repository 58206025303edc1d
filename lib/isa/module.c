/* module.c - module tree, rendering by concatenation, replaceHolder
 * (rendering.md §5.2, §6). */
#include "kwgen/module.h"

#include <string.h>

kw_item *kw_module(kw_arena *a, const char *name)
{
	kw_item *m = kw_arena_alloc(a, sizeof(*m));

	if (!m)
		return NULL;
	memset(m, 0, sizeof(*m));
	m->kind = KW_ITEM_MODULE;
	m->comment = "";
	m->u.mod.name = name ? name : "";
	return m;
}

static int reserve(kw_arena *a, kw_item *m, size_t need)
{
	kw_item **ni;
	size_t ncap;

	if (need <= m->u.mod.cap)
		return 0;
	ncap = m->u.mod.cap ? m->u.mod.cap * 2 : 4;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / sizeof(*ni))
		return KW_ENOMEM;
	ni = kw_arena_alloc(a, ncap * sizeof(*ni));
	if (!ni)
		return KW_ENOMEM;
	if (m->u.mod.n)
		memcpy(ni, m->u.mod.items, m->u.mod.n * sizeof(*ni));
	m->u.mod.items = ni;
	m->u.mod.cap = ncap;
	return 0;
}

int kw_module_add(kw_arena *a, kw_item *m, kw_item *item)
{
	if (!item)
		return 0;
	if (reserve(a, m, m->u.mod.n + 1))
		return KW_ENOMEM;
	m->u.mod.items[m->u.mod.n++] = item;
	return 0;
}

int kw_module_set_size(kw_arena *a, kw_item *m, size_t n)
{
	if (reserve(a, m, n))
		return KW_ENOMEM;
	if (n)
		memset(m->u.mod.items, 0, n * sizeof(*m->u.mod.items));
	m->u.mod.n = n;
	return 0;
}

void kw_module_set(kw_item *m, size_t i, kw_item *item)
{
	if (i < m->u.mod.n)
		m->u.mod.items[i] = item;
}

int kw_module_add_comment(kw_arena *a, kw_item *m, const char *c)
{
	size_t n = strlen(c);
	char *t = kw_arena_alloc(a, n + 5);
	kw_item *it;

	if (!t)
		return KW_ENOMEM;
	memcpy(t, "// ", 3);
	memcpy(t + 3, c, n);
	t[n + 3] = '\n';
	t[n + 4] = '\0';
	it = kw_text(a, t);
	if (!it)
		return KW_ENOMEM;
	return kw_module_add(a, m, it);
}

int kw_render(kw_buf *b, const kw_item *it, kw_render_ctx *ctx, kw_error *err)
{
	if (it->kind != KW_ITEM_MODULE) {
		if (kw_item_render(b, it, ctx))
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory rendering");
		return 0;
	}
	for (size_t i = 0; i < it->u.mod.n; i++) {
		const kw_item *c = it->u.mod.items[i];
		int rc;

		if (!c)
			return kw_error_set(err, KW_EUNSUPPORTED, NULL,
					    "module %s has an empty slot at item %zu (the seed leaves None there; rocisa would crash printing it)",
					    it->u.mod.name, i);
		rc = kw_render(b, c, ctx, err);
		if (rc)
			return rc;
	}
	return 0;
}

void kw_replace_holder(kw_item *it, int64_t dst)
{
	if (!it)
		return;
	if (it->kind == KW_ITEM_MODULE) {
		for (size_t i = 0; i < it->u.mod.n; i++)
			kw_replace_holder(it->u.mod.items[i], dst);
	} else if (it->kind == KW_ITEM_INST) {
		kw_reg_replace_holder(&it->u.inst.dst, dst);
		for (int i = 0; i < it->nsrc; i++)
			if (it->u.inst.src[i].is_reg)
				kw_reg_replace_holder(&it->u.inst.src[i].reg, dst);
	}
}
