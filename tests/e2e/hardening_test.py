#!/usr/bin/env python3
"""Hardening tests of kwgend: bad input, access control, TLS, connection
limits, slow clients, the in-flight cap, storage faults and kill -9 loops.
The real daemon on loopback (port 0), temp cache files.  Python 3 stdlib
plus the openssl and curl commands.

  python3 tests/e2e/hardening_test.py [--kwgend build/kwgend]
          [--kill-cycles 20] [--only NAME,...] [--figures FILE]

Prints one line per check, the figures (input classes, kill cycles, ...)
and a final line `hardening: N passed, M failed`; exit status 0 only when
nothing failed.  Checks: bad-inputs, auth, tls, connections, slow-client, body-memory,
inflight, storage-full, storage-disk, corrupt-db, kill-loop.
"""
import argparse
import copy
import glob
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as e2e  # noqa: E402  (the Daemon helper and the check() reporter)

BAD = os.path.join(ROOT, "tests", "bad-inputs")
FIG = {}
BAD_DB = []   # t_bad_inputs' cache file once its daemon stopped cleanly

# The limits the bad-input cases are written against (tests/bad-inputs/).
LIMIT_FLAGS = ["--max-body-bytes", "65536", "--max-batch", "8", "--max-depth", "16",
               "--max-string-bytes", "256", "--max-array-items", "64", "--max-generators", "8",
               "--max-acc-len", "4096", "--max-output-bytes", "1048576",
               "--max-verify-bytes", "65536", "--max-verify-instructions", "2000",
               "--max-verify-work", "1000"]


def example():
    return e2e.example()


def good(d, conn=None, headers=None):
    """A known-good request still gets 200."""
    st, _, data = d.request("POST", "/v1/kernels", json.dumps(example()),
                            dict({"Content-Type": "application/json"}, **(headers or {})), conn=conn)
    assert st == 200, (st, data[:200])
    return json.loads(data)


def stop_ok(d):
    """SIGTERM: exit 0 and no sanitizer report on stderr."""
    rc = d.stop()
    d.wait_log()
    report = e2e.sanitizer_report("".join(d.log))
    assert not report, report
    assert rc == 0, "exit status %d; its last log lines: %s" % (rc, "".join(d.log[-8:])[-1500:])


def set_path(obj, dotted, value):
    parts = dotted.split(".")
    for p in parts[:-1]:
        obj = obj.setdefault(p, {})
    obj[parts[-1]] = value


def case_request(c):
    """-> (method, path, headers, body bytes or None) of one case file."""
    headers = {"Content-Type": "application/json"}
    for k, v in (c.get("headers") or {}).items():
        if v is None:
            headers.pop(k, None)
        else:
            headers[k] = v
    body = None
    if "body_from" in c:
        with open(os.path.join(ROOT, c["body_from"])) as f:
            obj = json.load(f)
        for k, v in (c.get("set") or {}).items():
            set_path(obj, k, copy.deepcopy(v))
        for k in c.get("delete") or []:
            obj.pop(k, None)
        body = json.dumps(obj).encode()
    elif "body" in c:
        body = json.dumps(c["body"]).encode()
    elif "body_raw" in c:
        raw = c["body_raw"]
        if isinstance(raw, str):
            body = raw.encode()
        elif "hex" in raw:
            body = bytes.fromhex(raw["hex"])
        else:
            body = (raw.get("prefix", "") + raw["repeat"] * raw["count"] + raw.get("suffix", "")).encode()
    if body is None and c["method"] in ("GET", "HEAD", "DELETE"):
        headers.pop("Content-Type", None)
    return c["method"], c["path"], headers, body


