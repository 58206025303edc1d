#!/usr/bin/env python3
"""`kwgen verify` on the ISAs the committed corpus does not cover.

tests/verify/llvm holds clang 22's output for gfx90a, gfx942, gfx1100,
gfx1201 and gfx1250.  This test compiles the same OpenCL sources
(tests/verify/src/*.cl.gz) with clang-22 for the other processors kwgen
models that clang 22 still accepts (gfx908, gfx950, gfx1101, gfx1102,
gfx1200; gfx940/941 are gone from LLVM 22 and read as gfx942), and the
kernels of tests/verify/src-extra (LDS atomics with return, scratch arrays,
cross-lane builtins and s_memtime, volatile mixes, double-buffered LDS) for
every ISA, exactly as the corpus was made:
    clang-22 -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=ISA -nogpulib -O2 -S
(the files of one ISA go through one `clang -cc1` process, the command
line that driver runs, so clang and LLVM load once per batch, not per file;
on the first file of each ISA the driver alone must make the same bytes;
outputs are kept in the tool cache, tests/verify/batch.py)
LLVM placed every wait, so every file must verify with no race-class finding;
then the short mutation test (tests/verify/mutants.py --short 1) runs over
these files.

  compile_test.py --kwgen build/kwgen [--isas gfx908,...] [--jobs 2]
Last line: 'verify-isas: N passed, N failed, N skipped'.
"""
import argparse, gzip, os, re, resource, shlex, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
from checks import Results  # noqa: E402
from corpus_test import is_race  # noqa: E402
import batch as B  # noqa: E402

CLANG = os.environ.get("CLANG22", "clang-22")
ISAS = "gfx908,gfx950,gfx1101,gfx1102,gfx1200"
ALL_ISAS = "gfx908,gfx90a,gfx942,gfx950,gfx1100,gfx1101,gfx1102,gfx1200,gfx1201,gfx1250"


ARGS = ["-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib", "-O2", "-S"]


def driver_args(isa):
    return ARGS[:3] + [f"-mcpu={isa}"] + ARGS[3:]


CC1 = {}


def cc1_command(isa, cwd, cl):
    if (isa, cwd) not in CC1:
        CC1[(isa, cwd)] = _cc1_command(isa, cwd, cl)
    return CC1[(isa, cwd)]


def _cc1_command(isa, cwd, cl):
    """The `clang -cc1` command line the driver runs for one file of isa
    (`clang-22 ... CL -o x.s -###`), without its input, output and main file
    name: cc1 compiles every input it is given, one after another, each to
    NAME.s."""
    rc, _, err = B.run_tool([CLANG] + driver_args(isa) + [cl, "-o", "x.s", "-###"], cwd=cwd, timeout=120)
    lines = [ln for ln in err.decode("utf-8", "replace").splitlines() if '"-cc1"' in ln]
    if rc or len(lines) != 1:
        return None
    cmd = shlex.split(lines[0])
    if cmd[-1] != cl or cmd.count("-o") != 1 or cmd.count("-main-file-name") != 1:
        return None
    for opt in ("-o", "-main-file-name"):
        k = cmd.index(opt)
        del cmd[k:k + 2]
    # the driver runs cc1 for one file and exits: -disable-free skips the
    # frees at its end.  Over a batch it keeps every file's AST and IR to
    # the end (the process grows ~4 MB a file, 46,000 page faults for 37
    # files); freed, each file reuses the last one's pages: the same bytes
    # out, a third less CPU.
    cmd = [c for c in cmd if c != "-disable-free"]
    return cmd[:-1]


