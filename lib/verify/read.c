/* read.c - AMDGPU assembly text into an instruction stream.
 *
 * Two producers: `clang -S` / Tensile-rocisa text (labels `name:`, `;` `//`
 * and block comments, directives, `.set` symbols, `.amdgcn_target`) and
 * `llvm-objdump -d` text (`ADDR <sym>:` symbol lines, then instructions with
 * `// ADDR: HEX [<sym+0xOFF>]` comments).  The form is recognised per line,
 * so one reader serves both.  One pass; instructions, operands and waits go
 * into growable arrays (no allocation per instruction).
 *
 * This file: instructions (class, waits, register operands), labels,
 * functions and vf_read itself.  The lexer is read_lex.c, directives and
 * macros read_macro.c, the objdump form read_objdump.c (read_int.h). */
#include "verify/read_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_m(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* mnemonic -> class, computed once per distinct mnemonic */
static const vf_mclass *classify_cached(rd *r, const char *m, size_t n)
{
	size_t i;

	if (r->mcn * 2 >= r->mccap) {
		size_t nc = r->mccap ? r->mccap * 2 : 512;
		mcache_ent *g = calloc(nc, sizeof(*g));
		if (!g)
			return NULL;
		for (size_t j = 0; j < r->mccap; j++) {
			if (!r->mc[j].m)
				continue;
			for (i = hash_m(r->mc[j].m, r->mc[j].n) & (nc - 1); g[i].m; i = (i + 1) & (nc - 1))
				;
			g[i] = r->mc[j];
		}
		free(r->mc);
		r->mc = g;
		r->mccap = nc;
	}
	for (i = hash_m(m, n) & (r->mccap - 1); r->mc[i].m; i = (i + 1) & (r->mccap - 1))
		if (r->mc[i].n == n && !memcmp(r->mc[i].m, m, n))
			return &r->mc[i].c;
	r->mc[i].m = m;
	r->mc[i].n = (uint32_t)n;
	r->mc[i].c = vf_classify(r->p->isa, m, n);
	r->mcn++;
	return &r->mc[i].c;
}

int vf_rd_add_label(rd *r, const char *name, size_t len, int64_t addr)
{
	vf_sym *sy;

	if (addr >= 0)
		r->after_end = 0;
	if (addr < 0) {
		memset(r->sknown, 0, sizeof(r->sknown));
		memset(r->sref, 0, sizeof(r->sref));
	}

	if (GROW(r->lab, r->nlab, r->clab, 256))
		return vf_rd_oom(r);
	r->lab[r->nlab].name = name;
	r->lab[r->nlab].len = (uint32_t)len;
	r->lab[r->nlab].inst = (uint32_t)r->p->ninst;
	r->lab[r->nlab].addr = addr;
	r->lab[r->nlab].woff = r->words ? r->words->len : 0;
	r->lab[r->nlab].code = !r->data_section;
	r->nlab++;
	sy = vf_sym_get(&r->p->syms, name, len, 1);
	if (!sy)
		return vf_rd_oom(r);
	if (addr >= 0) {
		sy->flags |= VF_SYM_ADDR;
		sy->value = addr;
	} else if (!(sy->flags & VF_SYM_ADDR)) {
		sy->flags |= VF_SYM_LABEL;
		sy->value = (int64_t)r->p->ninst;
	}
	return 0;
}

/* ---- waits ---- */

static int64_t imm_of(rd *r, const char *s, const char *e, int *ok)
{
	int64_t v;

	s = skip_ws(s, e);
	e = rtrim(s, e);
	*ok = !vf_expr(&r->p->syms, s, e, &v);
	return *ok ? v : 0;
}

static void set_field(const vf_isa *isa, vf_wait *w, int c, int64_t v)
{
	if (c < 0 || !((isa->counters >> c) & 1))
		return;
	w->fields++;
	if (v < 0 || v >= isa->cap[c])
		return; /* the all-ones "no wait" encoding (or larger): waits for nothing */
	if (w->n[c] < 0 || v < w->n[c])
		w->n[c] = (int16_t)v;
}

/* s_waitcnt: `vmcnt(N) expcnt(N) lgkmcnt(N)` with space, `&` or `,`
 * separators, or a raw immediate decoded per ISA (AMDGPUBaseInfo
 * decodeWaitcnt: gfx9 vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8];
 * gfx11 vmcnt [15:10], expcnt [2:0], lgkmcnt [9:4]). */
