/* verify_int.h - internal types of the wait-count verifier (kwgen/verify.h). */
#ifndef KWGEN_VERIFY_INT_H
#define KWGEN_VERIFY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kwgen/buf.h"
#include "kwgen/error.h"
#include "kwgen/verify.h"

/* ---- register slots: one index space for every register a load can write ---- */
enum {
	VF_SLOT_V = 0,        /* v0..v1023 */
	VF_SLOT_A = 1024,     /* a0..a511 */
	VF_SLOT_S = 1536,     /* s0..s127 (vcc_lo = s106, vcc_hi = s107) */
	VF_SLOT_TTMP = 1664,  /* ttmp0..ttmp15 */
	VF_SLOT_REGS = 1680,  /* end of real registers */
	/* pseudo slots: LDS written by an in-flight operation */
	VF_SLOT_LDSW = 1680,  /* youngest LDS write (ds_write / ds atomic / flat store) */
	VF_SLOT_DMA = 1681,   /* youngest LDS-DMA / async / tensor load into LDS */
	VF_SLOT_DMAX = 1682,  /* an LDS-DMA load that was in flight at a barrier */
	VF_SLOT_LDSR = 1683,  /* youngest LDS read (ds_read / ds_load / *_rtn, tensor store) */
	VF_SLOT_DMAR = 1684,  /* first LDS read issued while the youngest LDS-DMA / tensor
			       * load was in flight with no wait on its counter
			       * (score: the DMA's; prod: the read) */
	VF_NSLOT = 1685
};

/* ---- counters (internal ids; names per ISA in model.c) ---- */
enum {
	VF_C_VM = 0,  /* vmcnt (gfx9-11) / loadcnt (gfx12) */
	VF_C_LGKM,    /* lgkmcnt (gfx9-11) / dscnt (gfx12) */
	VF_C_EXP,     /* expcnt */
	VF_C_VS,      /* vscnt (gfx10/11) / storecnt (gfx12) */
	VF_C_KM,      /* kmcnt (gfx12; SMEM is on lgkmcnt before) */
	VF_C_SAMPLE,  /* samplecnt (gfx12) */
	VF_C_BVH,     /* bvhcnt (gfx12) */
	VF_C_TENSOR,  /* tensorcnt (gfx1250) */
	VF_C_ASYNC,   /* asynccnt (gfx1250) */
	VF_C_X,       /* xcnt (gfx1250; not modelled: waits accepted, never redundant) */
	VF_NCNT
};

/* ---- event classes: ops of one class complete in order or, for the
 * out-of-order ones, only at a zero wait.  A class counts on one counter. ---- */
enum {
	VF_K_VMEM = 0,   /* VMEM loads (gfx9: and stores, LDS DMA) */
	VF_K_VSAMPLE,    /* image sample/gather (gfx10+; gfx9 uses VMEM) */
	VF_K_VBVH,       /* image_bvh (gfx10+) */
	VF_K_VSTORE,     /* VMEM stores, atomics without return (gfx10+) */
	VF_K_LDS,        /* ds_* */
	VF_K_GDS,        /* ds_* gds, ds_gws_* (out of order) */
	VF_K_SMEM,       /* s_load, s_buffer_load, s_store, s_memtime... (out of order) */
	VF_K_MSG,        /* s_sendmsg* (out of order) */
	VF_K_FLATV,      /* FLAT, vmcnt/loadcnt side (out of order) */
	VF_K_FLATS,      /* FLAT store, vscnt/storecnt side (gfx10+; out of order) */
	VF_K_FLATL,      /* FLAT, lgkmcnt/dscnt side (out of order) */
	VF_K_EXP,        /* exports, GDS/LDS param (expcnt) */
	VF_K_TENSOR,     /* gfx1250 tensor_load_to_lds / tensor_store_from_lds */
	VF_K_ASYNC,      /* gfx1250 *_async_* LDS transfers */
	VF_NCLS
};

