#!/usr/bin/env python3
"""kwgend as a service: no head-of-line blocking, every client reads its
answer, operability.  The real daemon on loopback (port 0), temp cache
files, Python 3 stdlib only.

  python3 tests/e2e/serve_test.py [--kwgend build/kwgend] [--only NAME,...] [--skip NAME,...]
          [--seconds 6] [--p99-ms 250] [--figures FILE]

Checks:
  latency     64 MiB batches (every item a miss) run on two connections
              while a third client measures GET /healthz (a new connection
              each time, as a load balancer does) and cache hits (GET by
              key and POST of a stored body); p99 of each must stay under
              --p99-ms (make test: 250 ms, headroom for a loaded 2-core
              machine; make bench-serve: 50 ms over a longer run)
  lingering   a urllib client posting bodies over --max-body-bytes (no
              Expect: 100-continue) reads the 413 every time; the same for
              a batch body, a chunked body, an early 404/401 and a 79 MB
              body (past --linger-bytes, now a rate)
  framing     Content-Length + Transfer-Encoding, two Content-Lengths, an
              unknown Transfer-Encoding, a header name with whitespace
              before its colon, Transfer-Encoding in HTTP/1.0: 400 and
              the connection closed;
              %00 in a path or query: 400; NUL in a header (Authorization
              "Bearer tok\\0junk"): 400; a request line with invalid UTF-8
              still logs; Content-Length: -1 answered with one status line
  access-log  client address, request id (X-Request-Id honoured when sane,
              else generated; returned in the response), error code;
              start-up and shutdown lines are JSON
  signals     SIGHUP reopens --log-file and never kills; SIGTERM with an
              idle half-sent upload exits promptly; SIGTERM with queued
              generation answers it and exits 0
  late-resume SIGTERM while a connection is still suspended (a test-only
              delay before its resume): no SIGABRT, the answer is read
  listen      --listen localhost:PORT; a bind failure names host and port
  workers     --workers and --work-timeout: a job that waits longer than
              --work-timeout gets 503 "timeout"
  flights     batches and single requests over the same keys at once: each
              key generated once, every answer identical
  slow-head   request lines and headers trickled a byte at a time (never
              idle): cut after --connection-timeout + --request-timeout, so
              they cannot hold every connection slot; keep-alive pauses are
              not cut"

Prints one line per check, the figures and `serve: N passed, M failed`;
exit status 0 only when nothing failed.
"""
import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as e2e  # noqa: E402

FIG = {}
J = {"Content-Type": "application/json"}
_SERIAL = [0]
_SERIAL_LOCK = threading.Lock()


def serial():
    with _SERIAL_LOCK:
        _SERIAL[0] += 1
        return _SERIAL[0]


def big_item(i):
    """A miss whose answer is ~385 KB (MIWaveTile 32x32)."""
    r = e2e.example()
    r["kernel"]["MIWaveTile"] = [32, 32]
    r["generators"] = [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 256 + i}},
                       {"name": "accToArchMapper"}]
    return r


def big_batch(items):
    """{"requests": [...]} of distinct misses, ~64 MiB of answers for 175 items."""
    base = serial() * 1000
    return json.dumps({"requests": [big_item(base + j) for j in range(items)]})


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def post_streamed(c, path, body):
    """POST body on http.client connection c and read the answer through
    one 1 MiB buffer: -> (status, its length in bytes, whether it holds
    "draining").  The batches' ~64 MiB answers are read whole, as before,
    but never held: a bytes object of 64 MiB (and http.client's chunks
    joined into it) cost the client ~0.2 s of CPU per batch in first-touch
    page faults, beside the daemon whose latency is measured."""
    c.request("POST", path, body=body.encode() if isinstance(body, str) else body, headers=J)
    r = c.getresponse()
    buf = bytearray(1 << 20)
    word = b'"draining"'
    n, draining, tail = 0, False, b""
    while True:
        k = r.readinto(buf)
        if not k:
            break
        n += k
        if not draining:
            # the word may straddle two reads: the last bytes of one and
            # the first of the next
            draining = buf.find(word, 0, k) >= 0 or word in tail + bytes(buf[:min(k, len(word) - 1)])
            tail = (tail + bytes(buf[max(0, k - len(word) + 1):k]))[1 - len(word):]
    return r.status, n, draining


