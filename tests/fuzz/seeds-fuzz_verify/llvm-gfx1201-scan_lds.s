	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.amdhsa_code_object_version 6
	.text
	.protected	scan_lds                ; -- Begin function scan_lds
	.globl	scan_lds
	.p2align	8
	.type	scan_lds,@function
scan_lds:                               ; @scan_lds
; %bb.0:
	s_load_b128 s[4:7], s[0:1], 0x0
	v_mov_b32_e32 v3, 0
	v_lshl_or_b32 v2, ttmp9, 8, v0
	s_mov_b32 s2, exec_lo
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)
	v_lshlrev_b64_e32 v[1:2], 2, v[2:3]
	s_wait_kmcnt 0x0
	v_add_co_u32 v4, vcc_lo, s4, v1
	s_delay_alu instid0(VALU_DEP_1)
	v_add_co_ci_u32_e64 v5, null, s5, v2, vcc_lo
	global_load_b32 v5, v[4:5], off
	v_lshlrev_b32_e32 v4, 2, v0
	s_wait_loadcnt 0x0
	ds_store_b32 v4, v5
	v_mov_b32_e32 v5, 0
	s_wait_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_ne_u32_e32 0, v0
; %bb.1:
	v_add_nc_u32_e32 v5, -4, v4
	ds_load_b32 v5, v5
; %bb.2:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v6, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v5, v6, v5
	ds_store_b32 v4, v5
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 1, v0
; %bb.3:
	v_add_nc_u32_e32 v3, -8, v4
	ds_load_b32 v3, v3
; %bb.4:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v5, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v3, v5, v3
	v_mov_b32_e32 v5, 0
	ds_store_b32 v4, v3
	v_mov_b32_e32 v3, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 3, v0
; %bb.5:
	v_add_nc_u32_e32 v5, -16, v4
	ds_load_b32 v5, v5
; %bb.6:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v6, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v5, v6, v5
	ds_store_b32 v4, v5
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 7, v0
; %bb.7:
	v_subrev_nc_u32_e32 v3, 32, v4
	ds_load_b32 v3, v3
; %bb.8:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v5, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v3, v5, v3
	v_mov_b32_e32 v5, 0
	ds_store_b32 v4, v3
	v_mov_b32_e32 v3, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 15, v0
; %bb.9:
	v_subrev_nc_u32_e32 v5, 64, v4
	ds_load_b32 v5, v5
; %bb.10:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_load_b64 s[0:1], s[0:1], 0x10
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v6, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v5, v6, v5
	ds_store_b32 v4, v5
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 31, v0
; %bb.11:
	v_add_nc_u32_e32 v3, 0xffffff80, v4
	ds_load_b32 v3, v3
; %bb.12:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v5, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v3, v5, v3
	v_mov_b32_e32 v5, 0
	ds_store_b32 v4, v3
	v_mov_b32_e32 v3, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 63, v0
; %bb.13:
	v_add_nc_u32_e32 v5, 0xffffff00, v4
	ds_load_b32 v5, v5
; %bb.14:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v6, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v5, v6, v5
	ds_store_b32 v4, v5
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 0x7f, v0
; %bb.15:
	v_add_nc_u32_e32 v3, 0xfffffe00, v4
	ds_load_b32 v3, v3
; %bb.16:
	s_or_b32 exec_lo, exec_lo, s2
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	v_add_co_u32 v1, vcc_lo, s6, v1
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v2, null, s7, v2, vcc_lo
	s_mov_b32 s2, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v5, v4
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v3, v5, v3
	ds_store_b32 v4, v3
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v3, v4
	s_wait_dscnt 0x0
	global_store_b32 v[1:2], v3, off
	v_cmpx_eq_u32_e32 0xff, v0
	s_cbranch_execz .LBB0_18
; %bb.17:
	v_mov_b32_e32 v0, 0
	s_mov_b32 s2, ttmp9
	s_mov_b32 s3, 0
	s_delay_alu instid0(SALU_CYCLE_1)
	s_lshl_b64 s[2:3], s[2:3], 2
	ds_load_b32 v1, v0 offset:1020
	s_wait_kmcnt 0x0
	s_add_nc_u64 s[0:1], s[0:1], s[2:3]
	s_wait_dscnt 0x0
	global_store_b32 v0, v1, s[0:1]
.LBB0_18:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel scan_lds
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 8
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_inst_pref_size 9
		.amdhsa_round_robin_scheduling 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	scan_lds, .Lfunc_end0-scan_lds
                                        ; -- End function
	.set scan_lds.num_vgpr, 7
	.set scan_lds.num_agpr, 0
	.set scan_lds.numbered_sgpr, 8
	.set scan_lds.num_named_barrier, 0
	.set scan_lds.private_seg_size, 0
	.set scan_lds.uses_vcc, 1
	.set scan_lds.uses_flat_scratch, 0
	.set scan_lds.has_dyn_sized_stack, 0
	.set scan_lds.has_recursion, 0
	.set scan_lds.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 1040
; TotalNumSgprs: 10
; NumVgprs: 7
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 1024 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 10
; NumVGPRsForWavesPerEU: 7
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_scan_lds ; -- Begin function __clang_ocl_kern_imp_scan_lds
	.globl	__clang_ocl_kern_imp_scan_lds
	.p2align	2
	.type	__clang_ocl_kern_imp_scan_lds,@function