typedef struct vf_isa {
	const char *name;    /* "gfx942" */
	int gen;             /* 9, 11, 12 (gfx1250: 12 with has_tensor) */
	int gfx94x;          /* sc0 marks a returning atomic */
	int gfx1250;
	uint32_t counters;   /* bitmask of VF_C_* present */
	int cap[VF_NCNT];    /* largest count the counter holds (all ones = no wait) */
	const char *cname[VF_NCNT];
	int cls_cnt[VF_NCLS];  /* counter of each class (-1: class unused) */
	uint8_t cls_ooo[VF_NCLS];
	uint32_t entry_unknown; /* counters a callable function's entry may have pending */
} vf_isa;

const vf_isa *vf_isa_by_name(const char *name, size_t len);

/* 1 if loads of in-order class k may still write their VGPR results out of
 * order on isa, so a load overwriting the destination of an older in-flight
 * load of the same class is a WAW hazard (model.c). */
int vf_vgpr_write_ooo(const vf_isa *isa, int k);

/* What a mnemonic does, before its modifiers are looked at (model.c). */
typedef struct vf_mclass {
	uint8_t kind;        /* VF_I_* */
	uint8_t flags;       /* VF_F_* */
	uint8_t mem;         /* VF_M_* memory family */
	uint8_t wait;        /* VF_W_* wait form */
	uint8_t wcnt;        /* counter of a single-counter wait */
	uint8_t nodef;       /* ALU without a written first operand */
	uint8_t access;      /* VF_MA_* for memory */
} vf_mclass;

enum { VF_M_NONE = 0, VF_M_VMEM, VF_M_FLAT, VF_M_LDS, VF_M_GDS, VF_M_SMEM, VF_M_MSG,
       VF_M_EXP, VF_M_TENSOR, VF_M_ASYNC };
enum { VF_MA_LOAD = 1, VF_MA_STORE = 2, VF_MA_ATOMIC = 3, VF_MA_DMA = 4, VF_MA_SAMPLE = 5,
       VF_MA_BVH = 6, VF_MA_OTHER = 7 };
enum { VF_W_NONE = 0, VF_W_WAITCNT, VF_W_REG, VF_W_SINGLE, VF_W_LOAD_DS, VF_W_STORE_DS,
       VF_W_IDLE };

/* Classify mnemonic m (len n, lower case) for isa. */
vf_mclass vf_classify(const vf_isa *isa, const char *m, size_t n);

/* ---- instruction kinds ---- */
enum {
	VF_I_ALU = 0,   /* no counter */
	VF_I_MEM,       /* increments counters */
	VF_I_WAIT,      /* s_waitcnt* / s_wait_* */
	VF_I_BRANCH,    /* s_branch */
	VF_I_CBRANCH,   /* s_cbranch_* */
	VF_I_END,       /* s_endpgm, s_endpgm_saved... */
	VF_I_SETPC,     /* s_setpc: return or indirect jump */
	VF_I_CALL,      /* s_swappc / s_call: callee state unknown */
	VF_I_BARRIER,   /* s_barrier, s_barrier_signal */
	VF_I_UNKNOWN,   /* not known to the model */
	VF_I_IGNORE     /* s_nop, s_wait_alu, s_waitcnt_depctr, ... */
};

/* instruction flags */
enum {
	VF_F_DEF0 = 1u << 0,    /* first operand is written */
	VF_F_READDST = 1u << 1, /* first operand is also read */
	VF_F_LDSREAD = 1u << 2, /* reads LDS memory */
	VF_F_LDSWRITE = 1u << 3,/* writes LDS memory */
	VF_F_DMA = 1u << 4,     /* writes LDS from VMEM (DMA / async / tensor) */
	VF_F_NOTINST = 1u << 5, /* unreachable code (no redundant_wait) */
	VF_F_DEF1 = 1u << 6,    /* second operand written (VOPD second half handled by ops) */
	VF_F_STORE = 1u << 7
};

typedef struct vf_op {
	uint16_t slot;   /* first slot */
	uint8_t n;       /* slots */
	uint8_t def;     /* 1 = written, 2 = written and read */
} vf_op;

