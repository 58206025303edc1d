/* flow_path.c - paths for the findings' text (flow_int.h): the least
 * instructions or matrix ops between a producer and a use over paths that
 * pass no wait (lds_latency), and the branch conditions a finding's path
 * took; the min-heap both this and the fixed point use. */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Heap keys: block << 32 | node, so blocks go in program order whatever
 * the calling context or partition of their nodes. */
void vf_fl_heap_push(uint64_t *h, size_t *n, uint64_t v)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

uint64_t vf_fl_heap_pop(uint64_t *h, size_t *n)
{
	uint64_t top = h[0], v = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
	return top;
}

/* A matrix-core instruction (MFMA, SMFMAC, WMMA, SWMMAC): each keeps the
 * wave busy for several passes (4 or more cycles each). */
static int is_matrix(const vf_prog *p, uint32_t i)
{
	const vf_inst *in = &p->insts[i];
	static const char *const pfx[] = { "v_mfma", "v_smfmac", "v_wmma", "v_swmmac" };

	for (size_t k = 0; k < sizeof(pfx) / sizeof(pfx[0]); k++) {
		size_t n = strlen(pfx[k]);
		if (in->mnem_len >= n && !memcmp(in->tp, pfx[k], n))
			return 1;
	}
	return 0;
}

/* Cost of instructions [a, b): their number, or (matrix) the matrix ops among them. */
static uint32_t span_cost(const vf_prog *p, uint32_t a, uint32_t b, int matrix)
{
	uint32_t n = 0;

	if (!matrix)
		return b > a ? b - a : 0;
	for (uint32_t i = a; i < b; i++)
		n += (uint32_t)is_matrix(p, i);
	return n;
}

/* Shortest number of instructions from producer prod to at along CFG
 * edges that pass no wait on counter c (c < 0: any path; calls counted as
 * one instruction);
 * UINT32_MAX if no such path is found within the bound.  Only for the few
 * LDS reads used with no wait at all (race_lds_latency), so a plain
 * Dijkstra over blocks per query. */
uint32_t vf_fl_path_distance(const work *w, uint32_t prod, uint32_t at, int c)
{
	return vf_fl_path_cost(w, prod, at, c, 0);
}

/* Least cost (span_cost) over the paths from prod to at that pass no wait
 * on counter c (c < 0: any path); UINT32_MAX if there is none. */
uint32_t vf_fl_path_cost(const work *w, uint32_t prod, uint32_t at, int c, int matrix)
{
	const vf_cfg *g = w->g;
	const vf_prog *p = w->p;
	uint32_t best = UINT32_MAX, pb = g->block_of[prod], ab = g->block_of[at];
	uint32_t *dist;
	uint64_t *heap;
	size_t nh = 0, cap = 64, steps = 0;

#define WAITS_ON(i) (c >= 0 && p->insts[i].kind == VF_I_WAIT && p->waits[p->insts[i].aux].n[c] >= 0)
	for (uint32_t i = prod + 1; i < g->b[pb].end; i++) {
		if (i == at)
			return matrix ? span_cost(p, prod + 1, at, 1) : at - prod;
		if (WAITS_ON(i))
			return UINT32_MAX;
	}
	dist = malloc(g->n * sizeof(*dist));
	heap = malloc(cap * sizeof(*heap));
	if (!dist || !heap) {
		free(dist);
		free(heap);
		return UINT32_MAX;
	}
	memset(dist, 0xff, g->n * sizeof(*dist));
	dist[pb] = 0;
	heap[nh++] = (uint64_t)span_cost(p, prod + 1, g->b[pb].end, matrix) << 32 | pb;
	while (nh && steps++ < 100000) {
		uint64_t top = vf_fl_heap_pop(heap, &nh);
		uint32_t d = (uint32_t)(top >> 32), b = (uint32_t)top;
		if (d >= best)
			break;
		for (uint8_t k = 0; k < g->b[b].nsucc; k++) {
			uint32_t sb = g->b[b].succ[k], nd = d, blocked = 0;
			if (sb == ab) {
				for (uint32_t i = g->b[sb].first; i < at && !blocked; i++)
					blocked = WAITS_ON(i);
				if (!blocked && d + span_cost(p, g->b[sb].first, at, matrix) + !matrix < best)
					best = d + span_cost(p, g->b[sb].first, at, matrix) + !matrix;
			}
			for (uint32_t i = g->b[sb].first; i < g->b[sb].end && !blocked; i++)
				blocked = WAITS_ON(i);
			if (blocked)
				continue;
			nd = d + span_cost(p, g->b[sb].first, g->b[sb].end, matrix);
			if (dist[sb] != UINT32_MAX && dist[sb] <= nd)
				continue;
			dist[sb] = nd;
			if (nh == cap) {
				uint64_t *gh = realloc(heap, cap * 2 * sizeof(*gh));
				if (!gh)
					break;
				heap = gh;
				cap *= 2;
			}
			vf_fl_heap_push(heap, &nh, (uint64_t)nd << 32 | sb);
		}
	}
#undef WAITS_ON
	free(dist);
	free(heap);
	return best;
}

/* The path a finding is on: the SGPR conditions its branches decided and
 * the calls it is inside ("" when nothing narrows it). */
void vf_fl_path_text(const work *w, char *out, size_t n)
{
	char facts[640];
	size_t q = 0;

	out[0] = 0;
	vf_facts_describe(&w->F, w->p, facts, sizeof(facts));
	/* no condition held, only the note on an atomic's returned value
	 * ("; s51 is the value ..."): the note alone, no empty clause */
	if (facts[0] == ';')
		q += (size_t)snprintf(out + q, n - q, "%s", facts);
	else if (facts[0])
		q += (size_t)snprintf(out + q, n - q, "; on the paths where %s", facts);
	for (uint32_t c = w->ctx, d = 0; c && q < n && d < 4; c = w->ctxs[c].parent, d++)
		q += (size_t)snprintf(out + q, n - q, "%s subroutine called at line %u",
				      d ? ", from the" : "; in the", w->p->insts[w->ctxs[c].site].line);
}
