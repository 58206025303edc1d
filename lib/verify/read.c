/* read.c - AMDGPU assembly text into an instruction stream.
 *
 * Two producers: `clang -S` / Tensile-rocisa text (labels `name:`, `;` `//`
 * and block comments, directives, `.set` symbols, `.amdgcn_target`) and
 * `llvm-objdump -d` text (`ADDR <sym>:` symbol lines, then instructions with
 * `// ADDR: HEX [<sym+0xOFF>]` comments).  The form is recognised per line,
 * so one reader serves both.  One pass; instructions, operands and waits go
 * into growable arrays (no allocation per instruction). */
#include "verify/verify_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct mcache_ent {
	const char *m;
	uint32_t n;
	vf_mclass c;
} mcache_ent;

typedef struct branch_ref {
	uint32_t inst;
	uint32_t len;        /* label name length (0: address form) */
	const char *name;
	int64_t addr;        /* objdump target address; -1 */
} branch_ref;

typedef struct label_ref {
	const char *name;
	uint32_t len;
	uint32_t inst;
	int64_t addr;        /* objdump symbol address; -1 for labels */
} label_ref;

#define MAC_PARAMS 32

struct macro {
	const char *name;
	uint32_t len;
	uint32_t nparam;
	int vararg;
	const char *pn[MAC_PARAMS], *pd[MAC_PARAMS];
	uint32_t pnl[MAC_PARAMS], pdl[MAC_PARAMS];
	const char *body_s, *body_e;
};

typedef struct rd {
	vf_prog *p;
	kw_error *err;
	mcache_ent *mc;
	size_t mccap, mcn;
	branch_ref *br;
	size_t nbr, cbr;
	label_ref *lab;
	size_t nlab, clab;
	int in_block_comment, in_macro;
	const char *skip_end;
	/* macros: definitions, the one being defined, expansion state */
	struct macro *mac;
	size_t nmac, cmac;
	long defining;
	const char *raw_s, *raw_e;   /* the raw line being read */
	int depth;
	uint8_t allow_inherit;
	uint64_t xbytes, xcount;
	/* conditional assembly: .if / .ifdef / .ifndef / .else / .elseif /
	 * .endif; lines are skipped while any enclosing condition is false */
	uint32_t cond_depth, skip_from; /* skip_from: depth where skipping began, 0 = none */
	uint8_t cond_taken[64];
	int any_func_decl, any_kernel_decl;
	int64_t cur_sym_addr;
	/* SGPR constants of straight-line scalar code (objdump form), to
	 * resolve long branches: s_getpc_b64 + s_add/s_addc + s_setpc_b64 */
	uint32_t sval[128];
	uint8_t sknown[128];
	/* text form: an SGPR that holds "label + constant" (Tensile's long
	 * branch `s_add_i32 sX, label, 4`): the label */
	const char *sref[128];
	uint32_t sreflen[128];
	int scc; /* -1 unknown */
} rd;

#define GROW(arr, n, cap, init)                                                       \
	((n) < (cap) ? 0                                                              \
		     : grow_array((void **)&(arr), &(cap), sizeof(*(arr)), (init)))

static int grow_array(void **arr, size_t *cap, size_t elem, size_t init)
{
	size_t nc = *cap ? *cap * 2 : init;
	void *g = realloc(*arr, nc * elem);

	if (!g)
		return -1;
	*arr = g;
	*cap = nc;
	return 0;
}

static int oom(rd *r)
{
	return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory reading the assembly");
}

/* identifier characters (ASCII letters, digits, _ . $), without the
 * locale-aware ctype calls on the hot path */
static int is_id(int c)
{
	return (unsigned)((c | 32) - 'a') < 26 || (unsigned)(c - '0') < 10 || c == '_' || c == '.' ||
	       c == '$';
}

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

static const char *mem_find(const char *s, size_t n, const char *lit, size_t k)
{
	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && !memcmp(s + i, lit, k))
			return s + i;
	return NULL;
}

static const char *skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

