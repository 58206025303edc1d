/* read_macro.c - directives of the assembly text: .set/.equ symbols,
 * .type and .amdhsa_kernel declarations, metadata blocks skipped, conditional
 * assembly (.if/.ifdef/.else/.endif) and macros (.macro NAME params / .endm;
 * \\param, \\(), \\@), expanded with a depth and a byte bound. */
#include "verify/read_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
		return vf_rd_oom(r);
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
		return vf_rd_oom(r);
	sy->flags |= VF_SYM_MACRO;
	sy->value = (int64_t)r->nmac;
	r->defining = (long)r->nmac;
	r->nmac++;
	return 0;
}

int vf_rd_expand(rd *r, const struct macro *m, const char *s, const char *e, uint32_t lineno,
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
						/* the bound, while the line grows */
						if ((rc = vf_rd_mem_check(r, b.len)))
							goto line_done;
						c = ie - 1;
						goto next;
					}
				}
			}
			kw_buf_putc(&b, *c);
next:;
		}
line_done:
		if (rc)
			break;
		if (b.oom) {
			rc = vf_rd_oom(r);
			break;
		}
		r->xbytes += b.len + 1;
		if ((rc = vf_rd_mem_check(r, 0)))
			break;
		x = kw_arena_alloc(&r->p->xtext, b.len + 1);
		if (!x) {
			rc = vf_rd_oom(r);
			break;
		}
		memcpy(x, b.p ? b.p : "", b.len);
		x[b.len] = 0;
		rc = vf_rd_line(r, x, x + b.len, lineno);
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
int vf_rd_conditional(rd *r, const char *s, const char *e)
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

/* The values of a data directive d (length dn) with operands [q, e),
 * appended little-endian to r->words. */
static int data_words(rd *r, const char *d, size_t dn, const char *q, const char *e)
{
	size_t size = 4;

	if (dn == 5 && !memcmp(d, ".byte", 5))
		size = 1;
	else if ((dn == 6 && (!memcmp(d, ".short", 6) || !memcmp(d, ".hword", 6) || !memcmp(d, ".2byte", 6) ||
			      !memcmp(d, ".value", 6))) ||
		 (dn == 5 && !memcmp(d, ".word", 5)))
		size = 2; /* LLVM's .word is 2 bytes */
	else if ((dn == 5 && !memcmp(d, ".quad", 5)) || (dn == 6 && !memcmp(d, ".8byte", 6)))
		size = 8;
	q = skip_ws(q, e);
	while (q < e) {
		const char *c = q, *x;
		int depth = 0;
		int64_t v;
		unsigned char b[8];
		for (; c < e && (depth || *c != ','); c++)
			depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
		x = skip_ws(q, c);
		if (vf_expr(&r->p->syms, x, rtrim(x, c), &v))
			return kw_error_set(r->err, KW_EINVAL, "data_words",
					    "line %u: the %.*s value '%.*s' does not evaluate to a number", r->lineno,
					    (int)dn, d, (int)(rtrim(x, c) - x), x);
		if (r->words->len > (size_t)r->p->len * 8 + 64)
			return kw_error_set(r->err, KW_ELIMIT, "data_words",
					    "line %u: more data bytes than 8 x the text", r->lineno);
		for (size_t i = 0; i < size; i++)
			b[i] = (unsigned char)((uint64_t)v >> (8 * i));
		kw_buf_put(r->words, (const char *)b, size);
		q = c < e ? c + 1 : e;
	}
	return r->words->oom || (r->wlines && r->wlines->oom) ? vf_rd_oom(r) : 0;
}

/* The words appended from here on come from the line being read (and
 * carry its inline allow). */
static void word_line(rd *r)
{
	kw_verify_word_line wl;
	const kw_buf *b = r->wlines;
	if (!b)
		return;
	memset(&wl, 0, sizeof wl); /* no stray padding bytes in the buffer */
	wl.offset = r->words->len;
	wl.line = r->lineno;
	wl.allow = r->line_allow;
	if (b->len >= sizeof wl) {
		kw_verify_word_line last;
		memcpy(&last, b->p + b->len - sizeof wl, sizeof wl);
		if (last.line == wl.line && last.allow == wl.allow)
			return;
		if (last.offset == wl.offset) { /* nothing came of that line */
			memcpy(r->wlines->p + b->len - sizeof wl, &wl, sizeof wl);
			return;
		}
	}
	kw_buf_put(r->wlines, (const char *)&wl, sizeof wl);
}