typedef struct vf_inst {
	uint32_t line;
	const char *tp;      /* the mnemonic, in the input or in a macro expansion */
	uint32_t op0;        /* first operand in vf_prog.ops */
	uint32_t aux;        /* wait index (VF_I_WAIT) or branch target inst (-1u) */
	uint16_t text_len;   /* up to the comment */
	uint16_t mnem_len;
	uint8_t nops;
	uint8_t kind;
	uint8_t flags;
	uint8_t ncls;        /* events issued (0..3) */
	uint8_t cls[3];
	uint8_t allow;       /* inline-suppressed codes (bit per kw_verify_code); 0xff = all */
	uint32_t func;
} vf_inst;

typedef struct vf_wait {
	int16_t n[VF_NCNT];  /* -1 = field not waited (absent or the all-ones "no wait") */
	uint8_t opaque;      /* count from a register: no effect assumed, never redundant */
	uint8_t fields;      /* fields written (0: a wait that names no counter) */
} vf_wait;

typedef struct vf_func {
	const char *name;    /* into the input */
	uint32_t name_len;
	uint32_t first;      /* first instruction */
	int kernel;          /* entry state: nothing pending */
	int64_t addr;        /* objdump symbol address; -1 */
} vf_func;

typedef struct vf_label {
	const char *name;
	uint32_t len;
	uint32_t inst;       /* next instruction index */
} vf_label;

/* name -> value table (open addressing; names point into the input) */
typedef struct vf_sym {
	const char *name;
	uint32_t len;
	uint32_t flags;      /* VF_SYM_* */
	int64_t value;
} vf_sym;

enum {
	VF_SYM_VALUE = 1,    /* .set / = */
	VF_SYM_FUNC = 2,     /* .type NAME,@function or .globl */
	VF_SYM_KERNEL = 4,   /* .amdhsa_kernel NAME */
	VF_SYM_LABEL = 8,    /* defined as a label: value = instruction index */
	VF_SYM_ADDR = 16,    /* objdump symbol: value = address, aux = function */
	VF_SYM_MACRO = 32    /* .macro NAME */
};

typedef struct vf_symtab {
	vf_sym *t;
	size_t cap, n;
} vf_symtab;

/* NULL if absent; with create, insert (value 0, flags 0); NULL on ENOMEM. */
vf_sym *vf_sym_get(vf_symtab *st, const char *name, size_t len, int create);
void vf_symtab_free(vf_symtab *st);

/* Evaluate an integer expression (decimal, 0x hex, symbols set with .set,
 * + - * / % << >> & | ^ ~ and parentheses) in [s, e).  0 or -1. */
int vf_expr(const vf_symtab *st, const char *s, const char *e, int64_t *out);

/* Parse a register operand at [s, e) (modifiers -, |, abs(), neg() skipped):
 * 1 and *slot, *n for v/s/a/acc/ttmp/vcc registers, 0 for anything else
 * (immediates, labels, exec, m0, null...), -1 for a register that is out of
 * range or whose index does not evaluate. */
int vf_parse_reg(const vf_symtab *st, const char *s, const char *e, uint16_t *slot, uint8_t *n);

typedef struct vf_prog vf_prog;
struct vf_prog {
	const char *text;
	size_t len;
	const vf_isa *isa;
	int objdump;
	vf_inst *insts;
	size_t ninst, cap_inst;
	vf_op *ops;
	size_t nops, cap_ops;
	vf_wait *waits;
	size_t nwaits, cap_waits;
	int64_t *addr;       /* objdump: address of each instruction; else NULL */
	size_t cap_addr;
	vf_func *funcs;
	size_t nfuncs, cap_funcs;
	uint64_t nlines;
	size_t max_instructions;
	size_t max_memory;   /* kw_verify_opts.max_memory, resolved (read.c) */
	int assume_atomic_counters; /* kw_verify_opts.assume_atomic_counters, or an
				     * inline `kwgen-verify: assume atomic-counters` */
	uint64_t assume_line;        /* the line of that inline comment (first); 0 = none */
	vf_symtab syms;
	size_t nbranch_unresolved;
	kw_arena xtext;      /* macro expansions (stable addresses) */
};


/* ---- result and findings (findings.c) ---- */
typedef struct vf_rule {
	int code;            /* -1 = any */
	char *func_glob, *mnem_glob, *counter, *reg;
	int64_t line, offset; /* -1 = any */
} vf_rule;

