/* operand.c - symbols (.set), integer expressions and register operands
 * (v, s, a/acc, ttmp, vcc; single registers, ranges, symbolic indices such
 * as Tensile's v[vgprValuC+3:vgprValuC+3+1]). */
#include "verify/verify_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

vf_sym *vf_sym_get(vf_symtab *st, const char *name, size_t len, int create)
{
	uint64_t h;
	size_t i;

	if (!st->cap) {
		if (!create)
			return NULL;
		st->t = calloc(256, sizeof(*st->t));
		if (!st->t)
			return NULL;
		st->cap = 256;
	}
	h = hash_name(name, len);
	for (i = h & (st->cap - 1);; i = (i + 1) & (st->cap - 1)) {
		vf_sym *e = &st->t[i];
		if (!e->name)
			break;
		if (e->len == len && !memcmp(e->name, name, len))
			return e;
	}
	if (!create)
		return NULL;
	if ((st->n + 1) * 2 > st->cap) {
		vf_symtab g = { calloc(st->cap * 2, sizeof(vf_sym)), st->cap * 2, 0 };
		if (!g.t)
			return NULL;
		for (size_t j = 0; j < st->cap; j++) {
			vf_sym *e = &st->t[j];
			size_t k;
			if (!e->name)
				continue;
			for (k = hash_name(e->name, e->len) & (g.cap - 1); g.t[k].name;
			     k = (k + 1) & (g.cap - 1))
				;
			g.t[k] = *e;
			g.n++;
		}
		free(st->t);
		*st = g;
		for (i = h & (st->cap - 1); st->t[i].name; i = (i + 1) & (st->cap - 1))
			;
	}
	st->t[i].name = name;
	st->t[i].len = (uint32_t)len;
	st->t[i].flags = 0;
	st->t[i].value = 0;
	st->n++;
	return &st->t[i];
}

void vf_symtab_free(vf_symtab *st)
{
	free(st->t);
	memset(st, 0, sizeof(*st));
}

/* ---- expressions: recursive descent with C precedence ---- */

typedef struct ex {
	const vf_symtab *st;
	const char *p, *e;
	int bad, depth;
} ex;

static void ws(ex *x)
{
	while (x->p < x->e && (*x->p == ' ' || *x->p == '\t'))
		x->p++;
}

static int64_t ex_or(ex *x);
static int64_t ex_logic(ex *x);

/* identifier characters (ASCII letters, digits, _ . $), without the
 * locale-aware ctype calls on the hot path */
static int is_id(int c)
{
	return (unsigned)((c | 32) - 'a') < 26 || (unsigned)(c - '0') < 10 || c == '_' || c == '.' ||
	       c == '$';
}

