
loop.o:	file format elf64-amdgpu

Disassembly of section .text:

0000000000000000 <k_loop_objdump>:
	buffer_load_dwordx2 v[50:51], v38, s[48:51], 0 offen       // 000000000000: E0541000 800C3226
	s_mov_b32 s4, 0                                            // 000000000008: BE840080
	s_waitcnt vmcnt(0)                                         // 00000000000C: BF8C0F70
	v_mov_b64_e32 v[78:79], v[50:51]                           // 000000000010: 7E9C7132
	buffer_load_dwordx2 v[50:51], v38, s[48:51], 0 offen offset:8// 000000000014: E0541008 800C3226
	v_add_f32_e32 v80, v78, v80                                // 00000000001C: 02A0A14E
	s_add_i32 s4, s4, 1                                        // 000000000020: 81048104
	s_cmp_lt_i32 s4, 10                                        // 000000000024: BF048A04
	s_cbranch_scc1 65528                                       // 000000000028: BF85FFF8 <k_loop_objdump+0xc>
	v_mov_b64_e32 v[82:83], v[50:51]                           // 00000000002C: 7EA47132
	s_waitcnt vmcnt(0)                                         // 000000000030: BF8C0F70
	s_endpgm                                                   // 000000000034: BF810000
