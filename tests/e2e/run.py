#!/usr/bin/env python3
"""End-to-end tests of kwgend: the real daemon on loopback (port 0), a temp
cache file, real requests.  Python 3 stdlib + python3-jsonschema.

  python3 tests/e2e/run.py [--kwgend build/kwgend] [--golden N] [--verbose]

Prints one line per check and a final line `e2e: N passed, M failed`;
exit status 0 only when nothing failed.
"""
import argparse
import atexit
import gzip
import http.client
import json
import os
import random
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import ci, sanitizer_report  # noqa: E402
EXAMPLE = os.path.join(ROOT, "examples", "gfx942-request.json")
GOLDEN = os.path.join(ROOT, "tests", "golden")

PASSED = 0
FAILED = 0
SKIPPED = 0
VERBOSE = False
# Errors a client sees when kwgend is killed under it.
CUT = (ConnectionError, http.client.HTTPException, OSError)


class Skip(Exception):
    """Raised by a check that cannot run here; counted as skipped, not passed."""


def check(name, fn, *args):
    """Run one check; an exception or a false assert is a failure, Skip a skip."""
    global PASSED, FAILED, SKIPPED
    t0, c0 = time.time(), cpu_seconds()
    try:
        fn(*args)
    except Skip as e:
        SKIPPED += 1
        print("SKIPPED %s: %s" % (name, e), flush=True)
        return False
    except Exception as e:  # noqa: BLE001 - every failure is reported, none is swallowed
        FAILED += 1
        print("FAIL %s: %s: %s" % (name, type(e).__name__, e), flush=True)
        return False
    PASSED += 1
    print("ok   %s (%.2fs, cpu %.2fs)" % (name, time.time() - t0, cpu_seconds() - c0), flush=True)
    return True


def cpu_seconds():
    """User + system CPU of this process and of the children it has waited
    for (a daemon's counts once it has exited): the per-check cpu figure."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def not_run(names, because):
    """Checks that depend on one that failed: each counted as failed."""
    global FAILED
    for name in names:
        FAILED += 1
        print("FAIL %s: not run (%s failed)" % (name, because), flush=True)


def exit_status():
    """0 when nothing failed (and, under CI=true, nothing was skipped)."""
    if FAILED:
        return 1
    if SKIPPED and ci():
        print("%d check(s) skipped under CI=true" % SKIPPED)
        return 1
    return 0


def sanitizer_check(name):
    """A check over every kwgend started so far: no sanitizer report in any
    stderr (AddressSanitizer, LeakSanitizer, UBSan's `runtime error:`)."""
    def t():
        found = []
        for d in Daemon.started:
            d.wait_log()
            rep = sanitizer_report("".join(d.history))
            if rep:
                found.append("%s: %s" % (" ".join(d.extra[:4]), rep))
        assert not found, "; ".join(found[:5])
    check(name, t)


def proc_value(pid, name, key):
    """The first number after `key` on its line of /proc/PID/<name>
    (status, io, ...), 0 if the line is absent."""
    with open("/proc/%d/%s" % (pid, name)) as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1])
    return 0


def rss_kib(pid):
    """pid's resident set size in KiB (/proc/PID/status VmRSS), 0 if absent."""
    return proc_value(pid, "status", "VmRSS:")


def nfds(pid):
    """pid's open file descriptors (/proc/PID/fd)."""
    return len(os.listdir("/proc/%d/fd" % pid))


class Daemon:
    """build/kwgend on 127.0.0.1:0 with its own cache file."""

    started = []   # every Daemon started: sanitizer_check() reads their stderr

    def __init__(self, binary, db, *extra):
        self.binary, self.db, self.extra = binary, db, list(extra)
        self.proc = None
        self.log = []       # stderr of the current process
        self.history = []   # stderr of every process this Daemon started
        self.port = None
        self.prefix = []  # e.g. setpriv ... to run as another user
        self.drainer = None

    def start(self):
        self.wait_log()
        self.log = []
        if self not in Daemon.started:
            Daemon.started.append(self)
        self.proc = subprocess.Popen(self.prefix + [self.binary, "--listen", "127.0.0.1:0", "--db", self.db]
                                     + self.extra, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stderr.readline().decode("utf-8", "replace")
            if not line:
                raise RuntimeError("kwgend exited: rc=%s: %s" % (self.proc.wait(), "".join(self.log)[-2000:]))
            self.log.append(line)
            self.history.append(line)
            m = re.search(r"kwgend: listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                break
        else:
            raise RuntimeError("kwgend did not print its port")
        self.drainer = threading.Thread(target=self._drain, daemon=True)
        self.drainer.start()
        return self

    def _drain(self):
        for line in self.proc.stderr:
            text = line.decode("utf-8", "replace")
            self.log.append(text)
            self.history.append(text)

    def wait_log(self, timeout=10):
        """After the process exited: wait until its stderr is read to the end."""
        if self.drainer and self.proc and self.proc.poll() is not None:
            self.drainer.join(timeout)

    def stop(self, sig=signal.SIGTERM, timeout=30):
        self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=timeout)
        if rc != 0:
            # killed by a signal at shutdown (an abort or a crash) or a
            # non-zero exit: say so with the end of its stderr, whatever
            # the caller asserts
            self.wait_log()
            how = "on signal %d" % -rc if rc < 0 else "with status %d" % rc
            print("note: kwgend exited %s after %s; its stderr ends:\n%s"
                  % (how, signal.Signals(sig).name, "".join(self.log)[-2000:]), flush=True)
        return rc

    def kill9(self):
        self.proc.kill()
        self.proc.wait()

    @classmethod
    def stop_all(cls):
        """Stop every daemon still running (a check that failed half-way
        left it): SIGTERM, then SIGKILL after 10 s.  Runs at exit."""
        for d in cls.started:
            if d.proc and d.proc.poll() is None:
                d.proc.terminate()
                try:
                    d.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    d.proc.kill()
                    d.proc.wait()


    def conn(self, timeout=60):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, conn=None):
        """-> (status, headers dict (lower-case names), body bytes)."""
        own = conn is None
        c = conn or self.conn()
        hdrs = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        elif isinstance(body, str):
            body = body.encode()
        try:
            c.request(method, path, body=body, headers=hdrs)
            r = c.getresponse()
            data = r.read()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, data
        finally:
            if own:
                c.close()

    def post(self, body, path="/v1/kernels", conn=None):
        st, h, data = self.request("POST", path, body, conn=conn)
        return st, h, (json.loads(data) if data else None)

    def metric(self, name):
        st, _, data = self.request("GET", "/metrics")
        assert st == 200
        for line in data.decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        raise AssertionError("metric %s missing" % name)

    def status(self):
        st, _, data = self.request("GET", "/status")
        assert st == 200, st
        return json.loads(data)


