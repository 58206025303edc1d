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
 * Findings come from one last pass over the fixed point. */
#include "verify/verify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
} work;

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

static uint64_t hmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Look key up; with ins, insert it with value v if absent.  Returns a
 * pointer to the value, NULL if absent (or ENOMEM with ins). */
static uint32_t *hget(struct hset *h, uint64_t key, int ins, uint32_t v)
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

static void hfree(struct hset *h)
{
	free(h->k);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* ---- dense state ---- */

static void touch(work *w, uint16_t slot)
{
	if (!w->indirty[slot]) {
		w->indirty[slot] = 1;
		w->dirty[w->ndirty++] = slot;
	}
}

static void clear_dense(work *w)
{
	for (uint32_t i = 0; i < w->ndirty; i++) {
		w->mask[w->dirty[i]] = 0;
		w->indirty[w->dirty[i]] = 0;
	}
	w->ndirty = 0;
}

static void load_state(work *w, const vf_sstate *s)
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
static int save_state(work *w, vf_sstate *s, uint32_t *nent)
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
static int join(work *w, vf_sstate *in, const vf_sstate *o, uint32_t n)
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

/* ---- findings ---- */

static const char *cname(work *w, int c)
{
	return c >= 0 && w->isa->cname[c] ? w->isa->cname[c] : "";
}

static void reg_text(char *out, size_t n, uint16_t slot, uint8_t cnt)
{
	const char *pfx;
	int base;

	if (slot >= VF_SLOT_TTMP) {
		pfx = "ttmp", base = VF_SLOT_TTMP;
	} else if (slot >= VF_SLOT_S) {
		pfx = "s", base = VF_SLOT_S;
	} else if (slot >= VF_SLOT_A) {
		pfx = "a", base = VF_SLOT_A;
	} else {
		pfx = "v", base = VF_SLOT_V;
	}
	if (cnt <= 1)
		snprintf(out, n, "%s%d", pfx, slot - base);
	else
		snprintf(out, n, "%s[%d:%d]", pfx, slot - base, slot - base + cnt - 1);
}

static void mnem(const vf_prog *p, uint32_t i, char *out, size_t n)
{
	const vf_inst *in = &p->insts[i];
	size_t len = in->mnem_len < n - 1 ? in->mnem_len : n - 1;

	memcpy(out, in->tp, len);
	out[len] = 0;
}

static void inst_text(const vf_prog *p, uint32_t i, char *out, size_t n)
{
	const vf_inst *in = &p->insts[i];
	size_t len = in->text_len < n - 1 ? in->text_len : n - 1;

	memcpy(out, in->tp, len);
	out[len] = 0;
}

static void emit(work *w, int code, uint32_t at, const char *reg, int64_t prod, int cnt,
		 int needed, int have, const char *msg)
{
	const vf_prog *p = w->p;
	const vf_inst *in = &p->insts[at];
	const vf_func *f = p->nfuncs ? &p->funcs[in->func] : NULL;
	vf_finding_in fi;
	uint32_t *slot_of = NULL;
	size_t n0;

	if (!w->report || w->rc)
		return;
	if (w->seen) {
		/* the same block is analysed once per calling context and path
		 * partition: one finding, with the smallest count any needs */
		uint64_t key = (uint64_t)code | ((uint64_t)at << 4) | ((uint64_t)(prod + 1) << 34);
		uint32_t *v = hget(w->seen, key, 0, 0);
		if (v) {
			if (*v && vf_finding_tighten(w->r, *v - 1, needed, have, msg))
				w->rc = KW_ENOMEM;
			return;
		}
		v = hget(w->seen, key, 1, 0);
		if (!v) {
			w->rc = KW_ENOMEM;
			return;
		}
		slot_of = v;
	}
	memset(&fi, 0, sizeof(fi));
	fi.code = code;
	fi.line = in->line;
	fi.offset = p->addr ? p->addr[at] : -1;
	fi.producer_line = prod >= 0 ? (int64_t)p->insts[prod].line : -1;
	fi.producer_offset = prod >= 0 && p->addr ? p->addr[prod] : -1;
	fi.needed = needed;
	fi.have = have;
	fi.counter = cnt >= 0 ? cname(w, cnt) : NULL;
	fi.reg = reg;
	fi.function = f ? f->name : NULL;
	fi.function_len = f ? f->name_len : 0;
	fi.mnemonic = in->tp;
	fi.mnemonic_len = in->mnem_len;
	fi.allow = in->allow;
	fi.message = msg;
	n0 = w->r->n;
	if (vf_finding_add(w->r, &fi))
		w->rc = KW_ENOMEM;
	else if (slot_of && w->r->n > n0)
		*slot_of = (uint32_t)w->r->n; /* its index + 1 */
}

/* ---- waits ---- */

static void apply_wait(work *w, int c, int n)
{
	for (int i = 0; i < w->nccls[c]; i++) {
		int k = w->ccls[c][i];
		if (w->isa->cls_ooo[k]) {
			if (n == 0)
				w->lb[k] = w->ub[k];
			if (w->oc[k] > (uint32_t)n)
				w->oc[k] = (uint32_t)n;
		} else if (w->ub[k] - w->lb[k] > (uint32_t)n) {
			w->lb[k] = w->ub[k] - (uint32_t)n;
		}
		w->wub[k] = w->ub[k];
	}
	if (n == 0)
		w->unk &= (uint16_t)~(1u << c);
	w->wn[c] = (int16_t)n;
}

/* Would cnt(n) complete anything now? */
static int wait_effective(const work *w, int c, int n)
{
	if (n == 0 && (w->unk & (1u << c)))
		return 1;
	for (int i = 0; i < w->nccls[c]; i++) {
		int k = w->ccls[c][i];
		if (w->ub[k] == w->lb[k])
			continue;
		if (w->isa->cls_ooo[k] ? w->oc[k] > (uint32_t)n : w->ub[k] - w->lb[k] > (uint32_t)n)
			return 1;
	}
	return 0;
}

static void do_wait(work *w, uint32_t at)
{
	const vf_wait *wt = &w->p->waits[w->p->insts[at].aux];
	int effective = wt->opaque, touches_fixed = 0;

	for (int c = 0; c < VF_NCNT; c++) {
		if (wt->n[c] < 0)
			continue;
		if (c == VF_C_X)
			effective = 1; /* xcnt is not modelled: never call it redundant */
		if (w->fixed & (1u << c))
			touches_fixed = 1;
		if (!effective && wait_effective(w, c, wt->n[c]))
			effective = 1;
	}
	/* redundant only if it waits for nothing in every context and on
	 * every path: decided after the reporting pass (report_redundant) */
	if (w->report && !w->unreachable && w->wseen)
		w->wseen[at] |= (uint8_t)(1 | ((effective || touches_fixed) ? 2 : 0));
	for (int c = 0; c < VF_NCNT; c++) {
		if (wt->n[c] < 0)
			continue;
		apply_wait(w, c, wt->n[c]);
		w->fixed &= (uint16_t)~(1u << c);
	}
}

/* ---- hazards ---- */

/* Count that would complete the pending write (class k, score s): the
 * younger ops issued after it up to the last wait on its counter since it
 * (so that "use cnt(N) in the last wait" is a fix: ops issued after that
 * wait do not count for it), or up to now when no wait came since it. */
static int needed_for(const work *w, int k, uint32_t s)
{
	if (w->isa->cls_ooo[k])
		return 0;
	if (w->wub[k] >= s && w->isa->cls_cnt[k] >= 0)
		return (int)(w->wub[k] - s);
	return (int)(w->ub[k] - s);
}

static int have_for(const work *w, int k, uint32_t s)
{
	int c = w->isa->cls_cnt[k];

	return (w->wub[k] >= s && c >= 0) ? w->wn[c] : -1;
}

/* After a reported hazard: treat the producing instruction as complete
 * (every register and pseudo slot it writes, in every class), without
 * completing anything else, so that each other late producer is still
 * reported at its own first use. */
static void retire(work *w, uint32_t prod)
{
	for (uint32_t i = 0; i < w->ndirty; i++) {
		uint16_t slot = w->dirty[i];
		uint16_t m = w->mask[slot];
		for (int k = 0; m && k < VF_NCLS; k++)
			if ((m & (1u << k)) && w->prod[k][slot] == prod)
				w->mask[slot] &= (uint16_t)~(1u << k);
	}
}

/* Pending write on one of slots [slot, slot+n): class and slot of the
 * first found (-1 if none).  Clears stale mask bits. */
static int find_pending(work *w, uint16_t slot, uint8_t n, uint32_t allowed_cls, int *kout,
			uint16_t *sout)
{
	for (uint16_t s = slot; s < slot + n; s++) {
		uint16_t m = w->mask[s];
		if (!m)
			continue;
		for (int k = 0; k < VF_NCLS; k++) {
			if (!(m & (1u << k)))
				continue;
			if (w->score[k][s] <= w->lb[k]) {
				w->mask[s] &= (uint16_t)~(1u << k);
				continue;
			}
			if (!((allowed_cls >> k) & 1))
				continue;
			*kout = k;
			*sout = s;
			return 1;
		}
	}
	return 0;
}

/* Of the pending writes on slots [slot, slot+n): the one needing the
 * smallest count (the youngest on a tie); 0 if none. */
static int find_most(work *w, uint16_t slot, uint8_t n, uint32_t allowed_cls, int *kout,
		     uint16_t *sout)
{
	int found = 0, best = 0;
	uint32_t bscore = 0;

	for (uint16_t s = slot; s < slot + n; s++) {
		uint16_t m = w->mask[s];
		for (int k = 0; m && k < VF_NCLS; k++) {
			int nd;
			if (!((m >> k) & 1))
				continue;
			if (w->score[k][s] <= w->lb[k]) {
				w->mask[s] &= (uint16_t)~(1u << k);
				continue;
			}
			if (!((allowed_cls >> k) & 1))
				continue;
			nd = needed_for(w, k, w->score[k][s]);
			if (!found || nd < best || (nd == best && w->score[k][s] > bscore)) {
				found = 1;
				best = nd;
				bscore = w->score[k][s];
				*kout = k;
				*sout = s;
			}
		}
	}
	return found;
}

static const char *class_note(const work *w, int k)
{
	switch (k) {
	case VF_K_SMEM:
	case VF_K_MSG:
		return " (scalar memory returns out of order: only a zero count completes it)";
	case VF_K_FLATV:
	case VF_K_FLATS:
	case VF_K_FLATL:
		return w->isa->gen >= 12
			       ? " (FLAT may access LDS or memory: it needs loadcnt/storecnt(0) and dscnt(0))"
			       : " (FLAT may access LDS or memory: it needs vmcnt(0) and lgkmcnt(0))";
	case VF_K_GDS:
		return " (GDS completes out of order: only a zero count completes it)";
	default:
		return "";
	}
}

static uint16_t regfile_counters(const work *w, uint16_t slot)
{
	return slot >= VF_SLOT_S ? w->scnt_mask : w->vcnt_mask;
}

/* Heap keys: block << 32 | node, so blocks go in program order whatever
 * the calling context or partition of their nodes. */
static void heap_push(uint64_t *h, size_t *n, uint64_t v)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static uint64_t heap_pop(uint64_t *h, size_t *n)
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

/* Shortest number of instructions from producer prod to at along CFG
 * edges that pass no wait on counter c (c < 0: any path; calls counted as
 * one instruction);
 * UINT32_MAX if no such path is found within the bound.  Only for the few
 * LDS reads used with no wait at all (race_lds_latency), so a plain
 * Dijkstra over blocks per query. */
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

static uint32_t path_cost(const work *w, uint32_t prod, uint32_t at, int c, int matrix);

static uint32_t path_distance(const work *w, uint32_t prod, uint32_t at, int c)
{
	return path_cost(w, prod, at, c, 0);
}

/* Least cost (span_cost) over the paths from prod to at that pass no wait
 * on counter c (c < 0: any path); UINT32_MAX if there is none. */
static uint32_t path_cost(const work *w, uint32_t prod, uint32_t at, int c, int matrix)
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
		uint64_t top = heap_pop(heap, &nh);
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
			heap_push(heap, &nh, (uint64_t)nd << 32 | sb);
		}
	}
