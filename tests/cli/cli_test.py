#!/usr/bin/env python3
"""Every mode and flag of kwgen (single, FILE, --batch, --jobs,
--line-buffered, --asm, --canonical, --help, --version, `kwgen logic`'s and
`kwgen cache`'s flags) and the kwgend flags no other suite exercises
(--hot-cache-bytes with a real budget, --drain-seconds running out,
--log-level, --threads, --help), each as a user runs it.  tests/README.md
maps every flag --help names to its test (tests/cli/flags_check.py checks
that map).

  python3 tests/cli/cli_test.py [--kwgen build/kwgen] [--kwgend build/kwgend]

One line per check; the last line is `cli: N passed, N failed, N skipped`.
Every program's exit status and stderr (sanitizer reports) are checked.
"""
import argparse
import errno
import gzip
import json
import os
import re
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import elf  # noqa: E402  (tests/lib/elf.py)
from checks import exit_problems, sanitizer_report  # noqa: E402
import run as e2e  # noqa: E402  (Daemon, check(), the counters)

EXAMPLE = os.path.join(ROOT, "examples", "gfx942-request.json")
FIXTURE = os.path.join(ROOT, "tests", "logic", "fixtures", "gfx940.yaml")     # no broken solution
FIXTURE_DUP = os.path.join(ROOT, "tests", "logic", "fixtures", "gfx908.yaml")
ORACLE_REQ = {"isa": "gfx942", "generator": "syncThreads", "args": {"comment": "sync"},
              "kernel": {"NumThreads": 256, "WavefrontSize": 64, "_ScheduleIterAlg": 3,
                         "PrefetchGlobalRead": 1}}
O = None   # the parsed options
NO_ERRORS = re.compile(r"(?:\b0 errors|no errors)")


def run(args, stdin=b"", allowed=(0,), timeout=120, env=None):
    """Run a program; assert its exit status is allowed and its stderr holds
    no sanitizer report.  -> (returncode, stdout str, stderr str)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, env=e)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    problems = exit_problems(" ".join(os.path.basename(a) if i == 0 else a
                                      for i, a in enumerate(args[:4])), p.returncode, err, allowed)
    assert not problems, "; ".join(problems) + "\n" + err[-800:]
    return p.returncode, out, err


def log_lines(d, text, want, timeout=30):
    """The lines of daemon d's log holding text, once there are at least
    want of them (polled: kwgend logs a request after answering it), or
    after timeout seconds (a bound on a hang only) whatever there are."""
    deadline = time.time() + timeout
    while True:
        got = [x for x in list(d.log) if text in x]
        if len(got) >= want or time.time() > deadline:
            return got
        time.sleep(0.01)


def kwgen(*args, **kw):
    return run([O.kwgen] + list(args), **kw)


def sanitized_kwgen():
    """True when O.kwgen is built with AddressSanitizer."""
    return bool(re.search(rb"__asan_init", open(O.kwgen, "rb").read()))


_SHARED = {}


def shared_daemon(*extra):
    """One kwgend per set of extra flags (with --log-level error unless
    they name a level), shared by the checks that only post requests and
    read the answers: none looks at its cache file, at what else it was
    asked (a hit and a miss answer alike) or, beyond a line it waits for,
    at its log.  One ASan start and stop (~165 ms of CPU each) instead of
    one per check; stop_shared() stops each and checks its exit status."""
    args = extra if "--log-level" in extra else ("--log-level", "error") + extra
    if args not in _SHARED:
        db = os.path.join(O.tmp, "shared%d.db" % len(_SHARED))
        _SHARED[args] = e2e.Daemon(O.kwgend, db, *args).start()
    return _SHARED[args]


def stop_shared():
    """SIGTERM every shared kwgend: each exits 0 (what each check asserted
    of its own daemon before they were shared)."""
    bad = []
    for args, d in list(_SHARED.items()):
        del _SHARED[args]
        rc = d.stop()
        if rc != 0:
            bad.append("kwgend %s exited %d" % (" ".join(args), rc))
    assert not bad, bad


_FILLED = []


def filled_db(name):
    """A copy named name in the temp dir of one cache file that a kwgend
    filled once with e2e.variant(700..703) (one daemon start for every
    check that only needs rows to read or change) -> (path, the 4 keys)."""
    if not _FILLED:
        src = os.path.join(O.tmp, "filled.db")
        d = e2e.Daemon(O.kwgend, src, "--log-level", "error").start()
        keys = []
        try:
            for i in range(4):
                st, _, r = d.post(e2e.variant(700 + i))
                assert st == 200, st
                keys.append(r["key"])
        finally:
            assert d.stop() == 0
        _FILLED.append((src, keys))
    src, keys = _FILLED[0]
    dst = os.path.join(O.tmp, name)
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        a.backup(b)
    finally:
        a.close()
        b.close()
    return dst, list(keys)


def golden_lines(n):
    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        # line by line: read() and split() cost four times the CPU
        lines = [x.rstrip("\n") for x in f if x.strip()]
    return lines[::max(1, len(lines) // n)][:n]


# ---------------------------------------------------------------- kwgen


def t_single_stdin():
    rc, out, _ = kwgen(stdin=json.dumps(ORACLE_REQ).encode())
    a = json.loads(out)
    assert a["asm"].startswith("s_waitcnt") and "// sync" in a["asm"], a
    assert out.startswith("{\n"), "single mode prints pretty JSON"
    bad = dict(ORACLE_REQ, isa="gfx000")
    rc, out, _ = kwgen(stdin=json.dumps(bad).encode(), allowed=(1,))
    assert "error" in json.loads(out), out


def t_file_argument():
    _, from_stdin, _ = kwgen(stdin=open(EXAMPLE, "rb").read())
    _, from_file, _ = kwgen(EXAMPLE)
    assert from_file == from_stdin, "FILE and stdin answers differ"
    assert json.loads(from_file)["isa"] == "gfx942"
    missing = os.path.join(O.tmp, "no-such-request.json")
    rc, out, err = kwgen(missing, allowed=(1, 2))
    assert "no-such-request.json" in err + out, (out, err)


def t_batch():
    lines = [json.dumps(ORACLE_REQ), "{not json", "", json.dumps(dict(ORACLE_REQ, isa="gfx000"))]
    _, out, _ = kwgen("--batch", stdin=("\n".join(lines) + "\n").encode())
    ans = out.split("\n")[:-1]
    assert len(ans) == 4, "%d answers for 4 lines" % len(ans)
    assert "asm" in json.loads(ans[0]) and all("error" in json.loads(a) for a in ans[1:]), ans
    assert all("\n" not in a and not a.startswith("{\n") for a in ans), "batch answers are one line each"


def t_max_line_bytes():
    short = json.dumps(ORACLE_REQ)
    long_ = json.dumps(dict(ORACLE_REQ, args={"comment": "x" * 400}))
    limit = str(len(short) + 10)
    _, out, _ = kwgen("--batch", "--max-line-bytes", limit, stdin=(short + "\n" + long_ + "\n" + short + "\n").encode())
    ans = [json.loads(x) for x in out.splitlines()]
    assert len(ans) == 3 and "asm" in ans[0] and "asm" in ans[2], out[:300]
    err = ans[1].get("error")
    assert isinstance(err, dict) and err.get("code") == "limit" and "--max-line-bytes" in err.get("message", ""), ans[1]
    _, out, _ = kwgen("--batch", stdin=(long_ + "\n").encode())
    assert "asm" in json.loads(out), "the default limit refuses a 500-byte line"
    rc, out, err = kwgen("--batch", "--max-line-bytes", "0", stdin=b"", allowed=(1, 2))
    assert "--max-line-bytes" in err, err


def t_max_line_bytes_default():
    """The default --max-line-bytes is kwgend's default --max-body-bytes
    (1048576): a request of exactly that size is answered by both, one byte
    more is refused by both (kwgen: limit naming --max-line-bytes; kwgend:
    413 too_large naming the 1048576-byte bound)."""
    base = json.dumps(e2e.example())
    at = (base + " " * (1048576 - len(base))).encode()
    over = at + b" "
    assert len(at) == 1048576
    rc, out, _ = kwgen(stdin=at)
    assert rc == 0 and "results" in json.loads(out), out[:200]
    rc, out, err = kwgen(stdin=over, allowed=(1,))
    assert "--max-line-bytes" in out + err, (out + err)[:300]
    for extra in ((), ("--max-body-bytes", "1048576")):
        # the default flags: the shared daemon; the explicit bound its own
        d = shared_daemon() if not extra else \
            e2e.Daemon(O.kwgend, os.path.join(O.tmp, "body%d.db" % len(extra)), "--log-level", "error", *extra).start()
        try:
            hdr = {"Content-Type": "application/json"}
            st, _, data = d.request("POST", "/v1/kernels", at, hdr)
            assert st == 200, (extra, st, data[:200])
            st, _, data = d.request("POST", "/v1/kernels", over, hdr)
            assert st == 413 and b"too_large" in data and b"1048576" in data, (extra, st, data[:200])
        finally:
            if extra:
                assert d.stop() == 0


def t_jobs():
    lines = golden_lines(400)
    text = ("\n".join(lines) + "\n").encode()
    _, one, _ = kwgen("--batch", "--jobs", "1", stdin=text)
    _, four, _ = kwgen("--batch", "--jobs", "4", stdin=text)
    _, default, _ = kwgen("--batch", stdin=text)
    assert one.count("\n") == len(lines), (one.count("\n"), len(lines))
    assert one == four == default, "--jobs 1, --jobs 4 and the default answer differently"
    for bad in ("0", "-1", "many"):
        rc, out, err = kwgen("--batch", "--jobs", bad, stdin=text, allowed=(1, 2))
        assert "--jobs" in err, (bad, err)


def t_line_buffered():
    """An interactive pipe: each answer arrives before stdin is closed."""
    p = subprocess.Popen([O.kwgen, "--batch", "--line-buffered"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for i in range(3):
            req = dict(ORACLE_REQ, args={"comment": "n%d" % i})
            p.stdin.write((json.dumps(req) + "\n").encode())
            p.stdin.flush()
            r, _, _ = select.select([p.stdout], [], [], 20)
            assert r, "no answer to line %d within 20 s while stdin stays open" % (i + 1)
            line = p.stdout.readline().decode()
            assert "// n%d" % i in json.loads(line)["asm"], line
        p.stdin.close()
        rest = p.stdout.read()
        assert rest == b"", rest[:100]
        err = p.stderr.read()
        rc = p.wait(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    problems = exit_problems("kwgen --batch --line-buffered", rc, err)
    assert not problems, problems


def t_asm():
    _, out, _ = kwgen("--asm", stdin=json.dumps(ORACLE_REQ).encode())
    assert out.startswith("// syncThreads("), out[:200]
    assert "s_barrier" in out and not out.lstrip().startswith("{"), out[:200]
    rc, out, err = kwgen("--asm", stdin=json.dumps(dict(ORACLE_REQ, isa="gfx000")).encode(), allowed=(1,))
    assert out == "" and err.strip(), (out, err)
    _, out, _ = kwgen("--asm", "--batch", stdin=(json.dumps(dict(ORACLE_REQ, isa="gfx000")) + "\n").encode())
    assert out.startswith("// error: "), out[:200]
    # a "source" (a logic file's name is someone else's choice) cannot drive
    # the reader's terminal: control characters are written as \u001B
    req = dict(ORACLE_REQ, source={"file": "q\r\x1b[2Jz\x07", "k\x1b": "\x7f"})
    _, out, _ = kwgen("--asm", stdin=json.dumps(req).encode())
    first = out.splitlines()[0]
    assert first == "// source: q \\u001B[2Jz\\u0007, k\\u001B \\u007F", repr(first)
    assert not any(ord(ch) < 0x20 and ch != "\n" or ord(ch) == 0x7f for ch in out), repr(out[:200])


def t_canonical():
    _, out, _ = kwgen("--canonical", EXAMPLE)
    c = json.loads(out)
    assert set(c) == {"canonical", "config_id", "key"}, sorted(c)
    assert re.fullmatch(r"[0-9a-f]{64}", c["key"]) and re.fullmatch(r"[0-9a-f]{64}", c["config_id"])
    _, ans, _ = kwgen(EXAMPLE)
    assert json.loads(ans)["key"] == c["key"], "--canonical's key is not the answer's key"
    # key order and whitespace do not change the canonical form
    req = json.load(open(EXAMPLE))
    shuffled = json.dumps(dict(reversed(list(req.items()))), indent=3)
    _, out2, _ = kwgen("--canonical", stdin=shuffled.encode())
    assert json.loads(out2) == c, "reordered keys give another canonical form"
    # ... and the daemon files the answer under the same key
    s, _, r = shared_daemon().post(req)
    assert s == 200 and r["key"] == c["key"], (s, r.get("key"), c["key"])


def t_help_version():
    _, out, _ = kwgen("--help")
    assert out.startswith("usage: kwgen") and "--batch" in out, out[:100]
    _, out, _ = kwgen("--version")
    assert re.match(r"kwgen \d+\.\d+\.\d+ \(generators kwgen-generators-\d+\)", out), out
    rc, out, err = kwgen("--no-such-flag", allowed=(1, 2))
    assert "--no-such-flag" in err, err


def run_out(args, stdout, stdin=b""):
    """Run args with stdout "full" (/dev/full) or "closed" (fd 1 closed);
    -> (returncode, stderr str); a sanitizer report fails the check."""
    if stdout == "full":
        with open("/dev/full", "wb") as full:
            p = subprocess.run(args, input=stdin, stdout=full, stderr=subprocess.PIPE, timeout=120)
    else:
        p = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh"] + args, input=stdin,
                           stderr=subprocess.PIPE, timeout=120)
    err = p.stderr.decode("utf-8", "replace")
    rep = sanitizer_report(err)
    assert not rep, "%s: %s" % (" ".join(args[:3]), rep)
    return p.returncode, err


def t_output_errors():
    """A full disk (/dev/full) or a closed stdout: every mode says "write
    error" with the reason and exits 2, never 0 with the answer lost."""
    many = (open(EXAMPLE).read().replace("\n", " ") + "\n") * 8   # 60 KB of answers: past stdio's 4 KiB buffer
    modes = [
        ([EXAMPLE], b""), (["--canonical", EXAMPLE], b""), (["--asm", EXAMPLE], b""),
        (["--batch"], many.encode()), (["--asm", "--batch"], many.encode()),
        (["--batch", "--line-buffered"], many.encode()), (["--help"], b""), (["--version"], b""),
        (["logic", "--help"], b""), (["logic", "--no-progress", FIXTURE], b""), (["logic", "--no-progress", "-o", "/dev/full", FIXTURE], b""),
    ]
    # kwgen cache on a file a daemon filled
    db, _ = filled_db("out-errors.db")
    vs = os.path.join(O.tmp, "out-errors.s")
    with open(vs, "w") as f:
        f.write("k:\n\ts_endpgm\n")
    modes += [(["verify", "--help"], b""), (["verify", "--isa", "gfx942", "--json", vs], b"")]
    modes += [(["cache", "--help"], b""), (["cache", "stats", "--db", db], b""), (["cache", "ls", "--db", db], b""),
              (["cache", "ls", "--json", "--db", db], b"")]
    for args, stdin in modes:
        for how in ("full", "closed"):
            rc, err = run_out([O.kwgen] + args, how, stdin)
            what = "kwgen %s, stdout %s" % (" ".join(os.path.basename(a) for a in args), how)
            assert rc == 2, "%s: exit %d (want 2); stderr %r" % (what, rc, err[-300:])
            assert "write error" in err, "%s: stderr %r" % (what, err[-300:])
            sub = what.split(",")[0].split()[1]
            assert sub not in ("cache", "verify") or "kwgen %s: write error on standard output:" % sub in err, err
            if args[0] == "logic" and args[1] != "--help":
                assert "exit 2" in err and "incomplete" in err, "%s: summary %r" % (what, err[-300:])