def t_bad_inputs(binary, tmp):
    files = sorted(glob.glob(os.path.join(BAD, "*.json")))
    assert len(files) >= 40, "only %d cases" % len(files)
    d = e2e.Daemon(binary, os.path.join(tmp, "bad.db"), "--log-level", "error", *LIMIT_FLAGS).start()
    bad = []
    try:
        for path in files:
            name = os.path.basename(path)[:-5]
            with open(path) as f:
                c = json.load(f)
            method, url, headers, body = case_request(c)
            try:
                st, h, data = d.request(method, url, body, headers)
            except (ConnectionError, http.client.HTTPException) as ex:
                bad.append("%s: %s" % (name, ex))
                continue
            why = []
            if st != c["expect_status"]:
                why.append("status %d, want %d" % (st, c["expect_status"]))
            try:
                err = json.loads(data)["error"]
            except (ValueError, KeyError, TypeError):
                err = None
                why.append("no error body: %r" % data[:80])
            if err:
                if err.get("code") != c["expect_code"]:
                    why.append("code %r, want %r" % (err.get("code"), c["expect_code"]))
                if "expect_field" in c and err.get("field") != c["expect_field"]:
                    why.append("field %r, want %r" % (err.get("field"), c["expect_field"]))
                if c.get("expect_message") and c["expect_message"] not in err.get("message", ""):
                    why.append("message %r lacks %r" % (err.get("message"), c["expect_message"]))
            for k, v in (c.get("expect_headers") or {}).items():
                if h.get(k.lower()) != v:
                    why.append("header %s %r, want %r" % (k, h.get(k.lower()), v))
            if why:
                bad.append("%s: %s" % (name, "; ".join(why)))
            assert d.proc.poll() is None, "kwgend exited after %s" % name
        good(d)
        s, _, _ = d.request("GET", "/healthz")
        assert s == 200
        FIG["bad_input_cases"] = len(files)
        FIG["bad_input_5xx"] = sum(1 for b in bad if "status 5" in b)
    finally:
        stop_ok(d)
    BAD_DB.append(d.db)   # stopped with exit 0, good() stored in it: t_corrupt_db's file
    for b in bad[:20]:
        print("     " + b)
    assert not bad, "%d of %d cases wrong" % (len(bad), len(files))


def t_auth(binary, tmp):
    tokens = os.path.join(tmp, "tokens")
    with open(tokens, "w") as f:
        f.write("# farm tokens\n\n  s3cret-token-one  \nsecond-token\n")
    # a file that is not a token file is refused at once, naming it, never
    # read for ever (/dev/zero: one endless line of NULs)
    long_line = os.path.join(tmp, "long-line")
    with open(long_line, "w") as f:
        f.write("x" * 100000 + "\n")
    for path, want in (("/dev/zero", b"/dev/zero:1: a NUL byte"), (long_line, b":1: a line is over 4352 bytes")):
        t0 = time.monotonic()
        p = subprocess.run([binary, "--listen", "127.0.0.1:0", "--db", os.path.join(tmp, "authbad.db"),
                            "--auth-tokens", path], capture_output=True, timeout=15)
        assert p.returncode == 1 and want in p.stderr, (path, p.returncode, p.stderr[-300:])
        assert time.monotonic() - t0 < 10, "--auth-tokens %s took %.1f s" % (path, time.monotonic() - t0)
    for extra, reads_open in (([], False), (["--allow-unauthenticated-reads"], True)):
        d = e2e.Daemon(binary, os.path.join(tmp, "auth.db"), "--log-level", "error",
                       "--auth-tokens", tokens, *extra).start()
        try:
            J = {"Content-Type": "application/json"}
            body = json.dumps(example())
            for hdr in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer s3cret-token-on"},
                        {"Authorization": "Bearer s3cret-token-one-and-more"},
                        {"Authorization": "Basic czNjcmV0LXRva2VuLW9uZQ=="},
                        {"Authorization": "s3cret-token-one"}):
                st, h, data = d.request("POST", "/v1/kernels", body, dict(J, **hdr))
                assert st == 401, (hdr, st)
                assert h.get("www-authenticate") == 'Bearer realm="kwgen"', h
                assert json.loads(data)["error"]["code"] == "unauthorized"
            r = good(d, headers={"Authorization": "Bearer s3cret-token-one"})
            good(d, headers={"Authorization": "bearer second-token"})
            key = r["key"]
            for path in ("/v1/kernels/" + key, "/v1/generators", "/v1/isas", "/healthz", "/readyz",
                         "/status", "/metrics"):
                st, _, _ = d.request("GET", path)
                assert st == (200 if reads_open else 401), (path, st, reads_open)
                st, _, _ = d.request("GET", path, headers={"Authorization": "Bearer second-token"})
                assert st == 200, (path, st)
            # writes always need the token
            st, _, _ = d.request("POST", "/v1/kernels:batch", json.dumps({"requests": []}), J)
            assert st == 401, st
            # DELETE is a write: the token even with --allow-unauthenticated-reads
            for hdr in ({}, {"Authorization": "Bearer wrong"}):
                st, h, _ = d.request("DELETE", "/v1/kernels/" + key, headers=hdr)
                assert st == 401 and h.get("www-authenticate") == 'Bearer realm="kwgen"', (hdr, st)
            st, _, _ = d.request("GET", "/v1/kernels/" + key, headers={"Authorization": "Bearer second-token"})
            assert st == 200, st
            st, _, data = d.request("DELETE", "/v1/kernels/" + key, headers={"Authorization": "Bearer second-token"})
            assert st == 200 and json.loads(data) == {"key": key, "deleted": True}, (st, data)
            st, _, _ = d.request("GET", "/v1/kernels/" + key, headers={"Authorization": "Bearer second-token"})
            assert st == 404, st
        finally:
            stop_ok(d)
    FIG["auth"] = "6 bad credentials -> 401 + WWW-Authenticate; 2 good tokens -> 200; " \
                  "7 read routes 401 without the flag, 200 with --allow-unauthenticated-reads; " \
                  "DELETE 401 without a token either way"
    # a token file with no token is refused at start
    empty = os.path.join(tmp, "empty-tokens")
    with open(empty, "w") as f:
        f.write("# nothing\n")
    p = subprocess.run([binary, "--listen", "127.0.0.1:0", "--db", os.path.join(tmp, "a2.db"),
                        "--auth-tokens", empty], capture_output=True, timeout=20)
    assert p.returncode != 0 and b"no token" in p.stderr, (p.returncode, p.stderr)