def t_latency(binary, tmp, seconds, p99_ms, items, tag="latency"):
    # --drain-seconds 1: once the measured window is over and a batch has
    # finished, SIGTERM cuts the batches still generating (their items not
    # done within 1 s answer 503 draining) instead of generating them to
    # their end for nothing
    d = e2e.Daemon(binary, os.path.join(tmp, tag + ".db"), "--log-level", "error", "--threads", "2",
                   "--max-body-bytes", str(64 << 20), "--max-cache-bytes", "0", "--drain-seconds", "1").start()
    stop = threading.Event()
    cut = threading.Event()   # set just before the SIGTERM that ends the run
    batches, errors = [], []
    try:
        # the hits: one stored entry, read by key and by posting its body again
        body = json.dumps(e2e.variant(7))
        st, _, data = d.request("POST", "/v1/kernels", body, J)
        assert st == 200, st
        key = json.loads(data)["key"]

        def batcher():
            c = d.conn(timeout=300)
            while not stop.is_set():
                b = big_batch(items)
                t0 = time.time()
                try:
                    st, n, draining = post_streamed(c, "/v1/kernels:batch", b)
                except (OSError, http.client.HTTPException) as ex:
                    if not cut.is_set():
                        errors.append("batch: %r" % ex)
                    return
                if cut.is_set() and (st == 503 or draining):
                    return   # cut by the SIGTERM that ends the run: not a batch done
                if st != 200:
                    errors.append("batch status %d" % st)
                    return
                batches.append((time.time() - t0, n))
            c.close()

        g0 = d.metric("kwgen_generations_total")
        ts = [threading.Thread(target=batcher) for _ in range(2)]
        for t in ts:
            t.start()
        # measured once the batches generate (their first item done)
        wait_for(lambda: errors or d.metric("kwgen_generations_total") > g0, 120, "the batches started")
        assert not errors, errors[:3]
        health, hits = [], []
        hc = d.conn(timeout=60)
        t_end = time.time() + seconds
        while time.time() < t_end:
            t0 = time.time()
            st, _, _ = d.request("GET", "/healthz")
            health.append(time.time() - t0)
            assert st == 200, st
            t0 = time.time()
            st, _, _ = d.request("GET", "/v1/kernels/" + key, conn=hc)
            hits.append(time.time() - t0)
            assert st == 200, st
            t0 = time.time()
            st, _, data = d.request("POST", "/v1/kernels", body, J, conn=hc)
            hits.append(time.time() - t0)
            assert st == 200 and json.loads(data)["cached"] is True, st
            time.sleep(0.01)
        stop.set()
        hc.close()
        # the batches' figures want one finished batch; then the rest is cut
        wait_for(lambda: batches or errors or not any(t.is_alive() for t in ts), 300, "a batch finished")
        cut.set()
        d.proc.send_signal(signal.SIGTERM)
        for t in ts:
            t.join(timeout=300)
        rc = d.proc.wait(timeout=60)
        assert rc == 0, "kwgend exit status %d after SIGTERM" % rc
        assert not errors, errors[:3]
        assert batches, "no batch finished in %.0f s" % seconds
        fig = {
            "seconds": seconds,
            "batches_done": len(batches),
            "batch_mb": round(max(b[1] for b in batches) / 2 ** 20, 1),
            "batch_s_median": round(pct([b[0] for b in batches], 50), 2),
            "healthz_n": len(health),
            "healthz_p50_ms": round(pct(health, 50) * 1000, 2),
            "healthz_p99_ms": round(pct(health, 99) * 1000, 2),
            "healthz_max_ms": round(max(health) * 1000, 2),
            "hit_n": len(hits),
            "hit_p50_ms": round(pct(hits, 50) * 1000, 2),
            "hit_p99_ms": round(pct(hits, 99) * 1000, 2),
            "hit_max_ms": round(max(hits) * 1000, 2),
        }
        FIG[tag] = fig
        print("     %s" % json.dumps(fig))
        assert fig["healthz_p99_ms"] < p99_ms, "healthz p99 %.1f ms" % fig["healthz_p99_ms"]
        assert fig["hit_p99_ms"] < p99_ms, "hit p99 %.1f ms" % fig["hit_p99_ms"]
    finally:
        stop.set()
        if d.proc.poll() is None:
            d.stop()



def start_line(d):
    for line in d.log:
        if line.startswith("{") and '"event":"start"' in line.replace(" ", ""):
            return json.loads(line)
    raise AssertionError("no JSON start line in %r" % d.log[:3])


def access_lines(d):
    out = []
    for line in list(d.log):
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if "status" in obj and "method" in obj:
                out.append(obj)
    return out


