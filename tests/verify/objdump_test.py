#!/usr/bin/env python3
"""The same findings at the same instructions in all three input forms.

For every clang -S file in tests/verify/llvm, every case written in clang
syntax (tests/verify/cases) and a sample of mutants (mutants.py):

  1. assemble it:    llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=ISA -filetype=obj
  2. disassemble it: llvm-objdump-22 -d   (objdump form: no labels, branch
                     targets only in <sym+0xOFF> comments)
  3. map every instruction line of the .s to its objdump line (per function,
     in order; the mnemonics must agree) and so to its byte offset;
  4. run `kwgen verify --json` on the .s, on the objdump text, on the
     object file itself (decoded by libkwgen-codeobj with LLVM's
     disassembler) and on the object linked with ld.lld-22 -shared (a
     .hsaco-like code object at another address; the compiler's kernels and
     the mutants linked up to 48 of one ISA together, the cases alone), and
     compare the findings
     as sets of (code, offset, mnemonic) (function and offset in it for the
     linked one).  The code-object decoding must also equal llvm-objdump's
     text (line for line, `codeobj_dump`).

  objdump_test.py --kwgen build/kwgen [--codeobj-dump build/tests/codeobj_dump]
                  [--mutants N] [--jobs 2] [--text-forms-only]

--text-forms-only compares the .s and the objdump text alone (step 4
without the object file; no malformed code objects, no linking, no
one-object llvm-objdump check): for a fault in the text forms
(tests/selftest), not for the suite.
Last line: 'verify-forms: N passed, N failed, N skipped'.
"""
import argparse, gzip, json, os, re, resource, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
from checks import Results, sanitizer_report  # noqa: E402
import elf as tiny_elf  # noqa: E402
import batch as B  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")
LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
LD_LLD = os.environ.get("LD_LLD", "ld.lld-22")
MCPU = {"gfx940": "gfx942", "gfx941": "gfx942"}

LABEL = re.compile(r"^([.\w$]+):")
INST = re.compile(r"^\s+([a-z][a-z0-9_]*)\b")
DIS_SYM = re.compile(r"^([0-9a-f]{16}) <(.+)>:\s*$")
DIS_INST = re.compile(r"^\t(\S+).*?// ([0-9A-F]{12}):")


def strip_comment(s):
    for c in (";", "//"):
        i = s.find(c)
        if i >= 0:
            s = s[:i]
    return s


def s_instructions(text):
    """clang -S text -> {function: [(line, mnemonic)]} in order (code labels = functions)."""
    funcs, cur = {}, None
    for n, raw in enumerate(text.split("\n"), 1):
        s = strip_comment(raw)
        if not s.strip():
            continue
        m = LABEL.match(s)
        if m and not s[0].isspace():
            name = m.group(1)
            if name.startswith(".Lfunc_end"):
                cur = None
            elif not name.startswith("."):
                cur = None if name.startswith(("amdhsa", "amdgpu")) else funcs.setdefault(name, [])
            continue
        if cur is None or s.lstrip().startswith("."):
            continue
        m = INST.match(s)
        if m:
            cur.append((n, m.group(1)))
    return funcs


def dis_instructions(text):
    """objdump text -> ({function: [(line, mnemonic, offset)]}, {line: (offset, mnemonic)})."""
    funcs, cur, by_line = {}, None, {}
    for n, raw in enumerate(text.split("\n"), 1):
        m = DIS_SYM.match(raw)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = DIS_INST.match(raw)
        if m and cur is not None:
            off = int(m.group(2), 16)
            cur.append((n, m.group(1), off))
            by_line[n] = (off, m.group(1))
    return funcs, by_line


def func_rel(d_text):
    """objdump text -> {offset: (function, offset - function start, mnemonic)}."""
    out, cur, start = {}, None, 0
    for raw in d_text.split("\n"):
        m = DIS_SYM.match(raw)
        if m:
            cur, start = m.group(2), int(m.group(1), 16)
            continue
        m = DIS_INST.match(raw)
        if m and cur is not None:
            off = int(m.group(2), 16)
            out[off] = (cur, off - start, m.group(1))
    return out


