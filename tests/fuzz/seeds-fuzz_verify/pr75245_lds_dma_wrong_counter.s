; case pr75245_lds_dma_wrong_counter (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_lds_dma:
	s_mov_b32 m0, 0
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v3, 0
	buffer_load_dword v1, s[4:7], 0 offen lds
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v2, v3
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_u32_e32 v4, v2, v2
	s_endpgm
