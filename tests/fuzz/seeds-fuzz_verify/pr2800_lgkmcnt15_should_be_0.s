; case pr2800_lgkmcnt15_should_be_0 (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_pr2800:
	v_mov_b32_e32 v100, 0
	ds_read_b128 v[0:3], v100 offset:0
	ds_read_b128 v[4:7], v100 offset:16
	ds_read_b128 v[8:11], v100 offset:32
	ds_read_b128 v[12:15], v100 offset:48
	ds_write_b128 v100, v[40:43] offset:4096
	s_waitcnt lgkmcnt(15)
	v_mfma_f32_16x16x16_f16 a[0:3], v[12:13], v[14:15], a[0:3]
	s_waitcnt lgkmcnt(0)
	s_endpgm