def t_tls(binary, tmp):
    cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    d = e2e.Daemon(binary, os.path.join(tmp, "tls.db"), "--log-level", "error",
                   "--tls-cert", cert, "--tls-key", key).start()
    try:
        url = "https://127.0.0.1:%d" % d.port
        p = subprocess.run(["curl", "-sS", "--cacert", cert, "-o", "-", "-w", "\n%{http_code}",
                            "-H", "Content-Type: application/json", "--data-binary",
                            "@" + e2e.EXAMPLE, url + "/v1/kernels"], capture_output=True, timeout=30)
        out = p.stdout.decode()
        assert p.returncode == 0 and out.endswith("\n200"), (p.returncode, p.stderr, out[-200:])
        key_ = json.loads(out.rsplit("\n", 1)[0])["key"]
        # without the CA the certificate is not trusted
        p = subprocess.run(["curl", "-sS", url + "/healthz"], capture_output=True, timeout=30)
        assert p.returncode != 0, "curl trusted a self-signed certificate"
        # plain HTTP to the TLS port fails cleanly
        plain_ok = False
        try:
            st, _, _ = d.request("GET", "/healthz")
        except (ConnectionError, http.client.HTTPException, socket.timeout, OSError):
            plain_ok = True
        assert plain_ok, "plain HTTP answered on the TLS port"
        # ... and the daemon still serves
        ctx = ssl.create_default_context(cafile=cert)
        c = http.client.HTTPSConnection("127.0.0.1", d.port, context=ctx, timeout=20)
        c.request("GET", "/v1/kernels/" + key_)
        r = c.getresponse()
        assert r.status == 200 and json.loads(r.read())["key"] == key_, r.status
        c.close()
        assert d.proc.poll() is None
    finally:
        stop_ok(d)
    FIG["tls"] = "curl --cacert 200; untrusted curl refused; plain HTTP to the TLS port fails, " \
                 "HTTPS still 200 after"


