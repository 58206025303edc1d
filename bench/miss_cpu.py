#!/usr/bin/env python3
"""kwgend's CPU, system calls and bytes written per cache miss under wrk's
load (make bench-miss-cpu).

  python3 bench/miss_cpu.py [--kwgend build/kwgend] [--against OTHER_KWGEND]
                            [--rounds 3] [--seconds 5] [--flags '--max-cache-bytes 2000000']

Instructions (make bench-miss) leave out the kernel, which is a third or
more of a miss on a VM (the WAL's pwrites, the checkpoints, futex wake-ups,
page faults), and bench-http's requests per second move with the machine's
load far more than a change to the miss path does.  This counts what a
miss costs the daemon: each run starts kwgend (--flags) on a new cache
file, sends bench/http.sh's miss bodies with wrk (bench/wrk-miss.lua,
64 connections, 2 threads) for --seconds, and divides over the misses
answered:
  cpu_us     kwgend's user + system CPU time (/proc/PID/stat)
  wchar      bytes kwgend passed to write, pwrite and sendmsg (/proc/PID/io)
  pwrite, pread, fdatasync, futex, fcntl, sendmsg, madvise, faults, switches
             counted by `perf stat -p PID` when perf can read the
             syscalls tracepoints (else left out)
With --against, the two binaries run alternately, round after round (the
machine is shared: a pair run back to back is the comparison; the same
binary against itself varies by about 15 % per run at a load average of
10).  Every response is checked as bench/http.sh checks them; a non-2xx or
a bad body fails the run (exit 1).  Prints one line per run and the
medians; no pass/fail on the figures (a benchmark).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import run as e2e  # noqa: E402

EVENTS = [("pwrite", "syscalls:sys_enter_pwrite64"), ("pread", "syscalls:sys_enter_pread64"),
          ("fdatasync", "syscalls:sys_enter_fdatasync"), ("futex", "syscalls:sys_enter_futex"),
          ("fcntl", "syscalls:sys_enter_fcntl"), ("sendmsg", "syscalls:sys_enter_sendmsg"),
          ("madvise", "syscalls:sys_enter_madvise"), ("faults", "page-faults"),
          ("switches", "context-switches")]


def miss_template(path):
    """bench/http.sh's miss body with two %d slots (wrk-miss.lua fills them)."""
    req = json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))
    req["generators"] = [{"name": "wait", "args": {"skipGlobalRead": 222222, "skipLocalWrite": -1,
                                                   "skipLocalRead": 111111}},
                         {"name": "syncThreads"}, {"name": "accToArchMapper"},
                         {"name": "mapAcctoArchRegs"}]
    text = json.dumps(req).replace("111111", "%d").replace("222222", "%d")
    with open(path, "w") as f:
        f.write(text)


def perf_works():
    if not shutil.which("perf"):
        return False
    p = subprocess.run(["perf", "stat", "-e", EVENTS[0][1], "true"], capture_output=True)
    return p.returncode == 0


