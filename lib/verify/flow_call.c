/* flow_call.c - calls in the data-flow (flow_int.h): s_swappc targets from
 * the SGPR facts, instructions by address, calling contexts, and the
 * causes of what is not followed (reported once each, flow_emit.c). */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- calls ---- */

#define MAX_CALL_DEPTH 16
#define MAX_CONTEXTS 65536

/* A jump or call not followed (kind: 1 call target unknown, 2 jump target
 * unknown, 3 return unknown, 4 not an instruction start, 5 call depth),
 * counted once per kind, register and function (vf_fl_report_causes). */
void vf_fl_note_cause(work *w, int kind, int reg, uint32_t at)
{
	uint32_t func = w->p->insts[at].func;

	if (!w->report)
		return;
	for (size_t i = 0; i < w->ncauses; i++) {
		struct cause *c = &w->causes[i];
		if (c->kind == kind && c->reg == reg && c->func == func) {
			if (c->first != at)
				c->count++;
			if (at < c->first)
				c->first = at;
			return;
		}
	}
	if (w->ncauses == w->capcauses) {
		size_t nc = w->capcauses ? w->capcauses * 2 : 16;
		struct cause *g = realloc(w->causes, nc * sizeof(*g));
		if (!g) {
			w->rc = KW_ENOMEM;
			return;
		}
		w->causes = g;
		w->capcauses = nc;
	}
	w->causes[w->ncauses++] = (struct cause){ kind, reg, func, at, 1 };
}

/* Instruction at byte address a, or -1. */
int64_t vf_fl_inst_at_addr(const work *w, uint64_t a)
{
	size_t lo = 0, hi = w->namap;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((uint64_t)w->amap[mid].a < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->namap && (uint64_t)w->amap[lo].a == a ? (int64_t)w->amap[lo].i : -1;
}

int vf_fl_is_block_start(const work *w, int64_t t)
{
	return t >= 0 && (size_t)t < w->p->ninst && w->g->b[w->g->block_of[t]].first == (uint32_t)t;
}

/* The call at `at` goes to known instructions (s_swappc of a register
 * pair whose values the facts give): fills w->call_to.  0: unknown. */
int vf_fl_resolve_call(work *w, uint32_t at)
{
	const vf_sop *o = &w->sops[at];
	uint64_t v[VF_SETK];
	int n;

	w->ncall = 0;
	if (o->op != VF_S_SWAPPC || !w->amap) {
		vf_fl_note_cause(w, 1, o->a, at);
		return 0;
	}
	n = vf_facts_values64(&w->F, o->a, v);
	if (n <= 0) {
		vf_fl_note_cause(w, 1, o->a, at);
		return 0;
	}
	if (w->ctxs[w->ctx].depth >= MAX_CALL_DEPTH || w->nctxs >= MAX_CONTEXTS) {
		vf_fl_note_cause(w, 5, o->a, at);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int64_t t = vf_fl_inst_at_addr(w, v[i]);
		if (!vf_fl_is_block_start(w, t)) {
			vf_fl_note_cause(w, 4, o->a, at);
			w->ncall = 0;
			return 0;
		}
		w->call_to[w->ncall++] = (uint32_t)t;
	}
	return 1;
}

/* The calling context of the call at site made in context parent (made
 * the first time): its index, or -1 out of memory. */
int64_t vf_fl_ctx_get(work *w, graph *G, uint32_t parent, uint32_t site)
{
	uint32_t *v = vf_fl_hget(&G->cmap, ((uint64_t)parent << 32) | site, 0, 0);

	if (v)
		return *v;
	if (w->nctxs == w->capctxs) {
		size_t nc = w->capctxs * 2;
		vf_ctx *gc = realloc(w->ctxs, nc * sizeof(*gc));
		if (!gc)
			return -1;
		w->ctxs = gc;
		w->capctxs = nc;
	}
	if (!vf_fl_hget(&G->cmap, ((uint64_t)parent << 32) | site, 1, (uint32_t)w->nctxs))
		return -1;
	w->ctxs[w->nctxs] = (vf_ctx){ parent, site, w->ctxs[parent].depth + 1 };
	return (int64_t)w->nctxs++;
}
