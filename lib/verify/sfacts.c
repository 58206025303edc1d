/* sfacts.c - facts about scalar registers along a path, for the path-aware
 * data-flow (flow.c): which branch edges a path can take, and where
 * s_swappc / s_setpc go.
 *
 * The domain is sound: every fact over-approximates the values a register
 * can hold at that point.  A write the model does not know (s_load,
 * v_readlane, s_*_saveexec, any other SGPR write) forgets the register; a
 * write of SCC it does not know forgets SCC.  Facts: an unsigned and a
 * signed interval, up to VF_SETK exact values, and one relation to another
 * SGPR (reg = base + c mod 2^32, or reg = base >> c) so a test of a derived
 * counter (s5 = s50 - 1, s6 = s11 >> 1) narrows the register it came from.
 * Semantics of the scalar ALU from the AMD Instinct MI300 ISA reference
 * (SOP1/SOP2/SOPC/SOPK: s_add_u32 sets SCC to the carry, s_sub_u32 to the
 * borrow, shifts and bitwise ops to result != 0). */
#include "verify/verify_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UMAX 0xffffffffu

/* ---- a single fact ---- */

static void full(vf_sfact *f, int reg)
{
	memset(f, 0, sizeof(*f));
	f->reg = (uint8_t)reg;
	f->ulo = 0;
	f->uhi = UMAX;
	f->slo = INT32_MIN;
	f->shi = INT32_MAX;
}

static int informative(const vf_sfact *f)
{
	return f->nset || f->rel || f->nexcl || f->atom || f->ulo || f->uhi != UMAX || f->slo != INT32_MIN ||
	       f->shi != INT32_MAX;
}

static void set_const(vf_sfact *f, int reg, uint32_t v)
{
	full(f, reg);
	f->nset = 1;
	f->set[0] = v;
	f->ulo = f->uhi = v;
	f->slo = f->shi = (int32_t)v;
}

/* Make intervals and set agree; 0 if the fact is empty (contradiction). */
static int normalize(vf_sfact *f)
{
	/* signed <-> unsigned where the ranges do not straddle the sign */
	if (f->slo >= 0 || f->shi < 0) {
		if ((uint32_t)f->slo > f->ulo)
			f->ulo = (uint32_t)f->slo;
		if ((uint32_t)f->shi < f->uhi)
			f->uhi = (uint32_t)f->shi;
	}
	if (f->ulo > f->uhi)
		return 0;
	if (f->uhi <= (uint32_t)INT32_MAX || f->ulo >= 0x80000000u) {
		if ((int32_t)f->ulo > f->slo)
			f->slo = (int32_t)f->ulo;
		if ((int32_t)f->uhi < f->shi)
			f->shi = (int32_t)f->uhi;
	}
	if (f->slo > f->shi)
		return 0;
	for (int again = 1; again;) {
		again = 0;
		for (uint8_t i = 0; i < f->nexcl; i++) {
			if (f->excl[i] == f->ulo && f->ulo < f->uhi)
				f->ulo++, again = 1;
			else if (f->excl[i] == f->uhi && f->ulo < f->uhi)
				f->uhi--, again = 1;
			else if (f->excl[i] == f->ulo)
				return 0;
		}
	}
	{
		uint8_t k = 0;
		for (uint8_t i = 0; i < f->nexcl; i++)
			if (f->excl[i] > f->ulo && f->excl[i] < f->uhi)
				f->excl[k++] = f->excl[i];
		f->nexcl = k;
	}
	if (f->nset) {
		uint8_t k = 0;
		for (uint8_t i = 0; i < f->nset; i++) {
			uint32_t v = f->set[i];
			int ex = 0;
			for (uint8_t j = 0; j < f->nexcl; j++)
				ex |= f->excl[j] == v;
			if (!ex && v >= f->ulo && v <= f->uhi && (int32_t)v >= f->slo && (int32_t)v <= f->shi)
				f->set[k++] = v;
		}
		f->nset = k;
		if (!k)
			return 0;
		f->nexcl = 0;
		f->ulo = f->set[0];
		f->uhi = f->set[k - 1];
		if (f->uhi <= (uint32_t)INT32_MAX || f->ulo >= 0x80000000u) {
			f->slo = (int32_t)f->ulo;
			f->shi = (int32_t)f->uhi;
		}
	} else if (f->ulo == f->uhi) {
		f->nset = 1;
		f->set[0] = f->ulo;
	}
	return 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Set from values v[0..n) (n may exceed VF_SETK: then the hull). */
static void from_values(vf_sfact *f, int reg, uint32_t *v, size_t n)
{
	size_t k = 0;

	full(f, reg);
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	f->ulo = v[0];
	f->uhi = v[k - 1];
	if (k <= VF_SETK) {
		f->nset = (uint8_t)k;
		memcpy(f->set, v, k * sizeof(*v));
	}
	if (f->uhi <= (uint32_t)INT32_MAX || f->ulo >= 0x80000000u) {
		f->slo = (int32_t)f->ulo;
		f->shi = (int32_t)f->uhi;
	}
}

/* Unsigned interval of x + c (mod 2^32); full when it wraps partly. */
static void shift_interval(const vf_sfact *x, uint32_t c, uint32_t *lo, uint32_t *hi)
{
	uint64_t L = (uint64_t)x->ulo + c, H = (uint64_t)x->uhi + c;

	if ((L >> 32) == (H >> 32)) {
		*lo = (uint32_t)L;
		*hi = (uint32_t)H;
	} else {
		*lo = 0;
		*hi = UMAX;
	}
}

/* y = x + c as a fact (values only; the caller sets the relation). */
static void add_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t c)
{
	full(y, reg);
	if (x->nset) {
		uint32_t v[VF_SETK];
		for (uint8_t i = 0; i < x->nset; i++)
			v[i] = x->set[i] + c;
		from_values(y, reg, v, x->nset);
		return;
	}
	shift_interval(x, c, &y->ulo, &y->uhi);
	y->nexcl = x->nexcl;
	for (uint8_t i = 0; i < x->nexcl; i++)
		y->excl[i] = x->excl[i] + c;
	{
		int64_t L = (int64_t)x->slo + (int32_t)c, H = (int64_t)x->shi + (int32_t)c;
		if (L >= INT32_MIN && H <= INT32_MAX) {
			y->slo = (int32_t)L;
			y->shi = (int32_t)H;
		}
	}
	normalize(y);
}

static void shr_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t k)
{
	full(y, reg);
	if (k > 31)
		return;
	if (x->nset) {
		uint32_t v[VF_SETK];
		for (uint8_t i = 0; i < x->nset; i++)
			v[i] = x->set[i] >> k;
		from_values(y, reg, v, x->nset);
		return;
	}
	y->ulo = x->ulo >> k;
	y->uhi = x->uhi >> k;
	normalize(y);
}

/* ---- the dense facts ---- */

void vf_facts_clear(vf_facts *F)
{
	memset(F->has, 0, sizeof(F->has));
	memset(&F->scc, 0, sizeof(F->scc));
	memset(&F->vcc, 0, sizeof(F->vcc));
	F->basem[0] = F->basem[1] = 0;
	F->exec = 0;
}

/* f (a fact about to be stored in F) may be related to its base. */
static void note_base(vf_facts *F, const vf_sfact *f)
{
	if (f->rel && f->base < 128)
		F->basem[f->base >> 6] |= 1ull << (f->base & 63);
}

void vf_facts_kill_all(vf_facts *F)
{
	vf_facts_clear(F);
}

static const vf_sfact *get(const vf_facts *F, int r, vf_sfact *tmp)
{
	if (r >= 0 && r < VF_NSGPR && F->has[r])
		return &F->f[r];
	full(tmp, r < 0 ? 0 : r);
	return tmp;
}

static void put(vf_facts *F, const vf_sfact *f)
{
	if (f->reg >= VF_NSGPR)
		return;
	if (informative(f)) {
		F->f[f->reg] = *f;
		note_base(F, f);
		F->has[f->reg] = 1;
	} else {
		F->has[f->reg] = 0;
	}
}

/* r is about to be overwritten: relations based on it and an SCC
 * comparison reading it no longer hold. */
static void invalidate(vf_facts *F, int r)
{
	if ((F->basem[r >> 6] >> (r & 63)) & 1) {
		for (int q = 0; q < VF_NSGPR; q++)
			if (F->has[q] && F->f[q].rel && F->f[q].base == r) {
				F->f[q].rel = 0;
				if (!informative(&F->f[q]))
					F->has[q] = 0;
			}
		F->basem[r >> 6] &= ~(1ull << (r & 63));
	}
	if (F->scc.kind == 2 && (F->scc.a == r || F->scc.b == r))
		F->scc.kind = 0;
	if (F->vcc.kind == 2 && (F->vcc.a == r || F->vcc.b == r))
		F->vcc.kind = 0;
}

static void kill_reg(vf_facts *F, int r)
{
	if (r < 0 || r >= VF_NSGPR)
		return;
	invalidate(F, r);
	F->has[r] = 0;
}