def wait_closed(sock, within):
    """True if the peer closes sock within `within` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def served_again(d, timeout=10):
    """Once held connections are closed, the daemon serves again as soon as
    it has seen the closes: poll /healthz until it answers 200 (a loaded
    machine may take longer than any fixed sleep)."""
    t_end = time.time() + timeout
    while time.time() < t_end:
        try:
            if d.request("GET", "/healthz")[0] == 200:
                return True
        except (ConnectionError, http.client.HTTPException, OSError):
            pass
        time.sleep(0.05)
    return False


def t_connections(binary, tmp):
    d = e2e.Daemon(binary, os.path.join(tmp, "conn.db"), "--log-level", "error", "--threads", "2",
                   "--max-connections-per-ip", "4", "--max-connections", "6",
                   "--connection-timeout", "2").start()
    try:
        # four idle connections from 127.0.0.1 fill the per-address cap
        held = [socket.create_connection(("127.0.0.1", d.port)) for _ in range(4)]
        e2e.wait_accepted(d.port)
        refused = False
        try:
            c = d.conn(timeout=5)
            c.request("GET", "/healthz")
            c.getresponse().read()
        except (ConnectionError, http.client.HTTPException, OSError):
            refused = True
        assert refused, "fifth connection from one address was served"
        for sock in held:
            sock.close()
        assert served_again(d), "no connection served within 10 s of closing the held ones"
        # an idle connection is closed after --connection-timeout.  A close
        # within 0.5 s is the per-address cap refusing it (the daemon may not
        # have seen every held connection's close yet): try again
        t_end = time.time() + 10
        while True:
            sock = socket.create_connection(("127.0.0.1", d.port))
            t0 = time.time()
            closed = wait_closed(sock, 8)
            idle = time.time() - t0
            sock.close()
            if not closed or idle >= 0.5 or time.time() > t_end:
                break
            time.sleep(0.1)
        assert closed, "idle connection kept open"
        assert 1.0 <= idle <= 6, idle
        FIG["idle_close_s"] = round(idle, 1)
    finally:
        stop_ok(d)
    # the global cap, from three different loopback addresses
    d = e2e.Daemon(binary, os.path.join(tmp, "conn.db"), "--log-level", "error", "--threads", "1",
                   "--max-connections", "3").start()
    try:
        held = []
        for i in range(3):
            sock = socket.socket()
            sock.bind(("127.0.0.%d" % (i + 2), 0))
            sock.connect(("127.0.0.1", d.port))
            held.append(sock)
        e2e.wait_accepted(d.port)
        refused = False
        try:
            c = d.conn(timeout=5)
            c.request("GET", "/healthz")
            c.getresponse().read()
        except (ConnectionError, http.client.HTTPException, OSError):
            refused = True
        assert refused, "a fourth connection was served with --max-connections 3"
        for sock in held:
            sock.close()
        assert served_again(d), "no connection served within 10 s of closing the held ones"
    finally:
        stop_ok(d)
    FIG["connections"] = "per-IP cap 4: 5th refused; global cap 3: 4th refused; both served " \
                         "again after closing; idle closed after %.1f s (--connection-timeout 2)" % \
                         FIG["idle_close_s"]


def t_body_memory(binary, tmp):
    """--max-body-memory: bodies held open just short of their end by five
    clients (1 MB each, --max-verify-bytes 1000000) cannot make the daemon
    hold five of them: past 3.5 MB a body is discarded and answered 503
    overloaded + Retry-After once sent; the others verify; afterwards the
    budget is free again."""
    size = 1000000
    body = b"\ts_nop 0\n" * 111110
    body += b"//" + b"x" * (size - len(body) - 3) + b"\n"
    assert len(body) == size
    d = e2e.Daemon(binary, os.path.join(tmp, "bodymem.db"), "--log-level", "error",
                   "--max-verify-bytes", str(size), "--max-body-memory", "3500000").start()
    socks = []
    try:
        for _ in range(5):
            so = socket.create_connection(("127.0.0.1", d.port), timeout=60)
            so.sendall(b"POST /v1/verify?isa=gfx942 HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                       b"Content-Length: %d\r\nConnection: close\r\n\r\n" % size + body[:-1])
            socks.append(so)
            e2e.wait_read(so)  # each body read before the next starts: the order is known
        answers = []
        for so in socks:
            so.sendall(body[-1:])
            out = b""
            while True:
                chunk = so.recv(65536)
                if not chunk:
                    break
                out += chunk
            answers.append(out)
        codes = [int(a.split(b" ", 2)[1]) if a.startswith(b"HTTP/1.1 ") else 0 for a in answers]
        assert codes == [200, 200, 200, 503, 503], codes
        assert b'"code":"overloaded"' in answers[3] and b"--max-body-memory" in answers[3], answers[3][-300:]
        assert b"\r\nRetry-After: 1\r\n" in answers[3], answers[3][:300]
        st, _, _ = d.request("POST", "/v1/verify?isa=gfx942", body[:-1] + b"\n", {"Content-Type": "text/plain"})
        assert st == 200, "the budget was not given back: %d" % st
        FIG["body_memory"] = "--max-body-memory 3500000, five 1 MB bodies held open: %s" % codes
    finally:
        for so in socks:
            so.close()
        stop_ok(d)


def t_slow_client(binary, tmp):
    """One byte a second keeps the inactivity timer happy; the whole-body
    deadline (--request-timeout) drops the client anyway."""
    d = e2e.Daemon(binary, os.path.join(tmp, "slow.db"), "--log-level", "error",
                   "--connection-timeout", "3", "--request-timeout", "4").start()
    try:
        body = json.dumps(example()).encode()
        sock = socket.create_connection(("127.0.0.1", d.port))
        sock.sendall(b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body))
        t0 = time.time()
        dropped = None
        for i in range(len(body)):
            try:
                sock.sendall(body[i:i + 1])
            except (BrokenPipeError, ConnectionResetError):
                dropped = time.time() - t0
                break
            sock.settimeout(1.0)
            try:
                if sock.recv(1) == b"":
                    dropped = time.time() - t0
                    break
            except socket.timeout:
                pass
            except ConnectionResetError:
                dropped = time.time() - t0
                break
            if time.time() - t0 > 20:
                break
        sock.close()
        assert dropped is not None, "a one-byte-a-second client was kept for 20 s"
        assert 3.0 <= dropped <= 10, dropped
        FIG["slow_client_dropped_s"] = round(dropped, 1)
        good(d)
    finally:
        stop_ok(d)
    # a half-sent body that then goes silent: --request-timeout (3 s), not
    # --connection-timeout (20 s), closes it
    d = e2e.Daemon(binary, os.path.join(tmp, "silent.db"), "--log-level", "warn",
                   "--connection-timeout", "20", "--request-timeout", "3").start()
    try:
        sock = socket.create_connection(("127.0.0.1", d.port))
        sock.sendall(b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"isa\": ")
        t0 = time.time()
        sock.settimeout(15)
        try:
            got = sock.recv(4096)
        except (socket.timeout, ConnectionResetError):
            got = None
        silent = time.time() - t0
        sock.close()
        assert got is not None and silent < 8, "a silent half-sent body was kept %.1f s (--request-timeout 3)" % silent
        t_end = time.time() + 10  # the warning is logged as the socket is shut: wait for the line
        while time.time() < t_end and not any("request not complete within --request-timeout" in x
                                              for x in list(d.log)):
            time.sleep(0.05)
        assert any("request not complete within --request-timeout" in x for x in list(d.log)), d.log[-3:]
        FIG["silent_body_closed_s"] = round(silent, 1)
        good(d)
    finally:
        stop_ok(d)


def heavy(i):
    """A distinct miss that takes a while to generate."""
    r = example()
    r["kernel"]["MIWaveTile"] = [16, 16]
    r["generators"] = [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 256 + i}},
                       {"name": "accToArchMapper"}] + \
                      [{"name": "wait", "args": {"skipGlobalRead": 0, "skipLocalWrite": -1, "skipLocalRead": j}}
                       for j in range(8)]
    return r


def t_inflight(binary, tmp):
    """32 simultaneous distinct misses against --max-inflight 1: some must be
    refused with 503 + Retry-After (a cap that refuses nothing fails), and
    hits posted while the misses are in flight are all answered from the
    cache with 200."""
    d = e2e.Daemon(binary, os.path.join(tmp, "inflight.db"), "--log-level", "error", "--threads", "8",
                   "--max-inflight", "1").start()
    try:
        hit_body = example()
        first = good(d)                 # now cached: posting it again is a hit
        assert first["cached"] is False, first["cached"]
        n = 32
        out = [None] * n
        hits = []
        errors = []
        barrier = threading.Barrier(n + 1, timeout=60)

        def one(i):
            try:
                c = d.conn(timeout=60)
                c.connect()
                barrier.wait()
                st, h, data = d.request("POST", "/v1/kernels", heavy(i), conn=c)
                out[i] = (st, h, data)
                c.close()
            except (e2e.CUT + (threading.BrokenBarrierError,)) as ex:
                errors.append("miss %d: %s: %s" % (i, type(ex).__name__, ex))

        def hitter():
            try:
                c = d.conn(timeout=60)
                c.connect()
                barrier.wait()
                for _ in range(20):
                    st, h, data = d.request("POST", "/v1/kernels", hit_body, conn=c)
                    cached = json.loads(data).get("cached") if st == 200 else None
                    hits.append((st, cached))
                c.close()
            except (e2e.CUT + (threading.BrokenBarrierError,)) as ex:
                errors.append("hits: %s: %s" % (type(ex).__name__, ex))

        ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        ts.append(threading.Thread(target=hitter))
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert not errors, "; ".join(errors[:5])
        codes = [o[0] for o in out]
        assert set(codes) <= {200, 503}, codes
        busy = [o for o in out if o[0] == 503]
        for st, h, data in busy:
            assert h.get("retry-after") == "1", h
            assert json.loads(data)["error"]["code"] == "overloaded"
        assert codes.count(200) >= 1, codes
        assert busy, "--max-inflight 1 refused none of %d simultaneous misses (%d x 200)" % (
            n, codes.count(200))
        assert hits and all(h == (200, True) for h in hits), \
            "hits during the overload: %s" % sorted(set(hits))
        FIG["inflight"] = "--max-inflight 1, 32 simultaneous misses: %d x 200, %d x 503 + Retry-After; " \
            "%d hits meanwhile, all 200 from the cache" % (codes.count(200), len(busy), len(hits))
        s, _, _ = d.request("GET", "/healthz")
        assert s == 200
    finally:
        stop_ok(d)


def t_batch_response_bound(binary, tmp):
    # heavy(i)'s results are about 85 kB
    d = e2e.Daemon(binary, os.path.join(tmp, "batchbound.db"), "--log-level", "error",
                   "--max-response-bytes", "200000").start()
    try:
        # one request: its results together are bounded too (64 generators
        # of 16 MiB each made a 1 GiB answer); the generator that passes the
        # bound fails the request with 422 limit, the rest are not generated
        one = heavy(100)
        one["generators"] = [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 256}}] * 64
        st, _, data = d.request("POST", "/v1/kernels", one)
        err = json.loads(data).get("error", {})
        assert st == 422 and err.get("code") == "limit" and err.get("field") == "generators", (st, data[:300])
        assert "--max-response-bytes" in err["message"] and "200000 bytes" in err["message"], err
        assert "generators[2] (mapAcctoArchRegs)" in err["message"], err
        one["generators"] = one["generators"][:2]
        st, _, data = d.request("POST", "/v1/kernels", one)
        assert st == 200 and 150000 < len(data) < 200000 + 4096, (st, len(data))
        reqs = [heavy(i) for i in range(6)]
        st, _, data = d.request("POST", "/v1/kernels:batch", {"requests": reqs})
        assert st == 200, st
        res = json.loads(data)["results"]
        codes = [r["status"] for r in res]
        assert codes[0] == 200 and 422 in codes, codes
        first = codes.index(422)
        assert all(c == 422 for c in codes[first:]), codes
        assert res[first]["error"]["code"] == "limit", res[first]
        assert "--max-response-bytes" in res[first]["error"]["message"], res[first]
        FIG["batch_response_bound"] = "--max-response-bytes 200000, 6 items: %d x 200, %d x 422 limit" % (
            first, len(codes) - first)
        good(d)
    finally:
        stop_ok(d)


def variant(i):
    return e2e.variant(i)


def storage_checks(d, fill):
    """Store some entries, make the disk full with fill(), then: new writes
    503 + Retry-After, stored entries still 200, the daemon stays up."""
    c = d.conn()
    keys = []
    for i in range(5):
        s, _, r = d.post(variant(900 + i), conn=c)
        assert s == 200, (s, r)
        keys.append(r["key"])
    fill()
    n503, n200, statuses = 0, 0, set()
    for i in range(200):
        s, h, data = d.request("POST", "/v1/kernels", variant(2000 + i), conn=c)
        statuses.add(s)
        if s == 503:
            assert h.get("retry-after"), h
            assert json.loads(data)["error"]["code"] == "storage", data[:200]
            n503 += 1
            if n503 >= 5:
                break
        else:
            assert s == 200, (s, data[:200])
            n200 += 1
    assert n503 >= 5, "writes never failed (%d x 200)" % n200
    for k in keys:
        s, _, _ = d.request("GET", "/v1/kernels/" + k, conn=c)
        assert s == 200, (k, s)
    s, _, r = d.post(variant(900), conn=c)
    assert s == 200 and r["cached"] is True, (s, r)
    c.close()
    return n503


def t_storage_full(binary, tmp):
    """SQLite's max_page_count (the file cannot grow): a full cache file."""
    d = e2e.Daemon(binary, os.path.join(tmp, "full.db"), "--log-level", "error",
                   "--hot-cache-bytes", "0", "--test-db-max-pages", "40").start()
    try:
        n = storage_checks(d, lambda: None)
        FIG["storage_full"] = "file at max_page_count: %d writes 503 + Retry-After, stored reads 200" % n
    finally:
        stop_ok(d)


