; case issue11202_backpressure_no_race (gfx942)
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
k_issue11202:
	v_mov_b32_e32 v16, 0
	v_mov_b32_e32 v50, 1
	s_mov_b32 s77, 0x5040100
	ds_read_b32 v51, v16
	ds_read_b32 v60, v16 offset:4
	ds_read_b32 v61, v16 offset:8
	ds_read_b32 v62, v16 offset:12
	ds_read_b32 v63, v16 offset:16
	ds_read_b32 v64, v16 offset:20
	ds_read_b32 v65, v16 offset:24
	ds_read_b32 v66, v16 offset:28
	ds_read_b32 v67, v16 offset:32
	ds_read_b32 v68, v16 offset:36
	ds_read_b32 v69, v16 offset:40
	ds_read_b32 v70, v16 offset:44
	ds_read_b32 v71, v16 offset:48
	ds_read_b32 v72, v16 offset:52
	ds_read_b32 v73, v16 offset:56
	ds_read_b32 v74, v16 offset:60
	s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)
	v_perm_b32 v18, v51, v50, s77
	s_waitcnt lgkmcnt(0)
	s_endpgm