static const char *rtrim(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

static int parse_hex(const char *s, const char *e, int64_t *out, const char **endp)
{
	uint64_t v = 0;
	const char *q = s;

	while (q < e && isxdigit((unsigned char)*q)) {
		int c = *q++;
		v = v * 16 + (uint64_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
		if (q - s > 16)
			return -1;
	}
	if (q == s)
		return -1;
	*out = (int64_t)v;
	*endp = q;
	return 0;
}

/* ---- comment: inline allow, objdump address and branch target ---- */

typedef struct cinfo {
	uint8_t allow;
	int64_t addr;       /* -1 */
	int64_t enc;        /* first encoding word after the address; -1 */
	const char *tname;  /* <name+0xOFF> */
	size_t tlen;
	int64_t toff;
} cinfo;

static void parse_allow(const char *s, const char *e, cinfo *ci)
{
	static const char key[] = "kwgen-verify:";
	const char *q;

	for (q = s; q + sizeof(key) - 1 <= e; q++)
		if (*q == 'k' && !memcmp(q, key, sizeof(key) - 1))
			break;
	if (q + sizeof(key) - 1 > e)
		return;
	q = skip_ws(q + sizeof(key) - 1, e);
	if (e - q < 5 || memcmp(q, "allow", 5))
		return;
	q += 5;
	while (q < e) {
		const char *t;
		char name[32];
		int code;
		while (q < e && (*q == ' ' || *q == ',' || *q == '\t'))
			q++;
		t = q;
		while (q < e && (is_id((unsigned char)*q) || *q == '*'))
			q++;
		if (q == t)
			break;
		if ((q - t == 1 && *t == '*') || (q - t == 3 && !memcmp(t, "all", 3))) {
			ci->allow = 0xff;
			continue;
		}
		if ((size_t)(q - t) >= sizeof(name))
			continue;
		memcpy(name, t, (size_t)(q - t));
		name[q - t] = 0;
		code = kw_verify_code_from_name(name);
		if (code >= 0)
			ci->allow |= (uint8_t)(1u << code);
	}
}

static void parse_comment(const char *s, const char *e, cinfo *ci, int slashes)
{
	const char *q, *lt;

	if (memchr(s, 'k', (size_t)(e - s)))
		parse_allow(s, e, ci);
	if (!slashes)
		return;
	/* objdump: `// 00000000000C: BF8C0F70 <sym+0xc>` */
	q = skip_ws(s, e);
	{
		int64_t a;
		const char *after;
		if (!parse_hex(q, e, &a, &after) && after < e && *after == ':' && after - q >= 4)
			ci->addr = a;
		else
			return;
		q = skip_ws(after + 1, e);
		if (!parse_hex(q, e, &a, &after) && after - q == 8)
			ci->enc = a;
	}
	lt = memchr(q, '<', (size_t)(e - q));
	if (lt) {
		const char *nm = lt + 1, *t = nm;
		while (t < e && *t != '+' && *t != '>')
			t++;
		if (t < e) {
			ci->tname = nm;
			ci->tlen = (size_t)(t - nm);
			ci->toff = 0;
			if (*t == '+' && t + 3 < e && t[1] == '0' && t[2] == 'x') {
				const char *after;
				if (parse_hex(t + 3, e, &ci->toff, &after))
					ci->tname = NULL;
			}
		}
	}
}

/* ---- macros (.macro NAME params / .endm; \\param, \\(), \\@) ---- */

static int line(rd *r, const char *s, const char *e, uint32_t lineno);

/* split [s, e) at top-level commas and blanks; returns the count */
static uint32_t split_args(const char *s, const char *e, const char **as, const char **ae,
			   uint32_t max)
{
	uint32_t n = 0;

	while (s < e && n < max) {
		const char *t;
		int depth = 0;
		while (s < e && (*s == ' ' || *s == '\t' || *s == ','))
			s++;
		if (s >= e)
			break;
		t = s;
		while (t < e) {
			if (*t == '(' || *t == '[')
				depth++;
			else if ((*t == ')' || *t == ']') && depth > 0)
				depth--;
			else if (!depth && (*t == ',' || *t == ' ' || *t == '\t'))
				break;
			t++;
		}
		as[n] = s;
		ae[n] = t;
		n++;
		s = t;
	}
	return n;
}

static int macro_define(rd *r, const char *q, const char *e)
{
	const char *as[MAC_PARAMS + 1], *ae[MAC_PARAMS + 1];
	uint32_t n;
	struct macro *m;
	vf_sym *sy;

	q = skip_ws(q, e);
	n = split_args(q, e, as, ae, MAC_PARAMS + 1);
	if (!n || r->depth)
		return 0;
	if (GROW(r->mac, r->nmac, r->cmac, 16))
		return oom(r);
	m = &r->mac[r->nmac];
	memset(m, 0, sizeof(*m));
	m->name = as[0];
	m->len = (uint32_t)(ae[0] - as[0]);
	for (uint32_t i = 1; i < n && m->nparam < MAC_PARAMS; i++) {
		const char *pe = as[i], *eq, *colon;
		while (pe < ae[i] && *pe != ':' && *pe != '=')
			pe++;
		colon = pe < ae[i] && *pe == ':' ? pe : NULL;
		eq = memchr(as[i], '=', (size_t)(ae[i] - as[i]));
		m->pn[m->nparam] = as[i];
		m->pnl[m->nparam] = (uint32_t)(pe - as[i]);
		m->pd[m->nparam] = eq ? eq + 1 : NULL;
		m->pdl[m->nparam] = eq ? (uint32_t)(ae[i] - eq - 1) : 0;
		if (colon && (size_t)(ae[i] - colon) >= 7 && !memcmp(colon, ":vararg", 7))
			m->vararg = 1;
		m->nparam++;
	}
	m->body_s = r->raw_e < r->p->text + r->p->len ? r->raw_e + 1 : r->raw_e;
	m->body_e = m->body_s;
	sy = vf_sym_get(&r->p->syms, m->name, m->len, 1);
	if (!sy)
		return oom(r);
	sy->flags |= VF_SYM_MACRO;
	sy->value = (int64_t)r->nmac;
	r->defining = (long)r->nmac;
	r->nmac++;
	return 0;
}

static int expand(rd *r, const struct macro *m, const char *s, const char *e, uint32_t lineno,
		  uint8_t allow)
{
	const char *as[MAC_PARAMS * 2], *ae[MAC_PARAMS * 2];
	const char *val[MAC_PARAMS], *vale[MAC_PARAMS];
	uint32_t n = split_args(skip_ws(s, e), e, as, ae, MAC_PARAMS * 2), pos = 0;
	kw_buf b = KW_BUF_INIT;
	const char *q = m->body_s;
	uint8_t saved_allow = r->allow_inherit;
	int rc = 0;

	if (r->depth >= 16)
		return kw_error_set(r->err, KW_ELIMIT, NULL,
				    "line %u: macro expansion deeper than 16 levels", lineno);
	/* arguments: positional, or name=value */
	for (uint32_t i = 0; i < m->nparam; i++) {
		val[i] = m->pd[i];
		vale[i] = m->pd[i] ? m->pd[i] + m->pdl[i] : NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		const char *eq = memchr(as[i], '=', (size_t)(ae[i] - as[i]));
		int named = 0;
		if (eq)
			for (uint32_t k = 0; k < m->nparam; k++)
				if ((size_t)(eq - as[i]) == m->pnl[k] && !memcmp(as[i], m->pn[k], m->pnl[k])) {
					val[k] = eq + 1;
					vale[k] = ae[i];
					named = 1;
				}
		if (named)
			continue;
		if (pos < m->nparam) {
			val[pos] = as[i];
			vale[pos] = (m->vararg && pos == m->nparam - 1) ? ae[n - 1] : ae[i];
			if (m->vararg && pos == m->nparam - 1)
				break;
			pos++;
		}
	}
	r->xcount++;
	r->depth++;
	r->allow_inherit |= allow;
	while (q < m->body_e && !rc) {
		const char *le = memchr(q, '\n', (size_t)(m->body_e - q));
		char *x;
		if (!le)
			le = m->body_e;
		kw_buf_reset(&b);
		for (const char *c = q; c < le; c++) {
			if (*c == '\\' && c + 1 < le) {
				const char *id = c + 1, *ie = id;
				if (*id == '(' && id + 1 < le && id[1] == ')') {
					c = id + 1;
					continue;
				}
				if (*id == '@') {
					kw_buf_put_i64(&b, (int64_t)r->xcount);
					c = id;
					continue;
				}
				while (ie < le && (isalnum((unsigned char)*ie) || *ie == '_'))
					ie++;
				for (uint32_t k = 0; k < m->nparam; k++) {
					if ((size_t)(ie - id) == m->pnl[k] && !memcmp(id, m->pn[k], m->pnl[k])) {
						if (val[k])
							kw_buf_put(&b, val[k], (size_t)(vale[k] - val[k]));
						c = ie - 1;
						goto next;
					}
				}
			}
			kw_buf_putc(&b, *c);
next:;
		}
		if (b.oom) {
			rc = oom(r);
			break;
		}
		r->xbytes += b.len + 1;
		if (r->xbytes > (uint64_t)r->p->len * 64 + (64u << 20)) {
			rc = kw_error_set(r->err, KW_ELIMIT, NULL,
					  "line %u: macro expansions exceed %llu bytes", lineno,
					  (unsigned long long)r->xbytes);
			break;
		}
		x = kw_arena_alloc(&r->p->xtext, b.len + 1);
		if (!x) {
			rc = oom(r);
			break;
		}
		memcpy(x, b.p ? b.p : "", b.len);
		x[b.len] = 0;
		rc = line(r, x, x + b.len, lineno);
		q = le + 1;
	}
	r->depth--;
	r->allow_inherit = saved_allow;
	kw_buf_free(&b);
	return rc;
}

/* ---- conditional assembly ---- */

/* 1 if [s, e) is a conditional directive (handled), 0 otherwise.  A
 * condition that does not evaluate counts as true. */
static int conditional(rd *r, const char *s, const char *e)
{
	const char *d = s, *q = s;
	size_t dn;
	int cond = 1;
	int64_t v;

	while (q < e && is_id((unsigned char)*q))
		q++;
	dn = (size_t)(q - d);
#define DIR(lit) (dn == sizeof(lit) - 1 && !memcmp(d, lit, sizeof(lit) - 1))
	if (DIR(".if") || DIR(".ifdef") || DIR(".ifndef") || DIR(".ifne") || DIR(".ifeq")) {
		const char *x = skip_ws(q, e);
		if (DIR(".ifdef") || DIR(".ifndef")) {
			const vf_sym *sy = vf_sym_get(&r->p->syms, x, (size_t)(rtrim(x, e) - x), 0);
			cond = sy != NULL;
			if (DIR(".ifndef"))
				cond = !cond;
		} else if (!vf_expr(&r->p->syms, x, rtrim(x, e), &v)) {
			cond = DIR(".ifeq") ? v == 0 : v != 0;
		}
		r->cond_depth++;
		if (r->cond_depth < sizeof(r->cond_taken))
			r->cond_taken[r->cond_depth] = (uint8_t)cond;
		if (!r->skip_from && !cond)
			r->skip_from = r->cond_depth;
		return 1;
	}
	if (DIR(".else") || DIR(".elseif")) {
		int taken;
		if (!r->cond_depth)
			return 1;
		taken = r->cond_depth < sizeof(r->cond_taken) ? r->cond_taken[r->cond_depth] : 1;
		if (DIR(".elseif")) {
			const char *x = skip_ws(q, e);
			cond = vf_expr(&r->p->syms, x, rtrim(x, e), &v) ? 1 : v != 0;
		}
		cond = !taken && cond;
		if (r->cond_depth < sizeof(r->cond_taken) && cond)
			r->cond_taken[r->cond_depth] = 1;
		if (r->skip_from == r->cond_depth && cond)
			r->skip_from = 0;
		else if (!r->skip_from && !cond)
			r->skip_from = r->cond_depth;
		return 1;
	}
	if (DIR(".endif")) {
		if (!r->cond_depth)
			return 1;
		if (r->skip_from == r->cond_depth)
			r->skip_from = 0;
		r->cond_depth--;
		return 1;
	}
#undef DIR
	return 0;
}

/* ---- directives ---- */

static int directive(rd *r, const char *s, const char *e)
{
	const char *d = s, *q = s;
	size_t dn;

	while (q < e && is_id((unsigned char)*q))
		q++;
	dn = (size_t)(q - d);
#define DIR(lit) (dn == sizeof(lit) - 1 && !memcmp(d, lit, sizeof(lit) - 1))
	if (r->in_macro) {
		if (dn == strlen(r->skip_end) && !memcmp(d, r->skip_end, dn)) {
			r->in_macro = 0;
			if (r->defining >= 0)
				r->mac[r->defining].body_e = r->raw_s;
			r->defining = -1;
		}
		return 0;
	}
	/* YAML / metadata blocks: not assembly */
	if (DIR(".amdgpu_metadata") || DIR(".amd_amdgpu_hsa_metadata") ||
	    DIR(".amdgpu_pal_metadata")) {
		r->in_macro = 1;
		r->skip_end = DIR(".amdgpu_metadata") ? ".end_amdgpu_metadata"
			      : DIR(".amd_amdgpu_hsa_metadata") ? ".end_amd_amdgpu_hsa_metadata"
								 : ".end_amdgpu_pal_metadata";
		return 0;
	}
	if (DIR(".macro")) {
		r->in_macro = 1;
		r->skip_end = ".endm";
		r->defining = -1;
		return macro_define(r, q, e);
	}
	if (DIR(".set") || DIR(".equ") || DIR(".equiv")) {
		const char *n0 = skip_ws(q, e), *n1 = n0, *v;
		int64_t val;
		vf_sym *sy;
		while (n1 < e && is_id((unsigned char)*n1))
			n1++;
		v = skip_ws(n1, e);
		if (v < e && *v == ',')
			v++;
		if (n1 > n0 && !vf_expr(&r->p->syms, v, rtrim(v, e), &val)) {
			sy = vf_sym_get(&r->p->syms, n0, (size_t)(n1 - n0), 1);
			if (!sy)
				return oom(r);
			sy->flags |= VF_SYM_VALUE;
			sy->value = val;
		}
		return 0;
	}
	if (DIR(".type")) {
		const char *n0 = skip_ws(q, e), *n1 = n0;
		while (n1 < e && is_id((unsigned char)*n1))
			n1++;
		if (n1 > n0 && (mem_find(n1, (size_t)(e - n1), "@function", 9) ||
				mem_find(n1, (size_t)(e - n1), "STT_FUNC", 8))) {
			vf_sym *sy = vf_sym_get(&r->p->syms, n0, (size_t)(n1 - n0), 1);
			if (!sy)
				return oom(r);
			sy->flags |= VF_SYM_FUNC;
			r->any_func_decl = 1;
		}
		return 0;
	}
	if (DIR(".amdhsa_kernel") || DIR(".amdgpu_hsa_kernel")) {
		const char *n0 = skip_ws(q, e), *n1 = n0;
		while (n1 < e && is_id((unsigned char)*n1))
			n1++;
		if (n1 > n0) {
			vf_sym *sy = vf_sym_get(&r->p->syms, n0, (size_t)(n1 - n0), 1);
			if (!sy)
				return oom(r);
			sy->flags |= VF_SYM_KERNEL | VF_SYM_FUNC;
			r->any_kernel_decl = 1;
			r->any_func_decl = 1;
		}
		return 0;
	}
	return 0;
#undef DIR
}

static int add_label(rd *r, const char *name, size_t len, int64_t addr)
{
	vf_sym *sy;

	if (addr < 0) {
		memset(r->sknown, 0, sizeof(r->sknown));
		memset(r->sref, 0, sizeof(r->sref));
	}

	if (GROW(r->lab, r->nlab, r->clab, 256))
		return oom(r);
	r->lab[r->nlab].name = name;
	r->lab[r->nlab].len = (uint32_t)len;
	r->lab[r->nlab].inst = (uint32_t)r->p->ninst;
	r->lab[r->nlab].addr = addr;
	r->nlab++;
	sy = vf_sym_get(&r->p->syms, name, len, 1);
	if (!sy)
		return oom(r);
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
			if (GROW(p->ops, p->nops, p->cap_ops, 1024))
				return oom(r);
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
static void sconst_step(rd *r, vf_inst *in, const char *m, size_t mn, const char *ops,
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

static int instruction(rd *r, const char *s, const char *e, uint32_t line, const cinfo *ci)
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
	if (p->ninst >= p->max_instructions)
		return kw_error_set(r->err, KW_ELIMIT, "max_instructions",
				    "more than %zu instructions (max_instructions); raise the bound",
				    p->max_instructions);
	if (GROW(p->insts, p->ninst, p->cap_inst, 1024))
		return oom(r);
	if (GROW(p->addr, p->ninst, p->cap_addr, 1024))
		return oom(r);
	{
		int upper = 0;
		for (size_t i = 0; i < mn; i++)
			upper |= isupper((unsigned char)m[i]);
		if (!upper) {
			const vf_mclass *pc = classify_cached(r, m, mn);
			if (!pc)
				return oom(r);
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
				return oom(r);
			p->waits[p->nwaits] = w;
			in->aux = (uint32_t)p->nwaits++;
		}
	} else if (mc->kind == VF_I_BRANCH || mc->kind == VF_I_CBRANCH) {
		const char *t0 = ops, *t1 = ops;
		while (t1 < e && *t1 != ' ' && *t1 != '\t' && *t1 != ',')
			t1++;
		if (GROW(r->br, r->nbr, r->cbr, 256))
			return oom(r);
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
			r->br[r->nbr].name = t0;
			r->br[r->nbr].len = (uint32_t)(t1 - t0);
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
	sconst_step(r, in, m, mn, ops, e, ci->addr);
	p->ninst++;
	return 0;
}

/* ---- lines ---- */

static int objdump_symbol(const char *s, const char *e, int64_t *addr, const char **nm, size_t *nl)
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

static int line(rd *r, const char *s, const char *e, uint32_t lineno)
{
	cinfo ci = { 0, -1, -1, NULL, 0, 0 };
	const char *q, *code_end = e;
	int slashes = 0;

	r->raw_s = s;
	r->raw_e = e;

	if (r->in_block_comment) {
		const char *end = NULL;
		for (q = s; q + 1 < e; q++)
			if (q[0] == '*' && q[1] == '/') {
				end = q + 2;
				break;
			}
		if (!end)
			return 0;
		r->in_block_comment = 0;
		s = end;
	}
	s = skip_ws(s, e);
	if (s >= e || *s == '#')
		return 0;
	/* comment start: `;`, `//`, `/ *` (strings only occur in directives) */
	for (q = s; q < e; q++) {
		if (*q == '"') {
			const char *c = memchr(q + 1, '"', (size_t)(e - q - 1));
			if (!c)
				break;
			q = c;
			continue;
		}
		if (*q == ';') {
			code_end = q;
			parse_comment(q + 1, e, &ci, 0);
			break;
		}
		if (*q == '/' && q + 1 < e && q[1] == '/') {
			code_end = q;
			slashes = 1;
			parse_comment(q + 2, e, &ci, 1);
			break;
		}
		if (*q == '/' && q + 1 < e && q[1] == '*') {
			const char *c;
			code_end = q;
			for (c = q + 2; c + 1 < e; c++)
				if (c[0] == '*' && c[1] == '/')
					break;
			if (c + 1 >= e) {
				r->in_block_comment = 1;
			} else {
				/* code may continue after the block comment: rare; ignore it */
				parse_comment(q + 2, c, &ci, 0);
			}
			break;
		}
	}
	(void)slashes;
	ci.allow |= r->allow_inherit;
	e = rtrim(s, code_end);
	if (s >= e)
		return 0;
	if (r->in_macro)
		return directive(r, s, e);
	if (*s == '.' && conditional(r, s, e))
		return 0;
	if (r->skip_from)
		return 0;
	/* objdump symbol `0000000000000000 <name>:` */
	if (isxdigit((unsigned char)*s)) {
		int64_t addr;
		const char *nm;
		size_t nl;
		if (objdump_symbol(s, e, &addr, &nm, &nl)) {
			r->p->objdump = 1;
			return add_label(r, nm, nl, addr);
		}
	}
	if (mem_find(s, (size_t)(e - s), "file format", 11) ||
	    (e - s > 14 && !memcmp(s, "Disassembly of", 14)))
		return 0;
	/* labels (possibly several, possibly followed by an instruction) */
	for (;;) {
		const char *t = s;
		while (t < e && is_id((unsigned char)*t))
			t++;
		if (t > s && t < e && *t == ':' && (t + 1 == e || t[1] != ':')) {
			if (add_label(r, s, (size_t)(t - s), -1))
				return -1;
			s = skip_ws(t + 1, e);
			if (s >= e)
				return 0;
			continue;
		}
		break;
	}
	/* symbol assignment `name = expr` */
	{
		const char *t = s, *eq;
		while (t < e && is_id((unsigned char)*t))
			t++;
		eq = skip_ws(t, e);
		if (t > s && eq < e && *eq == '=' && (eq + 1 >= e || eq[1] != '=')) {
			int64_t v;
			if (!vf_expr(&r->p->syms, eq + 1, e, &v)) {
				vf_sym *sy = vf_sym_get(&r->p->syms, s, (size_t)(t - s), 1);
				if (!sy)
					return oom(r);
				sy->flags |= VF_SYM_VALUE;
				sy->value = v;
			}
			return 0;
		}
	}
	if (*s == '.')
		return directive(r, s, e);
	/* macro invocation */
	if (r->nmac) {
		const char *t = s;
		const vf_sym *sy;
		while (t < e && *t != ' ' && *t != '\t')
			t++;
		sy = vf_sym_get(&r->p->syms, s, (size_t)(t - s), 0);
		if (sy && (sy->flags & VF_SYM_MACRO) && r->mac[sy->value].body_e > r->mac[sy->value].body_s)
			return expand(r, &r->mac[sy->value], t, e, lineno, ci.allow);
	}
	return instruction(r, s, e, lineno, &ci);
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

		if (l->addr >= 0) {
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
			return oom(r);
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
			return oom(r);
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

static int resolve_branches(rd *r)
{
	vf_prog *p = r->p;
	addr_idx *sorted = NULL;

	for (size_t i = 1; i < p->ninst && r->nbr; i++) {
		if (p->addr[i] < p->addr[i - 1]) {
			sorted = malloc(p->ninst * sizeof(*sorted));
			if (!sorted)
				return oom(r);
			for (size_t j = 0; j < p->ninst; j++) {
				sorted[j].a = p->addr[j];
				sorted[j].i = (uint32_t)j;
			}
			qsort(sorted, p->ninst, sizeof(*sorted), cmp_addr_idx);
			break;
		}
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
	}
	free(sorted);
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

int vf_read(vf_prog *p, const char *text, size_t len, const char *isa_name, kw_error *err)
{
	rd r;
	const char *s = text, *end = text + len;
	uint32_t lineno = 0;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.defining = -1;
	r.p = p;
	r.err = err;
	p->text = text;
	p->len = len;
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
		p->isa = isa_from_text(text, len);
		if (!p->isa)
			return kw_error_set(err, KW_EINVAL, "isa",
					    "no ISA: the text has no .amdgcn_target naming a supported "
					    "processor; give one (--isa gfx942)");
	}
	if (memchr(text, 0, len))
		return kw_error_set(err, KW_EINVAL, NULL,
				    "the input contains a NUL byte: not assembly text");
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;
		lineno++;
		rc = line(&r, s, e, lineno);
		if (rc)
			goto out;
		s = nl ? nl + 1 : end;
	}
	p->nlines = lineno;
	rc = build_functions(&r);
	if (!rc)
		rc = resolve_branches(&r);
out:
	free(r.mc);
	free(r.mac);
	free(r.br);
	free(r.lab);
	return rc ? (rc < 0 ? rc : KW_EINVAL) : 0;
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
