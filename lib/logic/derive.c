/*
 * lib/logic/derive.c - one Tensile solution dict (from a logic file) ->
 * one kwgen request.
 *
 * The kernel keeps exactly the keys the KernelWriterModules helpers read,
 * values as the file stores them; keys the file lacks get Tensile's
 * defaults (corpus/README.md, "Defaults applied").  tPA, tPB and states are
 * the main-loop values Tensile's KernelWriter would compute from the
 * solution (call-sites.md section 2): the local-write and local-read
 * instructions, the read/write vector counts and the reads per iteration.
 * Widths are computed in bytes (a quarter of a 4-byte register is a byte),
 * so the fractional ds_*_b8/b16 widths stay integers.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "logic/logic.h"

/* Bytes per element of Tensile's DataType enum (0..18). */
static const int kw_dt_bytes[] = { 4, 8, 8, 16, 2, 4, 4, 2, 1, 8, 4, 1, 1, 1, 1, 1, 1, 1, 1 };
#define KW_DT_COUNT ((int)(sizeof kw_dt_bytes / sizeof kw_dt_bytes[0]))

/* Unambiguous DataType characters (the fp8 names changed meaning between
 * Tensile eras, so those must be given as integers). */
static const struct { const char *name; int value; } kw_dt_names[] = {
	{ "s", 0 }, { "d", 1 }, { "c", 2 }, { "z", 3 }, { "h", 4 }, { "4xi8", 5 },
	{ "i", 6 }, { "b", 7 }, { "i8", 8 }, { "i64", 9 }, { "x", 10 },
};

/* ds_store / ds_load candidates, widest first, block width in bytes. */
typedef struct ds_inst { const char *name; int bytes; } ds_inst;
static const ds_inst kw_ds_store[] = {
	{ "ds_store_b256", 32 }, { "ds_store_b192", 24 }, { "ds_store_b128", 16 }, { "ds_store_b96", 12 },
	{ "ds_store_b64", 8 }, { "ds_store_b32", 4 }, { "ds_store_b16", 2 }, { "ds_store_b8", 1 },
};
static const ds_inst kw_ds_load[] = {
	{ "ds_load_b192", 24 }, { "ds_load_b128", 16 }, { "ds_load_b64", 8 }, { "ds_load_b32", 4 },
	{ "ds_load_u16", 2 }, { "ds_load_u8", 1 },
};

typedef struct sol {
	const json_t *s;    /* solution dict */
	const json_t *pt;   /* its ProblemType (or the file's) */
	kw_error *err;
} sol;

static const json_t *lookup(const sol *x, const char *key)
{
	if (strncmp(key, "ProblemType.", 12) == 0)
		return x->pt ? json_object_get(x->pt, key + 12) : NULL;
	return json_object_get(x->s, key);
}

/* An integer-like value: integer, boolean or integral real. */
static int as_int(const json_t *v, long *out)
{
	if (json_is_integer(v)) {
		*out = (long)json_integer_value(v);
		return 1;
	}
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 1;
	}
	if (json_is_real(v)) {
		double d = json_real_value(v);
		/* in long's range before the cast (a cast out of range is
		 * undefined); 2^63 itself is not */
		if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
		    d == (double)(long)d) {
			*out = (long)d;
			return 1;
		}
	}
	return 0;
}

static int need_int(const sol *x, const char *key, long *out)
{
	const json_t *v = lookup(x, key);
	if (!v)
		return kw_error_set(x->err, KW_EINVAL, key, "missing %s (needed to derive tPA/tPB/states)", key);
	if (!as_int(v, out))
		return kw_error_set(x->err, KW_EINVAL, key, "%s must be an integer or a boolean", key);
	return 0;
}

/* opt_int: *out = the value, or dflt when absent. */
static int opt_int(const sol *x, const char *key, long dflt, long *out)
{
	const json_t *v = lookup(x, key);
	if (!v || json_is_null(v)) {
		*out = dflt;
		return 0;
	}
	if (!as_int(v, out))
		return kw_error_set(x->err, KW_EINVAL, key, "%s must be an integer or a boolean", key);
	return 0;
}

