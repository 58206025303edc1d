/* canonical.c - the canonical request and its SHA-256 ids (kwgen/request.h). */
#include "request_int.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bump when any generated output changes (tests/golden/salt.txt pins the
 * output digest this salt was released with). */
#define KW_GENERATOR_SALT "kwgen-generators-2"

const char *kw_generator_version(void)
{
	return KW_GENERATOR_SALT;
}

#define KB(x) (1ULL << KK_##x)

static uint64_t keys_read(kw_gen_id g)
{
	const uint64_t acc = KB(MatrixInstM) | KB(MatrixInstN) | KB(MatrixInstBM) | KB(MatrixInstBN) |
			     KB(WavefrontSize) | KB(VectorWidthA) | KB(VectorWidthB) | KB(MIWaveTile) | KB(SourceSwap);

	switch (g) {
	case KW_GEN_TDM_WAIT:
		return 0;
	case KW_GEN_WAIT:
		return KB(BufferLoad) | KB(DirectToLdsA) | KB(DirectToLdsB) | KB(DirectToVgprA) | KB(DirectToVgprB) |
		       KB(DirectToVgprSparseMetadata) | KB(DirectToVgprMXSA) | KB(DirectToVgprMXSB) |
		       KB(NumLoadsCoalescedA) | KB(NumLoadsCoalescedB) | KB(NumLoadsPerpendicularA) |
		       KB(NumLoadsPerpendicularB) | KB(NumLoadsCoalescedMXSA) | KB(NumLoadsCoalescedMXSB) |
		       KB(NumLoadsPerpendicularMXSA) | KB(NumLoadsPerpendicularMXSB) | KB(NumLoadsCoalescedMetadata) |
		       KB(NumLoadsPerpendicularMetadata) | KB(Sparse) | KB(MXBlockA) | KB(MXBlockB);
	case KW_GEN_SYNC_THREADS:
		return KB(NumThreads) | KB(WavefrontSize) | KB(_ScheduleIterAlg) | KB(PrefetchGlobalRead);
	case KW_GEN_ACC_TO_ARCH_MAPPER:
	case KW_GEN_GET_ACC_TO_ARCH_LEN:
		return acc;
	case KW_GEN_HAS_SEQUENTIAL_VALUC:
		return acc | KB(EnableMatrixInstruction);
	case KW_GEN_ACC_VGPR_IMAG_NUM_OFFSET:
		return acc | KB(MIRegPerOut);
	case KW_GEN_MAP_ACC_TO_ARCH_REGS:
		return acc | KB(MIRegPerOut) | KB(DataType) | KB(MIArchVgpr) | KB(CompactLoopStore);
	case KW_GEN_MUL_MIOUT_ALPHA_TO_ARCH:
	case KW_GEN_MOVE_MIOUT_TO_ARCH:
		return acc | KB(MIRegPerOut) | KB(ComputeDataType) | KB(HighPrecisionAccumulate);
	default:
		return 0;
	}
}

/* asmCaps the rendering reads, and the archCaps syncThreads reads. */
static const int printing_asmcaps[] = {
	KW_ASM_SeparateVscnt, KW_ASM_SeparateVMcnt, KW_ASM_SeparateLGKMcnt, KW_ASM_MaxVmcnt,
	KW_ASM_MaxLgkmcnt, KW_ASM_MaxVscnt, KW_ASM_MaxDscnt, KW_ASM_MaxKmcnt, KW_ASM_MaxLoadcnt,
	KW_ASM_MaxStorecnt, KW_ASM_HasNewBarrier, KW_ASM_HasVgprMSB,
};

