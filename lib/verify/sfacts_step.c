/* sfacts_step.c - one instruction applied to the SGPR facts (sfacts.c):
 * the scalar ALU's values and SCC (AMD Instinct MI300 ISA reference,
 * SOP1/SOP2/SOPC/SOPK), copies keeping their relation, selects under their
 * condition, and what anything else writes forgotten. */
#include "verify/sfacts_int.h"

#include <string.h>

/* ---- transfer ---- */

/* Value of a source operand as a fact. */
static void src_fact(const vf_facts *F, int r, int known, uint32_t imm, vf_sfact *out)
{
	vf_sfact t;

	if (!known) {
		vf_sf_full(out, 0);
		return;
	}
	if (r >= 0)
		*out = *vf_sf_get(F, r, &t);
	else
		vf_sf_set_const(out, 0, imm);
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
	vf_sf_from_values(out, d, v, n);
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
		*out = *vf_sf_get(&G, r, &t);
	}
}

/* c: the condition "o's operands compared by o's test" (s_cmp, v_cmp). */
static void compare_of(vf_scc *c, const vf_sop *o)
{
	memset(c, 0, sizeof(*c));
	c->kind = 2;
	c->op = o->cmp;
	c->sgn = o->sgn;
	c->a = o->a;
	c->b = o->b;
	c->ia = o->ia;
	c->ib = o->ib;
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
		compare_of(&F->scc, o);
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
		compare_of(&F->scc, o);
		{
			int v = vf_facts_scc(F);
			if (v >= 0)
				scc_const(F, v);
		}
		return;
	}
	case VF_S_GETPC:
	case VF_S_SWAPPC:
		vf_sf_kill_reg(F, d);
		vf_sf_kill_reg(F, d + 1);
		if (addr >= 0 && d + 1 < VF_NSGPR) {
			uint64_t v = (uint64_t)addr + 4;
			vf_sf_set_const(&r, d, (uint32_t)v);
			vf_sf_put(F, &r);
			vf_sf_set_const(&r, d + 1, (uint32_t)(v >> 32));
			vf_sf_put(F, &r);
		}
		return;
	case VF_S_MOV64: {
		vf_sfact lo, hi;
		if (o->a >= 0) {
			vf_sfact t0, t1;
			lo = *vf_sf_get(F, o->a, &t0);
			hi = *vf_sf_get(F, o->a + 1, &t1);
			if (o->a + 1 < VF_NSGPR && d != o->a) {
				/* copies: relate to the source when it survives */
				if (!lo.rel && !(o->a >= d && o->a <= d + 1))
					lo.rel = VF_REL_ADD, lo.base = (uint8_t)o->a, lo.c = 0;
				if (!hi.rel && !(o->a + 1 >= d && o->a + 1 <= d + 1))
					hi.rel = VF_REL_ADD, hi.base = (uint8_t)(o->a + 1), hi.c = 0;
			}
		} else {
			int64_t sv = (int32_t)o->ia;
			vf_sf_set_const(&lo, d, o->ia);
			if (sv >= -16 && sv <= 64)
				vf_sf_set_const(&hi, d + 1, sv < 0 ? UMAX : 0);
			else
				vf_sf_full(&hi, d + 1);
		}
		vf_sf_kill_reg(F, d);
		vf_sf_kill_reg(F, d + 1);
		lo.reg = (uint8_t)d;
		hi.reg = (uint8_t)(d + 1);
		lo.tested = hi.tested = 0;
		lo.why = hi.why = 0;
		vf_sf_put(F, &lo);
		vf_sf_put(F, &hi);
		return;
	}
	default:
		break;
	}
	if (o->op == VF_S_OTHER || o->op == VF_S_NONE || d < 0) {
		for (int k = 0; k < 2; k++)
			if (o->kill[k] >= 0)
				for (int i = 0; i < (o->killn ? o->killn : 1); i++)
					vf_sf_kill_reg(F, o->kill[k] + i);
		if (o->atom && o->kill[0] >= 0 && o->kill[0] < VF_NSGPR) {
			/* unknown, but a finding whose path tests it says whose it is */
			vf_sf_full(&r, o->kill[0]);
			r.atom = o->atom;
			vf_sf_put(F, &r);
		}
		if (!o->keepscc)
			memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
	src_fact(F, o->a, o->ak, o->ia, &a);
	src_fact(F, o->b, o->bk, o->ib, &b);
	vf_sf_full(&r, d);
	switch (o->op) {
	case VF_S_ATOMIC: {
		/* d = the counter's old value, in [0, data] where data = a (the
		 * SGPR before the write): unsigned, at most data's largest
		 * value, and related to data's base (s51 = s50 - 1 as data:
		 * result <= s50 - 1 mod 2^32) */
		vf_sfact x = a;
		vf_sf_full(&r, d);
		r.uhi = x.uhi;
		r.atom = o->atom;
		if (x.rel == VF_REL_ADD && x.base != d)
			r.rel = VF_REL_LE, r.base = x.base, r.c = x.c;
		else if (o->a != d)
			r.rel = VF_REL_LE, r.base = (uint8_t)o->a, r.c = 0;
		vf_sf_normalize(&r);
		vf_sf_kill_reg(F, d);
		vf_sf_put(F, &r);
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
		vf_sf_kill_reg(F, d);
		vf_sf_put(F, &r);
		return;
	case VF_S_CSELECT:
	case VF_S_CMOV: {
		/* d = SCC ? a : b (s_cselect) or SCC ? a : d (s_cmov); SCC kept.
		 * SCC decided: a copy of the chosen source; else the join of
		 * both (a value either may hold). */
		int scc = vf_facts_scc(F), src;
		vf_sfact t;
		if (o->op == VF_S_CMOV) {
			b = *vf_sf_get(F, d, &t);
			if (scc == 0)
				return;
		}
		src = scc == 1 ? 0 : scc == 0 ? 1 : -1;
		if (src >= 0) {
			int sr = src ? o->b : o->a;
			if (!(src ? o->bk : o->ak)) {
				vf_sf_kill_reg(F, d);
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
			if (!o->ak || (o->op == VF_S_CSELECT && !o->bk) || !vf_sf_join_fact(&r, &a, &b)) {
				vf_sf_kill_reg(F, d);
				return;
			}
			r.rel = 0;
		}
		if (r.rel && r.base == d)
			r.rel = 0;
		r.reg = (uint8_t)d;
		r.tested = 0;
		vf_sf_kill_reg(F, d);
		vf_sf_put(F, &r);
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
			vf_sf_add_const(&r, vf_sf_get(F, reg, &t), d, c);
			if (o->carry) {
				const vf_sfact *x = vf_sf_get(F, reg, &t);
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
			const vf_sfact *x = vf_sf_get(F, reg, &t);
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
				vf_sf_put(F, &r);
			} else {
				if (x->rel == VF_REL_ADD && x->base != d)
					r.rel = VF_REL_ADD, r.base = x->base, r.c = x->c + c;
				else
					r.rel = VF_REL_ADD, r.base = (uint8_t)reg, r.c = c;
				vf_sf_kill_reg(F, d);
				vf_sf_put(F, &r);
			}
		} else {
			vf_sf_kill_reg(F, d);
			r.reg = (uint8_t)d;
			vf_sf_put(F, &r);
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
			vf_sf_set_const(&cs, 0, (uint32_t)cin);
			if (binop_sets(&a, &b, d, o->op == VF_S_ADDC ? VF_S_ADD : VF_S_SUB, &r, &cl, &ch)) {
				vf_sfact r2;
				uint32_t cl2, ch2;
				if (binop_sets(&r, &cs, d, o->op == VF_S_ADDC ? VF_S_ADD : VF_S_SUB, &r2, &cl2, &ch2)) {
					r = r2;
					vf_sf_kill_reg(F, d);
					vf_sf_put(F, &r);
					if (cl == ch && cl2 == ch2)
						scc_const(F, (int)(cl | cl2));
					else
						memset(&F->scc, 0, sizeof(F->scc));
					return;
				}
			}
		}
		vf_sf_kill_reg(F, d);
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
			vf_sf_shr_const(&r, vf_sf_get(F, o->a, &t), d, o->ib & 31);
			if (o->a != d && (o->ib & 31)) {
				r.rel = VF_REL_SHR;
				r.base = (uint8_t)o->a;
				r.c = o->ib & 31;
			}
			have = 1;
		} else if (!have && o->op == VF_S_AND && o->ak && o->bk && (o->a < 0 || o->b < 0)) {
			uint32_t mask = o->a < 0 ? o->ia : o->ib;
			vf_sf_full(&r, d);
			r.uhi = mask;
			vf_sf_normalize(&r);
			have = 1;
		}
		vf_sf_kill_reg(F, d);
		if (have) {
			r.reg = (uint8_t)d;
			r.tested = 0;
			r.why = 0;
			vf_sf_put(F, &r);
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
		vf_sf_kill_reg(F, d);
		if (!o->keepscc)
			memset(&F->scc, 0, sizeof(F->scc));
		return;
	}
}