atexit.register(Daemon.stop_all)   # a check that failed half-way may have left one running


def tcp_queue(local_port, remote_port=None, listening=False):
    """The kernel's queue of a loopback IPv4 socket (/proc/net/tcp): for a
    listening socket on local_port (listening=True), the connections not yet
    accepted; else, for the connected socket local_port <-> remote_port,
    (bytes sent and not acknowledged, bytes received and not read).  None
    if there is no such socket."""
    with open("/proc/net/tcp") as f:
        rows = [x.split() for x in f.readlines()[1:]]
    for r in rows:
        lport, rport, state = int(r[1].split(":")[1], 16), int(r[2].split(":")[1], 16), r[3]
        tx, rx = (int(x, 16) for x in r[4].split(":"))
        if lport != local_port:
            continue
        if listening and state == "0A":
            return rx
        if not listening and state == "01" and rport == remote_port:
            return tx, rx
    return None


def wait_no_connections(port, timeout=60):
    """Until kwgend listening on port holds no connection (every client's
    close seen and its own end closed: no loopback socket on port but the
    listening one)."""
    t_end = time.time() + timeout
    while True:
        with open("/proc/net/tcp") as f:
            rows = [x.split() for x in f.readlines()[1:]]
        held = [r for r in rows if int(r[1].split(":")[1], 16) == port and r[3] not in ("0A", "06")]
        if not held:
            return
        assert time.time() < t_end, "kwgend on port %d still holds %d connections after %g s" % (
            port, len(held), timeout)
        time.sleep(0.01)


def wait_accepted(port, timeout=60):
    """Until kwgend has accepted every connection made to port (its listen
    queue is empty): held connections count against its caps from then on."""
    t_end = time.time() + timeout
    while tcp_queue(port, listening=True) != 0:
        assert time.time() < t_end, "connections to port %d not accepted within %g s" % (port, timeout)
        time.sleep(0.01)


def wait_read(sock, timeout=60):
    """Until what the client sock sent has reached kwgend and kwgend has
    read it (nothing unacknowledged on the client's side, nothing unread on
    the daemon's)."""
    lport, rport = sock.getsockname()[1], sock.getpeername()[1]
    t_end = time.time() + timeout
    while True:
        mine, theirs = tcp_queue(lport, rport), tcp_queue(rport, lport)
        if mine is not None and theirs is not None and mine[0] == 0 and theirs[1] == 0:
            return
        assert time.time() < t_end, "kwgend did not read %d's bytes within %g s (%r, %r)" % (
            lport, timeout, mine, theirs)
        time.sleep(0.01)


def load_schemas():
    # imported here, not at the top: jsonschema costs 70-250 ms of CPU to
    # import, and most of the scripts that import this module (cli_test.py,
    # serve_test.py, ...) for its Daemon never validate a schema
    import jsonschema
    with open(os.path.join(ROOT, "schema", "response.schema.json")) as f:
        resp = json.load(f)
    with open(os.path.join(ROOT, "schema", "request.schema.json")) as f:
        req = json.load(f)
    V = jsonschema.Draft202012Validator
    defs = resp["$defs"]
    return {
        "request": V(req),
        "response": V(resp),
        "error": V({"$defs": defs, "$ref": "#/$defs/error"}),
        "batch": V({"$defs": defs, "$ref": "#/$defs/batch"}),
        "status": V({"$defs": defs, "$ref": "#/$defs/status"}),
    }


_EXAMPLE_TEXT = []


def example():
    """A fresh parse of examples/gfx942-request.json (the caller may change
    it); the file is read once: storage-test's and soak's clients build
    thousands of requests from it (variant())."""
    if not _EXAMPLE_TEXT:
        with open(EXAMPLE) as f:
            _EXAMPLE_TEXT.append(f.read())
    return json.loads(_EXAMPLE_TEXT[0])


def variant(i):
    """A distinct request: the example with one read key varied."""
    r = example()
    r["generators"] = [{"name": "wait", "args": {"skipLocalRead": i % 50, "skipGlobalRead": i // 50,
                                                  "skipLocalWrite": -1}},
                       {"name": "accToArchMapper"}]
    return r


def expect_error(d, status, schemas, method, path, body=None, headers=None, code=None):
    st, h, data = d.request(method, path, body, headers)
    assert st == status, "%s %s: %d, want %d: %r" % (method, path, st, status, data[:200])
    if method != "HEAD" and status != 304:
        obj = json.loads(data)
        schemas["error"].validate(obj)
        if code:
            assert obj["error"]["code"] == code, obj
        # the body names the request as the X-Request-Id header does
        assert obj["error"].get("request_id") == h.get("x-request-id") and h.get("x-request-id"), (obj, h)
    return h


# ---------------------------------------------------------------- checks


def t_generate_and_cache(d, schemas, st):
    req = example()
    schemas["request"].validate(req)
    s, h, r1 = d.post(req)
    assert s == 200, (s, r1)
    schemas["response"].validate(r1)
    assert r1["cached"] is False, r1["cached"]
    assert h.get("etag") == '"%s"' % r1["key"], h.get("etag")
    assert r1["isa"] == "gfx942"
    assert len(r1["results"]) >= 1
    s, h, r2 = d.post(req)
    assert s == 200 and r2["cached"] is True, (s, r2.get("cached"))
    assert r2["results"] == r1["results"]
    assert r2["key"] == r1["key"] and r2["config_id"] == r1["config_id"]
    st["key"], st["results"] = r1["key"], r1["results"]


