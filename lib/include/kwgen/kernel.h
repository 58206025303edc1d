/*
 * kwgen/kernel.h - the inputs the seed reads: the Tensile kernel (solution)
 * dict, the tensor parameters tPA/tPB and the writer states, parsed from
 * JSON with Tensile's key names (call-sites.md §0).
 *
 * Each value has a presence bit: a key absent from the request stays
 * absent, and kw_kernel_need() reports it only when a generator reads it,
 * as Tensile's KeyError would.  Booleans may be JSON booleans or integers
 * (truthiness, as Tensile stores both); DataType fields may be an enum int,
 * a type char or a name.  Values are plain structs, caller-owned.
 */
#ifndef KWGEN_KERNEL_H
#define KWGEN_KERNEL_H

#include <stdint.h>
#include <jansson.h>

#include "kwgen/error.h"

/* Kernel keys: X(enum suffix, JSON path, kind) */
#define KW_KERNEL_KEYS(X) \
	X(BufferLoad, "BufferLoad", KW_KT_BOOL) \
	X(DirectToLdsA, "DirectToLdsA", KW_KT_BOOL) \
	X(DirectToLdsB, "DirectToLdsB", KW_KT_BOOL) \
	X(DirectToVgprA, "DirectToVgprA", KW_KT_BOOL) \
	X(DirectToVgprB, "DirectToVgprB", KW_KT_BOOL) \
	X(DirectToVgprSparseMetadata, "DirectToVgprSparseMetadata", KW_KT_BOOL) \
	X(DirectToVgprMXSA, "DirectToVgprMXSA", KW_KT_BOOL) \
	X(DirectToVgprMXSB, "DirectToVgprMXSB", KW_KT_BOOL) \
	X(NumLoadsCoalescedA, "NumLoadsCoalescedA", KW_KT_INT) \
	X(NumLoadsCoalescedB, "NumLoadsCoalescedB", KW_KT_INT) \
	X(NumLoadsPerpendicularA, "NumLoadsPerpendicularA", KW_KT_INT) \
	X(NumLoadsPerpendicularB, "NumLoadsPerpendicularB", KW_KT_INT) \
	X(NumLoadsCoalescedMXSA, "NumLoadsCoalescedMXSA", KW_KT_INT) \
	X(NumLoadsCoalescedMXSB, "NumLoadsCoalescedMXSB", KW_KT_INT) \
	X(NumLoadsPerpendicularMXSA, "NumLoadsPerpendicularMXSA", KW_KT_INT) \
	X(NumLoadsPerpendicularMXSB, "NumLoadsPerpendicularMXSB", KW_KT_INT) \
	X(NumLoadsCoalescedMetadata, "NumLoadsCoalescedMetadata", KW_KT_INT) \
	X(NumLoadsPerpendicularMetadata, "NumLoadsPerpendicularMetadata", KW_KT_INT) \
	X(NumThreads, "NumThreads", KW_KT_INT) \
	X(WavefrontSize, "WavefrontSize", KW_KT_INT) \
	X(_ScheduleIterAlg, "_ScheduleIterAlg", KW_KT_INT) \
	X(PrefetchGlobalRead, "PrefetchGlobalRead", KW_KT_INT) \
	X(EnableMatrixInstruction, "EnableMatrixInstruction", KW_KT_BOOL) \
	X(MIArchVgpr, "MIArchVgpr", KW_KT_BOOL) \
	X(SourceSwap, "SourceSwap", KW_KT_BOOL) \
	X(CompactLoopStore, "CompactLoopStore", KW_KT_BOOL) \
	X(MatrixInstM, "MatrixInstM", KW_KT_INT) \
	X(MatrixInstN, "MatrixInstN", KW_KT_INT) \
	X(MatrixInstBM, "MatrixInstBM", KW_KT_INT) \
	X(MatrixInstBN, "MatrixInstBN", KW_KT_INT) \
	X(MIWaveTile, "MIWaveTile", KW_KT_PAIR) \
	X(MIRegPerOut, "MIRegPerOut", KW_KT_INT) \
	X(VectorWidthA, "VectorWidthA", KW_KT_INT) \
	X(VectorWidthB, "VectorWidthB", KW_KT_INT) \
	X(DataType, "ProblemType.DataType", KW_KT_DTYPE) \
	X(ComputeDataType, "ProblemType.ComputeDataType", KW_KT_DTYPE) \
	X(HighPrecisionAccumulate, "ProblemType.HighPrecisionAccumulate", KW_KT_BOOL) \
	X(Sparse, "ProblemType.Sparse", KW_KT_BOOL) \
	X(MXBlockA, "ProblemType.MXBlockA", KW_KT_BOOL) \
	X(MXBlockB, "ProblemType.MXBlockB", KW_KT_BOOL)

