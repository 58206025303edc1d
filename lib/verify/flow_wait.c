/* flow_wait.c - one instruction through the data-flow (flow_int.h): waits
 * applied to the score brackets, the hazards a read or overwrite meets
 * (race_raw, race_waw, lds_latency), LDS at barriers and LDS-DMA data,
 * and the events an instruction issues. */
#include "verify/flow_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			vf_fl_reg_text(reg, sizeof(reg), slot, n);
			vf_fl_mnem(w->p, at, m, sizeof(m));
			need[0] = 0;
			for (int c = 0; c < VF_NCNT; c++)
				if (unk & (1u << c))
					q += (size_t)snprintf(need + q, sizeof(need) - q, "%s%s(0)",
							      q ? " " : "", vf_fl_cname(w, c));
			snprintf(msg, sizeof(msg),
				 "%s %s by %s before the function waits for the memory operations its "
				 "caller may have left in flight (entry state unknown): needs %s first",
				 reg, write ? "overwritten" : "read", m, need);
			for (int c = 0; c < VF_NCNT; c++)
				if (unk & (1u << c)) {
					vf_fl_emit(w, write ? KW_VF_RACE_WAW : KW_VF_RACE_RAW, at, reg, -1, c, 0,
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
			char reg[32], msg[1024], m[64], pm[64], hv[48], extra[320], tail[1200], path[800], ops[96];
			int c = w->isa->cls_cnt[k];
			int code = write ? KW_VF_RACE_WAW : KW_VF_RACE_RAW;
			/* in order: the last wait was reached with fewer younger ops
			 * than are issued now; needed_for gave the count that wait
			 * needs (the fix) */
			int at_wait = have >= 0 && !w->isa->cls_ooo[k] && w->wub[k] >= sc &&
				      w->wub[k] < w->ub[k];
			vf_fl_reg_text(reg, sizeof(reg), slot, n);
			vf_fl_mnem(w->p, at, m, sizeof(m));
			vf_fl_mnem(w->p, prod, pm, sizeof(pm));
			if (have >= 0)
				snprintf(hv, sizeof(hv), "has %s(%d)", vf_fl_cname(w, c), have);
			else
				snprintf(hv, sizeof(hv), "has no wait on %s since it", vf_fl_cname(w, c));
			extra[0] = 0;
			if (k == VF_K_LDS && !write) {
				/* a deliberate schedule (hand-written Tensile kernels): an
				 * lgkmcnt wait since the read left it in flight on purpose
				 * and every path from the read to the use is long; with no
				 * wait at all on the path, a wait was skipped: race_raw */
				uint32_t dist = vf_fl_path_distance(w, prod, at, -1), mops = 0;
				if (have >= 0 && dist != UINT32_MAX && dist >= KW_VF_LDS_LATENCY_MIN) {
					/* ... and the matrix core kept busy on every path
					 * in between (MFMA/WMMA: the schedule hides the LDS
					 * latency behind them); without, a count one too
					 * high (a compiler's or an editor's slip): race_raw */
					mops = vf_fl_path_cost(w, prod, at, -1, 1);
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
			vf_fl_path_text(w, path, sizeof(path));
			ops[0] = 0;
			if (!w->isa->cls_ooo[k])
				snprintf(ops, sizeof(ops), " (%d younger %s ops issued after it%s)", needed,
					 vf_fl_cname(w, c), at_wait ? " when that wait is reached" : "");
			snprintf(msg, sizeof(msg), "%s %s by %s while %s (line %u) may %s: needs %s(%d), %s%s%s",
				 reg, write ? "overwritten" : "read", m, pm, w->p->insts[prod].line,
				 write ? "still write it" : "be in flight", vf_fl_cname(w, c), needed, hv, ops,
				 class_note(w, k));
			snprintf(tail, sizeof(tail), "%s%s", path, extra);
			{
				struct use u;
				memset(&u, 0, sizeof(u));
				u.code = code;
				u.cnt = c;
				u.needed = needed;
				u.have = have;
				u.write = write;
				u.at = at;
				u.prod = prod;
				snprintf(u.reg, sizeof(u.reg), "%s", reg);
				u.head = msg;
				u.tail = tail;
				u.plen = strlen(path) < strlen(tail) ? strlen(path) : strlen(tail);
				vf_fl_emit_use(w, &u);
			}
		}
		reported = 1;
		retire(w, prod);
	}
}

/* The finding for an LDS op (producer prod, class k) still in flight at
 * the barrier at; risk says what another wave may then see. */
static void barrier_finding(work *w, uint32_t at, int k, uint32_t prod, int needed, int have,
			    const char *risk, int note)
{
	char msg[512], m[64], pm[64], hv[48];
	int c = w->isa->cls_cnt[k];

	vf_fl_mnem(w->p, at, m, sizeof(m));
	vf_fl_mnem(w->p, prod, pm, sizeof(pm));
	if (have >= 0)
		snprintf(hv, sizeof(hv), "has %s(%d)", vf_fl_cname(w, c), have);
	else
		snprintf(hv, sizeof(hv), "has no wait on %s", vf_fl_cname(w, c));
	snprintf(msg, sizeof(msg), "%s reached while %s (line %u) may still be %s: needs %s(%d) before it, %s%s", m,
		 pm, w->p->insts[prod].line, risk, vf_fl_cname(w, c), needed, hv, note ? class_note(w, k) : "");
	vf_fl_emit(w, KW_VF_LDS_BARRIER, at, NULL, prod, c, needed, have, msg);
}

/* LDS written by an in-flight op at a barrier; LDS-DMA data read by DS. */
static void check_lds_barrier(work *w, uint32_t at)
{
	int k;
	uint16_t s;

	while (find_pending(w, VF_SLOT_LDSW, 1, ~0u, &k, &s)) {
		uint32_t sc = w->score[k][s], prod = w->prod[k][s];
		if (w->report)
			barrier_finding(w, at, k, prod, needed_for(w, k, sc), have_for(w, k, sc),
					"writing LDS, so other waves can read stale data after the barrier", 1);
		retire(w, prod);
	}
	/* An LDS read in flight at the barrier: after it another wave may
	 * overwrite that LDS, and LDS operations of different waves may be
	 * reordered (AMDGPUUsage.rst, memory models GFX90A/GFX942/GFX10+:
	 * "the LDS memory has multiple request queues ...").  Only the
	 * youngest read is tracked: LDS reads complete in order. */
	while (find_pending(w, VF_SLOT_LDSR, 1, ~0u, &k, &s)) {
		uint32_t sc = w->score[k][s], prod = w->prod[k][s];
		if (w->report)
			barrier_finding(w, at, k, prod, needed_for(w, k, sc), have_for(w, k, sc),
					"reading LDS, so another wave may overwrite that LDS after the barrier "
					"before the read completes", 0);
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
			vf_fl_mnem(w->p, at, mn, sizeof(mn));
			vf_fl_mnem(w->p, prod, pm, sizeof(pm));
			snprintf(msg, sizeof(msg),
				 "%s reached while the LDS-DMA load %s (line %u) may still be writing LDS "
				 "(it completes on %s, not on the LDS counter): needs %s(%d) before it, "
				 "has no wait on %s",
				 mn, pm, w->p->insts[prod].line, vf_fl_cname(w, c), vf_fl_cname(w, c), needed,
				 vf_fl_cname(w, c));
			vf_fl_emit(w, KW_VF_LDS_BARRIER, at, NULL, prod, c, needed, have, msg);
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
		vf_fl_mnem(w->p, rd, m, sizeof(m));
		vf_fl_mnem(w->p, prod, pm, sizeof(pm));
		snprintf(msg, sizeof(msg),
			 "%s reads LDS while %s (line %u), issued on the previous trip of the loop, may "
			 "still be writing LDS: it completes on %s, and neither a wait on %s nor a "
			 "barrier comes between it and this read before it is issued again; needs "
			 "%s(%d) (and a barrier if other waves read it) before the read",
			 m, pm, w->p->insts[prod].line, vf_fl_cname(w, c), vf_fl_cname(w, c), vf_fl_cname(w, c),
			 needed_for(w, k, sc));
		vf_fl_emit(w, KW_VF_LDS_DMA, rd, NULL, prod, c, needed_for(w, k, sc), -1, msg);
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
			vf_fl_mnem(w->p, at, m, sizeof(m));
			vf_fl_mnem(w->p, prod, pm, sizeof(pm));
			snprintf(msg, sizeof(msg),
				 "%s reads LDS that the LDS-DMA load %s (line %u) may still be writing: "
				 "LDS DMA completes on %s, so waiting on the LDS counter is not enough; "
				 "needs %s(%d) before the barrier",
				 m, pm, w->p->insts[prod].line, vf_fl_cname(w, c), vf_fl_cname(w, c), needed);
			vf_fl_emit(w, KW_VF_LDS_DMA, at, NULL, prod, c, needed, have, msg);
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
			vf_fl_inst_text(p, at, text, sizeof(text));
			snprintf(msg, sizeof(msg),
				 "`%s` selects VGPRs above v255 for the following operands; the model "
				 "reads operand numbers as written, so findings on those VGPRs may be "
				 "missed or misplaced",
				 text);
			vf_fl_emit(w, KW_VF_UNSUPPORTED, at, NULL, -1, -1, -1, -1, msg);
		}
		return;
	case VF_I_END:
		return;
	case VF_I_UNKNOWN:
		if (w->report) {
			char msg[256], m[64];
			vf_fl_mnem(p, at, m, sizeof(m));
			snprintf(msg, sizeof(msg),
				 "unknown instruction '%s' for %s: the model does not know which counters "
				 "it uses or which registers it writes; it is not modelled",
				 m, w->isa->name);
			vf_fl_emit(w, KW_VF_UNKNOWN_INSTRUCTION, at, NULL, -1, -1, -1, -1, msg);
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
	if (in->kind == VF_I_CALL && !vf_fl_resolve_call(w, at)) {
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

void vf_fl_step(work *w, uint32_t at)
{
	w->call_conv = 0;
	step_counters(w, at);
	vf_facts_step(&w->F, &w->sops[at], w->p->addr ? w->p->addr[at] : -1);
	if (w->call_conv)
		vf_facts_kill_all(&w->F); /* an unknown callee may write any SGPR */
}