def t_single_bounded():
    """Single mode reads at most --max-line-bytes (1 MiB): a bigger request
    answers limit; an endless stdin ends there instead of filling memory;
    a directory on stdin is a read error that says why (exit 2), also with
    --batch."""
    big = os.path.join(O.tmp, "big-request.json")
    with open(big, "w") as f:
        f.write('{"isa": "')
        mib = "x" * (1 << 20)
        for _ in range(3):   # a MiB at a time: no 3 MB string and its copy
            f.write(mib)
        f.write('"}')
    for args in ([big], ["--canonical", big]):
        rc, out, _ = kwgen(*args, allowed=(1,))
        e = json.loads(out)["error"]
        assert e["code"] == "limit" and "--max-line-bytes" in e["message"], e
    rc, out, err = kwgen("--asm", big, allowed=(1,))
    assert not out and "limit: the request is over 1048576 bytes" in err, err
    rc, out, _ = kwgen("--max-line-bytes", str(4 << 20), big, allowed=(1,))
    assert json.loads(out)["error"]["field"] == "isa", out[:300]
    p = subprocess.Popen([O.kwgen], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed():
        try:
            p.stdin.write(b'{"isa": "')
            ys = b"y" * 65536
            while True:
                p.stdin.write(ys)
        except (BrokenPipeError, ValueError, OSError):
            pass
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    killer = threading.Timer(60, p.kill)   # (communicate() would close stdin: not endless)
    killer.start()
    try:
        out = p.stdout.read()
        p.wait()
    finally:
        killer.cancel()
    assert p.returncode != -signal.SIGKILL, "kwgen kept reading an endless stdin"
    t.join(10)
    for f in (p.stdin, p.stdout, p.stderr):
        try:
            f.close()
        except OSError:
            pass
    assert p.returncode == 1 and json.loads(out)["error"]["code"] == "limit", (p.returncode, out[:300])
    for args in ([], ["--batch"], ["--asm", "--batch"]):
        fd = os.open(O.tmp, os.O_RDONLY)
        try:
            r = subprocess.run([O.kwgen] + args, stdin=fd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=60)
        finally:
            os.close(fd)
        assert r.returncode == 2 and b"read error: Is a directory" in r.stderr, (args, r.returncode, r.stderr)


def t_batch_output_bounded():
    """--batch holds at most ~32 MiB of answers per job before writing: 40
    short lines that each ask for ~2.76 MB of assembly (110 MB in all) peak
    far below their total, and the output is the same bytes, in order, for
    --jobs 1 and 2.  Under ASan (whose peak says nothing about kwgen's) 14
    lines, 38.6 MB: the chunk passes the 32 MiB held at the 13th (12 x 2.76
    MB is under 32 MiB, 13 over), and the 14th and the last small line are
    answered one at a time, so the same paths run under the sanitizers."""
    if not os.access("/usr/bin/time", os.X_OK):
        raise e2e.Skip("/usr/bin/time is absent (package time)")
    sanitized = sanitized_kwgen()
    n, want_mb = (14, 36) if sanitized else (40, 100)
    req = json.load(open(EXAMPLE))
    req["kernel"].update(MIWaveTile=[16, 16], MIArchVgpr=True)
    req["generators"] = [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 256}}] * 32
    small = json.dumps(ORACLE_REQ)
    text = ("\n".join([small] + [json.dumps(req)] * n + [small]) + "\n").encode()
    path = os.path.join(O.tmp, "amplify.jsonl")
    with open(path, "wb") as f:
        f.write(text)
    digests = []
    for jobs in ("1", "2"):
        with open(path, "rb") as f:
            p = subprocess.run(["/usr/bin/time", "-f", "peak=%M", O.kwgen, "--batch", "--jobs", jobs], stdin=f,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        err = p.stderr.decode()
        assert p.returncode == 0 and not sanitizer_report(err), err[-400:]
        lines = p.stdout.split(b"\n")[:-1]
        assert len(lines) == n + 2 and b'"asm"' in lines[0] and b'"asm"' in lines[-1], [l[:80] for l in lines[:3]]
        total_mb = len(p.stdout) / 1e6
        peak_mb = int(re.findall(r"peak=(\d+)", err)[-1]) / 1024.0
        assert total_mb > want_mb, "the lines answer %.0f MB (the test wants > %d)" % (total_mb, want_mb)
        assert sanitized or peak_mb < 32 * int(jobs) + 60, \
            "--jobs %s peaks at %.0f MB for %.0f MB of answers" % (jobs, peak_mb, total_mb)
        digests.append(hash(p.stdout))
    assert digests[0] == digests[1], "--jobs 1 and 2 answer different bytes"


def t_nul_bytes():
    """A NUL byte is named with its place (jansson alone calls it "invalid
    token near end of file"), in single mode, --batch and --asm."""
    text = b'{"isa":\x00"gfx942"}'
    _, out, _ = kwgen(stdin=text, allowed=(1,))
    e = json.loads(out)["error"]
    assert e["code"] == "syntax" and "a NUL byte at byte 8" in e["message"], e
    _, out, _ = kwgen("--batch", stdin=text + b"\n" + json.dumps(ORACLE_REQ).encode() + b"\n")
    a = [json.loads(x) for x in out.splitlines()]
    assert len(a) == 2 and "line 1: not JSON: a NUL byte at column 8" in a[0]["error"]["message"] and "asm" in a[1], a
    _, _, err = kwgen("--asm", stdin=text, allowed=(1,))
    assert "a NUL byte at byte 8" in err, err
    big = dict(ORACLE_REQ, pad="x" * 200000)   # the NUL past jansson's first read
    _, out, _ = kwgen(stdin=json.dumps(big).encode() + b"\n\x00junk", allowed=(1,))
    assert "a NUL byte at byte" in json.loads(out)["error"]["message"], out[:300]


def t_odd_argv():
    """`--` ends the options, an option without its value and a directory as
    FILE are usage errors (exit 2) that say what was wrong."""
    dash = os.path.join(O.tmp, "-x.json")
    with open(dash, "w") as f:
        f.write(json.dumps(ORACLE_REQ))
    p = subprocess.run([O.kwgen, "--", "-x.json"], cwd=O.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    assert p.returncode == 0 and "asm" in json.loads(p.stdout), (p.returncode, p.stderr[-300:])
    rc, _, err = kwgen("-x.json", allowed=(2,))
    assert "unknown option -x.json" in err and "usage: kwgen" in err, err
    for flag in ("--jobs", "--max-line-bytes"):
        rc, _, err = kwgen("--batch", flag, allowed=(2,))
        assert "%s needs a value" % flag in err, err
    # --name=value, as kwgend (getopt) takes it
    _, out, _ = kwgen("--batch", "--jobs=2", "--max-line-bytes=20", stdin=(json.dumps(ORACLE_REQ) + "\n").encode())
    assert json.loads(out)["error"]["code"] == "limit", out
    rc, _, err = kwgen("--batch", "--jobs=0", stdin=b"", allowed=(2,))
    assert "--jobs takes 1..64" in err, err
    _, out, err = logic("--no-progress", "--isa=gfx942", FIXTURE)
    assert json.loads(out.splitlines()[0])["isa"] == "gfx942", out[:200]
    rc, _, err = logic("--no-progress", "--unique=1", FIXTURE, allowed=(2,))
    assert "unknown option --unique=1 (or it takes no value)" in err, err
    with open(FIXTURE, "rb") as src, open(os.path.join(O.tmp, "-l.yaml"), "wb") as dst:
        dst.write(src.read())
    p = subprocess.run([O.kwgen, "logic", "--no-progress", "--", "-l.yaml"], cwd=O.tmp, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    assert p.returncode == 0 and p.stdout, p.stderr[-300:]
    rc, out, err = kwgen("--canonical", "--batch", stdin=json.dumps(ORACLE_REQ).encode(), allowed=(2,))
    assert "--canonical takes one request" in err and not out, (out, err)
    rc, out, err = kwgen(O.tmp, allowed=(2,))
    assert "is a directory" in err and not out, (out, err)
    rc, out, err = kwgen("--batch", O.tmp, allowed=(2,))
    assert "is a directory" in err and not out, (out, err)


# ---------------------------------------------------------------- kwgen logic


def logic(*args, **kw):
    return kwgen("logic", *args, **kw)


def t_logic_output_flags():
    _, out, err = logic("--no-progress", FIXTURE)
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines and NO_ERRORS.search(err), err
    dest = os.path.join(O.tmp, "logic-out.jsonl")
    _, out2, _ = logic("--no-progress", "-o", dest, FIXTURE)
    assert out2 == "" and open(dest).read() == out, "-o FILE differs from stdout"
    _, out3, err3 = logic("-q", FIXTURE)
    _, out4, err4 = logic("--quiet", FIXTURE)
    assert out3 == out4 == out and err3 == "" and err4 == "", (err3, err4)
    _, _, errp = logic("--progress", FIXTURE)
    _, _, errn = logic("--no-progress", FIXTURE)
    assert "\r" in errp and len(errp) > len(errn), "--progress draws no bar when stderr is a pipe"
    assert "\r" not in errn, "--no-progress still draws a bar"


def t_logic_progress():
    """The progress line shows the end of a deep path (the file name, not
    the directory), running totals that agree with each other and with the
    summary, hits only once something was posted; "1 file", not "1 files"."""
    deep = os.path.join(O.tmp, "progress", "aldebaran", "110CU", "Equality")
    os.makedirs(deep)
    names = ["aldebaran_Cijk_Ailk_Bljk_HHS_BH_Bias_HAH_SAV.yaml", "aldebaran_Cijk_Alik_Bljk_SB_SAV.yaml"]
    for n in names:
        shutil.copy(FIXTURE, os.path.join(deep, n))
    per_file = len(logic("--no-progress", FIXTURE)[1].splitlines())

    def lines(err):
        return [x for x in err.replace("\r", "\n").split("\n") if "% | " in x]
    _, _, err = logic("--progress", os.path.join(deep, names[0]))
    ls = lines(err)
    assert ls and names[0][-30:] in ls[-1], ls[-1:]
    assert "| 1 file, %d solutions, 0 errors" % per_file in ls[-1], ls[-1]
    assert "hit" not in err and "posted" not in ls[-1], "hits shown without --server: " + ls[-1]
    assert "kwgen logic: 1 file, %d solutions," % per_file in err, err
    _, _, err = logic("--progress", os.path.join(O.tmp, "progress"))
    ls = lines(err)
    # running totals: the second file's last line counts both files
    assert "| 2 files, %d solutions, 0 errors" % (2 * per_file) in ls[-1], ls[-1]
    assert any(names[1][-30:] in x for x in ls) and any(names[0][-30:] in x for x in ls), ls
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "progress.db"), "--log-level", "error").start()
    try:
        base = "http://127.0.0.1:%d" % d.port
        _, _, err = logic("--progress", "--server", base, "--batch", "1000", os.path.join(deep, names[0]))
        ls = lines(err)
        assert all("0 hits" not in x for x in ls), [x for x in ls if "0 hits" in x]
        assert any("none posted yet" in x for x in ls), ls
        assert "%d posted, 0 hits" % per_file not in ls[-1] and "%d posted" % per_file in ls[-1], ls[-1]
        _, _, err = logic("--progress", "--server", base, "--batch", "1000", os.path.join(deep, names[0]))
        assert "%d posted, %d hits" % (per_file, per_file) in lines(err)[-1], lines(err)[-1]
    finally:
        assert d.stop() == 0


def t_max_work_default_words():
    """The verifier's data-flow bound reads the same wherever it is told:
    kwgen verify --help, kwgend --help, kwgen(1), kwgend(8), README."""
    words = "256 per instruction plus 1M"
    texts = {"kwgen verify --help": kwgen("verify", "--help")[1],
             "kwgend --help": subprocess.run([O.kwgend, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                             timeout=30).stdout.decode()}
    for rel in ("man/kwgen.1", "man/kwgend.8", "README.md"):
        with open(os.path.join(ROOT, rel)) as f:
            texts[rel] = f.read().replace("\\-", "-")
    missing = [k for k, v in texts.items() if words not in v]
    assert not missing, "the --max-work / --max-verify-work default is not \"%s\" in: %s" % (words, missing)
    stray = [k for k, v in texts.items() if re.search(r"\b\d+ per instruction(?! plus 1M)", v)]
    assert not stray, stray


def t_logic_unique():
    _, out, _ = logic("--no-progress", FIXTURE_DUP)
    _, uniq, _ = logic("--no-progress", "--unique", FIXTURE_DUP)
    a, u = out.splitlines(), uniq.splitlines()
    strip = [json.dumps({k: v for k, v in json.loads(x).items() if k != "source"}, sort_keys=True) for x in a]
    assert len(u) == len(set(strip)) < len(a), (len(u), len(set(strip)), len(a))


def t_logic_isa_generators():
    _, out, _ = logic("--no-progress", "--isa", "gfx950", FIXTURE)
    assert all(json.loads(x)["isa"] in ("gfx950", [9, 5, 0]) for x in out.splitlines()), out[:300]
    rc, out, err = logic("--no-progress", "--isa", "gfx1030", FIXTURE, allowed=(1, 2))
    assert "gfx1030" in err, err
    _, out, _ = logic("--no-progress", "--generators", "accToArchMapper,syncThreads", FIXTURE)
    for x in out.splitlines():
        names = [g["name"] for g in json.loads(x)["generators"]]
        assert names == ["accToArchMapper", "syncThreads"], names
    _, out, _ = logic("--no-progress", "--generators", '[{"name": "tdmWait", "args": {"tensorcnt": 1}}]', FIXTURE)
    assert all(json.loads(x)["generators"] == [{"name": "tdmWait", "args": {"tensorcnt": 1}}]
               for x in out.splitlines()), out[:300]
    rc, out, err = logic("--no-progress", "--generators", "wiat", FIXTURE, allowed=(1, 2))
    assert "--generators" in err and "allowed: tdmWait" in err, err


def t_logic_server_batch():
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "logic.db"), "--log-level", "info").start()
    try:
        base = "http://127.0.0.1:%d" % d.port
        _, out, err = logic("--no-progress", "--server", base, "--batch", "4", FIXTURE)
        assert out == "", "with --server nothing goes to stdout"
        m = re.search(r"(\d+) posted, (\d+) unique keys?, (\d+) cache hits? .*, (?:0|no) errors", err)
        assert m and int(m.group(1)) > 0, err
        posted = int(m.group(1))
        # the batch posts counted in the log of a daemon that has exited
        # (its log then read to the end), not after a pause; restarted on
        # the same file for the second pass
        assert d.stop() == 0
        d.wait_log()
        batches = [x for x in d.log if '"/v1/kernels:batch"' in x]
        assert len(batches) == -(-posted // 4), "%d batch posts for %d requests with --batch 4" % (
            len(batches), posted)
        d.start()
        base = "http://127.0.0.1:%d" % d.port
        _, _, err2 = logic("--no-progress", "--server", base, FIXTURE)
        assert re.search(r"(\d+) posted, \d+ unique keys?, \1 cache hits?", err2), err2
    finally:
        assert d.stop() == 0


