/* read_lex.c - the assembly reader's lexer: one line into comments (the
 * inline `kwgen-verify: allow` rule, objdump's `// ADDR: HEX <sym+0xOFF>`),
 * labels and symbol assignments, then a directive (read_macro.c), a macro
 * call, an objdump symbol line (read_objdump.c) or an instruction (read.c). */
#include "verify/read_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int vf_rd_grow(void **arr, size_t *cap, size_t elem, size_t init)
{
	size_t nc = *cap ? *cap * 2 : init;
	void *g = realloc(*arr, nc * elem);

	if (!g)
		return -1;
	*arr = g;
	*cap = nc;
	return 0;
}

int vf_rd_oom(rd *r)
{
	return kw_error_set(r->err, KW_ENOMEM, NULL, "out of memory reading the assembly");
}

/* The codes an inline allow takes, for messages. */
#define ALLOW_CODES                                                                              \
	"race_raw, race_waw, lds_barrier, lds_dma, redundant_wait, unknown_instruction, unsupported, " \
	"lds_latency, or * (all)"

/* A `kwgen-verify: ...` comment: `allow CODE[,CODE...] [NOTE]` (codes,
 * `*` or `all`, separated by commas with optional blanks around them; a
 * NOTE starts `--` or `(`) or `assume atomic-counters`.  Anything else
 * after the marker (an unknown code, no code, another separator such as
 * `/`, `|`, `+` or a blank alone, a trailing comma, other text after the
 * codes, another word), or the marker without its colon
 * before `allow` / `assume`, is malformed: ci->bad and ci->why say so, and
 * the reader refuses the input naming the line (as a malformed
 * suppression rule is), rather than silently not allowing. */
static void parse_allow(const char *s, const char *e, cinfo *ci)
{
	static const char key[] = "kwgen-verify";
	const char *q, *m, *list;
	int any = 0;

	for (q = s; q + sizeof(key) - 1 <= e; q++)
		if (*q == 'k' && !memcmp(q, key, sizeof(key) - 1))
			break;
	if (q + sizeof(key) - 1 > e)
		return;
	m = q;
	q += sizeof(key) - 1;
	if (q < e && *q == ':') {
		q = skip_ws(q + 1, e);
	} else {
		/* `kwgen-verify allow ...`: the colon forgotten */
		const char *w = skip_ws(q, e);
		if (w > q && ((e - w >= 5 && !memcmp(w, "allow", 5)) || (e - w >= 6 && !memcmp(w, "assume", 6)))) {
			ci->bad = m;
			ci->bad_e = e;
			ci->why = "no colon after kwgen-verify";
		}
		return;
	}
	if (e - q >= 6 && !memcmp(q, "assume", 6) && (q + 6 == e || *(q + 6) == ' ' || *(q + 6) == '\t')) {
		const char *t = skip_ws(q + 6, e), *u = t;
		while (u < e && (is_id((unsigned char)*u) || *u == '-'))
			u++;
		const char *rest = skip_ws(u, e);
		if (u - t == 15 && !memcmp(t, "atomic-counters", 15) && (rest == e || !is_id((unsigned char)*rest))) {
			ci->assume = 1;
			return;
		}
		ci->bad = m;
		ci->bad_e = e;
		ci->why = "the assumption is not atomic-counters (`kwgen-verify: assume atomic-counters`)";
		return;
	}
	if (e - q < 5 || memcmp(q, "allow", 5) || (q + 5 < e && is_id((unsigned char)q[5]))) {
		ci->bad = m;
		ci->bad_e = e;
		ci->why = "expected `kwgen-verify: allow CODE[,CODE...]` or `kwgen-verify: assume atomic-counters`";
		return;
	}
	q = skip_ws(q + 5, e);
	list = q;
	for (;;) {
		const char *t = q, *after;
		char name[32];
		int code;
		while (q < e && (is_id((unsigned char)*q) || *q == '*'))
			q++;
		if (q == t) {
			if (any) {
				ci->bad = list;
				ci->bad_e = e;
				ci->why = "a comma with no code after it";
			}
			break;
		}
		any = 1;
		if ((q - t == 1 && *t == '*') || (q - t == 3 && !memcmp(t, "all", 3))) {
			ci->allow = 0xff;
		} else {
			code = -1;
			if ((size_t)(q - t) < sizeof(name)) {
				memcpy(name, t, (size_t)(q - t));
				name[q - t] = 0;
				code = kw_verify_code_from_name(name);
			}
			if (code < 0) {
				ci->bad = t;
				ci->bad_e = q;
				ci->why = "unknown code";
				return;
			}
			ci->allow |= (uint8_t)(1u << code);
		}
		/* codes are separated by commas (blanks around them allowed);
		 * after the last one, only the end of the comment or a note
		 * starting `--` or `(` */
		after = skip_ws(q, e);
		if (after < e && *after == ',') {
			q = skip_ws(after + 1, e);
			continue;
		}
		if (after < e && *after != '(' && (e - after < 2 || after[0] != '-' || after[1] != '-')) {
			ci->bad = list;
			ci->bad_e = e;
			ci->why = "codes are separated by commas (`allow race_raw, race_waw`), and after them "
				  "comes only a note starting `--` or `(`";
			return;
		}
		break;
	}
	if (!any) {
		ci->bad = m;
		ci->bad_e = e;
		ci->why = "no code to allow";
	}
}