def t_storage_disk(binary, tmp):
    """A real full file system: a 4 MiB tmpfs (needs mount; skipped without)."""
    mnt = os.path.join(tmp, "tiny")
    os.mkdir(mnt)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt], capture_output=True)
    if p.returncode != 0:
        FIG["storage_disk"] = "skipped (cannot mount a tmpfs here)"
        raise e2e.Skip("cannot mount a tmpfs here: %s" % p.stderr.decode("utf-8", "replace").strip()[:200])
    try:
        d = e2e.Daemon(binary, os.path.join(mnt, "c.db"), "--log-level", "error",
                       "--hot-cache-bytes", "0").start()
        filler = os.path.join(mnt, "filler")

        def fill():
            with open(filler, "wb") as f:
                try:
                    while True:
                        f.write(b"\0" * 65536)
                        f.flush()
                except OSError:
                    pass
        try:
            n = storage_checks(d, fill)
            os.unlink(filler)
            s, _, r = d.post(variant(5555))
            assert s == 200, (s, r)
            FIG["storage_disk"] = "tmpfs full: %d writes 503 + Retry-After, stored reads 200, " \
                                  "writes 200 again once space is freed" % n
        finally:
            stop_ok(d)
    finally:
        subprocess.run(["umount", "-l", mnt], capture_output=True)


