	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	gemm_prefetch_f16       ; -- Begin function gemm_prefetch_f16
	.globl	gemm_prefetch_f16
	.p2align	8
	.type	gemm_prefetch_f16,@function
gemm_prefetch_f16:                      ; @gemm_prefetch_f16
; %bb.0:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	s_load_dwordx2 s[12:13], s[0:1], 0x10
	s_load_dwordx4 s[4:7], s[0:1], 0x18
	v_and_b32_e32 v2, 15, v0
	v_lshrrev_b32_e32 v6, 4, v0
	s_lshl_b32 s0, s2, 4
	v_lshl_or_b32 v1, s3, 4, v6
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s5, 1
	v_or_b32_e32 v0, s0, v2
	s_cbranch_scc1 .LBB0_5
; %bb.1:
	v_mad_u64_u32 v[4:5], s[2:3], s4, v6, v[0:1]
	v_ashrrev_i32_e32 v5, 31, v4
	v_lshl_add_u64 v[4:5], v[4:5], 1, s[10:11]
	global_load_ushort v7, v[4:5], off
	v_mad_u64_u32 v[4:5], s[2:3], s5, v1, v[2:3]
	v_ashrrev_i32_e32 v5, 31, v4
	v_lshl_add_u64 v[8:9], v[4:5], 1, s[8:9]
	global_load_ushort v10, v[8:9], off
	v_lshlrev_b32_e32 v3, 5, v6
	v_or_b32_e32 v6, 16, v6
	v_mov_b32_e32 v5, 0x400
	v_mul_lo_u32 v6, s4, v6
	v_lshl_or_b32 v5, v2, 1, v5
	s_mov_b32 s2, 16
	v_add3_u32 v6, v6, s0, v2
	s_lshl_b32 s3, s4, 4
	s_mov_b32 s7, 0
	v_mov_b32_e32 v8, 0
	s_branch .LBB0_3
.LBB0_2:                                ;   in Loop: Header=BB0_3 Depth=1
	ds_read_b128 v[12:15], v9
	ds_read_b128 v[16:19], v9 offset:16
	v_lshl_add_u32 v11, s7, 9, v5
	ds_read_u16 v23, v11
	ds_read_u16 v24, v11 offset:32
	ds_read_u16 v25, v11 offset:64
	ds_read_u16 v26, v11 offset:96
	ds_read_u16 v27, v11 offset:128
	ds_read_u16 v28, v11 offset:160
	ds_read_u16 v29, v11 offset:192
	ds_read_u16 v30, v11 offset:224
	s_xor_b32 s7, s7, 1
	s_waitcnt lgkmcnt(9)
	v_lshrrev_b32_e32 v9, 16, v12
	s_waitcnt lgkmcnt(7)
	v_fma_f16 v8, v12, v23, v8
	s_waitcnt lgkmcnt(6)
	v_fma_f16 v8, v9, v24, v8
	v_lshrrev_b32_e32 v20, 16, v13
	s_waitcnt lgkmcnt(5)
	v_fma_f16 v8, v13, v25, v8
	s_waitcnt lgkmcnt(4)
	v_fma_f16 v8, v20, v26, v8
	v_lshrrev_b32_e32 v21, 16, v14
	s_waitcnt lgkmcnt(3)
	v_fma_f16 v8, v14, v27, v8
	s_waitcnt lgkmcnt(2)
	v_fma_f16 v8, v21, v28, v8
	v_lshrrev_b32_e32 v22, 16, v15
	s_waitcnt lgkmcnt(1)
	v_fma_f16 v8, v15, v29, v8
	s_waitcnt lgkmcnt(0)
	v_fma_f16 v8, v22, v30, v8
	v_lshrrev_b32_e32 v9, 16, v16
	ds_read_u16 v15, v11 offset:256
	ds_read_u16 v20, v11 offset:288
	ds_read_u16 v21, v11 offset:320
	ds_read_u16 v22, v11 offset:352
	ds_read_u16 v23, v11 offset:384
	ds_read_u16 v24, v11 offset:416
	ds_read_u16 v25, v11 offset:448
	ds_read_u16 v11, v11 offset:480
	s_waitcnt lgkmcnt(7)
	v_fma_f16 v8, v16, v15, v8
	s_waitcnt lgkmcnt(6)
	v_fma_f16 v8, v9, v20, v8
	v_lshrrev_b32_e32 v12, 16, v17
	s_waitcnt lgkmcnt(5)
	v_fma_f16 v8, v17, v21, v8
	s_waitcnt lgkmcnt(4)
	v_fma_f16 v8, v12, v22, v8
	v_lshrrev_b32_e32 v13, 16, v18
	s_waitcnt lgkmcnt(3)
	v_fma_f16 v8, v18, v23, v8
	s_waitcnt lgkmcnt(2)
	v_fma_f16 v8, v13, v24, v8
	v_lshrrev_b32_e32 v14, 16, v19
	s_waitcnt lgkmcnt(1)
	v_fma_f16 v8, v19, v25, v8
	s_waitcnt lgkmcnt(0)
	v_fma_f16 v8, v14, v11, v8
	s_add_i32 s2, s2, 16
	s_andn2_b64 vcc, exec, s[0:1]
	v_add_u32_e32 v6, s3, v6
	s_cbranch_vccz .LBB0_6
