#!/usr/bin/env python3
"""make bench-gen: kwgen against the Python oracle, like with like.

Every figure is the median of N runs, with the min and max beside it, and
counts only after the outputs were checked against the golden answers
(tests/golden/answers.jsonl.gz): a mismatch stops the benchmark.

1. Stages, one thread each side, the same requests (those the oracle answers
   without error), in file order, each call timed:
     parse     kwgen: kw_request_parse (decoded JSON -> request: ISA tables,
               kernel keys, defaults, checks); oracle: run()'s set-up
               (set_isa, capability tables, prep_kernel, prep_tp, ns)
     generate  kwgen: kw_request_generate (generator + rendering the asm
               text / maps); oracle: the KernelWriterModules call, then
               replaceHolder, str() of the result, the maps as arrays
   JSON decoding and encoding are outside both.  Reported: generate alone,
   and parse + generate.
2. Whole process, single thread: `kwgen --batch --jobs 1` against
   `oracle.py --batch` over the whole file (JSON in and out, start-up
   included).
3. Whole process, all cores: `kwgen --batch` (one thread per core) against
   as many `oracle.py --batch` processes as cores, each on a slice of the
   file, timed until the last one finishes.

  python3 bench/bench_gen.py [--build build] [--oracle ../shared/oracle]
                             [--runs 5] [--oracle-runs 3] [--passes 3]
Needs the oracle (../shared/oracle); without it prints SKIPPED and exits 0
(1 under CI=true).
"""
import argparse
import collections
import copy
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
from checks import ci, exit_problems  # noqa: E402
import compare  # noqa: E402  (the golden comparison of one answer)


def mmm(values):
    """median, min, max"""
    return statistics.median(values), min(values), max(values)


def fmt(values, unit="", scale=1.0, digits=0):
    m, lo, hi = mmm([v * scale for v in values])
    return "%.*f%s [%.*f-%.*f]" % (digits, m, unit, digits, lo, digits, hi)


def staged(oracle, req):
    """oracle.run(req) with its stages timed: -> (answer, setup_s, generate_s).
    The same steps as oracle.run, split where the stages meet."""
    rocisa, KWM, Module = oracle.rocisa, oracle.KWM, oracle.Module
    t0 = time.perf_counter()
    isa = rocisa.isa_tuple(req["isa"])
    kin = req.get("kernel") or {}
    wave = req.get("wavefront", kin.get("WavefrontSize", 64))
    rocisa.set_isa(isa, wave, asmCaps=req.get("asmCaps"), archCaps=req.get("archCaps"),
                   vgprIdx=req.get("vgprIdx"), vgprMsb=req.get("vgprMsb"),
                   outputNoComment=req.get("outputNoComment", False))
    ri = rocisa.rocIsa.getInstance()
    asmCaps = dict(ri.getAsmCaps())
    archCaps = dict(ri.getArchCaps())
    kernel = oracle.prep_kernel(kin, req.get("fillDefaults", False))
    tPA, tPB = oracle.prep_tp(req.get("tPA")), oracle.prep_tp(req.get("tPB"))
    states = oracle.ns(req.get("states") or {})
    a = req.get("args") or {}
    g = req["generator"]
    t1 = time.perf_counter()
    out = {}
    res = None
    if g == "tdmWait":
        res = KWM.tdmWait(states, kernel, tPA, tPB, a["tensorcnt"], a.get("comment", ""))
    elif g == "wait":
        res = KWM.wait(states, kernel, tPA, tPB, a["skipGlobalRead"], a["skipLocalWrite"],
                       a["skipLocalRead"], a.get("conservativeWaitCnt", 0), a.get("comment", ""),
                       a.get("skipGlobalReadInst", -1))
    elif g == "syncThreads":
        res = KWM.syncThreads(kernel, archCaps, asmCaps, a.get("comment", ""),
                              a.get("skipForceWaitcnt0", False), a.get("memoryToken"))
    elif g == "accToArchMapper":
        acc2arch, arch2acc = KWM.accToArchMapper(kernel)
        out["acc2arch"], ok1 = oracle.as_array(acc2arch)
        out["arch2acc"], ok2 = oracle.as_array(arch2acc)
        if not (ok1 and ok2):
            out["note"] = "keys not contiguous 0..n-1; given as objects"
    elif g == "getAccToArchLen":
        out["value"] = KWM.getAccToArchLen(kernel)
    elif g == "hasSequentialValuC":
        out["value"] = KWM.hasSequentialValuC(kernel)
    elif g == "accVgprImagNumOffset":
        out["value"] = KWM.accVgprImagNumOffset(kernel)
    elif g == "mapAcctoArchRegs":
        res = KWM.mapAcctoArchRegs(kernel, a.get("maxAgpr", 256), a.get("write", False),
                                   a.get("spilledVgprBase"))
    elif g == "mulMIoutAlphaToArch":
        res = KWM.mulMIoutAlphaToArch(kernel, a["startVgprAlphaTmp"])
    elif g == "moveMIoutToArch":
        res = KWM.moveMIoutToArch(kernel, a["startVgprAlphaTmp"])
    else:
        raise ValueError("unknown generator %r" % g)
    if res is not None:
        rh = req.get("replaceHolder")
        if isinstance(rh, list):
            items = res.items() if isinstance(res, Module) else [res]
            for it, d in zip(items, rh):
                oracle.replaceHolder(it, d)
        elif rh is not None:
            oracle.replaceHolder(res, rh)
        out = dict({"asm": str(res), "type": type(res).__name__}, **out)
    else:
        out = dict({"asm": None}, **out)
    t2 = time.perf_counter()
    out["isa"] = list(isa)
    return out, t1 - t0, t2 - t1