def t_logic_inflight():
    """--inflight N: several batches in flight give the summary, the answers
    (-o, in request order) and the batch count of one at a time; an error in
    one batch of several in flight is reported with that batch's request id;
    a bad N exits 2 naming the range."""
    import http.server   # only these checks serve HTTP themselves (not --memory-only's)
    files = [os.path.join(ROOT, "tests", "logic", "fixtures", x + ".yaml")
             for x in ("gfx940", "gfx908", "gfx1100", "gfx1201")] + [FIXTURE, FIXTURE]
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "inflight.db"), "--log-level", "info").start()
    try:
        base = "http://127.0.0.1:%d" % d.port
        # a batch never spans two files: ceil(requests / 4) per file (the
        # requests per file from one local run over the distinct files)
        distinct = sorted(set(files))
        _, out, _ = logic("--no-progress", *distinct)
        per = {f: 0 for f in distinct}
        reqs = []   # FIXTURE's requests, for the slow batch below
        for x in out.splitlines():
            r = json.loads(x)
            per[r["source"]["file"]] += 1
            if r["source"]["file"] == FIXTURE:
                reqs.append(r)
        assert all(per.values()), per
        want = sum(-(-per[f] // 4) for f in files)
        # warm: every later answer a hit
        logic("--no-progress", "--server", base, "--batch", "4", "--inflight", "1", *files)
        runs = {}
        seen = want
        for n in ("1", "4"):
            # every batch post so far logged (kwgend logs a request once it
            # has answered it): the warm run's, then each run's own
            before = len(log_lines(d, '"/v1/kernels:batch"', seen))
            dest = os.path.join(O.tmp, "inflight-%s.jsonl" % n)
            _, _, err = logic("--no-progress", "--server", base, "--batch", "4", "--inflight", n, "-o", dest, *files)
            m = re.search(r"(\d+) posted, \d+ unique keys?, \1 cache hits? .*, no errors; exit 0", err)
            assert m, err
            seen = len(log_lines(d, '"/v1/kernels:batch"', before + want))
            batches = seen - before
            assert batches == want, "--inflight %s: %d batch posts, want %d" % (n, batches, want)
            runs[n] = (err, open(dest).read())
        assert runs["1"][0] == runs["4"][0], "summaries differ:\n%s\n%s" % (runs["1"][0], runs["4"][0])
        assert runs["1"][1] == runs["4"][1] and runs["1"][1], "-o answers differ (order?) between --inflight 1 and 4"
    finally:
        assert d.stop() == 0
    # the daemon has exited and its log is read to the end: no batch post
    # came late (warm-up and both runs: want each)
    d.wait_log()
    total = len([x for x in d.log if '"/v1/kernels:batch"' in x])
    assert total == 3 * want, "%d batch posts in the log, want 3 x %d" % (total, want)

    # The second batch of FIXTURE answers late, every item an error, with
    # its own request id; the batches after it are answered first.
    # (FIXTURE's requests: its part of the local run above, whose lines
    # are each file's in order, as `kwgen logic FIXTURE` prints them)
    assert len(reqs) >= 12, "the fixture needs 3 batches of 4"
    slow_src = reqs[4]["source"]

    class SlowBatch(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            got = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))["requests"]
            slow = got[0]["source"] == slow_src
            if slow:
                time.sleep(0.5)
                items = [{"status": 422, "error": {"code": "invalid", "message": "slow and bad", "field": None}}
                         for _ in got]
            else:
                items = [{"status": 200, "response": {"key": "k%d" % hash(json.dumps(r, sort_keys=True)),
                                                      "cached": True}} for r in got]
            body = json.dumps({"results": items}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("X-Request-Id", "slow-batch" if slow else "fast-batch")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowBatch)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        url = "http://127.0.0.1:%d" % srv.server_address[1]
        errs = {}
        for n in ("1", "4"):
            _, _, err = logic("--no-progress", "--server", url, "--batch", "4", "--inflight", n, FIXTURE, FIXTURE,
                              allowed=(1,))
            line = [x for x in err.splitlines() if "slow-batch" in x]
            assert len(line) == 1 and line[0].startswith("kwgen logic: %s solution #" % FIXTURE) and line[0].endswith(
                "server error 422: slow and bad (request id slow-batch)"), err
            assert "fast-batch" not in err, err
            assert re.search(r"%d posted, .*, 8 answered by the server" % (2 * len(reqs)), err), err
            assert "8 times: server error 422: slow and bad" in err, err
            errs[n] = err
        assert errs["1"] == errs["4"], "stderr differs:\n%s\n%s" % (errs["1"], errs["4"])
    finally:
        srv.shutdown()
        srv.server_close()

    for bad in ("0", "-1", "65", "99999999999999999999", "four", ""):
        rc, _, err = logic("--no-progress", "--server", "http://127.0.0.1:9", "--inflight", bad, FIXTURE,
                           allowed=(2,))
        assert "--inflight wants 1..64" in err, (bad, err)


def t_logic_token():
    tokens = os.path.join(O.tmp, "tokens")
    with open(tokens, "w") as f:
        f.write("# tokens of the CI farm\n\n  logic-token-1  \r\nlogic-token-2\n")
    tfile = os.path.join(O.tmp, "token-file")
    with open(tfile, "w") as f:
        f.write("logic-token-1\n")
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "tok.db"), "--log-level", "error",
                   "--auth-tokens", tokens).start()
    try:
        base = "http://127.0.0.1:%d" % d.port
        rc, _, err = logic("--no-progress", "--server", base, FIXTURE, allowed=(1, 2), env={"KWGEN_TOKEN": ""})
        assert "401" in err or "unauthorized" in err.lower(), err
        _, _, err = logic("--no-progress", "--server", base, "--token", "logic-token-1", FIXTURE)
        assert NO_ERRORS.search(err), err
        _, _, err = logic("--no-progress", "--server", base, "--token-file", tfile, FIXTURE)
        assert NO_ERRORS.search(err), err
        # kwgend's own --auth-tokens file, a # comment on its first line:
        # one format, read by the same code
        _, _, err = logic("--no-progress", "--server", base, "--token-file", tokens, FIXTURE)
        assert NO_ERRORS.search(err), err
        rc, _, err = logic("--no-progress", "--server", base, "--token", "wrong", FIXTURE, allowed=(1, 2))
        assert "401" in err or "unauthorized" in err.lower(), err
    finally:
        assert d.stop() == 0