static int data_type(const sol *x, const char *key, const json_t *v, long *out)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		for (size_t i = 0; i < sizeof kw_dt_names / sizeof kw_dt_names[0]; i++)
			if (strcasecmp(s, kw_dt_names[i].name) == 0) {
				*out = kw_dt_names[i].value;
				return 0;
			}
		return kw_error_set(x->err, KW_EINVAL, key,
				    "%s \"%s\" is not a DataType name kwgen accepts (give the enum integer 0..18)", key, s);
	}
	if (!as_int(v, out) || json_is_boolean(v) || *out < 0 || *out >= KW_DT_COUNT)
		return kw_error_set(x->err, KW_EINVAL, key, "%s must be a DataType enum integer 0..18", key);
	return 0;
}

/* DataType of tensor X: ProblemType.DataTypeX, else ProblemType.DataType. */
static int dt_bytes(const sol *x, const char *key, const char *fallback, int *bytes)
{
	const json_t *v = lookup(x, key);
	long t;
	int rc;
	if (!v && fallback) {
		key = fallback;
		v = lookup(x, key);
	}
	if (!v)
		return kw_error_set(x->err, KW_EINVAL, key, "missing %s", key);
	if ((rc = data_type(x, key, v, &t)) < 0)
		return rc;
	*bytes = kw_dt_bytes[t];
	return 0;
}

static const ds_inst *pick(const ds_inst *t, size_t n, long width)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].bytes <= width && width % t[i].bytes == 0)
			return &t[i];
	return NULL;
}

static json_t *inst_json(const ds_inst *d)
{
	json_t *bw = d->bytes % 4 == 0 ? json_integer(d->bytes / 4) : json_real(d->bytes / 4.0);
	return json_pack("{s:s, s:o, s:i}", "name", d->name, "blockWidth", bw, "numOffsets", 1);
}

static long ceil_div(long a, long b)
{
	return (a + b - 1) / b;
}

/* TLUX of tensor X: ProblemType.TLUX, else (not) ProblemType.TransposeX. */
static int tlu_of(const sol *x, char X, long *tlu)
{
	char k[32];
	int rc;
	snprintf(k, sizeof k, "ProblemType.TLU%c", X);
	if (lookup(x, k))
		return need_int(x, k, tlu);
	long tr;
	snprintf(k, sizeof k, "ProblemType.Transpose%c", X);
	if ((rc = need_int(x, k, &tr)) < 0)
		return kw_error_set(x->err, KW_EINVAL, "ProblemType.TLU", "missing ProblemType.TLU%c (and Transpose%c)", X, X);
	*tlu = X == 'A' ? !tr : tr;
	return 0;
}

/* A key needed only because GlobalReadVectorWidthX was left out. */
static int need_for_grvw(const sol *x, const char *key, char X, long *out)
{
	const json_t *v = lookup(x, key);
	if (!v || json_is_null(v))
		return kw_error_set(x->err, KW_EINVAL, key,
				    "missing %s (needed to derive GlobalReadVectorWidth%c, which the solution leaves out)",
				    key, X);
	return need_int(x, key, out);
}

/* An element of a two-integer list such as MIWaveTile, or -1 when absent. */
static long list_int(const sol *x, const char *key, size_t i)
{
	long v;
	const json_t *l = lookup(x, key);
	return json_is_array(l) && as_int(json_array_get(l, i), &v) ? v : -1;
}

/*
 * GlobalReadVectorWidthA/B (grvw[0], grvw[1]) as Tensile has them after
 * Solution.assignDerivedParameters.  A key the solution gives (>= 1) is
 * taken as is; a key it leaves out takes Tensile's default -1, which is then
 * derived (a -2 only for a skinny macro tile):
 *   MFMA/WMMA: SwizzleTensorX: MIInputPerThreadX * (16 / MIInputPerThreadX
 *     / bytes); else the largest power of two up to optGRVW that divides the
 *     tile's loads per thread MacroTileX * DepthU / NumThreads, optGRVW being
 *     LocalReadVectorWidth with UnrollMajorLDSX, else 16 bytes' worth of
 *     elements (and never past 16 bytes); then with
 *     UnrollLoopSwapGlobalReadOrder the derived widths take min(A, B), and a
 *     derived width past the partial-tile limit (TLUX with
 *     AssertFreeNElementMultiple not a multiple of it) is cut to the limit.
 *   dot2 (UseDotInstruction): the first of 8, 4, 2, 1 that divides both the
 *     coalesced extent and the loads per thread.
 * bytes: bytes per element of DataTypeA, DataTypeB and DataType.
 * Refused as Tensile rejects them: a MAC kernel without the key (Tensile
 * derives no width there), -2 on a tile that is not skinny, no dot2 width,
 * a derived width past DepthU along the unroll dimension, or a width past
 * 16 bytes (unless UseF32XEmulation).  (gfx950's transposed global loads, enableGLTr,
 * also set 8; that state is not in logic files, so such solutions carry the
 * key.)
 */