.LBB0_3:                                ; =>This Inner Loop Header: Depth=1
	s_cmp_ge_i32 s2, s5
	v_lshl_or_b32 v9, s7, 9, v3
	s_cselect_b64 s[0:1], -1, 0
	v_lshl_add_u32 v11, v2, 1, v9
	s_and_b64 vcc, exec, s[0:1]
	s_waitcnt vmcnt(0)
	ds_write_b16 v11, v10
	ds_write_b16 v11, v7 offset:1024
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_cbranch_vccnz .LBB0_2
; %bb.4:                                ;   in Loop: Header=BB0_3 Depth=1
	v_add_u32_e32 v10, s2, v4
	v_ashrrev_i32_e32 v11, 31, v10
	v_ashrrev_i32_e32 v7, 31, v6
	v_lshl_add_u64 v[10:11], v[10:11], 1, s[8:9]
	v_lshl_add_u64 v[12:13], v[6:7], 1, s[10:11]
	global_load_ushort v10, v[10:11], off
	s_nop 0
	global_load_ushort v7, v[12:13], off
	s_branch .LBB0_2
.LBB0_5:
	v_mov_b32_e32 v8, 0
.LBB0_6:
	v_mad_u64_u32 v[0:1], s[0:1], s4, v1, v[0:1]
	v_mov_b32_e32 v2, s12
	v_mov_b32_e32 v3, s13
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[0:1], v[0:1], 1, v[2:3]
	global_load_ushort v2, v[0:1], off
	s_lshr_b32 s0, s6, 16
	s_waitcnt vmcnt(0)
	v_mul_f16_e32 v2, s0, v2
	v_fma_f16 v2, s6, v8, v2
	global_store_short v[0:1], v2, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel gemm_prefetch_f16
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 36
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 31
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 32
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
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
	.size	gemm_prefetch_f16, .Lfunc_end0-gemm_prefetch_f16
                                        ; -- End function
	.set gemm_prefetch_f16.num_vgpr, 31
	.set gemm_prefetch_f16.num_agpr, 0
	.set gemm_prefetch_f16.numbered_sgpr, 14
	.set gemm_prefetch_f16.num_named_barrier, 0
	.set gemm_prefetch_f16.private_seg_size, 0
	.set gemm_prefetch_f16.uses_vcc, 1
	.set gemm_prefetch_f16.uses_flat_scratch, 0
	.set gemm_prefetch_f16.has_dyn_sized_stack, 0
	.set gemm_prefetch_f16.has_recursion, 0
	.set gemm_prefetch_f16.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 760
; TotalNumSgprs: 20
; NumVgprs: 31
; NumAgprs: 0
; TotalNumVgprs: 31
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 2048 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 3
; NumSGPRsForWavesPerEU: 20
; NumVGPRsForWavesPerEU: 31
; AccumOffset: 32
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 7
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_gemm_prefetch_f16 ; -- Begin function __clang_ocl_kern_imp_gemm_prefetch_f16
	.globl	__clang_ocl_kern_imp_gemm_prefetch_f16
	.p2align	2
	.type	__clang_ocl_kern_imp_gemm_prefetch_f16,@function
