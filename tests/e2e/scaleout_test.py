#!/usr/bin/env python3
"""Scale-out test: three kwgend replicas behind a real nginx running the
project's own docker/nginx.conf (consistent hashing on the configuration).

  scaleout_test.py [--kwgend build/kwgend] [--nginx nginx] [--sample N]
                   [--logic "build/kwgen logic"]

Everything runs unprivileged on loopback: each replica gets a free port
(--listen 127.0.0.1:0) and its own temporary SQLite file; nginx runs in the
foreground with a temporary prefix holding a verbatim copy of
docker/nginx.conf plus the two files it includes (kwgen-listen.conf,
kwgen-upstream.conf) written for these ports.

Checks
  (d) replaying a corpus sample (tests/golden/requests.jsonl.gz, drawn with
      repeats) through nginx: every repeat of a configuration is a cache hit,
      so the hit rate equals the ideal (repeats / requests); the same with
      routing on the body alone (no X-Kwgen-Config header), and for
      `kwgen logic --server` batches;
  (a) a repeated configuration is answered by the same replica
      (X-Kwgen-Replica, added by nginx from $upstream_addr), from its cache;
  (b) every replica, asked directly, gives the same key and results;
  (c) with one replica killed (SIGKILL), every request still succeeds, with
      the same results; requests that lived on the dead replica move to the
      others.
Prints "scaleout: N passed, M failed".
"""
import argparse
import gzip
import hashlib
import http.client
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import sanitizer_report  # noqa: E402
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)
    return ok


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config_id(req):
    return hashlib.sha256(json.dumps(req, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Conn:
    """A keep-alive HTTP/1.1 connection that reconnects when dropped."""

    def __init__(self, port):
        self.port = port
        self.c = None

    def request(self, method, path, body=None, headers=None, timeout=60):
        data = json.dumps(body).encode() if body is not None else None
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        for attempt in range(2):
            try:
                if self.c is None:
                    self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
                self.c.request(method, path, body=data, headers=h)
                r = self.c.getresponse()
                raw = r.read()
                try:
                    doc = json.loads(raw) if raw else None
                except ValueError:
                    doc = {"raw": raw.decode(errors="replace")}
                return r.status, doc, {k.lower(): v for k, v in r.getheaders()}
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.c:
            self.c.close()
        self.c = None


class Replica:
    def __init__(self, kwgend, tmp, i):
        self.dir = os.path.join(tmp, "replica%d" % i)
        os.makedirs(self.dir)
        self.errpath = os.path.join(self.dir, "stderr.log")
        self.err = open(self.errpath, "w+")
        self.proc = subprocess.Popen([kwgend, "--listen", "127.0.0.1:0", "--db", os.path.join(self.dir, "cache.db")],
                                     stdout=subprocess.DEVNULL, stderr=self.err)
        self.port = None
        deadline = time.time() + 15
        while time.time() < deadline and self.port is None:
            if self.proc.poll() is not None:
                break
            with open(self.errpath) as f:
                m = re.search(r"kwgend: listening on 127\.0\.0\.1:(\d+)", f.read())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.05)
        if self.port is None:
            with open(self.errpath) as f:
                raise RuntimeError("kwgend did not start: %s" % f.read()[-2000:])
        self.addr = "127.0.0.1:%d" % self.port

    def stop(self, sig=signal.SIGTERM):
        """SIGTERM; returns a list of problems (non-zero exit, no exit within
        15 s, a sanitizer report in stderr).  A replica the test killed
        (SIGKILL) is only checked for sanitizer reports."""
        problems = []
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                rc = self.proc.wait(timeout=15)
                if rc != 0:
                    problems.append("exit status %d on SIGTERM" % rc)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                problems.append("no exit within 15 s of SIGTERM")
        self.err.close()
        with open(self.errpath) as f:
            rep_ = sanitizer_report(f.read())
        if rep_:
            problems.append("sanitizer report: %s" % rep_)
        return problems


class Nginx:
    def __init__(self, nginx, conf, tmp, replicas):
        self.prefix = os.path.join(tmp, "nginx") + "/"
        os.makedirs(os.path.join(self.prefix, "logs"))
        if os.geteuid() == 0:  # workers drop to nobody: let them reach the temp dirs
            os.chmod(tmp, 0o755)
            os.chmod(self.prefix, 0o755)
        shutil.copy(conf, os.path.join(self.prefix, "nginx.conf"))
        self.port = free_port()
        with open(os.path.join(self.prefix, "kwgen-listen.conf"), "w") as f:
            f.write("listen 127.0.0.1:%d;\n" % self.port)
        with open(os.path.join(self.prefix, "kwgen-upstream.conf"), "w") as f:
            for r in replicas:
                f.write("server %s max_fails=2 fail_timeout=10s;\n" % r.addr)
        self.errpath = os.path.join(self.prefix, "stderr.log")
        self.err = open(self.errpath, "w")
        self.proc = subprocess.Popen([nginx, "-p", self.prefix, "-c", os.path.join(self.prefix, "nginx.conf"), "-e", "stderr"],
                                     stdout=subprocess.DEVNULL, stderr=self.err)
        deadline = time.time() + 15
        c = Conn(self.port)
        while True:
            try:
                if c.request("GET", "/nginx-healthz")[0] == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                with open(self.errpath) as f:
                    raise RuntimeError("nginx did not start: %s" % f.read()[-2000:])
            time.sleep(0.05)
        c.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful; the master reaps its workers
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()


def replica_of(headers):
    """Last address nginx tried (after a failover the header lists several)."""
    v = headers.get("x-kwgen-replica", "")
    return v.split(",")[-1].strip()


def load_pool(path, n, rng):
    """n requests of the golden set whose oracle answer is not an error
    (answers.jsonl.gz beside it, line by line), without the "source" note.
    Only the n drawn are parsed (the set is ~60 MB of JSON); an answer is an
    error when its line starts with {"error" (the oracle writes the key first)."""
    with gzip.open(path, "rt") as f:
        reqs = f.readlines()
    apath = path.replace("requests.jsonl.gz", "answers.jsonl.gz")
    if os.path.exists(apath):
        with gzip.open(apath, "rt") as f:
            answers = f.readlines()
        if len(answers) == len(reqs):
            reqs = [r for r, a in zip(reqs, answers) if not a.lstrip().startswith('{"error"')]
    pool = [json.loads(l) for l in rng.sample(reqs, min(n, len(reqs)))]
    for r in pool:
        r.pop("source", None)
    return pool


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    ap.add_argument("--conf", default=os.path.join(ROOT, "docker", "nginx.conf"))
    ap.add_argument("--requests", default=os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"))
    ap.add_argument("--sample", type=int, default=300, help="distinct configurations in the replayed sample")
    ap.add_argument("--replay", type=int, default=900, help="requests replayed (drawn with repeats)")
    ap.add_argument("--logic", default="", help='command for logic import, e.g. "build/kwgen logic"')
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    if not os.access(a.kwgend, os.X_OK):
        print("scaleout: %s is not built (make %s)" % (a.kwgend, os.path.relpath(a.kwgend, ROOT)))
        return 2
    if not os.access(a.nginx, os.X_OK):
        print("scaleout: nginx not found (Debian package nginx; make deps)")
        return 2
    rng = random.Random(a.seed)
    pool = load_pool(a.requests, a.sample, rng)
    tmp = tempfile.mkdtemp(prefix="kwgen-scaleout-")
    replicas, ngx = [], None
    try:
        replicas = [Replica(a.kwgend, tmp, i) for i in range(3)]
        ngx = Nginx(a.nginx, a.conf, tmp, replicas)
        lb = Conn(ngx.port)
        addrs = [r.addr for r in replicas]
        print("scaleout: replicas %s behind nginx 127.0.0.1:%d" % (", ".join(addrs), ngx.port), flush=True)
        st, doc, hdr = lb.request("GET", "/healthz")
        check(st == 200 and replica_of(hdr) in addrs, "GET /healthz through nginx: %s %s" % (st, hdr.get("x-kwgen-replica")))

        # (d) replay a sample with repeats; the ideal hit rate is repeats / requests
        replay = [rng.choice(pool) for _ in range(a.replay)]
        first = {}      # config id -> (replica, response)
        hits = errors = moved = 0
        per_replica = {x: 0 for x in addrs}
        placed = set()  # (replica, key): entries in the replicas' caches
        keys = set()
        t0 = time.time()
        for req in replay:
            cid = config_id(req)
            st, doc, hdr = lb.request("POST", "/v1/kernels", req, {"X-Kwgen-Config": cid})
            if st != 200:
                errors += 1
                if errors <= 3:
                    print("  replay: HTTP %d: %s" % (st, json.dumps(doc)[:300]))
                continue
            rep = replica_of(hdr)
            per_replica[rep] = per_replica.get(rep, 0) + 1
            if doc.get("cached") is True:
                hits += 1
            placed.add((rep, doc.get("key")))
            keys.add(doc.get("key"))
            if cid in first:
                if first[cid][0] != rep:
                    moved += 1
            else:
                first[cid] = (rep, doc)
        dt = time.time() - t0
        n_ok = len(replay) - errors
        ideal = (n_ok - len(keys)) / max(n_ok, 1)
        rate = hits / max(n_ok, 1)
        print("scaleout: replayed %d requests (%d distinct configurations, %d distinct keys) in %.2fs: "
              "cache hit rate %.1f%% (ideal, one cache for all: %.1f%%), %d keys cached on more than one replica, "
              "%d errors; per replica %s" % (
                  len(replay), len(first), len(keys), dt, 100 * rate, 100 * ideal, len(placed) - len(keys), errors,
                  ", ".join("%s=%d" % kv for kv in sorted(per_replica.items()))), flush=True)
        check(errors == 0, "(d) replay: %d errors" % errors)
        check(moved == 0, "(d) replay: %d repeats were answered by another replica" % moved)
        check(hits == n_ok - len(placed), "(d) every repeat on a replica is a hit: %d hits, expected %d" % (hits, n_ok - len(placed)))
        check(sum(1 for v in per_replica.values() if v > 0) == 3, "(d) all three replicas serve: %s" % per_replica)

        # (d') routing on the body alone (no header): repeats still hit
        body_first, body_hits, body_errs = {}, 0, 0
        sub = pool[: min(60, len(pool))]
        for rnd in range(2):
            for req in sub:
                req2 = dict(req)  # a configuration not seen yet: flip outputNoComment
                req2["outputNoComment"] = not bool(req.get("outputNoComment", False))
                st, doc, hdr = lb.request("POST", "/v1/kernels", req2)
                if st != 200:
                    body_errs += 1
                    continue
                cid = config_id(req2)
                if rnd == 0:
                    body_first[cid] = replica_of(hdr)
                else:
                    body_hits += doc.get("cached") is True and body_first.get(cid) == replica_of(hdr)
        check(body_errs == 0 and body_hits == len(sub),
              "(d) body-hash routing: %d of %d repeats hit the same replica's cache, %d errors" % (body_hits, len(sub), body_errs))
        print("scaleout: routing on the body (no X-Kwgen-Config): %d/%d repeats served from cache" % (body_hits, len(sub)))

        # (d'') kwgen logic --server through nginx, twice: the second pass is all hits
        if a.logic:
            fx = os.path.join(ROOT, "tests", "logic", "fixtures", "gfx940.yaml")  # a fixture with no broken solution
            base = "http://127.0.0.1:%d" % ngx.port
            outs = []
            for rnd in range(2):
                p = subprocess.run(shlex.split(a.logic) + ["--server", base, "--batch", "8", "--no-progress", fx],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
                err = p.stderr.decode("utf-8", "replace")
                summ = err.strip().splitlines()[-1] if err.strip() else ""
                outs.append(summ)
                print("scaleout: kwgen logic pass %d: exit %d: %s" % (rnd + 1, p.returncode, summ), flush=True)
                me = re.search(r"(?:\b0 errors|no errors)", summ)
                check(p.returncode == 0 and me is not None,
                      "(d) kwgen logic --server pass %d exits 0 with 0 errors: exit %d, %r"
                      % (rnd + 1, p.returncode, summ))
                rep_ = sanitizer_report(err)
                check(rep_ is None, "(d) kwgen logic --server pass %d: sanitizer report: %s" % (rnd + 1, rep_))
            m1 = re.search(r"(\d+) posted, (\d+) unique keys?, (\d+) cache hits?", outs[0])
            m2 = re.search(r"(\d+) posted, (\d+) unique keys?, (\d+) cache hits?", outs[1])
            check(m1 and m2 and int(m2.group(1)) > 0 and m2.group(1) == m2.group(3),
                  "(d) kwgen logic second pass all from cache: %s" % outs[1])

        # (a) the same configuration twice: same replica, second from cache, same answer
        same = cached = equal = 0
        for req in pool[:50]:
            cid = config_id(req)
            r1 = lb.request("POST", "/v1/kernels", req, {"X-Kwgen-Config": cid})
            r2 = lb.request("POST", "/v1/kernels", req, {"X-Kwgen-Config": cid})
            if r1[0] == r2[0] == 200:
                same += replica_of(r1[2]) == replica_of(r2[2])
                cached += r2[1].get("cached") is True
                equal += r1[1].get("results") == r2[1].get("results") and r1[1].get("key") == r2[1].get("key")
        n = min(50, len(pool))
        check(same == n, "(a) same replica for a repeated configuration: %d/%d" % (same, n))
        check(cached == n, "(a) repeat answered from cache: %d/%d" % (cached, n))
        check(equal == n, "(a) repeat gives the same key and results: %d/%d" % (equal, n))

        # (b) every replica gives the same answer
        direct = [Conn(r.port) for r in replicas]
        agree = 0
        sub = pool[:30]
        for req in sub:
            answers = []
            for c in direct:
                st, doc, _ = c.request("POST", "/v1/kernels", req)
                answers.append((st, doc.get("key") if st == 200 else None, json.dumps(doc.get("results"), sort_keys=True) if st == 200 else None))
            agree += all(x == answers[0] for x in answers) and answers[0][0] == 200
        check(agree == len(sub), "(b) identical answers from all replicas: %d/%d" % (agree, len(sub)))
        for c in direct:
            c.close()

        # (c) kill the busiest replica; everything still succeeds
        victim = max(replicas, key=lambda r: per_replica.get(r.addr, 0))
        on_victim = [cid for cid, (rep, _) in first.items() if rep == victim.addr]
        victim.proc.kill()
        victim.proc.wait()
        lb.close()
        ok = same_results = rerouted = 0
        worst = 0.0
        seen = set()
        for req in replay:
            cid = config_id(req)
            if cid in seen:
                continue
            seen.add(cid)
            t = time.time()
            try:
                st, doc, hdr = lb.request("POST", "/v1/kernels", req, {"X-Kwgen-Config": cid})
            except OSError as e:
                st, doc, hdr = 0, {"error": str(e)}, {}
            worst = max(worst, time.time() - t)
            if st == 200:
                ok += 1
                same_results += doc.get("results") == first[cid][1].get("results")
                rerouted += cid in on_victim and replica_of(hdr) != victim.addr
        check(ok == len(seen), "(c) with %s killed: %d/%d requests succeeded" % (victim.addr, ok, len(seen)))
        check(same_results == len(seen), "(c) same results after failover: %d/%d" % (same_results, len(seen)))
        check(rerouted == len(on_victim), "(c) %d/%d configurations of the dead replica answered by the others" % (rerouted, len(on_victim)))
        print("scaleout: failover: %s killed; %d/%d requests succeeded, %d configurations moved to the survivors, "
              "slowest request %.0f ms" % (victim.addr, ok, len(seen), rerouted, 1000 * worst), flush=True)
        lb.close()
    finally:
        if ngx:
            ngx.stop()
        for r in replicas:
            for prob in r.stop():
                check(False, "replica %s: %s" % (r.addr if r.port else r.dir, prob))
        if failed:
            for r in replicas:
                with open(r.errpath) as f:
                    tail = f.read()[-1500:]
                print("--- %s stderr (tail):\n%s" % (r.addr if r.port else r.dir, tail))
            if ngx:
                with open(ngx.errpath) as f:
                    print("--- nginx stderr (tail):\n%s" % f.read()[-1500:])
        shutil.rmtree(tmp, ignore_errors=True)
    print("scaleout: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
