#!/usr/bin/env python3
"""check-asm: assemble every non-empty asm that kwgen prints for the golden
requests with llvm-mc and check it against kwgen's diagnostics.

For each answer with a non-empty `asm`:
  * it assembles, and carries none of the assembler diagnostics below, or
  * it does not assemble, every llvm-mc error is classified (mapped to one of
    the codes below by its message and operands), and kwgen carries at least
    one of the codes the errors map to:
      instruction_not_on_isa, register_out_of_range, vgpr_pair_misaligned
Anything else (rejected without such a diagnostic, an llvm-mc error this
script cannot classify, or such a diagnostic on output that assembles) is a
failure.  A diagnostic whose message says "llvm-mc does not check this" (a
gfx1250 VGPR past v1023, written as a banked operand llvm-mc accepts) is
checked for what it claims: the ISA has s_set_vgpr_msb banks (gfx1250), the
register it names is past the ISA's VGPRs, and llvm-mc accepts the output.
kwgen --batch must exit 0 with no sanitizer report.

Assembly: `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=<isa>` (gfx940/gfx941 are
assembled as gfx942: LLVM 20+ folded them into gfx942).  Symbols are defined
with `.set` before each snippet: vgpr<Name> = the request's vgprIdx[Name] or 0,
sgpr<Name> = 16 (keeps 64-bit SGPR pairs even).  Identical (isa, symbols, asm)
snippets are assembled once; the unique snippets of an ISA are concatenated
into a few llvm-mc runs, and error line numbers are mapped back to snippets.

Usage: python3 tests/golden/check_asm.py [--kwgen build/kwgen] [--oracle] [-j N] [-v]
                                         [--only SUBSTR] [--data DIR]
  -v         list every llvm-mc rejection (isa, mnemonic, message, code, example);
             also printed with --oracle and whenever something fails
  --oracle   check the oracle's answers (tests/golden/answers.jsonl.gz) instead
             of running kwgen; they carry no diagnostics, so every rejected
             output is listed (that is how the rejection list in README.md was made)
Env: KWGEN, LLVM_MC.  Stdlib only.
"""
import argparse
import collections
import concurrent.futures
import gzip
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import kwgen_batch  # noqa: E402
import zygote  # noqa: E402
ASM_CODES = ("instruction_not_on_isa", "register_out_of_range", "vgpr_pair_misaligned")
MCPU_ALIAS = {"gfx940": "gfx942", "gfx941": "gfx942"}
SYM_RE = re.compile(r"\b([vs]gpr[A-Za-z_]\w*)")
ERR_RE = re.compile(r"^<stdin>:(\d+):(\d+): error: (.*)$")
CHUNK = 400  # snippets per llvm-mc run


VREG_RE = re.compile(r"(?<![\w\]])v(?:\[([^\]:]+)(?::([^\]]+))?\]|(-?\d+))")
SET_RE = re.compile(r"^\.set (\w+), (-?\d+)$", re.M)
WIDE_RE = re.compile(r"_(?:b|f|i|u)64\b")


def eval_expr(expr, syms):
    """Value of a register expression such as `vgprValuC+16-256` (None if unknown)."""
    text = re.sub(r"[A-Za-z_]\w*", lambda m: str(syms.get(m.group(0), "x")), expr)
    if not re.fullmatch(r"[-+\d\s]+", text):
        return None
    try:
        return int(eval(text, {"__builtins__": {}}))  # digits and +/- only
    except (SyntaxError, ValueError):
        return None


def classify(inst, msg, syms):
    """Which kwgen diagnostic code explains an llvm-mc error (None = cannot tell)."""
    if "not supported on this GPU" in msg or "instruction not supported" in msg:
        return "instruction_not_on_isa"
    if "64 bit aligned" in msg:
        return "vgpr_pair_misaligned"
    if "out of range" in msg or "invalid register index" in msg:
        return "register_out_of_range"
    if "invalid operand" in msg:
        wide = bool(WIDE_RE.search(inst.split()[0] if inst.split() else ""))
        found = None
        for lo_e, hi_e, single in VREG_RE.findall(inst):
            lo = eval_expr(single or lo_e, syms)
            if lo is None:
                continue
            if lo < 0 or lo > 255:
                return "register_out_of_range"
            hi = eval_expr(hi_e, syms) if hi_e else lo
            if wide and hi is not None and hi == lo + 1 and lo % 2:
                found = "vgpr_pair_misaligned"
        return found
    return None