def t_corrupt_db(binary, tmp):
    db = os.path.join(tmp, "corrupt.db")
    # a cache file kwgend wrote, the known-good request stored in it: the
    # bad-inputs daemon's once it has stopped (it asserted good() and
    # stop_ok(), as this check's own daemon did: one ASan start and stop,
    # ~170 ms of CPU, fewer), else a daemon of its own
    if BAD_DB and not any(os.path.exists(BAD_DB[0] + x) for x in ("-wal", "-shm")):
        shutil.copyfile(BAD_DB[0], db)
    else:
        d = e2e.Daemon(binary, db, "--log-level", "error").start()
        good(d)
        stop_ok(d)
    with open(db, "r+b") as f:
        f.write(b"this is not the SQLite header at all" * 3)
    p = subprocess.run([binary, "--listen", "127.0.0.1:0", "--db", db], capture_output=True, timeout=20)
    err = p.stderr.decode()
    assert p.returncode == 1, (p.returncode, err)
    assert db in err and "damaged" in err and "--reset-corrupt-db" in err, err
    d = e2e.Daemon(binary, db, "--log-level", "error", "--reset-corrupt-db").start()
    try:
        moved = glob.glob(db + ".corrupt-*")
        assert moved, os.listdir(tmp)
        assert any("moved it to" in line for line in d.log), d.log
        r = good(d)
        assert r["cached"] is False
    finally:
        stop_ok(d)
    FIG["corrupt_db"] = "refused with exit 1 naming %s; --reset-corrupt-db moved it to %s" % (
        os.path.basename(db), os.path.basename(moved[0]))


