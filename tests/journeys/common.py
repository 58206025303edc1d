"""Shared pieces of the journey tests: counting checks, running a program
with its own peak memory, starting kwgend.  Stdlib only."""
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))


class Tally:
    """passed / failed / skipped counts and the closing count line."""

    def __init__(self, name):
        self.name = name
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("ok   %s" % what, flush=True)
        else:
            self.failed += 1
            print("FAIL %s%s" % (what, ("\n     " + detail.replace("\n", "\n     ")) if detail else ""), flush=True)
        return ok

    def skip(self, what, why):
        self.skipped += 1
        print("SKIPPED %s: %s" % (what, why), flush=True)

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def line(self):
        return "%s: %d passed, %d failed, %d skipped" % (self.name, self.passed, self.failed, self.skipped)


class Result:
    __slots__ = ("rc", "out", "err", "maxrss_kb", "seconds")


TIME = "/usr/bin/time"


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(argv, stdin=b"", env=None, cwd=None, timeout=300, shell=False, measure=False):
    """Run a program with stdin bytes (or a file object); return a Result with
    its exit status, stdout/stderr bytes, peak RSS (KiB) and wall seconds.
    Output goes through temp files, so nothing blocks.

    Peak RSS: a child forked from this Python process starts with Python's
    pages, and Linux keeps the high-water mark across exec, so wait4's figure
    is at least Python's size.  measure=True runs the program under GNU
    time (/usr/bin/time, a small process that forks it), which reports the
    program's own peak."""
    res = Result()
    rss_file = None
    if measure and os.access(TIME, os.X_OK):
        rss_file = tempfile.NamedTemporaryFile(prefix="kwgen-rss-", delete=False)
        rss_file.close()
        argv = [TIME, "-f", "%M", "-o", rss_file.name] + list(argv)
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe, tempfile.TemporaryFile() as fi:
        if hasattr(stdin, "read"):
            src = stdin
        else:
            fi.write(stdin)
            fi.seek(0)
            src = fi
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdin=src, stdout=fo, stderr=fe, env=env, cwd=cwd, shell=shell,
                             start_new_session=True)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(p.pid, 0)
                status = -1
                break
            time.sleep(0.01)
        p.returncode = 0  # reaped here; keep Popen from waiting again
        res.seconds = time.monotonic() - t0
        res.rc = os.waitstatus_to_exitcode(status) if status != -1 else -9
        res.maxrss_kb = ru.ru_maxrss
        fo.seek(0)
        fe.seek(0)
        res.out, res.err = fo.read(), fe.read()
    if rss_file:
        try:
            with open(rss_file.name) as f:
                res.maxrss_kb = int(f.read().strip().split("\n")[-1])
        except ValueError:
            pass  # killed: keep wait4's figure
        os.unlink(rss_file.name)
    return res


def sanitizer_report(err):
    """The first line of an ASan/LSan/UBSan report in stderr bytes, or None."""
    for line in err.decode("utf-8", "replace").splitlines():
        if re.search(r"ERROR: (AddressSanitizer|LeakSanitizer)|SUMMARY: \w+Sanitizer|: runtime error: ", line):
            return line
    return None


class Daemon:
    """kwgend on 127.0.0.1:0 (or a given --listen) with its own cache file."""

    def __init__(self, binary, db, *extra, listen="127.0.0.1:0"):
        self.argv = [binary, "--listen", listen, "--db", db] + list(extra)
        self.proc = None
        self.log = []
        self.port = None

    def start(self):
        self.proc = subprocess.Popen(self.argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stderr.readline().decode("utf-8", "replace")
            if not line:
                raise RuntimeError("kwgend exited (rc=%s): %s" % (self.proc.wait(), "".join(self.log)[-500:]))
            self.log.append(line)
            m = re.search(r"kwgend: listening on [\d.]+:(\d+)", line)
            if m:
                self.port = int(m.group(1))
                break
        else:
            raise RuntimeError("kwgend did not print its port")
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line.decode("utf-8", "replace"))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait()
        return self.proc.returncode if self.proc else None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def post_json(url, obj, token=None, cafile=None, timeout=120):
    """POST obj as JSON; -> (status, parsed body)."""
    data = json.dumps(obj).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", "Bearer " + token)
    ctx = ssl.create_default_context(cafile=cafile) if cafile else None
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=ctx) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def log(msg):
    print(msg, flush=True)


def die(msg):
    print("journeys: " + msg, file=sys.stderr, flush=True)
    sys.exit(2)
