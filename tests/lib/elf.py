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


def elf(text, machine=EM_AMDGPU, mach=MACH_GFX942, symbols=True, syms=None, name=None):
    """-> bytes: ELFCLASS64, little-endian, ET_REL, e_flags = 0x600 | mach
    (xnack and sramecc "any", the code object v4+ default).  syms: the
    .text symbols as (name bytes, offset, st_info), default [(b"k", 0,
    STT_FUNC_GLOBAL)], or [(name, 0, STT_FUNC_GLOBAL)] when name is
    given; a name may hold any byte but NUL."""
    shstr = b"\0.text\0.shstrtab\0.symtab\0.strtab\0"
    if syms is None:
        syms = [(b"k" if name is None else name, 0, STT_FUNC_GLOBAL)]
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


def _sections(d):
    """-> {name: (sh_type, offset, size, link)} of an ELF64 LE file; and the list in order."""
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
    sh = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + 64 * i) for i in range(shnum)]
    strs = sh[shstrndx][4]
    named = [(d[strs + s[0]:d.index(b"\0", strs + s[0])].decode(), s) for s in sh]
    return named


def words_asm(obj, isa):
    """Assembly text holding a relocatable code object's .text as `.long`
    words, two a line, as Tensile ships kernels: .amdgcn_target, each
    .text symbol as a label (`.type NAME,@function` for STT_FUNC, an
    `.amdhsa_kernel NAME` block for each NAME.kd descriptor)."""
    named = _sections(obj)
    idx = next(i for i, (n, s) in enumerate(named) if (n == ".text" or n.startswith(".text.")) and s[5])
    text = named[idx][1]
    code = obj[text[4]:text[4] + text[5]]
    labels, kernels = {}, set()
    for name, s in named:
        if s[1] != 2:  # SHT_SYMTAB
            continue
        strtab = named[s[6]][1][4]
        for k in range(1, s[5] // 24):
            st_name, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", obj, s[4] + 24 * k)
            nm = obj[strtab + st_name:obj.index(b"\0", strtab + st_name)].decode()
            if nm.endswith(".kd"):
                kernels.add(nm[:-3])
            elif shndx == idx and nm and not nm.startswith(".L"):
                labels.setdefault(value, []).append((nm, info & 15 == 2))
    out = ['.amdgcn_target "amdgcn-amd-amdhsa--%s"' % isa, ".text"]
    for nm, func in sorted(v for vs in labels.values() for v in vs):
        if func or nm in kernels:
            out += [".globl " + nm, ".type %s,@function" % nm]
    words = struct.unpack("<%dI" % (len(code) // 4), code[:len(code) // 4 * 4])
    i = 0
    while i < len(words):
        for nm, _ in labels.get(4 * i, []):
            out.append(nm + ":")
        if i + 1 < len(words) and 4 * (i + 1) not in labels:
            out.append(".long 0x%08X, 0x%08X" % words[i:i + 2])
            i += 2
        else:
            out.append(".long 0x%08X" % words[i])
            i += 1
    out += [".byte 0x%02X" % b for b in code[len(code) // 4 * 4:]]
    for k in sorted(kernels):
        out += [".rodata", ".amdhsa_kernel " + k, "  .amdhsa_next_free_vgpr 8", "  .amdhsa_next_free_sgpr 8",
                ".end_amdhsa_kernel"]
    return "\n".join(out) + "\n"


def elf_many(n, word=S_ENDPGM_GFX9, mach=MACH_GFX942):
    """-> bytes: a relocatable ELF with n executable sections .text.I, each
    holding word, and one global function symbol fI per section (the
    shape that made section x symbol matching quadratic)."""
    names = [b".text.%d" % i for i in range(n)]
    shstr = b"\0.shstrtab\0.symtab\0.strtab\0" + b"".join(nm + b"\0" for nm in names)
    strtab = b"\0" + b"".join(b"f%d\0" % i for i in range(n))
    # the tables in lists, joined once (bytes += per entry copies the whole
    # table each time: quadratic, 1.2 s of CPU for 32,000 sections)
    sym = [bytes(24)]
    so = 1
    for i in range(n):
        sym.append(struct.pack("<IBBHQQ", so, STT_FUNC_GLOBAL, 0, 4 + i, 0, len(word)))
        so += len(b"f%d" % i) + 1
    sym = b"".join(sym)
    off = 64
    text_off = off
    off += len(word) * n
    shstr_off = off
    off += len(shstr)
    off = (off + 7) & ~7
    sym_off = off
    off += len(sym)
    str_off = off
    off += len(strtab)
    sh_off = (off + 7) & ~7
    shnum = 4 + n
    ident = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + bytes(7)
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", 1, EM_AMDGPU, 1, 0, 0, sh_off, 0x600 | mach, 64, 0, 0, 64, shnum, 1)
    body = bytearray(hdr) + word * n + shstr
    body += bytes(sym_off - len(body)) + sym + strtab
    body += bytes(sh_off - len(body))
    sh = [bytes(64),
          _sh(1, 3, 0, shstr_off, len(shstr)),                                      # 1 .shstrtab
          _sh(11, 2, 0, sym_off, len(sym), link=3, info=1, align=8, entsize=24),   # 2 .symtab
          _sh(19, 3, 0, str_off, len(strtab))]                                      # 3 .strtab
    no = 27
    for i in range(n):
        sh.append(_sh(no, 1, 6, text_off + len(word) * i, len(word), align=4))
        no += len(names[i]) + 1
    return bytes(body) + b"".join(sh)
