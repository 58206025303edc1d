#!/usr/bin/env python3
"""kwgend's storage over a long run: the cache files stay within
--max-cache-bytes, a held SQLite write lock stalls no hit, counters add up,
unusable --db values and read-only caches.  Python 3 stdlib; loopback only,
port 0, temp dirs.

  python3 tests/e2e/storage_test.py [--kwgend build/kwgend]
          [--misses 4000] [--hits 10000] [--lock-seconds 5] [--p99-ms 250]
          [--figures FILE] [--only bounded,hits,lock,counters,db-flag,read-only] [--skip NAME,...]

bounded    --max-cache-bytes 2000000: --misses distinct requests and --hits
           hits (one miss, then hits of stored keys); every 2,000 requests a
           line of the curve (db, -wal, -shm, their total, RSS, descriptors);
           a sampler thread records the peak of db + -wal + -shm.  Fails when
           the peak passes the bound plus the stated slack (KW_SLACK below,
           the same as kwgend --help), when RSS grows over the second half of
           the run or descriptors at the end exceed those at the start.
hits       --hits/2 GETs spread over 500 keys stored over a second before:
           the -wal file does not grow.
lock       a separate sqlite3 connection holds BEGIN IMMEDIATE while 4 clients
           read stored keys (GET by key and repeated POSTs) and /healthz and one
           client posts new requests: p99 of the reads under --p99-ms, every
           write answered 503 "storage" within 1 s.
counters   a known mix of misses, hits (memory and file), 304s, errors and a
           batch; /status and /metrics must equal the client's own tally.
db-flag    --db :memory: and --db "" exit 2 with a message saying what is
           allowed.
read-only  a cache file 0444 and a directory 0555 (the daemon run as an
           unprivileged user when this runs as root, since root ignores file
           modes): starts, serves what it holds, answers writes 503 "storage"
           naming the file.

Prints one line per check and `storage: N passed, M failed`; exit 0 only
when nothing failed.  --figures writes the measured figures as JSON.
"""
import argparse
import http.client
import json
import os
import pwd
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as e2e  # noqa: E402

J = {"Content-Type": "application/json"}
FIG = {}
BOUND = 2000000