struct kw_verify_result {
	char isa[32];
	kw_verify_finding *f;
	size_t n, cap, max;
	uint64_t totals[KW_VF_CODE_COUNT];
	uint64_t suppressed;
	kw_verify_stats stats;
	kw_arena arena;      /* strings of the findings */
	char *filename;
	vf_rule *rules;
	size_t nrules;
	int no_redundant;
	/* text decoded from data words: findings name the source lines
	 * (kw_verify_opts.source_lines; src_prog: the decoded text's
	 * instructions, their lines and addresses), set during the analysis */
	const struct kw_verify_word_line *src;
	size_t nsrc;
	const struct vf_prog *src_prog;
	/* the atomic-counter assumption: where it came from (kw_verify_from),
	 * the line of the suppression rule or inline comment that asked for it
	 * (0 = none), the findings the analysis without it reports beyond this
	 * one's (-1 = not counted: that analysis passed a bound) */
	int assume_from;
	uint64_t assume_line;
	int64_t ruled_out;
	uint64_t atomics;    /* counter atomics with glc (vf_analyze) */
};

/* A finding about to be added: strings are copied. */
typedef struct vf_finding_in {
	int code;
	int64_t line, offset, producer_line, producer_offset;
	int needed, have;
	const char *counter, *reg, *function, *mnemonic;
	size_t function_len, mnemonic_len;
	uint8_t allow;       /* the instruction's inline allow bits */
	const char *message;
	const int64_t *also; /* lines of the other uses it stands for (any order) */
	size_t nalso;
	const kw_verify_use *uses; /* every use it stands for, by line (decoded lines) */
	size_t nuses;
} vf_finding_in;

int vf_result_new(kw_verify_result **out, const kw_verify_opts *o, kw_error *err);
int vf_rules_parse(kw_verify_result *r, const char *text, kw_error *err);
/* 0, or KW_ENOMEM. */
int vf_finding_add(kw_verify_result *r, const vf_finding_in *in);
/* 1 if vf_finding_add would count in as suppressed (an inline allow or a
 * suppression rule), else 0. */
int vf_finding_hidden(const kw_verify_result *r, const vf_finding_in *in);
/* Finding i (added by vf_finding_add) met again on another path (partition
 * or calling context) that needs a smaller count: it takes that path's
 * count, wait and message, so its fix covers every path.  0, or KW_ENOMEM. */
int vf_finding_tighten(kw_verify_result *r, size_t i, int needed, int have, const char *message);
void vf_findings_sort(kw_verify_result *r);

/* ---- reading (read.c), operands (operand.c) ---- */
int vf_read(vf_prog *p, const char *text, size_t len, const char *isa_name, kw_error *err);
/* The default memory bound of reading a len-byte text: 16 x len + 96 MiB. */
size_t vf_default_memory(size_t len);
void vf_prog_free(vf_prog *p);


/* ---- scalar register facts along a path (sfacts.c; decoding sfacts_decode.c, transfer
 * sfacts_step.c, messages sfacts_describe.c) ----
 * Per SGPR (s0..s105; vcc and ttmp are never tracked) a sound
 * over-approximation of its value: an unsigned and a signed interval, an
 * optional small set of exact values, up to VF_EXCLK values it cannot hold
 * (a failed equality test), and an optional relation to another
 * SGPR (reg = base + c, reg = base >> c, or reg <= base + c).  SCC: unknown, a constant, or
 * the comparison that last set it.  A register without a fact is unknown. */
#define VF_SETK 16
#define VF_EXCLK 4
#define VF_NSGPR 106
/* VF_REL_LE: reg <= (base + c mod 2^32), unsigned (the value a counter
 * atomic returned, bounded by its data; kw_verify_opts.assume_atomic_counters) */
enum { VF_REL_NONE = 0, VF_REL_ADD, VF_REL_SHR, VF_REL_LE };
enum { VF_CMP_EQ = 0, VF_CMP_NE, VF_CMP_LT, VF_CMP_LE, VF_CMP_GT, VF_CMP_GE };

