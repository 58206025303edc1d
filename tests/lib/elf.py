"""Minimal ELF64 relocatable files for code-object tests, built byte by byte
(struct), so a test needs no assembler: a .text section holding the given
bytes and a .shstrtab, e_machine and e_flags as asked.

CRASH_GFX942 are 16 bytes of .text on which LLVM 22.1's AMDGPU disassembler
(-mcpu=gfx942) reads a NULL pointer inside llvm::Twine::printOneChild
(`llvm-mc --disassemble -triple=amdgcn-amd-amdhsa -mcpu=gfx942` crashes on
them too): kwgen must decode code objects in a child process.
"""
import struct

EM_AMDGPU = 224
EM_X86_64 = 62
MACH_GFX942 = 0x4c
CRASH_GFX942 = bytes([0xff, 0xe8, 0xca, 0xe9, 0xff, 0xff, 0x31, 0xff,
                      0x89, 0x38, 0xe8, 0x41, 0xda, 0x00, 0x00, 0x48])


def elf(text, machine=EM_AMDGPU, mach=MACH_GFX942):
    """-> bytes: ELFCLASS64, little-endian, ET_REL, e_flags = 0x600 | mach
    (xnack and sramecc "any", the code object v4+ default)."""
    shstr = b"\0.text\0.shstrtab\0"
    text_off = 64
    shstr_off = text_off + len(text)
    sh_off = (shstr_off + len(shstr) + 7) & ~7
    ident = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + bytes(7)  # 64-bit, LE, EV_CURRENT, ELFOSABI_AMDGPU_HSA
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", 1, machine, 1, 0, 0, sh_off, 0x600 | mach, 64, 0, 0, 64, 3, 2)
    body = hdr + text + shstr
    body += bytes(sh_off - len(body))
    sh = bytes(64)                                                                   # SHN_UNDEF
    sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0, text_off, len(text), 0, 0, 4, 0)     # .text PROGBITS AX
    sh += struct.pack("<IIQQQQIIQQ", 7, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)  # .shstrtab STRTAB
    return body + sh