def slack(bound):
    """The documented slack over --max-cache-bytes (kwgend --help): one
    eighth of the bound, at least 256 KiB, at most 64 MiB."""
    return min(max(bound // 8, 256 * 1024), 64 << 20)


def files_size(db):
    out = {}
    for sfx in ("", "-wal", "-shm"):
        try:
            out[sfx or "db"] = os.stat(db + sfx).st_size
        except FileNotFoundError:
            out[sfx or "db"] = 0
    out["total"] = out["db"] + out["-wal"] + out["-shm"]
    return out


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


# ------------------------------------------------------------------ bounded


def t_bounded(binary, tmp, misses, hits):
    db = os.path.join(tmp, "bounded.db")
    # a 1 MiB hot cache fills early in the run, so RSS should be flat after
    d = e2e.Daemon(binary, db, "--max-cache-bytes", str(BOUND), "--hot-cache-bytes", "1048576",
                   "--log-level", "error").start()
    pid = d.proc.pid
    peak = {"total": 0}
    stop = threading.Event()

    def sampler():
        while not stop.is_set():
            s = files_size(db)
            if s["total"] > peak["total"]:
                peak.update(s)
            time.sleep(0.02)

    th = threading.Thread(target=sampler, daemon=True)
    th.start()
    curve = []
    c = d.conn()
    keys, bodies = [], []
    rnd = random.Random(8)
    total = misses + hits
    per_miss = hits / float(misses)
    n = nm = nh = 0
    t0 = time.time()
    header = "%8s %7s %7s %9s %9s %7s %9s %8s %4s %7s" % (
        "requests", "misses", "hits", "db", "wal", "shm", "total", "rss_kib", "fds", "entries")
    print("     " + header, flush=True)
    try:
        while n < total:
            if nm < misses and (nh >= nm * per_miss or nh >= hits):
                body = json.dumps(e2e.variant(100000 + nm))
                st, _, data = d.request("POST", "/v1/kernels", body, J, conn=c)
                assert st == 200, (st, data[:200])
                r = json.loads(data)
                assert r["cached"] is False, "request %d was not a miss" % nm
                keys.append(r["key"])
                bodies.append(body)
                keys, bodies = keys[-40:], bodies[-40:]
                nm += 1
            else:
                i = rnd.randrange(len(keys))
                if rnd.random() < 0.7:
                    st, _, data = d.request("GET", "/v1/kernels/" + keys[i], conn=c)
                else:
                    st, _, data = d.request("POST", "/v1/kernels", bodies[i], J, conn=c)
                assert st == 200, (st, data[:200])
                assert json.loads(data)["cached"] is True
                nh += 1
            n += 1
            if n % 2000 == 0 or n == total:
                s = files_size(db)
                stt = d.status()
                row = {"requests": n, "misses": nm, "hits": nh, "db": s["db"], "wal": s["-wal"],
                       "shm": s["-shm"], "total": s["total"], "rss_kib": e2e.rss_kib(pid), "fds": e2e.nfds(pid),
                       "entries": stt["entries"], "seconds": round(time.time() - t0, 1)}
                curve.append(row)
                print("     %8d %7d %7d %9d %9d %7d %9d %8d %4d %7d" % (
                    n, nm, nh, row["db"], row["wal"], row["shm"], row["total"], row["rss_kib"],
                    row["fds"], row["entries"]), flush=True)
    finally:
        stop.set()
        th.join()
        c.close()
        rc = d.stop()
    FIG["bounded"] = {"max_cache_bytes": BOUND, "slack": slack(BOUND), "misses": nm, "hits": nh,
                      "peak": peak, "curve": curve, "seconds": round(time.time() - t0, 1)}
    print("     peak db + wal + shm %d bytes (%r); bound %d + slack %d" % (
        peak["total"], peak, BOUND, slack(BOUND)), flush=True)
    assert rc == 0, "exit status %d" % rc
    lim = BOUND + slack(BOUND)
    assert peak["total"] <= lim, "db + wal + shm peaked at %d bytes (%r), bound %d + slack %d" % (
        peak["total"], peak, BOUND, slack(BOUND))
    half = curve[len(curve) // 2]
    last = curve[-1]
    grow = last["rss_kib"] - half["rss_kib"]
    assert grow < 8 * 1024, "RSS grew %d KiB over the second half (%d -> %d)" % (
        grow, half["rss_kib"], last["rss_kib"])
    assert last["fds"] <= curve[0]["fds"] + 2, "descriptors %d -> %d" % (curve[0]["fds"], last["fds"])


# --------------------------------------------------------------------- hits


def t_hits_write_nothing(binary, tmp, n):
    """n GETs spread over 500 stored keys, all written over a second ago:
    the -wal file does not grow (a hit writes nothing) but by the
    background rounds that write the hit times to last_access (each at
    most one row update per key)."""
    db = os.path.join(tmp, "hits.db")
    d = e2e.Daemon(binary, db, "--log-level", "error").start()
    c = d.conn()
    keys = []
    for i in range(500):
        st, _, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(800000 + i)), J, conn=c)
        assert st == 200, st
        keys.append(json.loads(data)["key"])
    time.sleep(1.5)  # older than a second
    # the POSTs' writes and their checkpoints are over: nothing changes
    # (group commits, checkpoints, the -wal file) over three polls in a row
    # (a loaded machine may still be checkpointing after 1.5 s)
    def settle(what):
        """Wait until nothing changes (group commits, checkpoints, recency
        rounds, the -wal file) over three polls in a row."""
        last, still, deadline = None, 0, time.time() + 60
        while still < 3 and time.time() < deadline:
            now = (d.metric("kwgen_cache_group_commits_total"), d.metric("kwgen_cache_checkpoints_total"),
                   d.metric("kwgen_cache_recency_flushes_total"), files_size(db)["-wal"])
            still = still + 1 if now == last else 0
            last = now
            time.sleep(0.3)
        assert still >= 3, "the store did not settle within 60 s after %s: %r" % (what, last)
        return last

    settle("500 POSTs")
    f0 = d.metric("kwgen_cache_recency_flushes_total")
    w0 = files_size(db)["-wal"]
    for i in range(n):
        st, _, _ = d.request("GET", "/v1/kernels/" + keys[(i * 7) % len(keys)], conn=c)
        assert st == 200, st
    # a recency round writes in several transactions and is counted when
    # it ends: let one that began during the GETs finish before counting
    _, _, f1, w1 = settle("the GETs")
    rounds = f1 - f0
    c.close()
    rc = d.stop()
    FIG["hits"] = {"gets": n, "keys": len(keys), "wal_before": w0, "wal_after": w1}
    print("     %d GETs over %d keys: -wal %d -> %d bytes" % (n, len(keys), w0, w1), flush=True)
    assert rc == 0, "exit status %d" % rc
    # a round rewrites each touched row's leaf page and two index pages
    allowed = int(rounds) * len(keys) * 3 * 4096
    assert w1 <= w0 + allowed, "-wal grew from %d to %d bytes over %d hits (%d recency rounds)" % (
        w0, w1, n, rounds)


# --------------------------------------------------------------------- lock


def t_lock(binary, tmp, seconds, p99_ms):
    db = os.path.join(tmp, "lock.db")
    d = e2e.Daemon(binary, db, "--log-level", "error").start()
    c = d.conn()
    keys, bodies = [], []
    for i in range(50):
        body = json.dumps(e2e.variant(300000 + i))
        st, _, data = d.request("POST", "/v1/kernels", body, J, conn=c)
        assert st == 200, st
        keys.append(json.loads(data)["key"])
        bodies.append(body)
    c.close()
    # rows written more than a second ago: a daemon that refreshes
    # last_access on a hit would want the write lock now
    time.sleep(1.2)
    lat = {"get": [], "post_hit": [], "healthz": [], "write": []}
    bad = []
    lock = threading.Lock()
    stop = threading.Event()

    def reader(w):
        rnd = random.Random(w)
        cc = d.conn(timeout=60)
        while not stop.is_set():
            i = rnd.randrange(len(keys))
            for kind, args in (("get", ("GET", "/v1/kernels/" + keys[i])),
                               ("post_hit", ("POST", "/v1/kernels", bodies[i], J)),
                               ("healthz", ("GET", "/healthz"))):
                t = time.perf_counter()
                st, _, data = d.request(*args, conn=cc)
                dt = (time.perf_counter() - t) * 1000
                with lock:
                    lat[kind].append(dt)
                    if st != 200:
                        bad.append((kind, st, data[:120]))
        cc.close()

    def writer():
        cc = d.conn(timeout=60)
        i = 0
        while not stop.is_set():
            t = time.perf_counter()
            st, h, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(400000 + i)), J, conn=cc)
            dt = (time.perf_counter() - t) * 1000
            i += 1
            with lock:
                lat["write"].append(dt)
                code = json.loads(data).get("error", {}).get("code") if st != 200 else None
                if st != 503 or code != "storage" or "retry-after" not in h:
                    bad.append(("write", st, data[:120]))
            time.sleep(0.05)
        cc.close()

    locker = sqlite3.connect(db, timeout=5, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    ths = [threading.Thread(target=reader, args=(w,)) for w in range(4)] + [threading.Thread(target=writer)]
    try:
        for t in ths:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in ths:
            t.join()
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    # the lock released, writes work again at once
    st, _, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(499999)), J)
    rc = d.stop()
    fig = {}
    for k, xs in lat.items():
        fig[k] = {"n": len(xs), "p50_ms": round(pct(xs, 50), 2), "p99_ms": round(pct(xs, 99), 2),
                  "max_ms": round(max(xs), 2) if xs else None}
    reads = lat["get"] + lat["post_hit"] + lat["healthz"]
    fig["reads_p99_ms"] = round(pct(reads, 99), 2)
    fig["seconds"] = seconds
    FIG["lock"] = fig
    print("     held lock %ds: %s" % (seconds, json.dumps(fig)), flush=True)
    assert st == 200, ("after the lock", st, data[:200])
    assert rc == 0, "exit status %d" % rc
    assert not bad, "%d unexpected answers, first %r" % (len(bad), bad[:3])
    assert fig["write"]["max_ms"] < 1000, "a write under the held lock took %.0f ms" % fig["write"]["max_ms"]
    for k in ("get", "post_hit", "healthz"):
        assert fig[k]["n"] >= 20, "only %d %s requests in %d s" % (fig[k]["n"], k, seconds)
        assert fig[k]["p99_ms"] < p99_ms, "%s p99 %.1f ms >= %d ms" % (k, fig[k]["p99_ms"], p99_ms)