static int64_t ex_atom(ex *x)
{
	int64_t v = 0;

	ws(x);
	if (x->p >= x->e || ++x->depth > 64) {
		x->bad = 1;
		return 0;
	}
	if (*x->p == '(') {
		x->p++;
		v = ex_logic(x);
		ws(x);
		if (x->p < x->e && *x->p == ')')
			x->p++;
		else
			x->bad = 1;
	} else if (*x->p == '-' || *x->p == '~' || *x->p == '+' || *x->p == '!') {
		char op = *x->p++;
		v = ex_atom(x);
		v = op == '-' ? (int64_t)(0 - (uint64_t)v) : op == '~' ? ~v : op == '!' ? !v : v;
	} else if (isdigit((unsigned char)*x->p)) {
		uint64_t u = 0;
		if (x->p + 1 < x->e && x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X')) {
			x->p += 2;
			if (x->p >= x->e || !isxdigit((unsigned char)*x->p))
				x->bad = 1;
			while (x->p < x->e && isxdigit((unsigned char)*x->p)) {
				int c = *x->p++;
				u = u * 16 + (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
			}
		} else {
			while (x->p < x->e && isdigit((unsigned char)*x->p))
				u = u * 10 + (uint64_t)(*x->p++ - '0');
		}
		v = (int64_t)u;
	} else if (is_id((unsigned char)*x->p)) {
		const char *s = x->p;
		const vf_sym *sy;
		while (x->p < x->e && is_id((unsigned char)*x->p))
			x->p++;
		sy = vf_sym_get((vf_symtab *)x->st, s, (size_t)(x->p - s), 0);
		if (!sy || !(sy->flags & VF_SYM_VALUE))
			x->bad = 1;
		else
			v = sy->value;
	} else {
		x->bad = 1;
	}
	x->depth--;
	return v;
}

static int64_t ex_mul(ex *x)
{
	int64_t v = ex_atom(x);

	for (;;) {
		char op;
		int64_t r;
		ws(x);
		if (x->p >= x->e || (*x->p != '*' && *x->p != '/' && *x->p != '%'))
			return v;
		op = *x->p++;
		r = ex_atom(x);
		if (op == '*')
			v = (int64_t)((uint64_t)v * (uint64_t)r);
		else if (!r || (r == -1 && v == INT64_MIN))
			x->bad = 1;
		else
			v = op == '/' ? v / r : v % r;
	}
}

static int64_t ex_add(ex *x)
{
	int64_t v = ex_mul(x);

	for (;;) {
		char op;
		int64_t r;
		ws(x);
		if (x->p >= x->e || (*x->p != '+' && *x->p != '-'))
			return v;
		op = *x->p++;
		r = ex_mul(x);
		v = (int64_t)(op == '+' ? (uint64_t)v + (uint64_t)r : (uint64_t)v - (uint64_t)r);
	}
}

static int64_t ex_shift(ex *x)
{
	int64_t v = ex_add(x);

	for (;;) {
		int left;
		int64_t r;
		ws(x);
		if (x->p + 1 >= x->e || !((x->p[0] == '<' && x->p[1] == '<') ||
					  (x->p[0] == '>' && x->p[1] == '>')))
			return v;
		left = x->p[0] == '<';
		x->p += 2;
		r = ex_add(x);
		if (r < 0 || r > 63)
			x->bad = 1;
		else
			v = left ? (int64_t)((uint64_t)v << r) : v >> r;
	}
}

static int64_t ex_or(ex *x)
{
	int64_t v = ex_shift(x);

	for (;;) {
		char op;
		ws(x);
		if (x->p >= x->e || (*x->p != '&' && *x->p != '|' && *x->p != '^'))
			return v;
		if (x->p + 1 < x->e && (x->p[1] == '&' || x->p[1] == '|') && x->p[1] == x->p[0])
			return v;
		op = *x->p++;
		if (op == '&')
			v &= ex_shift(x);
		else if (op == '|')
			v |= ex_shift(x);
		else
			v ^= ex_shift(x);
	}
}

static int64_t ex_cmp(ex *x)
{
	int64_t v = ex_or(x);

	for (;;) {
		const char *p;
		int64_t r;
		ws(x);
		p = x->p;
		if (p + 1 < x->e && p[0] == '=' && p[1] == '=') {
			x->p += 2, r = ex_or(x), v = v == r;
		} else if (p + 1 < x->e && p[0] == '!' && p[1] == '=') {
			x->p += 2, r = ex_or(x), v = v != r;
		} else if (p + 1 < x->e && p[0] == '<' && p[1] == '=') {
			x->p += 2, r = ex_or(x), v = v <= r;
		} else if (p + 1 < x->e && p[0] == '>' && p[1] == '=') {
			x->p += 2, r = ex_or(x), v = v >= r;
		} else if (p < x->e && (p[0] == '<' || p[0] == '>') &&
			   (p + 1 >= x->e || p[1] != p[0])) {
			x->p++, r = ex_or(x), v = p[0] == '<' ? v < r : v > r;
		} else {
			return v;
		}
	}
}

static int64_t ex_logic(ex *x)
{
	int64_t v = ex_cmp(x);

	for (;;) {
		int64_t r;
		ws(x);
		if (x->p + 1 < x->e && x->p[0] == '&' && x->p[1] == '&') {
			x->p += 2, r = ex_cmp(x), v = v && r;
		} else if (x->p + 1 < x->e && x->p[0] == '|' && x->p[1] == '|') {
			x->p += 2, r = ex_cmp(x), v = v || r;
		} else {
			return v;
		}
	}
}

int vf_expr(const vf_symtab *st, const char *s, const char *e, int64_t *out)
{
	ex x = { st, s, e, 0, 0 };
	int64_t v = ex_logic(&x);

	ws(&x);
	if (x.bad || x.p != x.e)
		return -1;
	*out = v;
	return 0;
}

/* ---- registers ---- */

static int range(const vf_symtab *st, const char *s, const char *e, int64_t *lo, int64_t *hi)
{
	const char *colon = NULL;
	int depth = 0;

	for (const char *q = s; q < e; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (*q == ':' && !depth)
			colon = q;
	}
	if (vf_expr(st, s, colon ? colon : e, lo))
		return -1;
	if (!colon) {
		*hi = *lo;
		return 0;
	}
	return vf_expr(st, colon + 1, e, hi);
}

int vf_parse_reg(const vf_symtab *st, const char *s, const char *e, uint16_t *slot, uint8_t *n)
{
	int64_t base, lim, lo, hi;
	size_t pl;

	/* modifiers: -v1, |v1|, -|v1|, abs(v1), neg(v1), sext(v1), !v1 */
	for (;;) {
		while (s < e && (*s == '-' || *s == '|' || *s == '!' || *s == '~' || *s == ' '))
			s++;
		if (e - s > 4 && (!memcmp(s, "abs(", 4) || !memcmp(s, "neg(", 4)))
			s += 4;
		else if (e - s > 5 && !memcmp(s, "sext(", 5))
			s += 5;
		else
			break;
	}
	while (e > s && (e[-1] == '|' || e[-1] == ')' || e[-1] == ' '))
		e--;
	if (s >= e)
		return 0;
	switch (*s) {
	case 'v':
		if (e - s >= 3 && !memcmp(s, "vcc", 3)) {
			if (e - s == 3) {
				*slot = VF_SLOT_S + 106, *n = 2;
				return 1;
			}
			if (e - s == 6 && !memcmp(s, "vcc_lo", 6)) {
				*slot = VF_SLOT_S + 106, *n = 1;
				return 1;
			}
			if (e - s == 6 && !memcmp(s, "vcc_hi", 6)) {
				*slot = VF_SLOT_S + 107, *n = 1;
				return 1;
			}
			return 0;
		}
		base = VF_SLOT_V, lim = 1024, pl = 1;
		break;
	case 's':
		base = VF_SLOT_S, lim = 128, pl = 1;
		break;
	case 'a':
		if (e - s > 3 && !memcmp(s, "acc", 3) && (isdigit((unsigned char)s[3]) || s[3] == '['))
			pl = 3;
		else
			pl = 1;
		base = VF_SLOT_A, lim = 512;
		break;
	case 't':
		if (e - s > 4 && !memcmp(s, "ttmp", 4)) {
			base = VF_SLOT_TTMP, lim = 16, pl = 4;
			break;
		}
		return 0;
	default:
		return 0;
	}
	s += pl;
	if (s >= e)
		return 0;
	if (*s == '[') {
		if (e[-1] != ']')
			return 0;
		if (range(st, s + 1, e - 1, &lo, &hi))
			return -1;
	} else if (isdigit((unsigned char)*s)) {
		/* 16-bit halves (gfx11+ true16: v12.l, v12.h) are tracked as the
		 * 32-bit register, as SIInsertWaitcnts' register intervals do */
		if (e - s > 2 && e[-2] == '.' && (e[-1] == 'l' || e[-1] == 'h'))
			e -= 2;
		lo = 0;
		for (; s < e; s++) {
			if (!isdigit((unsigned char)*s))
				return 0;
			lo = lo * 10 + (*s - '0');
			if (lo > 100000)
				return -1;
		}
		hi = lo;
	} else {
		return 0;
	}
	if (lo < 0 || hi < lo || hi >= lim || hi - lo >= 64)
		return -1;
	*slot = (uint16_t)(base + lo);
	*n = (uint8_t)(hi - lo + 1);
	return 1;
}
