; case pr10929_kmcnt_out_of_order (gfx1201)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.text
k_pr10929:
	s_load_b64 s[8:9], s[0:1], 0x0
	s_load_b64 s[10:11], s[0:1], 0x8
	s_wait_kmcnt 0x1
	s_add_co_u32 s20, s8, s8
	s_wait_kmcnt 0x0
	s_add_co_u32 s21, s10, s11
	s_endpgm