__clang_ocl_kern_imp_scan_lds:          ; @__clang_ocl_kern_imp_scan_lds
; %bb.0:
	s_wait_loadcnt_dscnt 0x0
	s_wait_expcnt 0x0
	s_wait_samplecnt 0x0
	s_wait_bvhcnt 0x0
	s_wait_kmcnt 0x0
	v_dual_mov_b32 v8, 0 :: v_dual_and_b32 v9, 0x3ff, v31
	s_mov_b32 s0, exec_lo
	s_wait_alu depctr_sa_sdst(0)
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
	v_lshl_or_b32 v7, ttmp9, 8, v9
	v_lshlrev_b64_e32 v[6:7], 2, v[7:8]
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_2)
	v_add_co_u32 v0, vcc_lo, v0, v6
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v1, null, v1, v7, vcc_lo
	global_load_b32 v0, v[0:1], off
	s_trap 2
	s_wait_loadcnt 0x0
	ds_store_b32 v0, v0
	s_wait_storecnt_dscnt 0x0
	s_barrier_signal -1
	v_mov_b32_e32 v0, 0
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_ne_u32_e32 0, v9
; %bb.1:
	v_add_nc_u32_e32 v0, -4, v0
	ds_load_b32 v0, v0
; %bb.2:
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v1, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v0, v1, v0
	ds_store_b32 v0, v0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 1, v9
; %bb.3:
	v_add_nc_u32_e32 v0, -8, v0
	ds_load_b32 v8, v0
; %bb.4:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	v_mov_b32_e32 v1, 0
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v0, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v0, v0, v8
	ds_store_b32 v0, v0
	v_mov_b32_e32 v0, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 3, v9
; %bb.5:
	v_add_nc_u32_e32 v1, -16, v0
	ds_load_b32 v1, v1
; %bb.6:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v8, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v1, v8, v1
	ds_store_b32 v0, v1
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 7, v9
; %bb.7:
	v_subrev_nc_u32_e32 v0, 32, v0
	ds_load_b32 v0, v0
; %bb.8:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v1, v0
	s_wait_dscnt 0x0
	v_dual_mov_b32 v1, 0 :: v_dual_add_nc_u32 v0, v1, v0
	ds_store_b32 v0, v0
	v_mov_b32_e32 v0, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 15, v9
; %bb.9:
	v_subrev_nc_u32_e32 v1, 64, v0
	ds_load_b32 v1, v1
; %bb.10:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v8, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v1, v8, v1
	ds_store_b32 v0, v1
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 31, v9
; %bb.11:
	v_add_nc_u32_e32 v0, 0xffffff80, v0
	ds_load_b32 v0, v0
; %bb.12:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v1, v0
	s_wait_dscnt 0x0
	v_dual_mov_b32 v1, 0 :: v_dual_add_nc_u32 v0, v1, v0
	ds_store_b32 v0, v0
	v_mov_b32_e32 v0, 0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 63, v9
; %bb.13:
	v_add_nc_u32_e32 v1, 0xffffff00, v0
	ds_load_b32 v1, v1
; %bb.14:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v8, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v1, v8, v1
	ds_store_b32 v0, v1
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	v_cmpx_lt_u32_e32 0x7f, v9
; %bb.15:
	v_add_nc_u32_e32 v0, 0xfffffe00, v0
	ds_load_b32 v0, v0
; %bb.16:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_mov_b32 s0, exec_lo
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v1, v0
	s_wait_dscnt 0x0
	v_add_nc_u32_e32 v0, v1, v0
	ds_store_b32 v0, v0
	s_wait_loadcnt_dscnt 0x0
	s_barrier_signal -1
	s_barrier_wait -1
	global_inv scope:SCOPE_SE
	ds_load_b32 v8, v0
	v_add_co_u32 v0, vcc_lo, v2, v6
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v1, null, v3, v7, vcc_lo
	s_wait_dscnt 0x0
	global_store_b32 v[0:1], v8, off
	v_cmpx_eq_u32_e32 0xff, v9
	s_cbranch_execz .LBB1_18
; %bb.17:
	s_trap 2
	ds_load_b32 v2, v0
	s_wait_alu depctr_sa_sdst(0)
	s_mov_b32 s2, ttmp9
	s_mov_b32 s3, 0
	s_wait_alu depctr_sa_sdst(0)
	s_lshl_b64 s[2:3], s[2:3], 2
	s_wait_alu depctr_sa_sdst(0)
	v_add_co_u32 v0, vcc_lo, v4, s2
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v1, null, s3, v5, vcc_lo
	s_wait_dscnt 0x0
	global_store_b32 v[0:1], v2, off
.LBB1_18:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_scan_lds, .Lfunc_end1-__clang_ocl_kern_imp_scan_lds
                                        ; -- End function
	.set __clang_ocl_kern_imp_scan_lds.num_vgpr, 32
	.set __clang_ocl_kern_imp_scan_lds.num_agpr, 0
	.set __clang_ocl_kern_imp_scan_lds.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_scan_lds.num_named_barrier, 0
	.set __clang_ocl_kern_imp_scan_lds.private_seg_size, 0
	.set __clang_ocl_kern_imp_scan_lds.uses_vcc, 1
	.set __clang_ocl_kern_imp_scan_lds.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_scan_lds.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_scan_lds.has_recursion, 0
	.set __clang_ocl_kern_imp_scan_lds.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 1112
; TotalNumSgprs: 34
; NumVgprs: 32
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 32
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 32
	.set amdgpu.max_num_named_barrier, 0
	.text
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         8
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           scan_lds
    .private_segment_fixed_size: 0
    .sgpr_count:     10
    .sgpr_spill_count: 0
    .symbol:         scan_lds.kd
    .uses_dynamic_stack: false
    .vgpr_count:     7
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
amdhsa.target:   amdgcn-amd-amdhsa--gfx1201
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
