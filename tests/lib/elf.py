"""Minimal ELF64 relocatable files for code-object tests, built byte by byte
(struct), so a test needs no assembler: a .text section holding the given
bytes, a .shstrtab, and (symbols=True) a .symtab with one global function
symbol "k" at the start of .text and its .strtab; e_machine and e_flags as
asked.

CRASH_GFX942 are 16 bytes of .text on which LLVM 22.1's AMDGPU disassembler
(-mcpu=gfx942) reads a NULL pointer inside llvm::Twine::printOneChild
(`llvm-mc --disassemble -triple=amdgcn-amd-amdhsa -mcpu=gfx942` crashes on
them too): kwgen must decode code objects in a child process.
S_ENDPGM_GFX9 is `s_endpgm` (0xbf810000), which decodes.
"""
import struct

EM_AMDGPU = 224
EM_X86_64 = 62
MACH_GFX942 = 0x4c
CRASH_GFX942 = bytes([0xff, 0xe8, 0xca, 0xe9, 0xff, 0xff, 0x31, 0xff,
                      0x89, 0x38, 0xe8, 0x41, 0xda, 0x00, 0x00, 0x48])
S_ENDPGM_GFX9 = struct.pack("<I", 0xbf810000)


def _sh(name, type_, flags, off, size, link=0, info=0, align=1, entsize=0):
    return struct.pack("<IIQQQQIIQQ", name, type_, flags, 0, off, size, link, info, align, entsize)


STT_FUNC_GLOBAL = 0x12   # STB_GLOBAL << 4 | STT_FUNC
STT_NOTYPE_LOCAL = 0x00


def elf(text, machine=EM_AMDGPU, mach=MACH_GFX942, symbols=True, syms=None):
    """-> bytes: ELFCLASS64, little-endian, ET_REL, e_flags = 0x600 | mach
    (xnack and sramecc "any", the code object v4+ default).  syms: the
    .text symbols as (name bytes, offset, st_info), default [(b"k", 0,
    STT_FUNC_GLOBAL)]; a name may hold any byte but NUL."""
    shstr = b"\0.text\0.shstrtab\0.symtab\0.strtab\0"
    if syms is None:
        syms = [(b"k", 0, STT_FUNC_GLOBAL)]
    strtab, symtab = b"\0", bytes(24)
    for name, value, info in syms:
        # Elf64_Sym: name, info, other, shndx 1 (.text), value, size
        symtab += struct.pack("<IBBHQQ", len(strtab), info, 0, 1, value, 0)
        strtab += name + b"\0"
    parts, off = [], 64

    def place(data, align=8):
        nonlocal off
        off = (off + align - 1) & ~(align - 1)
        at = off
        parts.append((at, data))
        off += len(data)
        return at

    text_off = place(text, 4)
    shstr_off = place(shstr, 1)
    if symbols:
        sym_off = place(symtab, 8)
        str_off = place(strtab, 1)
    sh_off = (off + 7) & ~7
    shnum = 5 if symbols else 3
    ident = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + bytes(7)  # 64-bit, LE, EV_CURRENT, ELFOSABI_AMDGPU_HSA
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", 1, machine, 1, 0, 0, sh_off, 0x600 | mach, 64, 0, 0, 64, shnum, 2)
    body = bytearray(hdr + bytes(sh_off - 64))
    for at, data in parts:
        body[at:at + len(data)] = data
    sh = bytes(64)                                           # SHN_UNDEF
    sh += _sh(1, 1, 6, text_off, len(text), align=4)         # .text PROGBITS, ALLOC|EXECINSTR
    sh += _sh(7, 3, 0, shstr_off, len(shstr))                # .shstrtab STRTAB
    if symbols:
        nlocal = next((i for i, s in enumerate(syms) if s[2] >> 4), len(syms))  # sh_info: first global
        sh += _sh(17, 2, 0, sym_off, len(symtab), link=4, info=1 + nlocal, align=8, entsize=24)  # .symtab -> .strtab
        sh += _sh(25, 3, 0, str_off, len(strtab))                                       # .strtab
    return bytes(body) + sh