# ----------------------------------------------------------------- counters


def t_counters(binary, tmp):
    db = os.path.join(tmp, "counters.db")
    d = e2e.Daemon(binary, db, "--log-level", "error").start()
    tally = {"hits": 0, "misses": 0, "errors": 0}

    def note(st, data, head=False):
        if st == 304 or (st == 200 and head):
            tally["hits"] += 1
        elif st == 200:
            tally["hits" if json.loads(data)["cached"] else "misses"] += 1
        else:
            tally["errors"] += 1

    c = d.conn()
    bodies, keys = [], []
    for i in range(10):
        body = json.dumps(e2e.variant(600000 + i))
        st, _, data = d.request("POST", "/v1/kernels", body, J, conn=c)
        assert st == 200 and json.loads(data)["cached"] is False
        note(st, data)
        bodies.append(body)
        keys.append(json.loads(data)["key"])
    for _ in range(3):                       # repeats: file, then memory
        for b in bodies:
            st, _, data = d.request("POST", "/v1/kernels", b, J, conn=c)
            assert st == 200 and json.loads(data)["cached"] is True
            note(st, data)
    for k in keys:                           # GET by key
        st, _, data = d.request("GET", "/v1/kernels/" + k, conn=c)
        note(st, data)
    for k in keys[:5]:                       # HEAD by key
        st, _, data = d.request("HEAD", "/v1/kernels/" + k, conn=c)
        note(st, data, head=True)
    for k in keys[:3]:                       # 304
        st, _, data = d.request("GET", "/v1/kernels/" + k, None, {"If-None-Match": '"%s"' % k}, conn=c)
        assert st == 304, st
        note(st, data)
    for k in ("0" * 64, "f" * 64, "nothex"):  # 404s
        st, _, data = d.request("GET", "/v1/kernels/" + k, conn=c)
        assert st == 404
        note(st, data)
    for b in ("{", "[]", json.dumps(dict(e2e.variant(1), isa="gfx000"))):
        st, _, data = d.request("POST", "/v1/kernels", b, J, conn=c)
        assert st in (400, 422), st
        note(st, data)
    st, _, data = d.request("POST", "/v1/kernels?cache=bypass", bodies[0], J, conn=c)
    note(st, data)
    batch = {"requests": [e2e.variant(610000), e2e.variant(610001), json.loads(bodies[1]),
                          dict(e2e.variant(2), isa="gfx000"), 7]}
    st, _, data = d.request("POST", "/v1/kernels:batch", json.dumps(batch), J, conn=c)
    assert st == 200, st
    for item in json.loads(data)["results"]:
        if item["status"] == 200:
            tally["hits" if item["response"]["cached"] else "misses"] += 1
        else:
            tally["errors"] += 1
    c.close()
    # single flight: 8 clients post one new body at once
    body = json.dumps(e2e.variant(620000))
    barrier = threading.Barrier(8)
    answers = []

    def one():
        cc = d.conn()
        cc.connect()
        barrier.wait()
        answers.append(d.request("POST", "/v1/kernels", body, J, conn=cc))
        cc.close()

    ths = [threading.Thread(target=one) for _ in range(8)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    for st, _, data in answers:
        note(st, data)
    stt = d.status()
    m = {k: d.metric("kwgen_cache_%s_total" % k) for k in ("hits", "misses")}
    try:
        m["errors"] = d.metric("kwgen_kernel_errors_total")
    except AssertionError:
        m["errors"] = -1  # not exported
    rc = d.stop()
    FIG["counters"] = {"client": tally, "status": {k: stt.get(k) for k in tally},
                       "metrics": {k: int(v) for k, v in m.items()}}
    print("     %s" % json.dumps(FIG["counters"]), flush=True)
    assert rc == 0
    for k in tally:
        assert stt.get(k) == tally[k], "/status %s = %r, the client counted %d" % (k, stt.get(k), tally[k])
        assert int(m[k]) == tally[k], "/metrics %s = %r, the client counted %d" % (k, m[k], tally[k])


def t_old_snapshot(binary, tmp):
    """A connection that holds an old read snapshot (a `sqlite3` session
    left in a transaction) keeps checkpoints from reaching the WAL's end:
    the files stay within --max-cache-bytes + slack (they grew to 295 MB
    for a 2 MB bound), the writes get 503 storage at once, hits still 200,
    and writes resume when the reader ends."""
    d = e2e.Daemon(binary, os.path.join(tmp, "snapshot.db"), "--log-level", "error",
                   "--max-cache-bytes", str(BOUND)).start()
    con = None
    c = d.conn()   # one keep-alive connection (http.client opens another if kwgend closes it)
    try:
        for i in range(300):
            st, _, _ = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700000 + i)), J, conn=c)
            assert st == 200, st
        st, _, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700000)), J, conn=c)
        assert st == 200, st
        con = sqlite3.connect(d.db, isolation_level=None)
        con.execute("BEGIN")
        con.execute("SELECT count(*) FROM entries").fetchone()
        codes, peak, slowest = {}, 0, 0.0
        for i in range(300, 2300):
            t0 = time.time()
            st, _, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700000 + i)), J, conn=c)
            slowest = max(slowest, time.time() - t0)
            codes[st] = codes.get(st, 0) + 1
            if st == 503:
                assert b"old snapshot" in data, data[:300]
            peak = max(peak, files_size(d.db)["total"])
        st, _, _ = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700000)), J, conn=c)
        assert st == 200, "a hit during the held snapshot: %d" % st
        assert codes.get(503, 0) > 0, codes
        assert peak <= BOUND + slack(BOUND), "files peaked at %d with a reader holding a snapshot" % peak
        con.execute("COMMIT")
        con.close()
        con = None
        after = {}
        for i in range(2300, 2500):
            st, _, _ = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700000 + i)), J, conn=c)
            after[st] = after.get(st, 0) + 1
        assert after == {200: 200}, after
        FIG["old_snapshot"] = "2,000 misses while a reader held a snapshot: %r, peak %d bytes " \
            "(bound %d + slack %d), slowest %.0f ms; after it ended: %r" % (
                codes, peak, BOUND, slack(BOUND), slowest * 1000, after)
    finally:
        c.close()
        if con:
            con.close()
        rc = d.stop()
    assert rc == 0, rc


