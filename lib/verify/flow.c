/* flow.c - forward data-flow of the wait counters over the CFG.
 *
 * State (after SIInsertWaitcnts.cpp's WaitcntBrackets, commit 007560ecefea):
 * per event class a score bracket [lb, ub] and per register slot the score
 * of its youngest pending write.  Unlike LLVM, which keeps one timeline per
 * counter and waits for 0 as soon as event kinds mix (counterOutOfOrder,
 * hasMixedPendingEvents), the verifier keeps one timeline per event class,
 * as the file's TODO describes ("keeps one timeline per event type"): a wait
 * cnt(N) completes an op of an in-order class once N younger ops of the
 * same class have issued; out-of-order classes (SMEM, messages, GDS, FLAT)
 * complete only at cnt(0).  A counter holds at most its all-ones value of
 * ops (back-pressure): after that many younger same-class ops an op is
 * complete (ROCm/rocm-systems#11202).
 *
 * Blocks start from a joined state (WaitcntBrackets::merge: the pending
 * window is the larger one, each register keeps its worst score); the
 * iteration repeats until no block's entry state changes (runOnMachineFunction's
 * "Keep iterating ... until a fix point is reached"), bounded by max_work.
 * Findings come from one last pass over the fixed point.
 *
 * This file: the graph of nodes (a block in a calling context and a path
 * partition), their successors and vf_analyze; the rest is flow_state.c,
 * flow_wait.c, flow_emit.c, flow_path.c and flow_call.c (flow_int.h). */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 16: none of the 1,325 infeasible-labelled Tensile races remains, at about
 * 2x the path-blind time; 8 leaves 124, 4 leaves 428. */
#define MAX_PARTS 16
#define PART_OVERFLOW UINT64_MAX

#define WIDEN_AFTER 6

/* ---- driver ---- */

static void init_work(work *w, const vf_prog *p, kw_verify_result *r)
{
	const vf_isa *isa = p->isa;

	w->p = p;
	w->isa = isa;
	w->r = r;
	for (int k = 0; k < VF_NCLS; k++) {
		int c = isa->cls_cnt[k];
		if (c >= 0)
			w->ccls[c][w->nccls[c]++] = (uint8_t)k;
	}
	/* counters whose events write VGPRs / SGPRs (for the unknown entry state) */
	w->vcnt_mask = (uint16_t)((1u << VF_C_VM) | (1u << VF_C_LGKM) | (1u << VF_C_EXP) |
				  (1u << VF_C_SAMPLE) | (1u << VF_C_BVH));
	w->scnt_mask = (uint16_t)(1u << (isa->gen >= 12 ? VF_C_KM : VF_C_LGKM));
}

static uint64_t node_hash(uint32_t block, uint32_t ctx, uint64_t part)
{
	return hmix(((uint64_t)ctx << 32 | block) ^ hmix(part + 0x9e3779b97f4a7c15ull));
}

static int64_t node_find(graph *G, uint32_t block, uint32_t ctx, uint64_t part)
{
	size_t i;

	if (!G->capslot)
		return -1;
	i = node_hash(block, ctx, part) & (G->capslot - 1);
	while (G->slot[i]) {
		const vf_node *n = &G->n[G->slot[i] - 1];
		if (n->block == block && n->ctx == ctx && n->part == part)
			return G->slot[i] - 1;
		i = (i + 1) & (G->capslot - 1);
	}
	return -1;
}

static int node_index(graph *G, uint32_t idx)
{
	size_t i;

	if ((G->nslot + 1) * 2 > G->capslot) {
		size_t nc = G->capslot ? G->capslot * 2 : 4096;
		uint32_t *ns = calloc(nc, sizeof(*ns));
		if (!ns)
			return -1;
		for (size_t j = 0; j < G->capslot; j++) {
			const vf_node *n;
			if (!G->slot[j])
				continue;
			n = &G->n[G->slot[j] - 1];
			i = node_hash(n->block, n->ctx, n->part) & (nc - 1);
			while (ns[i])
				i = (i + 1) & (nc - 1);
			ns[i] = G->slot[j];
		}
		free(G->slot);
		G->slot = ns;
		G->capslot = nc;
	}
	i = node_hash(G->n[idx].block, G->n[idx].ctx, G->n[idx].part) & (G->capslot - 1);
	while (G->slot[i])
		i = (i + 1) & (G->capslot - 1);
	G->slot[i] = idx + 1;
	G->nslot++;
	return 0;
}

