/*
 * kwgen/arch.h - the ISA table: names, default wavefront, asmCaps and
 * archCaps per ISA (rendering.md §2), as rocisa's rocIsa holds them.
 *
 * Caps are addressed by enum; a cap that an ISA's table does not list reads
 * 0, as rocisa's std::map does.  Tables are static and read-only; kw_caps
 * values are plain structs the caller owns (copy, then apply overrides).
 */
#ifndef KWGEN_ARCH_H
#define KWGEN_ARCH_H

#include <stdint.h>
#include <jansson.h>

#include "kwgen/error.h"

typedef struct kw_isa {
	int major, minor, step;
} kw_isa;

/* asmCaps rocisa's printing (and the seed) read, plus neighbours. */
#define KW_ASMCAPS(X) \
	X(SupportedISA) X(SupportedSource) X(HasExplicitCO) X(HasExplicitNC) \
	X(HasNewBarrier) X(HasTDM) X(s_delay_alu) X(HasVgprMSB) X(HasVgprMSB16) \
	X(ShortBranchMaxLength) X(v_mov_b64) X(SeparateVscnt) X(SeparateLGKMcnt) \
	X(SeparateVMcnt) X(MaxVmcnt) X(MaxLgkmcnt) X(MaxVscnt) X(MaxDscnt) \
	X(MaxKmcnt) X(MaxLoadcnt) X(MaxStorecnt)

#define KW_ARCHCAPS(X) \
	X(HasEccHalf) X(Waitcnt0Disabled) X(DeviceLDS) X(CMPXWritesSGPR) X(HasWave32) \
	X(HasSchedMode) X(HasAccCD) X(ArchAccUnifiedRegs) X(CrosslaneWait) X(TransOpWait) \
	X(SDWAWait) X(VgprBank) X(DSLow16NotPreserve) X(WorkGroupIdFromTTM) X(NoSDWA) \
	X(VOP3ByteSel) X(HasFP8_OCP) X(HasWmmaArbStallBit) X(HasF32XEmulation) \
	X(HasMXScaleSwizzle) X(HasInvWbDevFences) X(RequiresXCntForVolatileVMEM) \
	X(LDSBankCount) X(LDSBankWidth)

#define KW_CAP_ENUM(n) KW_ASM_##n,
enum kw_asmcap { KW_ASMCAPS(KW_CAP_ENUM) KW_ASMCAP_COUNT };
#undef KW_CAP_ENUM
#define KW_CAP_ENUM(n) KW_ARCH_##n,
enum kw_archcap { KW_ARCHCAPS(KW_CAP_ENUM) KW_ARCHCAP_COUNT };
#undef KW_CAP_ENUM

typedef struct kw_caps {
	int64_t asm_[KW_ASMCAP_COUNT];
	int64_t arch[KW_ARCHCAP_COUNT];
} kw_caps;

/* ISA family, for what the hardware/assembler accepts (diagnostics). */
typedef enum kw_family {
	KW_FAM_GFX9,    /* gfx908 */
	KW_FAM_GFX90A,  /* gfx90a, gfx940-942, gfx950: 64-bit VGPR tuples aligned */
	KW_FAM_GFX11,   /* gfx1100-1102 */
	KW_FAM_GFX12,   /* gfx1200, gfx1201 */
	KW_FAM_GFX1250  /* gfx1250: banked VGPRs, TDM */
} kw_family;

typedef struct kw_isa_info {
	const char *name;      /* "gfx942" */
	kw_isa isa;
	kw_family family;
	int default_wavefront; /* 64 on gfx9, 32 on gfx11/12 */
	int wave32, wave64;    /* wavefront sizes the ISA runs */
	int max_vgpr;          /* arch VGPRs addressable: 256, or 1024 on gfx1250 */
	int has_agpr;          /* v_accvgpr_* and accN exist */
	const char *llvm_mcpu; /* -mcpu for llvm-mc 22 (gfx940/941 -> gfx942) */
} kw_isa_info;

/* Number of supported ISAs and the i-th (table order). */
int kw_isa_count(void);
const kw_isa_info *kw_isa_at(int i);

/* Look up by triple; NULL if kwgen has no table for it. */
const kw_isa_info *kw_isa_find(kw_isa isa);

/*
 * Parse an ISA given as "gfx942" / "GFX90A" (rocisa's gfx name) or as a
 * JSON array [9,4,2].  Returns 0 and *out, or KW_EINVAL with a message
 * listing the supported names.
 */
int kw_isa_parse(const kw_isa_info **out, const json_t *v, kw_error *err);

/* The ISA's own tables (rendering.md §2) into *out. */
void kw_caps_for(kw_caps *out, const kw_isa_info *isa);

/* Index of a cap by its rocisa name; -1 if kwgen does not model it. */
int kw_asmcap_index(const char *name);
int kw_archcap_index(const char *name);
const char *kw_asmcap_name(int i);
const char *kw_archcap_name(int i);

/*
 * Merge a JSON object of overrides ({"MaxLgkmcnt": 15, "HasNewBarrier":
 * true}) onto caps: values must be integers or booleans (rocisa stores
 * int(v)); names kwgen does not model are accepted and ignored (they do not
 * change any output).  which: 0 = asmCaps, 1 = archCaps.  field names the
 * request key for errors ("asmCaps").
 */
int kw_caps_override(kw_caps *caps, int which, const json_t *obj, const char *field,
		     kw_error *err);

/* GET /v1/isas: [{"name","isa":[M,m,s],"wavefront":[..],"asmCaps":{},"archCaps":{}}...] */
json_t *kw_isas_json(void);

#endif