void vf_facts_load(vf_facts *F, const vf_sfacts *s)
{
	vf_facts_clear(F);
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		F->f[s->f[i].reg] = s->f[i];
		F->has[s->f[i].reg] = 1;
		note_base(F, &s->f[i]);
	}
	F->scc = s->scc;
	F->vcc = s->vcc;
	F->exec = s->exec;
}

void vf_facts_view(const vf_facts *F, vf_sfacts *s, vf_sfact *buf)
{
	s->f = buf;
	s->n = 0;
	for (int r = 0; r < VF_NSGPR; r++)
		if (F->has[r])
			buf[s->n++] = F->f[r];
	s->scc = F->scc;
	s->vcc = F->vcc;
	s->exec = F->exec;
	s->valid = 1;
}

void vf_sfacts_free(vf_sfacts *s)
{
	free(s->f);
	memset(s, 0, sizeof(*s));
}

/* Join of two facts of one register into *out; 1 if it says anything. */
static int join_fact(vf_sfact *out, const vf_sfact *a, const vf_sfact *b)
{
	full(out, a->reg);
	out->ulo = a->ulo < b->ulo ? a->ulo : b->ulo;
	out->uhi = a->uhi > b->uhi ? a->uhi : b->uhi;
	out->slo = a->slo < b->slo ? a->slo : b->slo;
	out->shi = a->shi > b->shi ? a->shi : b->shi;
	if (a->nset && b->nset) {
		uint32_t v[2 * VF_SETK];
		size_t n = 0;
		uint8_t i = 0, j = 0;
		while (i < a->nset || j < b->nset) {
			if (j >= b->nset || (i < a->nset && a->set[i] < b->set[j]))
				v[n++] = a->set[i++];
			else if (i >= a->nset || b->set[j] < a->set[i])
				v[n++] = b->set[j++];
			else {
				v[n++] = a->set[i++];
				j++;
			}
		}
		if (n <= VF_SETK) {
			out->nset = (uint8_t)n;
			memcpy(out->set, v, n * sizeof(*v));
		}
	}
	if (a->rel && a->rel == b->rel && a->base == b->base && a->c == b->c) {
		out->rel = a->rel;
		out->base = a->base;
		out->c = a->c;
	}
	for (uint8_t i = 0; i < a->nexcl; i++) {
		int in_b = 0;
		for (uint8_t j = 0; j < b->nexcl; j++)
			in_b |= a->excl[i] == b->excl[j];
		/* b may also exclude it by its interval or set */
		if (!in_b && (a->excl[i] < b->ulo || a->excl[i] > b->uhi))
			in_b = 1;
		if (!in_b && b->nset) {
			in_b = 1;
			for (uint8_t j = 0; j < b->nset; j++)
				if (b->set[j] == a->excl[i])
					in_b = 0;
		}
		if (in_b && a->excl[i] >= out->ulo && a->excl[i] <= out->uhi && !out->nset)
			out->excl[out->nexcl++] = a->excl[i];
	}
	out->tested = a->tested && b->tested;
	out->why = a->why == b->why ? a->why : 0;
	out->atom = a->atom == b->atom ? a->atom : 0;
	return informative(out);
}

static int same_fact(const vf_sfact *a, const vf_sfact *b)
{
	return a->nset == b->nset && a->nexcl == b->nexcl &&
	       !memcmp(a->excl, b->excl, a->nexcl * sizeof(a->excl[0])) && a->rel == b->rel && a->base == b->base && a->c == b->c &&
	       a->ulo == b->ulo && a->uhi == b->uhi && a->slo == b->slo && a->shi == b->shi &&
	       a->tested == b->tested && a->atom == b->atom && !memcmp(a->set, b->set, a->nset * sizeof(a->set[0]));
}

int vf_sfacts_join(vf_sfacts *in, const vf_sfacts *o, int widen)
{
	vf_sfact m[VF_NSGPR];
	uint32_t i = 0, j = 0, k = 0;
	int changed = 0;

	if (!in->valid) {
		vf_sfact *f = o->n ? malloc(o->n * sizeof(*f)) : NULL;
		if (o->n && !f)
			return -1;
		if (o->n)
			memcpy(f, o->f, o->n * sizeof(*f));
		free(in->f);
		in->f = f;
		in->n = o->n;
		in->scc = o->scc;
		in->vcc = o->vcc;
		in->exec = o->exec;
		in->valid = 1;
		return 1;
	}
	if (in->exec && in->exec != o->exec) {
		in->exec = 0;
		changed = 1;
	}
	/* a register without a fact on either side is unknown after the join */
	while (i < in->n) {
		while (j < o->n && o->f[j].reg < in->f[i].reg)
			j++;
		if (j < o->n && o->f[j].reg == in->f[i].reg) {
			vf_sfact jf;
			/* widening drops a changed fact unless it is still a set of
			 * values (a set grows at most VF_SETK times, an interval
			 * without end) */
			if (join_fact(&jf, &in->f[i], &o->f[j])) {
				int same = same_fact(&jf, &in->f[i]);
				if (!(widen && !jf.nset && !same))
					m[k++] = jf;
				if (!same)
					changed = 1;
			} else {
				changed = 1;
			}
		} else {
			changed = 1;
		}
		i++;
	}
	if (changed) {
		/* shrinks or keeps the size: reuse the array */
		if (k)
			memcpy(in->f, m, k * sizeof(*m));
		in->n = k;
	}
	if (in->scc.kind) {
		const vf_scc *a = &in->scc, *b = &o->scc;
		if (a->kind != b->kind || a->val != b->val || a->op != b->op || a->sgn != b->sgn ||
		    a->a != b->a || a->b != b->b || a->ia != b->ia || a->ib != b->ib) {
			memset(&in->scc, 0, sizeof(in->scc));
			changed = 1;
		}
	}
	if (in->vcc.kind) {
		const vf_scc *a = &in->vcc, *b = &o->vcc;
		if (a->kind != b->kind || a->val != b->val || a->op != b->op || a->sgn != b->sgn ||
		    a->a != b->a || a->b != b->b || a->ia != b->ia || a->ib != b->ib) {
			memset(&in->vcc, 0, sizeof(in->vcc));
			changed = 1;
		}
	}
	return changed;
}

/* ---- comparisons ---- */

static int cmp_vals(int op, int sgn, uint32_t x, uint32_t y)
{
	int lt = sgn ? (int32_t)x < (int32_t)y : x < y;
	int eq = x == y;

	switch (op) {
	case VF_CMP_EQ: return eq;
	case VF_CMP_NE: return !eq;
	case VF_CMP_LT: return lt;
	case VF_CMP_LE: return lt || eq;
	case VF_CMP_GT: return !lt && !eq;
	default: return !lt;
	}
}

static void range_of(const vf_sfact *f, int sgn, int64_t *lo, int64_t *hi)
{
	if (sgn) {
		*lo = f->slo;
		*hi = f->shi;
	} else {
		*lo = f->ulo;
		*hi = f->uhi;
	}
}

/* Decide op(x, y): 0, 1 or -1. */
static int decide(int op, int sgn, const vf_sfact *x, const vf_sfact *y, int xr, int yr)
{
	int64_t xl, xh, yl, yh;

	/* x = y + c (mod 2^32) */
	if (xr >= 0 && yr >= 0 && (op == VF_CMP_EQ || op == VF_CMP_NE)) {
		uint32_t c = 0;
		int rel = 0;
		if (xr == yr)
			rel = 1;
		else if (x->rel == VF_REL_ADD && x->base == yr)
			rel = 1, c = x->c;
		else if (y->rel == VF_REL_ADD && y->base == xr)
			rel = 1, c = y->c;
		if (rel)
			return (c == 0) == (op == VF_CMP_EQ);
	}
	if (x->nset && y->nset) {
		int t = 0, f = 0;
		for (uint8_t i = 0; i < x->nset; i++)
			for (uint8_t j = 0; j < y->nset; j++) {
				if (cmp_vals(op, sgn, x->set[i], y->set[j]))
					t = 1;
				else
					f = 1;
			}
		return t && !f ? 1 : (f && !t ? 0 : -1);
	}
	range_of(x, sgn, &xl, &xh);
	range_of(y, sgn, &yl, &yh);
	switch (op) {
	case VF_CMP_EQ:
	case VF_CMP_NE: {
		int r = -1;
		if (xh < yl || yh < xl)
			r = 0;
		else if (xl == xh && yl == yh && xl == yl)
			r = 1;
		if (r < 0 && yl == yh && !sgn)
			for (uint8_t i = 0; i < x->nexcl; i++)
				if (x->excl[i] == (uint32_t)yl)
					r = 0;
		if (r < 0 && xl == xh && !sgn)
			for (uint8_t i = 0; i < y->nexcl; i++)
				if (y->excl[i] == (uint32_t)xl)
					r = 0;
		if (r < 0 && x->nset && yl == yh) {
			r = 0;
			for (uint8_t i = 0; i < x->nset; i++)
				if ((sgn ? (int64_t)(int32_t)x->set[i] : (int64_t)x->set[i]) == yl)
					r = -1;
		}
		if (r < 0)
			return -1;
		return op == VF_CMP_EQ ? r : !r;
	}
	case VF_CMP_LT: return xh < yl ? 1 : (xl >= yh ? 0 : -1);
	case VF_CMP_LE: return xh <= yl ? 1 : (xl > yh ? 0 : -1);
	case VF_CMP_GT: return xl > yh ? 1 : (xh <= yl ? 0 : -1);
	default: return xl >= yh ? 1 : (xh < yl ? 0 : -1);
	}
}