def compile_all(jobs, tmp, cache, pool):
    """jobs [(src .cl.gz, isa)] -> ([(path of the .s.gz, error)], checks):
    every source compiled as `clang-22 ARGS -mcpu=ISA -S FILE.cl -o FILE.s`
    would, the files of one ISA in one `clang -cc1` process (one process
    loads clang and LLVM once for many files; the driver with several inputs
    would run one cc1 process each).  Checks: on the first file of each ISA,
    the driver alone makes the same bytes.  A batch that fails is compiled
    again file by file with the driver, which names the file."""
    out = [None] * len(jobs)
    todo = {}
    for k, (src, isa) in enumerate(jobs):
        name = os.path.basename(src)[:-len(".cl.gz")]
        d = os.path.join(tmp, "cc", isa)
        os.makedirs(d, exist_ok=True)
        cl = os.path.join(d, f"{isa}_{name}.cl")
        with gzip.open(src, "rb") as f, open(cl, "wb") as g:
            g.write(f.read())
        # the cache key holds the file's name too: clang may print it
        key = cache.key(CLANG, driver_args(isa) + [os.path.basename(cl)], open(cl, "rb").read()) if cache.d else None
        data = cache.get(key) if key else None
        if data is not None:
            with open(cl[:-3] + ".s", "wb") as f:
                f.write(data)
        else:
            todo.setdefault(isa, []).append((k, cl, key))

    def run_chunk(t):
        isa, part = t
        d = os.path.dirname(part[0][1])
        cmd = cc1_command(isa, d, os.path.basename(part[0][1]))
        ok = False
        if cmd:
            for _, cl, _ in part:
                if os.path.exists(cl[:-3] + ".s"):
                    os.unlink(cl[:-3] + ".s")
            rc, _, _ = B.run_tool(cmd + [os.path.basename(cl) for _, cl, _ in part], cwd=d,
                                  timeout=300 * len(part))
            ok = rc == 0 and all(os.path.exists(cl[:-3] + ".s") for _, cl, _ in part)
        for _, cl, key in part:
            if not ok:  # file by file, with the driver: the error names the file
                if B.run_tool([CLANG] + driver_args(isa) + [cl, "-o", cl[:-3] + ".s"], timeout=300)[0]:
                    continue
            if key:
                with open(cl[:-3] + ".s", "rb") as f:
                    cache.put(key, f.read())
        return None

    # one cc1 process per ISA (each loads clang and LLVM once)
    tasks = [(isa, lst) for isa, lst in sorted(todo.items(), key=lambda t: -len(t[1]))]
    list(pool.map(run_chunk, tasks))

    # the first file of each ISA, compiled alone by the driver: the same bytes
    firsts = {}
    for k, (src, isa) in enumerate(jobs):
        firsts.setdefault(isa, k)

    def alone(k):
        src, isa = jobs[k]
        cl = os.path.join(tmp, "cc", isa, f"{isa}_{os.path.basename(src)[:-len('.cl.gz')]}.cl")
        ref = cl[:-3] + ".alone.s"
        rc, _, err = B.run_tool([CLANG] + driver_args(isa) + [cl, "-o", ref], timeout=300)
        if rc or not os.path.exists(cl[:-3] + ".s"):
            return False, f"clang-22 exited {rc}: {err.decode('utf-8', 'replace').strip()[-300:]}"
        same = open(ref, "rb").read() == open(cl[:-3] + ".s", "rb").read()
        return same, "" if same else "the bytes differ"
    checks = [(ok, f"{jobs[k][1]}: clang-22 -cc1 on many files makes what the driver makes of "
                   f"{os.path.basename(jobs[k][0])[:-3]} alone", why)
              for k, (ok, why) in zip(firsts.values(), pool.map(alone, list(firsts.values())))]

    for k, (src, isa) in enumerate(jobs):
        name = os.path.basename(src)[:-len(".cl.gz")]
        cl = os.path.join(tmp, "cc", isa, f"{isa}_{name}.cl")
        asm = cl[:-3] + ".s"
        if not os.path.exists(asm):
            p = subprocess.run([CLANG] + driver_args(isa) + [cl, "-o", asm], capture_output=True, text=True,
                               timeout=300)
            out[k] = (None, f"clang-22 exited {p.returncode}: {p.stderr.strip()[-300:]}")
            continue
        dst = os.path.join(tmp, "llvm", isa, name + ".s.gz")
        with open(asm, "rb") as f, gzip.open(dst, "wb") as g:
            g.write(f.read())
        out[k] = (dst, None)
    shutil.rmtree(os.path.join(tmp, "cc"), ignore_errors=True)
    return out, checks


