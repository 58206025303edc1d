; case flat_load_both_counters_ok (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_flat_dual_ok:
	flat_load_dwordx4 v[0:3], v[4:5]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_f32_e32 v6, v0, v1
	s_endpgm
