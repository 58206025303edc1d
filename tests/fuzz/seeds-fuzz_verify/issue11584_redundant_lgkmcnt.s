; case issue11584_redundant_lgkmcnt (gfx1100)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
k_issue11584:
	v_mov_b32_e32 v100, 0
	ds_store_b128 v100, v[8:11] offset:32768
	s_waitcnt lgkmcnt(0)
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_load_b128 v[0:3], v100 offset:32768
	ds_load_b128 v[4:7], v100 offset:33024
	ds_load_b128 v[12:15], v100 offset:32768
	ds_load_b128 v[16:19], v100 offset:33024
	s_waitcnt lgkmcnt(4)
	v_mov_b32_e32 v20, v100
	s_waitcnt lgkmcnt(0)
	v_add_f32_e32 v21, v0, v19
	s_endpgm
