; case smem_lgkmcnt_out_of_order_gfx9 (gfx90a)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.text
k_smem_ooo:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_load_dword s6, s[0:1], 0x8
	s_waitcnt lgkmcnt(1)
	s_add_u32 s7, s4, 1
	s_waitcnt lgkmcnt(0)
	s_add_u32 s8, s6, s5
	s_endpgm
