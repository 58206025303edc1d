/* sfacts.c - facts about scalar registers along a path, for the path-aware
 * data-flow (flow.c): which branch edges a path can take, and where
 * s_swappc / s_setpc go.  This file: the domain (one fact, the dense facts
 * of a program point, joins, comparisons, narrowing at a branch);
 * sfacts_decode.c decodes the instructions' scalar semantics,
 * sfacts_step.c applies them, sfacts_describe.c words the facts of a path.
 *
 * The domain is sound: every fact over-approximates the values a register
 * can hold at that point.  A write the model does not know (s_load,
 * v_readlane, s_*_saveexec, any other SGPR write) forgets the register; a
 * write of SCC it does not know forgets SCC.  Facts: an unsigned and a
 * signed interval, up to VF_SETK exact values, and one relation to another
 * SGPR (reg = base + c mod 2^32, or reg = base >> c) so a test of a derived
 * counter (s5 = s50 - 1, s6 = s11 >> 1) narrows the register it came from;
 * with kw_verify_opts.assume_atomic_counters, the value a counter atomic
 * returned is bounded by its data (reg <= base + c mod 2^32).
 * Semantics of the scalar ALU from the AMD Instinct MI300 ISA reference
 * (SOP1/SOP2/SOPC/SOPK: s_add_u32 sets SCC to the carry, s_sub_u32 to the
 * borrow, shifts and bitwise ops to result != 0). */
#include "verify/sfacts_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a single fact ---- */

void vf_sf_full(vf_sfact *f, int reg)
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

void vf_sf_set_const(vf_sfact *f, int reg, uint32_t v)
{
	vf_sf_full(f, reg);
	f->nset = 1;
	f->set[0] = v;
	f->ulo = f->uhi = v;
	f->slo = f->shi = (int32_t)v;
}

/* Make intervals and set agree; 0 if the fact is empty (contradiction). */
int vf_sf_normalize(vf_sfact *f)
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
void vf_sf_from_values(vf_sfact *f, int reg, uint32_t *v, size_t n)
{
	size_t k = 0;

	vf_sf_full(f, reg);
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
void vf_sf_add_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t c)
{
	vf_sf_full(y, reg);
	if (x->nset) {
		uint32_t v[VF_SETK];
		for (uint8_t i = 0; i < x->nset; i++)
			v[i] = x->set[i] + c;
		vf_sf_from_values(y, reg, v, x->nset);
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
	vf_sf_normalize(y);
}

void vf_sf_shr_const(vf_sfact *y, const vf_sfact *x, int reg, uint32_t k)
{
	vf_sf_full(y, reg);
	if (k > 31)
		return;
	if (x->nset) {
		uint32_t v[VF_SETK];
		for (uint8_t i = 0; i < x->nset; i++)
			v[i] = x->set[i] >> k;
		vf_sf_from_values(y, reg, v, x->nset);
		return;
	}
	y->ulo = x->ulo >> k;
	y->uhi = x->uhi >> k;
	vf_sf_normalize(y);
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

const vf_sfact *vf_sf_get(const vf_facts *F, int r, vf_sfact *tmp)
{
	if (r >= 0 && r < VF_NSGPR && F->has[r])
		return &F->f[r];
	vf_sf_full(tmp, r < 0 ? 0 : r);
	return tmp;
}

void vf_sf_put(vf_facts *F, const vf_sfact *f)
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

void vf_sf_kill_reg(vf_facts *F, int r)
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
int vf_sf_join_fact(vf_sfact *out, const vf_sfact *a, const vf_sfact *b)
{
	vf_sf_full(out, a->reg);
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
			if (vf_sf_join_fact(&jf, &in->f[i], &o->f[j])) {
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
	return vf_sf_normalize(x);
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
	return vf_sf_normalize(x);
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
	return vf_sf_normalize(bf);
}

/* Narrow bf, the fact of the base of x's relation, by x.  0 on contradiction. */
static int from_related(vf_sfact *bf, const vf_sfact *x)
{
	vf_sfact back;

	switch (x->rel) {
	case VF_REL_ADD:
		vf_sf_add_const(&back, x, bf->reg, (uint32_t)(0u - x->c));
		return intersect(bf, &back);
	case VF_REL_SHR: {
		uint64_t lo = x->c < 32 ? (uint64_t)x->ulo << x->c : 0;
		uint64_t hi = x->c < 32 ? ((uint64_t)x->uhi << x->c) | ((1ull << x->c) - 1) : UMAX;
		vf_sf_full(&back, bf->reg);
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
		vf_sf_add_const(&d, bf, qf->reg, qf->c);
		break;
	case VF_REL_SHR:
		vf_sf_shr_const(&d, bf, qf->reg, qf->c);
		break;
	case VF_REL_LE: {
		/* qf <= base + c: at most the largest value base + c takes */
		uint32_t hi;
		vf_sf_add_const(&d, bf, qf->reg, qf->c);
		hi = d.uhi;
		vf_sf_full(&d, qf->reg);
		d.uhi = hi;
		if (!vf_sf_normalize(&d))
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
			vf_sf_full(&bf, b);
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
		a = vf_sf_get(F, F->scc.a, &ta);
	else
		vf_sf_set_const(&ia, 0, F->scc.ia), a = &ia;
	if (F->scc.b >= 0)
		b = vf_sf_get(F, F->scc.b, &tb);
	else
		vf_sf_set_const(&ib, 0, F->scc.ib), b = &ib;
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
		a = *vf_sf_get(F, F->scc.a, &ta);
	else
		vf_sf_set_const(&a, 0, F->scc.ia);
	if (F->scc.b >= 0)
		b = *vf_sf_get(F, F->scc.b, &tb);
	else
		vf_sf_set_const(&b, 0, F->scc.ib);
	if (F->scc.a >= 0) {
		vf_sfact na = a;
		na.reg = (uint8_t)F->scc.a;
		if (!narrow(&na, op, F->scc.sgn, &b) || !refine(F, F->scc.a, &na))
			return 0;
	}
	if (F->scc.b >= 0) {
		vf_sfact nb = b, a2;
		if (F->scc.a >= 0)
			a2 = *vf_sf_get(F, F->scc.a, &ta);
		else
			vf_sf_set_const(&a2, 0, F->scc.ia);
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
	lo = vf_sf_get(F, r, &t0);
	hi = vf_sf_get(F, r + 1, &t1);
	if (!lo->nset || !hi->nset || lo->nset * hi->nset > VF_SETK)
		return -1;
	for (uint8_t j = 0; j < hi->nset; j++)
		for (uint8_t i = 0; i < lo->nset; i++)
			out[n++] = ((uint64_t)hi->set[j] << 32) | lo->set[i];
	return n;
}