# ------------------------------------------------------------------ db flag


def t_db_flag(binary, tmp):
    for bad in (":memory:", ""):
        p = subprocess.run([binary, "--listen", "127.0.0.1:0", "--db", bad], capture_output=True,
                           timeout=20)
        err = p.stderr.decode()
        assert p.returncode == 2, ("--db %r" % bad, p.returncode, err)
        assert "--db" in err and "file" in err, err
    FIG["db_flag"] = "--db :memory: and --db \"\": exit 2, %s" % err.strip().splitlines()[0]
    # a directory or a FIFO is no cache file (with a device such as
    # /dev/null, SQLite made /dev/null-journal next to it)
    fifo = os.path.join(tmp, "fifo.db")
    os.mkfifo(fifo)
    for bad, what in ((tmp, "a directory"), (fifo, "a FIFO")):
        p = subprocess.run([binary, "--listen", "127.0.0.1:0", "--db", bad], capture_output=True,
                           timeout=20)
        err = p.stderr.decode()
        assert p.returncode == 2 and what in err and "regular file" in err, (bad, p.returncode, err)
    assert sorted(os.listdir(tmp)).count("fifo.db-journal") == 0, os.listdir(tmp)


# ---------------------------------------------------------------- read-only


def as_user():
    """The command prefix that runs the daemon as an unprivileged user when
    this runs as root (root ignores file modes), else nothing."""
    if os.geteuid() != 0:
        return [], None
    if not shutil.which("setpriv"):
        return None, None
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        return None, None
    return ["setpriv", "--reuid=%d" % pw.pw_uid, "--regid=%d" % pw.pw_gid, "--clear-groups"], pw


