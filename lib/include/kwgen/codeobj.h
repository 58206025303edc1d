/*
 * kwgen/codeobj.h - AMDGPU code objects (ELF .co / .hsaco / .o) decoded into
 * the `llvm-objdump -d` text form that kw_verify_text reads.
 *
 * Built as its own static library, libkwgen-codeobj.a (lib/codeobj/), linked
 * only by the kwgen CLI and kwgend: it needs LLVM's C API (llvm-c/Object.h
 * to walk sections and symbols, llvm-c/Disassembler.h to decode), which the
 * generator core (libkwgen) never links.  LLVM 22's shared library is
 * loaded on the first call (dlopen), so a process that never decodes a
 * code object never maps it; without it, calls fail with KW_EUNSUPPORTED.
 *
 * The text matches what `llvm-objdump -d` prints for the same file: a
 * "Disassembly of section NAME:" line per executable section, one
 * "ADDR <symbol>:" line per function symbol (STT_FUNC, or any named symbol
 * of the section), and one line per instruction,
 *     \t<instruction padded to 59 columns>// ADDR: HEXWORDS[ <sym+0xOFF>]
 * ADDR is the 12-digit hex byte offset in the section (the ELF virtual
 * address for linked code objects), HEXWORDS the instruction's 32-bit
 * little-endian words, and the <sym+0xOFF> comment the target of an SOPP
 * branch (s_branch, s_cbranch_*, s_call_b64: PC + 4 + simm16 * 4, as
 * AMDGPU's MCInstrAnalysis::evaluateBranch computes it).  Bytes that do not
 * decode are printed as `.long 0xXXXXXXXX` lines with a
 * "// ADDR: HEX" comment (what the verifier reports as unknown).
 */
#ifndef KWGEN_CODEOBJ_H
#define KWGEN_CODEOBJ_H

#include <stddef.h>

#include "kwgen/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when data starts with the ELF magic "\x7fELF" (len >= 4). */
int kw_codeobj_is_elf(const void *data, size_t len);

/*
 * ISA of an AMDGPU ELF from its header: e_machine must be EM_AMDGPU (224)
 * and e_flags & EF_AMDGPU_MACH (0xff) one of the machines kwgen knows
 * (LLVM's BinaryFormat/ELF.h values: gfx908 0x30, gfx90a 0x3f, gfx940 0x40,
 * gfx941 0x4b, gfx942 0x4c, gfx950 0x4f, gfx1100 0x41, gfx1101 0x46,
 * gfx1102 0x47, gfx1200 0x48, gfx1201 0x4e, gfx1250 0x49).  Returns the
 * static name ("gfx942") or NULL with err set (KW_EINVAL: not a 64-bit
 * little-endian AMDGPU ELF, or an unsupported machine, named in hex).
 */
const char *kw_codeobj_isa(const void *data, size_t len, kw_error *err);

/*
 * Decode every executable section of the code object in data[0..len) for
 * isa (NULL = from the ELF header, see kw_codeobj_isa) into objdump-form
 * text.  name is printed on the "NAME:\tfile format elf64-amdgpu" line
 * (NULL = "code object").  At most max_insts instructions are decoded
 * (0 = no limit); more is KW_ELIMIT.
 *
 * On success returns 0, *text is a NUL-terminated malloc'd string (caller
 * frees), *text_len its length, *isa_out the ISA used (static string), and
 * *n_insts the number of instruction lines.  Errors: KW_EINVAL (not an ELF
 * object LLVM can read, not AMDGPU, no executable section, unknown ISA
 * name), KW_ELIMIT, KW_ENOMEM, KW_EINTERNAL (LLVM has no AMDGPU
 * disassembler for the CPU), KW_EUNSUPPORTED (libLLVM.so.22.1 cannot be
 * loaded).  err says which.
 *
 * Thread-safe: LLVM's target registry is initialised once (pthread_once),
 * each call makes its own disassembler context.
 */
int kw_codeobj_disassemble(const void *data, size_t len, const char *isa, const char *name,
                           size_t max_insts, char **text, size_t *text_len, const char **isa_out,
                           size_t *n_insts, kw_error *err);

#ifdef __cplusplus
}
#endif
#endif
