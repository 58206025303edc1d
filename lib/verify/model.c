/* model.c - the per-ISA counter model: which counters exist, their capacity
 * and names, which counter each event class counts on and whether the class
 * completes in order. */
#include "verify/verify_int.h"

#include <string.h>
#include <strings.h>
#include <ctype.h>

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
	  C(VM) | C(LGKM) | C(EXP) | C(VS) }
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
	  C(VM) | C(LGKM) | C(EXP) | C(KM) | C(SAMPLE) | C(BVH) | C(VS) }
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
	  C(VM) | C(LGKM) | C(KM) | C(VS) },
};

const vf_isa *vf_isa_by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(isas) / sizeof(isas[0]); i++)
		if (strlen(isas[i].name) == len && !strncasecmp(isas[i].name, name, len))
			return &isas[i];
	return NULL;
}

/* GFX12 VMEM loads may write their VGPR results out of order (llvm/llvm-project
 * #105549): only targets with FeatureVmemWriteVgprInOrder (gfx6-gfx11) let
 * SIInsertWaitcnts skip the WAW wait between two loads of one VmemType
 * (generateWaitcntInstBefore: "... or !ST->hasVmemWriteVgprInOrder()").  From
 * gfx12 (gfx1200, gfx1201, gfx1250) the overwriting load needs the count that
 * completes the older one.  The counters still count in order. */
int vf_vgpr_write_ooo(const vf_isa *isa, int k)
{
	return isa->gen >= 12 && (k == VF_K_VMEM || k == VF_K_VSAMPLE || k == VF_K_VBVH);
}

/* ---- mnemonic families ----
 *
 * Which counter an instruction increments follows SIInsertWaitcnts.cpp
 * updateEventWaitcntAfter (commit 007560ecefea, "Now look at the instruction
 * opcode"): DS -> LDS_ACCESS (GDS_ACCESS with gds), FLAT -> a VMEM event and
 * LDS_ACCESS (both counters: setPendingFlat), other VMEM -> VMEM_ACCESS
 * (gfx9, no vscnt) or VMEM_READ_ACCESS / VMEM_WRITE_ACCESS (vscnt), except
 * the cache invalidates BUFFER_WBINVL1* / BUFFER_GL0_INV / BUFFER_GL1_INV
 * which are not counted; SMRD, S_MEMTIME, S_MEMREALTIME -> SMEM_ACCESS;
 * S_SENDMSG* -> SQ_MESSAGE; EXP and LDSDIR -> expcnt.  Sampler and BVH image
 * ops are separate VmemTypes (getVmemType) and, from gfx12, separate
 * counters (AMDGPUUsage.rst, "Memory Model GFX12": loadcnt, samplecnt,
 * bvhcnt, storecnt, dscnt, kmcnt). */

#define PFX(lit) (n >= sizeof(lit) - 1 && !memcmp(m, lit, sizeof(lit) - 1))
#define EQ(lit) (n == sizeof(lit) - 1 && !memcmp(m, lit, sizeof(lit) - 1))

static int has(const char *m, size_t n, const char *sub)
{
	size_t k = strlen(sub);

	for (size_t i = 0; i + k <= n; i++)
		if (m[i] == sub[0] && !memcmp(m + i, sub, k))
			return 1;
	return 0;
}

static vf_mclass mk(uint8_t kind)
{
	vf_mclass c;

	memset(&c, 0, sizeof(c));
	c.kind = kind;
	return c;
}

static vf_mclass memc(uint8_t mem, uint8_t access)
{
	vf_mclass c = mk(VF_I_MEM);

	c.mem = mem;
	c.access = access;
	if (access == VF_MA_LOAD || access == VF_MA_SAMPLE || access == VF_MA_BVH)
		c.flags |= VF_F_DEF0;
	if (access == VF_MA_STORE)
		c.flags |= VF_F_STORE;
	if (access == VF_MA_DMA)
		c.flags |= VF_F_DMA;
	return c;
}