def proc_cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(kwgend, flags, seconds, tmp, use_perf):
    run_dir = tempfile.mkdtemp(dir=tmp)
    tmpl = os.path.join(run_dir, "miss.tmpl")
    miss_template(tmpl)
    try:
        d = e2e.Daemon(kwgend, os.path.join(run_dir, "cache.db"), *flags).start()
    except RuntimeError as ex:
        sys.exit("bench-miss-cpu: %s did not start: %s" % (kwgend, ex))
    proc, port = d.proc, d.port
    perf = None
    try:
        cpu0, w0 = proc_cpu_s(proc.pid), e2e.proc_value(proc.pid, "io", "wchar:")
        if use_perf:
            perf = subprocess.Popen(["perf", "stat", "-x", ",", "-e", ",".join(e for _, e in EVENTS),
                                     "-p", str(proc.pid), "-o", os.path.join(run_dir, "perf")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        env = dict(os.environ, KW_BENCH_DIR=HERE, KW_BODY=tmpl, KW_KEY="")
        out = subprocess.run(["wrk", "-t2", "-c64", "-d%ds" % seconds, "--timeout", "10s", "-s",
                              os.path.join(HERE, "wrk-miss.lua"), "http://127.0.0.1:%d/v1/kernels" % port],
                             env=env, capture_output=True, text=True)
        cpu1, w1 = proc_cpu_s(proc.pid), e2e.proc_value(proc.pid, "io", "wchar:")
        if perf:
            perf.send_signal(signal.SIGINT)
            perf.wait()
    finally:
        try:
            d.stop(timeout=60)
        except subprocess.TimeoutExpired:
            d.kill9()
    m = re.search(r"^RESULT (.*)$", out.stdout, re.M)
    if not m:
        sys.exit("bench-miss-cpu: wrk failed:\n" + out.stdout + out.stderr)
    n, secs, p50, p99, non2xx, errs, checked, bad = m.group(1).split()
    n = int(n)
    if int(non2xx) or int(errs) or int(bad) or int(checked) < n or n == 0:
        sys.exit("bench-miss-cpu: %s: %s non-2xx, %s socket errors, %s bad bodies of %s" %
                 (kwgend, non2xx, errs, bad, checked))
    row = {"misses_per_s": n / float(secs), "p50_ms": float(p50) / 1000, "p99_ms": float(p99) / 1000,
           "cpu_us": (cpu1 - cpu0) / n * 1e6, "wchar": (w1 - w0) / n}
    if perf:
        names = {e: k for k, e in EVENTS}
        for line in open(os.path.join(run_dir, "perf")):
            parts = line.strip().split(",")
            if len(parts) > 2 and parts[2] in names and parts[0].isdigit():
                row[names[parts[2]]] = int(parts[0]) / n
    shutil.rmtree(run_dir, ignore_errors=True)
    return row


def show(label, row):
    extra = " ".join("%s %.2f" % (k, row[k]) for k, _ in EVENTS if k in row)
    print("%-10s misses/s %7.0f  cpu %5.0f us  wchar %6.0f B  p50 %6.1f  p99 %6.1f ms  %s" %
          (label, row["misses_per_s"], row["cpu_us"], row["wchar"], row["p50_ms"], row["p99_ms"], extra),
          flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--against", help="a second kwgend, run alternately with --kwgend")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--flags", default="", help="kwgend flags, one shell-quoted string")
    ap.add_argument("--figures", help="write the runs and medians here as JSON")
    a = ap.parse_args()
    if not shutil.which("wrk"):
        sys.exit("bench-miss-cpu: wrk not installed (scripts/deps/server.txt)")
    if a.rounds < 1 or a.seconds < 1:
        sys.exit("bench-miss-cpu: --rounds and --seconds must be at least 1")
    bins = [("a", a.kwgend)] + ([("b", a.against)] if a.against else [])
    for _, b in bins:
        if not os.access(b, os.X_OK):
            sys.exit("bench-miss-cpu: %s is not an executable" % b)
    use_perf = perf_works()
    if not use_perf:
        print("bench-miss-cpu: perf cannot read the syscalls tracepoints here: CPU and bytes only")
    flags = shlex.split(a.flags)
    print("bench-miss-cpu: %d round(s) of %d s, kwgend flags: %s; a = %s%s" %
          (a.rounds, a.seconds, a.flags or "(defaults)", a.kwgend, "; b = " + a.against if a.against else ""))
    runs = {name: [] for name, _ in bins}
    with tempfile.TemporaryDirectory(prefix="kwgen-miss-cpu.") as tmp:
        for r in range(a.rounds):
            for name, b in bins:
                row = one_run(b, flags, a.seconds, tmp, use_perf)
                runs[name].append(row)
                show("%s %d" % (name, r + 1), row)
    medians = {}
    for name, _ in bins:
        rows = runs[name]
        medians[name] = {k: statistics.median(x[k] for x in rows) for k in rows[0]}
        show("%s median" % name, medians[name])
    if a.against:
        print("b / a, median CPU per miss: %.2f" % (medians["b"]["cpu_us"] / medians["a"]["cpu_us"]))
    if a.figures:
        with open(a.figures, "w") as f:
            json.dump({"flags": a.flags, "binaries": dict(bins), "runs": runs, "medians": medians}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
