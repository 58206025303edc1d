#!/usr/bin/env python3
"""make bench-verify: `kwgen verify` throughput against llvm-mc assembling the
same text, single thread, in one run.

Inputs: the committed clang-produced kernels (tests/verify/llvm/<isa>/*.s.gz).
Per ISA two measurements, each the best of --repeat runs on both sides:

1. large: every kernel of the ISA concatenated --copies times into one file
   (symbols renamed per copy, the metadata blocks dropped so that llvm-mc
   accepts it): `kwgen verify --isa ISA --json big.s` vs
   `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=ISA -filetype=obj big.s`
   (whole-process wall time; output to a temporary file); also the
   object's `llvm-objdump -d` text (MB/s) and the object itself (seconds,
   decoding with LLVM's disassembler included);
2. per file: the sum over the ISA's files of the same two commands (process
   start included: what a build step pays per kernel).

Prints MB/s of both tools and the ratio llvm-mc time / kwgen time (goal >= 1:
verifying a kernel takes no longer than assembling it).  Exit 1 if a command
fails.  Not a test: figures only (nothing is asserted about speed).
"""
import argparse, glob, gzip, json, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "tests", "verify", "llvm")


def concat(files, copies):
    out, first = [], True
    for rep in range(copies):
        for f in files:
            with gzip.open(f, "rt") as fh:
                t = fh.read()
            t = re.sub(r"\n\t\.amdgpu_metadata.*?\.end_amdgpu_metadata\n", "\n", t, flags=re.S)
            names = set(re.findall(r"^([.\w$]+):", t, re.M))
            names |= set(re.findall(r"^\s*\.amdhsa_kernel\s+(\S+)", t, re.M))
            names |= set(re.findall(r"^\s*\.set\s+([\w.$]+)", t, re.M))
            suf = f"_c{rep}_{os.path.basename(f)[:-5]}"
            pat = re.compile(r"(?<![\w.$])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                             + r")(\.kd)?(?![\w$])")
            t = pat.sub(lambda m: m.group(1) + suf + (m.group(2) or ""), t)
            if not first:
                t = re.sub(r"^\s*\.(amdgcn_target|amdhsa_code_object_version)\b.*\n", "", t, flags=re.M)
            first = False
            out.append(t)
    return "".join(out)


def timed(cmd, ok=(0,)):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode not in ok:
        sys.exit(f"bench-verify: {' '.join(cmd)} exited {p.returncode}: {p.stderr.decode()[-300:]}")
    return dt


def best(n, fn):
    return min(fn() for _ in range(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--llvm-mc", default=os.environ.get("LLVM_MC", "llvm-mc-22"))
    ap.add_argument("--llvm-objdump", default=os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22"))
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    isas = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)))
    tmp = tempfile.mkdtemp(prefix="kwgen-bench-verify-")
    obj = os.path.join(tmp, "out.o")
    rows, tot = [], dict(big_mb=0.0, big_kw=0.0, big_mc=0.0, file_mb=0.0, file_kw=0.0, file_mc=0.0,
                         dis_mb=0.0, dis_kw=0.0, obj_kw=0.0)
    try:
        for isa in isas:
            files = sorted(glob.glob(os.path.join(ROOT, isa, "*.s.gz")))
            big = os.path.join(tmp, f"big_{isa}.s")
            text = concat(files, a.copies)
            with open(big, "w") as f:
                f.write(text)
            mb = len(text.encode()) / 1e6
            kw = best(a.repeat, lambda: timed([a.kwgen, "verify", "--isa", isa, "--json", big], ok=(0, 1)))
            mc = best(a.repeat, lambda: timed([a.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={isa}",
                                               "-filetype=obj", big, "-o", obj]))
            os.unlink(big)
            # the same kernels as llvm-objdump -d prints them (the form of
            # shipped Tensile kernels), and as the code object itself
            dis = os.path.join(tmp, f"big_{isa}.dis.s")
            p = subprocess.run([a.llvm_objdump, "-d", obj], stdout=subprocess.PIPE, check=True)
            with open(dis, "wb") as f:
                f.write(p.stdout)
            dmb = len(p.stdout) / 1e6
            dkw = best(a.repeat, lambda: timed([a.kwgen, "verify", "--isa", isa, "--json", dis], ok=(0, 1)))
            okw = best(a.repeat, lambda: timed([a.kwgen, "verify", "--json", obj], ok=(0, 1)))
            os.unlink(dis)
            fmb = fkw = fmc = 0.0
            for i, src in enumerate(files):
                path = os.path.join(tmp, f"{isa}_{i}.s")
                with gzip.open(src, "rt") as fh, open(path, "w") as out:
                    t = fh.read()
                    out.write(t)
                fmb += len(t.encode()) / 1e6
                fkw += best(a.repeat, lambda: timed([a.kwgen, "verify", "--isa", isa, "--json", path], ok=(0, 1)))
                fmc += best(a.repeat, lambda: timed([a.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={isa}",
                                                     "-filetype=obj", path, "-o", obj]))
                os.unlink(path)
            rows.append(dict(isa=isa, big_mb=mb, big_kw=kw, big_mc=mc, file_mb=fmb, file_kw=fkw, file_mc=fmc,
                             dis_mb=dmb, dis_kw=dkw, obj_kw=okw))
            for k in tot:
                tot[k] += rows[-1][k]
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    print(f"kwgen verify vs llvm-mc, single thread, best of {a.repeat}; large = every kernel x{a.copies} in one file")
    print(f"{'isa':8s} {'large MB':>8s} {'verify MB/s':>11s} {'llvm-mc MB/s':>12s} {'ratio':>6s}   "
          f"{'files MB':>8s} {'verify MB/s':>11s} {'llvm-mc MB/s':>12s} {'ratio':>6s}")
    for r in rows + [dict(tot, isa="all")]:
        print(f"{r['isa']:8s} {r['big_mb']:8.2f} {r['big_mb'] / r['big_kw']:11.2f} {r['big_mb'] / r['big_mc']:12.2f} "
              f"{r['big_mc'] / r['big_kw']:6.2f}   {r['file_mb']:8.2f} {r['file_mb'] / r['file_kw']:11.2f} "
              f"{r['file_mb'] / r['file_mc']:12.2f} {r['file_mc'] / r['file_kw']:6.2f}")
    print(f"\n{'isa':8s} {'objdump MB':>10s} {'verify MB/s':>11s} {'code object s':>13s}   (the large files disassembled, and as .o)")
    for r in rows + [dict(tot, isa="all")]:
        print(f"{r['isa']:8s} {r['dis_mb']:10.2f} {r['dis_mb'] / r['dis_kw']:11.2f} {r['obj_kw']:13.3f}")
    ratio = tot["big_mc"] / tot["big_kw"]
    print(f"verify {tot['big_mb'] / tot['big_kw']:.2f} MB/s, llvm-mc {tot['big_mb'] / tot['big_mc']:.2f} MB/s: "
          f"ratio {ratio:.2f} (goal >= 1); per file ratio {tot['file_mc'] / tot['file_kw']:.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(rows=rows, total=tot, ratio=ratio), f, indent=1)


if __name__ == "__main__":
    main()
