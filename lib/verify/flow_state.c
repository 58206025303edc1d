/* flow_state.c - the data-flow's dense state (flow_int.h): a block's
 * sparse entry state loaded into per-class score brackets and per-slot
 * scores, saved back, and joined into a successor's entry state
 * (WaitcntBrackets::merge); the open-addressing map the analysis keys its
 * nodes, contexts and findings by. */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Look key up; with ins, insert it with value v if absent.  Returns a
 * pointer to the value, NULL if absent (or ENOMEM with ins). */
uint32_t *vf_fl_hget(struct hset *h, uint64_t key, int ins, uint32_t v)
{
	size_t i;

	key += 1; /* 0 marks an empty slot */
	if (ins && (h->n + 1) * 2 > h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 1024;
		uint64_t *nk = calloc(nc, sizeof(*nk));
		uint32_t *nv = malloc(nc * sizeof(*nv));
		if (!nk || !nv) {
			free(nk);
			free(nv);
			return NULL;
		}
		for (size_t j = 0; j < h->cap; j++) {
			if (!h->k[j])
				continue;
			i = hmix(h->k[j]) & (nc - 1);
			while (nk[i])
				i = (i + 1) & (nc - 1);
			nk[i] = h->k[j];
			nv[i] = h->v[j];
		}
		free(h->k);
		free(h->v);
		h->k = nk;
		h->v = nv;
		h->cap = nc;
	}
	if (!h->cap)
		return NULL;
	i = hmix(key) & (h->cap - 1);
	while (h->k[i]) {
		if (h->k[i] == key)
			return &h->v[i];
		i = (i + 1) & (h->cap - 1);
	}
	if (!ins)
		return NULL;
	h->k[i] = key;
	h->v[i] = v;
	h->n++;
	return &h->v[i];
}