static int64_t node_get(graph *G, const vf_cfg *g, uint32_t block, uint32_t ctx, uint64_t part)
{
	int64_t f;
	uint32_t *cnt;

	(void)g;
	if (!ctx && !part)
		return block;
	f = node_find(G, block, ctx, part);
	if (f >= 0)
		return f;
	if (G->full && part != PART_OVERFLOW && (ctx || part))
		return node_get(G, g, block, ctx, PART_OVERFLOW);
	if (part != PART_OVERFLOW) {
		cnt = vf_fl_hget(&G->pcount, (uint64_t)ctx << 32 | block, 1, 0);
		if (!cnt)
			return -1;
		if (*cnt >= MAX_PARTS - 1)
			return node_get(G, g, block, ctx, PART_OVERFLOW);
		(*cnt)++;
	}
	if (G->nn == G->cap) {
		size_t nc = G->cap * 2;
		vf_node *gn = realloc(G->n, nc * sizeof(*gn));
		if (!gn)
			return -1;
		G->n = gn;
		G->cap = nc;
	}
	memset(&G->n[G->nn], 0, sizeof(G->n[0]));
	G->n[G->nn].block = block;
	G->n[G->nn].ctx = ctx;
	G->n[G->nn].part = part;
	if (node_index(G, (uint32_t)G->nn))
		return -1;
	return (int64_t)G->nn++;
}

/* Partition of facts entering block b: a hash of the tested facts of the
 * registers a later test may read (0: none). */
static uint64_t part_of(const graph *G, uint32_t b, const vf_sfacts *f)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i < f->n; i++) {
		const vf_sfact *x = &f->f[i];
		if (!x->tested || !((G->relevant[b][x->reg >> 6] >> (x->reg & 63)) & 1))
			continue;
		h = hmix(h ^ ((uint64_t)x->reg << 56 | (uint64_t)x->ulo << 24 | x->nset));
		h = hmix(h ^ ((uint64_t)x->uhi << 32 | (uint32_t)x->slo));
		h = hmix(h ^ (uint32_t)x->shi);
		for (uint8_t k = 0; k < x->nset; k++)
			h = hmix(h ^ x->set[k]);
		for (uint8_t k = 0; k < x->nexcl; k++)
			h = hmix(h ^ ((uint64_t)1 << 40) ^ x->excl[k]);
	}
	if (h == PART_OVERFLOW)
		h--;
	return h;
}

#define BIT(set, r) (((set)[(r) >> 6] >> ((r) & 63)) & 1)
#define SETB(set, r) ((set)[(r) >> 6] |= 1ull << ((r) & 63))
#define CLRB(set, r) ((set)[(r) >> 6] &= ~(1ull << ((r) & 63)))

/* Backward: the SGPRs whose value may reach an s_cmp (directly or through
 * s_mov / s_add / s_sub / shifts by constants) before it is overwritten. */