static int parse_waitcnt(rd *r, const char *s, const char *e, vf_wait *w)
{
	const vf_isa *isa = r->p->isa;
	int ok;

	s = skip_ws(s, e);
	if (s < e && (isdigit((unsigned char)*s) || *s == '-')) {
		int64_t imm = imm_of(r, s, e, &ok);
		if (!ok)
			return -1;
		if (isa->gen == 9) {
			set_field(isa, w, VF_C_VM, (imm & 0xf) | (((imm >> 14) & 3) << 4));
			set_field(isa, w, VF_C_EXP, (imm >> 4) & 7);
			set_field(isa, w, VF_C_LGKM, (imm >> 8) & 0xf);
		} else {
			set_field(isa, w, VF_C_VM, (imm >> 10) & 0x3f);
			set_field(isa, w, VF_C_EXP, imm & 7);
			set_field(isa, w, VF_C_LGKM, (imm >> 4) & 0x3f);
		}
		return 0;
	}
	while (s < e) {
		const char *n0, *lp, *rp;
		int c;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '&' || *s == ','))
			s++;
		if (s >= e)
			break;
		n0 = s;
		while (s < e && is_id((unsigned char)*s))
			s++;
		lp = s;
		if (lp >= e || *lp != '(')
			return -1;
		rp = memchr(lp, ')', (size_t)(e - lp));
		if (!rp)
			return -1;
#define F(lit) ((size_t)(lp - n0) >= sizeof(lit) - 1 && !memcmp(n0, lit, sizeof(lit) - 1) && \
		((size_t)(lp - n0) == sizeof(lit) - 1 || !memcmp(n0 + sizeof(lit) - 1, "_sat", 4)))
		if (F("vmcnt"))
			c = VF_C_VM;
		else if (F("expcnt"))
			c = VF_C_EXP;
		else if (F("lgkmcnt"))
			c = VF_C_LGKM;
		else
			return -1;
#undef F
		{
			int64_t v = imm_of(r, lp + 1, rp, &ok);
			if (!ok)
				return -1;
			set_field(isa, w, c, v);
		}
		s = rp + 1;
	}
	return 0;
}

static int parse_wait(rd *r, const vf_mclass *mc, const char *s, const char *e, vf_wait *w)
{
	const vf_isa *isa = r->p->isa;
	int ok;
	int64_t imm;

	for (int c = 0; c < VF_NCNT; c++)
		w->n[c] = -1;
	w->opaque = 0;
	w->fields = 0;
	switch (mc->wait) {
	case VF_W_WAITCNT:
		return parse_waitcnt(r, s, e, w);
	case VF_W_REG: {
		/* s_waitcnt_vscnt null, N: the count is the register plus N */
		const char *comma = memchr(s, ',', (size_t)(e - s));
		const char *r0 = skip_ws(s, e), *r1;
		if (!comma)
			return -1;
		r1 = rtrim(r0, comma);
		imm = imm_of(r, comma + 1, e, &ok);
		if (!ok)
			return -1;
		if ((r1 - r0 == 4 && !memcmp(r0, "null", 4)) || (r1 - r0 == 9 && !memcmp(r0, "sgpr_null", 9)))
			set_field(isa, w, mc->wcnt, imm);
		else
			w->opaque = 1, w->fields++;
		return 0;
	}
	case VF_W_SINGLE:
		imm = imm_of(r, s, e, &ok);
		if (!ok)
			return -1;
		set_field(isa, w, mc->wcnt, imm);
		return 0;
	case VF_W_LOAD_DS:
	case VF_W_STORE_DS:
		/* imm = cnt << 8 | dscnt (AMDGPUBaseInfo encodeLoadcntDscnt /
		 * encodeStorecntDscnt: bits 13:8 and 5:0) */
		imm = imm_of(r, s, e, &ok);
		if (!ok)
			return -1;
		set_field(isa, w, mc->wait == VF_W_LOAD_DS ? VF_C_VM : VF_C_VS, (imm >> 8) & 0x3f);
		set_field(isa, w, VF_C_LGKM, imm & 0x3f);
		return 0;
	case VF_W_IDLE:
		for (int c = 0; c < VF_NCNT; c++)
			if ((isa->counters >> c) & 1)
				set_field(isa, w, c, 0);
		return 0;
	}
	return -1;
}

/* ---- operands ---- */