def t_kill_loop(binary, tmp, cycles):
    db = os.path.join(tmp, "kill.db")
    answered = {}
    errors = []
    lock = threading.Lock()
    counter = [0]
    for cycle in range(cycles):
        d = e2e.Daemon(binary, db, "--log-level", "error").start()
        stop = threading.Event()
        killing = threading.Event()   # set just before the kill: cut connections expected
        # killed once this cycle has 5..25 answers (by the cycle number):
        # six writers keep posting misses, so the kill lands among writes
        # in flight, after as much work on a slow machine as on a fast one
        target = 5 + 5 * (cycle % 5)
        got = [0]
        enough = threading.Event()

        def worker(w):
            c = d.conn(timeout=10)
            while not stop.is_set():
                with lock:
                    counter[0] += 1
                    i = counter[0]
                try:
                    s, _, r = d.post(variant(100000 + i), conn=c)
                except e2e.CUT as ex:
                    if not killing.is_set():
                        with lock:
                            errors.append("cycle %d worker %d: %s before the kill" % (cycle, w, ex))
                    return
                if s == 200:
                    with lock:
                        answered[r["key"]] = cycle
                        got[0] += 1
                        if got[0] >= target:
                            enough.set()
                else:
                    with lock:
                        errors.append("cycle %d worker %d: status %d" % (cycle, w, s))
                    return
        ts = [threading.Thread(target=worker, args=(w,)) for w in range(6)]
        for t in ts:
            t.start()
        t_end = time.time() + 120   # bounds a hang only
        while not enough.wait(0.05):
            with lock:
                stuck = errors or not any(t.is_alive() for t in ts)
            if stuck or time.time() > t_end:
                break
        killing.set()
        d.kill9()
        stop.set()
        for t in ts:
            t.join()
        con = sqlite3.connect(db)
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.close()
        assert ok == "ok", "cycle %d: %s" % (cycle, ok)
    d = e2e.Daemon(binary, db, "--log-level", "error").start()
    try:
        c = d.conn()
        missing = [k for k in answered if d.request("GET", "/v1/kernels/" + k, conn=c)[0] != 200]
        c.close()
    finally:
        stop_ok(d)
    con = sqlite3.connect(db)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    assert ok == "ok", ok
    assert not errors, "; ".join(errors[:5])
    assert len(answered) >= cycles, "only %d answers in %d cycles" % (len(answered), cycles)
    assert len(answered) >= sum(5 + 5 * (c % 5) for c in range(cycles)), \
        "%d answers in %d cycles: a cycle was killed before its answers" % (len(answered), cycles)
    assert not missing, "%d of %d answered keys lost" % (len(missing), len(answered))
    FIG["kill_cycles"] = cycles
    FIG["kill_answered_kept"] = len(answered)