def raw(port, data, wait=3.0):
    """Send data on a new connection; -> (bytes received, closed by the
    server within `wait`)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(data)
    s.settimeout(wait)
    out, closed = b"", False
    t_end = time.time() + wait
    try:
        while time.time() < t_end:
            b = s.recv(65536)
            if not b:
                closed = True
                break
            out += b
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    s.close()
    return out, closed


def start_logging_to(d, logf):
    """Start d (which has --log-file logf): the start line is in the file."""
    d.proc = subprocess.Popen([d.binary, "--listen", "127.0.0.1:0", "--db", d.db] + d.extra,
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    t_end = time.time() + 20
    while time.time() < t_end:
        if os.path.exists(logf):
            with open(logf) as f:
                m = re.search(r"kwgend: listening on 127\.0\.0\.1:(\d+)", f.read())
            if m:
                d.port = int(m.group(1))
                return d
        assert d.proc.poll() is None, d.proc.stderr.read()
        time.sleep(0.05)
    raise AssertionError("no start line in %s" % logf)


def t_lingering(binary, tmp):
    import urllib.error, urllib.request   # here: the --only latency runs never need them
    d = e2e.Daemon(binary, os.path.join(tmp, "linger.db"), "--log-level", "error",
                   "--max-body-bytes", "65536").start()
    base = "http://127.0.0.1:%d" % d.port
    got = {}
    try:
        def post(path, body, chunked=False):
            data = iter([body[i:i + 65536] for i in range(0, len(body), 65536)]) if chunked else body
            req = urllib.request.Request(base + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.status, r.read()
            except urllib.error.HTTPError as e:
                return e.code, e.read()

        big = json.dumps({"isa": "gfx942", "pad": "x" * (4 << 20)}).encode()
        batch = json.dumps({"requests": [e2e.example()] * 2, "pad": "y" * (4 << 20)}).encode()
        cases = [("/v1/kernels", big, False, 413, "too_large"),
                 ("/v1/kernels:batch", batch, False, 413, "too_large"),
                 ("/v1/kernels", big, True, 413, "too_large"),
                 ("/v1/nowhere", big, False, 404, "not_found")]
        for path, body, chunked, want, code in cases:
            n = 0
            for _ in range(10):
                st, data = post(path, body, chunked)
                assert st == want, (path, chunked, st, data[:100])
                assert json.loads(data)["error"]["code"] == code, data[:200]
                n += 1
            got["%s%s" % (path, " chunked" if chunked else "")] = "%d/%d read %d" % (n, n, want)
        # a body larger than --linger-bytes (64 MiB, now a rate: a burst,
        # then that much a second) is read to its end, not cut at 64 MiB:
        # lingering is bounded by time, as nginx's lingering_time
        huge79 = b"x" * (79 * 1000 * 1000)
        t0 = time.time()
        st, data = post("/v1/kernels", huge79)
        assert st == 413 and json.loads(data)["error"]["code"] == "too_large", (st, data[:200])
        got["79 MB without Expect"] = "read 413 after %.1f s" % (time.time() - t0)
        del huge79
        # the daemon still answers, and an oversized batch list within the
        # body cap is a 422, also read in full
        st, data = post("/v1/kernels:batch", json.dumps({"requests": [{}] * 300}).encode())
        assert st == 422, st
        assert d.proc.poll() is None
    finally:
        rc = d.stop()
    assert rc == 0, rc
    # without lingering (or with a rate too low to read the body within
    # --linger-seconds) the same client meets a reset: the flags are what
    # makes the difference.  The body is larger
    # than the two sockets' buffers together (loopback autotuning grows them
    # to several MiB), so the client cannot have sent it all before the
    # daemon closes (with 4 MiB a slow daemon under ASan let every 413 through)
    huge = json.dumps({"isa": "gfx942", "pad": "x" * (32 << 20)}).encode()
    for flags in (["--linger-seconds", "0"], ["--linger-bytes", "65536", "--linger-seconds", "1"]):
        d = e2e.Daemon(binary, os.path.join(tmp, "linger0.db"), "--log-level", "error",
                       "--max-body-bytes", "65536", *flags).start()
        base = "http://127.0.0.1:%d" % d.port
        try:
            errors = 0
            for _ in range(5):
                try:
                    post("/v1/kernels", huge)
                except (urllib.error.URLError, OSError, http.client.HTTPException):
                    errors += 1
            assert errors >= 1, "%s: the 413 was read every time" % flags
            got[" ".join(flags)] = "%d/5 uploads cut by a reset" % errors
        finally:
            rc = d.stop()
        assert rc == 0, rc
    # a client that stops sending while lingering: closed --linger-timeout
    # after its last bytes (nginx's lingering_timeout), not --linger-seconds
    d = e2e.Daemon(binary, os.path.join(tmp, "linger-idle.db"), "--log-level", "error",
                   "--max-body-bytes", "65536", "--linger-seconds", "30", "--linger-timeout", "1").start()
    try:
        s = socket.create_connection(("127.0.0.1", d.port))
        s.sendall(b"POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10000000\r\n\r\n" + b"x" * 100000)
        t0 = time.time()
        s.settimeout(20)
        head = b""
        while True:  # the answer, then the end of it (the write side is shut)
            b = s.recv(65536)
            if not b:
                break
            head += b
        assert head.startswith(b"HTTP/1.1 404"), head[:100]

        def still_read():
            try:
                for _ in range(3):
                    s.sendall(b"y" * 1000)
                    time.sleep(0.1)
                return True
            except (BrokenPipeError, ConnectionResetError):
                return False
        time.sleep(0.3)
        assert still_read(), "closed before --linger-timeout while the client was sending"
        t0 = time.time()
        time.sleep(2.5)
        closed = not still_read()
        s.close()
        assert closed, "a client silent for 2.5 s was still lingering (--linger-timeout 1, --linger-seconds 30)"
        closed_after = time.time() - t0
        got["idle client, --linger-timeout 1"] = "still read at 0.3 s, closed when silent for 2.5 s (checked at %.1f s)" % closed_after
    finally:
        rc = d.stop()
    assert rc == 0, rc
    FIG["lingering"] = got


SMUGGLED = b"GET /status HTTP/1.1\r\nHost: x\r\n\r\n"


def t_framing(binary, tmp):
    tokens = os.path.join(tmp, "tokens")
    with open(tokens, "w") as f:
        f.write("tok\n")
    d = e2e.Daemon(binary, os.path.join(tmp, "framing.db"), "--auth-tokens", tokens,
                   "--allow-unauthenticated-reads").start()
    fig = {}
    try:
        H = b"Host: x\r\nContent-Type: application/json\r\nAuthorization: Bearer tok\r\n"
        body = json.dumps(e2e.example()).encode()
        cases = {
            "CL+TE": b"POST /v1/kernels HTTP/1.1\r\n" + H +
                     b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" % len(body),
            "two CL": b"POST /v1/kernels HTTP/1.1\r\n" + H +
                      b"Content-Length: %d\r\nContent-Length: 3\r\n\r\n" % len(body) + body,
            "TE gzip": b"POST /v1/kernels HTTP/1.1\r\n" + H + b"Transfer-Encoding: gzip\r\n\r\n" + body,
            "TE chunked, gzip": b"POST /v1/kernels HTTP/1.1\r\n" + H +
                                b"Transfer-Encoding: chunked, gzip\r\n\r\n" + body,
            # whitespace before the colon: libmicrohttpd reads a header
            # named "Content-Length " that frames nothing, and the "body"
            # (a second request, for a proxy that framed by it) was answered
            # as the next request on the connection
            "CL with a space before the colon": b"GET /healthz HTTP/1.1\r\n" + H +
                b"Content-Length : %d\r\n\r\n" % len(SMUGGLED) + SMUGGLED,
            "TE with a tab before the colon": b"GET /healthz HTTP/1.1\r\n" + H +
                b"Transfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n" + SMUGGLED,
            # HTTP/1.0 with keep-alive: the chunked body was read and the
            # next request served on the same connection
            "TE in HTTP/1.0": b"POST /v1/kernels HTTP/1.0\r\n" + H + b"Connection: keep-alive\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n" + SMUGGLED,
        }
        for name, req in cases.items():
            t0 = time.time()
            out, closed = raw(d.port, req)
            assert out.startswith(b"HTTP/1.1 400 "), (name, out[:200])
            assert b'"code":"framing"' in out, (name, out[-200:])
            assert closed, "%s: connection kept open" % name
            assert out.count(b"HTTP/1.1 ") == 1, (name, out)
            fig[name] = "400 framing, closed in %.0f ms" % ((time.time() - t0) * 1000)
        # Content-Length: -1 is refused by libmicrohttpd itself, before the
        # daemon sees the request
        out, closed = raw(d.port, b"POST /v1/kernels HTTP/1.1\r\n" + H + b"Content-Length: -1\r\n\r\n" + body)
        n = out.count(b"HTTP/1.1 400 ")
        mhd = start_line(d).get("libmicrohttpd", "")
        assert n >= 1 and closed, out[:300]
        if mhd.startswith("0.9."):
            # libmicrohttpd 0.9.x writes its own 400's status line and
            # headers twice; nothing the daemon can hook (docs/serving.md)
            assert n <= 2, out
            fig["Content-Length: -1"] = "400 from libmicrohttpd %s, status line x%d (its bug), closed" % (mhd, n)
        else:
            assert n == 1, (mhd, out)
            fig["Content-Length: -1"] = "400 once, closed"
        # NUL bytes
        for name, req, want in [
                ("%00 in path", b"GET /healthz%00x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                ("%00 in query", b"GET /healthz?cache=bypass%00x HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                ("NUL in Authorization", b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Authorization: Bearer tok\x00junk\r\nContent-Length: %d\r\n\r\n" % len(body) + body, 400),
                ("NUL in a header", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", 400),
                ("two Authorization headers", b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\n"
                 b"Content-Type: application/json\r\nAuthorization: Bearer tok\r\n"
                 b"Authorization: Bearer other\r\nContent-Length: %d\r\n\r\n" % len(body) + body, 400),
                ("good token", b"POST /v1/kernels HTTP/1.1\r\n" + H + b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                 % len(body) + body, 200)]:
            out, _ = raw(d.port, req)
            assert out.startswith(b"HTTP/1.1 %d " % want), (name, out[:300])
            assert out.count(b"HTTP/1.1 ") == 1, (name, out)
            fig[name] = want
        # invalid UTF-8 in the request line still leaves an access line
        n0 = len(access_lines(d))
        out, _ = raw(d.port, b"G\xffT /\xfe\xff HTTP/1.1\r\nHost: x\r\n\r\n")
        assert out.startswith(b"HTTP/1.1 4"), out[:100]
        # the access line is written once the answer has gone out
        wait_for(lambda: any(a["path"] == "/??" for a in access_lines(d)[n0:]), 10,
                 "an access line with path /??: %r" % access_lines(d)[n0:])
        fig["invalid UTF-8 request line"] = "%s, logged with path %r" % (out[9:12].decode(), "/??")
        s_, _, _ = d.request("GET", "/healthz")
        assert s_ == 200
    finally:
        rc = d.stop()
    assert rc == 0, rc
    FIG["framing"] = fig


def t_access_log(binary, tmp):
    # --drain-seconds 600: t_signals' SIGHUP and idle-upload checks end this
    # daemon (sighup_idle_upload); its stop line is read after that exit
    d = e2e.Daemon(binary, os.path.join(tmp, "alog.db"), "--drain-seconds", "600").start()
    try:
        st0 = start_line(d)
        for k in ("time", "level", "msg", "event", "listen", "workers", "threads", "max_inflight"):
            assert k in st0, (k, st0)
        assert "kwgend: listening on 127.0.0.1:%d" % d.port == st0["msg"], st0
        st, h, _ = d.request("GET", "/healthz", headers={"X-Request-Id": "farm-42.job:7"})
        assert st == 200 and h.get("x-request-id") == "farm-42.job:7", h
        st, h, _ = d.request("GET", "/healthz", headers={"X-Request-Id": "no spaces allowed"})
        gen1 = h.get("x-request-id")
        assert gen1 and gen1 != "no spaces allowed" and re.match(r"^[0-9a-f]{16}-\d+$", gen1), h
        st, h, _ = d.request("GET", "/healthz", headers={"X-Request-Id": "x" * 65})
        assert h.get("x-request-id") not in (None, "x" * 65), h
        st, h, _ = d.request("GET", "/healthz")
        gen2 = h.get("x-request-id")
        assert gen2 and gen2 != gen1, (gen1, gen2)
        st, h, _ = d.request("POST", "/v1/kernels", "{bad", J)
        assert st == 400
        bad_id = h.get("x-request-id")
        wait_for(lambda: bad_id in {a["request_id"] for a in access_lines(d)}, 10,
                 "an access line for request id %s" % bad_id)
        acc = access_lines(d)
        by_id = {a["request_id"]: a for a in acc}
        a = by_id["farm-42.job:7"]
        assert a["client"] == "127.0.0.1" and a["status"] == 200 and a["error"] is None, a
        for k in ("time", "method", "path", "status", "bytes", "duration_ms", "key", "cached", "client",
                  "request_id", "error"):
            assert k in a, (k, a)
        assert by_id[gen1]["path"] == "/healthz"
        assert by_id[bad_id]["error"] == "syntax" and by_id[bad_id]["status"] == 400, by_id[bad_id]
        FIG["access_log"] = {"honoured": a, "generated": gen1, "error_line": by_id[bad_id]}
        sighup_idle_upload(d)   # SIGTERM: exit 0 asserted there
    finally:
        rc = d.stop() if d.proc.poll() is None else d.proc.returncode
    assert rc == 0, rc
    d.wait_log()
    stop = [json.loads(x) for x in d.log if x.startswith("{") and '"event":"stop"' in x]
    assert stop and stop[-1]["msg"] == "kwgend: stopped", d.log[-3:]
    plain = [x for x in d.log if x.strip() and not x.startswith("{")]
    assert not plain, plain[:3]


_SIGHUP_IDLE_DONE = []   # sighup_idle_upload() passed on t_access_log's daemon


def sighup_idle_upload(d):
    """SIGHUP without --log-file: ignored, never kills.  Then SIGTERM with
    an idle half-sent upload: exits 0 without waiting --drain-seconds.  d
    runs with --drain-seconds 600 and logs to stderr: a daemon that waited
    for the drain would take 600 s, one that skips the idle upload about
    2 s (KW_DRAIN_IDLE_S), so the 60 s bound tells them apart on any
    machine.  d has exited when this returns."""
    d.proc.send_signal(signal.SIGHUP)
    # handled: kwgend logs it (nothing to reopen on stderr)
    wait_for(lambda: any('"event":"reopen"' in x for x in list(d.log)) or d.proc.poll() is not None, 60,
             "SIGHUP handled")
    assert d.proc.poll() is None, "SIGHUP killed the daemon"
    st, _, _ = d.request("GET", "/healthz")
    assert st == 200
    # SIGTERM with an idle half-sent upload: exits without waiting
    # --drain-seconds (600)
    s = socket.create_connection(("127.0.0.1", d.port))
    s.sendall(b"POST /v1/kernels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100000\r\n\r\n{\"isa\": ")
    # the upload is in flight (its head read), beside this /metrics request
    wait_for(lambda: d.metric("kwgen_in_flight_requests") >= 2, 60, "the half-sent upload in flight")
    t0 = time.time()
    d.proc.send_signal(signal.SIGTERM)
    try:
        rc = d.proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        rc = None
    took = time.time() - t0
    s.close()
    assert rc is not None, "SIGTERM waited over 60 s on an idle upload (--drain-seconds 600)"
    assert rc == 0, "exit status %s; stderr: %s" % (rc, "".join(d.log)[-1500:])
    FIG["sigterm_idle_upload_s"] = round(took, 2)
    _SIGHUP_IDLE_DONE.append(d)


def t_signals(binary, tmp):
    logf = os.path.join(tmp, "kwgend.log")
    d = start_logging_to(e2e.Daemon(binary, os.path.join(tmp, "sig.db"), "--log-file", logf), logf)
    try:
        st, _, _ = d.request("GET", "/healthz", headers={"X-Request-Id": "before-rotate"})
        assert st == 200
        # the access line is written when the answer has gone out, which
        # may be just after the client has read it: rotate once it is there
        t_end = time.time() + 10
        while time.time() < t_end:
            with open(logf) as f:
                if "before-rotate" in f.read():
                    break
            time.sleep(0.02)
        os.rename(logf, logf + ".1")
        d.proc.send_signal(signal.SIGHUP)
        t_end = time.time() + 10
        while not os.path.exists(logf) and time.time() < t_end:
            time.sleep(0.05)
        assert d.proc.poll() is None, "SIGHUP killed the daemon"
        st, _, _ = d.request("GET", "/healthz", headers={"X-Request-Id": "after-rotate"})
        assert st == 200
        new = ""
        while "after-rotate" not in new and time.time() < t_end:
            time.sleep(0.05)
            with open(logf) as f:
                new = f.read()
        with open(logf + ".1") as f:
            old = f.read()
        assert "after-rotate" in new and "after-rotate" not in old, (new[-300:], old[-300:])
        assert "before-rotate" in old and '"event":"reopen"' in new, new[-300:]
    finally:
        rc = d.stop()
    if rc != 0:  # say why (a libmicrohttpd panic is logged before the abort)
        tail = ""
        for f in (logf, logf + ".1"):
            if os.path.exists(f):
                with open(f) as fh:
                    tail += fh.read()[-1500:]
        raise AssertionError("exit status %s; log tail: %s; stderr: %s" % (rc, tail, "".join(d.log)[-1500:]))
    # SIGHUP without --log-file, SIGTERM with an idle upload: on the
    # access-log check's daemon when that check ran them (one ASan start
    # and stop fewer), else on a daemon of their own
    if not _SIGHUP_IDLE_DONE:
        sighup_idle_upload(e2e.Daemon(binary, os.path.join(tmp, "sig2.db"), "--drain-seconds", "600").start())
    # SIGTERM while a batch is generating, and with more work queued than
    # --drain-seconds allows: each ends the flights or the workers check's
    # daemon when that check ran it (a start and a stop fewer each), else
    # a daemon of its own
    if not _DURING_BATCH_DONE:
        sigterm_during_batch(slow_daemon(binary, os.path.join(tmp, "sig3.db"), 20, "--workers", "1",
                                         "--drain-seconds", "600"))
    if not _DRAIN_OVER_DONE:
        sigterm_drain_over(slow_daemon(binary, os.path.join(tmp, "sig4.db"), 20, "--log-level", "error",
                                       "--workers", "1", "--drain-seconds", "1", "--max-body-bytes", str(64 << 20)))


_DURING_BATCH_DONE = []   # sigterm_during_batch() passed on t_flights' daemon
_DRAIN_OVER_DONE = []     # sigterm_drain_over() passed on t_workers' daemon


def sigterm_during_batch(d):
    """d: a slow_daemon(20 ms) with --workers 1 --drain-seconds 600; exited
    when this returns."""
    # SIGTERM while a batch is generating (its first item generated): it is
    # answered, then exit 0.  The batch is long by the test hook, not by
    # size: 40 small misses, each slice 20 ms first (KWGEND_TEST_SLICE_DELAY_MS),
    # so 39 of them (>= 0.78 s) are left when SIGTERM lands, on any machine
    # (it was 40 items of 385 KB: 4 s of CPU under ASan).  --drain-seconds
    # 600 bounds only a hang
    res = {}
    g0 = d.metric("kwgen_generations_total")
    base = serial() * 1000
    batch40 = json.dumps({"requests": [e2e.variant(base + j) for j in range(40)]})

    def one():
        try:
            res["r"] = d.request("POST", "/v1/kernels:batch", batch40, J)
        except Exception as ex:  # noqa: BLE001 - reported below
            res["r"] = ex

    t = threading.Thread(target=one)
    t.start()
    wait_for(lambda: "r" in res or d.metric("kwgen_generations_total") > g0, 60, "the batch started")
    d.proc.send_signal(signal.SIGTERM)
    t.join(timeout=600)
    rc = d.proc.wait(timeout=600)
    assert rc == 0, rc
    st, _, data = res["r"]
    assert st == 200, st
    codes = [x["status"] for x in json.loads(data)["results"]]
    assert set(codes) <= {200} and len(codes) == 40, codes
    FIG["sigterm_during_batch"] = "answered (%d items 200), exit 0" % len(codes)
    _DURING_BATCH_DONE.append(d)


def sigterm_drain_over(d):
    """d: a slow_daemon(20 ms) with --workers 1 --drain-seconds 1
    --max-body-bytes 64 MiB; exited when this returns."""
    # SIGTERM with more work queued than --drain-seconds allows: what is
    # not done by then is answered 503 draining, nothing is left hanging.
    # 360 slices of >= 20 ms each (KWGEND_TEST_SLICE_DELAY_MS) need >= 7.2 s,
    # far past --drain-seconds 1 on any machine.
    res = {}
    base = serial() * 1000
    g0 = d.metric("kwgen_generations_total")

    def batch(i):
        body = json.dumps({"requests": [e2e.variant(base + 120 * i + j) for j in range(120)]})
        try:
            c = d.conn(timeout=60)
            c.connect()
            res[i] = d.request("POST", "/v1/kernels:batch", body, J, conn=c)
        except Exception as ex:  # noqa: BLE001 - reported below
            res[i] = ex

    ts = [threading.Thread(target=batch, args=(i,)) for i in range(3)]
    for t in ts:
        t.start()
    # all three in flight (and the /metrics request) and generating: their
    # 36 KB bodies are read long before 3 slices of >= 20 ms have run
    wait_for(lambda: len(res) > 0 or (d.metric("kwgen_in_flight_requests") >= 4
                                      and d.metric("kwgen_generations_total") >= g0 + 3), 60,
             "the three batches started")
    t0 = time.time()
    d.proc.send_signal(signal.SIGTERM)
    rc = d.proc.wait(timeout=60)
    took = time.time() - t0
    for t in ts:
        t.join(timeout=60)
    assert rc == 0, rc
    codes = []
    for i in range(3):
        assert not isinstance(res.get(i), Exception), res.get(i)
        st, _, data = res[i]
        assert st == 200, st
        codes += [(x["status"], (x.get("error") or {}).get("code")) for x in json.loads(data)["results"]]
    assert set(codes) <= {(200, None), (503, "draining")}, set(codes)
    assert (503, "draining") in codes, "all 360 items done within --drain-seconds 1?"
    assert took < 15, took
    FIG["sigterm_drain_over"] = "--drain-seconds 1, 3 x 120-item batches: %d items 200, %d 503 draining; " \
        "exit 0 after %.1f s" % (codes.count((200, None)), codes.count((503, "draining")), took)
    _DRAIN_OVER_DONE.append(d)


def t_late_resume(binary, tmp):
    """SIGTERM while a request is about to suspend (a test-only hook,
    KWGEND_TEST_SUSPEND_DELAY_MS, holds a polling thread between deciding
    to suspend and suspending, past the drain's other bounds):
    libmicrohttpd 0.9.75 panics (SIGABRT) in MHD_stop_daemon with a
    connection suspended, so the drain waits until none is; the client
    reads an answer (200, or 503 draining once the pool has stopped) and
    kwgend exits 0."""
    d = e2e.Daemon(binary, os.path.join(tmp, "late.db"), "--workers", "1", "--drain-seconds", "1")
    d.prefix = ["env", "KWGEND_TEST_SUSPEND_DELAY_MS=4000"]
    d.start()
    res = {}

    def one():
        try:
            res["r"] = d.request("POST", "/v1/kernels", json.dumps(e2e.variant(serial())), J)
        except Exception as ex:  # noqa: BLE001 - reported below
            res["r"] = ex

    th = threading.Thread(target=one)
    th.start()
    # the hook logs {"event": "test_hook"} as it starts holding the
    # request: SIGTERM lands while it holds it, on any machine
    wait_for(lambda: any('"test_hook"' in x for x in list(d.log)) or not th.is_alive(), 60,
             "the suspension hook reached")
    assert th.is_alive(), "answered before the hook held it: %r" % (res.get("r"),)
    t0 = time.time()
    d.proc.send_signal(signal.SIGTERM)
    rc = d.proc.wait(timeout=60)
    took = time.time() - t0
    th.join(timeout=30)
    d.wait_log()
    panics = [x for x in d.log if "libmicrohttpd panic" in x]
    assert rc == 0, "kwgend exit status %d (SIGABRT is -6): %s" % (rc, "".join(d.log[-5:]))
    assert not panics, panics
    assert not isinstance(res.get("r"), Exception), res.get("r")
    st, _, data = res["r"]
    assert st == 200 or (st == 503 and json.loads(data)["error"]["code"] == "draining"), (st, data[:200])
    FIG["late_resume"] = "suspension held 4 s past SIGTERM: answered %d, exit 0 after %.1f s" % (st, took)


def t_listen(binary, tmp):
    d = e2e.Daemon(binary, os.path.join(tmp, "listen.db"), "--log-level", "error")
    d.proc = subprocess.Popen([binary, "--listen", "localhost:0", "--db", d.db],
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    line = d.proc.stderr.readline().decode()
    m = re.search(r"kwgend: listening on (127\.0\.0\.1|\[::1\]):(\d+)", line)
    assert m, line
    port = int(m.group(2))
    fam = socket.AF_INET6 if m.group(1).startswith("[") else socket.AF_INET
    c = http.client.HTTPConnection("localhost", port, timeout=10)
    c.request("GET", "/healthz")
    assert c.getresponse().status == 200
    c.close()
    d.proc.send_signal(signal.SIGTERM)
    assert d.proc.wait(timeout=30) == 0
    # the port is taken: the error names host and port
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    tport = taken.getsockname()[1]
    p = subprocess.run([binary, "--listen", "127.0.0.1:%d" % tport, "--db", os.path.join(tmp, "l2.db")],
                       capture_output=True, timeout=20)
    taken.close()
    err = p.stderr.decode()
    assert p.returncode == 1, (p.returncode, err)
    assert "127.0.0.1" in err and str(tport) in err and "in use" in err, err
    p = subprocess.run([binary, "--listen", "no-such-host.invalid:8080", "--db", os.path.join(tmp, "l3.db")],
                       capture_output=True, timeout=60)
    err2 = p.stderr.decode()
    assert p.returncode == 1 and "no-such-host.invalid" in err2, err2
    FIG["listen"] = {"localhost": m.group(1), "family": "IPv6" if fam == socket.AF_INET6 else "IPv4",
                     "bind_error": json.loads(err.strip().splitlines()[-1])["msg"]}


def slow_daemon(binary, db, delay_ms, *extra):
    """kwgend whose workers sleep delay_ms before every slice (the test-only
    KWGEND_TEST_SLICE_DELAY_MS hook, server/work.h): a job of N slices takes
    at least N * delay_ms however fast the machine generates."""
    d = e2e.Daemon(binary, db, *extra)
    d.prefix = ["env", "KWGEND_TEST_SLICE_DELAY_MS=%d" % delay_ms]
    return d.start()


def wait_for(cond, timeout, what):
    """Poll cond() every 10 ms until it is true; fail naming what after timeout s."""
    t_end = time.time() + timeout
    while not cond():
        if time.time() > t_end:
            raise AssertionError("after %g s still not: %s" % (timeout, what))
        time.sleep(0.01)


def t_workers(binary, tmp):
    # interleaving: a miss posted while a 100-item batch runs on the one
    # worker is answered before the batch.  Each slice sleeps 20 ms first,
    # so once the batch has started it has >= 99 x 20 ms to go on any
    # machine, while an interleaved miss waits for one slice; a pool that
    # ran the batch to its end first would answer the miss after it.
    # (--drain-seconds 1: sigterm_drain_over() ends this daemon, its
    # --work-timeout 60 is past that check's 2 s as the default 120 is)
    d = slow_daemon(binary, os.path.join(tmp, "workers.db"), 20, "--log-level", "error", "--workers", "1",
                    "--max-body-bytes", str(64 << 20), "--work-timeout", "60", "--drain-seconds", "1")
    try:
        res = {}
        base = serial() * 1000
        body = json.dumps({"requests": [e2e.variant(base + j) for j in range(100)]})
        g0 = d.metric("kwgen_generations_total")

        def batch():
            t0 = time.time()
            st, _, data = d.request("POST", "/v1/kernels:batch", body, J, conn=d.conn(timeout=300))
            res["batch"] = st, time.time() - t0, data

        t = threading.Thread(target=batch)
        t.start()
        try:
            wait_for(lambda: d.metric("kwgen_generations_total") > g0, 60, "the batch's first item generated")
            t0 = time.time()
            st, _, data = d.request("POST", "/v1/kernels", e2e.variant(base + 999), J)
            miss = time.time() - t0
            batch_done_first = "batch" in res
        finally:
            t.join(timeout=300)
        assert st == 200 and json.loads(data)["cached"] is False, st
        assert res["batch"][0] == 200, res["batch"][:2]
        items = json.loads(res["batch"][2])["results"]
        assert [x["status"] for x in items] == [200] * 100, [x["status"] for x in items if x["status"] != 200][:5]
        assert not batch_done_first, "the miss was answered after the 100-item batch (%.1f s): no interleaving" % (
            res["batch"][1])
        FIG["interleave"] = "1 worker, 20 ms per slice: a miss during a 100-item batch took %.0f ms, " \
                            "the batch %.1f s" % (miss * 1000, res["batch"][1])
        sigterm_drain_over(d)   # its exit 0 asserted there
    finally:
        rc = d.stop() if d.proc.poll() is None else d.proc.returncode
    assert rc == 0, rc
    # --work-timeout: a job still queued past it gets 503 timeout for the
    # items not yet answered.  6 batches of 40 items take turns on 1 worker
    # whose slices sleep 30 ms first: 240 slices need >= 7.2 s, far past
    # --work-timeout 1 (at most 33 slices fit in it), so items time out on
    # any machine.
    d = slow_daemon(binary, os.path.join(tmp, "timeout.db"), 30, "--log-level", "error", "--workers", "1",
                    "--max-body-bytes", str(64 << 20), "--work-timeout", "1", "--threads", "4")
    try:
        out = []
        lock = threading.Lock()
        base = serial() * 1000

        def one(i):
            body = json.dumps({"requests": [e2e.variant(base + 40 * i + j) for j in range(40)]})
            st, h, data = d.request("POST", "/v1/kernels:batch", body, J, conn=d.conn(timeout=120))
            with lock:
                out.append((st, h, data))

        ts = [threading.Thread(target=one, args=(i,)) for i in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(timeout=120)
        assert len(out) == 6, out
        codes = []
        for st, h, data in out:
            assert st == 200, st
            codes += [(x["status"], (x.get("error") or {}).get("code")) for x in json.loads(data)["results"]]
        timeouts = [c for c in codes if c == (503, "timeout")]
        assert timeouts, "no item timed out: %r" % codes[:10]
        assert set(codes) <= {(200, None), (503, "timeout")}, set(codes)
        st, _, _ = d.request("GET", "/healthz")
        assert st == 200
        FIG["work_timeout"] = "--work-timeout 1, 1 worker, 30 ms per slice, 6 x 40-item batches: " \
                              "%d items 200, %d items 503 timeout" % (codes.count((200, None)), len(timeouts))
    finally:
        rc = d.stop()
    assert rc == 0, rc


def t_flights(binary, tmp):
    """Identical work from singles and batches at once: each key generated
    once, every answer the same, nobody left waiting (batches park on the
    flights of other requests and are requeued).  Each slice waits 20 ms
    first (KWGEND_TEST_SLICE_DELAY_MS): the 12 generations overlap the
    other requests by the hook on any machine, not by their size (they were
    answers of 385 KB: 3.5 s of CPU under ASan)."""
    # (--drain-seconds 600: sigterm_during_batch() ends this daemon)
    d = slow_daemon(binary, os.path.join(tmp, "flights.db"), 20, "--log-level", "error", "--workers", "1",
                    "--threads", "3", "--drain-seconds", "600")
    try:
        base = serial() * 1000
        reqs = [e2e.variant(base + k) for k in range(12)]
        g0 = d.metric("kwgen_generations_total")
        out, lock = [], threading.Lock()
        barrier = threading.Barrier(4 + 12)

        def batch(order):
            body = json.dumps({"requests": [reqs[k] for k in order]})
            c = d.conn(timeout=120)
            c.connect()
            barrier.wait()
            st, _, data = d.request("POST", "/v1/kernels:batch", body, J, conn=c)
            c.close()
            assert st == 200, st
            with lock:
                for k, item in zip(order, json.loads(data)["results"]):
                    out.append((k, item["status"], json.dumps(item.get("response", {}).get("results"))))

        def single(k):
            c = d.conn(timeout=120)
            c.connect()
            barrier.wait()
            st, _, data = d.request("POST", "/v1/kernels", reqs[k], J, conn=c)
            c.close()
            with lock:
                out.append((k, st, json.dumps(json.loads(data).get("results"))))

        orders = [list(range(12)), list(range(11, -1, -1)), list(range(0, 12, 2)) + list(range(1, 12, 2)),
                  list(range(6, 12)) + list(range(6))]
        ts = [threading.Thread(target=batch, args=(o,)) for o in orders] + \
             [threading.Thread(target=single, args=(k,)) for k in range(12)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(timeout=180)
        assert len(out) == 4 * 12 + 12, len(out)
        assert all(st == 200 for _, st, _ in out), [st for _, st, _ in out if st != 200][:5]
        by_key = {}
        for k, _, res in out:
            by_key.setdefault(k, set()).add(res)
        assert all(len(v) == 1 for v in by_key.values()), "different answers for one key"
        g1 = d.metric("kwgen_generations_total")
        assert g1 - g0 == 12, "12 keys generated %d times" % (g1 - g0)
        FIG["flights"] = "1 worker, 4 batches + 12 singles over the same 12 keys: 60 answers 200, " \
                         "%d generations" % (g1 - g0)
        sigterm_during_batch(d)   # its exit 0 asserted there
    finally:
        rc = d.stop() if d.proc.poll() is None else d.proc.returncode
    assert rc == 0, rc


def t_slow_head(binary, tmp):
    """Clients that trickle their request line or headers (never idle, so
    the inactivity timeout never fires) are closed once --connection-timeout
    + --request-timeout have passed; with all --max-connections slots taken
    by them, a new client is served as soon as they are cut; a keep-alive
    client that pauses between requests is not cut."""
    d = e2e.Daemon(binary, os.path.join(tmp, "slowhead.db"), "--connection-timeout", "1",
                   "--request-timeout", "1", "--max-connections", "8").start()
    res, lock = {}, threading.Lock()
    # each client has sent its first bytes (set by its thread)
    began = [threading.Event() for _ in range(8)]

    def slow(i, mode):
        s = socket.create_connection(("127.0.0.1", d.port), timeout=30)
        t0 = time.time()
        try:
            if mode == "headers":
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            n = 0
            while time.time() - t0 < 15:
                s.sendall(b"X-A%d: b\r\n" % n if mode == "headers" else b"GET /healthz"[n % 12:n % 12 + 1])
                began[i].set()
                n += 1
                time.sleep(0.3)
            out = "%s: still open after 15 s" % mode
        except OSError:
            out = "%s: cut after %.1f s" % (mode, time.time() - t0)
        finally:
            s.close()
        with lock:
            res[i] = (mode, time.time() - t0, out)

    def keepalive(i):
        s = socket.create_connection(("127.0.0.1", d.port), timeout=10)
        try:
            for _ in range(4):
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                got = s.recv(4096)
                assert got.startswith(b"HTTP/1.1 200 "), got[:100]
                began[i].set()
                time.sleep(0.8)
            out = "keepalive: served"
        except (OSError, AssertionError) as ex:
            out = "keepalive: %r" % ex
        finally:
            s.close()
        with lock:
            res[i] = ("keepalive", 0, out)

    try:
        ts = [threading.Thread(target=slow, args=(i, "line" if i % 2 else "headers")) for i in range(7)]
        ts.append(threading.Thread(target=keepalive, args=(7,)))
        for t in ts:
            t.start()
        # every slot taken: the eight clients connected and sending (a
        # client that failed at once sets nothing; the asserts below name it)
        for i, ev in enumerate(began):
            ev.wait(20)
        t0 = time.time()
        st, _, _ = d.request("GET", "/healthz", conn=d.conn(timeout=20))
        waited = time.time() - t0
        assert st == 200, st
        for t in ts:
            t.join(timeout=30)
        outs = [r[2] for _, r in sorted(res.items())]
        assert len(outs) == 8, outs
        assert all("cut after" in o for o in outs[:7]), outs
        # the deadline is 1 + 1 s, checked twice a second
        assert all(r[1] < 6 for r in list(res.values()) if r[0] != "keepalive"), outs
        assert outs[7] == "keepalive: served", outs[7]
        cuts = sum("no complete request head" in line for line in list(d.log))
        assert cuts == 7, "%d cut lines logged" % cuts
        FIG["slow-head"] = "7 trickling clients cut after %.1f..%.1f s; a new client waited %.1f s for a slot" % (
            min(r[1] for r in res.values() if r[0] != "keepalive"),
            max(r[1] for r in res.values() if r[0] != "keepalive"), waited)
    finally:
        rc = d.stop()
    assert rc == 0, rc


CHECKS = ["latency", "lingering", "framing", "access-log", "signals", "late-resume", "listen", "workers",
          "flights", "slow-head"]



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--only", default="")
    ap.add_argument("--skip", default="", help="comma-separated checks not to run")
    ap.add_argument("--seconds", type=float, default=6)
    ap.add_argument("--p99-ms", type=float, default=250)
    ap.add_argument("--batch-items", type=int, default=175)
    ap.add_argument("--figures", default="")
    a = ap.parse_args()
    binary = os.path.abspath(a.kwgend)
    only = set(a.only.split(",")) if a.only else set(CHECKS)
    skip = set(x for x in a.skip.split(",") if x)
    unknown = (only | skip) - set(CHECKS)
    only -= skip
    if unknown:
        ap.error("unknown check(s): %s" % ", ".join(sorted(unknown)))
    with tempfile.TemporaryDirectory(prefix="kwgen-serve-") as tmp:
        table = [
            ("latency", "/healthz and hits under 64 MiB batches: p99 < %g ms" % a.p99_ms, t_latency,
             (a.seconds, a.p99_ms, a.batch_items)),
            ("lingering", "urllib posting oversized bodies reads 413 every time", t_lingering, ()),
            ("framing", "ambiguous framing 400 + close; NUL and %00 refused; bad request lines logged",
             t_framing, ()),
            ("access-log", "access lines: client, request id, error code; JSON start/stop", t_access_log, ()),
            ("late-resume", "SIGTERM with a connection still suspended: the drain waits for its resume, "
             "no libmicrohttpd panic", t_late_resume, ()),
            ("listen", "--listen localhost:PORT; bind errors name host and port", t_listen, ()),
            ("workers", "batch items interleave with misses; --work-timeout", t_workers, ()),
            ("flights", "singles and batches over the same keys: one generation each", t_flights, ()),
            ("signals", "SIGHUP reopens the log; SIGTERM skips idle uploads, answers work", t_signals, ()),
            ("slow-head", "request heads trickled in are cut after the deadline; keep-alive is not",
             t_slow_head, ()),
        ]
        for name, title, fn, extra in table:
            if name in only:
                e2e.check(title, fn, binary, tmp, *extra)
        e2e.sanitizer_check("no sanitizer report from any kwgend")
    print("figures: " + json.dumps(FIG, indent=1))
    if a.figures:
        with open(a.figures, "w") as f:
            json.dump(FIG, f, indent=1)
    print("serve: %d passed, %d failed, %d skipped" % (e2e.PASSED, e2e.FAILED, e2e.SKIPPED))
    return e2e.exit_status()


if __name__ == "__main__":
    sys.exit(main())