#undef WAITS_ON
	free(dist);
	free(heap);
	return best;
}

/* The path a finding is on: the SGPR conditions its branches decided and
 * the calls it is inside ("" when nothing narrows it). */
static void path_text(const work *w, char *out, size_t n)
{
	char facts[640];
	size_t q = 0;

	out[0] = 0;
	vf_facts_describe(&w->F, w->p, facts, sizeof(facts));
	if (facts[0])
		q += (size_t)snprintf(out + q, n - q, "; on the paths where %s", facts);
	for (uint32_t c = w->ctx, d = 0; c && q < n && d < 4; c = w->ctxs[c].parent, d++)
		q += (size_t)snprintf(out + q, n - q, "%s subroutine called at line %u",
				      d ? ", from the" : "; in the", w->p->insts[w->ctxs[c].site].line);
}

/* A read (write=0) or overwrite (write=1) of operand [slot, slot+n) by
 * instruction at.  ignore_cls: classes whose pending writes are not a
 * hazard (same in-order class WAW). */
static void check(work *w, uint32_t at, uint16_t slot, uint8_t n, int write, uint32_t ignore_cls)
{
	int k, reported = 0;
	uint16_t s;
	uint16_t unk = w->unk & regfile_counters(w, slot);

	if (unk) {
		if (w->report) {
			char reg[32], msg[512], m[64], need[96];
			size_t q = 0;
			reg_text(reg, sizeof(reg), slot, n);
			mnem(w->p, at, m, sizeof(m));
			need[0] = 0;
			for (int c = 0; c < VF_NCNT; c++)
				if (unk & (1u << c))
					q += (size_t)snprintf(need + q, sizeof(need) - q, "%s%s(0)",
							      q ? " " : "", cname(w, c));
			snprintf(msg, sizeof(msg),
				 "%s %s by %s before the function waits for the memory operations its "
				 "caller may have left in flight (entry state unknown): needs %s first",
				 reg, write ? "overwritten" : "read", m, need);
			for (int c = 0; c < VF_NCNT; c++)
				if (unk & (1u << c)) {
					emit(w, write ? KW_VF_RACE_WAW : KW_VF_RACE_RAW, at, reg, -1, c, 0,
					     -1, msg);
					break;
				}
		}
		reported = 1;
		for (int c = 0; c < VF_NCNT; c++)
			if (unk & (1u << c)) {
				apply_wait(w, c, 0);
				w->fixed |= (uint16_t)(1u << c);
			}
	}
	/* the finding names the most demanding producer (the smallest count
	 * that completes it), so that its fix covers the others, which are
	 * then retired with it */
	for (int most = 1; most ? find_most(w, slot, n, ~ignore_cls, &k, &s)
				: find_pending(w, slot, n, ~ignore_cls, &k, &s);
	     most = 0) {
		uint32_t sc = w->score[k][s];
		int needed = needed_for(w, k, sc), have = have_for(w, k, sc);
		uint32_t prod = w->prod[k][s];

		if (!reported && w->report) {
			char reg[32], msg[2048], m[64], pm[64], hv[48], extra[320], fix[128], path[800], ops[96];
			int c = w->isa->cls_cnt[k];
			int code = write ? KW_VF_RACE_WAW : KW_VF_RACE_RAW;
			/* in order: the last wait was reached with fewer younger ops
			 * than are issued now; needed_for gave the count that wait
			 * needs (the fix) */
			int at_wait = have >= 0 && !w->isa->cls_ooo[k] && w->wub[k] >= sc &&
				      w->wub[k] < w->ub[k];
			reg_text(reg, sizeof(reg), slot, n);
			mnem(w->p, at, m, sizeof(m));
			mnem(w->p, prod, pm, sizeof(pm));
			if (have >= 0)
				snprintf(hv, sizeof(hv), "has %s(%d)", cname(w, c), have);
			else
				snprintf(hv, sizeof(hv), "has no wait on %s since it", cname(w, c));
			extra[0] = 0;
			if (k == VF_K_LDS && !write) {
				/* a deliberate schedule (hand-written Tensile kernels): an
				 * lgkmcnt wait since the read left it in flight on purpose
				 * and every path from the read to the use is long; with no
				 * wait at all on the path, a wait was skipped: race_raw */
				uint32_t dist = path_distance(w, prod, at, -1), mops = 0;
				if (have >= 0 && dist != UINT32_MAX && dist >= KW_VF_LDS_LATENCY_MIN) {
					/* ... and the matrix core kept busy on every path
					 * in between (MFMA/WMMA: the schedule hides the LDS
					 * latency behind them); without, a count one too
					 * high (a compiler's or an editor's slip): race_raw */
					mops = path_cost(w, prod, at, -1, 1);
					if (mops != UINT32_MAX && mops >= KW_VF_LDS_LATENCY_MATRIX_MIN)
						code = KW_VF_LDS_LATENCY;
				}
				if (code == KW_VF_LDS_LATENCY)
					snprintf(extra, sizeof(extra),
						 "; the schedule relies on LDS latency (the read finishing "
						 "within %u instructions, %u of them matrix ops), which the "
						 "ISA does not guarantee: add the wait, or accept it with "
						 "`kwgen-verify: allow %s` on the line or a suppression rule",
						 dist, mops, kw_verify_code_name(code));
				else if (have < 0 && at > prod)
					snprintf(extra, sizeof(extra),
						 "; the schedule relies on LDS latency (the read finishing "
						 "within %u instructions), which the ISA does not guarantee: "
						 "add the wait",
						 dist != UINT32_MAX ? dist : at - prod);
			}
			if (have >= 0)
				snprintf(fix, sizeof(fix), "; fix: use %s(%d) in the last wait before line %u",
					 cname(w, c), needed, w->p->insts[at].line);
			else
				snprintf(fix, sizeof(fix), "; fix: wait for %s(%d) before line %u", cname(w, c),
					 needed, w->p->insts[at].line);
			path_text(w, path, sizeof(path));
			ops[0] = 0;
			if (!w->isa->cls_ooo[k])
				snprintf(ops, sizeof(ops), " (%d younger %s ops issued after it%s)", needed,
					 cname(w, c), at_wait ? " when that wait is reached" : "");
			snprintf(msg, sizeof(msg),
				 "%s %s by %s while %s (line %u) may %s: needs %s(%d), %s%s%s%s%s%s",
				 reg, write ? "overwritten" : "read", m, pm, w->p->insts[prod].line,
				 write ? "still write it" : "be in flight", cname(w, c), needed, hv, ops,
				 class_note(w, k), fix, path, extra);
			emit(w, code, at, reg, prod, c, needed, have, msg);
		}
		reported = 1;
		retire(w, prod);
	}
}

