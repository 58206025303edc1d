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
} work;

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
	/* merge sorted entry lists */
	cap = in->n + n;
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
			changed = 1;
		} else {
			m[k] = *a;
			if (b->age < a->age) {
				m[k].age = b->age;
				m[k].prod = b->prod;
				changed = 1;
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
	return changed;
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

	if (!w->report || w->rc)
		return;
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
	if (vf_finding_add(w->r, &fi))
		w->rc = KW_ENOMEM;
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
	if (w->report && !effective && !touches_fixed && !w->unreachable) {
		char msg[256], text[128];
		inst_text(w->p, at, text, sizeof(text));
		snprintf(msg, sizeof(msg),
			 "%s waits for nothing on every path to it (nothing it counts is in flight): "
			 "remove it", text);
		emit(w, KW_VF_REDUNDANT_WAIT, at, NULL, -1, -1, -1, -1, msg);
	}
	for (int c = 0; c < VF_NCNT; c++) {
		if (wt->n[c] < 0)
			continue;
		apply_wait(w, c, wt->n[c]);
		w->fixed &= (uint16_t)~(1u << c);
	}
}

/* ---- hazards ---- */

/* Count that would complete the pending write (class k, score s). */
static int needed_for(const work *w, int k, uint32_t s)
{
	uint32_t age;

	if (w->isa->cls_ooo[k])
		return 0;
	age = w->ub[k] - s;
	return (int)age;
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
	while (find_pending(w, slot, n, ~ignore_cls, &k, &s)) {
		uint32_t sc = w->score[k][s];
		int needed = needed_for(w, k, sc), have = have_for(w, k, sc);
		uint32_t prod = w->prod[k][s];

		if (!reported && w->report) {
			char reg[32], msg[768], m[64], pm[64], hv[48], extra[320];
			int c = w->isa->cls_cnt[k];
			reg_text(reg, sizeof(reg), slot, n);
			mnem(w->p, at, m, sizeof(m));
			mnem(w->p, prod, pm, sizeof(pm));
			if (have >= 0)
				snprintf(hv, sizeof(hv), "has %s(%d)", cname(w, c), have);
			else
				snprintf(hv, sizeof(hv), "has no wait on %s since it", cname(w, c));
			extra[0] = 0;
			if (k == VF_K_LDS && have < 0 && at > prod)
				snprintf(extra, sizeof(extra),
					 "; the schedule relies on LDS latency (the read finishing within "
					 "%u instructions), which the ISA does not guarantee: add the wait, "
					 "or accept it with `kwgen-verify: allow race_raw` on the line or a "
					 "suppression rule",
					 at - prod);
			snprintf(msg, sizeof(msg), "%s %s by %s while %s (line %u) may %s: needs %s(%d), %s%s%s",
				 reg, write ? "overwritten" : "read", m, pm, w->p->insts[prod].line,
				 write ? "still write it" : "be in flight", cname(w, c), needed, hv,
				 class_note(w, k), extra);
			emit(w, write ? KW_VF_RACE_WAW : KW_VF_RACE_RAW, at, reg, prod, c, needed, have,
			     msg);
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

static void step(work *w, uint32_t at)
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
	if (in->kind == VF_I_CALL) {
		/* SIInsertWaitcnts updateEventWaitcntAfter: after a call
		 * (callWaitsOnFunctionReturn) "Act as a wait on everything": the
		 * callee waits for all its memory operations before it returns
		 * (the AMDGPU calling convention). */
		for (int c = 0; c < VF_NCNT; c++)
			if ((w->isa->counters >> c) & 1)
				apply_wait(w, c, 0);
		if (w->report) {
			char msg[256], m[64];
			mnem(p, at, m, sizeof(m));
			snprintf(msg, sizeof(msg),
				 "%s: the callee is not analysed; assumed to follow the AMDGPU calling "
				 "convention and wait for all its memory operations before it returns",
				 m);
			emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
	}
}

/* ---- driver ---- */

static void heap_push(uint32_t *h, size_t *n, uint32_t v)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, size_t *n)
{
	uint32_t top = h[0], v = h[--(*n)];
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
		} else if (last->kind == VF_I_SETPC && p->nfuncs && p->funcs[last->func].kernel) {
			inst_text(p, at, text, sizeof(text));
			snprintf(msg, sizeof(msg),
				 "indirect jump `%s` in a kernel: its target is unknown and not followed",
				 text);
			emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
	}
}

int vf_analyze(vf_prog *p, kw_verify_result *r, const kw_verify_opts *o, kw_error *err)
{
	work *w;
	vf_cfg g;
	uint64_t work_done = 0, max_work;
	uint32_t *heap = NULL;
	size_t nheap = 0;
	int rc;

	r->stats.instructions = p->ninst;
	r->stats.functions = p->nfuncs;
	for (size_t i = 0; i < p->ninst; i++)
		r->stats.waits += p->insts[i].kind == VF_I_WAIT;
	if (!p->ninst)
		return 0;
	rc = vf_cfg_build(&g, p, err);
	if (rc)
		return rc;
	r->stats.blocks = g.n;
	w = calloc(1, sizeof(*w));
	if (w) {
		w->score = malloc(sizeof(uint32_t[VF_NCLS][VF_NSLOT]));
		w->prod = malloc(sizeof(uint32_t[VF_NCLS][VF_NSLOT]));
	}
	if (!w || !w->score || !w->prod) {
		if (w) {
			free(w->score);
			free(w->prod);
		}
		free(w);
		vf_cfg_free(&g);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	init_work(w, p, r);
	max_work = o && o->max_work ? o->max_work : (uint64_t)p->ninst * 64 + (1u << 20);

	/* entry states */
	for (size_t b = 0; b < g.n; b++) {
		vf_block *bl = &g.b[b];
		if (!bl->entry)
			continue;
		memset(&bl->in, 0, sizeof(bl->in));
		bl->in.valid = 1;
		for (int c = 0; c < VF_NCNT; c++)
			bl->in.wn[c] = -1;
		for (int k = 0; k < VF_NCLS; k++)
			bl->in.wage[k] = UINT32_MAX;
		/* a callable function's callers may leave anything in flight;
		 * LLVM waits for it at function entry (SIInsertWaitcnts: the
		 * callee "is going to insert a wait on everything in its
		 * prolog", callWaitsOnFunctionEntry) */
		if (bl->entry == 2)
			bl->in.unk = (uint16_t)p->isa->entry_unknown;
		bl->dirty = 1;
	}
	/* fixed point: a min-heap of dirty blocks, so the lowest (program
	 * order) dirty block goes next and clean blocks cost nothing */
	rc = 0;
	heap = malloc(g.n * sizeof(*heap));
	if (!heap)
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	for (size_t b = 0; b < g.n && !rc; b++)
		if (g.b[b].dirty)
			heap_push(heap, &nheap, (uint32_t)b);
	while (nheap && !rc) {
		uint32_t b = heap_pop(heap, &nheap);
		vf_block *bl = &g.b[b];
		vf_sstate out;
		uint32_t n;

		bl->dirty = 0;
		work_done += bl->end - bl->first;
		if (work_done > max_work) {
			rc = kw_error_set(err, KW_ELIMIT, "max_work",
					  "the data-flow did not settle within %llu instruction "
					  "visits (max_work); raise the bound",
					  (unsigned long long)max_work);
			break;
		}
		load_state(w, &bl->in);
		for (uint32_t i = bl->first; i < bl->end; i++)
			step(w, i);
		memset(&out, 0, sizeof(out));
		if (save_state(w, &out, &n)) {
			rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
			break;
		}
		for (uint8_t s = 0; s < bl->nsucc; s++) {
			vf_block *sb = &g.b[bl->succ[s]];
			int ch = join(w, &sb->in, &out, n);
			if (ch < 0) {
				rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
				break;
			}
			if (ch && !sb->dirty) {
				sb->dirty = 1;
				heap_push(heap, &nheap, bl->succ[s]);
			}
		}
	}
	free(heap);
	r->stats.work = work_done;
	/* reporting pass over the fixed point */
	if (!rc) {
		w->report = 1;
		report_cfg(w, &g);
		for (size_t b = 0; b < g.n && !w->rc; b++) {
			vf_block *bl = &g.b[b];
			w->unreachable = !bl->in.valid;
			load_state(w, bl->in.valid ? &bl->in : NULL);
			for (uint32_t i = bl->first; i < bl->end; i++)
				step(w, i);
		}
		if (w->rc)
			rc = kw_error_set(err, w->rc, NULL, "out of memory");
	}
	free(w->tmp);
	free(w->score);
	free(w->prod);
	free(w);
	vf_cfg_free(&g);
	return rc;
}
