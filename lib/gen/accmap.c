/* accmap.c - ports _getAccToArchInfo, getAccToArchLen, accToArchMapper,
 * hasSequentialValuC and accVgprImagNumOffset (seed_KernelWriterModules.py). */
#include "kwgen/gen.h"
#include "checked.h"

#include <stdio.h>

#define NEED(var, key) do { if (kw_kernel_need(&(var), in->k, (key), who, err)) return err ? err->code : KW_EINVAL; } while (0)

typedef struct acc_info {
	int64_t BM, BN, O, VW0, VW1, TT0, TT1;
} acc_info;

/* ports _getAccToArchInfo(kernel) */
static int acc_info_get(acc_info *ai, const kw_gen_in *in, const char *who, kw_error *err)
{
	int64_t M, N, BM, BN, wave, mM, mN, prod;

	NEED(M, KK_MatrixInstM);
	if (M == 4) {
		NEED(BM, KK_MatrixInstBM);
		if (kw_mul(&mM, M, BM))
			return KW_OVERFLOW(err, who);
	} else {
		mM = M;
	}
	NEED(N, KK_MatrixInstN);
	if (N == 4) {
		NEED(BN, KK_MatrixInstBN);
		if (kw_mul(&mN, N, BN))
			return KW_OVERFLOW(err, who);
	} else {
		mN = N;
	}
	if (M == 4)
		ai->BM = 1;
	else
		NEED(ai->BM, KK_MatrixInstBM);
	if (N == 4)
		ai->BN = 1;
	else
		NEED(ai->BN, KK_MatrixInstBN);
	NEED(wave, KK_WavefrontSize);
	if (wave == 0)
		return kw_error_set(err, KW_EINVAL, "kernel.WavefrontSize", "kernel.WavefrontSize is 0: %s divides by it (32 or 64)", who);
	if (kw_mul(&prod, mM, mN))
		return KW_OVERFLOW(err, who);
	if (kw_floordiv(&ai->O, prod, wave))
		return KW_OVERFLOW(err, who);
	NEED(ai->VW0, KK_VectorWidthA);
	if (!(in->k->present & (1ULL << KK_MIWaveTile)))
		return kw_kernel_need(&prod, in->k, KK_MIWaveTile, who, err);
	if (ai->VW0 == 0)
		return kw_error_set(err, KW_EINVAL, "kernel.VectorWidthA", "kernel.VectorWidthA is 0: %s divides MIWaveTile[0] by it (>= 1)", who);
	if (kw_floordiv(&ai->TT0, in->k->MIWaveTile[0], ai->VW0))
		return KW_OVERFLOW(err, who);
	NEED(ai->VW1, KK_VectorWidthB);
	if (ai->VW1 == 0)
		return kw_error_set(err, KW_EINVAL, "kernel.VectorWidthB", "kernel.VectorWidthB is 0: %s divides MIWaveTile[1] by it (>= 1)", who);
	if (kw_floordiv(&ai->TT1, in->k->MIWaveTile[1], ai->VW1))
		return KW_OVERFLOW(err, who);
	return 0;
}

static int product(int64_t *out, const acc_info *ai, int positive_only)
{
	int64_t f[7] = { ai->TT1, ai->TT0, ai->BN, ai->BM, ai->O, ai->VW0, ai->VW1 }, p = 1;

	for (int i = 0; i < 7; i++) {
		if (positive_only && f[i] <= 0) {
			*out = 0;
			return 0;
		}
		if (kw_mul(&p, p, f[i]))
			return 1;
	}
	*out = p;
	return 0;
}

int kw_gen_get_acc_to_arch_len(int64_t *out, const kw_gen_in *in, kw_error *err)
{
	acc_info ai;

	if (acc_info_get(&ai, in, "getAccToArchLen", err))
		return err ? err->code : KW_EINVAL;
	if (product(out, &ai, 0))
		return KW_OVERFLOW(err, "getAccToArchLen");
	if (*out > in->max_acc_len) /* the same bound accToArchMapper applies to the map it builds */
		return kw_error_set(err, KW_ELIMIT, "kernel.MIWaveTile",
				    "getAccToArchLen: the accumulator tile has %lld registers per thread (MIWaveTile/VectorWidth x MatrixInstBM/BN x MatrixInstM*N/WavefrontSize x VectorWidthA*B); the limit is %lld",
				    (long long)*out, (long long)in->max_acc_len);
	return 0;
}