static int derive_grvw(const sol *x, int mi, const int bytes[3], long grvw[2])
{
	int gen[2] = { 0, 0 }, rc;
	long dot = 0;
	char k[64];
	if ((rc = opt_int(x, "UseDotInstruction", 0, &dot)) < 0)
		return rc;
	for (int t = 0; t < 2; t++) {
		char X = t ? 'B' : 'A';
		long v, tlu;
		snprintf(k, sizeof k, "GlobalReadVectorWidth%c", X);
		if ((rc = opt_int(x, k, -1, &v)) < 0)
			return rc;
		grvw[t] = v;
		if (v > 0)
			continue;
		if (v != -1 && v != -2)
			return kw_error_set(x->err, KW_EINVAL, k, "%s must be positive, or -1 (derive it)", k);
		if ((rc = tlu_of(x, X, &tlu)) < 0)
			return rc;
		if (!mi && !dot)
			return kw_error_set(x->err, KW_EINVAL, k,
					    "missing %s (Tensile derives it only for MFMA/WMMA and dot2 kernels)", k);
		if (v == -2) { /* skinny macro tile */
			long bmn = 0;
			if (mi && (rc = need_for_grvw(x, t ? "MatrixInstBN" : "MatrixInstBM", X, &bmn)) < 0)
				return rc;
			if (!mi || bmn != 1 || list_int(x, "MIWaveTile", t) != 1 || list_int(x, "MIWaveGroup", t) != 1 || !tlu)
				return kw_error_set(x->err, KW_EINVAL, k,
						    "%s = -2 is for a skinny macro tile only (MatrixInstB%c, MIWaveTile and "
						    "MIWaveGroup 1 along %c, TLU%c)", k, t ? 'N' : 'M', X, X);
			grvw[t] = 1;
			continue;
		}
		long mt, du, nt, elems;
		if ((rc = need_for_grvw(x, t ? "MacroTile1" : "MacroTile0", X, &mt)) < 0 ||
		    (rc = need_for_grvw(x, "DepthU", X, &du)) < 0)
			return rc;
		if (lookup(x, "NumThreads") && !json_is_null(lookup(x, "NumThreads"))) {
			if ((rc = need_int(x, "NumThreads", &nt)) < 0)
				return rc;
		} else {
			long a = list_int(x, "WorkGroup", 0), b = list_int(x, "WorkGroup", 1), c = list_int(x, "WorkGroup", 2);
			if (a <= 0 || b <= 0 || c <= 0)
				return need_for_grvw(x, "NumThreads", X, &nt);
			nt = a * b * c;
		}
		if (mt <= 0 || du <= 0 || nt <= 0 || mt > (1L << 20) || du > (1L << 20))
			return kw_error_set(x->err, KW_EINVAL, k,
					    "MacroTile%d, DepthU and NumThreads must be positive (and at most 2^20) to derive %s",
					    t, k);
		elems = mt * du / nt;
		if (mi) {
			long sw = 0;
			if ((rc = opt_int(x, t ? "ProblemType.SwizzleTensorB" : "ProblemType.SwizzleTensorA", 0, &sw)) < 0)
				return rc;
			gen[t] = 1;
			if (sw) {
				long mipt;
				snprintf(k, sizeof k, "MIInputPerThread%c", X);
				if ((rc = need_for_grvw(x, k, X, &mipt)) < 0)
					return rc;
				if (mipt <= 0)
					return kw_error_set(x->err, KW_EINVAL, k, "%s must be positive", k);
				grvw[t] = mipt * (16 / mipt / bytes[t]);
			} else {
				long um, opt;
				snprintf(k, sizeof k, "UnrollMajorLDS%c", X);
				if ((rc = opt_int(x, k, 0, &um)) < 0)
					return rc;
				if (um) { /* LocalReadVectorWidth; files of later eras split it into A and B */
					snprintf(k, sizeof k, "LocalReadVectorWidth%c", X);
					if ((rc = need_for_grvw(x, lookup(x, "LocalReadVectorWidth") ? "LocalReadVectorWidth" : k,
								X, &opt)) < 0)
						return rc;
				} else
					opt = 16 / bytes[t];
				if (opt * bytes[t] > 16)
					opt = 16 / bytes[t];
				grvw[t] = 1;
				for (long c = 1; c <= opt; c *= 2)
					if (elems % c == 0)
						grvw[t] = c;
			}
		} else { /* dot2 */
			long coal = tlu ? mt : du;
			grvw[t] = 0;
			for (long c = 8; c >= 1 && !grvw[t]; c /= 2)
				if (coal % c == 0 && elems % c == 0)
					grvw[t] = c;
			if (!grvw[t])
				return kw_error_set(x->err, KW_EINVAL, k, "dot2: no GlobalReadVectorWidth%c divides the tile", X);
		}
	}
	long swap = 0;
	if ((rc = opt_int(x, "UnrollLoopSwapGlobalReadOrder", 0, &swap)) < 0)
		return rc;
	if (swap == 1) {
		if (gen[0] && grvw[1] < grvw[0])
			grvw[0] = grvw[1];
		if (gen[1] && grvw[0] < grvw[1])
			grvw[1] = grvw[0];
	}
	for (int t = 0; t < 2 && mi; t++) {
		char X = t ? 'B' : 'A';
		long tlu, afem, ss, limit;
		if (!gen[t])
			continue;
		if ((rc = tlu_of(x, X, &tlu)) < 0 ||
		    (rc = opt_int(x, t ? "AssertFree1ElementMultiple" : "AssertFree0ElementMultiple", 1, &afem)) < 0 ||
		    (rc = opt_int(x, "SourceSwap", 0, &ss)) < 0)
			return rc;
		if (!tlu || afem % grvw[t] == 0)
			continue;
		/* the partial-tile limit, from the DataType of the problem */
		int dbytes = bytes[2];
		long m, n, bm, bn, miovw = 0, wave, vwa;
		limit = 16 / dbytes;
		if ((rc = need_for_grvw(x, "MatrixInstM", X, &m)) < 0 || (rc = need_for_grvw(x, "MatrixInstN", X, &n)) < 0 ||
		    (rc = opt_int(x, "MatrixInstBM", 1, &bm)) < 0 || (rc = opt_int(x, "MatrixInstBN", 1, &bn)) < 0 ||
		    (rc = opt_int(x, "WavefrontSize", 64, &wave)) < 0)
			return rc;
		long mm = m == 4 ? m * bm : m, nn = n == 4 ? n * bn : n;
		if (t == 0 || ss) {
			if ((rc = need_for_grvw(x, "MIOutputVectorWidth", X, &miovw)) < 0)
				return rc;
		}
		if (t == 0) {
			if (ss) {
				if ((rc = need_for_grvw(x, "VectorWidthA", X, &vwa)) < 0)
					return rc;
				limit = mm * vwa;
			} else
				limit = nn > 0 ? miovw * (wave / nn) : limit;
		} else if (ss)
			limit = mm > 0 ? miovw * (wave / mm) : limit;
		if (dbytes == 1 && limit < 4)
			limit = 4;
		if (limit > 0 && grvw[t] > limit)
			grvw[t] = limit;
	}
	long emu = 0;
	if ((rc = opt_int(x, "UseF32XEmulation", 0, &emu)) < 0)
		return rc;
	for (int t = 0; t < 2; t++) {
		long tlu, du = 0;
		if (!gen[t])
			continue;
		if ((rc = tlu_of(x, t ? 'B' : 'A', &tlu)) < 0 || (rc = opt_int(x, "DepthU", 0, &du)) < 0)
			return rc;
		if (!tlu && du < grvw[t])
			return kw_error_set(x->err, KW_EINVAL, "DepthU",
					    "DepthU %ld is less than the derived GlobalReadVectorWidth%c %ld along the unroll "
					    "dimension (Tensile finds no valid DepthU)", du, t ? 'B' : 'A', grvw[t]);
	}
	for (int t = 0; t < 2 && !emu; t++)
		if (grvw[t] * bytes[t] > 16)
			return kw_error_set(x->err, KW_EINVAL, t ? "GlobalReadVectorWidthB" : "GlobalReadVectorWidthA",
					    "GlobalReadVectorWidth%c * bytes per element is %ld; Tensile rejects more than 16",
					    t ? 'B' : 'A', grvw[t] * bytes[t]);
	return 0;
}