static int wait_counter(const vf_isa *isa, const char *m, size_t n)
{
	static const struct { const char *name; int c; } names[] = {
		{ "loadcnt", VF_C_VM }, { "storecnt", VF_C_VS }, { "dscnt", VF_C_LGKM },
		{ "kmcnt", VF_C_KM }, { "expcnt", VF_C_EXP }, { "samplecnt", VF_C_SAMPLE },
		{ "bvhcnt", VF_C_BVH }, { "tensorcnt", VF_C_TENSOR }, { "xcnt", VF_C_X },
		{ "asynccnt", VF_C_ASYNC },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n && !memcmp(names[i].name, m, n))
			return (isa->counters >> names[i].c) & 1 ? names[i].c : -1;
	return -1;
}

static vf_mclass classify_vmem(const vf_isa *isa, const char *m, size_t n)
{
	/* gfx12 cache maintenance is a FLAT-global op counted like a load
	 * (global_inv) or a store (global_wb); the memory model waits for it
	 * with loadcnt / storecnt (AMDGPUUsage.rst, "Memory Model GFX12") */
	if (isa->gen >= 12 && PFX("global_inv"))
		return memc(VF_M_VMEM, VF_MA_OTHER);
	if (isa->gen >= 12 && (PFX("global_wb")))
		return memc(VF_M_VMEM, VF_MA_STORE);
	/* cache maintenance: not counted (updateEventWaitcntAfter carve-out) */
	if (PFX("buffer_wbinvl1") || EQ("buffer_inv") || EQ("buffer_gl0_inv") ||
	    EQ("buffer_gl1_inv") || PFX("global_inv") || PFX("global_wb") || PFX("global_prefetch") ||
	    PFX("flat_prefetch"))
		return mk(VF_I_IGNORE);
	if (EQ("buffer_wbl2"))
		return memc(VF_M_VMEM, VF_MA_STORE);
	if (isa->gfx1250 && (has(m, n, "_async_") || PFX("cluster_load_async")))
		return memc(VF_M_ASYNC, has(m, n, "_to_lds") ? VF_MA_DMA : VF_MA_STORE);
	if (PFX("global_load_lds_") || PFX("scratch_load_lds_") || PFX("buffer_load_lds_"))
		return memc(VF_M_VMEM, VF_MA_DMA);
	if (PFX("image_")) {
		if (PFX("image_sample") || PFX("image_gather4") || PFX("image_get_lod"))
			return memc(VF_M_VMEM, VF_MA_SAMPLE);
		if (PFX("image_bvh"))
			return memc(VF_M_VMEM, VF_MA_BVH);
		if (PFX("image_load") || PFX("image_get_resinfo") || PFX("image_msaa_load"))
			return memc(VF_M_VMEM, VF_MA_LOAD);
		if (PFX("image_store"))
			return memc(VF_M_VMEM, VF_MA_STORE);
		if (PFX("image_atomic"))
			return memc(VF_M_VMEM, VF_MA_ATOMIC);
		return mk(VF_I_UNKNOWN);
	}
	if (has(m, n, "_atomic"))
		return memc(PFX("flat_") ? VF_M_FLAT : VF_M_VMEM, VF_MA_ATOMIC);
	if (has(m, n, "_load"))
		return memc(PFX("flat_") ? VF_M_FLAT : VF_M_VMEM, VF_MA_LOAD);
	if (has(m, n, "_store"))
		return memc(PFX("flat_") ? VF_M_FLAT : VF_M_VMEM, VF_MA_STORE);
	return mk(VF_I_UNKNOWN);
}

static vf_mclass classify_ds(const char *m, size_t n)
{
	vf_mclass c;

	if (EQ("ds_nop"))
		return mk(VF_I_IGNORE);
	if (PFX("ds_gws_") || EQ("ds_ordered_count")) {
		c = memc(VF_M_GDS, VF_MA_OTHER);
		if (EQ("ds_ordered_count"))
			c.flags |= VF_F_DEF0;
		return c;
	}
	if (PFX("ds_swizzle") || PFX("ds_permute") || PFX("ds_bpermute")) {
		c = memc(VF_M_LDS, VF_MA_LOAD); /* no LDS memory access */
		return c;
	}
	if (PFX("ds_read") || PFX("ds_load") || (PFX("ds_param_load") || PFX("ds_direct_load"))) {
		if (PFX("ds_param_load") || PFX("ds_direct_load"))
			return memc(VF_M_EXP, VF_MA_LOAD);
		c = memc(VF_M_LDS, VF_MA_LOAD);
		c.flags |= VF_F_LDSREAD;
		return c;
	}
	if (EQ("ds_append") || EQ("ds_consume")) {
		c = memc(VF_M_LDS, VF_MA_LOAD);
		return c;
	}
	if (has(m, n, "_rtn") || PFX("ds_bvh_stack")) {
		c = memc(VF_M_LDS, VF_MA_LOAD);
		c.flags |= VF_F_LDSREAD | VF_F_LDSWRITE;
		return c;
	}
	/* ds_write*, ds_store*, atomics without return */
	c = memc(VF_M_LDS, VF_MA_STORE);
	c.flags |= VF_F_LDSWRITE;
	return c;
}