/* LDS written by an in-flight op at a barrier; LDS-DMA data read by DS. */
static void check_lds_barrier(work *w, uint32_t at)
{
	int k;
	uint16_t s;

	while (find_pending(w, VF_SLOT_LDSW, 1, ~0u, &k, &s)) {
		uint32_t sc = w->score[k][s], prod = w->prod[k][s];
		int needed = needed_for(w, k, sc), have = have_for(w, k, sc);
		if (w->report) {
			char msg[512], m[64], pm[64], hv[48];
			int c = w->isa->cls_cnt[k];
			mnem(w->p, at, m, sizeof(m));
			mnem(w->p, prod, pm, sizeof(pm));
			if (have >= 0)
				snprintf(hv, sizeof(hv), "has %s(%d)", cname(w, c), have);
			else
				snprintf(hv, sizeof(hv), "has no wait on %s", cname(w, c));
			snprintf(msg, sizeof(msg),
				 "%s reached while %s (line %u) may still be writing LDS, so other waves "
				 "can read stale data after the barrier: needs %s(%d) before it, %s%s",
				 m, pm, w->p->insts[prod].line, cname(w, c), needed, hv, class_note(w, k));
			emit(w, KW_VF_LDS_BARRIER, at, NULL, prod, c, needed, have, msg);
		}
		retire(w, prod);
	}
	/* An LDS read in flight at the barrier: after it another wave may
	 * overwrite that LDS, and LDS operations of different waves may be
	 * reordered (AMDGPUUsage.rst, memory models GFX90A/GFX942/GFX10+:
	 * "the LDS memory has multiple request queues ...").  Only the
	 * youngest read is tracked: LDS reads complete in order. */
	while (find_pending(w, VF_SLOT_LDSR, 1, ~0u, &k, &s)) {
		uint32_t sc = w->score[k][s], prod = w->prod[k][s];
		int needed = needed_for(w, k, sc), have = have_for(w, k, sc);
		if (w->report) {
			char msg[512], m[64], pm[64], hv[48];
			int c = w->isa->cls_cnt[k];
			mnem(w->p, at, m, sizeof(m));
			mnem(w->p, prod, pm, sizeof(pm));
			if (have >= 0)
				snprintf(hv, sizeof(hv), "has %s(%d)", cname(w, c), have);
			else
				snprintf(hv, sizeof(hv), "has no wait on %s", cname(w, c));
			snprintf(msg, sizeof(msg),
				 "%s reached while %s (line %u) may still be reading LDS, so another wave "
				 "may overwrite that LDS after the barrier before the read completes: "
				 "needs %s(%d) before it, %s",
				 m, pm, w->p->insts[prod].line, cname(w, c), needed, hv);
			emit(w, KW_VF_LDS_BARRIER, at, NULL, prod, c, needed, have, msg);
		}
		w->mask[VF_SLOT_LDSR] &= (uint16_t)~(1u << k);
	}
	/* LDS DMA in flight at the barrier with no wait at all on its counter
	 * since it issued: the barrier was meant to publish it but waits on
	 * the wrong counter (llvm/llvm-project#75245).  A DMA in flight
	 * behind a partial wait is the double-buffered schedule (it fills the
	 * other buffer) and is left alone. */
	for (;;) {
		uint32_t sc, prod;
		int needed, have, found = 0;
		uint16_t m = w->mask[VF_SLOT_DMA];
		for (k = 0; k < VF_NCLS && !found; k++) {
			if (!(m & (1u << k)) || w->score[k][VF_SLOT_DMA] <= w->lb[k])
				continue;
			if (have_for(w, k, w->score[k][VF_SLOT_DMA]) < 0)
				found = 1;
		}
		if (!found)
			break;
		k--;
		sc = w->score[k][VF_SLOT_DMA];
		prod = w->prod[k][VF_SLOT_DMA];
		needed = needed_for(w, k, sc);
		have = -1;
		if (w->report) {
			char msg[512], mn[64], pm[64];
			int c = w->isa->cls_cnt[k];
			mnem(w->p, at, mn, sizeof(mn));
			mnem(w->p, prod, pm, sizeof(pm));
			snprintf(msg, sizeof(msg),
				 "%s reached while the LDS-DMA load %s (line %u) may still be writing LDS "
				 "(it completes on %s, not on the LDS counter): needs %s(%d) before it, "
				 "has no wait on %s",
				 mn, pm, w->p->insts[prod].line, cname(w, c), cname(w, c), needed,
				 cname(w, c));
			emit(w, KW_VF_LDS_BARRIER, at, NULL, prod, c, needed, have, msg);
		}
		w->score[k][VF_SLOT_DMAX] = sc;
		w->prod[k][VF_SLOT_DMAX] = prod;
		w->mask[VF_SLOT_DMAX] |= (uint16_t)(1u << k);
		touch(w, VF_SLOT_DMAX);
		w->mask[VF_SLOT_DMA] &= (uint16_t)~(1u << k);
	}
}