/* Derive tP for tensor X ('A' or 'B'); *nreads = states.numReadsPerIterX;
 * vw is GlobalReadVectorWidthX (derive_grvw). */
static int derive_tp(json_t **out, long *nreads, const sol *x, char X, int mi, int bpe, int sparse_side, long vw)
{
	char k[64];
	long nrc, nrp, tlu, um, cad, vwx, iu, dtv;
	int bpeGR, rc;
#define KEY(fmt) (snprintf(k, sizeof k, fmt, X), k)
	if ((rc = need_int(x, KEY("NumLoadsCoalesced%c"), &nrc)) < 0 ||
	    (rc = need_int(x, KEY("NumLoadsPerpendicular%c"), &nrp)) < 0 ||
	    (rc = opt_int(x, KEY("UnrollMajorLDS%c"), 0, &um)) < 0 ||
	    (rc = opt_int(x, "ConvertAfterDS", 0, &cad)) < 0 ||
	    (rc = need_int(x, KEY("VectorWidth%c"), &vwx)) < 0 ||
	    (rc = opt_int(x, "InnerUnroll", 1, &iu)) < 0 ||
	    (rc = opt_int(x, KEY("DirectToVgpr%c"), 0, &dtv)) < 0)
		return rc;
	/* TLUX: ProblemType.TLUA = not TransposeA, TLUB = TransposeB when absent. */
	if ((rc = tlu_of(x, X, &tlu)) < 0)
		return rc;
	if ((rc = dt_bytes(x, KEY("ProblemType.DataType%c"), "ProblemType.DataType", &bpeGR)) < 0)
		return rc;
	if (vw <= 0 || vwx <= 0 || iu <= 0)
		return kw_error_set(x->err, KW_EINVAL, vw <= 0 ? "GlobalReadVectorWidth" : vwx <= 0 ? "VectorWidth" : "InnerUnroll",
				    "GlobalReadVectorWidth%c, VectorWidth%c and InnerUnroll must be positive", X, X);
	int bpeDS = cad ? bpeGR : bpe;

	/* readWriteVectors */
	long nwcv = (!!tlu != !!um) ? vw : 1, nwpv = (!!tlu != !!um) ? 1 : vw;
	const ds_inst *lw = pick(kw_ds_store, sizeof kw_ds_store / sizeof kw_ds_store[0], nwcv * bpeDS);
	if (!lw)
		return kw_error_set(x->err, KW_EINVAL, KEY("GlobalReadVectorWidth%c"), "no ds_store instruction writes %ld bytes", nwcv * bpeDS);
	long nwcvpi = lw->bytes / bpeDS;

	/* local-read width */
	long mipt = 1, mipt_all = 1, lrvw_unroll = 1, lrvw_tile;
	if (mi) {
		if ((rc = need_int(x, "MIInputPerThread", &mipt_all)) < 0)
			return rc;
		if ((rc = opt_int(x, KEY("MIInputPerThread%c"), mipt_all, &mipt)) < 0)
			return rc;
		if (mipt <= 0)
			return kw_error_set(x->err, KW_EINVAL, k, "%s must be positive", k);
	}
	lrvw_tile = (um || (bpe >= 4 && mi && mipt_all > 1)) ? 1 : vwx;
	if (um) {
		if (lookup(x, KEY("LocalReadVectorWidth%c")))
			rc = need_int(x, k, &lrvw_unroll);
		else
			rc = need_int(x, "LocalReadVectorWidth", &lrvw_unroll);
		if (rc < 0)
			return rc;
		if (sparse_side)
			lrvw_unroll /= 2;
		if (lrvw_unroll <= 0)
			return kw_error_set(x->err, KW_EINVAL, "LocalReadVectorWidth", "LocalReadVectorWidth must be positive");
	}
	long rwidth = (um ? lrvw_unroll : lrvw_tile) * bpeDS;
	const ds_inst *lr = pick(kw_ds_load, sizeof kw_ds_load / sizeof kw_ds_load[0], rwidth);
	if (!lr)
		return kw_error_set(x->err, KW_EINVAL, "LocalReadVectorWidth", "no ds_load instruction reads %ld bytes", rwidth);

	/* reads per iteration */
	long n;
	if (mi) {
		const json_t *wt = lookup(x, "MIWaveTile");
		long w;
		if (!json_is_array(wt) || json_array_size(wt) < 2 || !as_int(json_array_get(wt, X == 'A' ? 0 : 1), &w))
			return kw_error_set(x->err, KW_EINVAL, "MIWaveTile", "MIWaveTile must be a list of two integers");
		long per = um ? ceil_div(bpe * mipt, lr->bytes) : mipt;
		n = iu * w * per; /* numOffsets is 1 */
		if (lrvw_tile > 1)
			n /= vwx;
		long coal = ceil_div(lrvw_unroll, mipt);
		if (iu >= coal)
			n /= coal;
	} else {
		long tt;
		const char *tk = X == 'A' ? "ThreadTile0" : "ThreadTile1";
		if (lookup(x, tk)) {
			if ((rc = need_int(x, tk, &tt)) < 0)
				return rc;
		} else {
			const json_t *t = lookup(x, "ThreadTile");
			if (!json_is_array(t) || !as_int(json_array_get(t, X == 'A' ? 0 : 1), &tt))
				return kw_error_set(x->err, KW_EINVAL, tk, "missing %s (needed for a non-MFMA kernel)", tk);
		}
		n = iu * (tt / vwx);
	}
	if (dtv)
		n = 0;
#undef KEY
	json_t *t = json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:b, s:n, s:n}",
			      "nrc", (json_int_t)nrc, "nrp", (json_int_t)nrp, "nwcv", (json_int_t)nwcv,
			      "nwpv", (json_int_t)nwpv, "nwcvpi", (json_int_t)nwcvpi,
			      "localWriteInstruction", inst_json(lw), "localReadInstruction", inst_json(lr),
			      "is_sparse", sparse_side, "tpsMetadata", "MX");
	if (!t)
		return kw_error_set(x->err, KW_ENOMEM, NULL, "out of memory");
	*out = t;
	*nreads = n;
	return 0;
}