static int negate(int op)
{
	static const int n[] = { VF_CMP_NE, VF_CMP_EQ, VF_CMP_GE, VF_CMP_GT, VF_CMP_LE, VF_CMP_LT };
	return n[op];
}

static int swap_op(int op)
{
	static const int s[] = { VF_CMP_EQ, VF_CMP_NE, VF_CMP_GT, VF_CMP_GE, VF_CMP_LT, VF_CMP_LE };
	return s[op];
}

/* Narrow x so that op(x, y) holds for y in [yl, yh]; 0 if empty. */
static int narrow(vf_sfact *x, int op, int sgn, const vf_sfact *y)
{
	int64_t yl, yh, lo, hi;

	range_of(y, sgn, &yl, &yh);
	range_of(x, sgn, &lo, &hi);
	switch (op) {
	case VF_CMP_EQ:
		if (yl > lo)
			lo = yl;
		if (yh < hi)
			hi = yh;
		break;
	case VF_CMP_NE:
		if (yl == yh) {
			if (lo == yl)
				lo++;
			else if (hi == yl)
				hi--;
			else if (lo < yl && yl < hi && !x->nset) {
				uint32_t v = (uint32_t)yl;
				int have = 0;
				for (uint8_t i = 0; i < x->nexcl; i++)
					have |= x->excl[i] == v;
				if (!have && x->nexcl < VF_EXCLK && !sgn)
					x->excl[x->nexcl++] = v;
				else if (!have && x->nexcl < VF_EXCLK && (yl >= 0) == (x->ulo <= (uint32_t)INT32_MAX))
					x->excl[x->nexcl++] = v;
			}
		}
		break;
	case VF_CMP_LT:
		if (yh - 1 < hi)
			hi = yh - 1;
		break;
	case VF_CMP_LE:
		if (yh < hi)
			hi = yh;
		break;
	case VF_CMP_GT:
		if (yl + 1 > lo)
			lo = yl + 1;
		break;
	default:
		if (yl > lo)
			lo = yl;
		break;
	}
	if (lo > hi)
		return 0;
	if (sgn) {
		x->slo = (int32_t)lo;
		x->shi = (int32_t)hi;
	} else {
		x->ulo = (uint32_t)lo;
		x->uhi = (uint32_t)hi;
	}
	if (x->nset && y->nset) {
		uint8_t k = 0;
		for (uint8_t i = 0; i < x->nset; i++) {
			int ok = 0;
			for (uint8_t j = 0; j < y->nset && !ok; j++)
				ok = cmp_vals(op, sgn, x->set[i], y->set[j]);
			if (ok)
				x->set[k++] = x->set[i];
		}
		x->nset = k;
		if (!k)
			return 0;
	}
	x->tested = 1;
	return normalize(x);
}

/* x := x meet y; 0 if empty. */
static int intersect(vf_sfact *x, const vf_sfact *y)
{
	if (y->ulo > x->ulo)
		x->ulo = y->ulo;
	if (y->uhi < x->uhi)
		x->uhi = y->uhi;
	if (y->slo > x->slo)
		x->slo = y->slo;
	if (y->shi < x->shi)
		x->shi = y->shi;
	if (y->nset && x->nset) {
		uint8_t k = 0;
		for (uint8_t i = 0; i < x->nset; i++)
			for (uint8_t j = 0; j < y->nset; j++)
				if (x->set[i] == y->set[j]) {
					x->set[k++] = x->set[i];
					break;
				}
		x->nset = k;
		if (!k)
			return 0;
	} else if (y->nset) {
		x->nset = y->nset;
		memcpy(x->set, y->set, y->nset * sizeof(y->set[0]));
	}
	for (uint8_t i = 0; i < y->nexcl; i++) {
		int have = 0;
		for (uint8_t j = 0; j < x->nexcl; j++)
			have |= x->excl[j] == y->excl[i];
		if (!have && x->nexcl < VF_EXCLK)
			x->excl[x->nexcl++] = y->excl[i];
	}
	return normalize(x);
}

/* b + c (mod 2^32) >= L: narrow bf, the fact of b (a counter atomic's
 * result r <= b + c was found >= L).  The b it rules out are the L values
 * E = {-c, ..., L - 1 - c} (mod 2^32): cut from an end of bf's interval,
 * or held as excluded values when there is room, else kept (sound: a
 * fact only over-approximates).  0 if nothing is left. */
static int le_base(vf_sfact *bf, uint32_t L, uint32_t c)
{
	uint32_t e0 = 0u - c, e1 = L - 1u - c;

	if (!L)
		return 1;
	if (bf->nset) {
		uint8_t k = 0;
		for (uint8_t i = 0; i < bf->nset; i++)
			if ((uint32_t)(bf->set[i] - e0) > L - 1u)
				bf->set[k++] = bf->set[i];
		bf->nset = k;
		if (!k)
			return 0;
	}
	if ((uint64_t)e0 + L - 1u > UMAX) {
		/* E wraps: b in [e1 + 1, e0 - 1] */
		if (e1 + 1u > bf->ulo)
			bf->ulo = e1 + 1u;
		if (e0 - 1u < bf->uhi)
			bf->uhi = e0 - 1u;
	} else if (e0 <= bf->ulo && e1 >= bf->ulo) {
		if (e1 == UMAX)
			return 0;
		bf->ulo = e1 + 1u;
	} else if (e1 >= bf->uhi && e0 <= bf->uhi) {
		bf->uhi = e0 - 1u; /* e0 > ulo >= 0 here */
	} else if (e0 > bf->ulo && e1 < bf->uhi && !bf->nset && L <= (uint32_t)(VF_EXCLK - bf->nexcl)) {
		for (uint32_t v = e0;; v++) {
			int have = 0;
			for (uint8_t i = 0; i < bf->nexcl; i++)
				have |= bf->excl[i] == v;
			if (!have)
				bf->excl[bf->nexcl++] = v;
			if (v == e1)
				break;
		}
	}
	return normalize(bf);
}

/* Narrow bf, the fact of the base of x's relation, by x.  0 on contradiction. */
static int from_related(vf_sfact *bf, const vf_sfact *x)
{
	vf_sfact back;

	switch (x->rel) {
	case VF_REL_ADD:
		add_const(&back, x, bf->reg, (uint32_t)(0u - x->c));
		return intersect(bf, &back);
	case VF_REL_SHR: {
		uint64_t lo = x->c < 32 ? (uint64_t)x->ulo << x->c : 0;
		uint64_t hi = x->c < 32 ? ((uint64_t)x->uhi << x->c) | ((1ull << x->c) - 1) : UMAX;
		full(&back, bf->reg);
		if (lo > UMAX)
			return 0;
		back.ulo = (uint32_t)lo;
		back.uhi = hi > UMAX ? UMAX : (uint32_t)hi;
		return intersect(bf, &back);
	}
	case VF_REL_LE:
		return le_base(bf, x->ulo, x->c);
	default:
		return 1;
	}
}

/* Narrow qf, a fact related to a base whose fact is bf.  0 on contradiction. */
static int from_base(vf_sfact *qf, const vf_sfact *bf)
{
	vf_sfact d;

	switch (qf->rel) {
	case VF_REL_ADD:
		add_const(&d, bf, qf->reg, qf->c);
		break;
	case VF_REL_SHR:
		shr_const(&d, bf, qf->reg, qf->c);
		break;
	case VF_REL_LE: {
		/* qf <= base + c: at most the largest value base + c takes */
		uint32_t hi;
		add_const(&d, bf, qf->reg, qf->c);
		hi = d.uhi;
		full(&d, qf->reg);
		d.uhi = hi;
		if (!normalize(&d))
			return 0;
		break;
	}
	default:
		return 1;
	}
	return intersect(qf, &d);
}

/* Carry bf (the new fact of b) to the registers related to b, but skip;
 * only_le: only to counter atomics' results (VF_REL_LE).  0 on
 * contradiction. */
static int to_related(vf_facts *F, int b, const vf_sfact *bf, int skip, int only_le)
{
	if (!((F->basem[b >> 6] >> (b & 63)) & 1))
		return 1;
	for (int q = 0; q < VF_NSGPR; q++) {
		vf_sfact qf;
		if (!F->has[q] || q == b || q == skip || !F->f[q].rel || F->f[q].base != b ||
		    (only_le && F->f[q].rel != VF_REL_LE))
			continue;
		qf = F->f[q];
		if (!from_base(&qf, bf))
			return 0;
		if (qf.rel == VF_REL_LE && same_fact(&qf, &F->f[q]))
			continue;
		qf.tested = 1;
		qf.why = F->why;
		F->f[q] = qf;
	}
	return 1;
}

