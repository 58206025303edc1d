/* wait.c - ports tdmWait and wait (seed_KernelWriterModules.py). */
#include "kwgen/gen.h"
#include "kwgen/module.h"
#include "checked.h"

#include <stdio.h>
#include <string.h>

#define NEED(var, key) do { if (kw_kernel_need(&(var), in->k, (key), who, err)) return err ? err->code : KW_EINVAL; } while (0)

int kw_gen_tdm_wait(kw_item **out, const kw_gen_in *in, int64_t tensorcnt, const char *comment, kw_error *err)
{
	kw_item *mod = kw_module(in->arena, "");

	if (!mod)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	if (tensorcnt > -1 && kw_module_add(in->arena, mod, kw_swaitcnt(in->arena, 0, -1, -1, -1, "", 0)))
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	if (kw_module_add(in->arena, mod, kw_swait_tensorcnt(in->arena, tensorcnt, comment)))
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	*out = mod;
	return 0;
}

static int tp_missing(const char *tp, const char *sub, const char *key, kw_error *err)
{
	char f[KW_ERROR_FIELD_MAX];

	snprintf(f, sizeof(f), "%s%s%s.%s", tp, sub ? "." : "", sub ? sub : "", key);
	return kw_error_set(err, KW_EINVAL, f, "missing %s: wait reads it (an integer)", f);
}

/* nrp*nrc*max(nwcv,nwpv)//nwcvpi of one count set. */
static int tp_writes(int64_t *out, const kw_tp_counts *c, const char *tp, const char *sub, kw_error *err)
{
	int64_t t;

	if (c->is_null) {
		char f[64];
		snprintf(f, sizeof(f), "%s.%s", tp, sub ? sub : "");
		return kw_error_set(err, KW_EINVAL, f, "%s is null: wait reads its nrp, nrc, nwcv, nwpv, nwcvpi", f);
	}
	for (int i = 0; i < KW_TPC_COUNT; i++)
		if (!(c->present & (1u << i)))
			return tp_missing(tp, sub, kw_tpc_name(i), err);
	if (kw_mul(&t, c->v[KW_TPC_nrp], c->v[KW_TPC_nrc]) ||
	    kw_mul(&t, t, c->v[KW_TPC_nwcv] > c->v[KW_TPC_nwpv] ? c->v[KW_TPC_nwcv] : c->v[KW_TPC_nwpv]))
		return KW_OVERFLOW(err, "wait");
	if (c->v[KW_TPC_nwcvpi] == 0) {
		char f[64];
		snprintf(f, sizeof(f), "%s%s%s.nwcvpi", tp, sub ? "." : "", sub ? sub : "");
		return kw_error_set(err, KW_EINVAL, f, "%s is 0: wait divides by it (elements written per local-write instruction, >= 1)", f);
	}
	if (kw_floordiv(out, t, c->v[KW_TPC_nwcvpi]))
		return KW_OVERFLOW(err, "wait");
	return 0;
}

static int need_tp(const kw_tp *tp, const char *name, kw_error *err)
{
	if (!tp->given)
		return kw_error_set(err, KW_EINVAL, name, "missing %s: wait reads the tensor parameters (nrp, nrc, nwcv, nwpv, nwcvpi, localReadInstruction)", name);
	return 0;
}

static int need_state(int64_t *out, const kw_states *st, int i, kw_error *err)
{
	if (!(st->present & (1u << i))) {
		char f[64];
		snprintf(f, sizeof(f), "states.%s", kw_states_name(i));
		return kw_error_set(err, KW_EINVAL, f, "missing %s: wait reads it (an integer)", f);
	}
	*out = st->v[i];
	return 0;
}

/* Local writes of one tensor X: 0 for DirectToLds/DirectToVgpr. */
static int local_writes(int64_t *out, const kw_gen_in *in, int is_b, kw_error *err)
{
	const char *who = "wait";
	int64_t dtl, dtv = 0;
	const kw_tp *tp = is_b ? in->tPB : in->tPA;
	const char *name = is_b ? "tPB" : "tPA";

	NEED(dtl, is_b ? KK_DirectToLdsB : KK_DirectToLdsA);
	if (!dtl)
		NEED(dtv, is_b ? KK_DirectToVgprB : KK_DirectToVgprA);
	if (dtl || dtv) {
		*out = 0;
		return 0;
	}
	if (need_tp(tp, name, err))
		return err ? err->code : KW_EINVAL;
	return tp_writes(out, &tp->c, name, NULL, err);
}

