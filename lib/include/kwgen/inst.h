/*
 * kwgen/inst.h - the instructions the seed builds (rendering.md §7-§10) as
 * items of a module tree, and how each renders on the current ISA.
 *
 * Items live in a kw_arena (kwgen/buf.h) and are freed with it.  Every
 * constructor returns NULL when the arena is out of memory.  Comments are
 * stored by pointer: pass a static string or one allocated in the same
 * arena.  "" means no comment.
 */
#ifndef KWGEN_INST_H
#define KWGEN_INST_H

#include <stddef.h>
#include <stdint.h>

#include "kwgen/arch.h"
#include "kwgen/buf.h"
#include "kwgen/diag.h"
#include "kwgen/reg.h"

typedef enum kw_op {
	KW_OP_V_ACCVGPR_READ_B32,
	KW_OP_V_ACCVGPR_WRITE_B32,
	KW_OP_V_FMA_F32,
	KW_OP_V_FMA_F64,
	KW_OP_V_LSHLREV_B64,
	KW_OP_V_MOV_B32,
	KW_OP_V_MOVRELSD_2_B32,
	KW_OP_V_MUL_F32,
	KW_OP_V_MUL_F64,
	KW_OP_V_MUL_LO_U32,
	KW_OP_V_PK_MUL_F16,
	KW_OP_S_MOV_B32,
	KW_OP_COUNT
} kw_op;

typedef enum kw_item_kind {
	KW_ITEM_INST,      /* a CommonInstruction: mnemonic dst, srcs */
	KW_ITEM_WAITCNT,   /* SWaitCnt: split at render time from asmCaps */
	KW_ITEM_TENSORCNT, /* SWaitTensorcnt */
	KW_ITEM_BARRIER,   /* SBarrier, text fixed at construction */
	KW_ITEM_TEXT,      /* TextBlock (addComment) */
	KW_ITEM_MODULE     /* Module: items, possibly with empty slots */
} kw_item_kind;

typedef struct kw_operand {
	uint8_t is_reg;
	kw_reg reg;
	int64_t imm;
} kw_operand;

typedef struct kw_item kw_item;

struct kw_item {
	uint8_t kind;          /* kw_item_kind */
	uint8_t op;            /* kw_op for KW_ITEM_INST */
	uint8_t nsrc;
	uint8_t new_barrier;   /* SBarrier: HasNewBarrier when constructed */
	const char *comment;
	/* When comment_tail is set the comment is comment + decimal(comment_num)
	 * + comment_tail (the seed's "copy acc to vreg[%u]"), formatted while
	 * rendering instead of per item. */
	const char *comment_tail;
	int64_t comment_num;
	union {
		struct {
			kw_reg dst;
			kw_operand src[3];
		} inst;
		struct {
			int64_t vlcnt, vscnt, dscnt, kmcnt;
			int wait_all;
		} wait;
		int64_t tensorcnt;
		struct {
			const int64_t *tokens; /* memory token, never printed */
			size_t ntokens;
		} barrier;
		const char *text;
		struct {
			const char *name;
			kw_item **items;   /* NULL entries are empty slots */
			size_t n, cap;
		} mod;
	} u;
};

/* Name-to-index map of rocisa's setVgprIdx (gfx1250 bank selection). */
typedef struct kw_vgpr_name {
	const char *name;
	int64_t idx;
} kw_vgpr_name;

/* Everything rendering reads and the VGPR-MSB state it carries. */
typedef struct kw_render_ctx {
	const kw_isa_info *isa;
	const kw_caps *caps;
	int output_no_comment;
	int64_t vgpr_msb;             /* state; 0 after setKernel */
	const kw_vgpr_name *vgpr_idx;
	size_t n_vgpr_idx;
	kw_diags *diags;              /* may be NULL */
} kw_render_ctx;

const char *kw_op_mnemonic(kw_op op);

/* CommonInstruction with a register dst and n sources (registers or immediates). */
kw_item *kw_inst(kw_arena *a, kw_op op, kw_reg dst, int nsrc, const kw_operand *src, const char *comment);
static inline kw_operand kw_opr(kw_reg r) { kw_operand o; o.is_reg = 1; o.reg = r; o.imm = 0; return o; }
static inline kw_operand kw_imm(int64_t v) { kw_operand o = { 0 }; o.is_reg = 0; o.imm = v; return o; }

/* Give it the comment prefix + decimal(num) + tail (both static strings). */
static inline kw_item *kw_inst_comment_num(kw_item *it, const char *prefix, int64_t num, const char *tail)
{
	if (it) {
		it->comment = prefix;
		it->comment_num = num;
		it->comment_tail = tail;
	}
	return it;
}

/* SWaitCnt(vlcnt, vscnt, dscnt, kmcnt, comment, waitAll); -1 = no wait on that counter. */
kw_item *kw_swaitcnt(kw_arena *a, int64_t vlcnt, int64_t vscnt, int64_t dscnt, int64_t kmcnt,
		     const char *comment, int wait_all);
kw_item *kw_swait_tensorcnt(kw_arena *a, int64_t tensorcnt, const char *comment);
/* SBarrier: the text is chosen now from caps (HasNewBarrier). */
kw_item *kw_sbarrier(kw_arena *a, const kw_caps *caps, const char *comment);
/* TextBlock with the exact text (e.g. "// c\n"). */
kw_item *kw_text(kw_arena *a, const char *text);

/* Render one non-module item (appends to b).  0, or KW_ENOMEM. */
int kw_item_render(kw_buf *b, const kw_item *it, kw_render_ctx *ctx);

/* line(text, comment) of rendering.md §4 for text already at b[start..]. */
void kw_line_finish(kw_buf *b, size_t start, const char *comment, int no_comment);

#endif
