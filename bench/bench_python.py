#!/usr/bin/env python3
"""bench-python: calls per second of the Python module against the C CLI,
on the same requests (the golden set, farm form so both sides compute the
same answer: parse, canonical form and key, generate, answer JSON).

  python     kwgen.generate(request) in a loop (json.dumps, ctypes call,
             json.loads of the answer), one thread
  no key     the same without the canonical form and key (kw_ffi_run: the
             path of kwgen.wait(), kwgen.accToArchMapper(), ...)
  cli-batch  `kwgen --batch --jobs 1` over the same requests as JSON lines
             (process start, parse, answer, write), one thread
  cli-each   one `kwgen` process per request (what a script without the
             module does), on the first --each requests

Best of --passes runs each, the passes interleaved.  Figures also go to
--figures (JSON).
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def farm(req):
    r = {k: v for k, v in req.items() if k not in ("generator", "args")}
    r["generators"] = [{"name": req.get("generator"), "args": req.get("args") or {}}]
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(ROOT, "build", "libkwgen.so"))
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--n", type=int, default=0, help="requests (0 = the whole golden set)")
    ap.add_argument("--each", type=int, default=200, help="requests for the process-per-request run")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--figures", default=os.path.join(ROOT, "build", "bench-python.json"))
    a = ap.parse_args()
    os.environ["KWGEN_LIB"] = os.path.abspath(a.lib)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import kwgen

    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        reqs = [farm(json.loads(t)) for t in f.read().split("\n") if t.strip()]
    # only requests that answer (errors are cheaper on both sides)
    good = []
    for r in reqs:
        try:
            kwgen.generate(r)
            good.append(r)
        except kwgen.Error:
            pass
    if a.n:
        good = good[:a.n]
    n = len(good)
    lines = "".join(json.dumps(r) + "\n" for r in good).encode()

    def py_pass():
        t0 = time.perf_counter()
        for r in good:
            kwgen.generate(r)
        return time.perf_counter() - t0

    def run_pass():
        t0 = time.perf_counter()
        for r in good:
            kwgen._call("kw_ffi_run", r)
        return time.perf_counter() - t0

    def cli_pass():
        t0 = time.perf_counter()
        p = subprocess.run([a.kwgen, "--batch", "--jobs", "1"], input=lines, stdout=subprocess.PIPE, check=True)
        dt = time.perf_counter() - t0
        assert p.stdout.count(b"\n") == n, "kwgen --batch answered %d lines for %d" % (p.stdout.count(b"\n"), n)
        return dt

    each = good[:a.each]

    def each_pass():
        t0 = time.perf_counter()
        for r in each:
            subprocess.run([a.kwgen], input=json.dumps(r).encode(), stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t0

    # passes interleaved, so a load that comes and goes on a shared machine
    # weighs on both sides alike; the best pass of each counts
    py = run = cli = one = float("inf")
    for _ in range(a.passes):
        py = min(py, py_pass())
        run = min(run, run_pass())
        cli = min(cli, cli_pass())
        one = min(one, each_pass())
    fig = {
        "requests": n,
        "python_calls_per_s": round(n / py),
        "python_no_key_calls_per_s": round(n / run),
        "cli_batch_calls_per_s": round(n / cli),
        "cli_process_per_request_calls_per_s": round(len(each) / one),
        "python_over_cli_batch": round(cli / py, 3),
        "python_over_cli_process_per_request": round((one / len(each)) / (py / n), 1),
        "library": kwgen.library_path(),
    }
    print("bench-python: %d golden requests (farm form), best of %d" % (n, a.passes))
    print("  %-38s %10s" % ("", "calls/s"))
    print("  %-38s %10d" % ("python kwgen.generate() (1 thread)", fig["python_calls_per_s"]))
    print("  %-38s %10d" % ("python, no cache key (seed helpers)", fig["python_no_key_calls_per_s"]))
    print("  %-38s %10d" % ("kwgen --batch --jobs 1", fig["cli_batch_calls_per_s"]))
    print("  %-38s %10d" % ("one kwgen process per request", fig["cli_process_per_request_calls_per_s"]))
    print("  python / cli-batch = %.2f; python / process-per-request = %.0fx"
          % (fig["python_over_cli_batch"], fig["python_over_cli_process_per_request"]))
    if a.figures:
        os.makedirs(os.path.dirname(os.path.abspath(a.figures)), exist_ok=True)
        with open(a.figures, "w") as f:
            json.dump(fig, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