typedef struct vf_sfact {
	uint8_t reg;
	uint8_t nset;              /* 0: no set; else set[0..nset) sorted, distinct */
	uint8_t rel, base;
	uint8_t tested;            /* narrowed by a branch condition (for messages) */
	uint32_t why;              /* the branch that narrowed it (messages only, never
				      compared): instruction index + 1, VF_WHY_TAKEN
				      when its taken edge; 0 none or several */
	uint32_t atom;             /* the value a counter atomic (s_atomic_dec / _inc with
				      glc) returned: its instruction index + 1 (messages);
				      0 none */
	uint8_t nexcl;             /* values it cannot hold: excl[0..nexcl) */
	uint32_t excl[VF_EXCLK];
	uint32_t c;
	uint32_t ulo, uhi;
	int32_t slo, shi;
	uint32_t set[VF_SETK];
} vf_sfact;

typedef struct vf_scc {
	uint8_t kind;              /* 0 unknown, 1 constant (val), 2 comparison */
	uint8_t val, op, sgn;
	int16_t a, b;              /* SGPR or -1 for the immediate ia / ib */
	uint32_t ia, ib;
} vf_scc;

#define VF_WHY_TAKEN 0x80000000u

/* The facts of one program point (dense). */
typedef struct vf_facts {
	uint8_t has[VF_NSGPR];
	vf_sfact f[VF_NSGPR];
	vf_scc scc;
	uint64_t basem[2];         /* SGPRs some fact may be related to (a superset) */
	vf_scc vcc;                /* VCC != 0 as a comparison (a uniform integer
				      v_cmp_*_e64 vcc set it); kind 0 unknown */
	uint32_t why;              /* set before vf_facts_assume_scc: the branch
				      (vf_sfact.why form) its narrowing is put on */
	uint8_t exec;              /* EXEC: 0 unknown, 1 not zero, 2 zero */
} vf_facts;

/* Sparse facts at a node's entry (sorted by reg). */
typedef struct vf_sfacts {
	vf_sfact *f;
	uint32_t n;
	uint8_t valid;
	uint8_t exec;              /* as vf_facts.exec */
	vf_scc scc, vcc;
} vf_sfacts;

/* Decoded scalar semantics of an instruction (sfacts_decode.c). */
enum { VF_S_OTHER = 0, VF_S_MOV, VF_S_MOV64, VF_S_ADD, VF_S_SUB, VF_S_ADDC, VF_S_SUBB,
       VF_S_LSHR, VF_S_LSHL, VF_S_AND, VF_S_OR, VF_S_MUL, VF_S_CMP, VF_S_GETPC,
       VF_S_SWAPPC, VF_S_SETPC, VF_S_CBR_SCC0, VF_S_CBR_SCC1, VF_S_CSELECT,
       VF_S_CMOV, VF_S_VCMP, VF_S_CBR_VCCZ, VF_S_CBR_VCCNZ, VF_S_CBR_EXECZ, VF_S_CBR_EXECNZ, VF_S_NONE,
       VF_S_ATOMIC /* d = a counter atomic's result, in [0, a] (assume_atomic_counters) */ };
typedef struct vf_sop {
	uint8_t op, cmp, sgn, keepscc; /* keepscc: the instruction does not write SCC */
	uint8_t carry;             /* ADD/SUB: u32 forms set SCC to the carry */
	uint8_t vccw;              /* may write VCC (names it) */
	uint8_t execw;             /* may write EXEC (names it, or a v_cmpx) */
	uint8_t exec_set;          /* execw: EXEC after it, as vf_facts.exec */
	int16_t d, a, b;           /* SGPR index, -1 none / immediate */
	uint8_t dn, ak, bk;        /* dest count; a/b known (register or immediate) */
	uint32_t ia, ib;
	uint32_t atom;             /* a 32-bit s_atomic_inc / _dec (or s_buffer_) with glc:
				      its instruction index + 1; the result register is
				      kill[0] (OTHER) or d (VF_S_ATOMIC) */
	int16_t kill[2];           /* OTHER: SGPR ranges written [kill0, kill0+killn) */
	uint8_t killn;
} vf_sop;

/* Decode every instruction of p (array of p->ninst, caller frees). */
vf_sop *vf_sops_decode(const vf_prog *p);
void vf_facts_clear(vf_facts *F);
void vf_facts_load(vf_facts *F, const vf_sfacts *s);
/* F as sparse facts in buf (VF_NSGPR entries, caller's); s->f = buf. */
void vf_facts_view(const vf_facts *F, vf_sfacts *s, vf_sfact *buf);
/* Join o into in; widen drops every fact that changed.  1 changed, 0 not,
 * -1 ENOMEM. */