static int has_word(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);

	for (const char *q = s; q + n <= e; q++) {
		if (*q != w[0] || memcmp(q, w, n))
			continue;
		if ((q == s || q[-1] == ' ' || q[-1] == '\t' || q[-1] == ',') &&
		    (q + n == e || q[n] == ' ' || q[n] == '\t' || q[n] == ',' || q[n] == ':'))
			return 1;
	}
	return 0;
}

/* Append the register operands of [s, e) (one instruction or one VOPD half).
 * def_first: 0 none, 1 written, 2 written and read. */
static int add_operands(rd *r, const char *s, const char *e, int def_first, uint8_t *nops)
{
	vf_prog *p = r->p;
	int idx = 0;

	while (s < e) {
		const char *a = skip_ws(s, e), *q = a, *t;
		int depth = 0;
		uint16_t slot;
		uint8_t n;
		int rc;

		t = NULL;
		for (; q < e; q++) {
			if (*q == '[' || *q == '(')
				depth++;
			else if (*q == ']' || *q == ')')
				depth--;
			else if (!depth && (*q == ' ' || *q == '\t') && !t)
				t = q;
			else if (!depth && *q == ',')
				break;
		}
		if (!t || t > q)
			t = q;
		rc = vf_parse_reg(&p->syms, a, t, &slot, &n);
		if (rc > 0) {
			if (p->nops == p->cap_ops && vf_rd_mem_check(r, p->cap_ops * sizeof(vf_op)))
				return -1;
			if (GROW(p->ops, p->nops, p->cap_ops, 1024))
				return vf_rd_oom(r);
			p->ops[p->nops].slot = slot;
			p->ops[p->nops].n = n;
			p->ops[p->nops].def = (uint8_t)(idx == 0 ? def_first : 0);
			p->nops++;
			if (*nops < 255)
				(*nops)++;
		}
		idx++;
		s = q < e ? q + 1 : e;
	}
	return 0;
}