def check_lines(label, got_lines, answers):
    """Whole-process output against the golden answers (oracle fields equal)."""
    if len(got_lines) != len(answers):
        sys.exit("bench-gen: %s printed %d lines for %d requests: no timing" % (label, len(got_lines), len(answers)))
    bad = 0
    for g, w in zip(got_lines, answers):
        if compare.compare_one(json.loads(w), g):
            bad += 1
    if bad:
        sys.exit("bench-gen: %s: %d outputs differ from the golden answers: no timing" % (label, bad))


def run_timed(cmd, infile, outfile=None):
    with open(infile, "rb") as f:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t0
    probs = exit_problems(" ".join(os.path.basename(c) for c in cmd[:2]), p.returncode, p.stderr)
    if probs:
        sys.exit("bench-gen: " + "; ".join(probs))
    return dt, p.stdout.decode().splitlines()


def run_parallel(cmds_files):
    """Start every (cmd, infile) at once; -> (wall seconds until the last ends, outputs in order)."""
    procs = []
    t0 = time.perf_counter()
    for cmd, infile in cmds_files:
        f = open(infile, "rb")
        procs.append((subprocess.Popen(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE), f))
    outs = []
    for p, f in procs:
        out, err = p.communicate()
        f.close()
        probs = exit_problems("oracle.py --batch", p.returncode, err)
        if probs:
            sys.exit("bench-gen: " + "; ".join(probs))
        outs.append(out.decode().splitlines())
    return time.perf_counter() - t0, outs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", default=os.path.join(ROOT, "tests/golden/requests.jsonl.gz"))
    ap.add_argument("--answers", default=os.path.join(ROOT, "tests/golden/answers.jsonl.gz"))
    ap.add_argument("--oracle", default=os.environ.get("KWGEN_ORACLE", "../shared/oracle"))
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=5, help="runs of kwgen (median, min, max)")
    ap.add_argument("--oracle-runs", type=int, default=3, help="runs of the oracle")
    ap.add_argument("--passes", type=int, default=3, help="passes over the set per kwgen stage run")
    ap.add_argument("--json", default="", help="also write the figures to this file")
    opts = ap.parse_args()
    if not os.path.isfile(os.path.join(opts.oracle, "oracle.py")):
        print("SKIPPED bench-gen: no oracle at %s (KWGEN_ORACLE=DIR)" % opts.oracle)
        return 1 if ci() else 0
    cores = os.cpu_count() or 1

    with gzip.open(opts.requests, "rt") as f:
        lines = [l for l in f.read().split("\n") if l.strip()]
    with gzip.open(opts.answers, "rt") as f:
        answers = [l for l in f.read().split("\n") if l.strip()]
    tmp = tempfile.mkdtemp(prefix="kwgen-bench-")
    req_path, ans_path = os.path.join(tmp, "req.jsonl"), os.path.join(tmp, "ans.jsonl")
    with open(req_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(ans_path, "w") as f:
        f.write("\n".join(answers) + "\n")
    kwgen = os.path.join(opts.build, "kwgen")
    fig = {"requests": len(lines), "cores": cores, "runs": opts.runs, "oracle_runs": opts.oracle_runs}

    # 1a. kwgen stages (bench_gen checks every output first)
    p = subprocess.run([os.path.join(opts.build, "bench", "bench_gen"), req_path, ans_path,
                        str(opts.runs), str(opts.passes)], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench-gen: bench_gen: exit %d: %s" % (p.returncode, p.stderr.strip()[-500:]))
    c = json.loads(p.stdout)
    k_gen = [r["calls"] / r["generate_s"] for r in c["runs"]]
    k_all = [r["calls"] / (r["parse_s"] + r["generate_s"]) for r in c["runs"]]
    k_per = collections.defaultdict(list)
    for r in c["runs"]:
        for g, v in r["per_generator"].items():
            k_per[g].append(v["calls"] / v["generate_s"])

    # 1b. oracle stages, checked against the golden answers first
    sys.path.insert(0, os.path.abspath(opts.oracle))
    import oracle  # noqa: E402
    reqs = [json.loads(l) for l in lines]
    gold = [json.loads(a) for a in answers]
    ok = [i for i, a in enumerate(gold) if "error" not in a]
    bad = 0
    for i in ok:
        out, _, _ = staged(oracle, copy.deepcopy(reqs[i]))
        if out != gold[i]:
            bad += 1
    if bad:
        sys.exit("bench-gen: the staged oracle differs from the golden answers on %d requests: no timing" % bad)
    if len(ok) != c["timed"]:
        sys.exit("bench-gen: kwgen times %d requests, the oracle %d: not the same set" % (c["timed"], len(ok)))
    o_gen, o_all = [], []
    o_per = collections.defaultdict(list)
    for _ in range(opts.oracle_runs):
        setup_s = gen_s = 0.0
        per = collections.defaultdict(lambda: [0, 0.0])
        for i in ok:
            _, s, g = staged(oracle, reqs[i])
            setup_s += s
            gen_s += g
            a = per[reqs[i]["generator"]]
            a[0] += 1
            a[1] += g
        o_gen.append(len(ok) / gen_s)
        o_all.append(len(ok) / (setup_s + gen_s))
        for g, (n, s) in per.items():
            o_per[g].append(n / s)

    # 2. whole process, one thread each; outputs checked first
    dtk, out = run_timed([kwgen, "--batch", "--jobs", "1"], req_path)
    check_lines("kwgen --batch --jobs 1", out, answers)
    oracle_cmd = [sys.executable, os.path.join(opts.oracle, "oracle.py"), "--batch"]
    dto, out = run_timed(oracle_cmd, req_path)
    check_lines("oracle.py --batch", out, answers)
    k1 = [dtk] + [run_timed([kwgen, "--batch", "--jobs", "1"], req_path)[0] for _ in range(opts.runs - 1)]
    o1 = [dto] + [run_timed(oracle_cmd, req_path)[0] for _ in range(opts.oracle_runs - 1)]

    # 3. whole process, all cores
    dtk, out = run_timed([kwgen, "--batch"], req_path)
    check_lines("kwgen --batch", out, answers)
    kn = [dtk] + [run_timed([kwgen, "--batch"], req_path)[0] for _ in range(opts.runs - 1)]
    per_slice = -(-len(lines) // cores)
    slices = []
    for k in range(cores):
        path = os.path.join(tmp, "slice%d.jsonl" % k)
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in lines[k * per_slice:(k + 1) * per_slice]))
        slices.append((oracle_cmd, path))
    dt, outs = run_parallel(slices)
    check_lines("%d x oracle.py --batch" % cores, [l for o in outs for l in o], answers)
    on = [dt] + [run_parallel(slices)[0] for _ in range(opts.oracle_runs - 1)]
    for name in os.listdir(tmp):
        os.unlink(os.path.join(tmp, name))
    os.rmdir(tmp)

    n = len(ok)
    print("bench-gen: %d golden requests, %d answered without error; every output of both sides "
          "checked against the golden answers before timing" % (len(lines), n))
    print("median [min-max] of %d kwgen runs (%d passes each) and %d oracle runs (1 pass each)"
          % (opts.runs, opts.passes, opts.oracle_runs))
    print()
    print("1. stages, one thread each (calls/s):")
    print("%-22s %26s %26s %9s" % ("", "kwgen", "oracle", "ratio"))
    print("%-22s %26s %26s %8.0fx" % ("generate", fmt(k_gen), fmt(o_gen), statistics.median(k_gen) / statistics.median(o_gen)))
    print("%-22s %26s %26s %8.0fx" % ("parse + generate", fmt(k_all), fmt(o_all), statistics.median(k_all) / statistics.median(o_all)))
    for g in sorted(o_per):
        if g in k_per:
            print("  %-20s %26s %26s %8.0fx" % (g, fmt(k_per[g]), fmt(o_per[g]),
                                              statistics.median(k_per[g]) / statistics.median(o_per[g])))
    print()
    print("2. whole process, one thread each, --batch over %d requests (s):" % len(lines))
    print("   kwgen --batch --jobs 1 %s   oracle.py --batch %s   ratio %.1fx"
          % (fmt(k1, " s", 1, 3), fmt(o1, " s", 1, 2), statistics.median(o1) / statistics.median(k1)))
    print("3. whole process, all %d cores (s):" % cores)
    print("   kwgen --batch          %s   %d x oracle.py     %s   ratio %.1fx"
          % (fmt(kn, " s", 1, 3), cores, fmt(on, " s", 1, 2), statistics.median(on) / statistics.median(kn)))
    fig.update({
        "generate_calls_per_s": {"kwgen": mmm(k_gen), "oracle": mmm(o_gen),
                                 "ratio": statistics.median(k_gen) / statistics.median(o_gen)},
        "parse_generate_calls_per_s": {"kwgen": mmm(k_all), "oracle": mmm(o_all),
                                       "ratio": statistics.median(k_all) / statistics.median(o_all)},
        "whole_process_1_thread_s": {"kwgen": mmm(k1), "oracle": mmm(o1),
                                     "ratio": statistics.median(o1) / statistics.median(k1)},
        "whole_process_all_cores_s": {"kwgen": mmm(kn), "oracle": mmm(on),
                                      "ratio": statistics.median(on) / statistics.median(kn)},
    })
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(fig, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