int vf_sfacts_join(vf_sfacts *in, const vf_sfacts *o, int widen);
void vf_sfacts_free(vf_sfacts *s);
/* Apply instruction at (address addr, -1 unknown) to F. */
void vf_facts_step(vf_facts *F, const vf_sop *op, int64_t addr);
/* SCC now: 0, 1, or -1 unknown. */
int vf_facts_scc(const vf_facts *F);
/* Assume SCC == v; 0 if that contradicts the facts (edge not taken). */
int vf_facts_assume_scc(vf_facts *F, int v);
/* Assume VCC != 0 (s_cbranch_vccnz taken, s_cbranch_vccz not taken) after
 * a uniform integer compare: its condition holds.  0 if the facts rule it
 * out.  (VCC == 0 says nothing: EXEC may be zero.) */
int vf_facts_assume_vcc(vf_facts *F);
/* Assume EXEC != 0 (nonzero) or EXEC == 0 (s_cbranch_execz / execnz
 * edges); 0 if that contradicts what is known (a kernel starts with
 * EXEC != 0; s_mov_b64 exec, IMM sets it). */
int vf_facts_assume_exec(vf_facts *F, int nonzero);
/* Exact values (up to VF_SETK) of the 64-bit pair at SGPR r; count or -1. */
int vf_facts_values64(const vf_facts *F, int r, uint64_t *out);
/* Append a description of the narrowed facts to buf, each with the branch
 * that decided it ("s11 != 0 (s_cbranch_scc1 at line 40 taken), s12 == 2
 * (...)"; p gives lines and, for code objects, addresses), then a note
 * on a tested value a counter atomic returned, which always starts "; "
 * (so the buffer starts with ';' when it is the only thing said);
 * returns chars written. */
size_t vf_facts_describe(const vf_facts *F, const vf_prog *p, char *buf, size_t n);
/* Forget every fact (an unknown callee). */
void vf_facts_kill_all(vf_facts *F);

/* ---- analysis (cfg.c, flow.c and its parts: flow_int.h) ---- */

/* A pending write: register (or pseudo) slot, event class, number of
 * younger events of the class issued since (age), producing instruction. */
typedef struct vf_ent {
	uint16_t slot;
	uint8_t cls;
	uint8_t pad;
	uint32_t age;
	uint32_t prod;
} vf_ent;

/* Counter state at a block boundary (sparse; join = worst case). */
typedef struct vf_sstate {
	uint8_t valid;
	uint16_t unk;              /* counters with unknown pending events (callable entry) */
	uint16_t fixed;            /* counters on which a reported race assumed its fix */
	uint32_t pend[VF_NCLS];    /* events of the class that may be pending (youngest first) */
	int16_t wn[VF_NCNT];       /* last wait on the counter (message only; -1 none) */
	uint32_t wage[VF_NCLS];    /* class events since that wait (message only) */
	vf_ent *e;                 /* sorted by slot, cls */
	uint32_t n, cap;
} vf_sstate;

typedef struct vf_block {
	uint32_t first, end;       /* instructions [first, end) */
	uint32_t succ[2];
	uint8_t nsucc;
	uint8_t dirty;
	uint8_t entry;             /* 1 kernel entry, 2 callable entry */
} vf_block;

typedef struct vf_cfg {
	vf_block *b;
	size_t n;
	uint32_t *block_of;        /* instruction -> block */
} vf_cfg;

/* Basic blocks of p (cfg.c).  Unresolvable branches are reported as
 * `unsupported` into r when r is non-NULL. */
int vf_cfg_build(vf_cfg *g, const vf_prog *p, kw_error *err);
void vf_cfg_free(vf_cfg *g);
int vf_analyze(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err);
/* vf_analyze, and under the atomic-counter assumption (option, rule or
 * inline) what it applied: where from, and the findings ruled out (the
 * analysis again without it, when p has a counter atomic; verify.c). */
int vf_analyze_assumed(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err);

#endif
