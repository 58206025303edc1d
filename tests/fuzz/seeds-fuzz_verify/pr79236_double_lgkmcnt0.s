; case pr79236_double_lgkmcnt0 (gfx90a)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
k_pr79236:
	s_load_dword s0, s[0:1], 0x24
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, 5
	v_mov_b32_e32 v0, s0
	ds_add_u32 v0, v1
	s_waitcnt lgkmcnt(0)
	s_waitcnt lgkmcnt(0)
	s_endpgm