def t_get_head_etag(d, schemas, st):
    key = st["key"]
    s, h, data = d.request("GET", "/v1/kernels/" + key)
    assert s == 200, s
    r = json.loads(data)
    schemas["response"].validate(r)
    assert r["key"] == key and r["results"] == st["results"] and r["cached"] is True
    assert h["etag"] == '"%s"' % key
    s, h2, body = d.request("HEAD", "/v1/kernels/" + key)
    assert s == 200 and body == b"", (s, body[:50])
    assert int(h2["content-length"]) == len(data)
    assert h2["etag"] == h["etag"]
    s, h3, body = d.request("GET", "/v1/kernels/" + key, headers={"If-None-Match": h["etag"]})
    assert s == 304 and body == b"", s
    assert h3["etag"] == h["etag"]
    s, _, _ = d.request("GET", "/v1/kernels/" + key,
                        headers={"If-None-Match": '"%s", %s' % ("0" * 64, h["etag"])})
    assert s == 304, s
    s, _, _ = d.request("GET", "/v1/kernels/" + key, headers={"If-None-Match": '"%s"' % ("0" * 64)})
    assert s == 200, s


def t_get_from_memory(d, schemas, st):
    """Repeated GETs by key (JSON, text, 304) are served from memory: the
    file is read once per form; a rewritten row (bypass with a new source)
    and a deleted one are not served from memory."""
    key = st["key"]
    path = "/v1/kernels/" + key
    s, h, first = d.request("GET", path)
    assert s == 200, s
    s, ht, first_text = d.request("GET", path, headers={"Accept": "text/plain"})
    assert s == 200 and ht["content-type"].startswith("text/plain"), (s, ht)
    r0 = d.metric("kwgen_cache_file_reads_total")
    for _ in range(10):
        s, h2, data = d.request("GET", path)
        assert s == 200 and data == first and h2["etag"] == h["etag"], (s, data[:80])
        assert h2["content-type"].startswith("application/json"), h2
        s, h3, text = d.request("GET", path, headers={"Accept": "text/plain"})
        assert s == 200 and text == first_text and h3["etag"] == ht["etag"], (s, text[:80])
        assert h3["content-type"].startswith("text/plain"), h3
        s, _, body = d.request("GET", path, headers={"If-None-Match": h["etag"]})
        assert s == 304 and body == b"", s
        s, _, body = d.request("GET", path, headers={"If-None-Match": ht["etag"], "Accept": "text/plain"})
        assert s == 304 and body == b"", s
    reads = d.metric("kwgen_cache_file_reads_total") - r0
    assert reads <= 2, "40 GETs read the file %d times (want them from memory)" % reads
    # the row rewritten with another source: GET shows the new one at once
    req = example()
    req["source"] = {"file": "memory-test.yaml", "index": 7}
    s, _, r = d.post(req, path="/v1/kernels?cache=bypass")
    assert s == 200 and r["key"] == key, (s, r)
    s, _, data = d.request("GET", path)
    assert s == 200 and json.loads(data).get("source") == req["source"], data[-200:]
    # and without it again, as the other checks expect
    s, _, r = d.post(example(), path="/v1/kernels?cache=bypass")
    assert s == 200, s
    s, _, data = d.request("GET", path)
    assert s == 200 and "source" not in json.loads(data), data[-200:]


def t_batch_hits_from_memory(d, schemas, st):
    """A batch sent again is answered from memory: the items' keys are known
    (no parsing and keying again), and their responses, each with its own
    source, are held; the answers are the same as from the file."""
    reqs = []
    for i in range(6):
        r = variant(60000 + i)
        if i % 2:
            r["source"] = {"file": "batch-memo.yaml", "SolutionIndex": i}
        reqs.append(r)
    body = {"requests": reqs}
    s, _, first = d.post(body, path="/v1/kernels:batch")
    assert s == 200, s
    t_sent = time.monotonic()
    s, _, second = d.post(body, path="/v1/kernels:batch")
    assert s == 200 and all(x["status"] == 200 for x in second["results"]), second
    r0 = d.metric("kwgen_cache_file_reads_total")
    s, _, third = d.post(body, path="/v1/kernels:batch")
    assert s == 200, s
    reads = d.metric("kwgen_cache_file_reads_total") - r0
    # responses held in memory are fresh for a second after they were
    # recorded (during the second batch): a slower machine may see them stale
    fresh = time.monotonic() - t_sent < 1.0
    assert third == second, "the batch from memory differs from the batch from the file"
    for i, x in enumerate(third["results"]):
        resp = x["response"]
        assert resp["cached"] is True and resp["key"] == first["results"][i]["response"]["key"]
        assert resp.get("source") == reqs[i].get("source"), (i, resp.get("source"))
    assert reads == 0 or not fresh, "a batch sent again read the file %d times (want its items from memory)" % reads


def t_bypass(d, schemas, st):
    g0 = d.metric("kwgen_generations_total")
    s, _, r = d.post(example(), path="/v1/kernels?cache=bypass")
    assert s == 200 and r["cached"] is False, (s, r)
    assert r["key"] == st["key"] and r["results"] == st["results"]
    assert d.metric("kwgen_generations_total") == g0 + 1
    s, _, r = d.post(example())
    assert s == 200 and r["cached"] is True


def t_batch(d, schemas, st):
    bad_kernel = example()
    bad_kernel["kernel"]["MIWaveTile"] = "four"
    body = {"requests": [example(), variant(1), {"isa": "gfx000", "kernel": {}}, bad_kernel, 17]}
    s, _, r = d.post(body, path="/v1/kernels:batch")
    assert s == 200, (s, r)
    schemas["batch"].validate(r)
    codes = [x["status"] for x in r["results"]]
    assert codes == [200, 200, 422, 422, 400], codes
    assert r["results"][0]["response"]["key"] == st["key"]
    assert r["results"][0]["response"]["cached"] is True
    assert r["results"][1]["response"]["cached"] is False