/* The youngest LDS-DMA / tensor load still in flight with no wait on its
 * counter since it issued (nor a barrier: check_lds_barrier moves those
 * to DMAX): class, or -1. */
static int dma_unwaited(work *w)
{
	uint16_t m = w->mask[VF_SLOT_DMA];

	for (int k = 0; m && k < VF_NCLS; k++)
		if ((m & (1u << k)) && w->score[k][VF_SLOT_DMA] > w->lb[k] &&
		    have_for(w, k, w->score[k][VF_SLOT_DMA]) < 0)
			return k;
	return -1;
}

/* An LDS-DMA / tensor load issued again, on a later trip of a loop, while
 * the previous trip's one is in flight with no wait on its counter and no
 * barrier since it issued, and an LDS read came in between: that read may
 * read the LDS the load is still writing (rocm-libraries PR 7839: the
 * s_wait_tensorcnt + s_barrier missing in a PLR=0 TDM loop).  In a
 * double-buffered loop a wait on the counter comes between the two
 * issues.  Reported at the read. */
static void check_dma_reissue(work *w, uint32_t at)
{
	int k = dma_unwaited(w);
	uint32_t sc, prod, rd;

	if (k < 0 || w->prod[k][VF_SLOT_DMA] < at)
		return;
	sc = w->score[k][VF_SLOT_DMA];
	prod = w->prod[k][VF_SLOT_DMA];
	if (!(w->mask[VF_SLOT_DMAR] & (1u << k)) || w->score[k][VF_SLOT_DMAR] != sc)
		return;
	rd = w->prod[k][VF_SLOT_DMAR];
	if (w->report) {
		char msg[512], m[64], pm[64];
		int c = w->isa->cls_cnt[k];
		mnem(w->p, rd, m, sizeof(m));
		mnem(w->p, prod, pm, sizeof(pm));
		snprintf(msg, sizeof(msg),
			 "%s reads LDS while %s (line %u), issued on the previous trip of the loop, may "
			 "still be writing LDS: it completes on %s, and neither a wait on %s nor a "
			 "barrier comes between it and this read before it is issued again; needs "
			 "%s(%d) (and a barrier if other waves read it) before the read",
			 m, pm, w->p->insts[prod].line, cname(w, c), cname(w, c), cname(w, c),
			 needed_for(w, k, sc));
		emit(w, KW_VF_LDS_DMA, rd, NULL, prod, c, needed_for(w, k, sc), -1, msg);
	}
	w->mask[VF_SLOT_DMAR] &= (uint16_t)~(1u << k);
}

