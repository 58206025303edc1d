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

Code objects, against `llvm-objdump -d` on the same files (each the best of
--repeat runs, whole-process wall time and CPU time of the process and its
children, kwgen's decoder process included):

3. large: the object llvm-mc assembles from (1), and that object linked
   with ld.lld-22 -shared (a linked code object: kernels at their virtual
   addresses, zero padding between them);
4. per file: the sum over the objects of the ISA's files (process start
   included: kwgen starts its decoder process and loads libLLVM, as
   llvm-objdump loads it);
5. --nops N (default 2,000,000; 0 = skip): one code object of N `s_nop 0`
   and an s_endpgm (8 MB for 2M), run once each (llvm-objdump takes tens of
   seconds on it), with the peak RSS of kwgen's own process (VmHWM,
   sampled) and of the decoder process's.

Prints MB/s of both tools and the ratio llvm-mc time / kwgen time (goal >= 1:
verifying a kernel takes no longer than assembling it), and for code objects
the ratio llvm-objdump time / kwgen time (goal >= 1: verifying a code object
takes no longer than disassembling it).  Exit 1 if a command
fails.  Not a test: figures only (nothing is asserted about speed).
"""
import argparse, glob, gzip, json, os, re, struct, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import elf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "tests", "verify", "llvm")


def concat(files, copies):
    """copies x files, each kernel's names given the suffix _cREP_FILE: each
    file read and its names found once, the copies made from that."""
    parts = []
    for f in files:
        with gzip.open(f, "rt") as fh:
            t = fh.read()
        t = re.sub(r"\n\t\.amdgpu_metadata.*?\.end_amdgpu_metadata\n", "\n", t, flags=re.S)
        names = set(re.findall(r"^([.\w$]+):", t, re.M))
        names |= set(re.findall(r"^\s*\.amdhsa_kernel\s+(\S+)", t, re.M))
        names |= set(re.findall(r"^\s*\.set\s+([\w.$]+)", t, re.M))
        pat = re.compile(r"(?<![\w.$])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                         + r")(\.kd)?(?![\w$])")
        # the suffix's place marked with a NUL (no assembly text holds one)
        t = pat.sub(lambda m: m.group(1) + "\0" + (m.group(2) or ""), t)
        rest = re.sub(r"^\s*\.(amdgcn_target|amdhsa_code_object_version)\b.*\n", "", t, flags=re.M)
        parts.append((t, rest, os.path.basename(f)[:-5]))
    out = []
    for rep in range(copies):
        for k, (t, rest, base) in enumerate(parts):
            out.append((t if rep == 0 and k == 0 else rest).replace("\0", f"_c{rep}_{base}"))
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


def timed_cpu(cmd, ok=(0,)):
    """-> (wall seconds, CPU seconds of the process and its children, peak
    RSS of the process itself (VmHWM, sampled every 10 ms), of it and its
    children (wait4))"""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    hwm = [0]

    def sample():
        while p.returncode is None:
            try:
                with open("/proc/%d/status" % p.pid) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            hwm[0] = max(hwm[0], int(line.split()[1]) * 1024)
            except OSError:
                return
            time.sleep(0.01)
    th = threading.Thread(target=sample, daemon=True)
    th.start()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    dt = time.perf_counter() - t0
    err = p.stderr.read()
    p.stderr.close()
    if p.returncode not in ok:
        sys.exit(f"bench-verify: {' '.join(cmd)} exited {p.returncode}: {err.decode()[-300:]}")
    return dt, ru.ru_utime + ru.ru_stime, hwm[0], ru.ru_maxrss * 1024


def best2(n, cmd, ok=(0,)):
    """-> (best wall, best CPU) over n runs"""
    runs = [timed_cpu(cmd, ok) for _ in range(n)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def co_pair(a, path, n):
    """kwgen verify and llvm-objdump -d on one code object: (kw wall, kw cpu, od wall, od cpu)"""
    kw = best2(n, [a.kwgen, "verify", "--json", path], ok=(0, 1))
    od = best2(n, [a.llvm_objdump, "-d", path])
    return kw + od


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--llvm-mc", default=os.environ.get("LLVM_MC", "llvm-mc-22"))
    ap.add_argument("--llvm-objdump", default=os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22"))
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ld-lld", default=os.environ.get("LD_LLD", "ld.lld-22"))
    ap.add_argument("--nops", type=int, default=2000000)
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    isas = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)))
    tmp = tempfile.mkdtemp(prefix="kwgen-bench-verify-")
    obj = os.path.join(tmp, "out.o")
    rows, tot = [], dict(big_mb=0.0, big_kw=0.0, big_mc=0.0, file_mb=0.0, file_kw=0.0, file_mc=0.0,
                         dis_mb=0.0, dis_kw=0.0, obj_kw=0.0)
    co_rows, co_keys = [], ("mb", "kw", "kw_cpu", "od", "od_cpu")
    nops = None
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
            # code objects against llvm-objdump -d: the large object, linked too
            linked = os.path.join(tmp, f"big_{isa}.so")
            subprocess.run([a.ld_lld, "-shared", obj, "-o", linked], check=True)
            for kind, path in (("large .o", obj), ("large linked", linked)):
                co_rows.append(dict(isa=isa, kind=kind, mb=os.path.getsize(path) / 1e6)
                               | dict(zip(co_keys[1:], co_pair(a, path, a.repeat))))
            os.unlink(linked)
            per = dict(isa=isa, kind="per file .o", mb=0.0, kw=0.0, kw_cpu=0.0, od=0.0, od_cpu=0.0)
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
                per["mb"] += os.path.getsize(obj) / 1e6
                for k, v in zip(co_keys[1:], co_pair(a, obj, a.repeat)):
                    per[k] += v
            co_rows.append(per)
            rows.append(dict(isa=isa, big_mb=mb, big_kw=kw, big_mc=mc, file_mb=fmb, file_kw=fkw, file_mc=fmc,
                             dis_mb=dmb, dis_kw=dkw, obj_kw=okw))
            for k in tot:
                tot[k] += rows[-1][k]
        if a.nops:
            # one big code object of 4-byte instructions (~14x its size as
            # objdump text): run once each
            path = os.path.join(tmp, "nops.o")
            with open(path, "wb") as f:
                f.write(elf.elf(struct.pack("<I", 0xBF800000) * a.nops + elf.S_ENDPGM_GFX9))
            # 2M instructions need more than the default memory bound
            # (16 x the file + 96 MiB, refused with exit 2 naming it):
            # raised here, since the bench measures time and RSS, not the bound
            kw = timed_cpu([a.kwgen, "verify", "--json", "--max-memory", str(4 << 30), path])
            od = timed_cpu([a.llvm_objdump, "-d", path])
            nops = dict(n=a.nops, mb=os.path.getsize(path) / 1e6, kw=kw[0], kw_cpu=kw[1], kw_rss=kw[2],
                        kw_rss_all=kw[3], od=od[0], od_cpu=od[1], od_rss=od[3])
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
    print(f"\ncode objects: kwgen verify vs llvm-objdump -d, best of {a.repeat} (wall s / CPU s, decoder "
          f"process included; ratio = llvm-objdump / kwgen, goal >= 1)")
    print(f"{'isa':8s} {'object':13s} {'MB':>6s} {'verify MB/s':>11s} {'objdump MB/s':>12s} {'wall':>5s} "
          f"{'kw cpu':>7s} {'od cpu':>7s} {'cpu':>5s}")
    cot = {}
    for r in co_rows:
        t = cot.setdefault(r["kind"], dict(isa="all", kind=r["kind"], mb=0.0, kw=0.0, kw_cpu=0.0, od=0.0, od_cpu=0.0))
        for k in co_keys:
            t[k] += r[k]
    for r in co_rows + list(cot.values()):
        print(f"{r['isa']:8s} {r['kind']:13s} {r['mb']:6.2f} {r['mb'] / r['kw']:11.2f} {r['mb'] / r['od']:12.2f} "
              f"{r['od'] / r['kw']:5.2f} {r['kw_cpu']:7.3f} {r['od_cpu']:7.3f} {r['od_cpu'] / r['kw_cpu']:5.2f}")
    if nops:
        print(f"{nops['n']} s_nop ({nops['mb']:.1f} MB): verify {nops['kw']:.2f} s wall, {nops['kw_cpu']:.2f} s CPU, "
              f"peak RSS {nops['kw_rss'] / 1048576:.0f} MiB (with the decoder process "
              f"{nops['kw_rss_all'] / 1048576:.0f} MiB); llvm-objdump -d {nops['od']:.2f} s wall, "
              f"{nops['od_cpu']:.2f} s CPU, {nops['od_rss'] / 1048576:.0f} MiB")
    ratio = tot["big_mc"] / tot["big_kw"]
    print(f"verify {tot['big_mb'] / tot['big_kw']:.2f} MB/s, llvm-mc {tot['big_mb'] / tot['big_mc']:.2f} MB/s: "
          f"ratio {ratio:.2f} (goal >= 1); per file ratio {tot['file_mc'] / tot['file_kw']:.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(rows=rows, total=tot, ratio=ratio, code_objects=co_rows + list(cot.values()), nops=nops),
                      f, indent=1)


if __name__ == "__main__":
    main()
