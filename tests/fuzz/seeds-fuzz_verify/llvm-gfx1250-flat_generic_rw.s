	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.amdhsa_code_object_version 6
	.text
	.protected	flat_generic_rw         ; -- Begin function flat_generic_rw
	.globl	flat_generic_rw
	.p2align	8
	.type	flat_generic_rw,@function
flat_generic_rw:                        ; @flat_generic_rw
; %bb.0:
	s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 25, 1), 1
	s_load_b96 s[4:6], s[0:1], 0x0
	v_cvt_f32_ubyte0_e32 v1, v0
	v_lshlrev_b32_e32 v4, 2, v0
	v_lshl_or_b32 v0, ttmp9, 8, v0
	s_mov_b64 s[2:3], src_shared_base
	s_wait_xcnt 0x0
	s_load_b64 s[0:1], s[0:1], 0x10
	ds_store_b32 v4, v1
	s_wait_dscnt 0x0
	s_barrier_signal -1
	v_mov_b32_e32 v1, 0
	s_wait_kmcnt 0x0
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_3) | instid1(VALU_DEP_1)
	v_lshl_add_u64 v[2:3], v[0:1], 2, s[4:5]
	s_bitcmp0_b32 s6, 0
	s_cselect_b32 vcc_lo, -1, 0
	s_barrier_wait -1
	v_cndmask_b32_e64 v3, v3, s3, vcc_lo
	v_cndmask_b32_e32 v2, v2, v4, vcc_lo
	s_clause 0x1
	flat_load_b32 v1, v[2:3]
	flat_load_b32 v4, v[2:3] offset:8
	s_wait_loadcnt_dscnt 0x0
	v_dual_add_f32 v4, v1, v4 :: v_dual_mul_f32 v1, 0x40400000, v1
	s_delay_alu instid0(VALU_DEP_1)
	v_cvt_i32_f32_e32 v4, v4
	flat_store_b32 v[2:3], v1 offset:4
	global_store_b32 v0, v4, s[0:1] scale_offset
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel flat_generic_rw
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 7
		.amdhsa_named_barrier_count 0
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_fp16_overflow 0
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_inst_pref_size 2
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
	.size	flat_generic_rw, .Lfunc_end0-flat_generic_rw
                                        ; -- End function
	.set flat_generic_rw.num_vgpr, 5
	.set flat_generic_rw.num_agpr, 0
	.set flat_generic_rw.numbered_sgpr, 7
	.set flat_generic_rw.num_named_barrier, 0
	.set flat_generic_rw.private_seg_size, 0
	.set flat_generic_rw.uses_vcc, 1
	.set flat_generic_rw.uses_flat_scratch, 1
	.set flat_generic_rw.has_dyn_sized_stack, 0
	.set flat_generic_rw.has_recursion, 0
	.set flat_generic_rw.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 188
; TotalNumSgprs: 9
; NumVgprs: 5
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 2048 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 9
; NumVGPRsForWavesPerEU: 5
; NamedBarCnt: 0
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
	.protected	__clang_ocl_kern_imp_flat_generic_rw ; -- Begin function __clang_ocl_kern_imp_flat_generic_rw
	.globl	__clang_ocl_kern_imp_flat_generic_rw
	.p2align	2
	.type	__clang_ocl_kern_imp_flat_generic_rw,@function
__clang_ocl_kern_imp_flat_generic_rw:   ; @__clang_ocl_kern_imp_flat_generic_rw
; %bb.0:
	s_wait_loadcnt_dscnt 0x0
	s_wait_kmcnt 0x0
	v_dual_mov_b32 v5, v4 :: v_dual_mov_b32 v4, v3
	v_and_b32_e32 v3, 0x3ff, v31
	v_dual_mov_b32 v7, 0 :: v_dual_bitop2_b32 v2, 1, v2 bitop3:0x40
	s_trap 2
	s_mov_b64 s[0:1], src_shared_base
	s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_2) | instid1(VALU_DEP_3)
	v_lshl_or_b32 v6, ttmp9, 8, v3
	v_cvt_f32_u32_e32 v8, v3
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	v_lshlrev_b64_e32 v[6:7], 2, v[6:7]
	ds_store_b32 v0, v8
	s_wait_storecnt_dscnt 0x0
	s_barrier_signal -1
	v_add_nc_u64_e32 v[0:1], v[0:1], v[6:7]
	s_delay_alu instid0(VALU_DEP_1)
	v_cndmask_b32_e64 v1, v1, s1, vcc_lo
	s_barrier_wait -1
	s_clause 0x1
	flat_load_b32 v8, v[0:1]
	flat_load_b32 v2, v[0:1] offset:8
	s_wait_loadcnt_dscnt 0x0
	v_add_f32_e32 v9, v8, v2
	v_add_nc_u64_e32 v[2:3], v[4:5], v[6:7]
	v_mul_f32_e32 v4, 0x40400000, v8
	s_delay_alu instid0(VALU_DEP_3)
	v_cvt_i32_f32_e32 v5, v9
	flat_store_b32 v[0:1], v4 offset:4
	global_store_b32 v[2:3], v5, off
	s_wait_dscnt 0x0
	s_set_pc_i64 s[30:31]
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_flat_generic_rw, .Lfunc_end1-__clang_ocl_kern_imp_flat_generic_rw
                                        ; -- End function
	.set __clang_ocl_kern_imp_flat_generic_rw.num_vgpr, 32
	.set __clang_ocl_kern_imp_flat_generic_rw.num_agpr, 0
	.set __clang_ocl_kern_imp_flat_generic_rw.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_flat_generic_rw.num_named_barrier, 0
	.set __clang_ocl_kern_imp_flat_generic_rw.private_seg_size, 0
	.set __clang_ocl_kern_imp_flat_generic_rw.uses_vcc, 1
	.set __clang_ocl_kern_imp_flat_generic_rw.uses_flat_scratch, 1
	.set __clang_ocl_kern_imp_flat_generic_rw.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_flat_generic_rw.has_recursion, 0
	.set __clang_ocl_kern_imp_flat_generic_rw.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 192
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
        .offset:         0
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'int*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           flat_generic_rw
    .private_segment_fixed_size: 0
    .sgpr_count:     9
    .sgpr_spill_count: 0
    .symbol:         flat_generic_rw.kd
    .uses_dynamic_stack: false
    .vgpr_count:     5
    .vgpr_spill_count: 0
    .wavefront_size: 32
amdhsa.target:   amdgcn-amd-amdhsa--gfx1250
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