int vf_rd_instruction(rd *r, const char *s, const char *e, uint32_t line, const cinfo *ci)
{
	vf_prog *p = r->p;
	const vf_isa *isa = p->isa;
	const char *m = s, *me = s, *ops;
	vf_mclass mcv;
	const vf_mclass *mc = &mcv;
	vf_inst *in;
	char lower[64];
	size_t mn;
	int def_first = 0;

	while (me < e && *me != ' ' && *me != '\t')
		me++;
	mn = (size_t)(me - m);
	if (p->objdump && r->after_end && ci->addr >= 0 && ci->enc == 0) {
		r->npad++; /* a zero word after s_endpgm: padding, not code */
		return 0;
	}
	if (p->ninst >= p->max_instructions)
		return kw_error_set(r->err, KW_ELIMIT, "max_instructions",
				    "more than %zu instructions (max_instructions); raise the bound",
				    p->max_instructions);
	if (p->ninst == p->cap_inst && vf_rd_mem_check(r, p->cap_inst * (sizeof(vf_inst) + sizeof(int64_t))))
		return -1;
	if (GROW(p->insts, p->ninst, p->cap_inst, 1024))
		return vf_rd_oom(r);
	if (GROW(p->addr, p->ninst, p->cap_addr, 1024))
		return vf_rd_oom(r);
	{
		int upper = 0;
		for (size_t i = 0; i < mn; i++)
			upper |= isupper((unsigned char)m[i]);
		if (!upper) {
			const vf_mclass *pc = classify_cached(r, m, mn);
			if (!pc)
				return vf_rd_oom(r);
			mcv = *pc;
		} else if (mn < sizeof(lower)) {
			for (size_t i = 0; i < mn; i++)
				lower[i] = (char)tolower((unsigned char)m[i]);
			mcv = vf_classify(isa, lower, mn);
		} else {
			memset(&mcv, 0, sizeof(mcv));
			mcv.kind = VF_I_UNKNOWN;
		}
	}
	in = &p->insts[p->ninst];
	memset(in, 0, sizeof(*in));
	in->line = line;
	in->tp = s;
	in->text_len = (uint16_t)((size_t)(e - s) > 0xffff ? 0xffff : (size_t)(e - s));
	in->mnem_len = (uint16_t)(mn > 0xffff ? 0xffff : mn);
	in->kind = mc->kind;
	in->flags = mc->flags & (uint8_t)~VF_F_DEF0;
	in->op0 = (uint32_t)p->nops;
	in->aux = UINT32_MAX;
	in->allow = ci->allow;
	p->addr[p->ninst] = ci->addr;
	ops = skip_ws(me, e);

	if (mc->kind == VF_I_MEM) {
		uint8_t acc = mc->access;
		int gds = (mc->mem == VF_M_LDS && has_word(ops, e, "gds"));
		int cls0 = -1, cls1 = -1;

		if (mc->mem == VF_M_VMEM && acc == VF_MA_LOAD && has_word(ops, e, "lds"))
			acc = VF_MA_DMA;
		if (acc == VF_MA_ATOMIC) {
			int ret;
			if (isa->gen >= 12)
				ret = mem_find(ops, (size_t)(e - ops), "TH_ATOMIC_RETURN", 16) != NULL;
			else if (isa->gfx94x && mc->mem != VF_M_SMEM)
				ret = has_word(ops, e, "sc0"); /* SMEM keeps glc on gfx94x */
			else
				ret = has_word(ops, e, "glc");
			acc = ret ? VF_MA_LOAD : VF_MA_STORE;
		}
		if (acc == VF_MA_LOAD || acc == VF_MA_SAMPLE || acc == VF_MA_BVH)
			def_first = 1;
		if (acc == VF_MA_STORE)
			in->flags |= VF_F_STORE;
		if (acc == VF_MA_DMA)
			in->flags |= VF_F_DMA;
		switch (mc->mem) {
		case VF_M_VMEM:
			if (acc == VF_MA_SAMPLE)
				cls0 = isa->gen >= 10 ? VF_K_VSAMPLE : VF_K_VMEM;
			else if (acc == VF_MA_BVH)
				cls0 = isa->gen >= 10 ? VF_K_VBVH : VF_K_VMEM;
			else if (acc == VF_MA_STORE)
				cls0 = isa->gen >= 10 ? VF_K_VSTORE : VF_K_VMEM;
			else
				cls0 = VF_K_VMEM;
			break;
		case VF_M_FLAT:
			cls0 = (acc == VF_MA_STORE && isa->gen >= 10) ? VF_K_FLATS : VF_K_FLATV;
			cls1 = VF_K_FLATL;
			if (acc == VF_MA_STORE)
				in->flags |= VF_F_LDSWRITE;
			break;
		case VF_M_LDS:
			cls0 = gds ? VF_K_GDS : VF_K_LDS;
			if (gds)
				in->flags &= (uint8_t)~(VF_F_LDSREAD | VF_F_LDSWRITE);
			break;
		case VF_M_GDS: cls0 = VF_K_GDS; break;
		case VF_M_SMEM: cls0 = VF_K_SMEM; break;
		case VF_M_MSG: cls0 = VF_K_MSG; break;
		case VF_M_EXP: cls0 = VF_K_EXP; break;
		case VF_M_TENSOR: cls0 = VF_K_TENSOR; break;
		case VF_M_ASYNC: cls0 = VF_K_ASYNC; break;
		}
		if (cls0 >= 0 && isa->cls_cnt[cls0] >= 0)
			in->cls[in->ncls++] = (uint8_t)cls0;
		if (cls1 >= 0 && isa->cls_cnt[cls1] >= 0)
			in->cls[in->ncls++] = (uint8_t)cls1;
		if (!in->ncls)
			in->kind = VF_I_UNKNOWN;
	} else if (mn == 14 && !memcmp(m, "s_set_vgpr_msb", 14)) {
		/* gfx1250 VGPR MSB mode: operands name v0-v255 of a bank the
		 * model does not follow; flagged (aux = 1) as unsupported */
		int ok;
		int64_t imm = imm_of(r, ops, e, &ok);
		in->kind = VF_I_IGNORE;
		if (!ok || (imm & 0xff))
			in->aux = 1;
	} else if (mc->kind == VF_I_ALU || mc->kind == VF_I_CALL) {
		if (mc->flags & VF_F_DEF0)
			def_first = (mc->flags & VF_F_READDST) ? 2 : 1;
	} else if (mc->kind == VF_I_WAIT) {
		vf_wait w;
		if (parse_wait(r, mc, ops, e, &w)) {
			in->kind = VF_I_UNKNOWN;
		} else {
			if (GROW(p->waits, p->nwaits, p->cap_waits, 256))
				return vf_rd_oom(r);
			p->waits[p->nwaits] = w;
			in->aux = (uint32_t)p->nwaits++;
		}
	} else if (mc->kind == VF_I_BRANCH || mc->kind == VF_I_CBRANCH) {
		const char *t0 = ops, *t1 = ops;
		while (t1 < e && *t1 != ' ' && *t1 != '\t' && *t1 != ',')
			t1++;
		if (GROW(r->br, r->nbr, r->cbr, 256))
			return vf_rd_oom(r);
		r->br[r->nbr].inst = (uint32_t)p->ninst;
		r->br[r->nbr].name = NULL;
		r->br[r->nbr].len = 0;
		r->br[r->nbr].addr = -1;
		if (ci->tname) {
			vf_sym *sy = vf_sym_get(&p->syms, ci->tname, ci->tlen, 0);
			if (sy && (sy->flags & VF_SYM_ADDR))
				r->br[r->nbr].addr = sy->value + ci->toff;
		} else if (ci->addr >= 0 && ci->enc >= 0 && ((ci->enc >> 23) & 0x1ff) == 0x17f) {
			/* objdump: a SOPP branch's simm16 (dwords after the 4-byte
			 * branch) from its encoding, whatever the operand shows */
			int64_t simm = (int16_t)(uint16_t)(ci->enc & 0xffff);
			r->br[r->nbr].addr = ci->addr + 4 + simm * 4;
		} else if (p->objdump && ci->addr >= 0 && t1 > t0 && isdigit((unsigned char)*t0)) {
			/* objdump without a <sym+off> comment: SOPP simm16 in dwords
			 * after the branch (4 bytes) */
			int ok;
			int64_t simm = imm_of(r, t0, t1, &ok);
			if (ok) {
				simm = (int16_t)(uint16_t)simm;
				r->br[r->nbr].addr = ci->addr + 4 + simm * 4;
			}
		}
		if (r->br[r->nbr].addr < 0 && t1 > t0 && !isdigit((unsigned char)*t0)) {
			/* a label, plain or quoted (`s_branch "k.1"`) */
			const char *nm = t0;
			size_t nl = (size_t)(t1 - t0);
			if (*t0 == '"' && sym_name(t0, e, &nm, &nl) == t0) {
				nm = t0;
				nl = (size_t)(t1 - t0);
			}
			r->br[r->nbr].name = nm;
			r->br[r->nbr].len = (uint32_t)nl;
		}
		r->nbr++;
	}
	/* register operands (VOPD: both halves, each with its own destination) */
	{
		const char *split = NULL;
		if (mn > 7 && !memcmp(m, "v_dual_", 7)) {
			for (const char *q = ops; q + 1 < e; q++)
				if (q[0] == ':' && q[1] == ':') {
					split = q;
					break;
				}
		}
		if (in->kind == VF_I_WAIT || in->kind == VF_I_BRANCH || in->kind == VF_I_CBRANCH ||
		    in->kind == VF_I_IGNORE) {
			/* no register operands that matter */
		} else if (split) {
			const char *h2 = skip_ws(split + 2, e), *h2o = h2;
			if (add_operands(r, ops, split, 1, &in->nops))
				return -1;
			while (h2o < e && *h2o != ' ' && *h2o != '\t')
				h2o++;
			if (add_operands(r, skip_ws(h2o, e), e, 1, &in->nops))
				return -1;
		} else if (add_operands(r, ops, e, def_first, &in->nops)) {
			return -1;
		}
	}
	vf_rd_sconst_step(r, in, m, mn, ops, e, ci->addr);
	/* no fall-through after s_endpgm, s_branch or s_setpc: zero words
	 * that follow (before the next label) are padding, not code, also
	 * after the s_nop 0 words ld.lld fills between functions with */
	r->after_end = in->kind == VF_I_END || in->kind == VF_I_BRANCH || in->kind == VF_I_SETPC ||
		       (r->after_end && (in->kind == VF_I_IGNORE || (mn == 5 && !memcmp(m, "s_nop", 5))));
	p->ninst++;
	return 0;
}