static void relevance_step(const vf_sop *o, uint64_t *live)
{
	int d = o->d;

	switch (o->op) {
	case VF_S_CMP:
	case VF_S_VCMP:
		if (o->a >= 0 && o->a < VF_NSGPR)
			SETB(live, o->a);
		if (o->b >= 0 && o->b < VF_NSGPR)
			SETB(live, o->b);
		return;
	case VF_S_CMOV:
		/* d = SCC ? a : d: d stays live when it was */
		if (d >= 0 && d < VF_NSGPR && BIT(live, d) && o->a >= 0 && o->a < VF_NSGPR)
			SETB(live, o->a);
		return;
	case VF_S_MOV:
	case VF_S_CSELECT:
	case VF_S_ADD:
	case VF_S_SUB:
	case VF_S_LSHR:
	case VF_S_LSHL:
	case VF_S_AND:
	case VF_S_OR:
	case VF_S_MUL:
	case VF_S_ADDC:
	case VF_S_SUBB:
		if (d >= 0 && d < VF_NSGPR && BIT(live, d)) {
			CLRB(live, d);
			if (o->a >= 0 && o->a < VF_NSGPR)
				SETB(live, o->a);
			if (o->b >= 0 && o->b < VF_NSGPR)
				SETB(live, o->b);
		} else if (d >= 0 && d < VF_NSGPR) {
			CLRB(live, d);
		}
		return;
	case VF_S_MOV64:
		if (d >= 0 && d + 1 < VF_NSGPR) {
			int any = BIT(live, d) || BIT(live, d + 1);
			CLRB(live, d);
			CLRB(live, d + 1);
			if (any && o->a >= 0 && o->a + 1 < VF_NSGPR) {
				SETB(live, o->a);
				SETB(live, o->a + 1);
			}
		}
		return;
	default:
		if (d >= 0)
			for (int i = 0; i < (o->dn ? o->dn : 1) && d + i < VF_NSGPR; i++)
				CLRB(live, d + i);
		for (int k = 0; k < 2; k++)
			if (o->kill[k] >= 0)
				for (int i = 0; i < (o->killn ? o->killn : 1) && o->kill[k] + i < VF_NSGPR; i++)
					CLRB(live, o->kill[k] + i);
		return;
	}
}

static int relevance(graph *G, const vf_cfg *g, const vf_sop *sops)
{
	int changed = 1;

	G->relevant = calloc(g->n ? g->n : 1, sizeof(*G->relevant));
	if (!G->relevant)
		return -1;
	for (int pass = 0; changed && pass < 32; pass++) {
		changed = 0;
		for (size_t b = g->n; b-- > 0;) {
			const vf_block *bl = &g->b[b];
			uint64_t live[2] = { 0, 0 };
			for (int s2 = 0; s2 < bl->nsucc; s2++) {
				live[0] |= G->relevant[bl->succ[s2]][0];
				live[1] |= G->relevant[bl->succ[s2]][1];
			}
			for (uint32_t i = bl->end; i-- > bl->first;)
				relevance_step(&sops[i], live);
			if (live[0] != G->relevant[b][0] || live[1] != G->relevant[b][1]) {
				G->relevant[b][0] = live[0];
				G->relevant[b][1] = live[1];
				changed = 1;
			}
		}
	}
	return 0;
}

/* Successors of the node just stepped (w's state is its exit state). */
/* The condition a conditional branch's two edges carry (edge.cond): on
 * the taken edge and on the fall-through.  0 / 1: SCC; 2: VCC != 0 (only
 * that edge says something: VCC == 0 may be an empty EXEC whatever the
 * compare said); 3: EXEC == 0, 4: EXEC != 0; -1: nothing known.  0 when
 * the branch tests none of these. */
static int cbranch_conds(int op, int *on_taken, int *on_fall)
{
	switch (op) {
	case VF_S_CBR_SCC0: *on_taken = 0; *on_fall = 1; return 1;
	case VF_S_CBR_SCC1: *on_taken = 1; *on_fall = 0; return 1;
	case VF_S_CBR_VCCZ: *on_taken = -1; *on_fall = 2; return 1;
	case VF_S_CBR_VCCNZ: *on_taken = 2; *on_fall = -1; return 1;
	case VF_S_CBR_EXECZ: *on_taken = 3; *on_fall = 4; return 1;
	case VF_S_CBR_EXECNZ: *on_taken = 4; *on_fall = 3; return 1;
	default: return 0;
	}
}

