; case gfx12_loadcnt_dscnt_encoding (gfx1201)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.text
k_loadcnt_dscnt:
	v_mov_b32_e32 v10, 0
	global_load_b32 v1, v10, s[0:1]
	ds_load_b32 v2, v10
	ds_load_b32 v3, v10 offset:4
	s_wait_loadcnt_dscnt 0x1
	v_add_f32_e32 v4, v1, v2
	v_add_f32_e32 v5, v3, v3
	s_wait_dscnt 0x0
	v_add_f32_e32 v6, v3, v4
	s_endpgm