def t_errors(d, schemas, st):
    J = {"Content-Type": "application/json"}
    expect_error(d, schemas=schemas, status=400, method="POST", path="/v1/kernels", body="{bad",
                 headers=J, code="syntax")
    expect_error(d, schemas=schemas, status=400, method="POST", path="/v1/kernels", body="[1,2]",
                 headers=J, code="syntax")
    expect_error(d, schemas=schemas, status=400, method="POST", path="/v1/kernels", body="",
                 headers=J, code="syntax")
    # the body is parsed in kwgend's per-miss arena; a bad one is worded by
    # jansson as before (line, column, what), a duplicate key refused
    for body, want in (("{bad", r"^invalid JSON at line 1, column \d+: "),
                       ("[1,2]", r"^the body must be a JSON object$"),
                       ('{"isa": "gfx942", "isa": "gfx90a"}', r"^invalid JSON at line 1, column \d+: duplicate object key"),
                       ('{"isa": "gfx942"', r"^invalid JSON at line 1, column \d+: ")):
        st_, _, data = d.request("POST", "/v1/kernels", body, J)
        msg = json.loads(data)["error"]["message"]
        assert st_ == 400 and re.search(want, msg), (body, st_, msg)
    expect_error(d, schemas=schemas, status=400, method="POST", path="/v1/kernels:batch",
                 body="nope", headers=J)
    expect_error(d, schemas=schemas, status=400, method="POST", path="/v1/kernels?cache=sometimes",
                 body=json.dumps(example()), headers=J)
    # an unknown or repeated query parameter on a kernel route is 422
    # naming it and what the route takes, for a hit as for a miss (a
    # misspelled ?cache=bypas or ?cach=bypass must not be served from the
    # cache as if it were not there); the right spelling is answered
    hit = json.dumps(example())
    d.request("POST", "/v1/kernels", hit, J)
    for method, path, body, takes in (
            ("POST", "/v1/kernels?cach=bypass", hit, "?cache=, and with a YAML body ?isa="),
            ("POST", "/v1/kernels?cache=bypass&isaa=gfx942", hit, "?cache=, and with a YAML body ?isa="),
            ("POST", "/v1/kernels:batch?bypass=1", json.dumps({"requests": [example()]}), "?cache= only"),
            ("GET", "/v1/kernels/%s?format=text" % st["key"], None, "?cache= only"),
            ("DELETE", "/v1/kernels/%s?force=1" % st["key"], None, "?cache= only")):
        expect_error(d, schemas=schemas, status=422, method=method, path=path, body=body,
                     headers=J if body else None, code="invalid")
        _, _, data = d.request(method, path, body, J if body else None)
        m = json.loads(data)["error"]["message"]
        assert "unknown query parameter" in m and takes in m, (path, m)
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels?cache=bypass&cache=default",
                 body=hit, headers=J, code="invalid")
    s_, _, data = d.request("GET", "/v1/kernels/%s?cache=default" % st["key"])
    assert s_ == 200, (s_, data[:200])
    s_, _, data = d.request("POST", "/v1/kernels?cache=default", hit, J)
    assert s_ == 200 and json.loads(data)["cached"] is True, (s_, data[:200])
    expect_error(d, schemas=schemas, status=404, method="GET", path="/nope", code="not_found")
    expect_error(d, schemas=schemas, status=404, method="GET", path="/v1/kernels/" + "0" * 64)
    expect_error(d, schemas=schemas, status=404, method="GET", path="/v1/kernels/xyz")
    h = expect_error(d, schemas=schemas, status=405, method="GET", path="/v1/kernels")
    assert h.get("allow") == "POST", h
    h = expect_error(d, schemas=schemas, status=405, method="PUT", path="/v1/kernels/" + st["key"])
    assert h.get("allow") == "GET, HEAD, DELETE", h
    expect_error(d, schemas=schemas, status=404, method="DELETE", path="/v1/kernels/" + "0" * 64,
                 code="not_found")
    h = expect_error(d, schemas=schemas, status=405, method="POST", path="/healthz", body="{}",
                     headers=J)
    assert "GET" in h.get("allow", ""), h
    expect_error(d, schemas=schemas, status=415, method="POST", path="/v1/kernels",
                 body=json.dumps(example()), headers={"Content-Type": "text/plain"})
    expect_error(d, schemas=schemas, status=415, method="POST", path="/v1/kernels",
                 body=json.dumps(example()), headers={})
    s, _, _ = d.request("POST", "/v1/kernels", json.dumps(example()),
                        {"Content-Type": "Application/JSON; charset=utf-8"})
    assert s == 200, s
    bad = example()
    bad["kernel"]["MIWaveTile"] = "four"
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels",
                 body=json.dumps(bad), headers=J)
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels",
                 body=json.dumps({"isa": "gfx000", "kernel": {}}), headers=J)
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels",
                 body=json.dumps({"isa": "gfx942", "generators": [{"name": "noSuchGenerator"}],
                                  "kernel": example()["kernel"]}), headers=J)
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels:batch",
                 body=json.dumps({"requests": [example()] * 9}), headers=J, code="limit")
    expect_error(d, schemas=schemas, status=422, method="POST", path="/v1/kernels:batch",
                 body=json.dumps({"reqs": []}), headers=J)
    # a client's own sane X-Request-Id comes back in the header and the body
    h = expect_error(d, schemas=schemas, status=404, method="GET", path="/nope",
                     headers={"X-Request-Id": "job-17.a"}, code="not_found")
    assert h.get("x-request-id") == "job-17.a", h


def t_absolute_form(d, schemas, st):
    """An absolute-form request target (RFC 9112 section 3.2.2: a server
    must accept it) names the same resource as its path."""
    origin = "http://127.0.0.1:%d" % d.port
    s, _, data = d.request("GET", origin + "/healthz")
    assert s == 200 and json.loads(data) == {"status": "ok"}, (s, data)
    s, _, data = d.request("GET", "HTTP://localhost" + "/v1/kernels/" + st["key"])
    assert s == 200 and json.loads(data)["key"] == st["key"], (s, data[:200])
    s, _, r = d.post(example(), path=origin + "/v1/kernels")
    assert s == 200 and r["key"] == st["key"] and r["cached"] is True, (s, r)
    s, _, data = d.request("GET", origin)
    assert s in (200, 404), s  # "/" is the page (or 404 with --no-ui), never a 400
    expect_error(d, schemas=schemas, status=404, method="GET", path=origin + "/nope", code="not_found")


def fixture_solution(i):
    """Solution i of tests/logic/fixtures/gfx942.yaml as a person copies it
    out of the file (a list item, indented), and the request `kwgen logic`
    derived for it (tests/logic/fixtures/gfx942.expected.jsonl)."""
    fix = os.path.join(ROOT, "tests", "logic", "fixtures")
    lines = open(os.path.join(fix, "gfx942.yaml")).read().split("\n")
    starts = [k for k, l in enumerate(lines) if l.startswith("  - ") or l.startswith("- - ")]
    text = "\n".join(lines[starts[i]:starts[i + 1]]) + "\n"
    want = [json.loads(l) for l in open(os.path.join(fix, "gfx942.expected.jsonl"))][i]
    return text, want