DATA = HERE   # --data: where requests.jsonl.gz and answers.jsonl.gz are


def load_gz(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        # line by line: read() and split cost twice the CPU
        return [t.rstrip("\n") for t in f if t.strip()]


def isa_name(isa):
    if isinstance(isa, list) and len(isa) == 3:
        return "gfx%d%d%s" % (isa[0], isa[1], "0123456789abcdef"[isa[2] % 16])
    return str(isa).lower()


SYMS = {}


def symbols_block(text, vgpr_idx):
    # the symbols of each distinct asm found once: most asm texts are
    # printed by many answers (14,910 outputs, far fewer distinct texts)
    syms = SYMS.get(text)
    if syms is None:
        syms = SYMS[text] = sorted(set(SYM_RE.findall(text)))
    out = []
    for s in syms:
        if s.startswith("v"):
            v = vgpr_idx.get(s[4:], 0) if isinstance(vgpr_idx, dict) else 0
        else:
            v = 16
        out.append(".set %s, %d\n" % (s, int(v)))
    return "".join(out)


class Snippet:
    __slots__ = ("mcpu", "src", "errors", "ok", "users", "syms", "_causes")

    def __init__(self, mcpu, src):
        self.mcpu, self.src = mcpu, src
        self.errors = []   # (instruction text, llvm-mc message)
        self.ok = None
        self.users = []    # indices of the answers that printed it
        self.syms = {m.group(1): int(m.group(2)) for m in SET_RE.finditer(src)}
        self._causes = None

    def causes(self):
        """Set of diagnostic codes that explain the errors; None in it = unknown
        (worked out once: a snippet printed by many answers is asked often)."""
        if self._causes is None:
            self._causes = {classify(inst, msg, self.syms) for inst, msg in self.errors}
        return self._causes


def run_mc(mc, mcpu, src):
    """llvm-mc on src (stdin): -> (exit status, stderr text).  From the tool
    zygote when make sets KWGEN_TOOL_ZYGOTE (tests/lib/zygote.py: libLLVM
    loaded once per thread, not per run)."""
    rc, _, err = zygote.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + mcpu, "-o", "/dev/null"],
                            timeout=600, input=src.encode())
    return rc, err.decode("utf-8", "replace")


def parse_errors(stderr):
    for ln in stderr.split("\n"):
        m = ERR_RE.match(ln)
        if m:
            yield int(m.group(1)), m.group(3)


def assemble_one(mc, snip):
    rc, err = run_mc(mc, snip.mcpu, snip.src)
    lines = snip.src.split("\n")
    snip.errors = [(lines[n - 1].split("//")[0].strip() if 0 < n <= len(lines) else "?", msg)
                   for n, msg in parse_errors(err)]
    if rc != 0 and not snip.errors:
        snip.errors = [("?", err.strip()[:300] or "llvm-mc exit %d" % rc)]
    snip.ok = rc == 0


def assemble_chunk(mc, snips):
    """Assemble many snippets in one llvm-mc run; fall back to one run per
    snippet when an error cannot be attributed."""
    parts, starts, line = [], [], 1
    for s in snips:
        marker = "// ---- snippet %d\n" % len(starts)
        starts.append(line)
        parts.append(marker + s.src)
        line += (marker + s.src).count("\n")
        if not s.src.endswith("\n"):
            parts.append("\n")
            line += 1
    src = "".join(parts)
    rc, err = run_mc(mc, snips[0].mcpu, src)
    all_lines = src.split("\n")
    found = collections.defaultdict(list)
    import bisect
    for n, msg in parse_errors(err):
        k = bisect.bisect_right(starts, n) - 1
        inst = all_lines[n - 1].split("//")[0].strip() if 0 < n <= len(all_lines) else "?"
        found[k].append((inst, msg))
    if rc != 0 and not found:
        for s in snips:
            assemble_one(mc, s)
        return len(snips) + 1
    for k, s in enumerate(snips):
        s.errors = found.get(k, [])
        s.ok = not s.errors
    return 1


def get_answers(opts, reqs):
    if opts.oracle:
        return [json.loads(t) for t in load_gz("answers.jsonl.gz")], "oracle answers"
    out, err, problems = kwgen_batch(opts.kwgen, reqs, opts.timeout, "check-asm")
    if problems:
        sys.stderr.write(err.decode("utf-8", "replace")[-2000:])
        print("check-asm: %s" % "; ".join(problems))
        print("check-asm: 0 passed, 1 failed")
        sys.exit(1)
    answers = []
    for t in out:
        try:
            a = json.loads(t)
        except ValueError:
            a = {"error": "not JSON"}
        answers.append(a if isinstance(a, dict) else {"error": "not an object"})
    return answers, opts.kwgen