/* Narrow register r to fact nf and carry it to the registers related to r
 * and to r's base (one step each way), and from r's base on to the
 * counter atomics' results related to it (s5 == s50 - 1 tested gives s50,
 * and s50 bounds s51 <= s50 - 1).  0 on contradiction. */
static int refine(vf_facts *F, int r, vf_sfact *nf)
{
	if (r < 0 || r >= VF_NSGPR)
		return 1;
	nf->reg = (uint8_t)r;
	nf->why = F->why;
	F->f[r] = *nf;
	note_base(F, nf);
	F->has[r] = 1;
	if (nf->rel && nf->base < VF_NSGPR && nf->base != r) {
		int b = nf->base;
		vf_sfact bf, old;
		if (F->has[b])
			bf = F->f[b];
		else
			full(&bf, b);
		old = bf;
		if (!from_related(&bf, nf))
			return 0;
		/* a bound that says nothing new is no test of the base */
		if (!(nf->rel == VF_REL_LE && same_fact(&bf, &old))) {
			bf.reg = (uint8_t)b;
			bf.tested = 1;
			bf.why = F->why;
			F->f[b] = bf;
			note_base(F, &bf);
			F->has[b] = 1;
			if (!to_related(F, b, &bf, r, 1))
				return 0;
		}
	}
	return to_related(F, r, nf, -1, 0);
}

int vf_facts_scc(const vf_facts *F)
{
	vf_sfact ta, tb, ia, ib;
	const vf_sfact *a, *b;

	if (F->scc.kind == 1)
		return F->scc.val;
	if (F->scc.kind != 2)
		return -1;
	if (F->scc.a >= 0)
		a = get(F, F->scc.a, &ta);
	else
		set_const(&ia, 0, F->scc.ia), a = &ia;
	if (F->scc.b >= 0)
		b = get(F, F->scc.b, &tb);
	else
		set_const(&ib, 0, F->scc.ib), b = &ib;
	return decide(F->scc.op, F->scc.sgn, a, b, F->scc.a, F->scc.b);
}

int vf_facts_assume_scc(vf_facts *F, int v)
{
	int d = vf_facts_scc(F), op;
	vf_sfact ta, tb, a, b;

	if (d >= 0)
		return d == v;
	if (F->scc.kind != 2)
		return 1;
	op = v ? F->scc.op : negate(F->scc.op);
	if (F->scc.a >= 0)
		a = *get(F, F->scc.a, &ta);
	else
		set_const(&a, 0, F->scc.ia);
	if (F->scc.b >= 0)
		b = *get(F, F->scc.b, &tb);
	else
		set_const(&b, 0, F->scc.ib);
	if (F->scc.a >= 0) {
		vf_sfact na = a;
		na.reg = (uint8_t)F->scc.a;
		if (!narrow(&na, op, F->scc.sgn, &b) || !refine(F, F->scc.a, &na))
			return 0;
	}
	if (F->scc.b >= 0) {
		vf_sfact nb = b, a2;
		if (F->scc.a >= 0)
			a2 = *get(F, F->scc.a, &ta);
		else
			set_const(&a2, 0, F->scc.ia);
		nb.reg = (uint8_t)F->scc.b;
		if (!narrow(&nb, swap_op(op), F->scc.sgn, &a2) || !refine(F, F->scc.b, &nb))
			return 0;
	}
	F->scc.kind = 1;
	F->scc.val = (uint8_t)v;
	return 1;
}

int vf_facts_assume_vcc(vf_facts *F)
{
	vf_scc scc = F->scc;
	int ok;

	if (!F->vcc.kind)
		return 1;
	F->scc = F->vcc;
	ok = vf_facts_assume_scc(F, 1);
	F->vcc = F->scc;
	F->scc = scc;
	/* a register the compare read may be the one SCC compares: SCC keeps
	 * its comparison (the narrowed facts only make it more precise) */
	return ok;
}

int vf_facts_assume_exec(vf_facts *F, int nonzero)
{
	if (F->exec == (nonzero ? 2 : 1))
		return 0;
	F->exec = (uint8_t)(nonzero ? 1 : 2);
	return 1;
}

int vf_facts_values64(const vf_facts *F, int r, uint64_t *out)
{
	vf_sfact t0, t1;
	const vf_sfact *lo, *hi;
	int n = 0;

	if (r < 0 || r + 1 >= VF_NSGPR)
		return -1;
	lo = get(F, r, &t0);
	hi = get(F, r + 1, &t1);
	if (!lo->nset || !hi->nset || lo->nset * hi->nset > VF_SETK)
		return -1;
	for (uint8_t j = 0; j < hi->nset; j++)
		for (uint8_t i = 0; i < lo->nset; i++)
			out[n++] = ((uint64_t)hi->set[j] << 32) | lo->set[i];
	return n;
}

