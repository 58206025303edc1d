; case gfx12_storecnt_does_not_cover_loads (gfx1201)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.text
k_gfx12_store_vs_load:
	v_mov_b32_e32 v10, 0
	global_load_b32 v3, v10, s[0:1]
	global_store_b32 v10, v2, s[2:3]
	s_wait_storecnt 0x0
	v_add_f32_e32 v6, v3, v3
	global_store_b32 v10, v6, s[2:3] offset:4
	global_load_b32 v7, v10, s[0:1] offset:8
	s_wait_loadcnt 0x0
	v_add_f32_e32 v8, v7, v7
	s_endpgm