def t_yaml(d, schemas, st):
    """POST /v1/kernels with Content-Type: application/yaml: one solution,
    derived as `kwgen logic` derives it."""
    Y = {"Content-Type": "application/yaml"}
    text, want = fixture_solution(1)
    # ?derive=only: the request kwgen logic prints (tPA/tPB/states derived)
    s, _, b = d.request("POST", "/v1/kernels?derive=only&isa=gfx942", text, Y)
    got = json.loads(b)
    assert s == 200, (s, b[:300])
    schemas["request"].validate(got)
    for k in ("isa", "kernel", "tPA", "tPB", "states"):
        assert got[k] == want[k], (k, got.get(k), want[k])
    assert got["source"] == {"SolutionIndex": 1, "KernelNameMin": "Cijk_fixture_1"}, got.get("source")
    # generating: the same key and answer as posting that request as JSON; wait runs
    gens = [{"name": "wait", "args": {"skipGlobalRead": 0, "skipLocalWrite": -1, "skipLocalRead": -1}}]
    q = "/v1/kernels?isa=gfx942&generators=" + urllib.parse.quote(json.dumps(gens))
    s, _, b = d.request("POST", q, text, Y)
    assert s == 200, (s, b[:300])
    ans = json.loads(b)
    schemas["response"].validate(ans)
    s2, _, b2 = d.request("POST", "/v1/kernels", json.dumps(dict(want, generators=gens)),
                          {"Content-Type": "application/json"})
    ans2 = json.loads(b2)
    assert s2 == 200 and ans2["key"] == ans["key"] and ans2["results"] == ans["results"], (s2, b2[:200])
    assert ans["results"][0]["name"] == "wait" and ans["results"][0]["asm"], ans["results"][0]
    # a flow mapping wrapped over two lines, as PyYAML writes it; other YAML types; Accept: text/plain
    wrapped = text + "    InternalSupportParams: {KernArgsVersion: 2, SupportUserGSU: true,\n      UseUniversalArgs: true}\n"
    dashed = "- - " + wrapped[4:]  # copied as the first solution of a file: "- - Key: ..."
    assert text.startswith("  - ")
    for body, ct in ((wrapped, "application/yaml"), (wrapped, "application/x-yaml; charset=utf-8"),
                     (wrapped, "text/yaml"), (dashed, "application/yaml")):
        s, _, b = d.request("POST", "/v1/kernels?derive=only&isa=gfx942", body, {"Content-Type": ct})
        assert s == 200 and json.loads(b)["tPA"] == want["tPA"], (ct, body[:10], s, b[:300])
    s, h, b = d.request("POST", q, text, dict(Y, Accept="text/plain"))
    assert s == 200 and h.get("content-type", "").startswith("text/plain") and b"s_waitcnt" in b, (s, b[:200])
    # bad YAML and bad parameters: a clear 4xx, with line:column for syntax
    bad = [
        ("a: [1, 2\nb: 3\n", "", 400, "syntax", r"^body:2:\d+: malformed YAML"),
        ("MIWaveTile: [1, 1]\n  NumThreads: 256\n", "", 400, "syntax", r"^body:2:\d+: malformed YAML"),
        ("", "", 400, "syntax", "empty"),
        ("42\n", "", 400, "syntax", "scalar"),
        ("- a: 1\n- b: 2\n", "", 400, "syntax", "a list of 2 items"),
        (open(os.path.join(ROOT, "tests", "logic", "fixtures", "gfx942.yaml")).read(), "", 400, "syntax",
         "a logic file with 14 solutions"),
        ("Bomb:\n  a0: &a0 [1, 1]\n" + "".join("  a%d: &a%d [%s]\n" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10))
                                             for i in range(1, 8)),
         "", 400, "syntax", r"^body:\d+:\d+: alias \*a\d expands to"),
        (text, "?derive=yes", 400, "syntax", "derive"),
        (text, "?isa=sm_90", 400, "syntax", "gfx name"),
        (text, "?isa=gfx1030", 422, None, "gfx1030"),
        (text, "?generators=", 400, "syntax", "generator"),
        (text, "?generators=%5B%5D", 400, "syntax", "generator"),
        (text.replace("    NumLoadsCoalescedA: 3\n", ""), "", 422, "invalid", "NumLoadsCoalescedA"),
    ]
    for body, query, status, code, msg in bad:
        s, _, b = d.request("POST", "/v1/kernels" + query, body, Y)
        obj = json.loads(b)
        schemas["error"].validate(obj)
        assert s == status and (code is None or obj["error"]["code"] == code) and \
            re.search(msg, obj["error"]["message"]), (query, body[:40], s, obj)
    # YAML is for one kernel: a batch still wants JSON
    expect_error(d, schemas=schemas, status=415, method="POST", path="/v1/kernels:batch", body=text,
                 headers=Y, code="unsupported_media_type")
    s, _, b = d.request("POST", "/v1/kernels", text, {"Content-Type": "text/plain"})
    assert s == 415 and b"application/yaml" in b, (s, b[:200])


def t_too_large(d, schemas, st):
    big = json.dumps({"isa": "gfx942", "pad": "x" * 100000})
    J = {"Content-Type": "application/json"}
    expect_error(d, schemas=schemas, status=413, method="POST", path="/v1/kernels", body=big,
                 headers=J, code="too_large")
    # chunked: no Content-Length, the cap is hit while reading
    c = d.conn()
    c.putrequest("POST", "/v1/kernels")
    c.putheader("Content-Type", "application/json")
    c.putheader("Transfer-Encoding", "chunked")
    c.endheaders()
    sent = 0
    try:
        for _ in range(16):
            chunk = b"[" * 8192
            c.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        c.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    r = c.getresponse()
    data = r.read()
    c.close()
    assert r.status == 413, (r.status, data[:100])
    schemas["error"].validate(json.loads(data))
    # the daemon still answers
    s, _, _ = d.request("GET", "/healthz")
    assert s == 200