static void check_lds_dma(work *w, uint32_t at)
{
	int k;
	uint16_t s;

	/* remember the first LDS read behind an unwaited LDS-DMA load */
	k = dma_unwaited(w);
	if (k >= 0 && !((w->mask[VF_SLOT_DMAR] & (1u << k)) &&
			w->score[k][VF_SLOT_DMAR] == w->score[k][VF_SLOT_DMA])) {
		w->score[k][VF_SLOT_DMAR] = w->score[k][VF_SLOT_DMA];
		w->prod[k][VF_SLOT_DMAR] = at;
		w->mask[VF_SLOT_DMAR] |= (uint16_t)(1u << k);
		touch(w, VF_SLOT_DMAR);
	}

	while (find_pending(w, VF_SLOT_DMAX, 1, ~0u, &k, &s)) {
		uint32_t sc = w->score[k][s], prod = w->prod[k][s];
		int needed = needed_for(w, k, sc), have = have_for(w, k, sc);
		if (w->report) {
			char msg[512], m[64], pm[64];
			int c = w->isa->cls_cnt[k];
			mnem(w->p, at, m, sizeof(m));
			mnem(w->p, prod, pm, sizeof(pm));
			snprintf(msg, sizeof(msg),
				 "%s reads LDS that the LDS-DMA load %s (line %u) may still be writing: "
				 "LDS DMA completes on %s, so waiting on the LDS counter is not enough; "
				 "needs %s(%d) before the barrier",
				 m, pm, w->p->insts[prod].line, cname(w, c), cname(w, c), needed);
			emit(w, KW_VF_LDS_DMA, at, NULL, prod, c, needed, have, msg);
		}
		retire(w, prod);
	}
}

