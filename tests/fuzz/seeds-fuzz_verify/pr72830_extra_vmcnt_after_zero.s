; case pr72830_extra_vmcnt_after_zero (gfx1100)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
k_pr72830:
	buffer_load_b32 v7, v1, s[8:11], 0 offen
	buffer_load_b32 v8, v1, s[8:11], 0 offen offset:4
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v0, 0
	s_waitcnt vmcnt(1)
	v_readfirstlane_b32 s12, v7
	v_readfirstlane_b32 s13, v8
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v1, v0
	s_endpgm