static int is_callable_name(const char *n, size_t len)
{
	static const char pfx[] = "__clang_ocl_kern_imp_";

	return len >= sizeof(pfx) - 1 && !memcmp(n, pfx, sizeof(pfx) - 1);
}

static int build_functions(rd *r)
{
	vf_prog *p = r->p;

	for (size_t i = 0; i < r->nlab; i++) {
		const label_ref *l = &r->lab[i];
		const vf_sym *sy;
		int start;

		if (l->addr >= 0 && !r->any_func_decl) {
			/* objdump prints every symbol, local labels too: a symbol
			 * starts a function when nothing falls through into it and
			 * it sits where a kernel does (256-byte aligned, .p2align 8)
			 * or has the name of a callable function */
			if (l->inst == 0 || l->inst >= p->ninst) {
				start = l->inst == 0;
			} else {
				/* the last instruction before it, padding (s_nop) skipped */
				uint32_t j = l->inst - 1;
				uint8_t pk;
				while (j > 0 && p->insts[j].mnem_len == 5 &&
				       !memcmp(p->insts[j].tp, "s_nop", 5))
					j--;
				pk = p->insts[j].kind;
				start = (pk == VF_I_END || pk == VF_I_SETPC || pk == VF_I_BRANCH) &&
					((l->addr & 255) == 0 || is_callable_name(l->name, l->len));
			}
		} else if (r->any_func_decl) {
			sy = vf_sym_get(&p->syms, l->name, l->len, 0);
			start = sy && (sy->flags & VF_SYM_FUNC);
		} else {
			start = p->nfuncs == 0;
		}
		if (!start)
			continue;
		if (p->nfuncs && p->funcs[p->nfuncs - 1].first == l->inst &&
		    p->funcs[p->nfuncs - 1].addr < 0 && l->addr < 0)
			continue;
		if (GROW(p->funcs, p->nfuncs, p->cap_funcs, 16))
			return vf_rd_oom(r);
		p->funcs[p->nfuncs].name = l->name;
		p->funcs[p->nfuncs].name_len = l->len;
		p->funcs[p->nfuncs].first = l->inst;
		p->funcs[p->nfuncs].addr = l->addr;
		if (r->any_kernel_decl) {
			sy = vf_sym_get(&p->syms, l->name, l->len, 0);
			p->funcs[p->nfuncs].kernel = sy && (sy->flags & VF_SYM_KERNEL);
		} else {
			p->funcs[p->nfuncs].kernel = !is_callable_name(l->name, l->len);
		}
		p->nfuncs++;
	}
	if (p->ninst && (!p->nfuncs || p->funcs[0].first > 0)) {
		if (GROW(p->funcs, p->nfuncs, p->cap_funcs, 16))
			return vf_rd_oom(r);
		memmove(p->funcs + 1, p->funcs, p->nfuncs * sizeof(*p->funcs));
		p->funcs[0].name = "";
		p->funcs[0].name_len = 0;
		p->funcs[0].first = 0;
		p->funcs[0].addr = -1;
		p->funcs[0].kernel = 1;
		p->nfuncs++;
	}
	{
		size_t f = 0;
		for (size_t i = 0; i < p->ninst; i++) {
			while (f + 1 < p->nfuncs && p->funcs[f + 1].first <= i)
				f++;
			p->insts[i].func = (uint32_t)f;
		}
	}
	/* without .amdhsa_kernel (objdump text, snippets): a function that
	 * returns (s_setpc) and never ends the program is a callable function */
	if (!r->any_kernel_decl) {
		for (size_t f = 0; f < p->nfuncs; f++) {
			size_t end = f + 1 < p->nfuncs ? p->funcs[f + 1].first : p->ninst;
			int ret = 0, endpgm = 0;
			for (size_t i = p->funcs[f].first; i < end; i++) {
				ret |= p->insts[i].kind == VF_I_SETPC;
				endpgm |= p->insts[i].kind == VF_I_END;
			}
			if (ret && !endpgm)
				p->funcs[f].kernel = 0;
		}
	}
	return 0;
}