/* ---- one instruction ---- */

static void issue(work *w, int k)
{
	int c = w->isa->cls_cnt[k];

	w->ub[k]++;
	if (w->isa->cls_ooo[k]) {
		if (c >= 0 && w->oc[k] < (uint32_t)w->isa->cap[c])
			w->oc[k]++;
	} else if (c >= 0 && w->ub[k] - w->lb[k] > (uint32_t)w->isa->cap[c]) {
		w->lb[k] = w->ub[k] - (uint32_t)w->isa->cap[c];
	}
}

static void set_slot(work *w, int k, uint16_t slot, uint32_t at)
{
	w->score[k][slot] = w->ub[k];
	w->prod[k][slot] = at;
	w->mask[slot] |= (uint16_t)(1u << k);
	touch(w, slot);
}

/* ---- calls ---- */

#define MAX_CALL_DEPTH 16
#define MAX_CONTEXTS 65536

static void note_cause(work *w, int kind, int reg, uint32_t at)
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
static int64_t inst_at_addr(const work *w, uint64_t a)
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

static int is_block_start(const work *w, int64_t t)
{
	return t >= 0 && (size_t)t < w->p->ninst && w->g->b[w->g->block_of[t]].first == (uint32_t)t;
}

/* The call at `at` goes to known instructions (s_swappc of a register
 * pair whose values the facts give): fills w->call_to.  0: unknown. */
static int resolve_call(work *w, uint32_t at)
{
	const vf_sop *o = &w->sops[at];
	uint64_t v[VF_SETK];
	int n;

	w->ncall = 0;
	if (o->op != VF_S_SWAPPC || !w->amap) {
		note_cause(w, 1, o->a, at);
		return 0;
	}
	n = vf_facts_values64(&w->F, o->a, v);
	if (n <= 0) {
		note_cause(w, 1, o->a, at);
		return 0;
	}
	if (w->ctxs[w->ctx].depth >= MAX_CALL_DEPTH || w->nctxs >= MAX_CONTEXTS) {
		note_cause(w, 5, o->a, at);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int64_t t = inst_at_addr(w, v[i]);
		if (!is_block_start(w, t)) {
			note_cause(w, 4, o->a, at);
			w->ncall = 0;
			return 0;
		}
		w->call_to[w->ncall++] = (uint32_t)t;
	}
	return 1;
}

