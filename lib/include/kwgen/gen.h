/*
 * kwgen/gen.h - the ten seed generators of KernelWriterModules.py in C.
 *
 * Every generator reads its inputs from a kw_gen_in, builds a module tree
 * (kwgen/module.h) in in->arena, and returns 0 or a negative KW_E* code with
 * err naming the missing or bad key.  Keys are read in the seed's order and
 * only when the seed reads them, so a key the seed would not touch may be
 * absent.  Arithmetic is exact: a result that does not fit int64 is
 * KW_ELIMIT (the seed uses Python integers).
 */
#ifndef KWGEN_GEN_H
#define KWGEN_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "kwgen/arch.h"
#include "kwgen/buf.h"
#include "kwgen/diag.h"
#include "kwgen/error.h"
#include "kwgen/inst.h"
#include "kwgen/kernel.h"

typedef struct kw_gen_in {
	kw_arena *arena;          /* items and tables are allocated here */
	const kw_isa_info *isa;
	const kw_caps *caps;      /* effective asmCaps/archCaps (overrides merged) */
	const kw_kernel *k;
	const kw_tp *tPA, *tPB;
	const kw_states *states;
	kw_diags *diags;          /* may be NULL */
	int64_t max_acc_len;      /* bound on accToArchMapper length, checked before allocating */
} kw_gen_in;

/* ports tdmWait(states, kernel, tPA, tPB, tensorcnt, comment): a module of
 * SWaitCnt(vlcnt=0) (when tensorcnt > -1) and SWaitTensorcnt. */
int kw_gen_tdm_wait(kw_item **out, const kw_gen_in *in, int64_t tensorcnt, const char *comment,
		    kw_error *err);

typedef struct kw_wait_args {
	int64_t skipGlobalRead, skipLocalWrite, skipLocalRead;
	int64_t conservativeWaitCnt;   /* debug bits 0x2, 0x4, 0x8 */
	int64_t skipGlobalReadInst;
	const char *comment;
} kw_wait_args;

#define KW_WAIT_ARGS_INIT { -1, -1, -1, 0, -1, "" }

/* ports wait(): a bare SWaitCnt item, or in conservative mode the module
 * "ConservativeWaitCnt" (SWaitCnt all zero + SBarrier). */
int kw_gen_wait(kw_item **out, const kw_gen_in *in, const kw_wait_args *a, kw_error *err);

typedef struct kw_sync_args {
	const char *comment;
	int skipForceWaitcnt0;
	const int64_t *memoryToken; /* NULL = None; never printed */
	size_t n_memoryToken;
} kw_sync_args;

#define KW_SYNC_ARGS_INIT { "", 0, NULL, 0 }

/* ports syncThreads(kernel, archCaps, asmCaps, comment, skipForceWaitcnt0, memoryToken). */
int kw_gen_sync_threads(kw_item **out, const kw_gen_in *in, const kw_sync_args *a, kw_error *err);

/* accToArchMapper's two maps as arrays: acc2arch[src] = dst, arch2acc[dst] = src,
 * both of length len (a permutation of 0..len-1).  Arrays live in in->arena. */
typedef struct kw_acc_map {
	int64_t *acc2arch, *arch2acc;
	int64_t len;
} kw_acc_map;

/* ports accToArchMapper(kernel).  KW_ELIMIT if len > in->max_acc_len. */
int kw_gen_acc_to_arch_mapper(kw_acc_map *out, const kw_gen_in *in, kw_error *err);
/* ports getAccToArchLen(kernel) (may be <= 0 for degenerate inputs, as in Python).
 * KW_ELIMIT (field kernel.MIWaveTile) if it is past in->max_acc_len, the bound
 * accToArchMapper applies, so both answer the same kernels. */
int kw_gen_get_acc_to_arch_len(int64_t *out, const kw_gen_in *in, kw_error *err);
/* ports hasSequentialValuC(kernel): 1 if acc2arch is the identity. */
int kw_gen_has_sequential_valuc(int *out, const kw_gen_in *in, kw_error *err);
/* ports accVgprImagNumOffset(kernel) = len(acc2arch) * MIRegPerOut. */
int kw_gen_acc_vgpr_imag_num_offset(int64_t *out, const kw_gen_in *in, kw_error *err);

typedef struct kw_map_args {
	int64_t maxAgpr;             /* default 256 */
	int write;
	int has_spilledVgprBase;     /* 0 = None */
	int64_t spilledVgprBase;
} kw_map_args;

#define KW_MAP_ARGS_INIT { 256, 0, 0, 0 }

/* ports mapAcctoArchRegs(kernel, maxAgpr, write, spilledVgprBase): module
 * "AccVgprRead"/"AccVgprWrite", item k = the move for arch register k.
 * Adds an agpr_spill diagnostic when accumulators pass maxAgpr. */
int kw_gen_map_acc_to_arch_regs(kw_item **out, const kw_gen_in *in, const kw_map_args *a, kw_error *err);

/* ports mulMIoutAlphaToArch(kernel, startVgprAlphaTmp): module "MulAlpha";
 * ComputeDataType without a branch in the seed leaves empty slots, which
 * kw_render reports as KW_EUNSUPPORTED. */
int kw_gen_mul_miout_alpha_to_arch(kw_item **out, const kw_gen_in *in, int64_t startVgprAlphaTmp,
				   kw_error *err);
/* ports moveMIoutToArch(kernel, startVgprAlphaTmp). */
int kw_gen_move_miout_to_arch(kw_item **out, const kw_gen_in *in, int64_t startVgprAlphaTmp,
			      kw_error *err);

#endif