CHECKS = ["bad-inputs", "auth", "tls", "connections", "slow-client", "body-memory", "inflight", "batch-bound", "storage-full",
          "storage-disk", "corrupt-db", "kill-loop"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--kill-cycles", type=int, default=20)
    ap.add_argument("--only", default="")
    ap.add_argument("--figures", default="")
    a = ap.parse_args()
    binary = os.path.abspath(a.kwgend)
    only = set(a.only.split(",")) if a.only else set(CHECKS)
    unknown = only - set(CHECKS)
    if unknown:
        ap.error("unknown check(s): %s" % ", ".join(sorted(unknown)))
    with tempfile.TemporaryDirectory(prefix="kwgen-hardening-") as tmp:
        table = [
            ("bad-inputs", "every tests/bad-inputs case gets its status and code", t_bad_inputs, ()),
            ("auth", "bearer tokens: 401 + WWW-Authenticate, reads with the flag", t_auth, ()),
            ("tls", "HTTPS with a self-signed certificate; plain HTTP fails cleanly", t_tls, ()),
            ("connections", "per-address connection cap, idle timeout", t_connections, ()),
            ("slow-client", "one byte a second: dropped at --request-timeout", t_slow_client, ()),
            ("body-memory", "--max-body-memory: bodies held open past it get 503 overloaded", t_body_memory, ()),
            ("inflight", "--max-inflight: 503 + Retry-After, never a backlog", t_inflight, ()),
            ("batch-bound", "--max-response-bytes: one request's results past it and batch items past it get 422 limit",
             t_batch_response_bound, ()),
            ("storage-full", "full cache file: writes 503, reads 200", t_storage_full, ()),
            ("storage-disk", "full file system: writes 503, reads 200", t_storage_disk, ()),
            ("corrupt-db", "damaged file: refused by name; --reset-corrupt-db", t_corrupt_db, ()),
            ("kill-loop", "kill -9 x %d during writes: no answered entry lost" % a.kill_cycles,
             t_kill_loop, (a.kill_cycles,)),
        ]
        for name, title, fn, extra in table:
            if name in only:
                e2e.check(title, fn, binary, tmp, *extra)
        e2e.sanitizer_check("no sanitizer report from any kwgend")
    print("figures: " + json.dumps(FIG, indent=1))
    if a.figures:
        with open(a.figures, "w") as f:
            json.dump(FIG, f, indent=1)
    print("hardening: %d passed, %d failed, %d skipped" % (e2e.PASSED, e2e.FAILED, e2e.SKIPPED))
    return e2e.exit_status()


if __name__ == "__main__":
    sys.exit(main())
