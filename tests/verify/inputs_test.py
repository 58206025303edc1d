#!/usr/bin/env python3
"""Every input form read whole, or refused (`kwgen verify`).

  - an input with no instruction, and one with code bytes that were not
    decoded (a `.long` line in the decoded text), exit 2 naming what was
    not checked, never 0;
  - an ELF symbol name holding a newline and an instruction
    ("x\\n\\ts_waitcnt vmcnt(0)") does not become an instruction: the race
    it would hide is still reported;
  - a multi-kernel code object linked with ld.lld-22 from one object per
    kernel (zero padding between them): a race across a branch is found in
    every kernel, in the code object and in its llvm-objdump -d text;
  - assembly whose instructions are `.long` words (as Tensile ships
    kernels) gives the findings of the code object assembled from it, at
    the same offsets; an inline `kwgen-verify: allow` on a `.long` line
    works as on a text line (a malformed one is refused in both), and a
    `kwgen-verify: assume atomic-counters` comment applies to the decoded
    words, the answer saying where it came from;
  - one load read too early on two paths is one finding (at the first
    read, also_lines naming the other) in text, code object and `.long`
    form, each in its own lines.
Every kernel is written or assembled here (llvm-mc-22, ld.lld-22).

  inputs_test.py --kwgen build/kwgen
Last line: 'verify-inputs: N passed, N failed, N skipped'.
"""
import argparse, json, os, re, resource, shutil, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from checks import Results, sanitizer_report  # noqa: E402
import elf as tiny_elf  # noqa: E402
import zygote  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")
LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
LD_LLD = os.environ.get("LD_LLD", "ld.lld-22")

# A kernel that reads v1 after a branch while the load of v1 may be in
# flight (no vmcnt wait on either path): race_raw at the v_add.
RACY = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.section .text.{k},"ax",@progbits
.globl {k}
.p2align 8
.type {k},@function
{k}:
  s_load_dwordx2 s[0:1], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[0:1]
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 .L{k}_join
  v_mov_b32 v3, 0
.L{k}_join:
  v_add_u32 v2, v1, v1
  global_store_dword v0, v2, s[0:1]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel {k}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=120, **kw)


def tool(cmd, input=None):
    """An LLVM tool (llvm-mc-22, ld.lld-22) as run() gives it, from the tool
    zygote when make sets KWGEN_TOOL_ZYGOTE (tests/lib/zygote.py: libLLVM
    loaded once, not per run)."""
    rc, out, err = zygote.run(cmd, timeout=120, input=input)
    return subprocess.CompletedProcess(cmd, rc, out, err)


def verify_each(a, paths, *extra, text=True):
    """`kwgen verify --json-lines` on paths in one process (each file's
    answer is what `kwgen verify --json FILE` gives alone, with its own exit
    status): -> {path: (exit code, the --json object or None, the error
    message)}; and `kwgen verify` (text) on them in one process: -> {path:
    its totals line} (text=False: not run, {}).  A sanitizer report or a
    line missing fails every file."""
    p = run([a.kwgen, "verify", "--json-lines", *extra, "--", *paths], text=True)
    t = run([a.kwgen, "verify", *extra, "--", *paths], text=True) if text else p
    lines = p.stdout.splitlines()
    bad = sanitizer_report(p.stderr) or sanitizer_report(t.stderr)
    if bad or len(lines) != len(paths):
        why = bad or f"{len(lines)} lines for {len(paths)} files, exit {p.returncode}: {p.stderr.strip()[-300:]!r}"
        return {q: (None, None, why) for q in paths}, {}
    res = {}
    for q, line in zip(paths, lines):
        j = json.loads(line)
        assert j.get("file") == q, (j.get("file"), q)
        rc = j.pop("exit")
        res[q] = (rc, j if rc in (0, 1) else None, j.get("error", ""))
    totals = {}
    for line in t.stdout.splitlines():
        for q in paths:
            if line.startswith(q + ": totals: "):
                totals[q] = line
    return res, totals


def verify(a, path, *extra):
    """-> (exit code, findings or None, stderr)"""
    p = run([a.kwgen, "verify", "--json", *extra, path], text=True)
    fs = None
    if p.returncode in (0, 1) and p.stdout.strip():
        fs = json.loads(p.stdout)["findings"]
    return p.returncode, fs, p.stderr