void vf_fl_hfree(struct hset *h)
{
	free(h->k);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* ---- dense state ---- */

static void clear_dense(work *w)
{
	for (uint32_t i = 0; i < w->ndirty; i++) {
		w->mask[w->dirty[i]] = 0;
		w->indirty[w->dirty[i]] = 0;
	}
	w->ndirty = 0;
}

void vf_fl_load_state(work *w, const vf_sstate *s)
{
	clear_dense(w);
	for (int k = 0; k < VF_NCLS; k++) {
		w->ub[k] = BASE;
		w->lb[k] = BASE - (s ? s->pend[k] : 0);
		w->oc[k] = s ? s->pend[k] : 0;
		w->wub[k] = s && s->wage[k] <= BASE ? BASE - s->wage[k] : 0;
	}
	for (int c = 0; c < VF_NCNT; c++)
		w->wn[c] = s ? s->wn[c] : -1;
	w->unk = s ? s->unk : 0;
	w->fixed = s ? s->fixed : 0;
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		const vf_ent *e = &s->e[i];
		w->score[e->cls][e->slot] = BASE - e->age;
		w->prod[e->cls][e->slot] = e->prod;
		w->mask[e->slot] |= (uint16_t)(1u << e->cls);
		touch(w, e->slot);
	}
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The dense state as a sparse one into w->tmp; returns the entry count and
 * fills pend and the rest of *s (s->e untouched). */
int vf_fl_save_state(work *w, vf_sstate *s, uint32_t *nent)
{
	uint32_t n = 0;

	s->valid = 1;
	s->unk = w->unk;
	s->fixed = w->fixed;
	for (int k = 0; k < VF_NCLS; k++) {
		uint32_t pend = w->ub[k] - w->lb[k];
		if (w->isa->cls_ooo[k] && pend)
			pend = w->oc[k] ? w->oc[k] : 1;
		s->pend[k] = pend;
		s->wage[k] = w->wub[k] ? w->ub[k] - w->wub[k] : UINT32_MAX;
	}
	for (int c = 0; c < VF_NCNT; c++)
		s->wn[c] = w->wn[c];
	qsort(w->dirty, w->ndirty, sizeof(w->dirty[0]), cmp_u16);
	for (uint32_t i = 0; i < w->ndirty; i++) {
		uint16_t slot = w->dirty[i];
		uint16_t m = w->mask[slot];
		for (int k = 0; m && k < VF_NCLS; k++) {
			if (!(m & (1u << k)))
				continue;
			if (w->score[k][slot] <= w->lb[k])
				continue;
			if (n == w->tmpcap) {
				uint32_t nc = w->tmpcap ? w->tmpcap * 2 : 256;
				vf_ent *g = realloc(w->tmp, nc * sizeof(*g));
				if (!g)
					return -1;
				w->tmp = g;
				w->tmpcap = nc;
			}
			w->tmp[n].slot = slot;
			w->tmp[n].cls = (uint8_t)k;
			w->tmp[n].pad = 0;
			w->tmp[n].age = w->isa->cls_ooo[k] ? 0 : w->ub[k] - w->score[k][slot];
			w->tmp[n].prod = w->prod[k][slot];
			n++;
		}
	}
	*nent = n;
	return 0;
}

/* Join out (pend etc. in *o, entries in w->tmp[0..n)) into block state *in.
 * Returns 1 if *in changed, 0 if not, -1 on ENOMEM. */
int vf_fl_join(work *w, vf_sstate *in, const vf_sstate *o, uint32_t n)
{
	int changed = 0;
	uint32_t i = 0, j = 0, k = 0, cap;
	vf_ent *m;

	if (!in->valid) {
		vf_ent *e = n ? malloc(n * sizeof(*e)) : NULL;
		if (n && !e)
			return -1;
		if (n)
			memcpy(e, w->tmp, n * sizeof(*e));
		free(in->e);
		*in = *o;
		in->e = e;
		in->n = in->cap = n;
		in->valid = 1;
		return 1;
	}
	for (int c = 0; c < VF_NCLS; c++) {
		if (o->pend[c] > in->pend[c]) {
			in->pend[c] = o->pend[c];
			changed = 1;
		}
		if (o->wage[c] > in->wage[c])
			in->wage[c] = o->wage[c];
	}
	for (int c = 0; c < VF_NCNT; c++)
		if (o->wn[c] < 0 || (in->wn[c] >= 0 && o->wn[c] > in->wn[c]))
			in->wn[c] = o->wn[c];
	if ((o->unk & ~in->unk) || (o->fixed & ~in->fixed))
		changed = 1;
	in->unk |= o->unk;
	in->fixed |= o->fixed;
	/* merge sorted entry lists: a dry run first, as most joins at the
	 * fixed point change nothing */
	{
		int ech = 0;
		while (i < in->n || j < n) {
			const vf_ent *a = i < in->n ? &in->e[i] : NULL, *b = j < n ? &w->tmp[j] : NULL;
			int c = !a ? 1 : !b ? -1
				: a->slot != b->slot ? (a->slot < b->slot ? -1 : 1)
				: (a->cls != b->cls ? (a->cls < b->cls ? -1 : 1) : 0);
			if (c < 0) {
				i++;
			} else if (c > 0) {
				j++;
				ech = 1;
			} else {
				if (b->age < a->age)
					ech = 1;
				i++;
				j++;
			}
			k++;
		}
		if (!ech)
			return changed;
		if (k == in->n) {
			/* no new entries: younger ages in place */
			for (i = 0, j = 0; j < n; j++) {
				while (in->e[i].slot != w->tmp[j].slot || in->e[i].cls != w->tmp[j].cls)
					i++;
				if (w->tmp[j].age < in->e[i].age) {
					in->e[i].age = w->tmp[j].age;
					in->e[i].prod = w->tmp[j].prod;
				}
			}
			return 1;
		}
		cap = k;
		i = j = k = 0;
	}
	m = cap ? malloc(cap * sizeof(*m)) : NULL;
	if (cap && !m)
		return -1;
	while (i < in->n || j < n) {
		const vf_ent *a = i < in->n ? &in->e[i] : NULL, *b = j < n ? &w->tmp[j] : NULL;
		int c;
		if (!a)
			c = 1;
		else if (!b)
			c = -1;
		else
			c = a->slot != b->slot ? (a->slot < b->slot ? -1 : 1)
					       : (a->cls != b->cls ? (a->cls < b->cls ? -1 : 1) : 0);
		if (c < 0) {
			m[k++] = *a;
			i++;
		} else if (c > 0) {
			m[k++] = *b;
			j++;
		} else {
			m[k] = *a;
			if (b->age < a->age) {
				m[k].age = b->age;
				m[k].prod = b->prod;
			}
			k++;
			i++;
			j++;
		}
	}
	free(in->e);
	in->e = m;
	in->n = k;
	in->cap = (uint32_t)cap;
	return 1;
}