static int successors(work *w, const vf_cfg *g, graph *G, uint32_t b, edge *e)
{
	const vf_prog *p = w->p;
	const vf_block *bl = &g->b[b];
	uint32_t at = bl->end - 1;
	const vf_inst *last = &p->insts[at];
	const vf_sop *o = &w->sops[at];
	int n = 0, on_taken, on_fall;

	if (last->kind == VF_I_CALL && w->ncall > 0) {
		int64_t c = vf_fl_ctx_get(w, G, w->ctx, at);
		if (c < 0)
			return -1;
		for (int i = 0; i < w->ncall; i++)
			e[n++] = (edge){ g->block_of[w->call_to[i]], (uint32_t)c, -1 };
		return n;
	}
	if (last->kind == VF_I_SETPC) {
		uint64_t v[VF_SETK];
		int nv = o->op == VF_S_SETPC && w->amap ? vf_facts_values64(&w->F, o->a, v) : -1;
		const vf_func *f = p->nfuncs ? &p->funcs[last->func] : NULL;
		if (nv <= 0) {
			if (w->ctx)
				vf_fl_note_cause(w, 3, o->a, at);
			else if (f && f->kernel)
				vf_fl_note_cause(w, 2, o->a, at);
			return 0; /* a callable function's return */
		}
		for (int i = 0; i < nv; i++) {
			int64_t t;
			uint32_t c = w->ctx;
			/* the saved return address of the current call: back to its site */
			if (c && w->ctxs[c].site + 1 < p->ninst &&
			    (uint64_t)p->addr[w->ctxs[c].site] + 4 == v[i]) {
				e[n++] = (edge){ g->block_of[w->ctxs[c].site + 1], w->ctxs[c].parent, -1 };
				continue;
			}
			t = vf_fl_inst_at_addr(w, v[i]);
			if (!vf_fl_is_block_start(w, t)) {
				vf_fl_note_cause(w, 4, o->a, at);
				continue;
			}
			e[n++] = (edge){ g->block_of[t], c, -1 };
		}
		return n;
	}
	if (last->kind == VF_I_CBRANCH && bl->nsucc == 2 && last->aux < p->ninst &&
	    cbranch_conds(o->op, &on_taken, &on_fall)) {
		for (int i = 0; i < 2; i++) {
			int taken = bl->succ[i] == g->block_of[last->aux];
			e[n++] = (edge){ bl->succ[i], w->ctx, taken ? on_taken : on_fall };
		}
		return n;
	}
	for (int i = 0; i < bl->nsucc; i++)
		e[n++] = (edge){ bl->succ[i], w->ctx, -1 };
	return n;
}

static int cmp_addr_ent(const void *a, const void *b)
{
	const struct addr_ent *x = a, *y = b;

	return x->a < y->a ? -1 : (x->a > y->a ? 1 : (x->i < y->i ? -1 : x->i > y->i));
}

static void entry_state(vf_sstate *in, int entry, const vf_isa *isa)
{
	memset(in, 0, sizeof(*in));
	in->valid = 1;
	for (int c = 0; c < VF_NCNT; c++)
		in->wn[c] = -1;
	for (int k = 0; k < VF_NCLS; k++)
		in->wage[k] = UINT32_MAX;
	/* a callable function's callers may leave anything in flight;
	 * LLVM waits for it at function entry (SIInsertWaitcnts: the
	 * callee "is going to insert a wait on everything in its
	 * prolog", callWaitsOnFunctionEntry) */
	if (entry == 2)
		in->unk = (uint16_t)isa->entry_unknown;
}

/* What vf_analyze allocated for w (NULL: nothing). */
static void work_free(work *w)
{
	if (!w)
		return;
	free(w->tmp);
	free(w->score);
	free(w->prod);
	free(w->sops);
	free(w->wseen);
	free(w->ctxs);
	free(w->amap);
	free(w->causes);
	vf_fl_free_uses(w);
	free(w);
}

