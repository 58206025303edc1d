; case flat_load_needs_both_counters (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_flat_dual:
	flat_load_dwordx4 v[0:3], v[4:5]
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v6, v0, v1
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v7, v2, v3
	s_endpgm
