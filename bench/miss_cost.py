#!/usr/bin/env python3
"""Instructions per cache miss of kwgend, counted by valgrind's callgrind
(make bench-miss).

  python3 bench/miss_cost.py [--kwgend build/kwgend] [--n 40] [--runs single,batch-small,batch-big]

For each run kwgend starts under `valgrind --tool=callgrind` (one polling
thread, one worker when the binary has --workers), is sent N requests that
all miss, and is stopped with SIGTERM; the same is done with no request.
Instructions per miss = (Ir with N misses - Ir with none) / N, so start-up
and shutdown cancel out and everything a miss costs - HTTP, parsing,
generation, the answer's JSON, the SQLite write, the batch response - is
counted.  Runs:
  single       N POST /v1/kernels, small answers (~1 KB)
  batch-small  one POST /v1/kernels:batch of N small items
  batch-big    one POST /v1/kernels:batch of N items with ~93 KB answers
  http         N POST /v1/kernels of bench/http.sh's miss bodies (~6 KB
               answers); with --max-cache-bytes every miss also evicts
--keep DIR keeps the callgrind files for callgrind_annotate --inclusive=yes.
Prints one line per run and a JSON summary; no pass/fail (a benchmark).
"""
import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import run as e2e  # noqa: E402


def small(i):
    return e2e.variant(10000 + i)


def big(i):
    r = e2e.example()
    r["kernel"]["MIWaveTile"] = [16, 16]
    r["generators"] = [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 256 + i}},
                       {"name": "accToArchMapper"}]
    return r


def http_body(i):
    """bench/http.sh's miss body (wait, syncThreads, accToArchMapper,
    mapAcctoArchRegs; wait's two read keys varied)."""
    r = e2e.example()
    r["generators"] = [{"name": "wait", "args": {"skipGlobalRead": i // 10000, "skipLocalWrite": -1,
                                                 "skipLocalRead": i % 10000}},
                       {"name": "syncThreads"}, {"name": "accToArchMapper"},
                       {"name": "mapAcctoArchRegs"}]
    return r


def has_workers(binary):
    p = subprocess.run([binary, "--help"], capture_output=True, timeout=30)
    return b"--workers" in p.stdout


def measure(binary, kind, n, tmp, flags=()):
    """Ir of one callgrind run of kwgend answering n misses of kind."""
    out = os.path.join(tmp, "cg.%s.%d.out" % (kind, n))
    db = os.path.join(tmp, "cg.%s.%d.db" % (kind, n))
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.unlink(f)
    extra = ["--threads", "1", "--log-level", "error", "--max-body-bytes", str(64 << 20)] + list(flags)
    if has_workers(binary):
        extra += ["--workers", "1"]
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                          binary, "--listen", "127.0.0.1:0", "--db", db] + extra,
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        post(p, kind, n)
    finally:
        if p.poll() is None:  # a failed check: stop what was started
            p.kill()
            p.wait()
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError("no totals in " + out)


def post(p, kind, n):
    """Send n misses of kind to the kwgend p started, then SIGTERM it."""
    port = None
    t_end = time.time() + 120
    while time.time() < t_end:
        line = p.stderr.readline().decode("utf-8", "replace")
        if not line:
            raise RuntimeError("kwgend under valgrind exited")
        m = re.search(r"kwgend: listening on 127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    assert port, "no port"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    J = {"Content-Type": "application/json"}
    if n and kind in ("single", "http"):
        make = small if kind == "single" else http_body
        for i in range(n):
            c.request("POST", "/v1/kernels", json.dumps(make(i)), J)
            r = c.getresponse()
            body = json.loads(r.read())
            assert r.status == 200 and body["cached"] is False, (r.status, body)
    elif n:
        make = small if kind == "batch-small" else big
        c.request("POST", "/v1/kernels:batch", json.dumps({"requests": [make(i) for i in range(n)]}), J)
        r = c.getresponse()
        res = json.loads(r.read())["results"]
        assert r.status == 200 and all(x["status"] == 200 and x["response"]["cached"] is False
                                       for x in res), r.status
    c.close()
    p.send_signal(signal.SIGTERM)
    p.stderr.read()
    assert p.wait(timeout=300) == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--runs", default="single,batch-small,batch-big")
    ap.add_argument("--figures", default="")
    ap.add_argument("--max-cache-bytes", default="")
    ap.add_argument("--keep", default="", help="directory to keep the callgrind files in")
    a = ap.parse_args()
    binary = os.path.abspath(a.kwgend)
    fig = {}
    flags = ["--max-cache-bytes", a.max_cache_bytes] if a.max_cache_bytes else []
    with tempfile.TemporaryDirectory(prefix="kwgen-cg-") as tmp:
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            tmp = a.keep
        base = measure(binary, "single", 0, tmp, flags)
        for kind in a.runs.split(","):
            ir = measure(binary, kind, a.n, tmp, flags)
            per = (ir - base) / a.n
            fig[kind] = {"n": a.n, "ir_total": ir, "ir_idle": base, "ir_per_miss": round(per)}
            print("miss-cost: %-12s %d misses: %.0f instructions per miss" % (kind, a.n, per), flush=True)
    print("miss-cost: " + json.dumps(fig, indent=1))
    if a.figures:
        with open(a.figures, "w") as f:
            json.dump(fig, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