int vf_analyze(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err)
{
	work *w;
	vf_cfg g;
	graph G;
	uint64_t work_done = 0, max_work;
	uint64_t need = 0, held = 0, sbound; /* bytes: what the analysis starts with; its node states */
	uint64_t *heap = NULL;
	size_t nheap = 0, capheap = 0;
	int rc, ok;
	struct hset seen;

	r->stats.instructions = p->ninst;
	r->stats.functions = p->nfuncs;
	for (size_t i = 0; i < p->ninst; i++)
		r->stats.waits += p->insts[i].kind == VF_I_WAIT;
	if (!p->ninst)
		return 0;
	{
		/* the text and what reading holds, and what the analysis
		 * allocates per instruction (its CFG map, decoded scalar ops,
		 * wait marks, the address map and qsort's copy of it) count
		 * against the verification's memory bound */
		need = (uint64_t)p->len + (uint64_t)p->cap_inst * sizeof(vf_inst) +
				(uint64_t)p->cap_addr * sizeof(int64_t) + (uint64_t)p->cap_ops * sizeof(vf_op) +
				(uint64_t)p->cap_waits * sizeof(vf_wait) +
				(uint64_t)p->ninst * (sizeof(uint32_t) + sizeof(vf_sop) + 1 +
						      (p->addr ? 2 * sizeof(struct addr_ent) : 0));
		if (p->max_memory && need > p->max_memory)
			return kw_error_set(err, KW_ELIMIT, "max_memory",
					    "analysing %zu instructions would hold more than %zu bytes (the "
					    "memory bound of one verification: 16 x the input + 96 MiB unless "
					    "set: kwgen verify --max-memory, kwgend --max-verify-memory)",
					    p->ninst, p->max_memory);
	}
	rc = vf_cfg_build(&g, p, err);
	if (rc)
		return rc;
	r->stats.blocks = g.n;
	memset(&G, 0, sizeof(G));
	memset(&seen, 0, sizeof(seen));
	w = calloc(1, sizeof(*w));
	if (w) {
		w->score = malloc(sizeof(uint32_t[VF_NCLS][VF_NSLOT]));
		w->prod = malloc(sizeof(uint32_t[VF_NCLS][VF_NSLOT]));
		w->sops = vf_sops_decode(p);
		w->wseen = calloc(p->ninst, 1);
		w->ctxs = calloc(16, sizeof(*w->ctxs));
		w->capctxs = 16;
		w->nctxs = 1;
		G.cap = g.n + 64;
		G.nn = g.n;
		G.n = calloc(G.cap, sizeof(*G.n));
		if (p->addr) {
			w->amap = malloc(p->ninst * sizeof(*w->amap));
			if (w->amap) {
				for (size_t i = 0; i < p->ninst; i++)
					w->amap[i] = (struct addr_ent){ p->addr[i], (uint32_t)i };
				qsort(w->amap, p->ninst, sizeof(*w->amap), cmp_addr_ent);
				w->namap = p->ninst;
			}
		}
	}
	ok = w && w->score && w->prod && w->sops && w->wseen && w->ctxs && G.n && !(p->addr && !w->amap);
	for (size_t i = 0; ok && i < p->ninst; i++)
		r->atomics += w->sops[i].atom != 0;
	if (ok) {
		init_work(w, p, r);
		w->g = &g;
		ok = !relevance(&G, &g, w->sops);
	}
	if (!ok) {
		work_free(w);
		free(G.n);
		vf_cfg_free(&g);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	max_work = o && o->max_work ? o->max_work : (uint64_t)p->ninst * 256 + (1u << 20);
	/* the node states' bound: proportional to the instructions (a text of
	 * a few bytes a branch must not cost gigabytes), never below the
	 * verification's own memory bound */
	sbound = (uint64_t)p->ninst * 8192 + ((uint64_t)64 << 20);
	if (p->max_memory > sbound)
		sbound = p->max_memory;
	for (size_t b = 0; b < g.n; b++) {
		G.n[b].block = (uint32_t)b;
		G.n[b].ctx = 0;
	}

	/* entry states */
	rc = 0;
	for (size_t b = 0; b < g.n && !rc; b++) {
		vf_block *bl = &g.b[b];
		if (!bl->entry)
			continue;
		entry_state(&G.n[b].in, bl->entry, p->isa);
		G.n[b].fin.valid = 1;
		/* a wave starts with at least one lane on; a callable
		 * function may be entered with any EXEC */
		G.n[b].fin.exec = bl->entry == 1 ? 1 : 0;
		G.n[b].dirty = 1;
		if (nheap == capheap) {
			size_t nc = capheap ? capheap * 2 : 256;
			uint64_t *gh = realloc(heap, nc * sizeof(*gh));
			if (!gh) {
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
				break;
			}
			heap = gh;
			capheap = nc;
		}
		vf_fl_heap_push(heap, &nheap, (uint64_t)b << 32 | b);
	}
	/* fixed point: a min-heap of dirty nodes, so the lowest (program
	 * order, calling contexts after) dirty node goes next */
	while (nheap && !rc) {
		uint32_t nid = (uint32_t)vf_fl_heap_pop(heap, &nheap);
		vf_node *nd = &G.n[nid];
		const vf_block *bl = &g.b[nd->block];
		vf_sstate out;
		vf_sfacts ofacts;
		uint32_t n;
		edge e[VF_SETK + 2];
		int ne;

		nd->dirty = 0;
		work_done += bl->end - bl->first;
		if (work_done > max_work) {
			rc = kw_error_set(err, KW_ELIMIT, "max_work",
					  "the data-flow did not settle within %llu instruction "
					  "visits (max_work); raise the bound",
					  (unsigned long long)max_work);
			break;
		}
		vf_fl_load_state(w, &nd->in);
		vf_facts_load(&w->F, &nd->fin);
		w->ctx = nd->ctx;
		w->ncall = 0;
		for (uint32_t i = bl->first; i < bl->end; i++)
			vf_fl_step(w, i);
		memset(&out, 0, sizeof(out));
		memset(&ofacts, 0, sizeof(ofacts));
		if (vf_fl_save_state(w, &out, &n)) {
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			break;
		}
		ne = successors(w, &g, &G, nd->block, e);
		if (ne < 0 || w->rc) {
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			break;
		}
		for (int s = 0; s < ne && !rc; s++) {
			int64_t m;
			int ch, chf, back;
			vf_sfacts ef;
			if (e[s].cond >= 0) {
				/* the exit facts narrowed by the edge's condition */
				if (!ofacts.valid)
					vf_facts_view(&w->F, &ofacts, w->obuf);
				vf_facts_load(&w->F2, &ofacts);
				{
					/* the facts this edge narrows name its branch */
					uint32_t br = bl->end - 1;
					int taken = p->insts[br].aux < p->ninst &&
						    e[s].block == g.block_of[p->insts[br].aux];
					w->F2.why = (br + 1) | (taken ? VF_WHY_TAKEN : 0);
				}
				if (e[s].cond == 2   ? !vf_facts_assume_vcc(&w->F2)
				    : e[s].cond >= 3 ? !vf_facts_assume_exec(&w->F2, e[s].cond == 4)
						     : !vf_facts_assume_scc(&w->F2, e[s].cond))
					continue; /* the facts rule this edge out */
				vf_facts_view(&w->F2, &ef, w->ebuf);
			} else {
				if (!ofacts.valid)
					vf_facts_view(&w->F, &ofacts, w->obuf);
				ef = ofacts;
			}
			m = node_get(&G, &g, e[s].block, e[s].ctx, part_of(&G, e[s].block, &ef));
			if (m < 0) {
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
				break;
			}
			nd = &G.n[nid]; /* G.n may have moved */
			/* what the node states hold counts against the bound too
			 * (a few bytes of branches must not cost gigabytes): the
			 * entries' array as it grows, the facts once (a join
			 * never grows them) */
			uint64_t cap0 = G.n[m].in.cap;
			int fin_new = !G.n[m].fin.valid;
			ch = vf_fl_join(w, &G.n[m].in, &out, n);
			/* widening at loop heads: every cycle has an edge that does
			 * not go forward in program order */
			back = e[s].block <= G.n[nid].block;
			chf = ch < 0 ? 0
				     : vf_sfacts_join(&G.n[m].fin, &ef,
						      back && G.n[m].nchange >= WIDEN_AFTER);
			if (ch < 0 || chf < 0) {
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
				break;
			}
			held += ((uint64_t)G.n[m].in.cap - cap0) * sizeof(vf_ent);
			if (fin_new)
				held += (uint64_t)G.n[m].fin.n * sizeof(vf_sfact);
			/* past half the states' bound no new path partition is
			 * made (the paths share one: sound, less precise); past
			 * the whole of it the verification stops */
			if (held + G.cap * sizeof(vf_node) > sbound / 2)
				G.full = 1;
			if (held + G.cap * sizeof(vf_node) > sbound) {
				rc = kw_error_set(err, KW_ELIMIT, "max_memory",
						  "the data-flow's states for %zu instructions in %zu blocks (%zu "
						  "block, path and calling-context nodes) would hold more than %llu "
						  "bytes (their bound: the larger of the verification's memory bound "
						  "and 8 KiB per instruction + 64 MiB; kwgen verify --max-memory, "
						  "kwgend --max-verify-memory)",
						  p->ninst, g.n, G.nn, (unsigned long long)sbound);
				break;
			}
			if (chf && back && G.n[m].nchange < 255)
				G.n[m].nchange++;
			if ((ch || chf) && !G.n[m].dirty) {
				G.n[m].dirty = 1;
				if (nheap == capheap) {
					size_t nc = capheap * 2;
					uint64_t *gh = realloc(heap, nc * sizeof(*gh));
					if (!gh) {
						rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
						break;
					}
					heap = gh;
					capheap = nc;
				}
				vf_fl_heap_push(heap, &nheap, (uint64_t)G.n[m].block << 32 | (uint64_t)m);
			}
		}
	}
	free(heap);
	r->stats.work = work_done;
	/* reporting pass over the fixed point: every node reached, then every
	 * block no node reached (its instructions still checked alone) */
	if (!rc) {
		uint8_t *reached = calloc(g.n, 1);
		edge e[VF_SETK + 2];
		if (!reached)
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		w->report = 1;
		w->seen = &seen;
		w->defer = 1;
		if (!rc)
			vf_fl_report_cfg(w, &g);
		for (size_t i = 0; !rc && i < G.nn && !w->rc; i++) {
			vf_node *nd = &G.n[i];
			const vf_block *bl = &g.b[nd->block];
			if (!nd->in.valid)
				continue;
			reached[nd->block] = 1;
			w->unreachable = 0;
			vf_fl_load_state(w, &nd->in);
			vf_facts_load(&w->F, &nd->fin);
			w->ctx = nd->ctx;
			w->ncall = 0;
			for (uint32_t k = bl->first; k < bl->end; k++)
				vf_fl_step(w, k);
			if (successors(w, &g, &G, nd->block, e) < 0)
				w->rc = KW_ENOMEM;
		}
		for (size_t b = 0; !rc && b < g.n && !w->rc; b++) {
			if (reached[b])
				continue;
			w->unreachable = 1;
			vf_fl_load_state(w, NULL);
			vf_facts_clear(&w->F);
			w->ctx = 0;
			{
				int rep = w->report;
				for (uint32_t k = g.b[b].first; k < g.b[b].end; k++) {
					/* unreachable: no call or jump causes to report */
					w->report = p->insts[k].kind == VF_I_CALL ? 0 : rep;
					vf_fl_step(w, k);
				}
				w->report = rep;
			}
		}
		free(reached);
		if (!rc && !w->rc)
			vf_fl_merge_uses(w);
		if (!rc && !w->rc)
			vf_fl_report_redundant(w);
		if (!rc && !w->rc)
			vf_fl_report_causes(w);
		if (!rc && w->rc)
			rc = kw_error_set(err, w->rc, NULL, "out of memory");
	}
	for (size_t i = 0; i < G.nn; i++) {
		free(G.n[i].in.e);
		vf_sfacts_free(&G.n[i].fin);
	}
	free(G.n);
	free(G.slot);
	free(G.relevant);
	vf_fl_hfree(&G.pcount);
	vf_fl_hfree(&G.cmap);
	vf_fl_hfree(&seen);
	work_free(w);
	vf_cfg_free(&g);
	return rc;
}
