; case pr3635_lgkmcnt4_three_in_flight (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_pr3635:
	v_mov_b32_e32 v100, 0
	v_mov_b32_e32 v101, 0x1000
	ds_read_b128 v[0:3], v100 offset:0
	ds_read_b128 v[4:7], v100 offset:16
	ds_read_b128 v[8:11], v100 offset:32
	ds_read_b128 v[12:15], v100 offset:48
	ds_read_b128 v[16:19], v100 offset:64
	ds_read_b128 v[20:23], v100 offset:80
	ds_read_b128 v[24:27], v100 offset:96
	ds_read_b128 v[28:31], v100 offset:112
	ds_read_b128 v[32:35], v101 offset:0
	ds_read_b128 v[36:39], v101 offset:16
	ds_read_b128 v[40:43], v101 offset:32
	s_waitcnt lgkmcnt(4)
	v_mfma_f32_16x16x16_f16 a[0:3], v[28:29], v[50:51], a[0:3]
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x16_f16 a[4:7], v[30:31], v[40:41], a[4:7]
	s_endpgm
