/* reg.c - register operands and their text (rendering.md §5, §10). */
#include "kwgen/reg.h"

#include <string.h>

void kw_reg_replace_holder(kw_reg *r, int64_t dst)
{
	if (r->form == KW_REG_HOLDER_INDEX) {
		r->idx = r->hold_idx + dst;
	} else if (r->form == KW_REG_HOLDER_NAME) {
		r->noff = (uint8_t)(1 + r->nhold);
		r->off[0] = dst;
		r->off[1] = r->hold_off;
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

static char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *put_i64(char *p, int64_t v)
{
	return p + kw_i64_to_str(p, v);
}

static char *put_type(char *p, uint8_t t)
{
	if (t == KW_RT_V)
		*p++ = 'v';
	else if (t == KW_RT_S)
		*p++ = 's';
	else
		p = put(p, "acc", 3);
	return p;
}

/* Tgpr NAME +o1 +o2 [-256*msb] */
static char *put_name(char *p, const kw_reg *r, int64_t msb)
{
	p = put_type(p, r->type);
	p = put(p, "gpr", 3);
	p = put(p, r->name, r->namelen);
	for (int i = 0; i < r->noff; i++) {
		*p++ = '+';
		p = put_i64(p, r->off[i]);
	}
	if (msb > 0)
		p = put_i64(p, -256 * msb);
	return p;
}

char *kw_reg_write(char *p, const kw_reg *r, int64_t msb)
{
	if (r->minus)
		*p++ = '-';
	p = put_type(p, r->type);
	if (r->form == KW_REG_NAMED || r->form == KW_REG_HOLDER_NAME) {
		char *n0;
		*p++ = '[';
		n0 = p;
		p = put_name(p, r, msb);
		if (r->num > 1) {
			size_t nl = (size_t)(p - n0);
			*p++ = ':';
			memmove(p, n0, nl); /* the same name text again */
			p += nl;
			*p++ = '+';
			p = put_i64(p, r->num - 1);
		}
		*p++ = ']';
	} else if (r->num == 1 && msb <= 0) {
		p = put_i64(p, r->idx);
	} else {
		*p++ = '[';
		p = put_i64(p, r->idx);
		if (msb > 0)
			p = put_i64(p, -256 * msb);
		if (r->num > 1) {
			*p++ = ':';
			p = put_i64(p, r->idx + r->num - 1);
			if (msb > 0)
				p = put_i64(p, -256 * msb);
		}
		*p++ = ']';
	}
	return p;
}

int kw_reg_render(kw_buf *b, const kw_reg *r, int64_t msb)
{
	if (kw_buf_grow(b, KW_REG_TEXT_MAX))
		return -2;
	b->len = (size_t)(kw_reg_write(b->p + b->len, r, msb) - b->p);
	b->p[b->len] = '\0';
	return 0;
}