def t_info_routes(d, schemas, st):
    s, _, data = d.request("GET", "/v1/generators")
    assert s == 200, s
    g = json.loads(data)
    names = [x["name"] for x in g["generators"]]
    assert "wait" in names and "mapAcctoArchRegs" in names, names
    s, _, data = d.request("GET", "/v1/isas")
    assert s == 200, (s, data[:200])
    assert "gfx942" in data.decode()
    for p in ("/healthz", "/readyz"):
        s, _, data = d.request("GET", p)
        assert s == 200, (p, s)
    stt = d.status()
    schemas["status"].validate(stt)
    assert stt["entries"] >= 2 and stt["hits"] >= 1 and stt["misses"] >= 1, stt
    s, h, data = d.request("GET", "/metrics")
    assert s == 200 and h["content-type"].startswith("text/plain"), h
    text = data.decode()
    for name in ("kwgen_requests_total{", "kwgen_request_duration_seconds_bucket{",
                 "kwgen_generation_duration_seconds_bucket{", "kwgen_cache_hits_total ",
                 "kwgen_cache_misses_total ", "kwgen_cache_inserts_total ",
                 "kwgen_cache_evictions_total ", "kwgen_cache_bytes ", "kwgen_cache_entries ",
                 "kwgen_in_flight_requests ", "kwgen_generations_total ", "kwgen_inflight_slots ",
                 "kwgen_inflight_refused_total "):
        assert name in text, name
    assert 'kwgen_requests_total{route="/v1/kernels",code="200"}' in text


def t_access_log(d, schemas, st):
    path = "/v1/kernels/" + st["key"]

    _, h, _ = d.request("GET", path)
    rid = h.get("x-request-id")
    assert rid, "no X-Request-Id: %r" % h

    def mine():
        lines = [json.loads(x) for x in list(d.log) if x.startswith("{")]
        return [x for x in lines if "method" in x and x.get("request_id") == rid]
    # kwgend logs a request once it has answered it: wait for its line
    deadline = time.time() + 30
    while not mine() and time.time() < deadline:
        time.sleep(0.01)
    acc = mine()
    assert len(acc) == 1, "%d access lines with request_id %s" % (len(acc), rid)
    last = acc[0]
    assert last["path"] == path, last
    for k in ("time", "method", "path", "status", "bytes", "duration_ms", "key", "cached"):
        assert k in last, (k, last)
    assert last["status"] == 200 and last["key"] == st["key"] and last["cached"] is True


def t_sqlite_columns(d, schemas, st):
    db = sqlite3.connect("file:%s?mode=ro" % d.db, uri=True)
    row = db.execute("SELECT key, config_id, generator_version, isa, request, asm, tables,"
                     " response, bytes, created, last_access FROM entries WHERE key = ?",
                     (st["key"],)).fetchone()
    db.close()
    assert row, "row missing"
    key, cid, ver, isa, request, asm, tables, response, nbytes, created, last = row
    assert isa == "gfx942"
    json.loads(request)
    t = json.loads(tables)
    assert len(t) == len(st["results"])
    assert asm == "".join(r["asm"] for r in st["results"] if isinstance(r.get("asm"), str))
    assert json.loads(response)["key"] == key
    assert nbytes == len(request.encode()) + len(asm.encode()) + len(tables.encode()) + len(
        response.encode())
    assert created <= last


