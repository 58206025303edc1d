/* read_objdump.c - the `llvm-objdump -d` form: symbol lines
 * (`ADDR <name>:`), SGPR constants that resolve long branches
 * (s_getpc_b64 + s_add/s_addc + s_setpc_b64; Tensile's `s_add_i32 sX,
 * label, 4` in text), and branch targets resolved by address or label. */
#include "verify/read_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int vf_rd_objdump_symbol(const char *s, const char *e, int64_t *addr, const char **nm, size_t *nl)
{
	const char *after, *q;

	if (parse_hex(s, e, addr, &after) || after - s < 8 || after + 2 >= e || after[0] != ' ' ||
	    after[1] != '<')
		return 0;
	q = after + 2;
	*nm = q;
	while (q < e && *q != '>')
		q++;
	if (q + 1 >= e || q[1] != ':')
		return 0;
	*nl = (size_t)(q - *nm);
	return 1;
}

/* value of a scalar source operand: a literal or a known SGPR */
static int sval_of(rd *r, const char *a, const char *b, uint32_t *out)
{
	uint16_t slot;
	uint8_t n;
	int64_t v;

	a = skip_ws(a, b);
	b = rtrim(a, b);
	if (b - a > 5 && !memcmp(a, "lit(", 4) && b[-1] == ')')
		a += 4, b--;
	if (a < b && (isdigit((unsigned char)*a) || *a == '-')) {
		if (vf_expr(&r->p->syms, a, b, &v))
			return 0;
		*out = (uint32_t)v;
		return 1;
	}
	if (vf_parse_reg(&r->p->syms, a, b, &slot, &n) == 1 && n == 1 && slot >= VF_SLOT_S &&
	    slot < VF_SLOT_S + 128 && r->sknown[slot - VF_SLOT_S]) {
		*out = r->sval[slot - VF_SLOT_S];
		return 1;
	}
	return 0;
}

/* Track SGPR constants through s_getpc / s_mov / s_add / s_addc / s_sub /
 * s_subb; an s_setpc_b64 whose target is then known becomes a branch
 * (Tensile's long branches).  Every other SGPR write forgets the value. */