static size_t describe_fact(const vf_sfact *f, int r, char *buf, size_t n)
{
	size_t q = 0;

	if (f->ulo == f->uhi)
		q += (size_t)snprintf(buf + q, n - q, "s%d == %u", r, f->ulo);
	else if (f->nexcl && f->ulo == 0 && f->uhi == UMAX) {
		for (uint8_t i = 0; i < f->nexcl && q < n; i++)
			q += (size_t)snprintf(buf + q, n - q, "%ss%d != %u", i ? ", " : "", r, f->excl[i]);
	} else if (f->nset && f->nset <= 4) {
		q += (size_t)snprintf(buf + q, n - q, "s%d in {", r);
		for (uint8_t i = 0; i < f->nset && q < n; i++)
			q += (size_t)snprintf(buf + q, n - q, "%s%u", i ? ", " : "", f->set[i]);
		if (q < n)
			q += (size_t)snprintf(buf + q, n - q, "}");
	} else if (f->ulo == 1 && f->uhi == UMAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d != 0", r);
	else if (f->slo > INT32_MIN && f->shi == INT32_MAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d >= %d", r, f->slo);
	else if (f->slo == INT32_MIN && f->shi < INT32_MAX)
		q += (size_t)snprintf(buf + q, n - q, "s%d <= %d", r, f->shi);
	else
		q += (size_t)snprintf(buf + q, n - q, "s%d in [%u, %u]", r, f->ulo, f->uhi);
	return q < n ? q : n - 1;
}

/* " (s_cbranch_scc1 at line 40 taken)": the branch a fact came from */
static size_t describe_branch(uint32_t why, const vf_prog *p, char *buf, size_t n)
{
	uint32_t at = (why & ~VF_WHY_TAKEN) - 1;
	const vf_inst *in;
	size_t q;

	if (!p || !why || at >= p->ninst)
		return 0;
	in = &p->insts[at];
	q = (size_t)snprintf(buf, n, " (%.*s at line %u", (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp,
			     in->line);
	if (p->addr && p->addr[at] >= 0 && q < n)
		q += (size_t)snprintf(buf + q, n - q, ", 0x%llx", (unsigned long long)p->addr[at]);
	if (q < n)
		q += (size_t)snprintf(buf + q, n - q, "%s)", why & VF_WHY_TAKEN ? " taken" : " not taken");
	return q < n ? q : n - 1;
}

size_t vf_facts_describe(const vf_facts *F, const vf_prog *p, char *buf, size_t n)
{
	size_t q = 0;
	uint8_t done[VF_NSGPR];

	if (!n)
		return 0;
	buf[0] = 0;
	memset(done, 0, sizeof(done));
	/* grouped by the branch that decided them, in register order */
	for (int r = 0; r < VF_NSGPR && q + 48 < n; r++) {
		uint32_t why;
		int first = 1;
		if (!F->has[r] || !F->f[r].tested || done[r])
			continue;
		why = F->f[r].why;
		if (q)
			q += (size_t)snprintf(buf + q, n - q, ", ");
		for (int s = r; s < VF_NSGPR && q + 48 < n; s++) {
			if (!F->has[s] || !F->f[s].tested || done[s] || F->f[s].why != why)
				continue;
			done[s] = 1;
			if (!first)
				q += (size_t)snprintf(buf + q, n - q, ", ");
			first = 0;
			q += describe_fact(&F->f[s], s, buf + q, n - q);
		}
		if (q + 1 < n)
			q += describe_branch(why, p, buf + q, n - q);
	}
	/* a tested value a counter atomic returned: what it hangs on, once */
	for (int r = 0; r < VF_NSGPR && p && q + 1 < n; r++) {
		uint32_t at;
		const vf_inst *in;
		char note[320];
		int k;
		if (!F->has[r] || !F->f[r].tested || !F->f[r].atom || F->f[r].atom > p->ninst)
			continue;
		at = F->f[r].atom - 1;
		in = &p->insts[at];
		if (p->assume_atomic_counters)
			k = snprintf(note, sizeof(note), "; s%d is the value %.*s at line %u returned, assumed in [0, its data]",
				     r, (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp, in->line);
		else
			k = snprintf(note, sizeof(note),
				     "; s%d is the value %.*s at line %u returned: --assume-atomic-counters bounds it by "
				     "the atomic's data when the counter follows Tensile's synchronizer protocol",
				     r, (int)(in->mnem_len < 40 ? in->mnem_len : 40), in->tp, in->line);
		if (k > 0 && q + (size_t)k < n)
			q += (size_t)snprintf(buf + q, n - q, "%s", note);
		break;
	}
	if (q >= n)
		q = n - 1;
	return q;
}

/* ---- decoding ---- */

typedef struct opnd {
	int kind;   /* 0 unknown, 1 SGPR, 2 immediate, 3 other register */
	int reg, n;
	uint32_t imm;
} opnd;

static opnd parse_opnd(const vf_prog *p, const char *s, const char *e)
{
	opnd o = { 0, -1, 0, 0 };
	uint16_t slot;
	uint8_t n;
	int64_t v;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (s >= e || *s == '|' || *s == '!' || *s == '~')
		return o;
	if (*s != '-') {
		int rc = vf_parse_reg(&p->syms, s, e, &slot, &n);
		if (rc == 1) {
			if (slot >= VF_SLOT_S && slot < VF_SLOT_S + 128) {
				o.kind = 1;
				o.reg = slot - VF_SLOT_S;
				o.n = n;
			} else {
				o.kind = 3;
			}
			return o;
		}
		if (rc < 0)
			return o;
	}
	/* not a register: exec, m0, labels... are not integers */
	if ((*s >= '0' && *s <= '9') || *s == '-') {
		for (const char *q = s; q < e; q++)
			if (*q == '.' || *q == 'e' || *q == '@')
				if (!(q > s && (q[-1] == 'x' || q[-1] == 'X')) && *q != 'e')
					return o;
		if (!vf_expr(&p->syms, s, e, &v) && v >= INT32_MIN && v <= (int64_t)UMAX) {
			o.kind = 2;
			o.imm = (uint32_t)v;
		}
	}
	return o;
}

static int eqm(const char *m, size_t n, const char *lit)
{
	size_t l = strlen(lit);
	return n == l && !memcmp(m, lit, l);
}

static int pfxm(const char *m, size_t n, const char *lit)
{
	size_t l = strlen(lit);
	return n >= l && !memcmp(m, lit, l);
}

/* Scalar instructions that do not write SCC. */
static int keeps_scc(const char *m, size_t n)
{
	static const char *const keep[] = {
		"s_mov", "s_cmov", "s_cselect", "s_getpc", "s_setpc", "s_swappc", "s_wait",
		"s_nop", "s_branch", "s_cbranch", "s_load", "s_buffer_load", "s_store",
		"s_buffer_store", "s_barrier", "s_setprio", "s_sleep", "s_endpgm", "s_dcache",
		"s_sendmsg", "s_memtime", "s_memrealtime", "s_getreg", "s_setreg", "s_set_gpr_idx",
		"s_trap", "s_icache", "s_scratch_load", "s_scratch_store", "s_set_vgpr_msb",
		"s_delay_alu", "s_clause", "s_code_end", "s_get_pc", "s_set_pc", "s_swap_pc",
		"s_movk", "s_version", "s_atc_probe", "s_prefetch", "s_singleuse_vdst", "s_ttracedata",
		"s_incperflevel", "s_decperflevel",
	};
	if (!pfxm(m, n, "s_"))
		return 1;
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (pfxm(m, n, keep[i]))
			return 1;
	return 0;
}

static int cmp_of(const char *c, size_t n, int *op)
{
	static const char *const names[] = { "eq", "lg", "lt", "le", "gt", "ge" };
	for (int i = 0; i < 6; i++)
		if (n == 2 && !memcmp(c, names[i], 2)) {
			*op = i;
			return 1;
		}
	return 0;
}

/* A VALU whose second operand is a scalar destination (VOP3b: the carry
 * out of v_add_co / v_addc / v_sub_co / v_subb, v_div_scale's VCC,
 * v_mad_u64_u32's carry): it has dst, sdst and at least two sources; a
 * 64-bit SGPR second operand of a 4+ operand VALU is taken as one too
 * (gfx8's v_add_u32_e64 v0, s[0:1], v1, v2).  An SGPR source (v_cvt_f32_u32
 * v6, s50; v_fma_f32 v0, s1, v2, v3) is read, not written: its facts stay. */
static int valu_sdst(const char *m, size_t n, int nall, int width)
{
	static const char *const carry[] = { "_co_", "_co", "addc", "subb", "div_scale", "mad_u64",
					     "mad_i64", "mad_co" };

	if (nall < 4)
		return 0;
	if (width == 2)
		return 1;
	for (size_t i = 0; i < sizeof(carry) / sizeof(carry[0]); i++) {
		size_t l = strlen(carry[i]);
		for (size_t k = 0; k + l <= n; k++)
			if (!memcmp(m + k, carry[i], l))
				return 1;
	}
	return 0;
}

/* The text names VCC (vcc, vcc_lo, vcc_hi): the instruction may write it. */
static int has_cmpx(const char *m, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (!memcmp(m + i, "cmpx", 4))
			return 1;
	return 0;
}

/* t names EXEC (exec, exec_lo, exec_hi; not s_cbranch_execz/execnz) */
static int names_exec(const char *t, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (!memcmp(t + i, "exec", 4) && !(i + 4 < n && t[i + 4] == 'z') &&
		    !(i + 5 < n && t[i + 4] == 'n' && t[i + 5] == 'z'))
			return 1;
	return 0;
}

static int names_vcc(const char *t, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (t[i] == 'v' && t[i + 1] == 'c' && t[i + 2] == 'c' && !(i + 3 < n && t[i + 3] == 'z') &&
		    !(i + 4 < n && t[i + 3] == 'n' && t[i + 4] == 'z'))
			return 1;
	return 0;
}

/* [s, e) has the word glc (an SMEM atomic that returns its old value). */
static int has_glc(const char *s, const char *e)
{
	for (const char *t = s; t + 3 <= e; t++)
		if (!memcmp(t, "glc", 3) && (t == s || t[-1] == ' ' || t[-1] == '\t' || t[-1] == ',') &&
		    (t + 3 == e || t[3] == ' ' || t[3] == '\t' || t[3] == ','))
			return 1;
	return 0;
}

#define UNIFORM(i) (op[i].kind == 2 || (op[i].kind == 1 && op[i].n == 1 && op[i].reg < VF_NSGPR))

static void decode_one(const vf_prog *p, uint32_t at, vf_sop *o)
{
	const vf_inst *in = &p->insts[at];
	const char *m = in->tp, *e = in->tp + in->text_len, *q;
	size_t mn = in->mnem_len;
	opnd op[3];
	int nop = 0, nall = 0;

	memset(o, 0, sizeof(*o));
	o->d = o->a = o->b = -1;
	o->kill[0] = o->kill[1] = -1;
	o->keepscc = (uint8_t)keeps_scc(m, mn);
	for (q = m + mn; q < e;) {
		const char *c = q;
		int depth = 0;
		while (c < e && (*c != ',' || depth)) {
			if (*c == '(' || *c == '[')
				depth++;
			else if (*c == ')' || *c == ']')
				depth--;
			c++;
		}
		if (nop < 3)
			op[nop] = parse_opnd(p, q, c);
		nall++;
		nop += nop < 3;
		if (c >= e)
			break;
		q = c + 1;
	}
	/* whatever happens, an SGPR first operand of a non-store and an
	 * SGPR second operand of a VALU with a carry out may be written */
	if (nop >= 1 && op[0].kind == 1 && !pfxm(m, mn, "s_store") && !pfxm(m, mn, "s_buffer_store") &&
	    !pfxm(m, mn, "s_cmp") && !pfxm(m, mn, "s_setpc") && !pfxm(m, mn, "s_set_pc") &&
	    !pfxm(m, mn, "s_bitcmp") && !pfxm(m, mn, "s_cbranch")) {
		o->kill[0] = (int16_t)op[0].reg;
		o->killn = (uint8_t)op[0].n;
	}
	if (nop >= 2 && op[1].kind == 1 && pfxm(m, mn, "v_") && valu_sdst(m, mn, nall, op[1].n)) {
		o->kill[1] = (int16_t)op[1].reg;
		if (op[1].n > o->killn)
			o->killn = (uint8_t)op[1].n;
	}
	if (in->kind == VF_I_CBRANCH) {
		if (eqm(m, mn, "s_cbranch_scc0"))
			o->op = VF_S_CBR_SCC0;
		else if (eqm(m, mn, "s_cbranch_scc1"))
			o->op = VF_S_CBR_SCC1;
		else if (eqm(m, mn, "s_cbranch_vccz"))
			o->op = VF_S_CBR_VCCZ;
		else if (eqm(m, mn, "s_cbranch_vccnz"))
			o->op = VF_S_CBR_VCCNZ;
		else if (eqm(m, mn, "s_cbranch_execz"))
			o->op = VF_S_CBR_EXECZ;
		else if (eqm(m, mn, "s_cbranch_execnz"))
			o->op = VF_S_CBR_EXECNZ;
		return;
	}
	/* EXEC: written by what names it (s_and_saveexec, s_mov exec, ...)
	 * and by v_cmpx (implicitly); only s_mov_b64 exec, IMM is followed */
	o->execw = names_exec(in->tp, in->text_len) || has_cmpx(m, mn);
	if (o->execw && eqm(m, mn, "s_mov_b64")) {
		const char *t = m + mn, *te = in->tp + in->text_len;
		while (t < te && (*t == ' ' || *t == '\t'))
			t++;
		if (te - t > 5 && !memcmp(t, "exec", 4) && (t[4] == ',' || t[4] == ' ')) {
			char num[32], *end;
			size_t k = 0;
			long long v;
			t += 4;
			while (t < te && (*t == ' ' || *t == '\t' || *t == ','))
				t++;
			while (t < te && k + 1 < sizeof(num) && *t != ' ' && *t != '\t' && *t != '/' && *t != ';')
				num[k++] = *t++;
			num[k] = 0;
			errno = 0;
			v = k ? strtoll(num, &end, 0) : 0;
			if (k && !errno && *end == 0)
				o->exec_set = v ? 1 : 2;
		}
	}
	o->vccw = names_vcc(in->tp, in->text_len) ||
		  (o->kill[0] >= 0 && o->kill[0] + (o->killn ? o->killn : 1) > VF_NSGPR) ||
		  (o->kill[1] >= 0 && o->kill[1] + (o->killn ? o->killn : 1) > VF_NSGPR);
	/* v_cmp_<op>_{i32,u32}_e64 vcc, a, b with SGPR / constant sources:
	 * the same in every lane, so VCC != 0 says the condition holds */
	if (pfxm(m, mn, "v_cmp_") && mn == 16 && m[8] == '_' && (m[9] == 'i' || m[9] == 'u') &&
	    !memcmp(m + 10, "32_e64", 6) && nop == 3 && op[0].kind == 1 && op[0].reg == VF_NSGPR) {
		int cop = -1;
		if (!memcmp(m + 6, "eq", 2))
			cop = VF_CMP_EQ;
		else if (!memcmp(m + 6, "ne", 2))
			cop = VF_CMP_NE;
		else if (!memcmp(m + 6, "lt", 2))
			cop = VF_CMP_LT;
		else if (!memcmp(m + 6, "le", 2))
			cop = VF_CMP_LE;
		else if (!memcmp(m + 6, "gt", 2))
			cop = VF_CMP_GT;
		else if (!memcmp(m + 6, "ge", 2))
			cop = VF_CMP_GE;
		if (cop >= 0 && UNIFORM(1) && UNIFORM(2)) {
			o->op = VF_S_VCMP;
			o->cmp = (uint8_t)cop;
			o->sgn = m[9] == 'i';
			o->a = (int16_t)(op[1].kind == 1 ? op[1].reg : -1);
			o->ia = op[1].imm;
			o->ak = 1;
			o->b = (int16_t)(op[2].kind == 1 ? op[2].reg : -1);
			o->ib = op[2].imm;
			o->bk = 1;
		}
		return;
	}
	if (!pfxm(m, mn, "s_"))
		return;
#define OK(i) (nop > (i) && (op[i].kind == 1 ? op[i].n == 1 : op[i].kind == 2))
#define SRC(i, r, k, im)                                                        \
	do {                                                                    \
		o->k = OK(i);                                                   \
		o->r = (int16_t)(op[i].kind == 1 ? op[i].reg : -1);             \
		o->im = op[i].imm;                                              \
	} while (0)
	if ((eqm(m, mn, "s_getpc_b64") || eqm(m, mn, "s_get_pc_i64")) && nop == 1 && op[0].kind == 1 &&
	    op[0].n == 2) {
		o->op = VF_S_GETPC;
		o->d = (int16_t)op[0].reg;
		o->dn = 2;
		return;
	}
	if ((eqm(m, mn, "s_swappc_b64") || eqm(m, mn, "s_swap_pc_i64")) && nop == 2 &&
	    op[0].kind == 1 && op[0].n == 2 && op[1].kind == 1 && op[1].n == 2) {
		o->op = VF_S_SWAPPC;
		o->d = (int16_t)op[0].reg;
		o->dn = 2;
		o->a = (int16_t)op[1].reg;
		return;
	}
	if ((eqm(m, mn, "s_setpc_b64") || eqm(m, mn, "s_set_pc_i64")) && nop == 1 &&
	    op[0].kind == 1 && op[0].n == 2) {
		o->op = VF_S_SETPC;
		o->a = (int16_t)op[0].reg;
		return;
	}
	if (eqm(m, mn, "s_mov_b64") && nop == 2 && op[0].kind == 1 && op[0].n == 2 &&
	    (op[1].kind == 2 || (op[1].kind == 1 && op[1].n == 2))) {
		o->op = VF_S_MOV64;
		o->d = (int16_t)op[0].reg;
		o->dn = 2;
		SRC(1, a, ak, ia);
		if (op[1].kind == 1) {
			o->a = (int16_t)op[1].reg;
			o->ak = 1;
		}
		return;
	}
	if (pfxm(m, mn, "s_cmp_") || pfxm(m, mn, "s_cmpk_")) {
		const char *c = m + (m[5] == 'k' ? 7 : 6);
		size_t rest = mn - (size_t)(c - m);
		int cop;
		if (rest == 6 && c[2] == '_' && (c[3] == 'i' || c[3] == 'u') && c[4] == '3' &&
		    c[5] == '2' && cmp_of(c, 2, &cop) && nop == 2) {
			o->op = VF_S_CMP;
			o->cmp = (uint8_t)cop;
			o->sgn = c[3] == 'i';
			SRC(0, a, ak, ia);
			SRC(1, b, bk, ib);
			if (m[5] == 'k' && op[1].kind == 2 && !o->sgn)
				o->ib &= 0xffff; /* SOPK: 16-bit, zero-extended for u32 */
			else if (m[5] == 'k' && op[1].kind == 2)
				o->ib = (uint32_t)(int32_t)(int16_t)o->ib;
			if (cop == 1)
				o->cmp = VF_CMP_NE;
			else if (cop == 2)
				o->cmp = VF_CMP_LT;
			else if (cop == 3)
				o->cmp = VF_CMP_LE;
			else if (cop == 4)
				o->cmp = VF_CMP_GT;
			else if (cop == 5)
				o->cmp = VF_CMP_GE;
		}
		return;
	}
	if (nop < 2 || op[0].kind != 1 || op[0].n != 1)
		return;
	if ((eqm(m, mn, "s_atomic_dec") || eqm(m, mn, "s_atomic_inc") || eqm(m, mn, "s_buffer_atomic_dec") ||
	     eqm(m, mn, "s_buffer_atomic_inc")) &&
	    op[0].reg < VF_NSGPR && has_glc(m + mn, e)) {
		/* returns the memory word's old value into op[0] (read first:
		 * it is the data) */
		o->atom = at + 1;
		if (p->assume_atomic_counters) {
			o->op = VF_S_ATOMIC;
			o->d = o->a = (int16_t)op[0].reg;
			o->dn = o->ak = 1;
		}
		return;
	}
	o->d = (int16_t)op[0].reg;
	o->dn = 1;
	if (eqm(m, mn, "s_mov_b32") || eqm(m, mn, "s_movk_i32")) {
		o->op = VF_S_MOV;
		SRC(1, a, ak, ia);
		if (eqm(m, mn, "s_movk_i32") && op[1].kind == 2)
			o->ia = (uint32_t)(int32_t)(int16_t)o->ia;
		return;
	}
	if ((eqm(m, mn, "s_cmov_b32") || eqm(m, mn, "s_cmovk_i32")) && nop == 2) {
		o->op = VF_S_CMOV;
		SRC(1, a, ak, ia);
		if (eqm(m, mn, "s_cmovk_i32") && op[1].kind == 2)
			o->ia = (uint32_t)(int32_t)(int16_t)o->ia;
		return;
	}
	if (eqm(m, mn, "s_addk_i32") && nop == 2) {
		o->op = VF_S_ADD;
		o->a = o->d;
		o->ak = 1;
		SRC(1, b, bk, ib);
		if (op[1].kind == 2)
			o->ib = (uint32_t)(int32_t)(int16_t)o->ib;
		return;
	}
	if (nop != 3)
		return;
	SRC(1, a, ak, ia);
	SRC(2, b, bk, ib);
	if (eqm(m, mn, "s_add_u32") || eqm(m, mn, "s_add_co_u32"))
		o->op = VF_S_ADD, o->carry = 1;
	else if (eqm(m, mn, "s_add_i32"))
		o->op = VF_S_ADD;
	else if (eqm(m, mn, "s_sub_u32") || eqm(m, mn, "s_sub_co_u32"))
		o->op = VF_S_SUB, o->carry = 1;
	else if (eqm(m, mn, "s_sub_i32"))
		o->op = VF_S_SUB;
	else if (eqm(m, mn, "s_addc_u32") || eqm(m, mn, "s_add_co_ci_u32"))
		o->op = VF_S_ADDC;
	else if (eqm(m, mn, "s_subb_u32") || eqm(m, mn, "s_sub_co_ci_u32"))
		o->op = VF_S_SUBB;
	else if (eqm(m, mn, "s_lshr_b32"))
		o->op = VF_S_LSHR;
	else if (eqm(m, mn, "s_lshl_b32"))
		o->op = VF_S_LSHL;
	else if (eqm(m, mn, "s_and_b32"))
		o->op = VF_S_AND;
	else if (eqm(m, mn, "s_or_b32"))
		o->op = VF_S_OR;
	else if (eqm(m, mn, "s_mul_i32"))
		o->op = VF_S_MUL;
	else if (eqm(m, mn, "s_cselect_b32"))
		o->op = VF_S_CSELECT;
#undef OK
#undef SRC
}

vf_sop *vf_sops_decode(const vf_prog *p)
{
	vf_sop *s = calloc(p->ninst ? p->ninst : 1, sizeof(*s));

	if (!s)
		return NULL;
	for (size_t i = 0; i < p->ninst; i++) {
		const vf_inst *in = &p->insts[i];
		if (in->mnem_len < 2 || (in->tp[0] != 's' && in->tp[0] != 'v')) {
			s[i].d = s[i].a = s[i].b = -1;
			s[i].kill[0] = s[i].kill[1] = -1;
			s[i].keepscc = 1;
			/* memory ops writing SGPRs (s_load is s_) are caught by kill */
			continue;
		}
		if (in->tp[0] == 'v' && in->nops >= 1) {
			/* VALU: only SGPR results matter (v_readlane, v_cmp_e64, carry out) */
			int any = 0;
			const vf_op *ops = &p->ops[in->op0];
			for (uint8_t k = 0; k < in->nops; k++)
				any |= ops[k].def && ops[k].slot >= VF_SLOT_S && ops[k].slot < VF_SLOT_TTMP;
			if (!any && !memchr(in->tp, 's', in->text_len) && !names_vcc(in->tp, in->text_len) &&
			    !has_cmpx(in->tp, in->mnem_len) && !names_exec(in->tp, in->text_len)) {
				s[i].d = s[i].a = s[i].b = -1;
				s[i].kill[0] = s[i].kill[1] = -1;
				s[i].keepscc = 1;
				continue;
			}
		}
		decode_one(p, (uint32_t)i, &s[i]);
	}
	return s;
}

/* ---- transfer ---- */

/* Value of a source operand as a fact. */
static void src_fact(const vf_facts *F, int r, int known, uint32_t imm, vf_sfact *out)
{
	vf_sfact t;

	if (!known) {
		full(out, 0);
		return;
	}
	if (r >= 0)
		*out = *get(F, r, &t);
	else
		set_const(out, 0, imm);
}

/* Elementwise binary op over two exact sets; 0 if not both exact. */
static int binop_sets(const vf_sfact *a, const vf_sfact *b, int d, int op, vf_sfact *out,
		      uint32_t *carry_lo, uint32_t *carry_hi)
{
	uint32_t v[VF_SETK * VF_SETK];
	size_t n = 0;
	uint32_t cl = 1, ch = 0;

	if (!a->nset || !b->nset || a->nset * b->nset > VF_SETK * VF_SETK)
		return 0;
	for (uint8_t i = 0; i < a->nset; i++)
		for (uint8_t j = 0; j < b->nset; j++) {
			uint32_t x = a->set[i], y = b->set[j], r, c = 0;
			switch (op) {
			case VF_S_ADD: r = x + y; c = r < x; break;
			case VF_S_SUB: r = x - y; c = y > x; break;
			case VF_S_AND: r = x & y; break;
			case VF_S_OR: r = x | y; break;
			case VF_S_MUL: r = x * y; break;
			case VF_S_LSHL: r = x << (y & 31); break;
			default: r = x >> (y & 31); break;
			}
			v[n++] = r;
			if (c < cl)
				cl = c;
			if (c > ch)
				ch = c;
		}
	from_values(out, d, v, n);
	*carry_lo = cl;
	*carry_hi = ch;
	return 1;
}

static void scc_const(vf_facts *F, int v)
{
	memset(&F->scc, 0, sizeof(F->scc));
	F->scc.kind = 1;
	F->scc.val = (uint8_t)v;
}

static void scc_nz(vf_facts *F, int d)
{
	memset(&F->scc, 0, sizeof(F->scc));
	F->scc.kind = 2;
	F->scc.op = VF_CMP_NE;
	F->scc.a = (int16_t)d;
	F->scc.b = -1;
	F->scc.ib = 0;
}

/* The fact of register r when SCC (a comparison) is v: vf_facts_assume_scc
 * on a copy of the registers it can narrow (the compared ones, their
 * relation bases, r); *out unchanged when that SCC is impossible. */
static void arm_fact(const vf_facts *F, int v, int r, vf_sfact *out)
{
	vf_facts G;
	int regs[6] = { F->scc.a, F->scc.b, -1, -1, r, -1 };

	memset(G.has, 0, sizeof(G.has));
	G.scc = F->scc;
	G.basem[0] = F->basem[0];
	G.basem[1] = F->basem[1];
	for (int i = 0; i < 2; i++)
		if (regs[i] >= 0 && regs[i] < VF_NSGPR && F->has[regs[i]] && F->f[regs[i]].rel)
			regs[2 + i] = F->f[regs[i]].base;
	if (r >= 0 && r < VF_NSGPR && F->has[r] && F->f[r].rel)
		regs[5] = F->f[r].base;
	for (int i = 0; i < 6; i++)
		if (regs[i] >= 0 && regs[i] < VF_NSGPR && F->has[regs[i]]) {
			G.f[regs[i]] = F->f[regs[i]];
			G.has[regs[i]] = 1;
		}
	if (vf_facts_assume_scc(&G, v)) {
		vf_sfact t;
		*out = *get(&G, r, &t);
	}
}

void vf_facts_step(vf_facts *F, const vf_sop *o, int64_t addr)
{
	vf_sfact a, b, r;
	int d = o->d;

	if (o->vccw && o->op != VF_S_VCMP)
		memset(&F->vcc, 0, sizeof(F->vcc));
	if (o->execw)
		F->exec = o->exec_set;

	switch (o->op) {
	case VF_S_CBR_SCC0:
	case VF_S_CBR_SCC1:
	case VF_S_CBR_VCCZ:
	case VF_S_CBR_VCCNZ:
	case VF_S_CBR_EXECZ:
	case VF_S_CBR_EXECNZ:
	case VF_S_SETPC:
		return;
	case VF_S_VCMP: {
		vf_scc scc = F->scc;
		memset(&F->scc, 0, sizeof(F->scc));
		F->scc.kind = 2;
		F->scc.op = o->cmp;
		F->scc.sgn = o->sgn;
		F->scc.a = o->a;
		F->scc.b = o->b;
		F->scc.ia = o->ia;
		F->scc.ib = o->ib;
		/* decided false: VCC == 0 whatever EXEC holds */
		if (vf_facts_scc(F) == 0) {
			memset(&F->scc, 0, sizeof(F->scc));
			F->scc.kind = 1;
		}
		F->vcc = F->scc;
		F->scc = scc; /* a VALU op leaves SCC alone */
		return;
	}
	case VF_S_CMP: {
		memset(&F->scc, 0, sizeof(F->scc));
		if (!o->ak || !o->bk)
			return;
		F->scc.kind = 2;
		F->scc.op = o->cmp;
		F->scc.sgn = o->sgn;
		F->scc.a = o->a;
		F->scc.b = o->b;
		F->scc.ia = o->ia;
		F->scc.ib = o->ib;
		{
			int v = vf_facts_scc(F);
			if (v >= 0)
				scc_const(F, v);
		}
		return;
	}
	case VF_S_GETPC:
	case VF_S_SWAPPC:
		kill_reg(F, d);
		kill_reg(F, d + 1);
		if (addr >= 0 && d + 1 < VF_NSGPR) {
			uint64_t v = (uint64_t)addr + 4;
			set_const(&r, d, (uint32_t)v);
			put(F, &r);
			set_const(&r, d + 1, (uint32_t)(v >> 32));
			put(F, &r);
		}
		return;
	case VF_S_MOV64: {
		vf_sfact lo, hi;
		if (o->a >= 0) {
			vf_sfact t0, t1;
			lo = *get(F, o->a, &t0);
			hi = *get(F, o->a + 1, &t1);
			if (o->a + 1 < VF_NSGPR && d != o->a) {
				/* copies: relate to the source when it survives */
				if (!lo.rel && !(o->a >= d && o->a <= d + 1))
					lo.rel = VF_REL_ADD, lo.base = (uint8_t)o->a, lo.c = 0;
				if (!hi.rel && !(o->a + 1 >= d && o->a + 1 <= d + 1))
					hi.rel = VF_REL_ADD, hi.base = (uint8_t)(o->a + 1), hi.c = 0;
			}
		} else {
			int64_t sv = (int32_t)o->ia;
			set_const(&lo, d, o->ia);
			if (sv >= -16 && sv <= 64)
				set_const(&hi, d + 1, sv < 0 ? UMAX : 0);
			else
				full(&hi, d + 1);
		}
		kill_reg(F, d);
		kill_reg(F, d + 1);
		lo.reg = (uint8_t)d;
		hi.reg = (uint8_t)(d + 1);
		lo.tested = hi.tested = 0;
		lo.why = hi.why = 0;
		put(F, &lo);
		put(F, &hi);
		return;
	}
	default:
		break;
	}
	if (o->op == VF_S_OTHER || o->op == VF_S_NONE || d < 0) {
		for (int k = 0; k < 2; k++)
			if (o->kill[k] >= 0)
				for (int i = 0; i < (o->killn ? o->killn : 1); i++)
					kill_reg(F, o->kill[k] + i);
		if (o->atom && o->kill[0] >= 0 && o->kill[0] < VF_NSGPR) {
			/* unknown, but a finding whose path tests it says whose it is */
			full(&r, o->kill[0]);
			r.atom = o->atom;
			put(F, &r);
		}
		if (!o->keepscc)
			memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
	src_fact(F, o->a, o->ak, o->ia, &a);
	src_fact(F, o->b, o->bk, o->ib, &b);
	full(&r, d);
	switch (o->op) {
	case VF_S_ATOMIC: {
		/* d = the counter's old value, in [0, data] where data = a (the
		 * SGPR before the write): unsigned, at most data's largest
		 * value, and related to data's base (s51 = s50 - 1 as data:
		 * result <= s50 - 1 mod 2^32) */
		vf_sfact x = a;
		full(&r, d);
		r.uhi = x.uhi;
		r.atom = o->atom;
		if (x.rel == VF_REL_ADD && x.base != d)
			r.rel = VF_REL_LE, r.base = x.base, r.c = x.c;
		else if (o->a != d)
			r.rel = VF_REL_LE, r.base = (uint8_t)o->a, r.c = 0;
		normalize(&r);
		kill_reg(F, d);
		put(F, &r);
		memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
	case VF_S_MOV:
		r = a;
		r.reg = (uint8_t)d;
		r.tested = 0;
		r.why = 0;
		if (o->a >= 0 && o->a != d && !r.rel)
			r.rel = VF_REL_ADD, r.base = (uint8_t)o->a, r.c = 0;
		kill_reg(F, d);
		put(F, &r);
		return;
	case VF_S_CSELECT:
	case VF_S_CMOV: {
		/* d = SCC ? a : b (s_cselect) or SCC ? a : d (s_cmov); SCC kept.
		 * SCC decided: a copy of the chosen source; else the join of
		 * both (a value either may hold). */
		int scc = vf_facts_scc(F), src;
		vf_sfact t;
		if (o->op == VF_S_CMOV) {
			b = *get(F, d, &t);
			if (scc == 0)
				return;
		}
		src = scc == 1 ? 0 : scc == 0 ? 1 : -1;
		if (src >= 0) {
			int sr = src ? o->b : o->a;
			if (!(src ? o->bk : o->ak)) {
				kill_reg(F, d);
				return;
			}
			r = src ? b : a;
			if (sr >= 0 && sr != d && !r.rel)
				r.rel = VF_REL_ADD, r.base = (uint8_t)sr, r.c = 0;
		} else {
			/* each source under its arm's condition (SCC a comparison:
			 * s9 == 0 ? 4 : s9 is never 0) */
			if (F->scc.kind == 2) {
				if (o->ak && o->a >= 0)
					arm_fact(F, 1, o->a, &a);
				if (o->op == VF_S_CMOV || (o->bk && o->b >= 0))
					arm_fact(F, 0, o->op == VF_S_CMOV ? d : o->b, &b);
			}
			if (!o->ak || (o->op == VF_S_CSELECT && !o->bk) || !join_fact(&r, &a, &b)) {
				kill_reg(F, d);
				return;
			}
			r.rel = 0;
		}
		if (r.rel && r.base == d)
			r.rel = 0;
		r.reg = (uint8_t)d;
		r.tested = 0;
		kill_reg(F, d);
		put(F, &r);
		return;
	}
	case VF_S_ADD:
	case VF_S_SUB: {
		uint32_t cl, ch;
		int scc = -1;
		/* register +/- constant: keep the relation */
		int reg = -1;
		uint32_t c = 0;
		if (o->ak && o->bk && o->a >= 0 && o->b < 0)
			reg = o->a, c = o->op == VF_S_ADD ? o->ib : 0u - o->ib;
		else if (o->ak && o->bk && o->op == VF_S_ADD && o->b >= 0 && o->a < 0)
			reg = o->b, c = o->ia;
		if (o->ak && o->bk && binop_sets(&a, &b, d, o->op, &r, &cl, &ch)) {
			if (cl == ch)
				scc = (int)cl;
		} else if (reg >= 0) {
			vf_sfact t;
			add_const(&r, get(F, reg, &t), d, c);
			if (o->carry) {
				const vf_sfact *x = get(F, reg, &t);
				if (o->op == VF_S_ADD) {
					if ((uint64_t)x->uhi + c <= UMAX)
						scc = 0;
					else if ((uint64_t)x->ulo + c > UMAX)
						scc = 1;
				} else {
					uint32_t sub = 0u - c;
					if (x->ulo >= sub)
						scc = 0;
					else if (x->uhi < sub)
						scc = 1;
				}
			}
		}
		if (reg >= 0) {
			vf_sfact t;
			const vf_sfact *x = get(F, reg, &t);
			if (reg == d) {
				/* d = d + c: relations on d shift, d keeps its base */
				for (int q = 0; q < VF_NSGPR; q++)
					if (F->has[q] && q != d && (F->f[q].rel == VF_REL_ADD || F->f[q].rel == VF_REL_LE) &&
					    F->f[q].base == d)
						F->f[q].c -= c;
					else if (F->has[q] && q != d && F->f[q].rel == VF_REL_SHR && F->f[q].base == d)
						F->f[q].rel = 0;
				if (x->rel == VF_REL_ADD)
					r.rel = VF_REL_ADD, r.base = x->base, r.c = x->c + c;
				if (F->scc.kind == 2 && (F->scc.a == d || F->scc.b == d))
					F->scc.kind = 0;
				r.reg = (uint8_t)d;
				F->has[d] = 0;
				put(F, &r);
			} else {
				if (x->rel == VF_REL_ADD && x->base != d)
					r.rel = VF_REL_ADD, r.base = x->base, r.c = x->c + c;
				else
					r.rel = VF_REL_ADD, r.base = (uint8_t)reg, r.c = c;
				kill_reg(F, d);
				put(F, &r);
			}
		} else {
			kill_reg(F, d);
			r.reg = (uint8_t)d;
			put(F, &r);
		}
		if (o->carry && scc >= 0)
			scc_const(F, scc);
		else
			memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
	case VF_S_ADDC:
	case VF_S_SUBB: {
		int cin = vf_facts_scc(F);
		uint32_t cl, ch;
		vf_sfact cs;
		if (cin >= 0 && o->ak && o->bk) {
			set_const(&cs, 0, (uint32_t)cin);
			if (binop_sets(&a, &b, d, o->op == VF_S_ADDC ? VF_S_ADD : VF_S_SUB, &r, &cl, &ch)) {
				vf_sfact r2;
				uint32_t cl2, ch2;
				if (binop_sets(&r, &cs, d, o->op == VF_S_ADDC ? VF_S_ADD : VF_S_SUB, &r2, &cl2, &ch2)) {
					r = r2;
					kill_reg(F, d);
					put(F, &r);
					if (cl == ch && cl2 == ch2)
						scc_const(F, (int)(cl | cl2));
					else
						memset(&F->scc, 0, sizeof(F->scc));
					return;
				}
			}
		}
		kill_reg(F, d);
		memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
	case VF_S_LSHR:
	case VF_S_LSHL:
	case VF_S_AND:
	case VF_S_OR:
	case VF_S_MUL: {
		uint32_t cl, ch;
		int have = o->ak && o->bk && binop_sets(&a, &b, d, o->op, &r, &cl, &ch);
		if (!have && o->op == VF_S_LSHR && o->ak && o->bk && o->a >= 0 && o->b < 0) {
			vf_sfact t;
			shr_const(&r, get(F, o->a, &t), d, o->ib & 31);
			if (o->a != d && (o->ib & 31)) {
				r.rel = VF_REL_SHR;
				r.base = (uint8_t)o->a;
				r.c = o->ib & 31;
			}
			have = 1;
		} else if (!have && o->op == VF_S_AND && o->ak && o->bk && (o->a < 0 || o->b < 0)) {
			uint32_t mask = o->a < 0 ? o->ia : o->ib;
			full(&r, d);
			r.uhi = mask;
			normalize(&r);
			have = 1;
		}
		kill_reg(F, d);
		if (have) {
			r.reg = (uint8_t)d;
			r.tested = 0;
			r.why = 0;
			put(F, &r);
		}
		if (o->op == VF_S_MUL)
			return;
		if (have && r.nset == 1)
			scc_const(F, r.set[0] != 0);
		else
			scc_nz(F, d);
		return;
	}
	default:
		kill_reg(F, d);
		if (!o->keepscc)
			memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
}