static const vf_isa *isa_from_text(const char *t, size_t len)
{
	static const char key[] = ".amdgcn_target";
	const char *end = t + len;

	for (const char *q = t; q + sizeof(key) - 1 < end; q++) {
		const char *g;
		if (*q != '.' || memcmp(q, key, sizeof(key) - 1))
			continue;
		for (g = q + sizeof(key) - 1; g + 3 < end && *g != '\n'; g++) {
			if (g[0] == 'g' && g[1] == 'f' && g[2] == 'x') {
				const char *e = g + 3;
				while (e < end && isalnum((unsigned char)*e))
					e++;
				return vf_isa_by_name(g, (size_t)(e - g));
			}
		}
		return NULL;
	}
	return NULL;
}

size_t vf_default_memory(size_t len)
{
	if (len > (SIZE_MAX - ((size_t)96 << 20)) / 16)
		return SIZE_MAX;
	return 16 * len + ((size_t)96 << 20);
}

int vf_rd_mem_check(rd *r, size_t extra)
{
	const vf_prog *p = r->p;
	uint64_t m = r->xbytes + r->held + extra + p->cap_inst * sizeof(vf_inst) + p->cap_addr * sizeof(int64_t) +
		     p->cap_ops * sizeof(vf_op) + p->cap_waits * sizeof(vf_wait) + (r->words ? r->words->cap : 0) +
		     (r->wlines ? r->wlines->cap : 0);

	if (m <= p->max_memory)
		return 0;
	return kw_error_set(r->err, KW_ELIMIT, "max_memory",
			    "line %u: reading the text would hold more than %zu bytes (the memory bound of one "
			    "verification: 16 x the input + 96 MiB unless set: kwgen verify --max-memory, "
			    "kwgend --max-verify-memory)",
			    r->lineno, p->max_memory);
}