def assemble(src, obj, tmp):
    s = os.path.join(tmp, os.path.basename(obj) + ".s")
    with open(s, "w") as f:
        f.write(src)
    p = tool([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj", s, "-o", obj])
    return p.returncode == 0, p.stderr.decode()[-300:]


def encode(lines):
    """Instruction text -> bytes, with llvm-mc's -show-encoding."""
    p = tool([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-show-encoding"],
             input="\n".join(lines).encode())
    out = b""
    for m in re.finditer(r"encoding: \[([^\]]*)\]", p.stdout.decode()):
        out += bytes(int(x, 16) for x in m.group(1).split(","))
    return out


def text_bytes(obj):
    """The .text bytes of a relocatable object (ELF64 LE section headers)."""
    d = open(obj, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
    sh = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + 64 * i) for i in range(shnum)]
    names = sh[shstrndx]
    out = {}
    for s in sh:
        nm = d[names[4] + s[0]:d.index(b"\0", names[4] + s[0])].decode()
        out[nm] = d[s[4]:s[4] + s[5]]
    return out


def nothing_checked(a, tmp, R):
    path = os.path.join(tmp, "empty.s")
    with open(path, "w") as f:
        f.write('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.text\nk:\n')
    rc, _, err = verify(a, path)
    R.check(rc == 2 and "nothing was checked" in err, "no instruction: exit 2, says nothing was checked",
            f"exit {rc}: {err.strip()[-200:]!r}")
    # llvm-objdump's "..." (elided zero bytes): padding after s_endpgm, but
    # code not shown inside a function
    elided = []
    for what, body, want in (("inside a function", "\ts_nop 0 // 000000000000: BF800000\n\t\t...\n"
                              "\ts_endpgm // 000000000010: BF810000\n", 2),
                             ("after s_endpgm", "\ts_endpgm // 000000000000: BF810000\n\t\t...\n", 0),
                             # a tail block that branches back (compiler
                             # output puts such blocks after s_endpgm): no
                             # fall-through after s_branch or s_setpc either
                             ("after s_branch", "\ts_cbranch_scc1 1 // 000000000000: BF850001\n"
                              "\ts_endpgm // 000000000004: BF810000\n"
                              "\ts_branch 65534 // 000000000008: BF82FFFE\n\t\t...\n", 0),
                             ("after s_setpc", "\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0) // 000000000000: BF8C0000\n"
                              "\ts_setpc_b64 s[30:31] // 000000000004: BE801D1E\n\t\t...\n", 0),
                             ("after s_cbranch (it falls through)", "\ts_cbranch_scc1 65535 // 000000000000: BF85FFFF\n"
                              "\t\t...\n\ts_endpgm // 000000000010: BF810000\n", 2)):
        path = os.path.join(tmp, "elided%d.dis.s" % len(elided))
        with open(path, "w") as f:
            f.write("0000000000000000 <k>:\n" + body)
        elided.append((what, want, path))
    # the five texts in one process (each file's exit status its own)
    res, _ = verify_each(a, [path for _, _, path in elided], "--isa", "gfx942", text=False)
    for what, want, path in elided:
        rc, _, err = res[path]
        err = err or ""
        R.check(rc == want and (want == 0 or "elided" in err), f"llvm-objdump '...' {what}: exit {want}",
                f"exit {rc}: {err.strip()[-200:]!r}")
    # a word LLVM's disassembler does not decode (0xffffffff on gfx942):
    # the decoded text has a `.long` line there, which is not checked
    co = os.path.join(tmp, "undecodable.co")
    with open(co, "wb") as f:
        f.write(tiny_elf.elf(encode(["s_mov_b32 s0, 0"]) + b"\xff\xff\xff\xff" + encode(["s_endpgm"])))
    rc, _, err = verify(a, co)
    R.check(rc == 2 and "not checked" in err and "0x4" in err and not sanitizer_report(err),
            "code object with an undecodable word: exit 2 naming its address", f"exit {rc}: {err.strip()[-300:]!r}")


def symbol_injection(a, tmp, R):
    code = encode(["global_load_dword v1, v0, s[0:1]", "v_add_u32 v2, v1, v1", "s_endpgm"])
    if len(code) != 16:
        R.fail("symbol name injection", f"llvm-mc gave {len(code)} bytes")
        return
    name = b"x\n\ts_waitcnt vmcnt(0)\n"
    co = os.path.join(tmp, "inject.co")
    with open(co, "wb") as f:
        f.write(tiny_elf.elf(code, syms=[(name, 8, tiny_elf.STT_NOTYPE_LOCAL),
                                         (b"k", 0, tiny_elf.STT_FUNC_GLOBAL)]))
    rc, fs, err = verify(a, co)
    races = [f for f in fs or [] if f["code"] == "race_raw" and f.get("offset") == 8]
    R.check(rc == 1 and races, "a symbol name holding a newline and a wait hides no race",
            f"exit {rc}, findings {fs}, {err.strip()[-200:]!r}")
    unknown = [f for f in fs or [] if f["code"] == "unknown_instruction"]
    R.check(fs is not None and not unknown and all(f["function"] == "k" for f in fs),
            "no part of the name is read as an instruction", f"{unknown[:2]}")


def linked(a, tmp, R):
    if not shutil.which(LD_LLD):
        R.skip("multi-kernel linked code object", f"{LD_LLD} not installed (lld-22)")
        return
    objs, names = [], ["gemm_a", "gemm_b", "gemm_c"]
    for k in names:
        o = os.path.join(tmp, k + ".o")
        ok, why = assemble(RACY.format(k=k), o, tmp)
        if not ok:
            R.fail("assemble the kernels", why)
            return
        objs.append(o)
    co = os.path.join(tmp, "multi.co")
    p = tool([LD_LLD, "-shared", *objs, "-o", co])
    if p.returncode:
        R.fail(f"link with {LD_LLD}", p.stderr.decode()[-300:])
        return
    dis = run([LLVM_OBJDUMP, "-d", "-z", co]).stdout.decode()
    pad = len(re.findall(r"// [0-9A-F]{12}: 00000000\s*$", dis, re.M))
    R.check(pad >= 8, "the linked kernels have zero padding between them", f"{pad} zero words")
    d_path = os.path.join(tmp, "multi.dis.s")
    with open(d_path, "w") as f:
        f.write(run([LLVM_OBJDUMP, "-d", co]).stdout.decode())
    for what, path, extra in (("code object", co, ()), ("llvm-objdump -d text", d_path, ("--isa", "gfx942")),
                              ("llvm-objdump -d -z text", None, ("--isa", "gfx942"))):
        if path is None:
            path = os.path.join(tmp, "multi.z.dis.s")
            with open(path, "w") as f:
                f.write(dis)
        rc, fs, err = verify(a, path, *extra)
        got = sorted({f["function"] for f in fs or [] if f["code"] == "race_raw"})
        R.check(rc == 1 and got == names, f"linked kernels, {what}: the race across the branch in every kernel",
                f"exit {rc}, race_raw in {got}, {err.strip()[-200:]!r}")


def linked_nop_fill(a, tmp, R):
    """Compiler kernels linked together: a function that ends in s_setpc is
    followed by llvm-mc's s_nop 0 alignment fill and then ld.lld's zero
    padding, which llvm-objdump -d shows as '...': padding (no fall-through
    reaches it), so the code object and its objdump text verify as the
    objects do alone."""
    import gzip
    if not shutil.which(LD_LLD):
        R.skip("linked compiler kernels with s_nop fill", f"{LD_LLD} not installed (lld-22)")
        return
    objs = []
    for k in ("aos_loads", "atomic_cas_max_f32"):
        path = os.path.join(HERE, "llvm", "gfx942", k + ".s.gz")
        if not os.path.exists(path):
            R.skip("linked compiler kernels with s_nop fill", f"{path} missing")
            return
        o = os.path.join(tmp, "fill_" + k + ".o")
        ok, why = assemble(gzip.open(path, "rt").read(), o, tmp)
        if not ok:
            R.fail("assemble " + k, why)
            return
        objs.append(o)
    # the objects alone: their exit statuses, in one process
    got, _ = verify_each(a, objs, text=False)
    alone = [got[o][0] for o in objs]
    if None in alone:
        R.fail("linked compiler kernels with s_nop fill: the objects alone", got[objs[alone.index(None)]][2])
        return
    co = os.path.join(tmp, "fill.co")
    p = tool([LD_LLD, "-shared", *objs, "-o", co])
    if p.returncode:
        R.fail(f"link with {LD_LLD}", p.stderr.decode()[-300:])
        return
    dis = run([LLVM_OBJDUMP, "-d", co]).stdout.decode()
    R.check(re.search(r"s_setpc_b64[^\n]*\n(\s*s_nop 0[^\n]*\n)+\s*\.\.\.", dis) is not None,
            "the linked code has s_setpc, s_nop fill, then elided zeros", dis[-300:])
    d_path = os.path.join(tmp, "fill.dis.s")
    with open(d_path, "w") as f:
        f.write(dis)
    want = max(alone)
    for what, path, extra in (("code object", co, ()), ("llvm-objdump -d text", d_path, ("--isa", "gfx942"))):
        rc, fs, err = verify(a, path, *extra)
        R.check(rc == want and fs is not None and "elided" not in err,
                f"linked compiler kernels with s_nop fill, {what}: verified as the objects alone (exit {want})",
                f"exit {rc}: {err.strip()[-300:]!r}")


def long_words(a, tmp, R):
    """.long-word assembly made here from assembled kernels: the findings of
    the code object, at the same offsets, in the same functions."""
    import gzip
    items = [("racy", "gfx942", RACY.format(k="racy"))]
    for rel, isa in (("gfx942/branchy_loads", "gfx942"), ("gfx90a/gemm_lds_f64", "gfx90a"),
                     ("gfx1100/reduce_sum_f32", "gfx1100")):
        path = os.path.join(HERE, "llvm", rel + ".s.gz")
        if os.path.exists(path):
            items.append((rel, isa, gzip.open(path, "rt").read()))
    made = []
    for k, (name, isa, src) in enumerate(items):
        s, o = os.path.join(tmp, "w%d.s" % k), os.path.join(tmp, "w%d.o" % k)
        with open(s, "w") as f:
            f.write(src)
        p = tool([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={isa}", "-filetype=obj", s, "-o", o])
        if p.returncode:
            R.fail(f".long form of {name}: assemble", p.stderr.decode()[-300:])
            continue
        lw = os.path.join(tmp, "w%d.long.s" % k)
        with open(lw, "w") as f:
            f.write(tiny_elf.words_asm(open(o, "rb").read(), isa))
        made.append((name, lw, o))
    # the .long files and the code objects in one process (each file's
    # answer and exit status its own)
    res, _ = verify_each(a, [q for _, lw, o in made for q in (lw, o)], text=False)
    for name, lw, o in made:
        (rc1, j1, e1), (rc2, j2, e2) = res[lw], res[o]
        if rc1 not in (0, 1) or rc2 not in (0, 1):
            R.fail(f".long form of {name}", f"exit {rc1}/{rc2}: {(e1 or '')[-200:]!r} {(e2 or '')[-200:]!r}")
            continue
        k1 = {(f["code"], f.get("offset"), f["function"]) for f in j1["findings"]}
        k2 = {(f["code"], f.get("offset"), f["function"]) for f in j2["findings"]}
        same = (k1 == k2 and rc1 == rc2
                and j1["stats"]["instructions"] == j2["stats"]["instructions"] > 0
                and j1["stats"]["functions"] == j2["stats"]["functions"])
        if name == "racy":
            same = same and any(c == "race_raw" for c, _, _ in k1)
        R.check(same, f".long form of {name}: the code object's findings ({len(k1)}), "
                      f"{j1['stats']['instructions']} instructions",
                f"only .long {sorted(k1 - k2, key=str)[:3]} only code object {sorted(k2 - k1, key=str)[:3]} "
                f"stats {j1['stats']} {j2['stats']}")
    # refused: instructions mixed with words (their offsets are unknown), a
    # word that does not evaluate
    for what, text, must in (
            ("instructions and .long words mixed", ".text\nk:\n s_nop 0\n.long 0xBF810000\n", "instructions and data words"),
            ("a .long value that does not evaluate", ".text\nk:\n.long 0xBF810000, nope\n", "does not evaluate")):
        path = os.path.join(tmp, "bad.long.s")
        with open(path, "w") as f:
            f.write('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n' + text)
        rc, _, err = verify(a, path)
        R.check(rc == 2 and "line" in err and must in err and not sanitizer_report(err), f"{what}: exit 2 with the line",
                f"exit {rc}: {err.strip()[-200:]!r}")


def child_maxrss(cmd):
    """-> (exit code, stderr, peak RSS in bytes) of cmd, measured in a fresh
    Python process whose only child it is (ru_maxrss of RUSAGE_CHILDREN)."""
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "sys.stderr.write(p.stderr)\n"
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = run([sys.executable, "-c", probe, *cmd], text=True)
    rc, kb = p.stdout.split()
    return int(rc), p.stderr, int(kb) * 1024


def nested_macros(n_outer=64):
    """A few KB of macros nesting 64 x 64 x 64 x 64 instructions."""
    lines = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", "k:", ".macro m0"]
    lines += ["  v_mov_b32 v1, v2"] * 64 + [".endm"]
    for i in range(1, 5):
        lines += [".macro m%d" % i] + ["  m%d" % (i - 1)] * 64 + [".endm"]
    return "\n".join(lines + ["  m4"] * (n_outer // 64) + ["  s_endpgm"]) + "\n"


def memory_bounds(a, tmp, R):
    """Memory of one verification: bounded by 16 x the input + 96 MiB, or by
    --max-memory; past it exit 2 naming the bound."""
    path = os.path.join(tmp, "nested.s")
    text = nested_macros()
    with open(path, "w") as f:
        f.write(text)
    bound = 16 * len(text) + (96 << 20)
    # under AddressSanitizer the shadow memory and redzones are not the
    # verifier's: the peak RSS is then not checked
    slack = 1 << 40 if os.environ.get("ASAN_OPTIONS") else 24 << 20
    rc, err, rss = child_maxrss([a.kwgen, "verify", path])
    R.check(rc == 2 and "memory bound" in err and rss <= bound + slack,
            f"{len(text)} bytes of nested macros: exit 2 naming the memory bound, peak RSS {rss >> 20} MiB "
            f"<= 16 x input + 96 MiB (+ 24 MiB for the process)",
            f"exit {rc}, {err.strip()[-200:]!r}")
    rc, err, rss = child_maxrss([a.kwgen, "verify", "--max-memory", "8000000", path])
    R.check(rc == 2 and "8000000" in err and rss <= 8000000 + slack,
            f"--max-memory 8000000: exit 2 naming it, peak RSS {rss >> 20} MiB", f"exit {rc}, {err.strip()[-200:]!r}")
    # branches over 100 SGPRs the path facts partition by: the data-flow's
    # states are bounded by 8 KiB per instruction + 64 MiB (past half of it
    # no new partition; past all of it exit 2), not by the input's bytes.
    # 6,000 branches: twice what passes the bound (3,000 verify whole,
    # 4,000 are refused)
    n = 6000
    lines = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", "k:"]
    for i in range(n):
        lines += ["  s_cmp_eq_u32 s%d, %d" % (i % 100, i % 64), "  s_cbranch_scc1 .L%d" % i,
                  "  s_add_u32 s%d, s%d, 1" % (i % 100, i % 100), ".L%d:" % i]
    path = os.path.join(tmp, "partitions.s")
    with open(path, "w") as f:
        f.write("\n".join(lines + ["  s_endpgm"]) + "\n")
    insts = 3 * n + 1
    states = insts * 8192 + (64 << 20)
    rc, err, rss = child_maxrss([a.kwgen, "verify", path])
    R.check(rc == 2 and "data-flow's states" in err and rss <= states + 2 * (16 * os.path.getsize(path) + (96 << 20)),
            f"{os.path.getsize(path) >> 10} KiB of branches over 100 SGPRs: exit 2 naming the states' bound, "
            f"peak RSS {rss >> 20} MiB <= 8 KiB x {insts} instructions + 64 MiB + the verification's bound",
            f"exit {rc}, {err.strip()[-200:]!r}, {rss >> 20} MiB")
    # a code object whose decoded text would be huge: a 64 KiB symbol name
    # in the branch comment of each of 16,384 branches (136 KiB in all)
    n = 16384
    code = b"".join(struct.pack("<I", 0xBF820000 | (n - 2 - i)) for i in range(n - 1)) + tiny_elf.S_ENDPGM_GFX9
    co = os.path.join(tmp, "longnames.co")
    with open(co, "wb") as f:
        f.write(tiny_elf.elf(code, syms=[(b"L" * 65536, 4 * (n - 1), tiny_elf.STT_NOTYPE_LOCAL),
                                         (b"k", 0, tiny_elf.STT_FUNC_GLOBAL)]))
    rc, _, err = verify(a, co)
    R.check(rc == 2 and "memory bound" in err, f"{os.path.getsize(co) >> 10} KiB code object with a 64 KiB name "
            "in every branch comment: exit 2 naming the memory bound", f"exit {rc}, {err.strip()[-200:]!r}")
    # 32,000 .text sections and 32,000 symbols: read in linear time (the
    # quadratic way took more than the decoder's 60 s CPU bound)
    co = os.path.join(tmp, "many.co")
    with open(co, "wb") as f:
        f.write(tiny_elf.elf_many(32000))
    p = run([a.kwgen, "verify", "--json", co], text=True)
    st = json.loads(p.stdout)["stats"] if p.returncode in (0, 1) else {}
    R.check(st.get("functions") == 32000 and st.get("instructions") == 32000,
            f"{os.path.getsize(co) >> 20} MiB ELF with 32,000 .text sections and symbols decodes: 32,000 functions",
            f"exit {p.returncode}, stats {st}, {p.stderr.strip()[-200:]!r}")


def repeat_directives(a, tmp, R):
    """.rept/.irp/.irpc/.include make lines the reader does not expand: the
    file is refused (exit 2 naming the directive and its line), never read
    as if the body were there once (a `.rept 0` around a wait hid a race);
    inside a false .if it is skipped like any line there."""
    race = "\tglobal_load_dwordx4 v[0:3], v[10:11], off\n%s\tv_add_f32 v20, v0, v1\n\ts_endpgm\n"
    for d, body in ((".rept", ".rept 0\n\ts_waitcnt vmcnt(0)\n.endr\n"),
                    (".irp", ".irp r, 0\n\ts_waitcnt vmcnt(\\r)\n.endr\n"),
                    (".irpc", ".irpc c, 0\n\ts_waitcnt vmcnt(\\c)\n.endr\n"),
                    (".include", '.include "waits.inc"\n')):
        path = os.path.join(tmp, "rept.s")
        with open(path, "w") as f:
            f.write(race % body)
        rc, _, err = verify(a, path, "--isa", "gfx942")
        R.check(rc == 2 and ("line 2: %s " % d) in err and "nothing is verified" in err,
                "%s: exit 2 naming it and its line" % d, f"exit {rc}: {err.strip()[-200:]!r}")
    path = os.path.join(tmp, "rept-if0.s")
    with open(path, "w") as f:
        f.write(race % ".if 0\n.rept 3\n\ts_nop 0\n.endr\n.endif\n\ts_waitcnt vmcnt(0)\n")
    rc, _, err = verify(a, path, "--isa", "gfx942")
    R.check(rc == 0, ".rept inside a false .if: skipped with its lines, exit 0", f"exit {rc}: {err.strip()[-200:]!r}")



def streamed(a, tmp, R):
    """Code objects verified as their decoded text streams in: 2,000,000
    4-byte instructions (8 MB; ~70 MB of text) read whole, the text never
    built in one piece: refused by the default memory bound (16 x 8 MB +
    96 MiB) once what the analysis needs is known, verified with a larger
    --max-memory; findings on `.long` words name the line of the word."""
    co = os.path.join(tmp, "nops.co")
    with open(co, "wb") as f:
        f.write(tiny_elf.elf(struct.pack("<I", 0xBF800000) * 2000000 + tiny_elf.S_ENDPGM_GFX9))
    # no RSS is checked here: glibc on huge pages, keeping what it frees
    # (as make's VERIFY_MALLOC_ENV), touches 230-360 MB in 4,400 page
    # faults, not 45,000-80,000 (~1.5 s less CPU for the two runs)
    big = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:"
                                          "glibc.malloc.trim_threshold=1073741824")
    p = run([a.kwgen, "verify", "--json", co], text=True, env=big)
    R.check(p.returncode == 2 and "analysing 2000001 instructions" in p.stderr and "--max-memory" in p.stderr,
            "8 MB code object of 2,000,000 s_nop: past the default bound with what the analysis holds: exit 2 naming it",
            f"exit {p.returncode}, {p.stderr.strip()[-200:]!r}")
    p = run([a.kwgen, "verify", "--json", "--max-memory", str(1 << 30), co], text=True, env=big)
    st = json.loads(p.stdout)["stats"] if p.returncode in (0, 1) else {}
    R.check(p.returncode == 0 and st.get("instructions") == 2000001,
            "8 MB code object of 2,000,000 s_nop: verified (exit 0, 2,000,001 instructions) with --max-memory 1 GiB",
            f"exit {p.returncode}, stats {st}, {p.stderr.strip()[-200:]!r}")
    # one .long word a line, a comment line between: the line of each
    # word is known
    obj = os.path.join(tmp, "lines.o")
    ok, why = assemble(RACY.format(k="k"), obj, tmp)
    if not ok:
        R.fail(".long findings name the source line: assemble", why)
        return
    code = text_bytes(obj)[".text.k"]
    lines = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", ".globl k", ".type k,@function", "k:"]
    line_of = {}
    for off in range(0, len(code), 4):
        lines.append("// word at 0x%x" % off)
        lines.append("\t.long 0x%08X" % struct.unpack_from("<I", code, off))
        line_of[off] = len(lines)
    path = os.path.join(tmp, "lines.long.s")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    rc, fs, err = verify(a, path)
    _, fo, _ = verify(a, obj)
    bad = [f for f in fs or [] if f["line"] != line_of.get(f.get("offset"))
           or (f.get("producer_offset") is not None and f["producer_line"] != line_of.get(f["producer_offset"]))
           or any(int(n) not in line_of.values() for n in re.findall(r"\bline (\d+)", f["message"]))]
    R.check(rc == 1 and fs and fo and len(fs) == len(fo) and not bad,
            f".long words: {len(fs or [])} findings name the lines of their words (and of the producer and "
            "the lines their messages name)",
            f"exit {rc}, {err.strip()[-200:]!r}, wrong: {[(f['line'], f.get('offset'), f['message'][:80]) for f in bad][:3]}")

def long_inline_allow(a, tmp, R):
    """An inline `kwgen-verify: allow` comment on a `.long` line works as on
    a text line: on the line of the word that starts the racy instruction it
    hides the race, counted in the totals line's suppressed count; without
    it, or on the producer's line, the race is reported, exactly as the
    same comment on the text line; malformed (an unknown code, no colon,
    no code) the file is refused (exit 2) naming the line and the codes,
    as the same comment on the text line is."""
    obj = os.path.join(tmp, "allow.o")
    src = RACY.format(k="k")
    ok, why = assemble(src, obj, tmp)
    if not ok:
        R.fail(".long inline allow: assemble", why)
        return
    code = text_bytes(obj)[".text.k"]
    # the use (v_add_u32 v2, v1, v1) and the producer (global_load_dword)
    use = encode(["v_add_u32 v2, v1, v1"])
    load = encode(["global_load_dword v1, v0, s[0:1]"])
    uoff, loff = code.find(use), code.find(load)
    if uoff < 0 or loff < 0 or uoff % 4 or loff % 4:
        R.fail(".long inline allow: find the instructions", f"use at {uoff}, load at {loff}")
        return
    src_lines = src.split("\n")
    tuse = next(i for i, l in enumerate(src_lines) if "v_add_u32 v2" in l)
    tload = next(i for i, l in enumerate(src_lines) if "global_load_dword" in l)

    def long_text(comment, at):
        lines = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", ".globl k", ".type k,@function", "k:"]
        for off in range(0, len(code), 4):
            lines.append("\t.long 0x%08X" % struct.unpack_from("<I", code, off) + (comment if off == at else ""))
        return "\n".join(lines) + "\n"

    def text_text(comment, at):
        return "\n".join(l + (comment if i == at else "") for i, l in enumerate(src_lines))

    def outcome(res, totals, path):
        rc, j, err = res[path]
        if rc not in (0, 1):
            return None, (err or "").strip()[-600:]
        races = [f["line"] for f in j["findings"] if f["code"] == "race_raw"]
        m = re.search(r"(\d+) hidden by suppressions", totals.get(path, ""))
        return (rc, len(races), j["suppressed"], int(m.group(1)) if m else None), races

    cases = (("none", "", "use", 0),
             ("allow race_raw on the use's first word", " // kwgen-verify: allow race_raw", "use", 1),
             ("allow * after ';'", " ; kwgen-verify: allow *", "use", 1),
             ("allow race_raw on the producer's line", " // kwgen-verify: allow race_raw", "load", 0),
             ("malformed: an unknown code", " // kwgen-verify: allow race_rw", "use", -1),
             ("malformed: no colon", " // kwgen-verify allow race_raw", "use", -1),
             ("malformed: nothing allowed", " // kwgen-verify: allow", "use", -1),
             ("two codes, comma, note", " // kwgen-verify: allow race_waw, race_raw -- reviewed", "use", 1),
             ("malformed: a slash between codes", " // kwgen-verify: allow race_waw/race_raw", "use", -1),
             ("malformed: a bar between codes", " // kwgen-verify: allow race_waw|race_raw", "use", -1),
             ("malformed: a word after the codes", " // kwgen-verify: allow race_raw because", "use", -1))
    # every case's .long and text file, verified in one process (each
    # file's answer and exit status its own)
    paths = []
    for k, (what, comment, where, hidden) in enumerate(cases):
        for form, text in (("long", long_text(comment, uoff if where == "use" else loff)),
                           ("text", text_text(comment, tuse if where == "use" else tload))):
            path = os.path.join(tmp, "allow%02d.%s.s" % (k, form))
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
    res, totals = verify_each(a, paths)
    for k, (what, comment, where, hidden) in enumerate(cases):
        lw, lraces = outcome(res, totals, paths[2 * k])
        tx, tmsg = outcome(res, totals, paths[2 * k + 1])
        if hidden < 0:
            # refused, naming the line of the comment and the codes
            R.check(lw is None and tx is None and "line %d" % (6 + uoff // 4) in lraces
                    and "line %d" % (tuse + 1) in tmsg and "race_raw, race_waw" in lraces,
                    f".long inline allow, {what}: refused (exit 2) naming the line and the codes, "
                    "as on the text line", f".long {lw} {lraces!r}, text {tx} {tmsg!r}")
            continue
        want = (0, 0, 1, 1) if hidden else (1, 1, 0, 0)
        line_ok = hidden or lraces == [6 + uoff // 4]
        R.check(lw == want and tx == want and line_ok,
                f".long inline allow, {what}: {'hidden, 1 suppressed' if hidden else 'race reported'}, "
                "as on the text line",
                f".long {lw} {lraces}, text {tx}; want (exit, races, suppressed, totals line) {want}")


# Tensile's GSU synchronizer: only the workgroup whose s_atomic_dec returns
# 1 reduces, and with GSU == 1 it skips the wait: a race only when the
# atomic's value is unknown (the atomic-counter assumption rules it out).
GSU = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.type k,@function
k:
  s_load_dword s50, s[0:1], 0x58
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s51, s50, 1
  s_atomic_dec s51, s[24:25], 0x0 glc
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s51, 1
  s_cbranch_scc0 .Ldone
  buffer_load_dword v1, v2, s[4:7], 0 offen
  s_cmp_eq_u32 s50, 1
  s_cbranch_scc1 .Lread
  s_waitcnt vmcnt(0)
.Lread:
  v_mov_b32 v3, v1
.Ldone:
  s_endpgm
"""


def long_inline_assume(a, tmp, R):
    """`kwgen-verify: assume atomic-counters` kept with the kernel: in the
    `.long` form as in its text, the race the protocol rules out is gone and
    the answer says the assumption came from that line and ruled out one
    finding (JSON "assumptions", the totals line); without the comment the
    race is reported and nothing is assumed."""
    obj = os.path.join(tmp, "gsu.o")
    ok, why = assemble(GSU, obj, tmp)
    if not ok:
        R.fail(".long inline assume: assemble", why)
        return
    code = text_bytes(obj)[".text"]
    words = ["\t.long 0x%08X" % struct.unpack_from("<I", code, off) for off in range(0, len(code), 4)]
    head = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", ".globl k", ".type k,@function", "k:"]
    runs = []
    for what, comment in (("with the comment", "// kwgen-verify: assume atomic-counters"), ("without", "")):
        for form, lines in ((".long", head + [comment] + words), ("text", GSU.split("\n")[:5] + [comment] +
                                                                 GSU.split("\n")[5:])):
            path = os.path.join(tmp, "gsu%d.%s.s" % (len(runs), form.strip(".")))
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            runs.append((what, comment, form, path))
    # the four files in one process per output form (each file's answer,
    # exit status and totals line its own)
    res, totals = verify_each(a, [path for _, _, _, path in runs])
    for what, comment, form, path in runs:
        rc, j, err = res[path]
        got = None
        if rc in (0, 1):
            got = (rc, j["totals"]["race_raw"], j["assumptions"]["atomic_counters"])
        last = totals.get(path, "")
        if comment:
            want = (0, 0, {"assumed": True, "from": "inline", "line": 6, "ruled_out": 1})
            said = "(kwgen-verify: assume atomic-counters at line 6): 1 finding ruled out" in last
        else:
            want = (1, 1, {"assumed": False, "from": None, "line": None, "ruled_out": 0})
            said = bool(last) and "assuming" not in last
        R.check(got == want and said, f"inline assume atomic-counters, {form} form, {what}: "
                f"{'no race, from inline line 6, 1 ruled out' if comment else 'the race, nothing assumed'}",
                f"got {got} / {last!r}; want {want}; stderr {(err or '').strip()[-200:]!r}")


# One load (line 2 of the body) read too early on two paths: one finding,
# at the first read, naming the other (kwgen/verify.h, also_lines).
TWO_READS = """.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.type k,@function
k:
  buffer_load_dword v1, v2, s[4:7], 0 offen
  buffer_load_dword v5, v2, s[4:7], 0 offen
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc1 .Lb
  s_waitcnt vmcnt(2)
  v_mov_b32 v3, v1
  s_endpgm
.Lb:
  buffer_load_dword v6, v2, s[4:7], 0 offen
  v_mov_b32 v4, v1
  s_endpgm
"""


def long_merged(a, tmp, R):
    """Two reads of one load on two paths are one finding in every form: in
    the text, the code object and its `.long` words (one word a line, a
    comment line between, so decoded and source lines differ), at the
    first read, with also_lines and the lines the fix names in the form's
    own lines."""
    obj = os.path.join(tmp, "merged.o")
    ok, why = assemble(TWO_READS, obj, tmp)
    if not ok:
        R.fail("one finding per load: assemble", why)
        return
    code = text_bytes(obj)[".text"]
    first = {off: None for off in range(0, len(code), 4)}
    lines = ['.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', ".text", ".globl k", ".type k,@function", "k:"]
    for off in range(0, len(code), 4):
        lines.append("// word at 0x%x" % off)
        lines.append("\t.long 0x%08X" % struct.unpack_from("<I", code, off))
        first[off] = len(lines)
    lw = os.path.join(tmp, "merged.long.s")
    with open(lw, "w") as f:
        f.write("\n".join(lines) + "\n")
    src = os.path.join(tmp, "merged.s")
    with open(src, "w") as f:
        f.write(TWO_READS)
    tl = TWO_READS.split("\n")
    reads = [i + 1 for i, l in enumerate(tl) if l.startswith("  v_mov_b32") and l.endswith(", v1")]
    uses = {"text": reads}
    forms = (("text", src), ("code object", obj), (".long words", lw))
    # the three forms in one process (each file's answer its own)
    res, _ = verify_each(a, [path for _, path in forms], text=False)
    for form, path in forms:
        rc, j, err = res[path]
        fs, err = (j["findings"] if j else None), (err or "")
        races = [f for f in fs or [] if f["code"] == "race_raw"]
        f = races[0] if len(races) == 1 else {}
        want = uses.get(form)
        if form == ".long words":
            # the source lines of the two reads' first words
            want = [first.get(code.find(encode([r.strip()]))) for r in (tl[n - 1] for n in reads)]
        ok = (rc == 1 and len(races) == 1 and f.get("producer_line") is not None
              and len(f.get("also_lines") or []) == 1 and f["line"] < f["also_lines"][0]
              and (want is None or [f["line"]] + f["also_lines"] == want)
              and f.get("needed") == 1
              and ("use vmcnt(1) in the last wait before line %d and wait for vmcnt(2) before line %d"
                   % (f["line"], f["also_lines"][0])) in f.get("message", "")
              and [(u["line"], u["needed"], u["have"], u["fix"]) for u in f.get("uses", [])]
              == [(f["line"], 1, 2, "in_last_wait"), (f["also_lines"][0], 2, None, "new_wait")]
              and ("also read at line %d" % f["also_lines"][0]) in f.get("message", ""))
        R.check(ok, f"one load read on two paths, {form}: one finding at the first read, also_lines naming the "
                    "other, a fix giving each its own count (uses: the same lines and counts)",
                f"exit {rc}, {races}, {err.strip()[-200:]!r}")


def zero_words(a, tmp, R):
    """Zero words inside a function: in a code object they are decoded and
    checked (v_cndmask_b32 on gfx942) unless they run to the next symbol
    (padding); a branch into zero words taken for padding (after s_branch)
    is refused in both forms, never a path quietly not followed."""
    head = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.text\n.globl k\n.type k,@function\nk:\n'
            "  buffer_load_dword v0, v2, s[4:7], 0 offen\n")
    cases = (("a branch over zero words that run on into code",
              "  s_cbranch_scc1 .Le\n  .long 0, 0\n.Le:\n  s_waitcnt vmcnt(0)\n  s_endpgm\n", 1, "v_cndmask_b32"),
             ("a branch into zero words after s_branch",
              "  s_branch .Lmid\n  .long 0\n.Lmid:\n  .long 0\n  v_mov_b32 v4, v0\n  s_endpgm\n", 2,
              "no instruction starts"))
    for what, body, want, says in cases:
        obj = os.path.join(tmp, "zero.o")
        ok, err = assemble(head + body, obj, tmp)
        if not ok:
            R.fail("zero words: " + what, "llvm-mc: " + err)
            continue
        rc, fs, err = verify(a, obj)
        text = err if want == 2 else json.dumps(fs)
        R.check(rc == want and says in text, f"code object, {what}: exit {want} ({says})",
                f"exit {rc}: {text.strip()[-300:]!r}")
        dis = os.path.join(tmp, "zero.dis.s")
        with open(dis, "w") as f:
            f.write(run(["llvm-objdump-22", "-d", "--mcpu=gfx942", obj], text=True).stdout)
        rc, fs, err = verify(a, dis, "--isa", "gfx942")
        # llvm-objdump elides the zero words ('...'): that text is refused
        R.check(rc == 2 and ("elided" in err or "no instruction starts" in err),
                f"llvm-objdump text, {what}: exit 2 (code not shown)", f"exit {rc}: {err.strip()[-300:]!r}")


def cpu_seconds():
    """CPU of this process and of the children it waited for: each group's
    cpu figure (the tools and kwgen runs it made)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    a = ap.parse_args()
    R = Results("verify-inputs")
    if not shutil.which(LLVM_MC):
        R.skip("every check", f"{LLVM_MC} not installed (llvm-22)")
    else:
        with tempfile.TemporaryDirectory(prefix="kwgen-inputs-") as tmp:
            for group in (nothing_checked, symbol_injection, linked, linked_nop_fill, long_words,
                          long_inline_allow, long_inline_assume, long_merged, memory_bounds,
                          repeat_directives, streamed, zero_words):
                c0 = cpu_seconds()
                group(a, tmp, R)
                print("        (%s: cpu %.2f s)" % (group.__name__, cpu_seconds() - c0), flush=True)
    R.line()
    return R.status()


if __name__ == "__main__":
    sys.exit(main())
