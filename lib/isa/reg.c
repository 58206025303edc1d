/* reg.c - register operands and their text (rendering.md §5, §10). */
#include "kwgen/reg.h"

#include <string.h>

kw_reg kw_reg_index(kw_regtype t, int64_t idx, int num)
{
	kw_reg r;

	memset(&r, 0, sizeof(r));
	r.type = (uint8_t)t;
	r.form = KW_REG_INDEX;
	r.num = (uint8_t)num;
	r.idx = idx;
	return r;
}

kw_reg kw_reg_named(kw_regtype t, const char *name, int noff, int64_t off, int num)
{
	kw_reg r;

	memset(&r, 0, sizeof(r));
	r.type = (uint8_t)t;
	r.form = KW_REG_NAMED;
	r.num = (uint8_t)num;
	r.name = name;
	r.idx = -1;
	r.noff = (uint8_t)(noff ? 1 : 0);
	r.off[0] = off;
	return r;
}

kw_reg kw_reg_holder(kw_regtype t, const char *name, int noff, int64_t off, int num)
{
	kw_reg r = kw_reg_named(t, name, noff, off, num);

	r.form = KW_REG_HOLDER_NAME;
	r.idx = 0;
	r.nhold = r.noff;
	r.hold_off[0] = off;
	return r;
}

kw_reg kw_reg_minus(kw_reg r)
{
	if (r.form == KW_REG_HOLDER_NAME)
		r.form = KW_REG_NAMED;
	else if (r.form == KW_REG_HOLDER_INDEX)
		r.form = KW_REG_INDEX;
	r.minus = 1;
	return r;
}

void kw_reg_replace_holder(kw_reg *r, int64_t dst)
{
	if (r->form == KW_REG_HOLDER_INDEX) {
		r->idx = r->hold_idx + dst;
	} else if (r->form == KW_REG_HOLDER_NAME) {
		r->noff = (uint8_t)(1 + r->nhold);
		r->off[0] = dst;
		for (int i = 0; i < r->nhold; i++)
			r->off[1 + i] = r->hold_off[i];
	}
}

int64_t kw_reg_total(const kw_reg *r, int64_t name_base)
{
	int64_t t;

	if (r->form == KW_REG_INDEX || r->form == KW_REG_HOLDER_INDEX)
		return r->idx;
	t = name_base;
	for (int i = 0; i < r->noff; i++)
		t += r->off[i];
	return t;
}

static const char *type_text(uint8_t t)
{
	return t == KW_RT_V ? "v" : t == KW_RT_S ? "s" : "acc";
}

static void put_name(kw_buf *b, const kw_reg *r, const char *t, int64_t msb)
{
	kw_buf_puts(b, t);
	kw_buf_puts(b, "gpr");
	kw_buf_puts(b, r->name);
	for (int i = 0; i < r->noff; i++) {
		kw_buf_putc(b, '+');
		kw_buf_put_i64(b, r->off[i]);
	}
	if (msb > 0)
		kw_buf_put_i64(b, -256 * msb);
}

int kw_reg_render(kw_buf *b, const kw_reg *r, int64_t msb)
{
	const char *t = type_text(r->type);

	if (r->minus)
		kw_buf_putc(b, '-');
	kw_buf_puts(b, t);
	if (r->form == KW_REG_NAMED || r->form == KW_REG_HOLDER_NAME) {
		kw_buf_putc(b, '[');
		put_name(b, r, t, msb);
		if (r->num > 1) {
			kw_buf_putc(b, ':');
			put_name(b, r, t, msb);
			kw_buf_putc(b, '+');
			kw_buf_put_i64(b, r->num - 1);
		}
		kw_buf_putc(b, ']');
	} else if (r->num == 1) {
		if (msb > 0) {
			kw_buf_putc(b, '[');
			kw_buf_put_i64(b, r->idx);
			kw_buf_put_i64(b, -256 * msb);
			kw_buf_putc(b, ']');
		} else {
			kw_buf_put_i64(b, r->idx);
		}
	} else {
		kw_buf_putc(b, '[');
		kw_buf_put_i64(b, r->idx);
		if (msb > 0)
			kw_buf_put_i64(b, -256 * msb);
		kw_buf_putc(b, ':');
		kw_buf_put_i64(b, r->idx + r->num - 1);
		if (msb > 0)
			kw_buf_put_i64(b, -256 * msb);
		kw_buf_putc(b, ']');
	}
	return b->oom ? -2 : 0;
}
