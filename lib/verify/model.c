/* model.c - the per-ISA counter model: which counters exist, their capacity
 * and names, which counter each event class counts on and whether the class
 * completes in order. */
#include "verify/verify_int.h"

#include <string.h>
#include <strings.h>

#define C(x) (1u << VF_C_##x)

/* Counter capacities are the all-ones value of each field (the "no wait"
 * encoding): AMDGPUBaseInfo's getVmcntBitMask / getLgkmcntBitMask /
 * getExpcntBitMask and the gfx12 getLoadcntBitMask... family; the hardware
 * stalls issue when a counter is full (back-pressure, ROCm/rocm-systems#11202). */
static const vf_isa isas[] = {
#define GFX9(nm, p94)                                                                            \
	{ nm, 9, p94, 0, C(VM) | C(LGKM) | C(EXP),                                                   \
	  { [VF_C_VM] = 63, [VF_C_LGKM] = 15, [VF_C_EXP] = 7 },                                     \
	  { [VF_C_VM] = "vmcnt", [VF_C_LGKM] = "lgkmcnt", [VF_C_EXP] = "expcnt" },                   \
	  { [VF_K_VMEM] = VF_C_VM, [VF_K_VSAMPLE] = VF_C_VM, [VF_K_VBVH] = VF_C_VM,                 \
	    [VF_K_VSTORE] = VF_C_VM, [VF_K_LDS] = VF_C_LGKM, [VF_K_GDS] = VF_C_LGKM,                \
	    [VF_K_SMEM] = VF_C_LGKM, [VF_K_MSG] = VF_C_LGKM, [VF_K_FLATV] = VF_C_VM,                \
	    [VF_K_FLATS] = VF_C_VM, [VF_K_FLATL] = VF_C_LGKM, [VF_K_EXP] = VF_C_EXP,               \
	    [VF_K_TENSOR] = -1, [VF_K_ASYNC] = -1 },                                                 \
	  { [VF_K_GDS] = 1, [VF_K_SMEM] = 1, [VF_K_MSG] = 1, [VF_K_FLATV] = 1, [VF_K_FLATS] = 1,    \
	    [VF_K_FLATL] = 1 },                                                                      \
	  C(VM) | C(LGKM) | C(EXP) }
	GFX9("gfx908", 0), GFX9("gfx90a", 0), GFX9("gfx940", 1), GFX9("gfx941", 1),
	GFX9("gfx942", 1), GFX9("gfx950", 1),
#define GFX11(nm)                                                                                \
	{ nm, 11, 0, 0, C(VM) | C(LGKM) | C(EXP) | C(VS),                                            \
	  { [VF_C_VM] = 63, [VF_C_LGKM] = 63, [VF_C_EXP] = 7, [VF_C_VS] = 63 },                     \
	  { [VF_C_VM] = "vmcnt", [VF_C_LGKM] = "lgkmcnt", [VF_C_EXP] = "expcnt",                    \
	    [VF_C_VS] = "vscnt" },                                                                   \
	  { [VF_K_VMEM] = VF_C_VM, [VF_K_VSAMPLE] = VF_C_VM, [VF_K_VBVH] = VF_C_VM,                 \
	    [VF_K_VSTORE] = VF_C_VS, [VF_K_LDS] = VF_C_LGKM, [VF_K_GDS] = VF_C_LGKM,                \
	    [VF_K_SMEM] = VF_C_LGKM, [VF_K_MSG] = VF_C_LGKM, [VF_K_FLATV] = VF_C_VM,                \
	    [VF_K_FLATS] = VF_C_VS, [VF_K_FLATL] = VF_C_LGKM, [VF_K_EXP] = VF_C_EXP,               \
	    [VF_K_TENSOR] = -1, [VF_K_ASYNC] = -1 },                                                 \
	  { [VF_K_GDS] = 1, [VF_K_SMEM] = 1, [VF_K_MSG] = 1, [VF_K_FLATV] = 1, [VF_K_FLATS] = 1,    \
	    [VF_K_FLATL] = 1 },                                                                      \
	  C(VM) | C(LGKM) | C(EXP) }
	GFX11("gfx1100"), GFX11("gfx1101"), GFX11("gfx1102"),
#define GFX12(nm)                                                                                \
	{ nm, 12, 0, 0, C(VM) | C(LGKM) | C(EXP) | C(VS) | C(KM) | C(SAMPLE) | C(BVH),              \
	  { [VF_C_VM] = 63, [VF_C_LGKM] = 63, [VF_C_EXP] = 7, [VF_C_VS] = 63, [VF_C_KM] = 31,       \
	    [VF_C_SAMPLE] = 63, [VF_C_BVH] = 7 },                                                    \
	  { [VF_C_VM] = "loadcnt", [VF_C_LGKM] = "dscnt", [VF_C_EXP] = "expcnt",                    \
	    [VF_C_VS] = "storecnt", [VF_C_KM] = "kmcnt", [VF_C_SAMPLE] = "samplecnt",               \
	    [VF_C_BVH] = "bvhcnt" },                                                                 \
	  { [VF_K_VMEM] = VF_C_VM, [VF_K_VSAMPLE] = VF_C_SAMPLE, [VF_K_VBVH] = VF_C_BVH,            \
	    [VF_K_VSTORE] = VF_C_VS, [VF_K_LDS] = VF_C_LGKM, [VF_K_GDS] = VF_C_LGKM,                \
	    [VF_K_SMEM] = VF_C_KM, [VF_K_MSG] = VF_C_KM, [VF_K_FLATV] = VF_C_VM,                    \
	    [VF_K_FLATS] = VF_C_VS, [VF_K_FLATL] = VF_C_LGKM, [VF_K_EXP] = VF_C_EXP,               \
	    [VF_K_TENSOR] = -1, [VF_K_ASYNC] = -1 },                                                 \
	  { [VF_K_GDS] = 1, [VF_K_SMEM] = 1, [VF_K_MSG] = 1, [VF_K_FLATV] = 1, [VF_K_FLATS] = 1,    \
	    [VF_K_FLATL] = 1 },                                                                      \
	  C(VM) | C(LGKM) | C(EXP) | C(KM) | C(SAMPLE) | C(BVH) }
	GFX12("gfx1200"), GFX12("gfx1201"),
	{ "gfx1250", 12, 0, 1,
	  C(VM) | C(LGKM) | C(VS) | C(KM) | C(TENSOR) | C(ASYNC) | C(X) | C(EXP),
	  { [VF_C_VM] = 63, [VF_C_LGKM] = 63, [VF_C_EXP] = 7, [VF_C_VS] = 63, [VF_C_KM] = 31,
	    [VF_C_TENSOR] = 63, [VF_C_ASYNC] = 63, [VF_C_X] = 63 },
	  { [VF_C_VM] = "loadcnt", [VF_C_LGKM] = "dscnt", [VF_C_EXP] = "expcnt",
	    [VF_C_VS] = "storecnt", [VF_C_KM] = "kmcnt", [VF_C_TENSOR] = "tensorcnt",
	    [VF_C_ASYNC] = "asynccnt", [VF_C_X] = "xcnt" },
	  { [VF_K_VMEM] = VF_C_VM, [VF_K_VSAMPLE] = VF_C_VM, [VF_K_VBVH] = VF_C_VM,
	    [VF_K_VSTORE] = VF_C_VS, [VF_K_LDS] = VF_C_LGKM, [VF_K_GDS] = VF_C_LGKM,
	    [VF_K_SMEM] = VF_C_KM, [VF_K_MSG] = VF_C_KM, [VF_K_FLATV] = VF_C_VM,
	    [VF_K_FLATS] = VF_C_VS, [VF_K_FLATL] = VF_C_LGKM, [VF_K_EXP] = VF_C_EXP,
	    [VF_K_TENSOR] = VF_C_TENSOR, [VF_K_ASYNC] = VF_C_ASYNC },
	  { [VF_K_GDS] = 1, [VF_K_SMEM] = 1, [VF_K_MSG] = 1, [VF_K_FLATV] = 1, [VF_K_FLATS] = 1,
	    [VF_K_FLATL] = 1 },
	  C(VM) | C(LGKM) | C(KM) },
};

const vf_isa *vf_isa_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++)
		if (strlen(isas[i].name) == len && !strncasecmp(isas[i].name, name, len))
			return &isas[i];
	return NULL;
}