def t_storage_failure(d, schemas, st):
    locker = sqlite3.connect(d.db, timeout=1, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        s, h, data = d.request("POST", "/v1/kernels", variant(777))
        assert s == 503, (s, data[:200])
        assert "retry-after" in h, h
        schemas["error"].validate(json.loads(data))
        # a hit still works while the writer lock is held
        s, _, _ = d.request("GET", "/v1/kernels/" + st["key"])
        assert s == 200, s
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    s, _, r = d.post(variant(777))
    assert s == 200 and r["cached"] is False, (s, r)


def t_single_flight(d, schemas, st):
    body = variant(4242)
    g0 = d.metric("kwgen_generations_total")
    n = 24
    results = [None] * n
    barrier = threading.Barrier(n)

    def one(i):
        c = d.conn()
        c.connect()
        barrier.wait()
        results[i] = d.post(body, conn=c)
        c.close()

    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(r[0] == 200 for r in results), [r[0] for r in results]
    assert len({r[2]["key"] for r in results}) == 1
    assert len({json.dumps(r[2]["results"]) for r in results}) == 1
    g1 = d.metric("kwgen_generations_total")
    assert g1 == g0 + 1, "generations %d -> %d" % (g0, g1)


def t_miss_looks_once(d, schemas, st):
    """A miss looks its key up in the cache file once (the polling thread),
    not again on the worker, when no flight of a key like it finished in
    between; a batch's new items likewise; the answers are still stored."""
    a0 = d.metric("kwgen_cache_file_absent_total")
    g0 = d.metric("kwgen_generations_total")
    n = 4
    for i in range(n):
        s, _, r = d.post(variant(71000 + i))
        assert s == 200 and r["cached"] is False, (s, r)
    s, _, b = d.post({"requests": [variant(72000 + i) for i in range(3)]}, path="/v1/kernels:batch")
    assert s == 200 and all(x["status"] == 200 and x["response"]["cached"] is False
                            for x in b["results"]), b
    absent = d.metric("kwgen_cache_file_absent_total") - a0
    assert d.metric("kwgen_generations_total") - g0 == n + 3
    assert absent == n + 3, "%d misses looked their keys up %d times (want once each)" % (n + 3, absent)
    for i in range(n):
        s, _, r = d.post(variant(71000 + i))
        assert s == 200 and r["cached"] is True, (s, r)


def t_restart(d, schemas, st):
    """SIGINT exits 0; started again on the same file, the entry is still
    served.  (One restart for both: SIGTERM's exit 0 is t_drain's and every
    other daemon's stop; an ASan start and stop costs ~170 ms of CPU.)"""
    rc = d.stop(signal.SIGINT)
    assert rc == 0, "exit status %d" % rc
    d.start()
    s, _, data = d.request("GET", "/v1/kernels/" + st["key"])
    assert s == 200, s
    assert json.loads(data)["results"] == st["results"]
    s, _, r = d.post(example())
    assert s == 200 and r["cached"] is True


def t_drain(d, schemas, st):
    """SIGTERM with a request in flight: no new connections, the in-flight
    request is still answered, then exit 0."""
    body = json.dumps(variant(31337)).encode()
    slow = d.conn()
    slow.putrequest("POST", "/v1/kernels")
    slow.putheader("Content-Type", "application/json")
    slow.putheader("Transfer-Encoding", "chunked")
    slow.endheaders()
    slow.send(b"%x\r\n%s\r\n" % (10, body[:10]))  # in flight: headers and a first piece
    # in flight beside this /metrics request, then draining (its log line)
    t_end = time.time() + 60
    while d.metric("kwgen_in_flight_requests") < 2:
        assert time.time() < t_end, "the chunked request never in flight"
        time.sleep(0.01)
    n_log = len(d.log)
    d.proc.send_signal(signal.SIGTERM)
    while not any('"event":"drain"' in x for x in list(d.log)[n_log:]) and d.proc.poll() is None:
        assert time.time() < t_end, "no drain line after SIGTERM"
        time.sleep(0.01)
    assert d.proc.poll() is None, "exited with a request in flight"
    try:
        s, _, _ = d.request("GET", "/readyz")
        assert s == 503, "a new request while draining got %d" % s
    except (ConnectionRefusedError, ConnectionResetError):
        pass  # the listener is closed: also right
    rest = body[10:]
    slow.send(b"%x\r\n%s\r\n0\r\n\r\n" % (len(rest), rest))
    r = slow.getresponse()
    answer = json.loads(r.read())
    assert r.status == 200, (r.status, answer)
    schemas["response"].validate(answer)
    slow.close()
    rc = d.proc.wait(timeout=30)
    assert rc == 0, "exit status %d" % rc
    # (the main daemon's last check: not started again)


def t_crash_burst(binary, tmp, schemas):
    db = os.path.join(tmp, "crash.db")
    d = Daemon(binary, db, "--log-level", "error").start()
    answered = []
    errors = []
    lock = threading.Lock()
    stop = threading.Event()
    killing = threading.Event()   # set just before the kill: cut connections expected

    def worker(w):
        i = 0
        c = d.conn(timeout=10)
        while not stop.is_set():
            body = variant(10000 + w * 100000 + i)
            i += 1
            try:
                s, _, r = d.post(body, conn=c)
            except CUT:
                if not killing.is_set():
                    with lock:
                        errors.append("worker %d: connection failed while kwgend was up" % w)
                return
            if s == 200:
                with lock:
                    answered.append(r["key"])
            else:
                with lock:
                    errors.append("worker %d: status %d" % (w, s))
                return

    ts = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
    for t in ts:
        t.start()
    deadline = time.time() + 20   # bounds a hang only: the workers stop at their first error
    while time.time() < deadline and len(answered) < 150 and any(t.is_alive() for t in ts):
        time.sleep(0.01)
    killing.set()
    d.kill9()
    stop.set()
    for t in ts:
        t.join()
    with lock:
        keys = list(answered)
    assert not errors, "; ".join(errors[:5])
    assert len(keys) >= 20, "only %d answers before the kill" % len(keys)
    con = sqlite3.connect(db)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    assert ok == "ok", ok
    # started again with --workers 1 (it only reads here): the daemon
    # t_misses_share_texts then posts to and stops, exit 0 asserted there
    # (one ASan start and stop fewer)
    d = Daemon(binary, db, "--workers", "1", "--log-level", "error").start()
    try:
        c = d.conn()
        missing = [k for k in keys if d.request("GET", "/v1/kernels/" + k, conn=c)[0] != 200]
        c.close()
        assert not missing, "%d of %d answered keys lost" % (len(missing), len(keys))
        stt = d.status()
        assert stt["entries"] >= len(set(keys))
    except BaseException:
        assert d.stop() == 0
        raise
    ONE_WORKER.append(d)


ONE_WORKER = []   # t_crash_burst's daemon once it passed: --workers 1, for t_misses_share_texts


_GOLDEN_CORPUS = []


def golden_corpus():
    """(request lines, answer lines) of tests/golden, without newlines or
    blank lines: decompressed once per process (t_golden and
    t_misses_share_texts both read it), line by line (read() and split()
    cost twice the CPU)."""
    if not _GOLDEN_CORPUS:
        for name in ("requests.jsonl.gz", "answers.jsonl.gz"):
            with gzip.open(os.path.join(GOLDEN, name), "rt") as f:
                _GOLDEN_CORPUS.append([x.rstrip("\n") for x in f if x.strip()])
    return _GOLDEN_CORPUS[0], _GOLDEN_CORPUS[1]


def t_misses_share_texts(binary, tmp, schemas):
    """One worker answers misses one after another whose answers share long
    asm texts, or differ in them only slightly (golden requests whose asm
    has the same length but other text), and maps with values past 1,023:
    each answer carries its own, byte for byte as jansson writes the whole
    object (kwgend reuses texts it wrote for earlier answers)."""
    reqs, answer_lines = golden_corpus()
    answers = [json.loads(x) for x in answer_lines]
    by_len = {}
    for i, a in enumerate(answers):
        text = a.get("asm")
        if isinstance(text, str) and len(text) >= 256:
            by_len.setdefault(len(text), {}).setdefault(text, i)
    groups = [sorted(v.values()) for _, v in sorted(by_len.items()) if len(v) > 1][:4]
    assert len(groups) == 4, "golden answers with long asm of one length: %d groups" % len(groups)
    picked = [i for g in groups for i in g[:3]]
    d = ONE_WORKER.pop() if ONE_WORKER else \
        Daemon(binary, os.path.join(tmp, "texts.db"), "--workers", "1", "--log-level", "error").start()
    c = d.conn()

    def post_raw(req):
        s, _, data = d.request("POST", "/v1/kernels?cache=bypass", req, conn=c)
        assert s == 200, (s, data[:200])
        got = json.loads(data)
        assert data.decode() == json.dumps(got, separators=(",", ":"), ensure_ascii=False), data[:200]
        return got

    for i in picked + picked[::-1] + [x for i in picked for x in (i, i)]:
        got = post_raw(json.loads(reqs[i]))
        assert got["results"][0]["asm"] == answers[i]["asm"], "golden line %d: asm differs" % (i + 1)
    big = example()
    big["kernel"]["MIWaveTile"] = [16, 32]
    big["generators"] = [{"name": "accToArchMapper"}]
    for _ in range(2):
        for tile in ([16, 32], [4, 4], [16, 32]):
            big["kernel"]["MIWaveTile"] = tile
            res = post_raw(big)["results"][0]
            acc, arch = res["acc2arch"], res["arch2acc"]
            n = 4 * tile[0] * tile[1]
            assert sorted(acc) == list(range(len(acc))) and len(acc) == n, (len(acc), n)
            assert all(arch[a] == i for i, a in enumerate(acc)), "arch2acc is not acc2arch's inverse"
    c.close()
    assert d.stop() == 0


def t_eviction(binary, tmp, schemas):
    db = os.path.join(tmp, "evict.db")
    d = Daemon(binary, db, "--max-cache-bytes", "40000", "--log-level", "error").start()
    c = d.conn()
    keys = []
    for i in range(60):
        s, _, r = d.post(variant(50000 + i), conn=c)
        assert s == 200, (s, r)
        keys.append(r["key"])
    stt = d.status()
    assert stt["bytes"] <= 40000 or stt["entries"] == 1, stt
    assert stt["evictions"] > 0, stt
    # the newest key is served, the oldest is gone
    assert d.request("GET", "/v1/kernels/" + keys[-1], conn=c)[0] == 200
    assert d.request("GET", "/v1/kernels/" + keys[0], conn=c)[0] == 404
    c.close()
    assert d.stop() == 0


def t_stop(d):
    rc = d.stop()
    assert rc == 0, "exit status %d" % rc


def isa_name(isa):
    if isinstance(isa, list) and len(isa) == 3:
        return "gfx%d%d%s" % (isa[0], isa[1], "0123456789abcdef"[isa[2] % 16])
    return str(isa).lower()


def t_golden(d, schemas, n):
    reqs, answers = golden_corpus()
    assert len(reqs) == len(answers), (len(reqs), len(answers))
    rnd = random.Random(20241024)
    idx = sorted(rnd.sample(range(len(reqs)), min(n, len(reqs))))
    c = d.conn()
    bad = []
    for i in idx:
        req, want = json.loads(reqs[i]), json.loads(answers[i])
        s, _, data = d.request("POST", "/v1/kernels", req, conn=c)
        got = json.loads(data)
        if "error" in want:
            if not 400 <= s < 500:
                bad.append((i, "oracle error %r, kwgend %d" % (want["error"][:60], s)))
            continue
        if s != 200:
            bad.append((i, "status %d: %s" % (s, got.get("error", {}).get("message", "")[:100])))
            continue
        schemas["response"].validate(got)
        res = got["results"][0]
        for k in ("asm", "type", "acc2arch", "arch2acc", "value"):
            if k in want and res.get(k) != want[k]:
                bad.append((i, "%s differs (%s)" % (k, req.get("generator"))))
                break
        else:
            if "isa" in want and got["isa"] != isa_name(want["isa"]):
                bad.append((i, "isa %s vs %s" % (got["isa"], want["isa"])))
    c.close()
    if bad:
        for i, why in bad[:10]:
            print("     golden line %d: %s" % (i + 1, why))
    assert not bad, "%d of %d golden requests differ" % (len(bad), len(idx))


def main():
    global VERBOSE
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--golden", type=int, default=300, help="golden requests to post")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--main-daemon-only", action="store_true",
                    help="only the checks against the main daemon, not the kill -9 burst, eviction and "
                         "shared-text daemons (tests/selftest: a broken daemon fails there already)")
    ap.add_argument("--only", default="", metavar="TEXT",
                    help="of the checks that depend on the first generate, only those whose title holds "
                         "TEXT (kwgend starts, the first generate, the stop and the sanitizer check always "
                         "run; tests/selftest: a daemon broken at start or at exit fails there)")
    a = ap.parse_args()
    VERBOSE = a.verbose
    binary = os.path.abspath(a.kwgend)
    schemas = load_schemas()
    st = {}
    with tempfile.TemporaryDirectory(prefix="kwgen-e2e-") as tmp:
        d = Daemon(binary, os.path.join(tmp, "cache.db"), "--max-body-bytes", "65536",
                   "--max-batch", "8", "--busy-timeout-ms", "200")
        dependent = [
            ("GET / HEAD by key, ETag, If-None-Match", t_get_head_etag),
            ("GET by key again: from memory (JSON, text, 304)", t_get_from_memory),
            ("a batch sent again: from memory, each item with its source", t_batch_hits_from_memory),
            ("?cache=bypass regenerates", t_bypass),
            ("batch with good and bad items", t_batch),
            ("error codes 400 404 405 415 422", t_errors),
            ("absolute-form request targets (http://host/path)", t_absolute_form),
            ("one solution as YAML (Content-Type: application/yaml)", t_yaml),
            ("413 over --max-body-bytes", t_too_large),
            ("generators, isas, healthz, readyz, status, metrics", t_info_routes),
            ("JSON access log", t_access_log),
            ("cache columns readable with sqlite3", t_sqlite_columns),
            ("503 + Retry-After when the cache cannot be written", t_storage_failure),
            ("concurrent identical requests generate once", t_single_flight),
            ("a miss looks its key up in the file once", t_miss_looks_once),
        ]
        # the main daemon's last checks, after the golden answers: each stops
        # it (the drain's stop is its exit); started again once, not after each
        last = [
            ("SIGINT exits 0, restart: the entry is still served", t_restart),
            ("SIGTERM drains: no new work, the in-flight request is answered, exit 0", t_drain),
        ]
        dependent = [(n, fn) for n, fn in dependent if a.only in n]
        last = [(n, fn) for n, fn in last if a.only in n]
        golden = "golden answers (%d corpus requests)" % a.golden
        if not check("kwgend starts", d.start):
            not_run(["generate, then served from the cache"] + [n for n, _ in dependent + last]
                    + ([golden] if a.golden > 0 else []), "kwgend starts")
        else:
            try:
                generated = check("generate, then served from the cache", t_generate_and_cache, d, schemas, st)
                if generated:
                    for name, fn in dependent:
                        check(name, fn, d, schemas, st)
                else:
                    not_run([n for n, _ in dependent + last], "generate, then served from the cache")
                if a.golden > 0:
                    check(golden, t_golden, d, schemas, a.golden)
                if generated:
                    for name, fn in last:
                        if d.proc is None or d.proc.poll() is not None:
                            not_run([name], "the main kwgend is running")
                        else:
                            check(name, fn, d, schemas, st)
            finally:
                if d.proc and d.proc.poll() is None:
                    check("the main kwgend exits 0 on SIGTERM at the end", t_stop, d)
        if not a.main_daemon_only:
            check("kill -9 during a burst: integrity ok, answered keys kept", t_crash_burst, binary,
                  tmp, schemas)
            check("--max-cache-bytes evicts LRU rows", t_eviction, binary, tmp, schemas)
            check("misses on one worker sharing long texts each answer their own", t_misses_share_texts,
                  binary, tmp, schemas)
        sanitizer_check("no sanitizer report from any kwgend")
    print("e2e: %d passed, %d failed, %d skipped" % (PASSED, FAILED, SKIPPED))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