static int mx_writes(int64_t *out, const kw_gen_in *in, int is_b, kw_error *err)
{
	const char *who = "wait";
	int64_t mx, dtl, dtv = 0;
	const kw_tp *tp = is_b ? in->tPB : in->tPA;
	const char *name = is_b ? "tPB" : "tPA";

	*out = 0;
	NEED(mx, is_b ? KK_MXBlockB : KK_MXBlockA);
	if (!mx)
		return 0;
	NEED(dtl, is_b ? KK_DirectToLdsB : KK_DirectToLdsA);
	if (!dtl)
		NEED(dtv, is_b ? KK_DirectToVgprB : KK_DirectToVgprA);
	if (dtl || dtv)
		return 0;
	if (need_tp(tp, name, err))
		return err ? err->code : KW_EINVAL;
	if (!tp->has_MX)
		return kw_error_set(err, KW_EINVAL, is_b ? "tPB.MX" : "tPA.MX", "missing %s.MX: wait reads the MX scale tensor parameters when MXBlock%c is set", name, is_b ? 'B' : 'A');
	return tp_writes(out, &tp->MX, name, "MX", err);
}

static int block_width_reads(int64_t *out, const kw_tp *tp, const char *name, kw_error *err)
{
	char f[64];

	if (need_tp(tp, name, err))
		return err ? err->code : KW_EINVAL;
	if (!tp->has_block_width) {
		snprintf(f, sizeof(f), "%s.localReadInstruction.blockWidth", name);
		return kw_error_set(err, KW_EINVAL, f, "missing %s: wait reads it (registers per local read)", f);
	}
	*out = tp->block_width == 6 ? 2 : 1;
	return 0;
}

