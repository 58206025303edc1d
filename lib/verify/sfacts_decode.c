/* sfacts_decode.c - the scalar semantics of each instruction for the SGPR
 * facts (sfacts.c): moves, adds, compares, shifts, selects, branches on
 * SCC / VCC / EXEC, s_getpc / s_swappc / s_setpc, counter atomics, and the
 * SGPRs anything else writes. */
#include "verify/sfacts_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