def line_map(s_text, d_text, dis=None):
    """.s line -> (offset, mnemonic), or an error string.  dis: what
    dis_instructions(d_text) gives, when the caller has it already."""
    sf = s_instructions(s_text)
    df, _ = dis if dis is not None else dis_instructions(d_text)
    out = {}
    for f, insts in sf.items():
        if not insts:
            continue
        if f not in df:
            return None, f"function {f} not in the disassembly"
        d = df[f]
        j = 0
        for ln, mn in insts:
            # .p2align padding: s_nop instructions the .s does not spell out
            while j < len(d) and d[j][1] != mn and d[j][1] == "s_nop" and mn != "s_nop":
                j += 1
            if j >= len(d):
                return None, f"{f}: line {ln} {mn} has no disassembled instruction"
            dl, dmn, off = d[j]
            if mn != dmn:
                return None, f"{f}: line {ln} {mn} disassembles as {dmn} (offset 0x{off:x})"
            out[ln] = (off, dmn)
            j += 1
        for dl, dmn, off in d[j:]:
            if dmn not in ("s_nop", "s_code_end"):
                return None, f"{f}: extra instruction {dmn} at 0x{off:x} after the last .s instruction"
    return out, None


def run(cmd, timeout=120, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=timeout, **kw)


def keyset(fs, where):
    """findings -> set of (code, offset, mnemonic) with where(finding) -> (offset, mnemonic) or None."""
    out, unmapped = set(), []
    for f in fs:
        k = where(f)
        if k is None:
            unmapped.append(f)
        else:
            out.add((f.get("code"), k[0], k[1]))
    return out, unmapped


COMPARED = {"s_objdump": 0, "codeobj_objdump": 0}


def pmap(a, fn, seq):
    with ThreadPoolExecutor(a.jobs) as ex:
        return list(ex.map(fn, seq))