static int mapper(kw_acc_map *m, const kw_gen_in *in, const char *who, kw_error *err)
{
	acc_info ai;
	int64_t n, swap = 0;
	int64_t O, BM, BN, VW0, VW1, TT0, TT1;

	if (acc_info_get(&ai, in, who, err))
		return err ? err->code : KW_EINVAL;
	if (product(&n, &ai, 1))
		return kw_error_set(err, KW_ELIMIT, "kernel.MIWaveTile", "%s: the accumulator tile does not fit in 64 bits", who);
	if (n > in->max_acc_len)
		return kw_error_set(err, KW_ELIMIT, "kernel.MIWaveTile",
				    "%s: the accumulator tile has %lld registers per thread (MIWaveTile/VectorWidth x MatrixInstBM/BN x MatrixInstM*N/WavefrontSize x VectorWidthA*B); the limit is %lld",
				    who, (long long)n, (long long)in->max_acc_len);
	m->len = n;
	m->acc2arch = m->arch2acc = NULL;
	if (n == 0)
		return 0;
	NEED(swap, KK_SourceSwap);
	m->acc2arch = kw_arena_alloc(in->arena, (size_t)n * sizeof(int64_t));
	m->arch2acc = kw_arena_alloc(in->arena, (size_t)n * sizeof(int64_t));
	if (!m->acc2arch || !m->arch2acc)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	O = ai.O, BM = ai.BM, BN = ai.BN, VW0 = ai.VW0, VW1 = ai.VW1, TT0 = ai.TT0, TT1 = ai.TT1;
	for (int64_t wg1 = 0; wg1 < TT1; wg1++)
		for (int64_t wg0 = 0; wg0 < TT0; wg0++)
			for (int64_t b1 = 0; b1 < BN; b1++)
				for (int64_t b0 = 0; b0 < BM; b0++)
					for (int64_t t = 0; t < O; t++)
						for (int64_t v1 = 0; v1 < VW1; v1++)
							for (int64_t v0 = 0; v0 < VW0; v0++) {
								int64_t src, dst;
								if (swap) {
									src = t + O * (b0 + BM * (b1 + BN * (v0 + VW0 * (wg0 + TT0 * (v1 + VW1 * wg1)))));
									dst = v0 + VW0 * (b0 + BM * (wg0 + TT0 * (v1 + VW1 * (t + O * (b1 + BN * wg1)))));
								} else {
									src = t + O * (b1 + BN * (b0 + BM * (v0 + VW0 * (wg0 + TT0 * (v1 + VW1 * wg1)))));
									dst = v0 + VW0 * (t + O * (b0 + BM * (wg0 + TT0 * (v1 + VW1 * (b1 + BN * wg1)))));
								}
								m->acc2arch[src] = dst;
								m->arch2acc[dst] = src;
							}
	return 0;
}

int kw_gen_acc_to_arch_mapper(kw_acc_map *out, const kw_gen_in *in, kw_error *err)
{
	return mapper(out, in, "accToArchMapper", err);
}

int kw_gen_has_sequential_valuc(int *out, const kw_gen_in *in, kw_error *err)
{
	const char *who = "hasSequentialValuC";
	int64_t emi;
	kw_acc_map m;

	NEED(emi, KK_EnableMatrixInstruction);
	if (!emi) {
		*out = 0;
		return 0;
	}
	if (mapper(&m, in, who, err))
		return err ? err->code : KW_EINVAL;
	*out = 1;
	for (int64_t i = 0; i < m.len; i++)
		if (m.acc2arch[i] != i) {
			*out = 0;
			break;
		}
	return 0;
}

int kw_gen_acc_vgpr_imag_num_offset(int64_t *out, const kw_gen_in *in, kw_error *err)
{
	const char *who = "accVgprImagNumOffset";
	kw_acc_map m;
	int64_t r;

	if (mapper(&m, in, who, err))
		return err ? err->code : KW_EINVAL;
	NEED(r, KK_MIRegPerOut);
	if (kw_mul(out, m.len, r))
		return KW_OVERFLOW(err, who);
	return 0;
}
