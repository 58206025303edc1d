; case loop_prefetch_wait_only_on_entry (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_loop_race:
	global_load_dword v1, v[2:3], off
	s_mov_b32 s4, 0
	s_waitcnt vmcnt(0)
.LBB0_1:
	v_add_f32_e32 v5, v1, v5
	global_load_dword v1, v[2:3], off offset:4
	s_add_i32 s4, s4, 1
	s_cmp_lt_i32 s4, 10
	s_cbranch_scc1 .LBB0_1
	s_waitcnt vmcnt(0)
	global_store_dword v[2:3], v1, off
	s_endpgm
