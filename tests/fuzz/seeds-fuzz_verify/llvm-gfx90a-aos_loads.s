	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 6
	.text
	.protected	aos_loads               ; -- Begin function aos_loads
	.globl	aos_loads
	.p2align	8
	.type	aos_loads,@function
aos_loads:                              ; @aos_loads
; %bb.0:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	s_load_dword s7, s[4:5], 0x10
	v_lshl_or_b32 v12, s6, 8, v0
	v_add_u32_e32 v4, 1, v12
	v_and_b32_e32 v4, 0xfff, v4
	s_waitcnt lgkmcnt(0)
	v_mad_u64_u32 v[14:15], s[4:5], v12, 48, s[0:1]
	global_load_dwordx4 v[0:3], v[14:15], off
	v_mad_u64_u32 v[16:17], s[0:1], v4, 48, s[0:1]
	global_load_dwordx4 v[4:7], v[16:17], off
	global_load_dword v18, v[14:15], off offset:36
	global_load_dword v19, v[16:17], off offset:32
	global_load_dwordx4 v[8:11], v[14:15], off offset:16
	v_mov_b32_e32 v13, 0
	v_lshlrev_b64 v[12:13], 4, v[12:13]
	v_mov_b32_e32 v14, s3
	s_waitcnt vmcnt(3)
	v_sub_f32_e32 v0, v4, v0
	s_waitcnt vmcnt(2)
	v_cvt_f32_i32_e32 v4, v18
	v_sub_f32_e32 v3, v7, v3
	v_sub_f32_e32 v2, v6, v2
	v_sub_f32_e32 v1, v5, v1
	s_waitcnt vmcnt(1)
	v_mul_f32_e32 v6, s7, v19
	s_waitcnt vmcnt(0)
	v_pk_fma_f32 v[0:1], v[0:1], v[6:7], v[8:9] op_sel_hi:[1,0,1]
	v_pk_fma_f32 v[2:3], v[2:3], v[6:7], v[10:11] op_sel_hi:[1,0,1]
	v_pk_add_f32 v[2:3], v[4:5], v[2:3] op_sel_hi:[0,1]
	v_pk_add_f32 v[0:1], v[4:5], v[0:1] op_sel_hi:[0,1]
	v_add_co_u32_e32 v4, vcc, s2, v12
	v_addc_co_u32_e32 v5, vcc, v14, v13, vcc
	global_store_dwordx4 v[4:5], v[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel aos_loads
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 20
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 20
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
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
	.size	aos_loads, .Lfunc_end0-aos_loads
                                        ; -- End function
	.set aos_loads.num_vgpr, 20
	.set aos_loads.num_agpr, 0
	.set aos_loads.numbered_sgpr, 8
	.set aos_loads.num_named_barrier, 0
	.set aos_loads.private_seg_size, 0
	.set aos_loads.uses_vcc, 1
	.set aos_loads.uses_flat_scratch, 0
	.set aos_loads.has_dyn_sized_stack, 0
	.set aos_loads.has_recursion, 0
	.set aos_loads.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 204
; TotalNumSgprs: 12
; NumVgprs: 20
; NumAgprs: 0
; TotalNumVgprs: 20
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 2
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 20
; AccumOffset: 20
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 4
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_aos_loads ; -- Begin function __clang_ocl_kern_imp_aos_loads
	.globl	__clang_ocl_kern_imp_aos_loads
	.p2align	2
	.type	__clang_ocl_kern_imp_aos_loads,@function
__clang_ocl_kern_imp_aos_loads:         ; @__clang_ocl_kern_imp_aos_loads
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	v_lshl_or_b32 v18, s12, 8, v5
	v_mad_u64_u32 v[20:21], s[4:5], v18, 48, v[0:1]
	v_add_u32_e32 v5, 1, v18
	global_load_dwordx4 v[6:9], v[20:21], off
	v_and_b32_e32 v5, 0xfff, v5
	v_mad_u64_u32 v[0:1], s[4:5], v5, 48, v[0:1]
	global_load_dword v5, v[20:21], off offset:36
	global_load_dwordx4 v[10:13], v[0:1], off
	global_load_dword v22, v[0:1], off offset:32
	global_load_dwordx4 v[14:17], v[20:21], off offset:16
	v_mov_b32_e32 v19, 0
	v_lshlrev_b64 v[0:1], 4, v[18:19]
	v_add_co_u32_e32 v0, vcc, v2, v0
	v_addc_co_u32_e32 v1, vcc, v3, v1, vcc
	s_waitcnt vmcnt(3)
	v_cvt_f32_i32_e32 v18, v5
	s_waitcnt vmcnt(2)
	v_sub_f32_e32 v9, v13, v9
	v_sub_f32_e32 v8, v12, v8
	v_sub_f32_e32 v7, v11, v7
	v_sub_f32_e32 v6, v10, v6
	s_waitcnt vmcnt(1)
	v_mul_f32_e32 v4, v4, v22
	s_waitcnt vmcnt(0)
	v_pk_fma_f32 v[10:11], v[6:7], v[4:5], v[14:15] op_sel_hi:[1,0,1]
	v_pk_fma_f32 v[4:5], v[8:9], v[4:5], v[16:17] op_sel_hi:[1,0,1]
	v_pk_add_f32 v[6:7], v[18:19], v[4:5] op_sel_hi:[0,1]
	v_pk_add_f32 v[4:5], v[18:19], v[10:11] op_sel_hi:[0,1]
	global_store_dwordx4 v[0:1], v[4:7], off
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_aos_loads, .Lfunc_end1-__clang_ocl_kern_imp_aos_loads
                                        ; -- End function
	.set __clang_ocl_kern_imp_aos_loads.num_vgpr, 32
	.set __clang_ocl_kern_imp_aos_loads.num_agpr, 0
	.set __clang_ocl_kern_imp_aos_loads.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_aos_loads.num_named_barrier, 0
	.set __clang_ocl_kern_imp_aos_loads.private_seg_size, 0
	.set __clang_ocl_kern_imp_aos_loads.uses_vcc, 1
	.set __clang_ocl_kern_imp_aos_loads.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_aos_loads.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_aos_loads.has_recursion, 0
	.set __clang_ocl_kern_imp_aos_loads.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 196
; TotalNumSgprs: 36
; NumVgprs: 32
; NumAgprs: 0
; TotalNumVgprs: 32
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
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
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'part_t*'
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         8
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .type_name:      float
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           aos_loads
    .private_segment_fixed_size: 0
    .sgpr_count:     12
    .sgpr_spill_count: 0
    .symbol:         aos_loads.kd
    .uses_dynamic_stack: false
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