static json_t *canonical_json(const kw_request *r)
{
	json_t *o = json_object(), *gens = json_array(), *asmc = json_object();
	uint64_t mask = 0;
	int uses_tp = 0;
	kw_kernel k = r->k;

	if (!o || !gens || !asmc)
		goto fail;
	for (size_t i = 0; i < r->ncalls; i++) {
		json_t *g = json_pack("{s:s,s:o}", "name", kw_gen_name(r->calls[i].gen), "args", kw_call_args_json(&r->calls[i]));
		if (!g || json_array_append_new(gens, g))
			goto fail;
		mask |= keys_read(r->calls[i].gen);
		if (r->calls[i].gen == KW_GEN_MAP_ACC_TO_ARCH_REGS && !(k.present & KB(CompactLoopStore))) {
			k.present |= KB(CompactLoopStore); /* kernel.get("CompactLoopStore", False) */
			k.v[KK_CompactLoopStore] = 0;
		}
		uses_tp |= r->calls[i].gen == KW_GEN_WAIT;
	}
	for (size_t i = 0; i < sizeof(printing_asmcaps) / sizeof(printing_asmcaps[0]); i++)
		json_object_set_new(asmc, kw_asmcap_name(printing_asmcaps[i]), json_integer(r->caps.asm_[printing_asmcaps[i]]));
	json_object_set_new(o, "isa", json_pack("[iii]", r->isa->isa.major, r->isa->isa.minor, r->isa->isa.step));
	json_object_set_new(o, "asmCaps", asmc);
	asmc = NULL;
	json_object_set_new(o, "archCaps", json_pack("{s:I}", "Waitcnt0Disabled", (json_int_t)r->caps.arch[KW_ARCH_Waitcnt0Disabled]));
	json_object_set_new(o, "kernel", kw_kernel_to_json(&k, mask));
	if (uses_tp) {
		json_object_set_new(o, "tPA", kw_tp_to_json(&r->tPA));
		json_object_set_new(o, "tPB", kw_tp_to_json(&r->tPB));
		json_object_set_new(o, "states", kw_states_to_json(&r->states));
	}
	json_object_set_new(o, "generators", gens);
	gens = NULL;
	json_object_set_new(o, "outputNoComment", json_boolean(r->output_no_comment));
	json_object_set_new(o, "strict", json_boolean(r->strict));
	if (r->rh_kind == 1) {
		json_object_set_new(o, "replaceHolder", json_integer(r->rh_int));
	} else if (r->rh_kind == 2) {
		json_t *a = json_array();
		for (size_t i = 0; a && i < r->n_rh; i++)
			json_array_append_new(a, json_integer(r->rh_list[i]));
		json_object_set_new(o, "replaceHolder", a);
	}
	if (r->caps.asm_[KW_ASM_HasVgprMSB]) {
		json_t *m = json_object();
		for (size_t i = 0; m && i < r->n_vgpr_idx; i++)
			json_object_set_new(m, r->vgpr_idx[i].name, json_integer(r->vgpr_idx[i].idx));
		json_object_set_new(o, "vgprIdx", m);
		json_object_set_new(o, "vgprMsb", json_integer(r->vgpr_msb));
	}
	return o;
fail:
	json_decref(o);
	json_decref(gens);
	json_decref(asmc);
	return NULL;
}

static int dump_to_buf(const char *s, size_t n, void *data)
{
	return kw_buf_put(data, s, n) ? -1 : 0;
}

int kw_request_canonical(char **out, const kw_request *r, kw_error *err)
{
	json_t *o = canonical_json(r);
	kw_buf b = KW_BUF_INIT;
	int bad;

	*out = NULL;
	if (!o)
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	/* Into a malloc()ed buffer, not json_dumps: the caller free()s the
	 * text, and jansson's allocator may be an arena (kwgen --batch). */
	bad = json_dump_callback(o, dump_to_buf, &b, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII) ||
	      (!b.p && kw_buf_grow(&b, 0));
	json_decref(o);
	if (bad || b.oom) {
		kw_buf_free(&b);
		return kw_error_set(err, KW_ENOMEM, NULL, "out of memory");
	}
	*out = kw_buf_detach(&b);
	return 0;
}

static int sha256_hex(char hex[65], const char *a, size_t an, const char *b, size_t bn)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	if (!ctx)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
	     (an == 0 || EVP_DigestUpdate(ctx, a, an) == 1) &&
	     EVP_DigestUpdate(ctx, b, bn) == 1 && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1;
	EVP_MD_CTX_free(ctx);
	if (!ok || mdlen != 32)
		return -1;
	for (unsigned i = 0; i < 32; i++) {
		hex[2 * i] = "0123456789abcdef"[md[i] >> 4];
		hex[2 * i + 1] = "0123456789abcdef"[md[i] & 15];
	}
	hex[64] = '\0';
	return 0;
}

int kw_request_ids(char config_id[65], char key[65], char **canonical_out, const kw_request *r, kw_error *err)
{
	char *canon = NULL;
	const char *salt = kw_generator_version();
	int rc;

	if ((rc = kw_request_canonical(&canon, r, err)))
		return rc;
	if (sha256_hex(config_id, NULL, 0, canon, strlen(canon)) ||
	    sha256_hex(key, salt, strlen(salt) + 1 /* with its NUL as separator */, canon, strlen(canon))) {
		free(canon);
		return kw_error_set(err, KW_EINTERNAL, NULL, "SHA-256 failed");
	}
	if (canonical_out)
		*canonical_out = canon;
	else
		free(canon);
	return 0;
}
