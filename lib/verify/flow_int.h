/* flow_int.h - the wait-count data-flow's state, shared by its parts:
 * flow.c (the graph of nodes, successors, vf_analyze), flow_state.c (dense
 * state, save / load / join), flow_wait.c (waits, hazards, one instruction),
 * flow_emit.c (findings and their text), flow_path.c (paths a finding
 * names) and flow_call.c (calls and calling contexts). */
#ifndef KWGEN_VERIFY_FLOW_INT_H
#define KWGEN_VERIFY_FLOW_INT_H

#include "verify/verify_int.h"

#include <stddef.h>
#include <stdint.h>

#define BASE (1u << 30)

/* A calling context: the call site and the context it was made in. */
typedef struct vf_ctx {
	uint32_t parent, site, depth;
} vf_ctx;

typedef struct work {
	const vf_prog *p;
	const vf_isa *isa;
	kw_verify_result *r;
	/* dense state */
	uint32_t ub[VF_NCLS], lb[VF_NCLS];
	uint32_t oc[VF_NCLS];  /* out-of-order classes: bound on the ops outstanding */
	uint32_t (*score)[VF_NSLOT];
	uint32_t (*prod)[VF_NSLOT];
	uint16_t mask[VF_NSLOT];
	uint8_t indirty[VF_NSLOT];
	uint16_t dirty[VF_NSLOT];
	uint32_t ndirty;
	uint16_t unk, fixed;
	int16_t wn[VF_NCNT];
	uint32_t wub[VF_NCLS];
	/* per-counter class lists */
	uint8_t ccls[VF_NCNT][VF_NCLS];
	uint8_t nccls[VF_NCNT];
	uint16_t vcnt_mask, scnt_mask; /* counters whose events write VGPRs / SGPRs */
	int report, unreachable;
	int rc;
	vf_ent *tmp;
	uint32_t tmpcap;
	/* path facts and calls */
	vf_facts F, F2;
	vf_sfact obuf[VF_NSGPR], ebuf[VF_NSGPR];
	vf_sop *sops;
	struct addr_ent *amap;     /* objdump: address -> instruction, sorted */
	size_t namap;
	const vf_cfg *g;
	uint32_t ctx;              /* context of the node being analysed */
	int ncall;                 /* resolved targets of the call ending the block */
	uint32_t call_to[VF_SETK];
	uint8_t *wseen;            /* per instruction: 1 wait reached, 2 effective */
	struct hset *seen;         /* findings already reported (contexts repeat blocks) */
	struct cause *causes;      /* unsupported, once per cause */
	size_t ncauses, capcauses;
	int call_conv;
	struct vf_ctx *ctxs;       /* calling contexts: 0 = none */
	size_t nctxs, capctxs;
	/* the reporting pass's register uses of a producer (race_raw,
	 * race_waw, lds_latency), held until the pass ends so that the uses of
	 * one producer and counter become one finding (merge_uses) */
	struct use *uses;
	size_t nuses, capuses;
	size_t ntext;              /* held uses with their text (at most r->max + 1024) */
	int defer;
} work;

/* A use of a producer's register before the producer completes, as the
 * reporting pass found it: its finding's message is head, the fix, tail
 * (head and tail NULL past the text held: a shorter head, no tail). */
struct use {
	int code, cnt, needed, have, write;
	uint32_t at;
	int64_t prod;
	char reg[32];
	char *head, *tail;
	size_t plen;               /* tail's first plen bytes: the path ("; on the paths ...") */
};

#define USE_TAG 0x80000000u /* a seen value naming a held use, not a finding */

struct addr_ent {
	int64_t a;
	uint32_t i;
};

/* open-addressing set / map of 64-bit keys */
struct hset {
	uint64_t *k;
	uint32_t *v;
	size_t cap, n;
};

struct cause {
	int kind;                  /* 1 call target unknown, 2 jump target unknown, 3 return unknown,
				      4 target not an instruction start, 5 call depth */
	int reg;
	uint32_t func, first, count;
};

/* ---- nodes: a block in a calling context ---- */

/* A node is a block in a calling context and a path partition: paths
 * whose facts about the SGPRs a later branch tests differ (part, a hash of
 * those facts) are not joined, so a second test of an unmodified register
 * sees what the first one decided.  At most MAX_PARTS partitions per block
 * and context; the paths past that share one (joined: sound, less
 * precise). */
typedef struct vf_node {
	uint32_t block, ctx;
	uint64_t part;
	uint8_t dirty, nchange;
	vf_sstate in;
	vf_sfacts fin;
} vf_node;

typedef struct graph {
	vf_node *n;
	size_t nn, cap;
	uint32_t *slot;            /* (block, ctx, part) -> node + 1; open addressing */
	size_t nslot, capslot;
	struct hset pcount;        /* (ctx, block) -> partitions made */
	struct hset cmap;          /* (parent ctx, call site) -> ctx */
	uint64_t (*relevant)[2];   /* per block: SGPRs a later test may read (bitset) */
	int full;                  /* the node states hold half the memory bound: no new
				      partitions (new paths join the shared one) */
} graph;