/* Kernel keys the helpers read, and their Tensile defaults. */
typedef enum { D_REQUIRED, D_FALSE, D_TRUE, D_ZERO, D_ONE, D_64, D_SPECIAL } dflt;
static const struct { const char *key; dflt d; int mi_only; } kw_kernel_keys[] = {
	{ "BufferLoad", D_TRUE, 0 },
	{ "DirectToLdsA", D_SPECIAL, 0 },
	{ "DirectToLdsB", D_SPECIAL, 0 },
	{ "DirectToVgprA", D_FALSE, 0 },
	{ "DirectToVgprB", D_FALSE, 0 },
	{ "DirectToVgprSparseMetadata", D_FALSE, 0 },
	{ "DirectToVgprMXSA", D_FALSE, 0 },
	{ "DirectToVgprMXSB", D_FALSE, 0 },
	{ "NumLoadsCoalescedA", D_REQUIRED, 0 },
	{ "NumLoadsCoalescedB", D_REQUIRED, 0 },
	{ "NumLoadsPerpendicularA", D_REQUIRED, 0 },
	{ "NumLoadsPerpendicularB", D_REQUIRED, 0 },
	{ "NumThreads", D_SPECIAL, 0 },
	{ "WavefrontSize", D_64, 0 },
	{ "_ScheduleIterAlg", D_SPECIAL, 0 },
	{ "PrefetchGlobalRead", D_ONE, 0 },
	{ "EnableMatrixInstruction", D_SPECIAL, 0 },
	{ "MIArchVgpr", D_FALSE, 0 },
	{ "SourceSwap", D_FALSE, 0 },
	{ "CompactLoopStore", D_FALSE, 0 },
	{ "MatrixInstM", D_REQUIRED, 1 },
	{ "MatrixInstN", D_REQUIRED, 1 },
	{ "MatrixInstBM", D_REQUIRED, 1 },
	{ "MatrixInstBN", D_REQUIRED, 1 },
	{ "MIWaveTile", D_REQUIRED, 1 },
	{ "MIRegPerOut", D_REQUIRED, 1 },
	{ "VectorWidthA", D_REQUIRED, 1 },
	{ "VectorWidthB", D_REQUIRED, 1 },
};
static const struct { const char *key; dflt d; } kw_pt_keys[] = {
	{ "DataType", D_REQUIRED }, { "ComputeDataType", D_SPECIAL }, { "HighPrecisionAccumulate", D_FALSE },
	{ "Sparse", D_ZERO }, { "MXBlockA", D_ZERO }, { "MXBlockB", D_ZERO },
};