void vf_rd_sconst_step(rd *r, vf_inst *in, const char *m, size_t mn, const char *ops,
			const char *e, int64_t addr)
{
	vf_prog *p = r->p;
	const char *f[3] = { NULL, NULL, NULL }, *fe[3] = { NULL, NULL, NULL };
	int nf = 0, d = -1;
	uint32_t a = 0, b = 0;
	uint16_t slot;
	uint8_t n;
#define M(lit) (mn == sizeof(lit) - 1 && !memcmp(m, lit, sizeof(lit) - 1))

	for (const char *q = ops; q <= e && nf < 3;) {
		const char *c = q;
		while (c < e && *c != ',')
			c++;
		f[nf] = q;
		fe[nf] = c;
		{
			const char *sp = skip_ws(q, c);
			while (sp < c && *sp != ' ' && *sp != '\t')
				sp++;
			fe[nf] = sp;
		}
		nf++;
		if (c >= e)
			break;
		q = c + 1;
	}
	if (nf && vf_parse_reg(&p->syms, skip_ws(f[0], fe[0]), fe[0], &slot, &n) == 1 &&
	    slot >= VF_SLOT_S && slot + n <= VF_SLOT_S + 128)
		d = slot - VF_SLOT_S;
	if (addr < 0) {
		/* text form: follow label operands into s_setpc */
		if ((M("s_setpc_b64") || M("s_set_pc_i64")) && d >= 0 && n == 2 && r->sref[d] &&
		    in->kind == VF_I_SETPC) {
			if (!GROW(r->br, r->nbr, r->cbr, 256)) {
				in->kind = VF_I_BRANCH;
				r->br[r->nbr].inst = (uint32_t)p->ninst;
				r->br[r->nbr].name = r->sref[d];
				r->br[r->nbr].len = r->sreflen[d];
				r->br[r->nbr].addr = -1;
				r->nbr++;
			}
			return;
		}
		if (d >= 0 && n == 1 && nf >= 2 &&
		    (M("s_add_i32") || M("s_add_u32") || M("s_sub_i32") || M("s_sub_u32") ||
		     M("s_mov_b32") || M("s_add_co_u32") || M("s_sub_co_u32"))) {
			const char *ref = NULL;
			uint32_t refl = 0;
			for (int i = 1; i < nf && !ref; i++) {
				const char *x = skip_ws(f[i], fe[i]), *xe = fe[i];
				uint16_t sl;
				uint8_t nn;
				const vf_sym *sy;
				int64_t v;
				if (x >= xe)
					continue;
				if (vf_parse_reg(&p->syms, x, xe, &sl, &nn) == 1) {
					if (sl >= VF_SLOT_S && sl < VF_SLOT_S + 128 && r->sref[sl - VF_SLOT_S]) {
						ref = r->sref[sl - VF_SLOT_S];
						refl = r->sreflen[sl - VF_SLOT_S];
					}
					continue;
				}
				if (!(isalpha((unsigned char)*x) || *x == '_' || *x == '.') ||
				    !vf_expr(&p->syms, x, xe, &v))
					continue;
				sy = vf_sym_get(&p->syms, x, (size_t)(xe - x), 0);
				if (!sy || !(sy->flags & VF_SYM_VALUE)) {
					ref = x;
					refl = (uint32_t)(xe - x);
				}
			}
			r->sref[d] = ref;
			r->sreflen[d] = refl;
			return;
		}
		if (d >= 0)
			for (int k = d; k < d + n && k < 128; k++)
				r->sref[k] = NULL;
		return;
	}
	if ((M("s_getpc_b64") || M("s_get_pc_i64")) && d >= 0 && n == 2) {
		r->sval[d] = (uint32_t)(addr + 4);
		r->sval[d + 1] = (uint32_t)((uint64_t)(addr + 4) >> 32);
		r->sknown[d] = r->sknown[d + 1] = 1;
		return;
	}
	if ((M("s_setpc_b64") || M("s_set_pc_i64")) && d >= 0 && n == 2 && r->sknown[d] &&
	    r->sknown[d + 1] && in->kind == VF_I_SETPC) {
		int64_t t = (int64_t)(((uint64_t)r->sval[d + 1] << 32) | r->sval[d]);
		if (!GROW(r->br, r->nbr, r->cbr, 256)) {
			in->kind = VF_I_BRANCH;
			r->br[r->nbr].inst = (uint32_t)p->ninst;
			r->br[r->nbr].name = NULL;
			r->br[r->nbr].len = 0;
			r->br[r->nbr].addr = t;
			r->nbr++;
		}
		return;
	}
	if (d >= 0 && n == 1 && nf >= 2) {
		int ok1 = sval_of(r, f[1], fe[1], &a);
		int ok2 = nf >= 3 && sval_of(r, f[2], fe[2], &b);
		uint64_t wide;
		if ((M("s_mov_b32") || M("s_movk_i32")) && ok1) {
			r->sval[d] = a;
			r->sknown[d] = 1;
			return;
		}
		if ((M("s_add_u32") || M("s_add_i32") || M("s_add_co_u32")) && ok1 && ok2) {
			wide = (uint64_t)a + b;
			r->sval[d] = (uint32_t)wide;
			r->sknown[d] = 1;
			r->scc = M("s_add_i32") ? -1 : (int)(wide >> 32);
			return;
		}
		if ((M("s_addc_u32") || M("s_add_co_ci_u32")) && ok1 && ok2 && r->scc >= 0) {
			wide = (uint64_t)a + b + (uint64_t)r->scc;
			r->sval[d] = (uint32_t)wide;
			r->sknown[d] = 1;
			r->scc = (int)(wide >> 32);
			return;
		}
		if ((M("s_sub_u32") || M("s_sub_i32") || M("s_sub_co_u32")) && ok1 && ok2) {
			r->sval[d] = a - b;
			r->sknown[d] = 1;
			r->scc = M("s_sub_i32") ? -1 : (b > a);
			return;
		}
		if ((M("s_subb_u32") || M("s_sub_co_ci_u32")) && ok1 && ok2 && r->scc >= 0) {
			uint64_t sub = (uint64_t)b + (uint64_t)r->scc;
			r->sval[d] = (uint32_t)((uint64_t)a - sub);
			r->sknown[d] = 1;
			r->scc = sub > a;
			return;
		}
	}
#undef M
	/* anything else: forget what it writes (and SCC if scalar ALU) */
	if (m[0] == 's')
		r->scc = -1;
	for (uint8_t i = 0; i < in->nops; i++) {
		const vf_op *o = &p->ops[in->op0 + i];
		if (o->def && o->slot >= VF_SLOT_S && o->slot < VF_SLOT_S + 128)
			for (int k = o->slot - VF_SLOT_S; k < o->slot - VF_SLOT_S + o->n && k < 128; k++)
				r->sknown[k] = 0;
	}
	if (in->kind != VF_I_ALU && in->kind != VF_I_WAIT && in->kind != VF_I_IGNORE)
		memset(r->sknown, 0, sizeof(r->sknown));
}