def verify_all(a, jobs):
    """jobs: [(key, isa or None, path)] -> {key: (findings, error)}: `kwgen
    verify --json-lines` on chunks of the files with the same --isa."""
    by = {}
    for key, isa, path in jobs:
        by.setdefault(isa, []).append((key, path))
    # code objects (no --isa) load libLLVM once per process (~80 ms): as
    # many processes as jobs; text files in chunks of B.CHUNK
    tasks = [(isa, part) for isa, lst in sorted(by.items(), key=lambda x: str(x[0]))
             for part in B.chunks(lst, B.CHUNK if isa else max(B.CHUNK, -(-len(lst) // a.jobs)))]
    out = {}
    for (isa, part), res in zip(tasks, pmap(a, lambda t: B.verify_many(a.kwgen, [p for _, p in t[1]], t[0],
                                                                        a.timeout, chunk=len(t[1])), tasks)):
        for (key, _), (fs, _, err) in zip(part, res):
            out[key] = (fs, err)
    return out


def codeobj_dump_all(a, paths):
    """codeobj_dump --each on chunks: {path: (status, text or message)}."""
    def one_chunk(part):
        p = run([a.codeobj_dump, "--each"] + part)
        data, at, res = p.stdout, 0, {}
        for path in part:
            m = re.compile(rb"KWDUMP (\d+) (\d+) ([^\n]*)\n").match(data, at)
            if not m or m.group(3).decode() != path:
                res[path] = (2, f"codeobj_dump --each: no answer for {path}: {p.stderr.decode()[-200:]}")
                continue
            n = int(m.group(2))
            res[path] = (int(m.group(1)), data[m.end():m.end() + n].decode())
            at = m.end() + n
        return res
    out = {}
    # libLLVM loaded once per process: as many processes as jobs
    for r in pmap(a, one_chunk, B.chunks(paths, max(B.CHUNK, -(-len(paths) // a.jobs)))):
        out.update(r)
    return out


def phase(name, c0):
    """Print the CPU of a phase of all_forms (this process and the children
    it waited for; tools run by a zygote count when it stops, at exit) and
    return the figure now."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    now = s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
    if name:
        print(f"        ({name}: cpu {now - c0:.2f} s)", flush=True)
    return now


def all_forms(a, items, tmp):
    """Every item in every form, many files per process (tests/verify/batch.py):
    -> [list of (ok, what, why) per item], the same checks, in the same
    order, as one process per file and form."""
    res = [[] for _ in items]
    st = [dict(name=it["id"], isa=it["isa"], text=it["text"], alive=True) for it in items]
    for k, s in enumerate(st):
        base = os.path.join(tmp, "%04d_" % k + re.sub(r"[^\w.-]", "_", s["name"]))
        s.update(s_path=base + ".s", o_path=base + ".o", d_path=base + ".dis.s", co=base + ".co")
        with open(s["s_path"], "w") as f:
            f.write(s["text"])

    c0 = phase(None, None)
    # 1. assemble (llvm-mc takes one file)
    def assemble(s):
        return B.assemble(s["s_path"], s["o_path"], MCPU.get(s["isa"], s["isa"]), a.cache)
    for k, (s, (rc, err)) in enumerate(zip(st, pmap(a, assemble, st))):
        if rc != 0:
            res[k] = [(False, f"{s['name']}: assemble", err[-300:])]
            s["alive"] = False
    live = [s for s in st if s["alive"]]

    c0 = phase("assemble", c0)
    # 2. disassemble, many objects per llvm-objdump; the first object of
    #    each e_flags group also alone: the same text
    dis = B.objdump_many([s["o_path"] for s in live], cache=a.cache)
    firsts = {}
    for s in live:
        firsts.setdefault(B.e_flags(s["o_path"]), s)
    alone_checks = []
    for s, (t1, e1) in zip(firsts.values(), [] if a.text_only else
                           pmap(a, lambda s: B.objdump_one(s["o_path"]), list(firsts.values()))):
        t, e = dis[s["o_path"]]
        alone_checks.append((t1 is not None and t == t1,
                             f"{s['name']}: llvm-objdump -d of its e_flags group in one process prints "
                             f"what it prints alone", e1 or e or ""))
    for s in live:
        k = st.index(s)
        d_text, e = dis[s["o_path"]]
        if e is not None:
            res[k] = [(False, f"{s['name']}: disassemble", e)]
            s["alive"] = False
            continue
        with open(s["d_path"], "w") as f:
            f.write(d_text)
        s["d_text"] = d_text
        s["d_dis"] = dis_instructions(d_text)
        lm, err = line_map(s["text"], d_text, s["d_dis"])
        if err:
            res[k] = [(False, f"{s['name']}: .s to objdump instruction map", err)]
            s["alive"] = False
            continue
        s["lm"] = lm
        s["d_by_line"] = s["d_dis"][1]
    live = [s for s in st if s["alive"]]

    c0 = phase("disassemble", c0)
    # 3. libkwgen-codeobj's decoding of every object
    if a.codeobj_dump:
        dumps = codeobj_dump_all(a, [s["o_path"] for s in live])
        for s in live:
            rc, body = dumps[s["o_path"]]
            # after the instructions kwgen's decoder names the functions and
            # kernels (`.type NAME,@function`, `.amdhsa_kernel NAME`)
            mine = re.sub(r"(?m)^\t\.(type|amdhsa_kernel) .*\n?", "", body) if rc == 0 else ""
            same = rc == 0 and mine.split("\n")[2:] == s["d_text"].split("\n")[2:]
            why = body[-200:] if rc else ""
            if not same and not why:
                diff = [(x, y) for x, y in zip(mine.split("\n"), s["d_text"].split("\n")) if x != y][:1]
                why = f"first difference: {diff}"
            res[st.index(s)].append((same, f"{s['name']}: code-object decoding equals llvm-objdump -d", why))

    c0 = phase("codeobj_dump", c0)
    # 4. kwgen verify: the .s and the objdump text with --isa, the object
    #    without (the ISA from e_flags)
    jobs = [((k, "s"), s["isa"], s["s_path"]) for k, s in enumerate(st) if s["alive"]]
    jobs += [((k, "d"), s["isa"], s["d_path"]) for k, s in enumerate(st) if s["alive"]]
    jobs += [((k, "o"), None, s["o_path"]) for k, s in enumerate(st) if s["alive"] and not a.text_only]
    v = verify_all(a, jobs)
    for k, s in enumerate(st):
        if not s["alive"]:
            continue
        name, r = s["name"], res[k]
        (fs_s, e1), (fs_d, e2), (fs_o, e3) = v[(k, "s")], v[(k, "d")], v.get((k, "o"), (None, None))
        for e, form in ((e1, ".s"), (e2, "objdump"), (e3, "code object")):
            if e:
                r.append((False, f"{name}: verify {form}", e))
        if e1 or e2:
            s["alive"] = False
            continue
        lm, d_by_line = s["lm"], s["d_by_line"]
        ks, us = keyset(fs_s, lambda f: lm.get(f.get("line")))
        kd, ud = keyset(fs_d, lambda f: d_by_line.get(f.get("line")))
        why = []
        if us or ud:
            why.append(f"findings on lines with no instruction: .s {[(f.get('line'), f.get('code')) for f in us][:3]} "
                       f"objdump {[(f.get('line'), f.get('code')) for f in ud][:3]}")
        if ks != kd:
            why.append(f"only .s: {sorted(ks - kd)[:4]} only objdump: {sorted(kd - ks)[:4]}")
        COMPARED["s_objdump"] += len(ks)
        r.append((not why, f"{name}: .s and objdump form agree ({len(ks)} findings)", "; ".join(why)))
        s["fs_d"] = fs_d
        if fs_o is None:
            s["alive"] = False
            continue
        # the code object's findings name the byte offset; the mnemonic
        # is the instruction at that offset in the objdump text
        by_off = {off: mn for off, mn in d_by_line.values()}
        ko, uo = keyset(fs_o, lambda f: (f["offset"], by_off.get(f["offset"]))
                        if isinstance(f.get("offset"), int) and f["offset"] >= 0 else None)
        why = []
        if uo:
            why.append(f"findings without a byte offset: {[(f.get('line'), f.get('code')) for f in uo][:3]}")
        if ko != kd:
            why.append(f"only objdump: {sorted(kd - ko)[:4]} only code object: {sorted(ko - kd)[:4]}")
        COMPARED["codeobj_objdump"] += len(ko)
        r.append((not why, f"{name}: code object and objdump form agree", "; ".join(why)))
    c0 = phase("verify", c0)
    if not a.link or a.text_only:
        return res, alone_checks

    # 5. a linked (ET_DYN, .hsaco-like) code object: addresses move, the
    #    findings stay at the same instruction of the same function.  The
    #    compiler's kernels and their mutants (functions typed
    #    @function) of one e_flags whose functions have different names
    #    are linked together, many kernels in one code object as shipped
    #    (one ld.lld-22 run, one decode for up to 48 objects, each function
    #    elsewhere than in its own object); the cases (labels, no
    #    @function: in a code object with typed functions they would be
    #    the code after another kernel) and a group that does not link (a
    #    global symbol in two objects) are linked one object at a time.
    live = [s for s in st if s["alive"]]
    groups = []
    for s in live:
        s["funcs"] = set(s["d_dis"][0])
        ef = B.e_flags(s["o_path"])
        together = s["name"].startswith(("llvm/", "mutant/"))
        g = next((g for g in groups if together and g["ef"] == ef and len(g["items"]) < 48
                  and not (g["names"] & s["funcs"])), None)
        if g is None:
            g = dict(ef=ef if together else None, items=[], names=set(),
                     co=os.path.join(tmp, "linked%03d.co" % len(groups)))
            groups.append(g)
        g["items"].append(s)
        g["names"] |= s["funcs"]
    for g, (rc, err) in zip(groups, pmap(a, lambda g: B.link_many([s["o_path"] for s in g["items"]], g["co"],
                                                                   a.cache), groups)):
        g["ok"] = rc == 0
    alone = [s for g in groups if not g["ok"] for s in g["items"]]
    for s, (rc, err) in zip(alone, pmap(a, lambda s: B.link(s["o_path"], s["co"], a.cache), alone)):
        if rc != 0:
            res[st.index(s)].append((False, f"{s['name']}: link with {LD_LLD}", err[-300:]))
            s["alive"] = False
    # (code object, the items in it)
    linked = [(g["co"], g["items"]) for g in groups if g["ok"]] + [(s["co"], [s]) for s in alone if s["alive"]]
    co_dis = B.objdump_many([co for co, _ in linked], cache=a.cache)
    v = verify_all(a, [(co, None, co) for co, _ in linked])
    for co, items in linked:
        fs_all, e4 = v[co]
        co_text = co_dis[co][0] or ""
        rel_c = func_rel(co_text)
        for s in items:
            k, name = st.index(s), s["name"]
            if e4:
                res[k].append((False, f"{name}: verify linked code object", e4))
                continue
            # this object's findings: those in its functions (and any outside
            # every function, which fail each object of the code object)
            fs_c = [f for f in fs_all if rel_c.get(f.get("offset"), (None,))[0] in s["funcs"]
                    or rel_c.get(f.get("offset"), (None,))[0] is None]
            d_by_line, fs_d = s["d_by_line"], s["fs_d"]
            rel_o = func_rel(s["d_text"])
            kc = set((f.get("code"),) + rel_c.get(f.get("offset"), (None, None, None)) for f in fs_c)
            kd2 = set((f.get("code"),) + rel_o.get(d_by_line[f["line"]][0], (None, None, None))
                      for f in fs_d if f.get("line") in d_by_line)
            why = "" if kc == kd2 else \
                f"only objdump: {sorted(kd2 - kc, key=str)[:3]} only linked: {sorted(kc - kd2, key=str)[:3]}"
            res[k].append((not why, f"{name}: linked code object agrees (same function, same instruction"
                                    f"{', linked with %d other objects' % (len(items) - 1) if len(items) > 1 else ''})",
                           why))
    phase("link", c0)
    return res, alone_checks


def bad_code_objects(a, tmp, R):
    """Malformed or foreign ELF files: `kwgen verify` exits 2 with a message
    that says why, never crashes (no sanitizer report)."""
    src = os.path.join(tmp, "bad.s")
    with open(src, "w") as f:
        f.write(gzip.open(os.path.join(a.root, "llvm", "gfx942", "aos_loads.s.gz"), "rt").read())
    obj = os.path.join(tmp, "bad.o")
    # (the tool cache holds it: make test's build step assembled the corpus)
    rc, err = B.assemble(src, obj, "gfx942", a.cache)
    if rc:
        R.fail("malformed code objects", "llvm-mc: " + err[-200:])
        return
    good = open(obj, "rb").read()
    unknown = bytearray(good)
    unknown[48] = 0x7f  # e_flags: an EF_AMDGPU_MACH kwgen does not model
    host = open(sys.executable, "rb").read(1 << 16) if open(sys.executable, "rb").read(4) == b"\x7fELF" else None
    cases = [("ELF magic only", b"\x7fELF", "ELF"),
             ("header cut at 40 bytes", good[:40], "ELF"),
             ("cut in half", good[:len(good) // 2], ""),
             ("unknown AMDGPU machine", bytes(unknown), "0x7f"),
             ("sections past the end", good[:64], "")]
    if host:
        cases.append(("a host executable", host, "EM_AMDGPU"))
    # minimal hand-made code objects (no symbol table): the one whose 16
    # .text bytes crash LLVM 22's AMDGPU disassembler (a NULL read in
    # Twine::printOneChild) is decoded in a child process and refused; the
    # one with a plain s_endpgm decodes (LLVM's C API gives a NULL symbol
    # iterator for an object without symbols)
    tiny = [("disassembler-crashing bytes", tiny_elf.CRASH_GFX942, (2,), "crashed"),
            ("no symbol table", bytes.fromhex("000081bf"), (0, 1), "")]
    # all of them in one `kwgen verify --json-lines` process (each line is
    # what `kwgen verify --json FILE` answers alone, with its own exit
    # status and message: tests/cli checks that; batch.py): one process
    # loads libLLVM once, not once per file
    files = []
    for what, data, must in cases:
        files.append((f"code object {what}: exit 2 with a message", data, (2,), must, False))
    for what, text, want_rc, must in tiny:
        files.append((f"code object, {what}: exit {'/'.join(map(str, want_rc))}", tiny_elf.elf(text), want_rc,
                      must, want_rc == (0, 1)))
    paths = []
    for k, (_, data, _, _, _) in enumerate(files):
        paths.append(os.path.join(tmp, "bad%02d.co" % k))
        with open(paths[-1], "wb") as f:
            f.write(data)
    p = subprocess.run([a.kwgen, "verify", "--json-lines", "--"] + paths, capture_output=True, text=True, timeout=60)
    san = sanitizer_report(p.stderr)
    lines = p.stdout.splitlines()
    for k, (what, _, want_rc, must, one_inst) in enumerate(files):
        try:
            j = json.loads(lines[k]) if len(lines) == len(paths) and not san else None
        except ValueError:
            j = None
        if j is None or j.get("file") != paths[k]:
            R.fail(what, f"process exit {p.returncode}, {len(lines)} lines for {len(paths)} files, "
                         f"stderr {p.stderr.strip()[-200:]!r}{' ' + san if san else ''}")
            continue
        rc, msg = j.get("exit"), j.get("error") or ""
        ok = rc in want_rc and must in msg and (rc != 2 or msg.strip())
        if ok and one_inst:
            ok = j.get("stats", {}).get("instructions") == 1
        R.check(ok, what, f"exit {rc}, error {msg.strip()[-200:]!r}")
    p = subprocess.run([a.kwgen, "verify", "--isa", "gfx942", "--json", obj], capture_output=True,
                       text=True, timeout=60)
    R.check(p.returncode in (0, 1) and json.loads(p.stdout)["isa"] == "gfx942",
            "code object with --isa given", p.stderr[-200:])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--codeobj-dump", help="tool printing a code object through libkwgen-codeobj")
    ap.add_argument("--root", default=HERE)
    ap.add_argument("--mutants", type=int, default=40, help="also check this many mutants (0 = none)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tool-cache", help="keep the outputs of llvm-mc, llvm-objdump and ld.lld here (batch.py)")
    ap.add_argument("--text-forms-only", dest="text_only", action="store_true",
                    help="only the .s and the objdump text (no code-object forms, no malformed objects)")
    a = ap.parse_args()
    a.cache = B.ToolCache(a.tool_cache)
    R = Results("verify-forms")
    a.link = bool(shutil.which(LD_LLD))
    if not a.link and not a.text_only:
        R.skip("linked code objects", f"{LD_LLD} not installed (scripts/deps/core.txt: lld-22)")
    for tool in (LLVM_MC, LLVM_OBJDUMP):
        if not shutil.which(tool):
            R.skip("assembled forms", f"{tool} not installed (scripts/deps/core.txt: llvm-22)")
            R.finish()
    if not os.access(a.kwgen, os.X_OK):
        R.fail("kwgen", f"{a.kwgen} is not built")
        R.finish()
    items = []
    llvm = os.path.join(a.root, "llvm")
    texts = {}
    for isa in sorted(os.listdir(llvm)):
        d = os.path.join(llvm, isa)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".s.gz"):
                with gzip.open(os.path.join(d, f), "rt") as fh:
                    t = fh.read()
                texts[f"llvm/{isa}/{f}"] = t
                items.append(dict(id=f"llvm/{isa}/{f[:-5]}", isa=isa, text=t))
    with open(os.path.join(a.root, "cases", "cases.jsonl")) as fh:
        for line in fh:
            c = json.loads(line)
            if c["file"].endswith(".dis.s") or not c.get("assembles", True):
                continue
            with gzip.open(os.path.join(a.root, "cases", c["file"] + ".gz"), "rt") as g:
                items.append(dict(id="cases/" + c["file"], isa=c["isa"], text=g.read()))
    if a.mutants:
        import mutants as M
        ms = [m for m in M.all_candidates([(rel.split("/")[1], rel, t) for rel, t in sorted(texts.items())],
                                          a.tool_cache) if m["label"] in ("harmful", "benign")]
        ms = M.pick_short(ms, 1)
        ms.sort(key=lambda m: __import__("hashlib").sha1(m["id"].encode()).hexdigest())
        for m in ms[:a.mutants]:
            items.append(dict(id="mutant/" + m["id"], isa=m["isa"], text=M.mutant_text(texts[m["base"]], m)))
    tmp = tempfile.mkdtemp(prefix="kwgen-verify-forms-")
    try:
        if not a.text_only:
            bad_code_objects(a, tmp, R)
        res, alone = all_forms(a, items, tmp)
        for r in res:
            for ok, what, why in r:
                R.check(ok, what, why)
        for ok, what, why in alone:
            R.check(ok, what, why)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"findings compared at the same instruction: .s vs objdump {COMPARED['s_objdump']}, "
          f"code object vs objdump {COMPARED['codeobj_objdump']} ({len(items)} inputs)")
    if a.cache.d:
        print(f"tool outputs read from {a.tool_cache}: {a.cache.hits}, made: {a.cache.misses}")
    R.finish()


if __name__ == "__main__":
    main()