static vf_mclass classify_s(const vf_isa *isa, const char *m, size_t n)
{
	vf_mclass c;
	int cnt;

	if (PFX("s_wait")) {
		if (EQ("s_waitcnt"))
			return isa->gen < 12 ? (c = mk(VF_I_WAIT), c.wait = VF_W_WAITCNT, c) : mk(VF_I_UNKNOWN);
		if (EQ("s_waitcnt_depctr") || EQ("s_wait_alu") || EQ("s_wait_event"))
			return mk(VF_I_IGNORE);
		if (PFX("s_waitcnt_")) {
			const char *f = m + 10;
			size_t fn = n - 10;
			if (isa->gen >= 12)
				return mk(VF_I_UNKNOWN);
			c = mk(VF_I_WAIT);
			c.wait = VF_W_REG;
			if (fn == 5 && !memcmp(f, "vscnt", 5) && isa->gen >= 10)
				c.wcnt = VF_C_VS;
			else if (fn == 5 && !memcmp(f, "vmcnt", 5))
				c.wcnt = VF_C_VM;
			else if (fn == 6 && !memcmp(f, "expcnt", 6))
				c.wcnt = VF_C_EXP;
			else if (fn == 7 && !memcmp(f, "lgkmcnt", 7))
				c.wcnt = VF_C_LGKM;
			else
				return mk(VF_I_UNKNOWN);
			return c;
		}
		if (isa->gen < 12)
			return mk(VF_I_UNKNOWN);
		if (EQ("s_wait_idle"))
			return (c = mk(VF_I_WAIT), c.wait = VF_W_IDLE, c);
		if (EQ("s_wait_loadcnt_dscnt"))
			return (c = mk(VF_I_WAIT), c.wait = VF_W_LOAD_DS, c);
		if (EQ("s_wait_storecnt_dscnt"))
			return (c = mk(VF_I_WAIT), c.wait = VF_W_STORE_DS, c);
		if (PFX("s_wait_") && (cnt = wait_counter(isa, m + 7, n - 7)) >= 0) {
			c = mk(VF_I_WAIT);
			c.wait = VF_W_SINGLE;
			c.wcnt = (uint8_t)cnt;
			return c;
		}
		return mk(VF_I_UNKNOWN);
	}
	if (PFX("s_endpgm") || EQ("s_code_end"))
		return mk(VF_I_END);
	if (EQ("s_branch"))
		return mk(VF_I_BRANCH);
	if (PFX("s_cbranch_")) {
		if (EQ("s_cbranch_join") || EQ("s_cbranch_g_fork") || EQ("s_cbranch_i_fork"))
			return mk(VF_I_SETPC);
		return mk(VF_I_CBRANCH);
	}
	if (PFX("s_setpc_") || PFX("s_set_pc_"))
		return mk(VF_I_SETPC);
	if (PFX("s_swappc_") || PFX("s_swap_pc_") || PFX("s_call_")) {
		c = mk(VF_I_CALL);
		c.flags |= VF_F_DEF0;
		return c;
	}
	if (EQ("s_barrier") || EQ("s_barrier_signal") || EQ("s_barrier_signal_isfirst"))
		return mk(VF_I_BARRIER);
	/* scalar memory (SMRD) and messages */
	if (PFX("s_load_") || PFX("s_buffer_load_") || PFX("s_scratch_load_") || EQ("s_memtime") ||
	    EQ("s_memrealtime") || EQ("s_get_waveid_in_workgroup"))
		return memc(VF_M_SMEM, VF_MA_LOAD);
	if (PFX("s_store_") || PFX("s_buffer_store_") || PFX("s_scratch_store_") ||
	    PFX("s_dcache_") || PFX("s_atc_probe"))
		return memc(VF_M_SMEM, VF_MA_STORE);
	if (PFX("s_atomic_") || PFX("s_buffer_atomic_"))
		return memc(VF_M_SMEM, VF_MA_ATOMIC);
	if (PFX("s_sendmsg_rtn"))
		return memc(VF_M_MSG, VF_MA_LOAD);
	if (PFX("s_sendmsg"))
		return memc(VF_M_MSG, VF_MA_OTHER);
	/* no register written, no counter */
	if (PFX("s_nop") || PFX("s_sleep") || PFX("s_setprio") || EQ("s_delay_alu") ||
	    PFX("s_clause") || PFX("s_trap") || PFX("s_icache") || PFX("s_inst_prefetch") ||
	    PFX("s_set_inst_prefetch") || PFX("s_singleuse") || PFX("s_ttrace") ||
	    EQ("s_setkill") || PFX("s_denorm_mode") || PFX("s_round_mode") ||
	    PFX("s_set_vgpr_msb") || PFX("s_sethalt") || PFX("s_incperflevel") ||
	    PFX("s_decperflevel") || PFX("s_barrier") || PFX("s_prefetch") ||
	    PFX("s_wakeup") || PFX("s_set_gpr_idx") || PFX("s_setreg") || PFX("s_cmp") ||
	    PFX("s_bitcmp") || PFX("s_rfe") || PFX("s_version") || PFX("s_endpgm") ||
	    PFX("s_monitor_sleep") || PFX("s_sleep_var") || PFX("s_setvskip") ||
	    PFX("s_dcache") || PFX("s_wait"))
		return (c = mk(VF_I_ALU), c.nodef = 1, c);
	/* every other SALU writes its first operand */
	c = mk(VF_I_ALU);
	c.flags |= VF_F_DEF0;
	return c;
}