typedef struct addr_idx {
	int64_t a;
	uint32_t i;
} addr_idx;

static int cmp_addr_idx(const void *x, const void *y)
{
	const addr_idx *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/* Instruction at address a: binary search over the addresses (ascending in
 * a disassembly), or over a sorted copy when they are not. */
static uint32_t inst_at_addr(const vf_prog *p, const addr_idx *sorted, int64_t a)
{
	size_t lo = 0, hi = p->ninst;

	if (sorted) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (sorted[mid].a < a)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < p->ninst && sorted[lo].a == a ? sorted[lo].i : UINT32_MAX;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->addr[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->ninst && p->addr[lo] == a)
		return (uint32_t)lo;
	return UINT32_MAX;
}

int vf_rd_resolve_branches(rd *r)
{
	vf_prog *p = r->p;
	addr_idx *sorted = NULL;

	for (size_t i = 1; i < p->ninst && r->nbr; i++) {
		if (p->addr[i] < p->addr[i - 1]) {
			sorted = malloc(p->ninst * sizeof(*sorted));
			if (!sorted)
				return vf_rd_oom(r);
			for (size_t j = 0; j < p->ninst; j++) {
				sorted[j].a = p->addr[j];
				sorted[j].i = (uint32_t)j;
			}
			qsort(sorted, p->ninst, sizeof(*sorted), cmp_addr_idx);
			break;
		}
	}
	/* the span of the instructions' addresses */
	int64_t lo = INT64_MAX, hi = -1;
	for (size_t i = 0; i < p->ninst && r->nbr; i++) {
		if (p->addr[i] >= 0 && p->addr[i] < lo)
			lo = p->addr[i];
		if (p->addr[i] > hi)
			hi = p->addr[i];
	}
	for (size_t i = 0; i < r->nbr; i++) {
		const branch_ref *b = &r->br[i];
		uint32_t t = UINT32_MAX;

		if (b->addr >= 0) {
			t = inst_at_addr(p, sorted, b->addr);
		} else if (b->len) {
			const vf_sym *sy = vf_sym_get(&p->syms, b->name, b->len, 0);
			if (sy && (sy->flags & VF_SYM_ADDR))
				t = inst_at_addr(p, sorted, sy->value);
			else if (sy && (sy->flags & VF_SYM_LABEL))
				t = (uint32_t)sy->value;
		}
		p->insts[b->inst].aux = t;
		if (t == UINT32_MAX)
			p->nbranch_unresolved++;
		if (t == UINT32_MAX && b->addr >= 0 && b->addr > lo && b->addr < hi) {
			/* inside the code, where no instruction starts: zero bytes
			 * taken for padding (or llvm-objdump's elided '...'), or
			 * the middle of an instruction.  What runs there was not
			 * read: refused, never a path quietly not followed. */
			free(sorted);
			return kw_error_set(r->err, KW_EINVAL, "branch_target",
					    "line %u: the target 0x%llx of a branch lies inside the code (0x%llx to "
					    "0x%llx) where no instruction starts (zero words after an instruction "
					    "with no fall-through, taken for padding; llvm-objdump's elided '...'; or "
					    "the middle of an instruction): the code there was not read, so nothing "
					    "is verified",
					    p->insts[b->inst].line, (unsigned long long)b->addr,
					    (unsigned long long)lo, (unsigned long long)hi);
		}
	}
	free(sorted);
	return 0;
}
