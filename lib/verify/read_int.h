/* read_int.h - the assembly reader's state, shared by its parts:
 * read.c (instructions, waits, operands, functions, vf_read), read_lex.c
 * (lines: comments, labels, dispatch), read_macro.c (directives, .set,
 * conditional assembly, macros) and read_objdump.c (llvm-objdump's symbol
 * lines, addresses, branch targets and long branches). */
#ifndef KWGEN_VERIFY_READ_INT_H
#define KWGEN_VERIFY_READ_INT_H

#include "verify/verify_int.h"

#include <ctype.h>
#include <stdint.h>
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
	size_t woff;         /* byte offset in rd.words (kw_verify_text_words) */
	int code;            /* defined in a code section */
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
	/* kw_verify_stream: the text arrives in pieces (no .macro), of
	 * which held bytes are kept */
	int stream;
	uint64_t held;
	/* conditional assembly: .if / .ifdef / .ifndef / .else / .elseif /
	 * .endif; lines are skipped while any enclosing condition is false */
	uint32_t cond_depth, skip_from; /* skip_from: depth where skipping began, 0 = none */
	uint8_t cond_taken[64];
	int any_func_decl, any_kernel_decl;
	uint32_t lineno;             /* of the line being read */
	uint8_t line_allow;          /* its inline allow (with allow_inherit) */
	int64_t line_addr;           /* its objdump address, or -1 */
	/* instructions given as data (.long/.short/.byte in a code section):
	 * not checked, so the input is refused (vf_read) */
	int data_section;            /* the current section holds data */
	uint64_t ndata;
	uint32_t data_line;          /* the first one's line */
	int64_t data_addr;           /* and address (objdump form; -1) */
	/* a directive that repeats or brings in lines the reader does not
	 * expand (.rept, .irp, .irpc, .include): the input is refused (vf_read),
	 * since what it makes was not checked */
	uint32_t skipdir_line;
	char skipdir[16];
	/* objdump form: zero words after s_endpgm are padding between
	 * functions (ld.lld fills the gaps between .text sections with 0) */
	int after_end;
	uint64_t npad;
	/* kw_verify_text_words: the data words of code sections, collected */
	kw_buf *words;
	kw_buf *wlines;              /* and their lines: kw_verify_word_line runs */
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
		     : vf_rd_grow((void **)&(arr), &(cap), sizeof(*(arr)), (init)))


/* Double *cap (or set it to init) and realloc *arr: 0 or -1. */
int vf_rd_grow(void **arr, size_t *cap, size_t elem, size_t init);
/* Set KW_ENOMEM on r->err; returns it. */
int vf_rd_oom(rd *r);

/* identifier characters (ASCII letters, digits, _ . $), without the
 * locale-aware ctype calls on the hot path */
static inline int is_id(int c)
{
	return (unsigned)((c | 32) - 'a') < 26 || (unsigned)(c - '0') < 10 || c == '_' || c == '.' ||
	       c == '$';
}

static inline const char *mem_find(const char *s, size_t n, const char *lit, size_t k)
{
	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && !memcmp(s + i, lit, k))
			return s + i;
	return NULL;
}

static inline const char *skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

/* The closing quote of the quoted string or symbol name opening at s
 * (*s == '"'), or NULL: a backslash escapes the next character (`\"`,
 * `\\`), as GNU as and llvm-mc read quoted symbol names. */
static inline const char *quote_end(const char *s, const char *e)
{
	for (s++; s < e; s++) {
		if (*s == '\\' && s + 1 < e)
			s++;
		else if (*s == '"')
			return s;
	}
	return NULL;
}

/* A symbol name at s: a plain identifier, or a quoted name (`"k.1"`,
 * `"my kernel"`, which llvm-mc writes for names outside [A-Za-z0-9_.$]).
 * Sets *nm and *nl to the name (a quoted one without its quotes, its escapes
 * kept as written, so `"k"` and `k` are one symbol) and returns the end
 * of the spelling; returns s (no name) if there is none. */
