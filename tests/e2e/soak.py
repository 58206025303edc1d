#!/usr/bin/env python3
"""Bounded mixed load on kwgend (loopback only): cache hits, misses,
malformed bodies, unknown keys and slow clients from N connections for a
fixed time, then the figures: requests, 5xx, RSS and open descriptors at
the start and the end.  Python 3 stdlib; stops by itself.

  python3 tests/e2e/soak.py [--kwgend build/kwgend] [--seconds 120]
          [--connections 64] [--figures FILE]

Fails (exit 1) on any 5xx, any unexpected status, an RSS growth over
--max-rss-growth-mb, or more open descriptors at the end than at the start
(plus a small allowance for the SQLite files).
"""
import argparse
import http.client
import json
import os
import random
import socket
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as e2e  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--max-rss-growth-mb", type=float, default=64)
    ap.add_argument("--figures", default="")
    a = ap.parse_args()
    J = {"Content-Type": "application/json"}
    with tempfile.TemporaryDirectory(prefix="kwgen-soak-") as tmp:
        d = e2e.Daemon(os.path.abspath(a.kwgend), os.path.join(tmp, "soak.db"), "--log-level", "error",
                       "--request-timeout", "10", "--max-connections", str(4 * a.connections),
                       "--threads", "2", "--workers", "2").start()
        pid = d.proc.pid
        hot = [json.dumps(e2e.variant(i)) for i in range(64)]
        keys = []
        c = d.conn()
        for b in hot:
            st, _, data = d.request("POST", "/v1/kernels", b, J, conn=c)
            assert st == 200, st
            keys.append(json.loads(data)["key"])
        c.close()
        # the baseline once kwgend has closed the warm-up connection
        e2e.wait_no_connections(d.port, 10)
        rss0, fd0 = e2e.rss_kib(pid), e2e.nfds(pid)
        counts = {}
        lock = threading.Lock()
        fresh = [1000000]
        stop = time.time() + a.seconds
        errors = []

        def note(kind, st):
            with lock:
                counts[(kind, st)] = counts.get((kind, st), 0) + 1

        def slow(rnd):
            """A client that sends its body in pieces over ~1.5 s."""
            body = hot[rnd.randrange(len(hot))].encode()
            sock = socket.create_connection(("127.0.0.1", d.port), timeout=30)
            try:
                sock.sendall(b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
                step = max(1, len(body) // 6)
                for i in range(0, len(body), step):
                    sock.sendall(body[i:i + step])
                    time.sleep(0.25)
                data = b""
                while True:
                    got = sock.recv(65536)
                    if not got:
                        break
                    data += got
                return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else -1
            finally:
                sock.close()

        def worker(w):
            rnd = random.Random(w)
            conn = d.conn(timeout=30)
            while time.time() < stop:
                x = rnd.random()
                try:
                    if w % 16 == 15:
                        kind, st = "slow", slow(rnd)
                    elif x < 0.70:
                        kind = "hit"
                        st = d.request("POST", "/v1/kernels", hot[rnd.randrange(len(hot))], J, conn=conn)[0]
                    elif x < 0.78:
                        with lock:
                            fresh[0] += 1
                            i = fresh[0]
                        kind = "miss"
                        st = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(i)), J, conn=conn)[0]
                    elif x < 0.86:
                        kind = "malformed"
                        body = rnd.choice(["{bad", "[1,2]", "", '{"isa": "gfx942", "wavefront": NaN}',
                                           '{"isa": "gfx999"}', '{"isa": "gfx942", "kernel": [1]}'])
                        st = d.request("POST", "/v1/kernels", body, J, conn=conn)[0]
                    elif x < 0.93:
                        kind = "unknown-key"
                        st = d.request("GET", "/v1/kernels/%064x" % rnd.getrandbits(256), conn=conn)[0]
                    else:
                        kind = "get-key"
                        st = d.request("GET", "/v1/kernels/" + keys[rnd.randrange(len(keys))], conn=conn)[0]
                except Exception as ex:  # noqa: BLE001 - reported, counted
                    with lock:
                        errors.append(repr(ex))
                    conn.close()
                    conn = d.conn(timeout=30)
                    continue
                note(kind, st)
            conn.close()

        ts = [threading.Thread(target=worker, args=(w,)) for w in range(a.connections)]
        t0 = time.time()
        for t in ts:
            t.start()
        samples = []
        while any(t.is_alive() for t in ts):
            time.sleep(1)
            samples.append(e2e.rss_kib(pid))
        for t in ts:
            t.join()
        elapsed = time.time() - t0
        # the clients' connections are closed: wait (10 s at most) until
        # kwgend has closed its ends, not a fixed second
        fd_bound = fd0 + 2 + 2 * (2 + 2)
        t_end = time.time() + 10
        while e2e.nfds(pid) > fd_bound and time.time() < t_end:
            time.sleep(0.05)
        rss1, fd1 = e2e.rss_kib(pid), e2e.nfds(pid)
        alive = d.proc.poll() is None
        rc = d.stop()
        total = sum(counts.values())
        n5xx = sum(v for (k, st), v in counts.items() if st >= 500)
        want = {"hit": {200}, "miss": {200}, "malformed": {400, 422}, "unknown-key": {404},
                "get-key": {200}, "slow": {200}}
        unexpected = {"%s:%d" % k: v for k, v in counts.items() if k[1] not in want[k[0]]}
        fig = {"seconds": round(elapsed, 1), "connections": a.connections, "requests": total,
               "requests_per_second": round(total / elapsed), "by_kind": {}, "5xx": n5xx,
               "unexpected": unexpected, "client_errors": len(errors),
               "rss_start_kib": rss0, "rss_end_kib": rss1, "rss_peak_kib": max(samples or [rss1]),
               "fd_start": fd0, "fd_end": fd1, "exit_status": rc}
        for (k, st), v in sorted(counts.items()):
            fig["by_kind"]["%s %d" % (k, st)] = v
        print("soak: " + json.dumps(fig, indent=1))
        if a.figures:
            with open(a.figures, "w") as f:
                json.dump(fig, f, indent=1)
        bad = []
        if not alive:
            bad.append("kwgend died")
        if n5xx:
            bad.append("%d responses were 5xx" % n5xx)
        if unexpected:
            bad.append("unexpected statuses %r" % unexpected)
        if errors:
            bad.append("%d client errors, first %s" % (len(errors), errors[0]))
        if rss1 - rss0 > a.max_rss_growth_mb * 1024:
            bad.append("RSS grew from %d to %d KiB" % (rss0, rss1))
        # the SQLite pool may open one connection (db + WAL descriptors) per
        # thread that reads or writes: 2 polling threads + 2 workers
        if fd1 > fd_bound:
            bad.append("open descriptors grew from %d to %d" % (fd0, fd1))
        if rc != 0:
            bad.append("exit status %d" % rc)
        d.wait_log()
        rep = e2e.sanitizer_report("".join(d.history))
        if rep:
            bad.append("sanitizer report: %s" % rep)
        if total < a.connections:
            bad.append("only %d requests" % total)
        for b in bad:
            print("FAIL soak: " + b)
        print("soak: %s" % ("ok" if not bad else "FAILED"))
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