def cpu_seconds():
    """CPU of this process and of the children it waited for (a phase's
    cpu figure)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--isas", default=ISAS, help="ISAs for src/ (src-extra/ is compiled for --extra-isas)")
    ap.add_argument("--extra-isas", default=ALL_ISAS)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--tool-cache", help="keep clang-22's output here (batch.py)")
    a = ap.parse_args()
    R = Results("verify-isas")
    if not shutil.which(CLANG):
        R.skip("kernels compiled for the other ISAs", f"{CLANG} not installed (scripts/deps/core.txt: clang-22)")
        R.finish()
    if not os.access(a.kwgen, os.X_OK):
        R.fail("kwgen", f"{a.kwgen} is not built")
        R.finish()
    isas = [i for i in a.isas.split(",") if i]
    extra_isas = [i for i in a.extra_isas.split(",") if i]
    srcs = sorted(os.path.join(HERE, "src", f) for f in os.listdir(os.path.join(HERE, "src")) if f.endswith(".cl.gz"))
    extra = sorted(os.path.join(HERE, "src-extra", f) for f in os.listdir(os.path.join(HERE, "src-extra"))
                   if f.endswith(".cl.gz"))
    tmp = tempfile.mkdtemp(prefix="kwgen-verify-isas-")
    try:
        for isa in sorted(set(isas) | set(extra_isas)):
            os.makedirs(os.path.join(tmp, "llvm", isa))
        jobs = [(s, i) for i in isas for s in srcs] + [(s, i) for i in extra_isas for s in extra]
        cache = B.ToolCache(a.tool_cache)
        c0 = cpu_seconds()
        with ThreadPoolExecutor(a.jobs) as ex:
            built, checks = compile_all(jobs, tmp, cache, ex)
        B.zygote.close()  # clang's zygotes are done: their CPU counts here
        print(f"        (compile: cpu {cpu_seconds() - c0:.2f} s)", flush=True)
        for ok, what, why in checks:
            R.check(ok, what, why)
        if cache.d:
            print(f"clang-22 outputs read from {a.tool_cache}: {cache.hits}, made: {cache.misses}")
        items = []
        for (src, isa), (path, err) in zip(jobs, built):
            name = f"{isa}/{os.path.basename(src)[:-6]}"
            if err:
                R.fail(f"{name}: compile", err)
            else:
                items.append((name, isa, path))
        vt = tempfile.mkdtemp(dir=tmp)
        # `kwgen verify --json-lines` on many files of one ISA per process (batch.py)
        res, jobs = [], []
        for name, isa, path in items:
            with gzip.open(path, "rt") as f:
                text = f.read()
            if not re.search(r'\.amdgcn_target "amdgcn-amd-amdhsa--%s"' % isa, text):
                res.append((name, None, None, "no .amdgcn_target naming " + isa))
                continue
            res.append(None)
            jobs.append((len(res) - 1, name, isa, text))
        c0 = cpu_seconds()
        with ThreadPoolExecutor(a.jobs) as ex:
            done = B.verify_texts(a.kwgen, [(isa, text, name.replace("/", "_") + ".s") for _, name, isa, text in jobs],
                                  vt, ex, a.timeout)
        for (k, name, _, _), (fs, out, err) in zip(jobs, done):
            res[k] = (name, fs, out, err)
        B.zygote.close()
        print(f"        (verify: cpu {cpu_seconds() - c0:.2f} s)", flush=True)
        per = {}
        for name, fs, out, err in res:
            isa = name.split("/")[0]
            pi = per.setdefault(isa, [0, 0, 0])
            pi[0] += 1
            if err:
                R.fail(f"{name}: verify", err)
                continue
            if out.get("isa") != isa:
                R.fail(f"{name}: verified for {isa}", f"verified for {out.get('isa')}")
                continue
            races = [f for f in fs if is_race(f.get("code"))]
            pi[1] += bool(races)
            pi[2] += len(races)
            R.check(not races, f"{name}: no race finding",
                    "; ".join(f"line {f.get('line')} {f.get('code')} {f.get('message', '')}" for f in races[:3]))
        print("\nfalse positives on the compiled files (files with a race finding / files, race findings):")
        for isa, (n, nf, nr) in sorted(per.items()):
            print(f"   {isa:8s} {nf}/{n} files, {nr} findings")
        if not a.no_mutants:
            c0 = cpu_seconds()
            p = subprocess.run([sys.executable, os.path.join(HERE, "mutants.py"), "--root", tmp, "--kwgen", a.kwgen,
                                "--short", "1", "--jobs", str(a.jobs)] +
                               (["--tool-cache", a.tool_cache] if a.tool_cache else []), capture_output=True, text=True)
            tail = p.stdout.strip().splitlines()
            table = [ln for ln in tail if re.match(r"^(isa|gfx\w+|all)\s", ln)]
            print("\nmutation test (short) on the compiled files:\n" + "\n".join(table))
            print(f"        (mutants: cpu {cpu_seconds() - c0:.2f} s)", flush=True)
            R.check(p.returncode == 0, "short mutation test on the compiled files",
                    "\n".join(ln for ln in tail if ln.startswith(("FAILED", "   MISSED", "   FALSE", "   ERROR")))[-1500:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    R.finish()


if __name__ == "__main__":
    main()