typedef enum kw_ktype { KW_KT_BOOL, KW_KT_INT, KW_KT_PAIR, KW_KT_DTYPE } kw_ktype;

#define KW_KK_ENUM(n, p, t) KK_##n,
typedef enum kw_kkey { KW_KERNEL_KEYS(KW_KK_ENUM) KK_COUNT } kw_kkey;
#undef KW_KK_ENUM

/* The five counts of a tensor's local-write/read plan (tP, tP["MX"], tP["tpsMetadata"]). */
enum { KW_TPC_nrp, KW_TPC_nrc, KW_TPC_nwcv, KW_TPC_nwpv, KW_TPC_nwcvpi, KW_TPC_COUNT };

typedef struct kw_tp_counts {
	unsigned present;          /* bit i: count i given */
	int is_null;               /* given as null */
	int64_t v[KW_TPC_COUNT];
} kw_tp_counts;

typedef struct kw_tp {
	int given;                 /* tPA/tPB object present in the request */
	kw_tp_counts c;            /* nrp, nrc, nwcv, nwpv, nwcvpi */
	int has_block_width;       /* localReadInstruction.blockWidth given */
	double block_width;        /* registers; may be fractional (0.5 for u16) */
	int has_is_sparse;
	int64_t is_sparse;
	int has_tpsMetadata, has_MX;
	kw_tp_counts tpsMetadata, MX;
} kw_tp;

enum { KW_ST_numReadsPerIterA, KW_ST_numReadsPerIterB, KW_ST_numReadsPerIterMetadata,
       KW_ST_numReadsPerIterMXSA, KW_ST_numReadsPerIterMXSB, KW_ST_COUNT };

typedef struct kw_states {
	unsigned present;
	int64_t v[KW_ST_COUNT];
} kw_states;

typedef struct kw_kernel {
	uint64_t present;          /* bit KK_x */
	uint64_t given_bool;       /* bit KK_x: an integer key given as true/false */
	int64_t v[KK_COUNT];       /* value (bools 0/1/int truthiness, DataType enum) */
	int64_t MIWaveTile[2];
} kw_kernel;

/* JSON path of a kernel key ("ProblemType.DataType") and its kind. */
const char *kw_kernel_key_path(kw_kkey k);
kw_ktype kw_kernel_key_type(kw_kkey k);
const char *kw_tpc_name(int i);
const char *kw_states_name(int i);

/*
 * Parse the kernel object (may be NULL: every key absent).  Validates the
 * type of every key kwgen models that is present, and every ProblemType key
 * ending in "DataType".  fill_defaults fills Tensile-neutral defaults for
 * absent keys (the oracle's fillDefaults).  Integers must fit in int32.
 * Returns 0 or KW_EINVAL naming the key ("kernel.MIWaveTile").
 */
int kw_kernel_parse(kw_kernel *out, const json_t *kernel, int fill_defaults, kw_error *err);

/* tPA/tPB ("tPA" names the field for errors) and states. */
int kw_tp_parse(kw_tp *out, const json_t *tp, const char *field, kw_error *err);
int kw_states_parse(kw_states *out, const json_t *st, kw_error *err);

/* Value of a key a generator reads; KW_EINVAL naming the key if absent.
 * who names the reader for the message ("accToArchMapper"). */
int kw_kernel_need(int64_t *out, const kw_kernel *k, kw_kkey key, const char *who, kw_error *err);

/* kernel.get("CompactLoopStore", False) style read: the value or def. */
int64_t kw_kernel_get(const kw_kernel *k, kw_kkey key, int64_t def);

/* Serialise the keys in mask (bit KK_x) to a JSON object with nested
 * ProblemType, booleans as true/false, DataType as its enum int. */
json_t *kw_kernel_to_json(const kw_kernel *k, uint64_t mask);
json_t *kw_tp_to_json(const kw_tp *tp);
json_t *kw_states_to_json(const kw_states *st);

#endif
