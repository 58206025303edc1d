/* cfg.c - basic blocks from labels, branches and function starts.
 *
 * Leaders: the first instruction of each function, every resolved branch
 * target, and the instruction after s_branch, s_cbranch_*, s_endpgm and
 * s_setpc, and the instruction after a call (its return site).  Successors: the target of s_branch; target and fall-through of
 * s_cbranch_*; none after s_endpgm / s_setpc (a return, or an indirect jump
 * whose target is unknown); fall-through otherwise, never into the next
 * function. */
#include "verify/verify_int.h"

#include <stdlib.h>
#include <string.h>

static int ends_block(uint8_t kind)
{
	return kind == VF_I_BRANCH || kind == VF_I_CBRANCH || kind == VF_I_END || kind == VF_I_SETPC ||
	       kind == VF_I_CALL;
}

int vf_cfg_build(vf_cfg *g, const vf_prog *p, kw_error *err)
{
	uint8_t *lead;
	size_t nb = 0;

	memset(g, 0, sizeof(*g));
	if (!p->ninst)
		return 0;
	lead = calloc(p->ninst, 1);
	g->block_of = malloc(p->ninst * sizeof(*g->block_of));
	if (!lead || !g->block_of) {
		free(lead);
		free(g->block_of);
		g->block_of = NULL;
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory building the CFG");
	}
	lead[0] = 1;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].first < p->ninst)
			lead[p->funcs[f].first] = 1;
	for (size_t i = 0; i < p->ninst; i++) {
		const vf_inst *in = &p->insts[i];
		if ((in->kind == VF_I_BRANCH || in->kind == VF_I_CBRANCH) && in->aux < p->ninst)
			lead[in->aux] = 1;
		if (ends_block(in->kind) && i + 1 < p->ninst)
			lead[i + 1] = 1;
	}
	for (size_t i = 0; i < p->ninst; i++)
		nb += lead[i];
	g->b = calloc(nb, sizeof(*g->b));
	if (!g->b) {
		free(lead);
		vf_cfg_free(g);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory building the CFG");
	}
	g->n = nb;
	{
		size_t b = (size_t)-1;
		for (size_t i = 0; i < p->ninst; i++) {
			if (lead[i]) {
				b++;
				g->b[b].first = (uint32_t)i;
			}
			g->b[b].end = (uint32_t)i + 1;
			g->block_of[i] = (uint32_t)b;
		}
	}
	for (size_t f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].first < p->ninst)
			g->b[g->block_of[p->funcs[f].first]].entry = p->funcs[f].kernel ? 1 : 2;
	for (size_t b = 0; b < nb; b++) {
		vf_block *bl = &g->b[b];
		const vf_inst *last = &p->insts[bl->end - 1];
		int fall = !(last->kind == VF_I_BRANCH || last->kind == VF_I_END || last->kind == VF_I_SETPC);

		if ((last->kind == VF_I_BRANCH || last->kind == VF_I_CBRANCH) && last->aux < p->ninst)
			bl->succ[bl->nsucc++] = g->block_of[last->aux];
		if (fall && bl->end < p->ninst && p->insts[bl->end].func == last->func &&
		    (bl->nsucc == 0 || bl->succ[0] != g->block_of[bl->end]))
			bl->succ[bl->nsucc++] = g->block_of[bl->end];
	}
	free(lead);
	return 0;
}

void vf_cfg_free(vf_cfg *g)
{
	free(g->b);
	free(g->block_of);
	memset(g, 0, sizeof(*g));
}
