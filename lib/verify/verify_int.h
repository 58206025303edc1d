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
	VF_NSLOT = 1683
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
	uint32_t text;       /* offset of the mnemonic in the input */
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
	int16_t n[VF_NCNT];  /* -1 = field not waited */
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

typedef struct vf_prog {
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
	vf_func *funcs;
	size_t nfuncs, cap_funcs;
	uint64_t nlines;
	size_t max_instructions;
} vf_prog;


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
} vf_finding_in;

int vf_result_new(kw_verify_result **out, const kw_verify_opts *o, kw_error *err);
int vf_rules_parse(kw_verify_result *r, const char *text, kw_error *err);
/* 0, or KW_ENOMEM. */
int vf_finding_add(kw_verify_result *r, const vf_finding_in *in);
void vf_findings_sort(kw_verify_result *r);

/* ---- reading (read.c), operands (operand.c) ---- */
int vf_read(vf_prog *p, const char *text, size_t len, const char *isa_name, kw_error *err);
void vf_prog_free(vf_prog *p);

/* ---- analysis (cfg.c, flow.c) ---- */
int vf_analyze(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err);

#endif