UNCHECKED_TEXT = "llvm-mc does not check"
MSB_ISAS = {"gfx1250": 1024}   # ISAs with s_set_vgpr_msb banks: VGPRs addressable
PAST_RE = re.compile(r"^v(\d+)\b.* is past the (\d+) VGPRs (\w+) can address")


def diag_codes(ans):
    """(codes, unchecked): the diagnostics that mean "llvm-mc rejects this",
    and those that say llvm-mc does not check them.  On gfx1250 a VGPR past
    v1023 is written as a banked operand the assembler accepts (the bank
    overflows s_set_vgpr_msb's 2-bit fields, which llvm-mc does not check);
    kwgen says so in the message; main() verifies that claim."""
    codes, unchecked = [], []
    for d in ans.get("diagnostics") or []:
        if not isinstance(d, dict) or d.get("code") not in ASM_CODES:
            continue
        if UNCHECKED_TEXT in (d.get("message") or ""):
            unchecked.append(d)
            continue
        codes.append(d["code"])
    return codes, unchecked


def unchecked_claim_problem(isa, d, assembles):
    """Why a "llvm-mc does not check" diagnostic is not true (None = it is)."""
    msg = d.get("message") or ""
    if d.get("code") != "register_out_of_range":
        return "%s says %r but is not register_out_of_range" % (d.get("code"), UNCHECKED_TEXT)
    if isa not in MSB_ISAS:
        return "%s has no s_set_vgpr_msb banks, yet kwgen says %r" % (isa, UNCHECKED_TEXT)
    m = PAST_RE.match(msg)
    if not m:
        return "cannot read the register from %r" % msg[:120]
    reg, limit = int(m.group(1)), int(m.group(2))
    if limit != MSB_ISAS[isa] or reg < limit:
        return "v%d is not past the %d VGPRs of %s" % (reg, MSB_ISAS[isa], isa)
    if not assembles:
        return "kwgen says %r, but llvm-mc rejects the output" % UNCHECKED_TEXT
    return None


