#!/usr/bin/env python3
"""Fill the verify suites' tool cache (tests/verify/batch.py) with what more
than one suite derives from the committed LLVM kernels: each
tests/verify/llvm/<isa>/*.s.gz assembled with llvm-mc-22 and disassembled
with llvm-objdump-22 -d (verify-forms and verify-mutants-objdump both read
them), and the mutants' labels (mutants.all_candidates: verify-forms and
verify-mutants-short and -objdump-short read them).  `make test` runs it once before the suites (TEST_BUILD), so suites
running side by side do not both make them.  Nothing here is a check: a tool
that fails is left to the suites, which report it.

llvm-mc-22 runs from the tool zygote (tests/lib/zygote.py) with
KWGEN_TOOL_ZYGOTE_QUICK_EXIT=1 (tests/verify/tools/zygote.c): a run leaves
once llvm-mc's main has returned (its object written and closed), without
libLLVM's static destructors, ~20 ms of CPU of each ~80 ms run here (their
copy-on-write page faults); 160 runs.  The first kernel is also assembled
by a fresh llvm-mc-22: if the objects differ, every kernel is assembled
again the usual way.

  tool_cache.py --tool-cache DIR [--root tests/verify] [--jobs 2] [--stamp FILE]
"""
import argparse, gzip, os, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["KWGEN_TOOL_ZYGOTE_QUICK_EXIT"] = "1"   # before the first zygote starts
import batch as B  # noqa: E402
from objdump_test import MCPU  # noqa: E402
from mutants import all_candidates, base_files  # noqa: E402


def same_as_fresh(job, rc):
    """The object of job (src, out, mcpu) as the zygote made it (exit rc)
    is what a fresh llvm-mc-22 process makes (same exit, same bytes)."""
    src, out, mcpu = job
    fresh = out + ".fresh"
    p = subprocess.run([B.LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj", src, "-o", fresh],
                       capture_output=True)
    try:
        if p.returncode != rc:
            return False
        if rc != 0:
            return True
        with open(out, "rb") as f, open(fresh, "rb") as g:
            return f.read() == g.read()
    finally:
        if os.path.exists(fresh):
            os.unlink(fresh)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool-cache", required=True)
    ap.add_argument("--root", default=HERE)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--stamp", help="touch this file when done")
    a = ap.parse_args()
    cache = B.ToolCache(a.tool_cache)
    if not (shutil.which(B.LLVM_MC) and shutil.which(B.LLVM_OBJDUMP)):
        print(f"tool_cache: {B.LLVM_MC} or {B.LLVM_OBJDUMP} not installed: nothing to fill")
        return 0
    tmp = tempfile.mkdtemp(prefix="kwgen-verify-cache-")
    try:
        jobs = []
        for k, (isa, rel, path) in enumerate(base_files(a.root)):
            src = os.path.join(tmp, "%04d.s" % k)
            with gzip.open(path, "rb") as f, open(src, "wb") as g:
                g.write(f.read())
            jobs.append((src, os.path.join(tmp, "%04d.o" % k), MCPU.get(isa, isa)))
        with ThreadPoolExecutor(a.jobs) as ex:
            rcs = list(ex.map(lambda j: B.assemble(j[0], j[1], j[2], cache)[0], jobs))
        if jobs and not same_as_fresh(jobs[0], rcs[0]):
            print("tool_cache: llvm-mc from the zygote with a quick exit made another object than a fresh "
                  "llvm-mc: assembling every kernel again without it")
            B.zygote.close()
            del os.environ["KWGEN_TOOL_ZYGOTE_QUICK_EXIT"]
            shutil.rmtree(a.tool_cache, ignore_errors=True)
            cache = B.ToolCache(a.tool_cache)
            with ThreadPoolExecutor(a.jobs) as ex:
                rcs = list(ex.map(lambda j: B.assemble(j[0], j[1], j[2], cache)[0], jobs))
        B.objdump_many([o for (_, o, _), rc in zip(jobs, rcs) if rc == 0], cache=cache)
        # the mutants' labels (refsim.py), read by the three suites that
        # label the corpus (mutants.all_candidates)
        files = []
        for isa, rel, path in base_files(a.root):
            with gzip.open(path, "rt") as f:
                files.append((isa, rel, f.read()))
        all_candidates(files, a.tool_cache)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"tool_cache: {len(jobs)} kernels in {a.tool_cache} ({cache.hits} there already, {cache.misses} made)")
    if a.stamp:
        with open(a.stamp, "w"):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