static json_t *dflt_json(dflt d)
{
	switch (d) {
	case D_FALSE: return json_false();
	case D_TRUE: return json_true();
	case D_ZERO: return json_integer(0);
	case D_ONE: return json_integer(1);
	case D_64: return json_integer(64);
	default: return NULL;
	}
}

/* The value of a D_SPECIAL key, or NULL with err set. */
static json_t *special(const sol *x, const char *key)
{
	if (strncmp(key, "DirectToLds", 11) == 0) {
		const json_t *v = lookup(x, "DirectToLds");
		return v ? json_incref((json_t *)v) : json_false();
	}
	if (strcmp(key, "NumThreads") == 0) {
		const json_t *wg = lookup(x, "WorkGroup");
		long a, b, c;
		if (json_is_array(wg) && json_array_size(wg) == 3 && as_int(json_array_get(wg, 0), &a) &&
		    as_int(json_array_get(wg, 1), &b) && as_int(json_array_get(wg, 2), &c))
			return json_integer(a * b * c);
		kw_error_set(x->err, KW_EINVAL, key, "missing NumThreads (and WorkGroup)");
		return NULL;
	}
	if (strcmp(key, "_ScheduleIterAlg") == 0) {
		long s = 1;
		if (opt_int(x, "ScheduleIterAlg", 1, &s) < 0)
			return NULL;
		return json_integer(s == 4 ? 0 : s);
	}
	if (strcmp(key, "EnableMatrixInstruction") == 0) {
		const json_t *m = lookup(x, "MatrixInstruction");
		if (json_is_array(m))
			return json_boolean(json_array_size(m) > 0);
		kw_error_set(x->err, KW_EINVAL, key, "missing EnableMatrixInstruction (and MatrixInstruction)");
		return NULL;
	}
	kw_error_set(x->err, KW_EINTERNAL, key, "no default for %s", key);
	return NULL;
}