def t_logic_cacert():
    cert, key = os.path.join(O.tmp, "cert.pem"), os.path.join(O.tmp, "key.pem")
    # a P-256 key: its keygen and handshakes cost a fraction of RSA 2048's CPU
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "tls.db"), "--log-level", "error",
                   "--tls-cert", cert, "--tls-key", key).start()
    try:
        base = "https://127.0.0.1:%d" % d.port
        clean = {"CURL_CA_BUNDLE": "", "SSL_CERT_FILE": ""}
        rc, _, err = logic("--no-progress", "--server", base, FIXTURE, allowed=(1, 2), env=clean)
        assert not NO_ERRORS.search(err), "an untrusted certificate was accepted: " + err
        _, _, err = logic("--no-progress", "--server", base, "--cacert", cert, FIXTURE, env=clean)
        assert NO_ERRORS.search(err), err
    finally:
        assert d.stop() == 0


def t_logic_timeout():
    """A server that accepts and never answers: --timeout 1 gives up in time."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    held = []
    stop = threading.Event()

    def accept():
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except socket.timeout:
                pass
    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        t0 = time.time()
        rc, _, err = logic("--no-progress", "--server", "http://127.0.0.1:%d" % srv.getsockname()[1],
                           "--timeout", "1", FIXTURE, allowed=(1, 2), timeout=60)
        took = time.time() - t0
        assert took < 20, "took %.1f s with --timeout 1" % took
        assert "time" in err.lower(), err
    finally:
        stop.set()
        t.join()
        for c in held:
            c.close()
        srv.close()


def t_logic_token_file_errors():
    """--token-file names a directory or holds an over-long line: a usage
    error saying so (not "no token", not a token cut short that the daemon
    then refuses), worded as kwgend's --auth-tokens (the same reader)."""
    rc, _, err = logic("--token-file", O.tmp, "--server", "http://127.0.0.1:1", FIXTURE, allowed=(2,))
    assert "Is a directory" in err, err
    long_tok = os.path.join(O.tmp, "long-token")
    with open(long_tok, "w") as f:
        f.write("t" * 5000 + "\n")
    rc, _, err = logic("--token-file", long_tok, "--server", "http://127.0.0.1:1", FIXTURE, allowed=(2,))
    assert "--token-file %s:1: a line is over 4352 bytes" % long_tok in err, err
    spaced = os.path.join(O.tmp, "spaced-token")
    with open(spaced, "w") as f:
        f.write("# ci\nto ken\n")
    rc, _, err = logic("--token-file", spaced, "--server", "http://127.0.0.1:1", FIXTURE, allowed=(2,))
    assert "--token-file %s:2: tokens are printable ASCII without spaces" % spaced in err, err


def t_logic_walk_fifo():
    """A FIFO named *.yaml in a walked directory is skipped with a note (it
    used to block the walk for ever: nothing ever writes to it)."""
    tree = os.path.join(O.tmp, "fifo-tree")
    os.makedirs(os.path.join(tree, "sub"))
    with open(FIXTURE, "rb") as src, open(os.path.join(tree, "a.yaml"), "wb") as dst:
        dst.write(src.read())
    os.mkfifo(os.path.join(tree, "sub", "b.yaml"))
    rc, out, err = logic("--no-progress", tree, timeout=30)
    assert "b.yaml: not a regular file" in err and "1 file," in err, err
    assert len(out.splitlines()) > 0, "the regular file's requests are written"