vf_mclass vf_classify(const vf_isa *isa, const char *m, size_t n)
{
	vf_mclass c;

	if (n < 2)
		return mk(VF_I_UNKNOWN);
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)m[i]) || m[i] == '_' || m[i] == '.'))
			return mk(VF_I_UNKNOWN);
	if (m[0] == 'v' && m[1] == '_') {
		c = mk(VF_I_ALU);
		/* v_cmpx_* e32/e64 from gfx10 write only EXEC (no vdst operand) */
		if (PFX("v_cmpx_") && isa->gen >= 10)
			return (c.nodef = 1, c);
		c.flags |= VF_F_DEF0;
		/* instructions that also read their destination (accumulate) */
		if (has(m, n, "fmac") || has(m, n, "_mac_") || PFX("v_mac") || has(m, n, "fmamk") ||
		    has(m, n, "fmaak") || PFX("v_writelane") || has(m, n, "dot2c") ||
		    has(m, n, "dot4c") || has(m, n, "dot8c") || PFX("v_smfmac") || PFX("v_swmmac") ||
		    has(m, n, "_dpp") || PFX("v_movreld"))
			c.flags |= VF_F_READDST;
		return c;
	}
	if (m[0] == 's' && m[1] == '_')
		return classify_s(isa, m, n);
	if (PFX("ds_"))
		return classify_ds(m, n);
	if (PFX("buffer_") || PFX("tbuffer_") || PFX("global_") || PFX("scratch_") ||
	    PFX("flat_") || PFX("image_") || PFX("cluster_load"))
		return classify_vmem(isa, m, n);
	if (EQ("exp") || PFX("exp_") || EQ("export"))
		return memc(VF_M_EXP, VF_MA_OTHER);
	if (PFX("lds_param_load") || PFX("lds_direct_load"))
		return memc(VF_M_EXP, VF_MA_LOAD);
	if (isa->gfx1250 && PFX("tensor_")) {
		if (PFX("tensor_load_to_lds"))
			return memc(VF_M_TENSOR, VF_MA_DMA);
		if (PFX("tensor_store_from_lds")) {
			c = memc(VF_M_TENSOR, VF_MA_STORE);
			c.flags |= VF_F_LDSREAD;
			return c;
		}
	}
	return mk(VF_I_UNKNOWN);
}