int kw_gen_wait(kw_item **out, const kw_gen_in *in, const kw_wait_args *a, kw_error *err)
{
	const char *who = "wait";
	int64_t dscnt, vlcnt, t;
	int skipGR;

	dscnt = (a->skipLocalWrite > -1 || a->skipLocalRead > -1) ? 0 : -1;
	if (a->skipLocalWrite > -1) {
		int64_t numA, numB, numM = 0, numMXSA, numMXSB, sparse, dtvsm = 0, sum;

		if (local_writes(&numA, in, 0, err) || local_writes(&numB, in, 1, err) ||
		    mx_writes(&numMXSA, in, 0, err) || mx_writes(&numMXSB, in, 1, err))
			return err ? err->code : KW_EINVAL;
		NEED(sparse, KK_Sparse);
		if (sparse)
			NEED(dtvsm, KK_DirectToVgprSparseMetadata);
		if (sparse && !dtvsm) {
			const kw_tp *tpm;
			const char *nm;

			if (need_tp(in->tPA, "tPA", err))
				return err ? err->code : KW_EINVAL;
			if (!in->tPA->has_is_sparse)
				return kw_error_set(err, KW_EINVAL, "tPA.is_sparse", "missing tPA.is_sparse: wait reads it for sparse kernels");
			if (in->tPA->is_sparse) {
				tpm = in->tPA, nm = "tPA";
			} else {
				if (need_tp(in->tPB, "tPB", err))
					return err ? err->code : KW_EINVAL;
				tpm = in->tPB, nm = "tPB";
			}
			if (!tpm->has_tpsMetadata)
				return kw_error_set(err, KW_EINVAL, nm, "missing %s.tpsMetadata: wait reads the metadata tensor parameters of sparse kernels", nm);
			if (tp_writes(&numM, &tpm->tpsMetadata, nm, "tpsMetadata", err))
				return err ? err->code : KW_EINVAL;
		}
		if (kw_add(&sum, numA, numB) || kw_add(&sum, sum, numM) || kw_add(&sum, sum, numMXSA) ||
		    kw_add(&sum, sum, numMXSB) || kw_mul(&t, a->skipLocalWrite, sum) || kw_add(&dscnt, dscnt, t))
			return KW_OVERFLOW(err, who);
	}
	if (a->skipLocalRead > -1) {
		int64_t ipa, ipb, dtva, dtvb, nA = 0, nB = 0, mxa, mxb, nMXSA = 0, nMXSB = 0, meta, sum, v;

		if (block_width_reads(&ipa, in->tPA, "tPA", err) || block_width_reads(&ipb, in->tPB, "tPB", err))
			return err ? err->code : KW_EINVAL;
		NEED(dtva, KK_DirectToVgprA);
		if (!dtva) {
			if (need_state(&v, in->states, KW_ST_numReadsPerIterA, err))
				return err ? err->code : KW_EINVAL;
			if (kw_mul(&nA, v, ipa))
				return KW_OVERFLOW(err, who);
		}
		NEED(dtvb, KK_DirectToVgprB);
		if (!dtvb) {
			if (need_state(&v, in->states, KW_ST_numReadsPerIterB, err))
				return err ? err->code : KW_EINVAL;
			if (kw_mul(&nB, v, ipb))
				return KW_OVERFLOW(err, who);
		}
		NEED(mxa, KK_MXBlockA);
		if (mxa) {
			int64_t d;
			NEED(d, KK_DirectToVgprMXSA);
			if (!d && need_state(&nMXSA, in->states, KW_ST_numReadsPerIterMXSA, err))
				return err ? err->code : KW_EINVAL;
		}
		NEED(mxb, KK_MXBlockB);
		if (mxb) {
			int64_t d;
			NEED(d, KK_DirectToVgprMXSB);
			if (!d && need_state(&nMXSB, in->states, KW_ST_numReadsPerIterMXSB, err))
				return err ? err->code : KW_EINVAL;
		}
		if (need_state(&meta, in->states, KW_ST_numReadsPerIterMetadata, err))
			return err ? err->code : KW_EINVAL;
		if (kw_add(&sum, nA, nMXSA) || kw_add(&sum, sum, nB) || kw_add(&sum, sum, nMXSB) ||
		    kw_add(&sum, sum, meta) || kw_mul(&t, a->skipLocalRead, sum) || kw_add(&dscnt, dscnt, t))
			return KW_OVERFLOW(err, who);
	}

	skipGR = a->skipGlobalRead > -1 || a->skipGlobalReadInst > -1;
	vlcnt = skipGR ? 0 : -1;
	if (skipGR) {
		int64_t p, c, numA, numB, numMXSA = 0, numMXSB = 0, numM = 0, numGR = 0, mx, sparse, dtvsm = 0, sum;

		NEED(p, KK_NumLoadsPerpendicularA);
		NEED(c, KK_NumLoadsCoalescedA);
		if (kw_mul(&numA, p, c))
			return KW_OVERFLOW(err, who);
		NEED(p, KK_NumLoadsPerpendicularB);
		NEED(c, KK_NumLoadsCoalescedB);
		if (kw_mul(&numB, p, c))
			return KW_OVERFLOW(err, who);
		NEED(mx, KK_MXBlockA);
		if (mx) {
			NEED(p, KK_NumLoadsPerpendicularMXSA);
			NEED(c, KK_NumLoadsCoalescedMXSA);
			if (kw_mul(&numMXSA, p, c))
				return KW_OVERFLOW(err, who);
		}
		NEED(mx, KK_MXBlockB);
		if (mx) {
			NEED(p, KK_NumLoadsPerpendicularMXSB);
			NEED(c, KK_NumLoadsCoalescedMXSB);
			if (kw_mul(&numMXSB, p, c))
				return KW_OVERFLOW(err, who);
		}
		NEED(sparse, KK_Sparse);
		if (sparse)
			NEED(dtvsm, KK_DirectToVgprSparseMetadata);
		if (sparse && !dtvsm) {
			NEED(p, KK_NumLoadsPerpendicularMetadata);
			NEED(c, KK_NumLoadsCoalescedMetadata);
			if (kw_mul(&numM, p, c))
				return KW_OVERFLOW(err, who);
		}
		if (a->skipGlobalRead > -1) {
			if (kw_add(&sum, numA, numB) || kw_add(&sum, sum, numMXSA) || kw_add(&sum, sum, numMXSB) ||
			    kw_add(&sum, sum, numM) || kw_mul(&t, a->skipGlobalRead, sum) || kw_add(&numGR, numGR, t))
				return KW_OVERFLOW(err, who);
		}
		if (a->skipGlobalReadInst > -1 && kw_add(&numGR, numGR, a->skipGlobalReadInst))
			return KW_OVERFLOW(err, who);
		if (kw_add(&vlcnt, vlcnt, numGR))
			return KW_OVERFLOW(err, who);
		if (dscnt > -1) {
			int64_t bl;
			NEED(bl, KK_BufferLoad);
			if (!bl && kw_add(&dscnt, dscnt, numGR))
				return KW_OVERFLOW(err, who);
		}
	}

	if (((a->conservativeWaitCnt & 0x2) && skipGR) ||
	    ((a->conservativeWaitCnt & 0x4) && a->skipLocalWrite != -1) ||
	    ((a->conservativeWaitCnt & 0x8) && a->skipLocalRead != -1)) {
		kw_item *mod = kw_module(in->arena, "ConservativeWaitCnt");
		size_t n = strlen(a->comment);
		char *c = kw_arena_alloc(in->arena, n + 7);

		if (!mod || !c)
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		memcpy(c, "debug ", 6);
		memcpy(c + 6, a->comment, n + 1);
		if (kw_module_add(in->arena, mod, kw_swaitcnt(in->arena, 0, 0, 0, -1, c, 0)) ||
		    kw_module_add(in->arena, mod, kw_sbarrier(in->arena, in->caps, "debug")))
			return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
		*out = mod;
		return 0;
	}
	if (dscnt >= 0 && vlcnt >= 0)
		vlcnt = -1; /* the seed's "preserve prior behavior" */
	*out = kw_swaitcnt(in->arena, vlcnt, -1, dscnt, -1, a->comment, 0);
	if (!*out)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	return 0;
}