def t_logic_memory_per_request():
    """kwgen logic keeps a digest per unique request, not its text: 20,000
    distinct solutions cost a few MB more than kwgen --version, not ~30 MB
    (a hipBLASLt tree has 10^5..10^6 of them).  Under ASan, whose peak says
    nothing about kwgen's, 2,000: the same paths under the sanitizers."""
    if not os.access("/usr/bin/time", os.X_OK):
        raise e2e.Skip("/usr/bin/time is absent (package time)")
    sanitized = sanitized_kwgen()
    n = 2000 if sanitized else 20000
    lines = open(FIXTURE).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("- - "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  - "))
    head, sol = lines[:start], ["  " + lines[start][2:]] + lines[start + 1:end]
    path = os.path.join(O.tmp, "many.yaml")
    # the solution's lines, its MIWaveTile and NumLoadsCoalescedA lines
    # rewritten for each i (found once, not tested per line per solution)
    mi = [k for k, l in enumerate(sol) if l.strip().startswith("MIWaveTile:")]
    nl = [k for k, l in enumerate(sol) if l.strip().startswith("NumLoadsCoalescedA:")]
    out = list(sol)
    with open(path, "w") as f:
        f.write("\n".join(head) + "\n-\n")
        for i in range(n):
            for k in mi:
                out[k] = sol[k][:sol[k].index("M")] + "MIWaveTile: [%d, %d]" % (1 + i % 32, 1 + (i // 32) % 32)
            for k in nl:
                out[k] = sol[k][:sol[k].index("N")] + "NumLoadsCoalescedA: %d" % (1 + i // 1024)
            f.write("\n".join(out) + "\n")

    def peak_kb(args):
        p = subprocess.run(["/usr/bin/time", "-f", "peak=%M"] + args, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=300)
        err = p.stderr.decode()
        assert p.returncode == 0 and not sanitizer_report(err), err[-400:]
        return int(re.findall(r"peak=(\d+)", err)[-1]), err
    base, _ = peak_kb([O.kwgen, "--version"])
    peak, err = peak_kb([O.kwgen, "logic", "--no-progress", path])
    assert "%d unique requests" % n in err, err[-300:]
    extra_mb = (peak - base) / 1024.0
    assert sanitized or extra_mb < 15, "kwgen logic peaks %.1f MB over kwgen --version" % extra_mb


def t_logic_non_utf8_name():
    """A logic file whose name is not UTF-8 (a byte 0xff): its requests are
    written, source.file with U+FFFD for the byte (it was "out of memory",
    exit 2, nothing written)."""
    d = os.path.join(O.tmp, "names").encode()
    os.makedirs(d, exist_ok=True)
    bad = os.path.join(d, b"bad\xff-caf\xc3\xa9.yaml")
    with open(FIXTURE, "rb") as src, open(bad, "wb") as dst:
        dst.write(src.read())
    p = subprocess.run([O.kwgen.encode(), b"logic", b"--no-progress", bad], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0 and not sanitizer_report(err), (p.returncode, err[-300:])
    first = json.loads(p.stdout.split(b"\n")[0])
    assert first["source"]["file"].endswith("bad\ufffd-caf\u00e9.yaml"), first["source"]
    d = shared_daemon()
    p = subprocess.run([O.kwgen.encode(), b"logic", b"--no-progress", b"--server",
                        ("http://127.0.0.1:%d" % d.port).encode(), bad],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0 and "no errors" in err, (p.returncode, err[-300:])


def t_logic_float_overflow():
    """A float past the double range in a solution (NumThreads: 1.0e400)
    fails that solution naming the key; it used to drop the whole file as
    "scalar is not valid UTF-8" (exit 2)."""
    text = open(FIXTURE).read()
    assert "NumThreads: 64" in text
    path = os.path.join(O.tmp, "overflow.yaml")
    with open(path, "w") as f:
        f.write(text.replace("NumThreads: 64", "NumThreads: 1.0e400", 1))
    rc, out, err = logic("--no-progress", path, allowed=(1,))
    assert "solution #0" in err and "kernel.NumThreads" in err and "UTF-8" not in err, err
    assert len(out.splitlines()) > 0, "the other solutions are written"


def t_logic_merge_key():
    """YAML merge keys resolve as PyYAML (Tensile's reader) resolves them:
    "ProblemType: {<<: *pt, DataType: 0}" has the anchored problem type's
    keys, DataType overridden (it had a key "<<" and "missing TLUA")."""
    lines = open(FIXTURE).read().split("\n")
    i = next(i for i, l in enumerate(lines) if l.startswith("- ComputeDataType:"))
    lines[i] = "- &pt\n  " + lines[i][2:]
    start = next(i for i, l in enumerate(lines) if l == "    ProblemType:")
    end = start + 1
    while lines[end].startswith("      "):
        end += 1
    lines[start:end] = ["    ProblemType: {<<: *pt, DataType: 0}"]
    path = os.path.join(O.tmp, "merge.yaml")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    _, out, err = logic("--no-progress", path)
    first = json.loads(out.splitlines()[0])
    pt = first["kernel"]["ProblemType"]
    assert pt["DataType"] == 0 and pt.get("HighPrecisionAccumulate") is True and "<<" not in pt, pt


def t_logic_output_is_input():
    """-o naming an input file is refused before it is opened ("w" would
    empty it unread); an -o file inside a walked directory is not read as
    input on the next run."""
    path = os.path.join(O.tmp, "same.yaml")
    with open(FIXTURE, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    size = os.path.getsize(path)
    rc, _, err = logic("--no-progress", "-o", path, path, allowed=(2,))
    assert "is also an input file" in err and os.path.getsize(path) == size, (err, os.path.getsize(path))
    d = os.path.join(O.tmp, "outdir")
    os.mkdir(d)
    with open(FIXTURE, "rb") as src, open(os.path.join(d, "a.yaml"), "wb") as dst:
        dst.write(src.read())
    for _ in range(2):
        rc, _, err = logic("--no-progress", "-o", os.path.join(d, "out.yaml"), d)
        assert "1 file," in err and "no errors" in err, err
    p = subprocess.run([O.kwgen, "logic", "--no-progress", "-o", "-", FIXTURE], cwd=O.tmp, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    assert p.returncode == 0 and len(p.stdout.splitlines()) > 0, (p.returncode, p.stderr[-300:])
    assert not os.path.exists(os.path.join(O.tmp, "-")), "-o - wrote a file named -"
    base = "http://127.0.0.1:%d" % shared_daemon().port
    rc, out, err = logic("--no-progress", "--server", base, "-o", "-", FIXTURE)
    assert all("key" in json.loads(x) for x in out.splitlines()) and out, out[:300]


def t_logic_batch_past_max_batch():
    """A daemon with a smaller --max-batch than kwgen logic --batch: the
    error says which flag to give."""
    # (the daemon t_logic_request_ids reads the access log of)
    base = "http://127.0.0.1:%d" % shared_daemon("--log-level", "info", "--max-batch", "2").port
    rc, _, err = logic("--no-progress", "--server", base, FIXTURE, allowed=(2,))
    assert "HTTP 422" in err and "give --batch N with N at most the daemon's --max-batch" in err, err
    rc, _, err = logic("--no-progress", "--server", base, "--batch", "2", FIXTURE)
    assert "no errors" in err, err


def t_logic_request_ids():
    """The errors kwgen logic --server reports carry the daemon's request id
    (X-Request-Id): a whole-batch error (HTTP 422) and per-item errors."""
    import http.server   # only these checks serve HTTP themselves (not --memory-only's)
    d = shared_daemon("--log-level", "info", "--max-batch", "2")
    base = "http://127.0.0.1:%d" % d.port
    rc, _, err = logic("--no-progress", "--server", base, FIXTURE, allowed=(2,))
    m = re.search(r"HTTP 422: .*\(request id ([^)]+)\)", err)
    assert m, err
    # (kwgend logs a request once it has answered it: polled)
    assert log_lines(d, '"request_id":"%s"' % m.group(1), 1), "id %s not in the access log" % m.group(1)

    class ItemErrors(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            reqs = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))["requests"]
            body = json.dumps({"results": [{"status": 422, "error": {"code": "invalid", "message": "no such thing",
                                                                     "field": None}} for _ in reqs]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("X-Request-Id", "farm-batch-7")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ItemErrors)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        rc, _, err = logic("--no-progress", "--server", "http://127.0.0.1:%d" % srv.server_address[1], FIXTURE,
                           allowed=(1,))
        assert "server error 422: no such thing (request id farm-batch-7)" in err, err
    finally:
        srv.shutdown()
        srv.server_close()


def t_logic_hostile_server():
    """--server takes http:// and https:// only (libcurl would read file://),
    a password in the URL is not printed in messages, and an answer past the
    size bound fails the exchange instead of filling memory."""
    import http.server   # only these checks serve HTTP themselves (not --memory-only's)
    rc, _, err = logic("--no-progress", "--server", "file:///etc/passwd", FIXTURE, allowed=(2,))
    assert "must start with http:// or https://" in err, err
    for url in ("http://alice:s3cret@127.0.0.1:1", "ftp://alice:s3cret@127.0.0.1:1"):
        rc, _, err = logic("--no-progress", "--server", url, FIXTURE, allowed=(2,))
        assert "s3cret" not in err and "alice:***@" in err, "the password is printed: " + err

    class Huge(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(4 << 30))
            self.end_headers()
            try:
                self.wfile.write(b"[" * 65536)
            except OSError:
                pass

        def log_message(self, *a):
            pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Huge)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        rc, _, err = logic("--no-progress", "--server", "http://127.0.0.1:%d" % srv.server_address[1], FIXTURE,
                           allowed=(2,), timeout=60)
        assert "the answer is over 1073741824 bytes" in err, err
    finally:
        srv.shutdown()
        srv.server_close()


# ---------------------------------------------------------------- kwgen cache


def t_cache_recency():
    """Rows served a moment ago survive `kwgen cache purge --older-than 30`:
    kwgend writes the hit times it holds in memory to the file in the
    background while it runs, and the rest when it stops."""
    db = os.path.join(O.tmp, "recency.db")
    day_ms = 86400 * 1000

    def age(key):
        con = sqlite3.connect(db, timeout=10)
        con.execute("UPDATE entries SET last_access = last_access - ? WHERE key = ?", (40 * day_ms, key))
        con.commit()
        con.close()

    def listed():
        return kwgen("cache", "--db", db, "ls")[1]

    # a round every 200 ms (the test-only KWGEND_TEST_RECENCY_FLUSH_MS hook;
    # 5 s by default): two rounds are waited for below
    d = e2e.Daemon(O.kwgend, db, "--log-level", "error")
    d.prefix = ["env", "KWGEND_TEST_RECENCY_FLUSH_MS=200"]
    d.start()
    try:
        bodies = [e2e.variant(900 + i) for i in range(3)]
        keys = []
        for b in bodies:
            s, _, r = d.post(b)
            assert s == 200, s
            keys.append(r["key"])
        for k in keys:
            age(k)
        f0 = d.metric("kwgen_cache_recency_flushes_total")
        s, _, r = d.post(bodies[0])  # a POST hit
        assert s == 200 and r["cached"] is True, (s, r)
        s, _, _ = d.request("GET", "/v1/kernels/" + keys[1])  # a GET
        assert s == 200, s
        # two rounds after the hits (the first may have begun before them)
        deadline = time.time() + 60
        while d.metric("kwgen_cache_recency_flushes_total") < f0 + 2:
            assert time.time() < deadline, "no recency flush within 60 s"
            time.sleep(0.05)
        kwgen("cache", "--db", db, "purge", "--older-than", "30")
        out = listed()
        assert keys[0] in out and keys[1] in out, "rows hit a moment ago were purged:\n" + out
        assert keys[2] not in out, "a row unused for 40 days survived the purge:\n" + out
        # at shutdown: aged again, hit, stopped at once
        age(keys[0])
        s, _, r = d.post(bodies[0])
        assert s == 200 and r["cached"] is True, (s, r)
    finally:
        assert d.stop() == 0
    kwgen("cache", "--db", db, "purge", "--older-than", "30")
    assert keys[0] in listed(), "the hit before SIGTERM did not reach the file"


def t_cache_flags():
    db, keys = filled_db("cli-cache.db")
    _, out, _ = kwgen("cache", "--db", db, "stats")
    assert "4" in out, out
    _, out, _ = kwgen("cache", "--db", db, "ls")
    assert sum(k in out for k in keys) == 4, out
    _, out, _ = kwgen("cache", "--db", db, "ls", "--limit", "2")
    assert len([x for x in out.splitlines() if re.match(r"^[0-9a-f]{64}\b", x)]) == 2, out
    _, out, _ = kwgen("cache", "--db", db, "show", keys[0], "--json")
    assert json.loads(out)["key"] == keys[0], out[:200]
    _, out, _ = kwgen("cache", "--db", db, "show", keys[0])
    assert "s_waitcnt" in out or "//" in out, out[:200]
    # purge --older-than: make one entry old, purge entries unused for 1 day
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute("PRAGMA table_info(entries)")]
    assert "last_access" in cols, cols
    old = con.execute("SELECT last_access FROM entries WHERE key = ?", (keys[1],)).fetchone()[0]
    scale = 1000 if old > 10 ** 11 else 1   # milliseconds or seconds
    con.execute("UPDATE entries SET last_access = last_access - ? WHERE key = ?", (3 * 86400 * scale, keys[1]))
    con.commit()
    con.close()
    kwgen("cache", "--db", db, "purge", "--older-than", "1")
    _, out, _ = kwgen("cache", "--db", db, "ls")
    assert keys[1] not in out and keys[0] in out, out
    kwgen("cache", "--db", db, "rm", keys[0])
    kwgen("cache", "--db", db, "rm", keys[0], allowed=(1,))
    kwgen("cache", "--db", db, "purge")
    _, out, _ = kwgen("cache", "--db", db, "ls")
    assert not any(k in out for k in keys), out
    for flag, what in (("--db", "the cache FILE"), ("--limit", "a count"), ("--older-than", "DAYS")):
        _, _, err = kwgen("cache", "ls", flag, allowed=(2,))
        assert "%s needs a value (%s)" % (flag, what) in err, err


# ---------------------------------------------------------------- kwgen verify


def verify_case(name):
    """A committed case of tests/verify/cases/, unpacked into the temp dir."""
    path = os.path.join(O.tmp, name + ".s")
    with gzip.open(os.path.join(ROOT, "tests", "verify", "cases", name + ".s.gz"), "rb") as f:
        open(path, "wb").write(f.read())
    return path


def t_verify_undecodable():
    """A code object whose .text crashes LLVM 22's AMDGPU disassembler is
    decoded in a child process: exit 2 naming the crash, not a SIGSEGV of
    kwgen; the file after it is still verified.  A foreign ELF (x86-64) is
    refused by its e_machine, also with --isa."""
    crash = os.path.join(O.tmp, "crash.co")
    with open(crash, "wb") as f:
        f.write(elf.elf(elf.CRASH_GFX942))
    ok = os.path.join(O.tmp, "ok.s")
    with open(ok, "w") as f:
        f.write("k:\n\ts_endpgm\n")
    for extra in ((), ("--isa", "gfx942")):
        rc, out, err = kwgen("verify", *extra, crash, allowed=(2,))
        assert "crash.co: cannot decode the code object" in err, err
        # the signal is named under the sanitizers too (the decoder
        # process does not keep their SIGSEGV handler)
        assert "disassembler crashed on it (SIGSEGV" in err, err
    # (once: the same command does not depend on the loop's flags)
    rc, out, err = kwgen("verify", "--isa", "gfx942", "--json", crash, ok, allowed=(2,))
    assert json.loads(out)["isa"] == "gfx942" and "cannot decode" in err, (out, err)
    # an object without a symbol table decodes (LLVM's C API gives a NULL
    # symbol iterator for it, which was dereferenced)
    bare = os.path.join(O.tmp, "bare.co")
    with open(bare, "wb") as f:
        f.write(elf.elf(elf.S_ENDPGM_GFX9, symbols=False))
    rc, out, err = kwgen("verify", "--json", bare)
    assert json.loads(out)["stats"]["instructions"] == 1, out
    x86 = os.path.join(O.tmp, "x86.o")
    with open(x86, "wb") as f:
        f.write(elf.elf(elf.CRASH_GFX942, machine=elf.EM_X86_64))
    rc, out, err = kwgen("verify", "--isa", "gfx942", x86, allowed=(2,))
    assert "e_machine is 62" in err, err


def t_verify_dashdash():
    """After `--` every argument is a file, even one named like an option."""
    odd = os.path.join(O.tmp, "-odd.s")
    with open(odd, "w") as f:
        f.write("k:\n\ts_endpgm\n")
    p = subprocess.run([O.kwgen, "verify", "--isa", "gfx942", "--json", "--", "-odd.s"], cwd=O.tmp,
                       capture_output=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["stats"]["instructions"] == 1, (p.returncode, p.stderr)
    assert not sanitizer_report(p.stderr.decode("utf-8", "replace")), p.stderr[-500:]
    p = subprocess.run([O.kwgen, "verify", "--isa", "gfx942", "--"], capture_output=True, timeout=60)
    assert p.returncode == 2 and b"give at least one FILE" in p.stderr, p.stderr


def t_verify_json_lines():
    """--json-lines: one line per FILE, in order, each with its own exit
    status; a file that cannot be read or decoded is a line with exit 2 and
    the error, the files after it are still verified; the process exits with
    the worst; --json with --json-lines is a usage error."""
    clean = os.path.join(O.tmp, "clean.s")
    with open(clean, "w") as f:
        f.write("k:\n\ts_endpgm\n")
    red = verify_case("issue11584_redundant_lgkmcnt")       # two warnings
    race = verify_case("pr3635_lgkmcnt4_three_in_flight")   # one race_raw
    crash = os.path.join(O.tmp, "crash-lines.co")
    with open(crash, "wb") as f:
        f.write(elf.elf(elf.CRASH_GFX942))
    missing = os.path.join(O.tmp, "missing.s")
    files = [clean, red, race, missing, crash, clean, "-"]
    rc, out, err = kwgen("verify", "--isa", "gfx942", "--json-lines", *files, stdin=b"k:\n\ts_endpgm\n",
                         allowed=(2,))
    lines = out.splitlines()
    assert len(lines) == len(files), (out, err)
    got = [json.loads(x) for x in lines]
    assert [g["file"] for g in got] == files[:-1] + ["<stdin>"], got
    assert [g["exit"] for g in got] == [0, 0, 1, 2, 2, 0, 0], [g["exit"] for g in got]
    assert got[1]["totals"]["redundant_wait"] == 2 and got[2]["totals"]["race_raw"] == 1, got[1:3]
    assert "No such file" in got[3]["error"] and "cannot decode" in got[4]["error"], got[3:5]
    assert "findings" not in got[3] and "findings" not in got[4], got[3:5]
    assert "cannot read %s" % missing in err and "crash-lines.co: cannot decode" in err, err
    # each line is the --json object of that file alone, plus file and exit
    _, one, _ = kwgen("verify", "--isa", "gfx942", "--json", race, allowed=(1,))
    alone = json.loads(one)
    for k in ("findings", "totals", "isa", "suppressed", "truncated"):
        assert got[2][k] == alone[k], (k, got[2][k], alone[k])
    # the worst decides the process's exit; --Werror makes the warnings file 1
    kwgen("verify", "--isa", "gfx942", "--json-lines", clean, race, allowed=(1,))
    rc, out, _ = kwgen("verify", "--isa", "gfx942", "--json-lines", "--Werror", red, clean, allowed=(1,))
    assert [json.loads(x)["exit"] for x in out.splitlines()] == [1, 0], out
    rc, out, _ = kwgen("verify", "--isa", "gfx942", "--json-lines", clean)
    assert rc == 0 and json.loads(out)["exit"] == 0, out
    rc, out, err = kwgen("verify", "--json", "--json-lines", clean, allowed=(2,))
    assert out == "" and "--json and --json-lines" in err, (out, err)
    # a name that is not UTF-8 stays valid JSON: its other bytes become '?'
    odd = os.path.join(O.tmp.encode(), b"odd\xff.s")
    with open(odd, "wb") as f:
        f.write(b"k:\n\ts_endpgm\n")
    p = subprocess.run([O.kwgen, "verify", "--isa", "gfx942", "--json-lines", odd], capture_output=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["file"].endswith("odd?.s"), (p.returncode, p.stdout[:200])


def t_verify_max_bytes():
    """kwgen verify reads at most --max-bytes of a file (default 128 MiB, as
    kwgend's --max-verify-bytes): an endless file of zeros is exit 2 naming
    the bound once it has read just past it, not a read that grows for
    ever.  The file is a named pipe this test writes zeros into, so the
    bytes kwgen read are counted (what the pipe took before kwgen closed
    it), on any machine; it was /dev/zero with a 30 s bound on the wall
    time, which a loaded machine could break."""
    # Under ASan the pipe is bounded by --max-bytes 1 MiB: the same reading
    # path under the sanitizers (reading 128 MiB took 3.4 s of CPU there);
    # the default's 128 MiB is read by the plain build (make cli-memory).
    bound, flags = (1 << 20, ["--max-bytes", str(1 << 20)]) if sanitized_kwgen() else (128 << 20, [])
    fifo = os.path.join(O.tmp, "zeros.fifo")
    os.mkfifo(fifo)
    p = subprocess.Popen([O.kwgen, "verify", "--isa", "gfx942"] + flags + [fifo], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    killer = threading.Timer(120, p.kill)   # bounds a hang only
    killer.start()
    sent, fd = 0, None
    try:
        while fd is None and p.poll() is None:   # kwgen opens the pipe to read
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
                time.sleep(0.01)
        if fd is not None:
            os.set_blocking(fd, True)
            zeros = b"\0" * (1 << 16)
            try:
                while sent < (1 << 30):
                    sent += os.write(fd, zeros)
            except BrokenPipeError:
                pass
            os.close(fd)
        out, err = p.communicate()
    finally:
        killer.cancel()
    err = err.decode("utf-8", "replace")
    assert p.returncode == 2 and not sanitizer_report(err), (p.returncode, err[-600:])
    assert "zeros.fifo: the input is over %d bytes" % bound in err and "--max-bytes" in err, err
    # what kwgen read, give or take the pipe's buffer (64 KiB) and one read
    assert bound < sent <= bound + (1 << 20), "the pipe took %d bytes for a %d-byte bound" % (sent, bound)
    text = "k:\n" + "\ts_nop 0\n" * 200 + "\ts_endpgm\n"
    rc, out, err = kwgen("verify", "--isa", "gfx942", "--max-bytes", "1000", "-", stdin=text.encode(), allowed=(2,))
    assert "<stdin>: the input is over 1000 bytes" in err, err
    rc, out, err = kwgen("verify", "--isa", "gfx942", "--max-bytes", str(len(text)), "-", stdin=text.encode())
    assert rc == 0, err
    rules = os.path.join(O.tmp, "big.supp")
    with open(rules, "w") as f:
        f.write("race_raw\n" * 100)
    rc, out, err = kwgen("verify", "--max-bytes", "500", "--suppress", rules, "-", stdin=text.encode(), allowed=(2,))
    assert "big.supp: the file is over 500 bytes" in err, err
    for bad in ("0", "-1", "lots"):
        rc, out, err = kwgen("verify", "--max-bytes", bad, "-", stdin=text.encode(), allowed=(2,))
        assert "--max-bytes takes a positive integer" in err, (bad, err)
    rc, out, err = kwgen("verify", "--max-bytes", allowed=(2,))
    assert "--max-bytes needs a value" in err, err


def t_verify_flags():
    red = verify_case("issue11584_redundant_lgkmcnt")       # two waits for nothing
    race = verify_case("pr3635_lgkmcnt4_three_in_flight")   # one race_raw
    _, out, err = kwgen("verify", red)
    assert (out + err).count("[redundant_wait]") == 2, out + err
    _, out, err = kwgen("verify", "--no-redundant", red)
    assert "redundant_wait" not in out + err, out + err
    kwgen("verify", "--Werror", red, allowed=(1,))
    rc, out, err = kwgen("verify", race, allowed=(1,))
    assert "[race_raw]" in out + err, out + err
    rules = os.path.join(O.tmp, "suppress.txt")
    with open(rules, "w") as f:
        f.write("race_raw\n")
    _, out, err = kwgen("verify", "--suppress", rules, race)
    assert "[race_raw]" not in out + err, out + err
    _, out, _ = kwgen("verify", "--max-findings", "1", "--json", red)
    j = json.loads(out)
    assert len(j["findings"]) == 1 and j["truncated"] is True and j["totals"]["redundant_wait"] == 2, j
    rc, out, err = kwgen("verify", "--max-instructions", "3", race, allowed=(2,))
    assert "max_instructions" in err, err
    rc, out, err = kwgen("verify", "--max-work", "3", race, allowed=(2,))
    assert "max_work" in err, err
    # --assume-atomic-counters: the GSU synchronizer's last workgroup
    # (s51 == 1, the value s_atomic_dec returned) with GSU s50 == 1 skips
    # the wait; the counter protocol (s51 <= s50 - 1) rules that path out
    gsu = os.path.join(O.tmp, "gsu.s")
    with open(gsu, "w") as f:
        f.write("k:\n\ts_load_dword s50, s[0:1], 0x58\n\ts_waitcnt lgkmcnt(0)\n"
                "\ts_sub_u32 s51, s50, 1\n\ts_atomic_dec s51, s[24:25], 0x0 glc\n\ts_waitcnt lgkmcnt(0)\n"
                "\ts_cmp_eq_u32 s51, 1\n\ts_cbranch_scc0 .Ldone\n"
                "\tbuffer_load_dword v1, v2, s[4:7], 0 offen\n"
                "\ts_cmp_eq_u32 s50, 1\n\ts_cbranch_scc1 .Lread\n\ts_waitcnt vmcnt(0)\n"
                ".Lread:\n\tv_mov_b32 v3, v1\n.Ldone:\n\ts_endpgm\n")
    rc, out, err = kwgen("verify", "--isa", "gfx942", gsu, allowed=(1,))
    assert "gsu.s:14: error:" in out and "s_atomic_dec at line 5 returned" in out and \
        "--assume-atomic-counters" in out, out + err
    _, out, err = kwgen("verify", "--isa", "gfx942", "--assume-atomic-counters", gsu)
    assert "[race_raw]" not in out + err, out + err


# ---------------------------------------------------------------- kwgend


def t_kwgend_hot_cache():
    """--hot-cache-bytes: an answer held in memory is served without SQLite.
    Seen from outside: after its row is deleted from the file behind the
    daemon's back, a body whose answer memory holds is still answered from
    the cache ("cached": true, within the memo's one-second freshness), one
    whose answer is not held is generated again ("cached": false).  With a
    budget for both answers both are held; with a budget for one only the
    first; with 0 none."""
    a, b = e2e.variant(811), e2e.variant(812)

    def held(extra, label):
        """-> (a held, b held) after posting a, a, b, b.  Memory answers
        without confirming the row for 10 minutes here (the test hook
        KWGEND_TEST_MEMO_FRESH_MS), not 1 s: the check holds on any machine."""
        db = os.path.join(O.tmp, "hot-%s.db" % label)
        d = e2e.Daemon(O.kwgend, db, "--log-level", "error", *extra)
        d.prefix = ["env", "KWGEND_TEST_MEMO_FRESH_MS=600000"]
        d.start()
        try:
            keys = []
            for body in (a, a, b, b):
                s, _, r = d.post(body)
                assert s == 200, s
                keys.append(r["key"])
            con = sqlite3.connect(db, timeout=10)
            con.execute("DELETE FROM entries WHERE key IN (?, ?)", (keys[0], keys[2]))
            con.commit()
            con.close()
            got = []
            for body in (a, b):
                s, _, r = d.post(body)
                assert s == 200, s
                got.append(r["cached"] is True)
            return tuple(got)
        finally:
            assert d.stop() == 0

    # the stored answer's size, as memory holds it (a's variant is this
    # check's own: the shared daemon answers it first here)
    d = shared_daemon()
    d.request("POST", "/v1/kernels", a)
    s, _, raw = d.request("POST", "/v1/kernels", a)
    assert s == 200, s
    one = len(raw)
    both = held(["--hot-cache-bytes", "1000000"], "big")
    assert both == (True, True), "budget 1000000: held %s, want both" % (both,)
    first = held(["--hot-cache-bytes", str(one + one // 3)], "one")
    assert first == (True, False), "budget %d for answers of %d bytes: held %s, want only the first" % (
        one + one // 3, one, first)
    none = held(["--hot-cache-bytes", "0"], "zero")
    assert none == (False, False), "budget 0: held %s, want none" % (none,)


def t_kwgend_drain_timeout():
    """--drain-seconds 1 with a request that never completes: exit 0 within
    a few seconds of SIGTERM, not after the default 30."""
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "drain.db"), "--log-level", "error",
                   "--drain-seconds", "1").start()
    c = d.conn()
    c.putrequest("POST", "/v1/kernels")
    c.putheader("Content-Type", "application/json")
    c.putheader("Transfer-Encoding", "chunked")
    c.endheaders()
    c.send(b"5\r\n{\"isa\r\n")      # in flight, never finished
    # the daemon has its head (in flight beside this /metrics request)
    deadline = time.time() + 60
    while d.metric("kwgen_in_flight_requests") < 2:
        assert time.time() < deadline, "the unfinished request never in flight"
        time.sleep(0.01)
    t0 = time.time()
    d.proc.send_signal(signal.SIGTERM)
    try:
        rc = d.proc.wait(timeout=15)
    finally:
        c.close()
    took = time.time() - t0
    assert 0.8 <= took <= 8, "exited %.1f s after SIGTERM with --drain-seconds 1" % took
    assert rc == 0, "exit status %d" % rc
    d.wait_log()
    rep = sanitizer_report("".join(d.log))
    assert not rep, rep


def t_kwgend_log_level():
    def lines_for(level):
        d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "log-%s.db" % level), "--log-level", level).start()
        try:
            d.post(e2e.example())
            d.request("GET", "/v1/kernels/" + "0" * 64)
        finally:
            assert d.stop() == 0
        d.wait_log()
        out = [json.loads(x) for x in d.log if x.startswith("{")]
        return [x for x in out if "method" in x], [x for x in out if "method" not in x]
    acc_err, other_err = lines_for("error")
    acc_info, other_info = lines_for("info")
    acc_dbg, other_dbg = lines_for("debug")
    assert not acc_err, "access lines at --log-level error"
    assert len(acc_info) >= 2 and len(acc_dbg) >= 2, (len(acc_info), len(acc_dbg))
    assert len(other_dbg) >= len(other_info) > len(other_err), (len(other_dbg), len(other_info), len(other_err))
    assert any("listening" in x.get("msg", json.dumps(x)) for x in other_info), other_info
    p = subprocess.run([O.kwgend, "--listen", "127.0.0.1:0", "--db", os.path.join(O.tmp, "ll.db"),
                        "--log-level", "loud"], capture_output=True, timeout=20)
    assert p.returncode != 0 and b"--log-level" in p.stderr, (p.returncode, p.stderr)


def t_kwgend_threads_help():
    d = e2e.Daemon(O.kwgend, os.path.join(O.tmp, "threads.db"), "--log-level", "info", "--threads", "3").start()
    try:
        def threads_of(line):
            try:
                return json.loads(line).get("threads")
            except ValueError:
                m = re.search(r"(\d+) threads", line)
                return int(m.group(1)) if m else None
        # the start line, read before start() returned (it holds the port)
        assert any(threads_of(x) == 3 for x in d.log), d.log[:3]
    finally:
        assert d.stop() == 0
    _, out, err = run([O.kwgend, "--help"])
    assert "usage: kwgend" in out + err, (out + err)[:100]
    _, out, _ = run([O.kwgend, "--version"])
    _, kout, _ = kwgen("--version")
    assert re.match(r"kwgend \d+\.\d+\.\d+ \(generators kwgen-generators-\d+\)\n$", out), out
    assert out.split(" ", 1)[1] == kout.split(" ", 1)[1], (out, kout)
    p = subprocess.run([O.kwgend, "--threads", "0", "--listen", "127.0.0.1:0", "--db",
                        os.path.join(O.tmp, "t0.db")], capture_output=True, timeout=20)
    assert p.returncode != 0 and b"--threads" in p.stderr, (p.returncode, p.stderr)


def t_kwgend_flag_errors():
    """A bad flag value is one message with the real range and exit 2 (a
    malformed --listen too, before anything starts); a port that cannot be
    bound is a start failure: exit 1, logged at level error."""
    db = os.path.join(O.tmp, "flags.db")
    for args, want in ((["--threads", "100000"], b'--threads wants an integer in 1..1024, not "100000"'),
                       (["--threads", "0"], b'--threads wants an integer in 1..1024, not "0"'),
                       (["--max-depth", "0"], b'--max-depth wants an integer in 1..2048, not "0"'),
                       (["--listen", "127.0.0.1:99999"], b'--listen wants HOST:PORT'),
                       (["--listen", ""], b'--listen wants HOST:PORT')):
        p = subprocess.run([O.kwgend, "--db", db] + args + ([] if args[0] == "--listen" else ["--listen", "127.0.0.1:0"]),
                           capture_output=True, timeout=20)
        assert p.returncode == 2 and want in p.stderr, (args, p.returncode, p.stderr)
        assert p.stderr.count(b"\n") == 1, (args, p.stderr)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        p = subprocess.run([O.kwgend, "--db", db, "--listen", "127.0.0.1:%d" % port], capture_output=True, timeout=20)
    assert p.returncode == 1, (p.returncode, p.stderr)
    lines = [json.loads(x) for x in p.stderr.decode().splitlines() if x.startswith("{")]
    failed = [x for x in lines if x.get("event") == "start_failed"]
    assert failed and failed[0]["level"] == "error" and str(port) in failed[0]["msg"], lines


CHECKS = [
    ("kwgen single mode (stdin): pretty answer, exit 1 on an error", t_single_stdin),
    ("kwgen FILE: same answer as stdin; a missing FILE is named", t_file_argument),
    ("kwgen --batch: one compact answer per line, bad lines answered", t_batch),
    ("kwgen --batch --max-line-bytes: a longer line answers limit, the next is answered", t_max_line_bytes),
    ("kwgen --max-line-bytes default = kwgend's --max-body-bytes: 1 MiB answered, 1 MiB + 1 refused by both",
     t_max_line_bytes_default),
    ("kwgen --jobs 1 / 4 / default: same bytes; bad --jobs refused", t_jobs),
    ("kwgen --line-buffered: each answer before stdin closes", t_line_buffered),
    ("kwgen --asm: text, errors on stderr / as comment lines", t_asm),
    ("kwgen --canonical: key = the answer's and the daemon's key", t_canonical),
    ("kwgen --help, --version, unknown flag", t_help_version),
    ("every kwgen mode: a full disk or a closed stdout is a write error, exit 2", t_output_errors),
    ("kwgen --batch: answers of short lines that ask for a lot held ~32 MiB per job", t_batch_output_bounded),
    ("kwgen: a NUL byte in the input is named with its place", t_nul_bytes),
    ("kwgen (and logic) --, --name=value, an option without its value, --canonical --batch, a directory",
     t_odd_argv),
    ("kwgen single mode: at most --max-line-bytes read (a big or endless input)", t_single_bounded),
    ("kwgen logic -o, -q/--quiet, --progress/--no-progress", t_logic_output_flags),
    ("kwgen logic --unique", t_logic_unique),
    ("kwgen logic --isa, --generators (names and JSON), checked locally", t_logic_isa_generators),
    ("kwgen logic --server --batch N: batches of N, second pass all hits", t_logic_server_batch),
    ("kwgen logic --inflight N: same summary, answers and batches as one at a time; errors keep their batch", t_logic_inflight),
    ("kwgen logic --token / --token-file against --auth-tokens", t_logic_token),
    ("kwgen logic --cacert against a TLS kwgend", t_logic_cacert),
    ("kwgen logic --timeout against a server that never answers", t_logic_timeout),
    ("kwgen logic DIR: a FIFO named *.yaml is skipped, not waited on", t_logic_walk_fifo),
    ("kwgen logic: 20,000 unique requests cost a digest each, not their text", t_logic_memory_per_request),
    ("kwgen logic: a file name that is not UTF-8", t_logic_non_utf8_name),
    ("kwgen logic: a float past the double range fails its solution only", t_logic_float_overflow),
    ("kwgen logic: YAML merge keys (<<: *anchor) as PyYAML resolves them", t_logic_merge_key),
    ("kwgen logic -o: an input file refused, the -o file not walked, -o - is stdout", t_logic_output_is_input),
    ("kwgen logic --server: a batch past the daemon's --max-batch names the flag", t_logic_batch_past_max_batch),
    ("kwgen logic --server: http(s) only, no password in messages, an endless answer bounded", t_logic_hostile_server),
    ("kwgen logic --token-file: a directory, an over-long line", t_logic_token_file_errors),
    ("kwgen logic --server: errors carry the daemon's request id", t_logic_request_ids),
    ("the --max-work default reads the same in kwgen(1), kwgend(8), --help, README", t_max_work_default_words),
    ("kwgen logic --progress: the file name, running totals, hits once posted, \"1 file\"", t_logic_progress),
    ("kwgen cache --db stats, ls --limit, show --json, purge --older-than, rm", t_cache_flags),
    ("kwgen cache purge --older-than keeps rows kwgend served a moment ago", t_cache_recency),
    ("kwgen verify --no-redundant, --Werror, --suppress, --max-findings, --max-instructions, --max-work",
     t_verify_flags),
    ("kwgen verify -- FILE: a file named like an option", t_verify_dashdash),
    ("kwgen verify --json-lines: a line per file with its own exit, errors as lines, the worst exit",
     t_verify_json_lines),
    ("kwgen verify --max-bytes: an endless input is exit 2 at 128 MiB, a smaller bound, bad values", t_verify_max_bytes),
    ("kwgen verify: a code object LLVM's disassembler crashes on is exit 2, a foreign ELF refused",
     t_verify_undecodable),
    ("kwgend --hot-cache-bytes: memory hits within the budget, SQLite past it and with 0", t_kwgend_hot_cache),
    ("kwgend --drain-seconds 1 runs out: exit 0 in time", t_kwgend_drain_timeout),
    ("kwgend --log-level error / info / debug / bad", t_kwgend_log_level),
    ("kwgend --threads, --help, --version", t_kwgend_threads_help),
    ("kwgend bad flag values: one message with the range, exit 2; a bind failure exits 1 at level error",
     t_kwgend_flag_errors),
]

# The checks whose bound runs shorter under ASan: a peak RSS (the
# sanitizers' shadow memory and quarantine are in it: not asserted there)
# and kwgen verify's 128 MiB default --max-bytes (1 MiB under ASan: the
# same reading path).  make test runs them full size against the plain
# build (make cli-memory) and every check once under ASan (asan-cli-test).
MEMORY_BOUND = (t_batch_output_bounded, t_logic_memory_per_request, t_verify_max_bytes)


def main():
    global O
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--only", default="", help="checks whose title contains this text")
    ap.add_argument("--memory-only", action="store_true",
                    help="only the checks whose bound runs shorter under ASan (peak memory, kwgen verify's "
                         "128 MiB default; make cli-memory: the plain build's part of make test, "
                         "asan-cli-test runs every check)")
    O = ap.parse_args()
    O.kwgen, O.kwgend = os.path.abspath(O.kwgen), os.path.abspath(O.kwgend)
    with tempfile.TemporaryDirectory(prefix="kwgen-cli-") as tmp:
        O.tmp = tmp
        for title, fn in CHECKS:
            if O.only in title and (not O.memory_only or fn in MEMORY_BOUND):
                e2e.check(title, fn)
        if _SHARED:
            e2e.check("the kwgend processes the checks above shared: SIGTERM, exit 0", stop_shared)
        e2e.sanitizer_check("no sanitizer report from any kwgend")
    print("cli: %d passed, %d failed, %d skipped" % (e2e.PASSED, e2e.FAILED, e2e.SKIPPED))
    return e2e.exit_status()


if __name__ == "__main__":
    sys.exit(main())