static int build_kernel(json_t **out, const sol *x, int *mi)
{
	json_t *k = json_object(), *pt = json_object();
	if (!k || !pt)
		goto oom;
	for (size_t i = 0; i < sizeof kw_pt_keys / sizeof kw_pt_keys[0]; i++) {
		const json_t *v = x->pt ? json_object_get(x->pt, kw_pt_keys[i].key) : NULL;
		json_t *nv;
		if (v)
			nv = json_incref((json_t *)v);
		else if (kw_pt_keys[i].d == D_REQUIRED) {
			kw_error_set(x->err, KW_EINVAL, "ProblemType.DataType", "missing ProblemType.DataType");
			goto fail;
		} else if (kw_pt_keys[i].d == D_SPECIAL) /* ComputeDataType defaults to DataType */
			nv = json_incref(json_object_get(pt, "DataType"));
		else
			nv = dflt_json(kw_pt_keys[i].d);
		if (!nv || json_object_set_new(pt, kw_pt_keys[i].key, nv) < 0)
			goto oom;
	}
	for (size_t i = 0; i < sizeof kw_kernel_keys / sizeof kw_kernel_keys[0]; i++) {
		const char *key = kw_kernel_keys[i].key;
		if (kw_kernel_keys[i].mi_only && !*mi)
			continue;
		const json_t *v = json_object_get(x->s, key);
		json_t *nv;
		if (v && !json_is_null(v))
			nv = json_deep_copy(v);
		else if (kw_kernel_keys[i].d == D_REQUIRED) {
			kw_error_set(x->err, KW_EINVAL, key, "missing %s", key);
			goto fail;
		} else if (kw_kernel_keys[i].d == D_SPECIAL) {
			if (!(nv = special(x, key)))
				goto fail;
		} else
			nv = dflt_json(kw_kernel_keys[i].d);
		if (!nv || json_object_set_new(k, key, nv) < 0)
			goto oom;
		if (strcmp(key, "EnableMatrixInstruction") == 0) {
			long m = 0;
			if (!as_int(nv, &m)) {
				kw_error_set(x->err, KW_EINVAL, key, "EnableMatrixInstruction must be a boolean");
				goto fail;
			}
			*mi = m != 0;
		}
	}
	if (json_object_set_new(k, "ProblemType", pt) < 0) {
		pt = NULL;
		goto oom;
	}
	*out = k;
	return 0;
oom:
	kw_error_set(x->err, KW_ENOMEM, NULL, "out of memory");
fail:
	json_decref(k);
	json_decref(pt);
	return x->err ? (x->err->code ? x->err->code : KW_ENOMEM) : KW_EINVAL;
}