def mnemonic(inst):
    return inst.split()[0] if inst and inst != "?" else "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.environ.get("KWGEN", os.path.join(ROOT, "build", "kwgen")))
    ap.add_argument("--mc", default=os.environ.get("LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc"))
    ap.add_argument("--oracle", action="store_true", help="check the oracle's answers")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--show", type=int, default=8, help="failures to print in full")
    ap.add_argument("--per-snippet", action="store_true", help="one llvm-mc run per snippet (slow)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("-v", "--verbose", action="store_true", help="list the llvm-mc rejections")
    ap.add_argument("--only", help="only requests whose JSON contains this text")
    ap.add_argument("--data", default=HERE, metavar="DIR",
                    help="read requests.jsonl.gz and answers.jsonl.gz from DIR (default: this "
                         "directory; the self-tests pass a small extract)")
    opts = ap.parse_args()
    global DATA
    DATA = opts.data
    t0 = time.time()
    if not os.access(opts.mc, os.X_OK):
        sys.exit("check-asm: %s not found (LLVM_MC=...)" % opts.mc)

    reqs = load_gz("requests.jsonl.gz")
    if opts.only:
        if opts.oracle:
            sys.exit("check-asm: --only and --oracle do not combine")
        reqs = [r for r in reqs if opts.only in r]
    answers, what = get_answers(opts, reqs)

    snippets = {}
    per_answer = {}
    for i, (rt, ans) in enumerate(zip(reqs, answers)):
        asm = ans.get("asm")
        if not isinstance(asm, str) or not asm.strip():
            continue
        req = json.loads(rt)
        isa = isa_name(req.get("isa"))
        mcpu = MCPU_ALIAS.get(isa, isa)
        src = symbols_block(asm, req.get("vgprIdx") or {}) + asm
        key = (mcpu, src)
        s = snippets.get(key)
        if s is None:
            s = snippets[key] = Snippet(mcpu, src)
        s.users.append(i)
        per_answer[i] = (isa, s)

    by_cpu = collections.defaultdict(list)
    for s in snippets.values():
        by_cpu[s.mcpu].append(s)
    jobs = []
    for cpu, lst in sorted(by_cpu.items()):
        if opts.per_snippet:
            jobs += [[s] for s in lst]
        else:
            jobs += [lst[k:k + CHUNK] for k in range(0, len(lst), CHUNK)]
    runs = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        for n in ex.map(lambda ch: assemble_chunk(opts.mc, ch), jobs):
            runs += n

    # verdicts
    stats = collections.defaultdict(lambda: collections.Counter())
    failures = []
    causes = collections.OrderedDict()
    for i in sorted(per_answer):
        isa, s = per_answer[i]
        codes, unchecked = diag_codes(answers[i])
        claim = [p for p in (unchecked_claim_problem(isa, d, s.ok) for d in unchecked) if p]
        if claim and not s.ok:
            # a rejected output: the diagnostic must then explain the rejection
            codes += [d["code"] for d in unchecked]
            claim = [p for p in claim if "llvm-mc rejects" not in p]
        st = stats[isa]
        st["outputs"] += 1
        if s.ok:
            st["assembles"] += 1
        else:
            st["rejected"] += 1
            for inst, msg in s.errors:
                key = (isa, mnemonic(inst), msg, classify(inst, msg, s.syms))
                if key not in causes:
                    causes[key] = [0, inst, i]
                causes[key][0] += 1
        if claim:
            st["failed"] += 1
            failures.append((i, isa, s, codes + ["claim: " + "; ".join(claim)]))
        elif s.ok and not codes:
            st["passed"] += 1
        elif not s.ok and codes and None not in s.causes() and s.causes() & set(codes):
            st["passed"] += 1
            st["explained"] += 1
        else:
            st["failed"] += 1
            failures.append((i, isa, s, codes))

    isas = sorted(stats, key=lambda x: (len(x), x))
    print("output of %s, assembled with %s: %d outputs, %d unique snippets, %d llvm-mc runs"
          % (what, opts.mc, len(per_answer), len(snippets), runs))
    print("%-9s %8s %10s %9s %10s %8s %7s" % ("isa", "outputs", "assembles", "rejected",
                                              "explained", "passed", "failed"))
    for isa in isas:
        st = stats[isa]
        print("%-9s %8d %10d %9d %10d %8d %7d" % (isa, st["outputs"], st["assembles"],
              st["rejected"], st["explained"], st["passed"], st["failed"]))

    if causes and (opts.verbose or opts.oracle or failures):
        print("\nllvm-mc rejections (error lines; isa, mnemonic, message, code that explains it):")
        for (isa, mn, msg, code), (cnt, inst, i) in sorted(
                causes.items(), key=lambda kv: (str(kv[0][3]), kv[0][1], kv[0][0], kv[0][2])):
            src = json.loads(reqs[i]).get("source", "")
            print("  %-8s %-19s %-36s %-22s %5d  e.g. pair %d: %s  [%s]"
                  % (isa, mn, msg[:36], code or "?", cnt, i + 1, inst[:60], src[-50:]))
    if failures:
        print("\nfirst %d of %d failures:" % (min(opts.show, len(failures)), len(failures)))
        for i, isa, s, codes in failures[:opts.show]:
            req = json.loads(reqs[i])
            claims = [c for c in codes if c.startswith("claim: ")]
            if claims:
                why = claims[0]
            elif s.ok:
                why = "assembles, but kwgen reports %s" % ", ".join(codes)
            elif None in s.causes():
                why = "llvm-mc error this script cannot classify: %s" % "; ".join(
                    msg for inst, msg in s.errors if classify(inst, msg, s.syms) is None)[:300]
            elif codes:
                why = "llvm-mc rejects it for %s, kwgen reports %s" % (
                    ", ".join(sorted(str(c) for c in s.causes())), ", ".join(codes))
            else:
                why = "llvm-mc rejects it and kwgen gives no assembler diagnostic"
            print("-- pair %d: %s %s [%s]: %s" % (i + 1, isa, req.get("generator"),
                                                  req.get("source", ""), why))
            for inst, msg in s.errors[:3]:
                print("     %s  <- %s" % (inst, msg))
            diags = answers[i].get("diagnostics")
            if diags:
                print("     diagnostics: %s" % json.dumps(diags)[:300])

    n_pass = sum(st["passed"] for st in stats.values())
    n_fail = sum(st["failed"] for st in stats.values())
    print("(%.1f s)" % (time.time() - t0))
    print("check-asm: %d passed, %d failed" % (n_pass, n_fail))
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
