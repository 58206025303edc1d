/* request_int.h - the parsed request, shared by request.c (parsing),
 * run.c (generation, JSON answers) and canonical.c (canonical form, key).
 * Private to lib/. */
#ifndef KWGEN_REQUEST_INT_H
#define KWGEN_REQUEST_INT_H

#include "kwgen/arch.h"
#include "kwgen/gen.h"
#include "kwgen/inst.h"
#include "kwgen/kernel.h"
#include "kwgen/request.h"

typedef enum kw_gen_id {
	KW_GEN_TDM_WAIT,
	KW_GEN_WAIT,
	KW_GEN_SYNC_THREADS,
	KW_GEN_ACC_TO_ARCH_MAPPER,
	KW_GEN_GET_ACC_TO_ARCH_LEN,
	KW_GEN_HAS_SEQUENTIAL_VALUC,
	KW_GEN_ACC_VGPR_IMAG_NUM_OFFSET,
	KW_GEN_MAP_ACC_TO_ARCH_REGS,
	KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH,
	KW_GEN_MOVE_MIOUT_TO_ARCH,
	KW_GEN_COUNT
} kw_gen_id;

/* Seed name of a generator ("mapAcctoArchRegs"). */
const char *kw_gen_name(kw_gen_id g);

typedef struct kw_call {
	kw_gen_id gen;
	char *comment;            /* owned */
	int64_t tensorcnt;
	kw_wait_args wait;
	int skipForceWaitcnt0;
	int has_memoryToken;
	int64_t *memoryToken;     /* owned */
	size_t n_memoryToken;
	kw_map_args map;
	int64_t startVgprAlphaTmp;
} kw_call;

struct kw_request {
	const kw_isa_info *isa;
	int64_t wavefront;
	kw_caps caps;
	kw_kernel k;
	kw_tp tPA, tPB;
	kw_states states;
	int output_no_comment, strict, oracle_form;
	int64_t vgpr_msb;
	kw_vgpr_name *vgpr_idx;   /* owned, names owned */
	size_t n_vgpr_idx;
	int rh_kind;              /* 0 none, 1 int, 2 list */
	int64_t rh_int;
	int64_t *rh_list;         /* owned */
	size_t n_rh;
	kw_call *calls;           /* owned */
	size_t ncalls;
	kw_limits lim;
	json_t *source;           /* owned copy of "source", or NULL */
};

/* The args object of a call with defaults filled (results and canonical form). */
json_t *kw_call_args_json(const kw_call *c);

#endif