int kw_logic_arch_name(char *buf, size_t n, const json_t *v)
{
	if (json_is_object(v))
		v = json_object_get(v, "Architecture");
	if (!json_is_string(v) || n < 2)
		return KW_EINVAL;
	const char *s = json_string_value(v);
	if (strncasecmp(s, "gfx", 3) != 0)
		return KW_EINVAL;
	size_t i = 0;
	for (; s[i] && s[i] != ':' && i + 1 < n; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[i] = '\0';
	return i > 3 ? 0 : KW_EINVAL;
}

int kw_logic_request(json_t **out, const json_t *solution, const kw_logic_ctx *ctx, kw_error *err)
{
	sol x = { solution, NULL, err };
	json_t *kernel = NULL, *tpa = NULL, *tpb = NULL, *req = NULL, *isa = NULL;
	long sparse = 0, mxa = 0, mxb = 0, na = 0, nb = 0;
	int mi = 0, bpe, rc;
	kw_error local = KW_ERROR_INIT;
	if (!err)
		x.err = &local;
	if (!json_is_object(solution))
		return kw_error_set(x.err, KW_EINVAL, NULL, "a solution must be a mapping of Tensile keys");
	x.pt = json_object_get(solution, "ProblemType");
	if (!json_is_object(x.pt))
		x.pt = ctx ? ctx->problem_type : NULL;
	if (!json_is_object(x.pt))
		return kw_error_set(x.err, KW_EINVAL, "ProblemType", "missing ProblemType (in the solution and in the file)");

	if ((rc = build_kernel(&kernel, &x, &mi)) < 0)
		return rc;
	if ((rc = opt_int(&x, "ProblemType.Sparse", 0, &sparse)) < 0 ||
	    (rc = opt_int(&x, "ProblemType.MXBlockA", 0, &mxa)) < 0 ||
	    (rc = opt_int(&x, "ProblemType.MXBlockB", 0, &mxb)) < 0)
		goto fail;
	if (sparse || mxa || mxb) {
		rc = kw_error_set(x.err, KW_EUNSUPPORTED, sparse ? "ProblemType.Sparse" : "ProblemType.MXBlockA",
				  "%s solutions are not derived (their metadata / MX tensor parameters need keys logic files lack)",
				  sparse ? "sparse" : "MX");
		goto fail;
	}
	int bytes[3];
	long grvw[2];
	if ((rc = dt_bytes(&x, "ProblemType.DataType", NULL, &bpe)) < 0 ||
	    (rc = dt_bytes(&x, "ProblemType.DataTypeA", "ProblemType.DataType", &bytes[0])) < 0 ||
	    (rc = dt_bytes(&x, "ProblemType.DataTypeB", "ProblemType.DataType", &bytes[1])) < 0)
		goto fail;
	bytes[2] = bpe;
	if ((rc = derive_grvw(&x, mi, bytes, grvw)) < 0 ||
	    (rc = derive_tp(&tpa, &na, &x, 'A', mi, bpe, sparse == 1, grvw[0])) < 0 ||
	    (rc = derive_tp(&tpb, &nb, &x, 'B', mi, bpe, sparse == 2, grvw[1])) < 0)
		goto fail;

	if (ctx && ctx->isa)
		isa = json_string(ctx->isa);
	else {
		const json_t *v = json_object_get(solution, "ISA");
		if (!json_is_array(v) || json_array_size(v) != 3) {
			rc = kw_error_set(x.err, KW_EINVAL, "ISA", "no ISA: the file names no architecture and the solution has no ISA [M, m, s]");
			goto fail;
		}
		isa = json_deep_copy(v);
	}
	req = json_pack("{s:o, s:o, s:o, s:o, s:{s:I, s:I, s:i, s:i, s:i}}",
			"isa", isa, "kernel", kernel, "tPA", tpa, "tPB", tpb,
			"states", "numReadsPerIterA", (json_int_t)na, "numReadsPerIterB", (json_int_t)nb,
			"numReadsPerIterMetadata", 0, "numReadsPerIterMXSA", 0, "numReadsPerIterMXSB", 0);
	isa = kernel = tpa = tpb = NULL; /* json_pack "o" stole them, even on failure */
	if (!req) {
		rc = kw_error_set(x.err, KW_ENOMEM, NULL, "out of memory");
		goto fail;
	}
	if (ctx && ctx->generators && json_object_set(req, "generators", (json_t *)ctx->generators) < 0) {
		rc = kw_error_set(x.err, KW_ENOMEM, NULL, "out of memory");
		goto fail;
	}
	*out = req;
	return 0;
fail:
	json_decref(req);
	json_decref(isa);
	json_decref(kernel);
	json_decref(tpa);
	json_decref(tpb);
	return rc;
}