static void step_counters(work *w, uint32_t at)
{
	const vf_prog *p = w->p;
	const vf_inst *in = &p->insts[at];
	const vf_op *ops = p->ops ? &p->ops[in->op0] : NULL;

	switch (in->kind) {
	case VF_I_WAIT:
		do_wait(w, at);
		return;
	case VF_I_IGNORE:
		if (in->aux == 1 && w->report) {
			char msg[256], text[96];
			inst_text(p, at, text, sizeof(text));
			snprintf(msg, sizeof(msg),
				 "`%s` selects VGPRs above v255 for the following operands; the model "
				 "reads operand numbers as written, so findings on those VGPRs may be "
				 "missed or misplaced",
				 text);
			emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
		return;
	case VF_I_END:
		return;
	case VF_I_UNKNOWN:
		if (w->report) {
			char msg[256], m[64];
			mnem(p, at, m, sizeof(m));
			snprintf(msg, sizeof(msg),
				 "unknown instruction '%s' for %s: the model does not know which counters "
				 "it uses or which registers it writes; it is not modelled",
				 m, w->isa->name);
			emit(w, KW_VF_UNKNOWN_INSTRUCTION, at, NULL, -1, -1, -1, -1, msg);
		}
		return;
	case VF_I_BARRIER:
		check_lds_barrier(w, at);
		return;
	default:
		break;
	}
	/* reads at issue */
	for (uint8_t i = 0; i < in->nops; i++)
		if (ops[i].def != 1)
			check(w, at, ops[i].slot, ops[i].n, 0, 0);
	if (in->flags & VF_F_LDSREAD)
		check_lds_dma(w, at);
	if (in->kind == VF_I_MEM) {
		uint32_t same = 0;
		if (in->flags & VF_F_DMA)
			check_dma_reissue(w, at);
		for (uint8_t c = 0; c < in->ncls; c++)
			if (!w->isa->cls_ooo[in->cls[c]] && !vf_vgpr_write_ooo(w->isa, in->cls[c]))
				same |= 1u << in->cls[c];
		for (uint8_t i = 0; i < in->nops; i++)
			if (ops[i].def)
				check(w, at, ops[i].slot, ops[i].n, 1, same);
		for (uint8_t c = 0; c < in->ncls; c++) {
			int k = in->cls[c];
			issue(w, k);
			for (uint8_t i = 0; i < in->nops; i++)
				if (ops[i].def)
					for (uint16_t s = ops[i].slot; s < ops[i].slot + ops[i].n; s++)
						set_slot(w, k, s, at);
			if ((in->flags & VF_F_LDSWRITE) && (k == VF_K_LDS || k == VF_K_FLATL))
				set_slot(w, k, VF_SLOT_LDSW, at);
			if ((in->flags & VF_F_LDSREAD) && k != VF_K_FLATV && k != VF_K_FLATS)
				set_slot(w, k, VF_SLOT_LDSR, at);
			if ((in->flags & VF_F_DMA) && c == 0)
				set_slot(w, k, VF_SLOT_DMA, at);
		}
		return;
	}
	/* ALU, calls, returns: overwrites */
	for (uint8_t i = 0; i < in->nops; i++) {
		if (!ops[i].def)
			continue;
		check(w, at, ops[i].slot, ops[i].n, 1, 0);
		for (uint16_t s = ops[i].slot; s < ops[i].slot + ops[i].n; s++)
			w->mask[s] = 0;
	}
	if (in->kind == VF_I_CALL && !resolve_call(w, at)) {
		/* SIInsertWaitcnts updateEventWaitcntAfter: after a call
		 * (callWaitsOnFunctionReturn) "Act as a wait on everything": the
		 * callee waits for all its memory operations before it returns
		 * (the AMDGPU calling convention).  Only for a callee the
		 * analysis cannot follow. */
		for (int c = 0; c < VF_NCNT; c++)
			if ((w->isa->counters >> c) & 1)
				apply_wait(w, c, 0);
		w->call_conv = 1;
	}
}

static void step(work *w, uint32_t at)
{
	w->call_conv = 0;
	step_counters(w, at);
	vf_facts_step(&w->F, &w->sops[at], w->p->addr ? w->p->addr[at] : -1);
	if (w->call_conv)
		vf_facts_kill_all(&w->F); /* an unknown callee may write any SGPR */
}

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

static void report_cfg(work *w, const vf_cfg *g)
{
	const vf_prog *p = w->p;

	for (size_t b = 0; b < g->n; b++) {
		const vf_inst *last = &p->insts[g->b[b].end - 1];
		uint32_t at = g->b[b].end - 1;
		char msg[256], text[96];

		if ((last->kind == VF_I_BRANCH || last->kind == VF_I_CBRANCH) && last->aux >= p->ninst) {
			inst_text(p, at, text, sizeof(text));
			snprintf(msg, sizeof(msg),
				 "branch target of `%s` is not in the text: that path is not followed", text);
			emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
	}
}

/* One `unsupported` per distinct cause (kind, register, function), at its
 * first site, with the number of sites. */
static void report_causes(work *w)
{
	for (size_t i = 0; i < w->ncauses && !w->rc; i++) {
		const struct cause *c = &w->causes[i];
		char msg[512], text[96], more[64];
		const char *what;

		inst_text(w->p, c->first, text, sizeof(text));
		switch (c->kind) {
		case 1:
			what = "call whose target is unknown: the callee is not analysed; assumed to follow "
			       "the AMDGPU calling convention and wait for all its memory operations before "
			       "it returns";
			break;
		case 2:
			what = "indirect jump whose target is unknown: not followed";
			break;
		case 3:
			what = "return from a subroutine to an address that is not known: not followed";
			break;
		case 4:
			what = "jump or call to an address that is not the start of an instruction block: not "
			       "followed";
			break;
		default:
			what = "calls nested deeper than the analysis follows (16, or 65536 calling "
			       "contexts): the callee is assumed to follow the AMDGPU calling convention";
			break;
		}
		more[0] = 0;
		if (c->count > 1)
			snprintf(more, sizeof(more), " (and %u more sites with the same cause)", c->count - 1);
		snprintf(msg, sizeof(msg), "`%s`: %s%s", text, what, more);
		w->seen = NULL; /* causes are distinct by construction */
		emit(w, KW_VF_UNSUPPORTED, c->first, NULL, -1, -1, -1, -1, msg);
	}
}

static void report_redundant(work *w)
{
	for (size_t at = 0; at < w->p->ninst && !w->rc; at++) {
		char msg[256], text[128];
		if (w->wseen[at] != 1)
			continue;
		inst_text(w->p, (uint32_t)at, text, sizeof(text));
		snprintf(msg, sizeof(msg),
			 "%s waits for nothing on every path to it (nothing it counts is in flight): "
			 "remove it", text);
		emit(w, KW_VF_REDUNDANT_WAIT, (uint32_t)at, NULL, -1, -1, -1, -1, msg);
	}
}

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
} graph;

/* 16: none of the 1,325 infeasible-labelled Tensile races remains, at about
 * 2x the path-blind time; 8 leaves 124, 4 leaves 428. */
#define MAX_PARTS 16
#define PART_OVERFLOW UINT64_MAX

#define WIDEN_AFTER 6

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
	if (part != PART_OVERFLOW) {
		cnt = hget(&G->pcount, (uint64_t)ctx << 32 | block, 1, 0);
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

static int64_t ctx_get(work *w, graph *G, uint32_t parent, uint32_t site)
{
	uint32_t *v = hget(&G->cmap, ((uint64_t)parent << 32) | site, 0, 0);

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
	if (!hget(&G->cmap, ((uint64_t)parent << 32) | site, 1, (uint32_t)w->nctxs))
		return -1;
	w->ctxs[w->nctxs] = (vf_ctx){ parent, site, w->ctxs[parent].depth + 1 };
	return (int64_t)w->nctxs++;
}

typedef struct edge {
	uint32_t block, ctx;
	int cond;                  /* -1: none; 0/1: SCC on this edge; 2: VCC != 0 */
} edge;

/* Successors of the node just stepped (w's state is its exit state). */
static int successors(work *w, const vf_cfg *g, graph *G, uint32_t b, edge *e)
{
	const vf_prog *p = w->p;
	const vf_block *bl = &g->b[b];
	uint32_t at = bl->end - 1;
	const vf_inst *last = &p->insts[at];
	const vf_sop *o = &w->sops[at];
	int n = 0;

	if (last->kind == VF_I_CALL && w->ncall > 0) {
		int64_t c = ctx_get(w, G, w->ctx, at);
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
				note_cause(w, 3, o->a, at);
			else if (f && f->kernel)
				note_cause(w, 2, o->a, at);
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
			t = inst_at_addr(w, v[i]);
			if (!is_block_start(w, t)) {
				note_cause(w, 4, o->a, at);
				continue;
			}
			e[n++] = (edge){ g->block_of[t], c, -1 };
		}
		return n;
	}
	if (last->kind == VF_I_CBRANCH && (o->op == VF_S_CBR_SCC0 || o->op == VF_S_CBR_SCC1) &&
	    bl->nsucc == 2 && last->aux < p->ninst) {
		int tk = o->op == VF_S_CBR_SCC1;
		for (int i = 0; i < 2; i++) {
			int taken = bl->succ[i] == g->block_of[last->aux];
			e[n++] = (edge){ bl->succ[i], w->ctx, taken ? tk : !tk };
		}
		return n;
	}
	if (last->kind == VF_I_CBRANCH && (o->op == VF_S_CBR_VCCZ || o->op == VF_S_CBR_VCCNZ) &&
	    bl->nsucc == 2 && last->aux < p->ninst) {
		/* only the VCC != 0 edge says something: VCC == 0 may be an
		 * empty EXEC whatever the compare said */
		int nz_taken = o->op == VF_S_CBR_VCCNZ;
		for (int i = 0; i < 2; i++) {
			int taken = bl->succ[i] == g->block_of[last->aux];
			e[n++] = (edge){ bl->succ[i], w->ctx, taken == nz_taken ? 2 : -1 };
		}
		return n;
	}
	if (last->kind == VF_I_CBRANCH && (o->op == VF_S_CBR_EXECZ || o->op == VF_S_CBR_EXECNZ) &&
	    bl->nsucc == 2 && last->aux < p->ninst) {
		/* 3: EXEC == 0 on this edge, 4: EXEC != 0 */
		int z_taken = o->op == VF_S_CBR_EXECZ;
		for (int i = 0; i < 2; i++) {
			int taken = bl->succ[i] == g->block_of[last->aux];
			e[n++] = (edge){ bl->succ[i], w->ctx, taken == z_taken ? 3 : 4 };
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
	free(w);
}

int vf_analyze(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err)
{
	work *w;
	vf_cfg g;
	graph G;
	uint64_t work_done = 0, max_work;
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
		uint64_t need = (uint64_t)p->len + (uint64_t)p->cap_inst * sizeof(vf_inst) +
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
		heap_push(heap, &nheap, (uint64_t)b << 32 | b);
	}
	/* fixed point: a min-heap of dirty nodes, so the lowest (program
	 * order, calling contexts after) dirty node goes next */
	while (nheap && !rc) {
		uint32_t nid = (uint32_t)heap_pop(heap, &nheap);
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
		load_state(w, &nd->in);
		vf_facts_load(&w->F, &nd->fin);
		w->ctx = nd->ctx;
		w->ncall = 0;
		for (uint32_t i = bl->first; i < bl->end; i++)
			step(w, i);
		memset(&out, 0, sizeof(out));
		memset(&ofacts, 0, sizeof(ofacts));
		if (save_state(w, &out, &n)) {
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
			ch = join(w, &G.n[m].in, &out, n);
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
				heap_push(heap, &nheap, (uint64_t)G.n[m].block << 32 | (uint64_t)m);
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
		if (!rc)
			report_cfg(w, &g);
		for (size_t i = 0; !rc && i < G.nn && !w->rc; i++) {
			vf_node *nd = &G.n[i];
			const vf_block *bl = &g.b[nd->block];
			if (!nd->in.valid)
				continue;
			reached[nd->block] = 1;
			w->unreachable = 0;
			load_state(w, &nd->in);
			vf_facts_load(&w->F, &nd->fin);
			w->ctx = nd->ctx;
			w->ncall = 0;
			for (uint32_t k = bl->first; k < bl->end; k++)
				step(w, k);
			if (successors(w, &g, &G, nd->block, e) < 0)
				w->rc = KW_ENOMEM;
		}
		for (size_t b = 0; !rc && b < g.n && !w->rc; b++) {
			if (reached[b])
				continue;
			w->unreachable = 1;
			load_state(w, NULL);
			vf_facts_clear(&w->F);
			w->ctx = 0;
			{
				int rep = w->report;
				for (uint32_t k = g.b[b].first; k < g.b[b].end; k++) {
					/* unreachable: no call or jump causes to report */
					w->report = p->insts[k].kind == VF_I_CALL ? 0 : rep;
					step(w, k);
				}
				w->report = rep;
			}
		}
		free(reached);
		if (!rc && !w->rc)
			report_redundant(w);
		if (!rc && !w->rc)
			report_causes(w);
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
	hfree(&G.pcount);
	hfree(&G.cmap);
	hfree(&seen);
	work_free(w);
	vf_cfg_free(&g);
	return rc;
}