static inline const char *sym_name(const char *s, const char *e, const char **nm, size_t *nl)
{
	const char *t = s;

	*nm = s;
	*nl = 0;
	if (s < e && *s == '"') {
		const char *c = quote_end(s, e);
		if (!c || c == s + 1)
			return s;
		*nm = s + 1;
		*nl = (size_t)(c - s - 1);
		return c + 1;
	}
	while (t < e && is_id((unsigned char)*t))
		t++;
	*nm = s;
	*nl = (size_t)(t - s);
	return t;
}

static inline const char *rtrim(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e;
}

static inline int parse_hex(const char *s, const char *e, int64_t *out, const char **endp)
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

/* What a line's comment says: inline allow, objdump address and branch target. */
typedef struct cinfo {
	uint8_t allow;
	uint8_t assume;     /* `kwgen-verify: assume atomic-counters` */
	const char *bad;    /* a malformed `kwgen-verify` comment: where, and why */
	const char *bad_e;
	const char *why;
	int64_t addr;       /* -1 */
	int64_t enc;        /* first encoding word after the address; -1 */
	const char *tname;  /* <name+0xOFF> */
	size_t tlen;
	int64_t toff;
} cinfo;

/* read.c: 0 if what reading holds (macro expansions, the arrays) plus extra
 * bytes is within p->max_memory, else KW_ELIMIT naming the bound. */
int vf_rd_mem_check(rd *r, size_t extra);

/* read.c: the reading of a text line by line: vf_rd_begin sets r up
 * (isa_name NULL: from text's .amdgcn_target; text may be NULL with an
 * isa_name, for a stream), vf_rd_line reads each line, vf_rd_end checks
 * and completes p (functions, branch targets); vf_rd_free after. */
int vf_rd_begin(rd *r, vf_prog *p, const char *text, size_t len, const char *isa_name, kw_buf *words,
		kw_error *err);
int vf_rd_end(rd *r);
void vf_rd_free(rd *r);

/* read_lex.c: one line (raw [s, e), 1-based lineno): comments, labels,
 * symbol assignments, then a directive, a macro call or an instruction. */
int vf_rd_line(rd *r, const char *s, const char *e, uint32_t lineno);

/* read_macro.c */
/* 1 if [s, e) is a conditional directive (.if .ifdef .ifndef .ifne .ifeq
 * .else .elseif .endif: handled), 0 otherwise.  A condition that does
 * not evaluate counts as true. */
int vf_rd_conditional(rd *r, const char *s, const char *e);
/* A directive line [s, e) (or a line inside a skipped block): 0 or an error. */
int vf_rd_directive(rd *r, const char *s, const char *e);
/* Expand macro m called with the arguments [s, e) at lineno. */
int vf_rd_expand(rd *r, const struct macro *m, const char *s, const char *e, uint32_t lineno,
		 uint8_t allow);

/* read.c */
int vf_rd_add_label(rd *r, const char *name, size_t len, int64_t addr);
int vf_rd_instruction(rd *r, const char *s, const char *e, uint32_t line, const cinfo *ci);

/* read_objdump.c */
/* `0000000000000000 <name>:`: 1 with *addr, *nm, *nl; else 0. */
int vf_rd_objdump_symbol(const char *s, const char *e, int64_t *addr, const char **nm, size_t *nl);
/* Follow SGPR constants (objdump form) and label references (text form)
 * through instruction in (mnemonic m, operands [ops, e), address addr or
 * -1); a resolvable s_setpc_b64 becomes a branch. */
void vf_rd_sconst_step(rd *r, vf_inst *in, const char *m, size_t mn, const char *ops,
		       const char *e, int64_t addr);
/* Each branch's target instruction (insts[].aux), by address or label. */
int vf_rd_resolve_branches(rd *r);

#endif