def t_read_only(binary, tmp):
    prefix, pw = as_user()
    if prefix is None:
        FIG["read_only"] = "skipped (running as root without setpriv or user nobody)"
        raise e2e.Skip("running as root without setpriv or a user nobody: root ignores file modes")
    base = os.path.join(tmp, "ro")
    os.mkdir(base)
    os.chmod(tmp, 0o755)
    if not os.access(binary, os.X_OK):
        raise AssertionError("%s not executable" % binary)
    results = {}
    for case in ("file-0444", "dir-0555"):
        dd = os.path.join(base, case)
        os.mkdir(dd)
        db = os.path.join(dd, "c.db")
        w = e2e.Daemon(binary, db, "--log-level", "error").start()
        st, _, r = w.post(e2e.variant(700000))
        assert st == 200, st
        key = r["key"]
        body = json.dumps(e2e.variant(700000))
        assert w.stop() == 0
        if pw:
            os.chown(dd, pw.pw_uid, pw.pw_gid)
            for f in os.listdir(dd):
                os.chown(os.path.join(dd, f), pw.pw_uid, pw.pw_gid)
        if case == "file-0444":
            os.chmod(db, 0o444)
        else:
            os.chmod(dd, 0o555)
        before = sorted(os.listdir(dd))
        try:
            d = e2e.Daemon(binary, db, "--log-level", "warn")
            d.prefix = prefix
            d.start()
            try:
                st, _, data = d.request("GET", "/v1/kernels/" + key)
                assert st == 200, ("stored entry", st, data[:200])
                st, _, data = d.request("POST", "/v1/kernels", body, J)
                assert st == 200 and json.loads(data)["cached"] is True, (st, data[:200])
                st, h, data = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(700001)), J)
                err = json.loads(data).get("error", {})
                assert st == 503 and err.get("code") == "storage" and "retry-after" in h, (st, data[:300])
                assert db in err.get("message", ""), "the 503 does not name %s: %r" % (db, err)
                assert d.request("GET", "/healthz")[0] == 200
                # a start-up line (polled: it may follow the port line)
                t_end = time.time() + 10
                while time.time() < t_end and not any("read-only" in x and db in x for x in list(d.log)):
                    time.sleep(0.01)
                warned = [x for x in list(d.log) if "read-only" in x and db in x]
                assert warned, "no start-up line names %s as read-only: %r" % (db, d.log[:5])
                results[case] = err["message"]
            finally:
                assert d.stop() == 0
        finally:
            os.chmod(dd, 0o755)
            if os.path.exists(db):
                os.chmod(db, 0o644)
        print("     %s: %s" % (case, results[case]), flush=True)
        assert before == sorted(os.listdir(dd)) or case == "file-0444", (before, os.listdir(dd))
    FIG["read_only"] = results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--misses", type=int, default=4000)
    ap.add_argument("--hits", type=int, default=10000)
    ap.add_argument("--lock-seconds", type=int, default=5)
    ap.add_argument("--p99-ms", type=float, default=250)
    ap.add_argument("--figures", default="")
    ap.add_argument("--only", default="")
    ap.add_argument("--skip", default="", help="comma-separated checks not to run")
    a = ap.parse_args()
    binary = os.path.abspath(a.kwgend)
    only = set(x for x in a.only.split(",") if x)
    skip = set(x for x in a.skip.split(",") if x)
    tmp = tempfile.mkdtemp(prefix="kwgen-storage-")
    os.chmod(tmp, 0o755)
    try:
        checks = [
            ("db-flag", "--db :memory:, \"\", a directory and a FIFO refused", t_db_flag, (binary, tmp)),
            ("counters", "counters equal the client's tally", t_counters, (binary, tmp)),
            ("read-only", "read-only cache serves and answers writes 503", t_read_only, (binary, tmp)),
            ("hits", "%d hits write nothing" % (a.hits // 2), t_hits_write_nothing, (binary, tmp, a.hits // 2)),
            ("lock", "held write lock: reads p99 < %g ms, writes 503 fast" % a.p99_ms, t_lock,
             (binary, tmp, a.lock_seconds, a.p99_ms)),
            ("bounded", "%d misses + %d hits within --max-cache-bytes %d + slack" % (a.misses, a.hits, BOUND),
             t_bounded, (binary, tmp, a.misses, a.hits)),
            ("old-snapshot", "a reader on an old snapshot: files within the bound, writes 503 until it ends",
             t_old_snapshot, (binary, tmp)),
        ]
        for tag, name, fn, args in checks:
            if (not only or tag in only) and tag not in skip:
                e2e.check(name, fn, *args)
        e2e.sanitizer_check("no sanitizer report from any kwgend")
    finally:
        # a check that failed half-way may have left its daemon running
        for d in e2e.Daemon.started:
            if d.proc and d.proc.poll() is None:
                d.kill9()
        shutil.rmtree(tmp, ignore_errors=True)
        if a.figures:
            with open(a.figures, "w") as f:
                json.dump(FIG, f, indent=1)
    print("storage: %d passed, %d failed, %d skipped" % (e2e.PASSED, e2e.FAILED, e2e.SKIPPED))
    return e2e.exit_status() if e2e.PASSED > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