__clang_ocl_kern_imp_gemm_prefetch_f16: ; @__clang_ocl_kern_imp_gemm_prefetch_f16
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v12, 15, v31
	v_bfe_u32 v13, v31, 4, 6
	s_lshl_b32 s0, s12, 4
	v_lshl_or_b32 v11, s13, 4, v13
	v_or_b32_e32 v10, s0, v12
	s_mov_b32 s8, 0
	v_cmp_lt_i32_e32 vcc, 0, v7
	v_mov_b32_e32 v18, 0
	s_and_saveexec_b64 s[2:3], vcc
	s_cbranch_execz .LBB1_6
; %bb.1:
	v_mad_u64_u32 v[14:15], s[4:5], v6, v13, v[10:11]
	v_ashrrev_i32_e32 v15, 31, v14
	v_lshl_add_u64 v[14:15], v[14:15], 1, v[2:3]
	s_trap 2
	global_load_ushort v17, v[14:15], off
	v_mad_u64_u32 v[14:15], s[4:5], v7, v11, v[12:13]
	v_ashrrev_i32_e32 v15, 31, v14
	v_lshl_add_u64 v[18:19], v[14:15], 1, v[0:1]
	global_load_ushort v20, v[18:19], off
	v_add_u32_e32 v13, 16, v13
	v_mul_lo_u32 v13, v6, v13
	s_mov_b32 s9, 16
	v_add3_u32 v16, v13, s0, v12
	v_lshlrev_b32_e32 v13, 4, v6
	s_mov_b64 s[4:5], 0
	v_mov_b32_e32 v18, 0
	v_lshl_add_u32 v15, v12, 1, s0
	s_branch .LBB1_3
.LBB1_2:                                ;   in Loop: Header=BB1_3 Depth=1
	s_or_b64 exec, exec, s[6:7]
	ds_read_b128 v[22:25], v19
	ds_read_b128 v[26:29], v19 offset:16
	ds_read_u16 v32, v15
	ds_read_u16 v33, v15 offset:32
	ds_read_u16 v34, v15 offset:64
	ds_read_u16 v35, v15 offset:96
	ds_read_u16 v36, v15 offset:128
	ds_read_u16 v37, v15 offset:160
	ds_read_u16 v38, v15 offset:192
	ds_read_u16 v39, v15 offset:224
	s_and_b64 s[0:1], exec, vcc
	s_or_b64 s[4:5], s[0:1], s[4:5]
	s_waitcnt lgkmcnt(9)
	v_lshrrev_b32_e32 v19, 16, v22
	s_waitcnt lgkmcnt(7)
	v_fma_f16 v18, v22, v32, v18
	s_waitcnt lgkmcnt(6)
	v_fma_f16 v18, v19, v33, v18
	v_lshrrev_b32_e32 v21, 16, v23
	s_waitcnt lgkmcnt(5)
	v_fma_f16 v18, v23, v34, v18
	s_waitcnt lgkmcnt(4)
	v_fma_f16 v18, v21, v35, v18
	v_lshrrev_b32_e32 v30, 16, v24
	s_waitcnt lgkmcnt(3)
	v_fma_f16 v18, v24, v36, v18
	s_waitcnt lgkmcnt(2)
	v_fma_f16 v18, v30, v37, v18
	v_lshrrev_b32_e32 v31, 16, v25
	s_waitcnt lgkmcnt(1)
	v_fma_f16 v18, v25, v38, v18
	s_waitcnt lgkmcnt(0)
	v_fma_f16 v18, v31, v39, v18
	v_lshrrev_b32_e32 v19, 16, v26
	ds_read_u16 v24, v15 offset:256
	ds_read_u16 v25, v15 offset:288
	ds_read_u16 v30, v15 offset:320
	ds_read_u16 v31, v15 offset:352
	ds_read_u16 v32, v15 offset:384
	ds_read_u16 v33, v15 offset:416
	ds_read_u16 v34, v15 offset:448
	ds_read_u16 v35, v15 offset:480
	s_waitcnt lgkmcnt(7)
	v_fma_f16 v18, v26, v24, v18
	s_waitcnt lgkmcnt(6)
	v_fma_f16 v18, v19, v25, v18
	v_lshrrev_b32_e32 v21, 16, v27
	s_waitcnt lgkmcnt(5)
	v_fma_f16 v18, v27, v30, v18
	s_waitcnt lgkmcnt(4)
	v_fma_f16 v18, v21, v31, v18
	v_lshrrev_b32_e32 v22, 16, v28
	s_waitcnt lgkmcnt(3)
	v_fma_f16 v18, v28, v32, v18
	s_waitcnt lgkmcnt(2)
	v_fma_f16 v18, v22, v33, v18
	v_lshrrev_b32_e32 v23, 16, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f16 v18, v29, v34, v18
	s_waitcnt lgkmcnt(0)
	v_fma_f16 v18, v23, v35, v18
	s_xor_b32 s8, s8, 1
	s_add_i32 s9, s9, 16
	v_add_u32_e32 v16, v16, v13
	s_andn2_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB1_5