typedef struct edge {
	uint32_t block, ctx;
	int cond;                  /* -1: none; 0/1: SCC on this edge; 2: VCC != 0; 3: EXEC == 0; 4: EXEC != 0 */
} edge;

static inline uint64_t hmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* slot's dense entry is live: keep it for save_state */
static inline void touch(work *w, uint16_t slot)
{
	if (!w->indirty[slot]) {
		w->indirty[slot] = 1;
		w->dirty[w->ndirty++] = slot;
	}
}

/* flow_state.c */
/* The value of key in h (open addressing); with ins, key inserted with v
 * when absent.  NULL: absent, or out of memory with ins. */
uint32_t *vf_fl_hget(struct hset *h, uint64_t key, int ins, uint32_t v);
void vf_fl_hfree(struct hset *h);
/* A block's entry state s (NULL: nothing in flight) into w's dense state. */
void vf_fl_load_state(work *w, const vf_sstate *s);
/* w's dense state as a sparse one (entries in w->tmp, *nent of them): 0,
 * or -1 out of memory. */
int vf_fl_save_state(work *w, vf_sstate *s, uint32_t *nent);
/* The saved state (*o, w->tmp[0..n)) joined into *in: 1 changed, 0 not,
 * -1 out of memory. */
int vf_fl_join(work *w, vf_sstate *in, const vf_sstate *o, uint32_t n);

/* flow_emit.c */
/* The name of counter c in w's ISA ("" for none). */
const char *vf_fl_cname(work *w, int c);
/* Register slot [slot, slot+cnt) as written: v5, v[4:7], s[8:9], a0. */
void vf_fl_reg_text(char *out, size_t n, uint16_t slot, uint8_t cnt);
/* Instruction i's mnemonic / whole text into out (n bytes). */
void vf_fl_mnem(const vf_prog *p, uint32_t i, char *out, size_t n);
void vf_fl_inst_text(const vf_prog *p, uint32_t i, char *out, size_t n);
/* A finding of code at instruction at (prod: the producer, -1 none; cnt:
 * the counter, -1 none; needed, have: -1 none), once per (code, at, prod):
 * met again, it keeps the smallest count.  Only in the reporting pass. */
void vf_fl_emit(work *w, int code, uint32_t at, const char *reg, int64_t prod, int cnt,
		int needed, int have, const char *msg);
/* A register use of a producer (race_raw, race_waw, lds_latency): held
 * during the reporting pass for vf_fl_merge_uses, else a finding at once. */
void vf_fl_emit_use(work *w, const struct use *u);
void vf_fl_free_uses(work *w);
/* The held uses as findings: one per producer, counter and code. */
void vf_fl_merge_uses(work *w);
/* Branches whose target is not in the text; one `unsupported` per cause
 * (vf_fl_note_cause); waits that wait for nothing on every path. */
void vf_fl_report_cfg(work *w, const vf_cfg *g);
void vf_fl_report_causes(work *w);
void vf_fl_report_redundant(work *w);

/* flow_wait.c */
/* Instruction at through w's state: its waits, hazards (findings in the
 * reporting pass), the events it issues and its SGPR facts. */
void vf_fl_step(work *w, uint32_t at);

/* flow_path.c */
/* The fixed point's min-heap of block << 32 | node keys. */
void vf_fl_heap_push(uint64_t *h, size_t *n, uint64_t v);
uint64_t vf_fl_heap_pop(uint64_t *h, size_t *n);
/* The least instructions (path_distance) or, with matrix, matrix ops
 * (path_cost) on a path from prod to at passing no wait on counter c (c <
 * 0: any); UINT32_MAX if none is found. */
uint32_t vf_fl_path_distance(const work *w, uint32_t prod, uint32_t at, int c);
uint32_t vf_fl_path_cost(const work *w, uint32_t prod, uint32_t at, int c, int matrix);
/* The path of the finding about to be made: "; on the paths where ..." and
 * the calls it is inside, or "" (out: n bytes). */
void vf_fl_path_text(const work *w, char *out, size_t n);

/* flow_call.c */
void vf_fl_note_cause(work *w, int kind, int reg, uint32_t at);
/* The instruction at byte address a (objdump form), or -1. */
int64_t vf_fl_inst_at_addr(const work *w, uint64_t a);
/* 1 if instruction t starts a block. */
int vf_fl_is_block_start(const work *w, int64_t t);
/* The targets of the call at `at` into w->call_to: 1, or 0 unknown. */
int vf_fl_resolve_call(work *w, uint32_t at);
int64_t vf_fl_ctx_get(work *w, graph *G, uint32_t parent, uint32_t site);

#endif
