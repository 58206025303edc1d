; case waw_overwrite_inflight_load (gfx90a)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
k_waw:
	global_load_dwordx2 v[0:1], v[4:5], off
	v_mov_b32_e32 v1, 0
	s_waitcnt vmcnt(0)
	global_store_dwordx2 v[4:5], v[0:1], off
	s_endpgm