int vf_rd_begin(rd *r, vf_prog *p, const char *text, size_t len, const char *isa_name, kw_buf *words,
		kw_error *err)
{
	memset(r, 0, sizeof(*r));
	r->defining = -1;
	r->data_addr = r->line_addr = -1;
	r->p = p;
	r->err = err;
	r->words = words;
	p->text = text;
	p->len = len;
	if (!p->max_memory)
		p->max_memory = vf_default_memory(len);
	if (len >= UINT32_MAX)
		return kw_error_set(err, KW_ELIMIT, NULL, "the text is larger than 4 GiB");
	if (isa_name) {
		p->isa = vf_isa_by_name(isa_name, strlen(isa_name));
		if (!p->isa)
			return kw_error_set(err, KW_EINVAL, "isa",
					    "unknown ISA '%s'; supported: gfx908, gfx90a, gfx940, gfx941, "
					    "gfx942, gfx950, gfx1100, gfx1101, gfx1102, gfx1200, gfx1201, gfx1250",
					    isa_name);
	} else {
		p->isa = text ? isa_from_text(text, len) : NULL;
		if (!p->isa)
			return kw_error_set(err, KW_EINVAL, "isa",
					    "no ISA: the text has no .amdgcn_target naming a supported "
					    "processor; give one (--isa gfx942)");
	}
	return 0;
}

/* Read every line of text into p with r (set up here; vf_rd_free after). */
static int read_lines(rd *r, vf_prog *p, const char *text, size_t len, const char *isa_name, kw_buf *words,
		      kw_buf *wlines, kw_error *err)
{
	const char *s = text, *end = text + len;
	uint32_t lineno = 0;
	int rc = vf_rd_begin(r, p, text, len, isa_name, words, err);

	r->wlines = wlines;
	if (rc)
		return rc;
	if (memchr(text, 0, len))
		return kw_error_set(err, KW_EINVAL, NULL,
				    "the input contains a NUL byte: not assembly text");
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		lineno++;
		rc = vf_rd_line(r, s, e, lineno);
		if (rc)
			return rc;
		s = nl ? nl + 1 : end;
	}
	p->nlines = lineno;
	return 0;
}

void vf_rd_free(rd *r)
{
	free(r->mc);
	free(r->mac);
	free(r->br);
	free(r->lab);
}

int vf_rd_end(rd *r)
{
	vf_prog *p = r->p;
	kw_error *err = r->err;
	int rc = 0;

	if (r->ndata) {
		/* instructions as numbers (Tensile ships kernels so): reading
		 * them needs a disassembler, which the CLI and kwgend have */
		if (p->objdump && r->data_addr < 0)
			rc = kw_error_set(err, KW_EINVAL, "data_words",
					  "line %u: llvm-objdump elided zero bytes ('...') inside a function: "
					  "code that is not shown was not checked, so nothing is verified (give "
					  "the code object, or llvm-objdump -d -z text)",
					  r->data_line);
		else if (r->data_addr >= 0)
			rc = kw_error_set(err, KW_EINVAL, "data_words",
					  "line %u (address 0x%llx): %llu .long/.short/.byte word%s in a code "
					  "section were not checked (bytes LLVM's disassembler did not decode); "
					  "nothing is verified",
					  r->data_line, (unsigned long long)r->data_addr,
					  (unsigned long long)r->ndata, r->ndata == 1 ? "" : "s");
		else
			rc = kw_error_set(err, KW_EINVAL, "data_words",
					  "line %u: %llu .long/.short/.byte word%s in a code section: instructions "
					  "given as numbers are not read from assembly text, so nothing is verified; "
					  "give the file to `kwgen verify` or POST /v1/verify, which decode them, or "
					  "the assembled code object",
					  r->data_line, (unsigned long long)r->ndata, r->ndata == 1 ? "" : "s");
		return rc;
	}
	if (r->skipdir_line)
		return kw_error_set(err, KW_EINVAL, "directive",
				    "line %u: %s is not expanded by the reader: the lines it makes were not "
				    "checked, so nothing is verified (expand it first, e.g. give the code "
				    "object llvm-mc assembles, or its llvm-objdump -d text)",
				    r->skipdir_line, r->skipdir);
	if (!p->ninst)
		return kw_error_set(err, KW_EINVAL, "instructions",
				    "no instructions in the input: nothing was checked (give assembly text, "
				    "llvm-objdump -d text or a code object)");
	rc = build_functions(r);
	if (!rc)
		rc = vf_rd_resolve_branches(r);
	return rc;
}