/* The reader's error for a malformed `kwgen-verify` comment (ci->bad). */
static int bad_allow(rd *r, const cinfo *ci, uint32_t lineno)
{
	int n = (int)(ci->bad_e - ci->bad);
	char shown[64];
	int k;

	if (n > (int)sizeof(shown) - 1)
		n = (int)sizeof(shown) - 1;
	for (k = 0; k < n; k++)
		shown[k] = ci->bad[k] >= 0x20 && ci->bad[k] < 0x7f ? ci->bad[k] : '?';
	shown[k] = 0;
	while (k && (shown[k - 1] == ' ' || shown[k - 1] == '\t'))
		shown[--k] = 0;
	kw_error_set(r->err, KW_EINVAL, "allow",
		     "line %u: `%s`: %s; an inline rule is `kwgen-verify: allow CODE[,CODE...]` with CODE one "
		     "of " ALLOW_CODES ", optionally followed by a note starting `--` or `(`, or "
		     "`kwgen-verify: assume atomic-counters`",
		     (unsigned)lineno, shown, ci->why);
	return -1;
}

static void parse_comment(const char *s, const char *e, cinfo *ci, int slashes, int rules)
{
	const char *q, *lt;

	if (rules && memchr(s, 'k', (size_t)(e - s)))
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

int vf_rd_line(rd *r, const char *s, const char *e, uint32_t lineno)
{
	cinfo ci = { 0, 0, NULL, NULL, NULL, -1, -1, NULL, 0, 0 };
	const char *q, *code_end = e;
	int slashes = 0;
	/* `kwgen-verify:` rules are the author's: never read from a streamed
	 * text (a code object's decoded text, whose comments hold ELF symbol
	 * names; data words bring their source's rules in source_lines), nor
	 * from lines a false .if skips */
	int rules = !r->stream && !r->skip_from;

	r->raw_s = s;
	r->raw_e = e;
	r->lineno = lineno;

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
	/* comment start: `;`, `//`, `/ *` (not inside a string or quoted name) */
	for (q = s; q < e; q++) {
		if (*q == '"') {
			const char *c = quote_end(q, e);
			if (!c)
				break;
			q = c;
			continue;
		}
		if (*q == ';') {
			code_end = q;
			parse_comment(q + 1, e, &ci, 0, rules);
			break;
		}
		if (*q == '/' && q + 1 < e && q[1] == '/') {
			code_end = q;
			slashes = 1;
			parse_comment(q + 2, e, &ci, 1, rules);
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
				parse_comment(q + 2, c, &ci, 0, rules);
			}
			break;
		}
	}
	(void)slashes;
	if (ci.bad)
		return bad_allow(r, &ci, lineno);
	if (ci.assume && !r->p->assume_line) {
		r->p->assume_atomic_counters = 1;
		r->p->assume_line = lineno;
	}
	ci.allow |= r->allow_inherit;
	r->line_allow = ci.allow;
	r->line_addr = ci.addr;
	e = rtrim(s, code_end);
	if (s >= e)
		return 0;
	if (r->in_macro)
		return vf_rd_directive(r, s, e);
	if (e - s == 3 && !memcmp(s, "...", 3) && r->p->objdump) {
		/* llvm-objdump's elided run of zero bytes: padding after
		 * s_endpgm; anywhere else, code that was not shown */
		if (!r->after_end && !r->ndata++) {
			r->data_line = lineno;
			r->data_addr = -1;
		}
		return 0;
	}
	if (*s == '.' && vf_rd_conditional(r, s, e))
		return 0;
	if (r->skip_from)
		return 0;
	/* objdump symbol `0000000000000000 <name>:` */
	if (isxdigit((unsigned char)*s)) {
		int64_t addr;
		const char *nm;
		size_t nl;
		if (vf_rd_objdump_symbol(s, e, &addr, &nm, &nl)) {
			r->p->objdump = 1;
			return vf_rd_add_label(r, nm, nl, addr);
		}
	}
	if (mem_find(s, (size_t)(e - s), "file format", 11) ||
	    (e - s > 14 && !memcmp(s, "Disassembly of", 14)))
		return 0;
	/* labels (possibly several, possibly followed by an instruction) */
	for (;;) {
		const char *nm;
		size_t nl;
		const char *t = sym_name(s, e, &nm, &nl);
		if (t > s && t < e && *t == ':' && (t + 1 == e || t[1] != ':')) {
			if (vf_rd_add_label(r, nm, nl, -1))
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
					return vf_rd_oom(r);
				sy->flags |= VF_SYM_VALUE;
				sy->value = v;
			}
			return 0;
		}
	}
	if (*s == '.')
		return vf_rd_directive(r, s, e);
	/* macro invocation */
	if (r->nmac) {
		const char *t = s;
		const vf_sym *sy;
		while (t < e && *t != ' ' && *t != '\t')
			t++;
		sy = vf_sym_get(&r->p->syms, s, (size_t)(t - s), 0);
		if (sy && (sy->flags & VF_SYM_MACRO) && r->mac[sy->value].body_e > r->mac[sy->value].body_s)
			return vf_rd_expand(r, &r->mac[sy->value], t, e, lineno, ci.allow);
	}
	return vf_rd_instruction(r, s, e, lineno, &ci);
}