.LBB1_3:                                ; =>This Inner Loop Header: Depth=1
	v_lshl_add_u32 v19, s8, 9, v0
	v_lshl_add_u32 v21, v12, 1, v19
	v_cmp_lt_i32_e64 s[0:1], s9, v7
	v_cmp_ge_i32_e32 vcc, s9, v7
	s_waitcnt vmcnt(0)
	ds_write_b16 v21, v20
	s_trap 2
	ds_write_b16 v0, v17
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_and_saveexec_b64 s[6:7], s[0:1]
	s_cbranch_execz .LBB1_2
; %bb.4:                                ;   in Loop: Header=BB1_3 Depth=1
	v_add_u32_e32 v20, s9, v14
	v_ashrrev_i32_e32 v21, 31, v20
	v_ashrrev_i32_e32 v17, 31, v16
	v_lshl_add_u64 v[20:21], v[20:21], 1, v[0:1]
	v_lshl_add_u64 v[22:23], v[16:17], 1, v[2:3]
	global_load_ushort v20, v[20:21], off
	s_nop 0
	global_load_ushort v17, v[22:23], off
	s_branch .LBB1_2
.LBB1_5:
	s_or_b64 exec, exec, s[4:5]
.LBB1_6:
	s_or_b64 exec, exec, s[2:3]
	v_mad_u64_u32 v[0:1], s[0:1], v6, v11, v[10:11]
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[0:1], v[0:1], 1, v[4:5]
	global_load_ushort v2, v[0:1], off
	s_waitcnt vmcnt(0)
	v_mul_f16_e32 v2, v9, v2
	v_fma_f16 v2, v8, v18, v2
	global_store_short v[0:1], v2, off
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_gemm_prefetch_f16, .Lfunc_end1-__clang_ocl_kern_imp_gemm_prefetch_f16
                                        ; -- End function
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.num_vgpr, 40
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.num_agpr, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.num_named_barrier, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.private_seg_size, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.uses_vcc, 1
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.has_recursion, 0
	.set __clang_ocl_kern_imp_gemm_prefetch_f16.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 752
; TotalNumSgprs: 38
; NumVgprs: 40
; NumAgprs: 0
; TotalNumVgprs: 40
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 40
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
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'half*'
        .value_kind:     global_buffer
      - .address_space:  global
        .is_const:       true
        .offset:         8
        .size:           8
        .type_name:      'half*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'half*'
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         28
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         32
        .size:           2
        .type_name:      half
        .value_kind:     by_value
      - .offset:         34
        .size:           2
        .type_name:      half
        .value_kind:     by_value
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 36
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           gemm_prefetch_f16
    .private_segment_fixed_size: 0
    .sgpr_count:     20
    .sgpr_spill_count: 0
    .symbol:         gemm_prefetch_f16.kd
    .uses_dynamic_stack: false
    .vgpr_count:     31
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