int vf_read(vf_prog *p, const char *text, size_t len, const char *isa_name, kw_error *err)
{
	rd r;
	int rc = read_lines(&r, p, text, len, isa_name, NULL, NULL, err);

	if (!rc)
		rc = vf_rd_end(&r);
	vf_rd_free(&r);
	return rc ? (rc < 0 ? rc : KW_EINVAL) : 0;
}

void kw_verify_words_free(kw_verify_words *w)
{
	if (!w)
		return;
	free(w->bytes);
	for (size_t i = 0; i < w->nsyms; i++)
		free(w->syms[i].name);
	free(w->syms);
	free(w->lines);
	memset(w, 0, sizeof(*w));
}

int kw_verify_text_words(kw_verify_words *w, const char *text, size_t len, const char *isa,
			 kw_error *err)
{
	kw_buf b = KW_BUF_INIT, wl = KW_BUF_INIT;
	vf_prog p;
	rd r;
	int rc;

	memset(w, 0, sizeof(*w));
	memset(&p, 0, sizeof(p));
	p.max_instructions = (size_t)64 << 20;
	rc = read_lines(&r, &p, text ? text : "", text ? len : 0, isa, &b, &wl, err);
	if (!rc && p.objdump)
		rc = kw_error_set(err, KW_EINVAL, "objdump",
				  "llvm-objdump text: its .long lines are bytes the disassembler did not decode");
	else if (!rc && p.ninst)
		rc = kw_error_set(err, KW_EINVAL, "data_words",
				  "line %u: instructions and data words (line %u) in the code sections of one "
				  "text: the words' addresses are not known, so they cannot be decoded",
				  p.insts[0].line, r.data_line);
	else if (!rc && !b.len)
		rc = kw_error_set(err, KW_EINVAL, "data_words", "no data words in a code section");
	if (!rc && !(w->syms = calloc(r.nlab ? r.nlab : 1, sizeof(*w->syms))))
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the labels");
	for (size_t i = 0; !rc && i < r.nlab; i++) {
		const label_ref *l = &r.lab[i];
		const vf_sym *sy;
		kw_verify_word_sym *o;
		if (!l->code || l->woff > b.len)
			continue;
		sy = vf_sym_get(&p.syms, l->name, l->len, 0);
		o = &w->syms[w->nsyms];
		if (!(o->name = malloc(l->len + 1))) {
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the labels");
			break;
		}
		memcpy(o->name, l->name, l->len);
		o->name[l->len] = 0;
		o->offset = l->woff;
		o->func = sy && (sy->flags & VF_SYM_FUNC);
		o->kernel = sy && (sy->flags & VF_SYM_KERNEL);
		w->nsyms++;
	}
	if (!rc && (b.oom || wl.oom))
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the data words");
	if (!rc) {
		snprintf(w->isa, sizeof(w->isa), "%s", p.isa->name);
		w->assume_line = p.assume_line;
		w->len = b.len;
		w->bytes = (unsigned char *)kw_buf_detach(&b);
		w->nlines = wl.len / sizeof(*w->lines);
		if (w->nlines && !(w->lines = malloc(w->nlines * sizeof(*w->lines))))
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the data words' lines");
		else if (w->nlines)
			memcpy(w->lines, wl.p, w->nlines * sizeof(*w->lines));
	}
	vf_rd_free(&r);
	vf_prog_free(&p);
	kw_buf_free(&b);
	kw_buf_free(&wl);
	if (rc)
		kw_verify_words_free(w);
	return rc;
}

void vf_prog_free(vf_prog *p)
{
	free(p->insts);
	free(p->ops);
	free(p->waits);
	free(p->addr);
	free(p->funcs);
	vf_symtab_free(&p->syms);
	kw_arena_free(&p->xtext);
	memset(p, 0, sizeof(*p));
}