int vf_rd_directive(rd *r, const char *s, const char *e)
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
	/* sections: instructions are read in code (.text*) sections; data
	 * words there are instructions given as numbers, which are not read */
	if (DIR(".text")) {
		r->data_section = 0;
		return 0;
	}
	if (DIR(".data") || DIR(".rodata") || DIR(".bss")) {
		r->data_section = 1;
		return 0;
	}
	if (DIR(".section") || DIR(".pushsection")) {
		const char *n0 = skip_ws(q, e), *n1 = n0;
		while (n1 < e && *n1 != ',' && *n1 != ' ' && *n1 != '\t')
			n1++;
		r->data_section = !((n1 - n0 == 5 && !memcmp(n0, ".text", 5)) ||
				    (n1 - n0 > 6 && !memcmp(n0, ".text.", 6)));
		return 0;
	}
	if (DIR(".popsection")) {
		r->data_section = 0;
		return 0;
	}
	if (!r->data_section &&
	    (DIR(".long") || DIR(".short") || DIR(".byte") || DIR(".word") || DIR(".hword") || DIR(".int") ||
	     DIR(".2byte") || DIR(".4byte") || DIR(".8byte") || DIR(".quad") || DIR(".value") || DIR(".inst"))) {
		if (!r->ndata++) {
			r->data_line = r->lineno;
			r->data_addr = r->line_addr;
		}
		if (r->words)
			word_line(r);
		return r->words ? data_words(r, d, dn, q, e) : 0;
	}
	if (r->words && !r->data_section && (DIR(".p2align") || DIR(".balign") || DIR(".align"))) {
		/* code alignment: s_nop 0 words, as llvm-mc fills code */
		const char *x = skip_ws(q, e), *c = NULL;
		int64_t v;
		size_t al;
		for (const char *y = x; y < e && !c; y++)
			if (*y == ',')
				c = y;
		if (vf_expr(&r->p->syms, x, rtrim(x, c ? c : e), &v) || v < 0 || v > 16)
			return 0;
		al = DIR(".p2align") ? (size_t)1 << v : (size_t)v;
		word_line(r);
		while (al > 1 && r->words->len % al && !r->words->oom) {
			if (r->words->len % 4)
				kw_buf_putc(r->words, 0);
			else
				kw_buf_put(r->words, "\x00\x00\x80\xbf", 4);
		}
		return r->words->oom ? vf_rd_oom(r) : 0;
	}
	if (DIR(".rept") || DIR(".irp") || DIR(".irpc") || DIR(".include") || DIR(".incbin")) {
		if (!r->skipdir_line) {
			r->skipdir_line = r->lineno;
			memcpy(r->skipdir, d, dn < sizeof(r->skipdir) - 1 ? dn : sizeof(r->skipdir) - 1);
		}
		return 0;
	}
	if (DIR(".macro")) {
		/* a streamed text (kw_verify_stream: decoded code) is held in
		 * pieces, so a body cannot be kept as one span; and a
		 * disassembler never prints a macro */
		if (r->stream)
			return kw_error_set(r->err, KW_EINVAL, NULL,
					    "line %u: .macro in a streamed text (decoded code has none)", r->lineno);
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
				return vf_rd_oom(r);
			sy->flags |= VF_SYM_VALUE;
			sy->value = val;
		}
		return 0;
	}
	if (DIR(".type")) {
		const char *n0, *n1;
		size_t nl;
		n1 = sym_name(skip_ws(q, e), e, &n0, &nl);
		n1 = n0 + nl;
		if (n1 > n0 && (mem_find(n1, (size_t)(e - n1), "@function", 9) ||
				mem_find(n1, (size_t)(e - n1), "STT_FUNC", 8))) {
			vf_sym *sy = vf_sym_get(&r->p->syms, n0, (size_t)(n1 - n0), 1);
			if (!sy)
				return vf_rd_oom(r);
			sy->flags |= VF_SYM_FUNC;
			r->any_func_decl = 1;
		}
		return 0;
	}
	if (DIR(".amdhsa_kernel") || DIR(".amdgpu_hsa_kernel")) {
		const char *n0, *n1;
		size_t nl;
		n1 = sym_name(skip_ws(q, e), e, &n0, &nl);
		n1 = n0 + nl;
		if (n1 > n0) {
			vf_sym *sy = vf_sym_get(&r->p->syms, n0, (size_t)(n1 - n0), 1);
			if (!sy)
				return vf_rd_oom(r);
			sy->flags |= VF_SYM_KERNEL | VF_SYM_FUNC;
			r->any_kernel_decl = 1;
			r->any_func_decl = 1;
		}
		return 0;
	}
	return 0;
#undef DIR
}
