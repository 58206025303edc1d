#!/usr/bin/env python3
"""make bench-verify-memory: kwgend's memory while POST /v1/verify serves
hostile bodies, and how much of it comes back once the load is over.

Starts build/kwgend (port 0, a temporary cache, --workers 1), takes the idle
RSS after one small verification (the warm figure), then for each input
below resets the peak (`echo 5 > /proc/PID/clear_refs`), POSTs it (with
?cache=bypass, --repeat times) and reads the peak RSS (VmHWM) and the RSS
after the answer:

  long-symbols-NNk  a code object whose only symbol has a 64 KiB name and
                    whose .text is N `s_branch` to it: every decoded line
                    names the symbol (decoded text ~ N x 64 KiB)
  nops-N            a code object of N `s_nop 0` (~86 bytes of decoded
                    text per 4-byte instruction)
  text-NMiB         N MiB of assembly text (s_nop lines), text/plain

--rounds N goes over the inputs N times (a longer mixed load; the peaks
are the largest of the rounds).  Then idles --idle seconds and prints the
RSS every second: the figure the
issue asks for is "back under 2x the warm idle figure within 10 s".
Prints one table and writes --json.  Not a test: nothing is asserted.

  bench_verify_memory.py --kwgend build/kwgend [--json out.json] [--idle 10]
"""
import argparse, http.client, json, os, re, signal, struct, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import elf  # noqa: E402


def status(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            m = re.match(r"(VmRSS|VmHWM):\s+(\d+) kB", line)
            if m:
                out[m.group(1)] = int(m.group(2)) * 1024
    return out


def mib(n):
    return "%.1f" % (n / 1048576.0)


def inputs():
    syms = [(b"k" * 65536, 0, elf.STT_FUNC_GLOBAL)]
    yield "long-symbols-3k", elf.elf(struct.pack("<I", 0xbf82ffff) * 3000, syms=syms), "application/octet-stream"
    yield "long-symbols-12k", elf.elf(struct.pack("<I", 0xbf82ffff) * 12000, syms=syms), "application/octet-stream"
    yield "nops-600k", elf.elf(struct.pack("<I", 0xbf800000) * 600000), "application/octet-stream"
    yield "nops-1M", elf.elf(struct.pack("<I", 0xbf800000) * 1000000), "application/octet-stream"
    text = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\nk:\n" + "\ts_nop 0\n" * ((16 << 20) // 9) + "\ts_endpgm\n"
    yield "text-16MiB", text.encode(), "text/plain"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgend", default="build/kwgend")
    ap.add_argument("--json")
    ap.add_argument("--idle", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="kwgen-bench-vmem-")
    log = open(os.path.join(tmp, "kwgend.log"), "w+")
    p = subprocess.Popen([a.kwgend, "--listen", "127.0.0.1:0", "--db", os.path.join(tmp, "c.db"), "--workers", "1",
                          "--log-level", "info", "--max-cache-bytes", "0"], stdout=log, stderr=log)
    try:
        port = None
        for _ in range(200):
            log.seek(0)
            m = re.search(r"listening on [^\s\"]*:(\d+)", log.read())
            if m:
                port = int(m.group(1))
                break
            time.sleep(0.05)
        if not port:
            sys.exit("kwgend did not start")

        def post(body, ctype, query=""):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            c.request("POST", "/v1/verify" + query, body, {"Content-Type": ctype})
            r = c.getresponse()
            data = r.read()
            c.close()
            return r.status, data

        st, _ = post("k:\n\ts_endpgm\n", "text/plain", "?isa=gfx942")
        assert st == 200, st
        time.sleep(1)
        warm = status(p.pid)["VmRSS"]
        rows, load0 = {}, time.monotonic()
        for name, body, ctype in [x for _ in range(a.rounds) for x in inputs()]:
            r0 = rows.get(name, {})
            peak, after, codes, secs = r0.get("peak_rss", 0), 0, [], r0.get("seconds", 0.0)
            for _ in range(a.repeat):
                with open("/proc/%d/clear_refs" % p.pid, "w") as f:
                    f.write("5")
                t0 = time.monotonic()
                st, data = post(body, ctype, "?cache=bypass")
                secs = max(secs, time.monotonic() - t0)
                s = status(p.pid)
                peak, after = max(peak, s["VmHWM"]), s["VmRSS"]
                try:
                    codes.append(st if st == 200 else "%d %s" % (st, json.loads(data)["error"]["code"]))
                except (ValueError, KeyError):
                    codes.append(st)
            rows[name] = {"input": name, "body_bytes": len(body), "answer": codes[-1], "peak_rss": peak,
                          "peak_over_warm": peak - warm, "rss_after": after, "seconds": round(secs, 2)}
        rows = list(rows.values())
        load_s = time.monotonic() - load0
        idle = []
        for i in range(a.idle):
            time.sleep(1)
            idle.append(status(p.pid)["VmRSS"])
        print("warm idle RSS %s MiB; load %.0f s (%d round(s) x %d posts per input)" % (mib(warm), load_s, a.rounds,
                                                                                 a.repeat))
        print("%-18s %10s %-18s %12s %12s %12s %8s" % ("input", "body", "answer", "peak MiB", "+warm MiB",
                                                       "after MiB", "s"))
        for r in rows:
            print("%-18s %10d %-18s %12s %12s %12s %8.2f" % (r["input"], r["body_bytes"], r["answer"],
                                                              mib(r["peak_rss"]), mib(r["peak_over_warm"]),
                                                              mib(r["rss_after"]), r["seconds"]))
        print("RSS each second of idle (MiB): %s" % " ".join(mib(x) for x in idle))
        print("after %d s idle: %s MiB = %.2fx the warm idle figure (goal < 2x within 10 s)"
              % (a.idle, mib(idle[-1]), idle[-1] / float(warm)))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"warm_rss": warm, "load_seconds": load_s, "inputs": rows, "idle_rss": idle,
                           "idle_ratio": idle[-1] / float(warm)}, f, indent=1)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        log.close()
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
