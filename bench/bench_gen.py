#!/usr/bin/env python3
"""make bench-gen: kwgen's generation speed against the Python oracle's, on
the golden request set, in one run.

1. generation alone: build/bench/bench_gen (each request parsed untimed
   right before its kw_request_generate is timed) vs the oracle's run() on
   already-decoded JSON (seed functions + str()); each call timed, in file
   order, best of --repeat passes per generator on both sides (the
   machine's speed wanders);
2. whole process: `kwgen --batch` vs `oracle.py --batch` on the same file.

Needs the oracle (--oracle DIR, default ../shared/oracle).  Prints a table
and the ratios (targets: 200x for generation, 20x for whole-process batch).
"""
import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", default="tests/golden/requests.jsonl.gz")
    ap.add_argument("--oracle", default=os.environ.get("KWGEN_ORACLE", "../shared/oracle"))
    ap.add_argument("--build", default="build")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs on both sides")
    opts = ap.parse_args()

    with gzip.open(opts.requests, "rt") as f:
        lines = [l for l in f if l.strip()]
    tmp = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    tmp.writelines(lines)
    tmp.close()

    # 1a. kwgen generation alone: best of --repeat runs per generator (the
    # machine's speed wanders; both sides get the same treatment)
    c = None
    for _ in range(opts.repeat):
        with open(tmp.name) as f:
            one = json.loads(subprocess.run([os.path.join(opts.build, "bench", "bench_gen"), str(opts.seconds)],
                                            stdin=f, capture_output=True, text=True, check=True).stdout)
        if c is None:
            c = one
        for g, v in one["per_generator"].items():
            if v["calls_per_sec"] > c["per_generator"][g]["calls_per_sec"]:
                c["per_generator"][g] = v

    # 1b. oracle generation alone (parse up front, time run())
    sys.path.insert(0, os.path.abspath(opts.oracle))
    import oracle  # noqa: E402
    reqs = [json.loads(l) for l in lines]
    ok = []
    for r in reqs:
        a = oracle.answer(r)
        if "error" not in a:
            ok.append(r)
    groups = collections.defaultdict(list)
    for r in ok:
        groups[r["generator"]].append(r)
    per = {}
    for _ in range(opts.repeat):
        # one pass over the set in file order, each call timed, as bench_gen does
        acc = collections.defaultdict(lambda: [0, 0.0])
        for r in ok:
            t0 = time.perf_counter()
            oracle.run(r)
            a = acc[r["generator"]]
            a[0] += 1
            a[1] += time.perf_counter() - t0
        for g, (calls, dt) in acc.items():
            if g not in per or calls / dt > per[g][0] / per[g][1]:
                per[g] = [calls, dt]

    # 2. whole process
    def wall(cmd):
        with open(tmp.name) as f:
            t0 = time.perf_counter()
            subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, check=True)
            return time.perf_counter() - t0
    k_wall = min(wall([os.path.join(opts.build, "kwgen"), "--batch"]) for _ in range(3))
    o_wall = wall([sys.executable, os.path.join(opts.oracle, "oracle.py"), "--batch"])
    os.unlink(tmp.name)

    print("generation alone (calls/s), %d requests (%d answered without error)" % (len(reqs), c["requests"]))
    print("%-22s %14s %14s %9s" % ("generator", "kwgen", "oracle", "ratio"))
    for g in sorted(per):
        kc = c["per_generator"].get(g)
        if not kc:
            continue
        orate = per[g][0] / per[g][1]
        print("%-22s %14.0f %14.0f %8.0fx" % (g, kc["calls_per_sec"], orate, kc["calls_per_sec"] / orate))
    # totals over the same mix: one call of every request, at each side's best rate
    k_secs = sum(len(groups[g]) / c["per_generator"][g]["calls_per_sec"] for g in groups)
    o_secs = sum(len(groups[g]) / (per[g][0] / per[g][1]) for g in groups)
    k_rate = len(ok) / k_secs
    o_rate = len(ok) / o_secs
    print("%-22s %14.0f %14.0f %8.0fx   (target 200x)" % ("total", k_rate, o_rate, k_rate / o_rate))
    print()
    print("whole process, --batch over %d requests: kwgen %.3f s, oracle %.3f s: %.1fx   (target 20x)"
          % (len(reqs), k_wall, o_wall, o_wall / k_wall))
    print("kwgen --batch: %.0f requests/s; oracle.py --batch: %.0f requests/s" % (len(reqs) / k_wall, len(reqs) / o_wall))


if __name__ == "__main__":
    main()
