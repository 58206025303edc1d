k:
	s_waitcnt vmcnt(63) lgkmcnt(15) expcnt(7)
	s_branch k
