#!/usr/bin/env python3
"""Self-tests of the test suites: each check is fed a deliberately broken
kwgen or kwgend (a wrapper around the real binary that exits non-zero, prints
a sanitizer report, never refuses, cannot keep a hit, dies early, ...) and
must fail.  A check that still passes here cannot see the fault it is meant
to catch.

  python3 tests/selftest/selftest.py [--kwgen build/kwgen] [--kwgend build/kwgend]
                                     [--only NAME,...] [--list]

One line per case and a closing `selftest: N passed, N failed, N skipped`.
Exit status 0 only when every check failed on its broken input.  Stdlib only.
"""
import argparse
import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import Results, sanitizer_report  # noqa: E402

PY = sys.executable
# The wrappers below run once per program call (hundreds of times in the
# verify cases) and need only the standard library: `python3 -S` skips the
# site-packages start-up (its .pth files), most of an interpreter's start.
SAN_LEAK = "==4242==ERROR: LeakSanitizer: detected memory leaks"
SAN_UB = "lib/fake.c:12:7: runtime error: signed integer overflow: 2147483647 + 1"


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# ---------------------------------------------------------------- wrappers

# run_real(): the wrappers' way to run the real program (both wrappers
# paste it in through %(run_real)s)
RUN_REAL = r'''def run_real(argv):
    """(exit status, stdout bytes) of argv, with our stdin and stderr.
    os.fork and os.execv, not subprocess: importing subprocess was half of
    this wrapper's start-up, and it runs once per program call."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(w, 1)
            os.close(r)
            os.close(w)
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 20)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), b"".join(chunks)
'''

KWGEN_WRAPPER = r'''#!%(py)s -S
# A broken kwgen: runs the real one, then %(what)s.
import os, sys
REAL = %(real)r
MODE = %(mode)r
args = sys.argv[1:]

%(run_real)s

rc, out = run_real([REAL] + args)
batch = "--batch" in args
if MODE == "leak-exit-23":
    sys.stderr.write(%(leak)r + "\n")
    rc = 23
elif MODE == "ubsan-exit-0":
    sys.stderr.write(%(ub)r + "\n")
elif MODE == "single-exit-3" and not batch:
    rc = 3
elif MODE in ("bogus-asm", "unchecked-claim") and batch:
    import json   # here: a sixth of the other modes' start-up, once per program call
    lines = out.decode().split("\n")
    for i, t in enumerate(lines):
        if not t.strip():
            continue
        a = json.loads(t)
        if isinstance(a.get("asm"), str) and a["asm"].strip() and not a.get("diagnostics"):
            if MODE == "bogus-asm":
                # an instruction llvm-mc rejects with a message check-asm cannot classify,
                # with a diagnostic that would have been accepted as "one of three codes"
                a["asm"] = "v_this_is_no_instruction v0, v1\n" + a["asm"]
                a["diagnostics"] = [{"code": "instruction_not_on_isa", "message": "made up"}]
            else:
                # output that assembles, with a diagnostic that claims llvm-mc does not check it
                a["diagnostics"] = [{"code": "register_out_of_range", "message":
                                     "v12 is past the 512 VGPRs gfx942 can address; its bank does not "
                                     "fit the 2-bit fields of s_set_vgpr_msb (llvm-mc does not check this)"}]
            lines[i] = json.dumps(a)
            break
    out = "\n".join(lines).encode()
sys.stdout.buffer.write(out)
sys.exit(rc)
'''

KWGEND_WRAPPER = r'''#!%(py)s -S
# A broken kwgend: the real one as a child (killed with us), %(what)s.
import ctypes, os, signal, subprocess, sys, threading, time
REAL = %(real)r
MODE = %(mode)r
args = sys.argv[1:]

def rewrite(args):
    out = list(args)
    if MODE == "never-refuse":
        for i, a in enumerate(out[:-1]):
            if a == "--max-inflight":
                out[i + 1] = "1000"
    if MODE == "tiny-body":
        out += ["--max-body-bytes", "10"]
    if MODE == "unbounded-files":
        for i, a in enumerate(out[:-1]):
            if a == "--max-cache-bytes":
                out[i + 1] = "0"
    if MODE == "slow-lock":
        out += ["--busy-timeout-ms", "3000"]
    return out

libc = ctypes.CDLL(None)
def die_with_parent():
    libc.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
die_with_parent()   # the wrapper too: a test that dies cannot leave it running

if MODE == "sanitizer-line":
    sys.stderr.write(%(leak)r + "\n")
    sys.stderr.flush()
env = dict(os.environ)
if MODE == "dies-early":
    # every miss takes 10 s (the test hook): no answer comes before the
    # death below, so the kill loop (which kills after 5 answers) cannot
    # kill first on a fast machine
    env["KWGEND_TEST_SLICE_DELAY_MS"] = "10000"
p = subprocess.Popen([REAL] + rewrite(args), preexec_fn=die_with_parent, env=env)
def forward(sig, frame):
    p.send_signal(sig)
for s in (signal.SIGTERM, signal.SIGINT):
    signal.signal(s, forward)
if MODE == "dies-early":
    def later():
        time.sleep(0.15)
        p.kill()
    threading.Thread(target=later, daemon=True).start()
rc = p.wait()
if MODE == "exit-23":
    rc = 23
sys.exit(rc if rc >= 0 else 128 - rc)
'''

FAKE_KWGEND = r'''#!%(py)s -S
# A fake kwgend that never serves a hit: every POST of a body seen before is
# answered 200 with "cached": false; all heavy misses but the first get 503
# overloaded (so only the hit check can catch it).  Prints the listening line
# like kwgend, exits 0 on SIGTERM.
import hashlib, http.server, json, signal, sys, threading
heavy_seen = [0]
lock = threading.Lock()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def send(self, code, obj, extra=()):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        self.send(200, {"status": "ok"})
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = hashlib.sha256(body).hexdigest()
        if b"mapAcctoArchRegs" in body:
            with lock:
                heavy_seen[0] += 1
                first = heavy_seen[0] == 1
            if not first:
                return self.send(503, {"error": {"code": "overloaded", "message": "busy", "field": None}},
                                 [("Retry-After", "1")])
        self.send(200, {"key": key, "cached": False, "results": []})
http.server.ThreadingHTTPServer.request_queue_size = 256
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
sys.stderr.write("kwgend: listening on 127.0.0.1:%%d\n" %% srv.server_address[1])
sys.stderr.flush()
signal.signal(signal.SIGTERM, lambda *a: threading.Thread(target=srv.shutdown).start())
srv.serve_forever()
sys.exit(0)
'''

LOGIC_WRAPPER = r'''#!/bin/sh
# A broken `kwgen logic`: the real one, then exit 2.
%(real)s logic "$@"
exit 2
'''


# What each mode of a wrapper does (the wrapper's comment says it too).
KWGEN_MODES = {
    "leak-exit-23": "prints a LeakSanitizer report and exits 23",
    "ubsan-exit-0": "prints a UBSan runtime error and exits 0",
    "single-exit-3": "exits 3 in single mode",
    "bogus-asm": "adds an instruction llvm-mc cannot classify",
    "unchecked-claim": "claims 'llvm-mc does not check' on gfx942",
}
KWGEND_MODES = {
    "sanitizer-line": "prints a LeakSanitizer report",
    "exit-23": "exits 23 when stopped",
    "tiny-body": "refuses every body (--max-body-bytes 10)",
    "never-refuse": "runs with --max-inflight 1000 (never 503)",
    "dies-early": "dies 0.15 s after starting, before its first answer (each miss held 10 s)",
    "unbounded-files": "ignores --max-cache-bytes",
    "slow-lock": "waits 3 s for a held write lock",
}
VERIFY_MODES = {
    "no-findings": "reports nothing",
    "no-findings-in-objdump": "reports nothing on objdump text or code objects",
    "race-on-first-wait": "adds a race on the first wait",
    "exit-3": "exits 3",
}


class Broken:
    """One helper per kind of broken binary.  Each writes its executable
    into tmp once (later calls return the same path) and returns its path."""

    def __init__(self, o, tmp):
        self.o, self.tmp, self.made = o, tmp, {}

    def _exe(self, name, text):
        if name not in self.made:
            self.made[name] = write_exe(os.path.join(self.tmp, name), text)
        return self.made[name]

    def kwgen(self, mode):
        """The real kwgen, then the fault KWGEN_MODES[mode]."""
        return self._exe("kwgen-" + mode, KWGEN_WRAPPER % dict(run_real=RUN_REAL,
            py=PY, real=self.o.kwgen, mode=mode, what=KWGEN_MODES[mode], leak=SAN_LEAK, ub=SAN_UB))

    def kwgend(self, mode):
        """The real kwgend as a child, with the fault KWGEND_MODES[mode]."""
        return self._exe("kwgend-" + mode, KWGEND_WRAPPER % dict(
            py=PY, real=self.o.kwgend, mode=mode, what=KWGEND_MODES[mode], leak=SAN_LEAK))

    def verifier(self, mode):
        """The real `kwgen verify`, then the fault VERIFY_MODES[mode]."""
        return self._exe("kwgen-verify-" + mode, VERIFY_WRAPPER % dict(run_real=RUN_REAL,
            py=PY, real=self.o.kwgen, mode=mode, what=VERIFY_MODES[mode]))

    def kwgend_no_hits(self):
        """A fake kwgend that never serves a hit (FAKE_KWGEND)."""
        return self._exe("kwgend-fake-no-hits", FAKE_KWGEND % dict(py=PY))

    def kwgend_with(self, name, *args):
        """The real kwgend with args appended (e.g. one generation slot)."""
        return self._exe("kwgend-" + name, "#!/bin/sh\n# kwgend %s\nexec %s \"$@\" %s\n" % (
            name, self.o.kwgend, " ".join(args)))

    def kwgend_new_flag(self, flag):
        """A kwgend whose --help names a flag no test has a row for."""
        return self._exe("kwgend-new-flag", '#!/bin/sh\n# kwgend whose --help names a flag without a test\n'
                         'if [ "$1" = --help ]; then %s --help; echo "  %s N    untested"; exit 0; fi\n'
                         'exec %s "$@"\n' % (self.o.kwgend, flag, self.o.kwgend))

    def logic_exit_2(self):
        """`kwgen logic` that does its work, then exits 2."""
        return self._exe("kwgen-logic-exit-2", LOGIC_WRAPPER % dict(real=self.o.kwgen))

    def path_without_mount(self):
        """A PATH whose `mount` fails (permission denied)."""
        d = os.path.join(self.tmp, "nomount")
        if not os.path.isdir(d):
            os.makedirs(d)
            write_exe(os.path.join(d, "mount"), "#!/bin/sh\necho 'mount: permission denied' >&2\nexit 32\n")
        return d + os.pathsep + os.environ.get("PATH", "")


# ---------------------------------------------------------------- cases


def cpu_seconds():
    """user + system seconds of this process and the children it waited for."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(cmd, env=None, timeout=600):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e,
                       timeout=timeout, cwd=ROOT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def expect_fail(res, name, cmd, must_show=None, env=None):
    """The check run by cmd must exit non-zero and print must_show (a regex).
    Prints the CPU the check took (its processes and their children)."""
    c0 = cpu_seconds()
    rc, out = run(cmd, env)
    cpu = cpu_seconds() - c0
    why = []
    if rc == 0:
        why.append("exited 0")
    if must_show and not re.search(must_show, out, re.M):
        why.append("output lacks /%s/" % must_show)
    if why:
        tail = "\n".join("      | " + ln for ln in out.strip().splitlines()[-8:])
        res.fail(name, "; ".join(why) + "\n" + tail)
    else:
        res.ok(name)
    print("        (%.2f s cpu)" % cpu, flush=True)


def golden_extract(tmp, keep):
    """A small tests/golden in tmp: the request/answer pairs whose request
    contains one of the strings in keep (compare.py and check_asm.py --data).
    Read once here instead of decompressing the whole corpus (~60 MB of
    JSON) in each of the seven runs below."""
    import gzip
    d = os.path.join(tmp, "golden-extract")
    src = os.path.join(ROOT, "tests", "golden")
    keep = [k.encode() for k in keep]
    os.makedirs(d)
    # line by line, as bytes, both files in step: pair N is line N of each
    with gzip.open(os.path.join(src, "requests.jsonl.gz"), "rb") as fr, \
            gzip.open(os.path.join(src, "answers.jsonl.gz"), "rb") as fa, \
            gzip.open(os.path.join(d, "requests.jsonl.gz"), "wb", compresslevel=1) as wr, \
            gzip.open(os.path.join(d, "answers.jsonl.gz"), "wb", compresslevel=1) as wa:
        for r, a in zip(fr, fa):
            if r.strip() and any(k in r for k in keep):
                wr.write(r)
                wa.write(a)
    return d


def golden_cases(res, o, tmp, bad):
    # the answers to one logic entry (12 gfx942 outputs) for check_asm: its
    # faults change the first answer with code (pair 1) or the exit status;
    # the logic directory's other 96 outputs only passed
    one_entry = 'gfx942_80cu/Equality/aquavanjaram_Cijk_Ailk_Bjlk_BBS_BH_UserArgs.yaml#8"'
    data = golden_extract(tmp, ['"tdmWait"', one_entry])
    compare = [PY, "tests/golden/compare.py", "--only", '"tdmWait"', "--data", data]
    expect_fail(res, "compare.py: kwgen --batch prints a LeakSanitizer report, exits 23",
                compare + ["--kwgen", bad.kwgen("leak-exit-23")], r"exited 23")
    expect_fail(res, "compare.py: kwgen --batch prints 'runtime error:', exits 0",
                compare + ["--kwgen", bad.kwgen("ubsan-exit-0")], r"sanitizer report")
    # one single-mode run shows the exit (each runs the same wrapper)
    expect_fail(res, "compare.py --single: single-mode kwgen exits 3",
                compare + ["--kwgen", bad.kwgen("single-exit-3"), "--single", "1"], r"single mode.*exited 3")
    expect_fail(res, "compare.py --single-cover: single-mode kwgen exits 3 (the asan-golden sample)",
                compare + ["--kwgen", bad.kwgen("single-exit-3"), "--single", "0", "--single-cover"],
                r"single mode, oracle form, pair \d+: .*exited 3")
    asm = [PY, "tests/golden/check_asm.py", "--only", one_entry, "--data", data]
    expect_fail(res, "check_asm.py: kwgen --batch prints a LeakSanitizer report, exits 23",
                asm + ["--kwgen", bad.kwgen("leak-exit-23")], r"exited 23")
    expect_fail(res, "check_asm.py: an llvm-mc error it cannot classify is not accepted",
                asm + ["--kwgen", bad.kwgen("bogus-asm")], r"cannot classify")
    expect_fail(res, "check_asm.py: a false 'llvm-mc does not check' claim fails",
                asm + ["--kwgen", bad.kwgen("unchecked-claim")], r"no s_set_vgpr_msb banks")


def e2e_cases(res, o, tmp, bad):
    # the main daemon's checks only: the other three daemons run the same
    # binary, so a fault shows there first (and the 13 dependent checks are the main's)
    e2e = [PY, "tests/e2e/run.py", "--golden", "0", "--main-daemon-only"]
    # a report printed at start and a bad exit at the stop: the checks in
    # between add nothing to these two (one of them, a cheap one, runs)
    one = ["--only", "cache columns readable with sqlite3"]
    expect_fail(res, "e2e: a kwgend that prints a LeakSanitizer report",
                e2e + one + ["--kwgend", bad.kwgend("sanitizer-line")], r"FAIL no sanitizer report from any kwgend")
    expect_fail(res, "e2e: a kwgend that exits 23 on SIGTERM",
                e2e + one + ["--kwgend", bad.kwgend("exit-23")], r"FAIL .*exit status 23")
    expect_fail(res, "e2e: the first check fails -> the 13 checks after it count as failed",
                e2e + ["--kwgend", bad.kwgend("tiny-body")], r"(?s)(FAIL .*not run \(generate, then served from the cache failed\).*){13}")


def hardening_cases(res, o, tmp, bad):
    hard = [PY, "tests/e2e/hardening_test.py"]
    expect_fail(res, "hardening inflight: a daemon that never answers 503",
                hard + ["--kwgend", bad.kwgend("never-refuse"), "--only", "inflight"], r"refused none of")
    expect_fail(res, "hardening inflight: a daemon that never serves a hit fails 'hits are never refused'",
                hard + ["--kwgend", bad.kwgend_no_hits(), "--only", "inflight"], r"hits during the overload")
    expect_fail(res, "hardening: a kwgend that prints a LeakSanitizer report",
                hard + ["--kwgend", bad.kwgend("sanitizer-line"), "--only", "corrupt-db"], r"LeakSanitizer")
    # (one kill cycle: the daemon dies in cycle 0)
    expect_fail(res, "hardening kill-loop: workers report a daemon that dies before the kill",
                hard + ["--kwgend", bad.kwgend("dies-early"), "--only", "kill-loop", "--kill-cycles", "1"],
                r"before the kill|FAIL")
    # storage-disk cannot mount: counted as skipped (never passed); CI=true fails it
    env = {"PATH": bad.path_without_mount()}
    rc, out = run(hard + ["--kwgend", o.kwgend, "--only", "storage-disk"], dict(env, CI=""))
    res.check(rc == 0 and re.search(r"^hardening: 1 passed, 0 failed, 1 skipped$", out, re.M),
              "hardening storage-disk without mount: counted as skipped, not passed",
              "exit %d, %s" % (rc, out.strip().splitlines()[-1:]))
    expect_fail(res, "hardening storage-disk without mount under CI=true fails",
                hard + ["--kwgend", o.kwgend, "--only", "storage-disk"], r"skipped under CI", dict(env, CI="true"))


def storage_cases(res, o, tmp, bad):
    st = [PY, "tests/e2e/storage_test.py"]
    expect_fail(res, "storage bounded: cache files past --max-cache-bytes + slack",
                # ~7 KB of files per miss: 500 misses peak near 4 MB, well past 2 MB + 256 KiB
                st + ["--kwgend", bad.kwgend("unbounded-files"), "--only", "bounded", "--misses", "500",
                      "--hits", "60"],
                r"FAIL .*db \+ wal \+ shm peaked at")
    expect_fail(res, "storage lock: writes under a held lock answered after seconds",
                # the first write under the lock waits out --busy-timeout-ms 3000 whatever
                # --lock-seconds says (the lock is released once every client has stopped):
                # 1 s of the four readers' hits instead of 3
                st + ["--kwgend", bad.kwgend("slow-lock"), "--only", "lock", "--lock-seconds", "1"],
                r"FAIL .*a write under the held lock took")


def package_cases(res, o, tmp, bad):
    expect_fail(res, "install_test.sh: man missing fails the man-page check",
                ["sh", "tests/package/install_test.sh"], r"man is not installed",
                {"MAN": os.path.join(tmp, "no-such-man"), "PACKAGE_TEST_ONLY": "man"})


def scaleout_cases(res, o, tmp, bad):
    if not shutil.which("nginx") and not os.path.exists("/usr/sbin/nginx"):
        res.skip("scaleout: kwgen logic --server exiting 2", "nginx is not installed")
        return
    # a small replay (5 configurations, 10 requests: the same checks pass
    # and fail as with 30 and 60): the fault is in the logic step
    expect_fail(res, "scaleout: kwgen logic --server that exits 2",
                [PY, "tests/e2e/scaleout_test.py", "--kwgend", o.kwgend, "--logic", bad.logic_exit_2(),
                 "--sample", "5", "--replay", "10"],
                r"kwgen logic --server pass 1 exits 0 with 0 errors: exit 2")


def alive(pid):
    """pid runs (a zombie waiting for its reaper does not)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def runner_cases(res, o, tmp, bad):
    mk = os.path.join(tmp, "suites.mk")
    with open(mk, "w") as f:
        f.write("ok:\n\t@echo 'x: 3 passed, 0 failed'\n"
                "fails:\n\t@echo '2 passed, 0 failed'; exit 1\n"
                "quiet-fail:\n\t@echo 'all good'; echo '5 passed, 1 failed'\n"
                "sanitizer:\n\t@echo '%s'; echo '4 passed, 0 failed'\n"
                "skips:\n\t@echo 'SKIPPED thing: no tool'; echo '1 passed, 0 failed, 1 skipped'\n"
                "leaves-daemon:\n\t@setsid sleep 120 </dev/null >/dev/null 2>&1 & p=$$!; "
                # make exits once the daemon runs sleep in its own session
                "until [ \"$$(head -c 5 /proc/$$p/cmdline 2>/dev/null)\" = sleep ]; do sleep 0.01; done; "
                "echo '1 passed, 0 failed'\n"
                "chatty:\n\t@for i in 1 2 3 4 5; do echo \"chatty line $$i\"; sleep 0.1; done; "
                "echo 'chatty: 5 passed, 0 failed'\n"
                "busy-a busy-b busy-c waits:\n\t@sleep 0.5; echo '1 passed, 0 failed'\n" % SAN_LEAK)
    runner = [PY, "scripts/run-suites", "--make", "make -f " + mk]
    for suite, show in (("fails", r"make exited"), ("quiet-fail", r"reported 1 failed but exited 0"),
                        ("sanitizer", r"sanitizer report")):
        rc, out = run(runner + ["ok", suite], {"CI": ""})
        last = out.strip().splitlines()[-1] if out.strip() else ""
        res.check(rc != 0 and re.search(show, out) and re.fullmatch(r"\d+ passed, [1-9]\d* failed, \d+ skipped", last),
                  "run-suites: a suite that %s fails make test (and the other suite still runs)" % suite,
                  "exit %d, last line %r" % (rc, last))
    rc, out = run(runner + ["skips", "ok"], {"CI": ""})
    res.check(rc == 0 and out.strip().splitlines()[-1] == "4 passed, 0 failed, 1 skipped",
              "run-suites: a skip is counted apart from passes", out.strip().splitlines()[-1])
    rc, out = run(runner + ["skips", "ok"], {"CI": "true"})
    res.check(rc != 0 and "skipped under CI=true" in out, "run-suites: a skip under CI=true fails",
              "exit %d" % rc)
    # a suite that leaves a process running (in its own session) fails, and
    # the process is gone afterwards
    rc, out = run(runner + ["ok", "leaves-daemon"], {"CI": ""})
    m = re.search(r"leaves-daemon: left 1 process\(es\) running \(killed\): (\d+) (?:setsid )?sleep 120", out)
    gone = m and not alive(int(m.group(1)))
    res.check(rc != 0 and m and gone, "run-suites: a suite that leaves a process running fails; the process is killed",
              "exit %d, %s" % (rc, "process still there" if m and not gone else out.strip().splitlines()[-3:]))
    # side by side (-j 2): each suite's output printed whole, both counted
    rc, out = run(runner + ["-j", "2", "chatty", "ok", "fails"], {"CI": ""})
    block = re.search(r"======== test: make chatty\n((?:chatty line \d\n){5})chatty: 5 passed", out)
    res.check(rc != 0 and block and out.strip().splitlines()[-1] == "10 passed, 1 failed, 0 skipped",
              "run-suites -j 2: a suite's output is printed whole; counts add up; a failure still fails",
              "exit %d, last line %r" % (rc, out.strip().splitlines()[-1:]))
    # the order suites start in: the alone suite first, then longest first by
    # the last run's times, else by the committed estimates
    times, est = os.path.join(tmp, "times.json"), os.path.join(tmp, "estimates.json")
    with open(times, "w") as f:
        f.write('{"ok": 9}')
    with open(est, "w") as f:
        f.write('{"ok": 1, "skips": 5, "chatty": 3, "fails": 7}')
    rc, out = run(runner + ["-j", "2", "--alone", "fails", "--times", times, "--estimates", est,
                            "chatty", "skips", "fails", "ok"], {"CI": ""})
    order = re.findall(r"^test: started (\S+)$", out, re.M)
    res.check(order == ["fails", "ok", "skips", "chatty"],
              "run-suites -j 2: the alone suite first, then longest first (last times, else estimates)",
              "started %r" % order)
    # --cores 2: two computing suites and one that waits run side by side,
    # the third computing one only once one of the first two has ended
    with open(est, "w") as f:
        f.write('{"busy-a": {"seconds": 9, "cpu": 9}, "busy-b": {"seconds": 8, "cpu": 8}, '
                '"busy-c": {"seconds": 7, "cpu": 7}, "waits": {"seconds": 6, "cpu": 0.6}}')
    rc, out = run(runner + ["-j", "4", "--cores", "2", "--estimates", est, "busy-a", "busy-b", "busy-c", "waits"],
                  {"CI": ""})
    events = re.findall(r"^(?:test: started (\S+)|======== test: (\S+) ok)", out, re.M)
    order = [a for a, _ in events if a]
    c_at = events.index(("busy-c", "")) if ("busy-c", "") in events else -1
    ended_before_c = [b for _, b in events[:c_at] if b]
    res.check(rc == 0 and order == ["busy-a", "busy-b", "waits", "busy-c"] and ended_before_c,
              "run-suites -j 4 --cores 2: a waiting suite starts beside two computing ones, a third computing "
              "one only after one of them ended", "exit %d, events %r" % (rc, events))
    res.check(sanitizer_report("x\n" + SAN_UB + "\n") and not sanitizer_report("RuntimeError: x\n"),
              "checks.sanitizer_report: finds UBSan's line, not a Python RuntimeError")


def flags_cases(res, o, tmp, bad):
    expect_fail(res, "flags_check.py: a kwgend --help flag without a row is named",
                [PY, "tests/cli/flags_check.py", "--kwgen", o.kwgen, "--kwgend", bad.kwgend_new_flag("--brand-new-flag")],
                r"FAILED  kwgend --brand-new-flag has a row")


VERIFY_WRAPPER = r'''#!%(py)s -S
# A broken `kwgen verify`: runs the real one, then %(what)s.
import json, os, sys
REAL = %(real)r
MODE = %(mode)r
args = sys.argv[1:]

%(run_real)s

rc, out = run_real([REAL] + args)


def fault(r, path, rc):
    """-> (result, exit) of one file with the fault applied."""
    elf = open(path, "rb").read(4) == b"\x7fELF"
    objdump = not elf and "file format elf64-amdgpu" in open(path, errors="replace").read(4096)
    if MODE == "no-findings" or (MODE == "no-findings-in-objdump" and (elf or objdump)):
        r["findings"] = []
        rc = 0
    elif MODE == "race-on-first-wait":
        for n, line in enumerate(open(path, errors="replace"), 1):
            if "s_wait" in line:
                r["findings"].append({"code": "race_raw", "line": n, "severity": "error", "message": "fake"})
                rc = 1
                break
    elif MODE == "exit-3":
        rc = 3
    return r, rc


if args[:1] == ["verify"] and "--json" in args and rc in (0, 1):
    r, rc = fault(json.loads(out), args[-1], rc)
    out = json.dumps(r).encode()
elif args[:1] == ["verify"] and "--json-lines" in args and rc in (0, 1):
    # one line per file, each with its own "exit"; the process exits with the worst
    lines, rc = [], 0
    for line in out.decode().splitlines():
        r = json.loads(line)
        if r["exit"] in (0, 1):
            r, r["exit"] = fault(r, r["file"], r["exit"])
        rc = max(rc, r["exit"])
        lines.append(json.dumps(r))
    out = "".join(x + "\n" for x in lines).encode()
sys.stdout.buffer.write(out)
sys.exit(rc)
'''


def verify_root(tmp, per_isa=3, ncases=None, isas=None):
    """A small copy of tests/verify/ (the first ncases cases, all by default;
    the first per_isa LLVM files of each ISA, or of the ISAs named in isas;
    aos_loads.s.gz kept): enough for a broken verifier to fail, short enough
    for make test."""
    import json
    src = os.path.join(ROOT, "tests", "verify")
    root = os.path.join(tmp, "verify-root-%d-%s-%s" % (per_isa, ncases, "-".join(isas or ["all"])))
    if os.path.isdir(root):
        return root
    os.makedirs(os.path.join(root, "cases"))
    with open(os.path.join(src, "cases", "cases.jsonl")) as f:
        cases = [json.loads(x) for x in f if x.strip()]
    cases = cases[:ncases] if ncases else cases
    with open(os.path.join(root, "cases", "cases.jsonl"), "w") as f:
        f.write("".join(json.dumps(c) + "\n" for c in cases))
    for c in cases:
        shutil.copy(os.path.join(src, "cases", c["file"] + ".gz"), os.path.join(root, "cases"))
    for isa in sorted(os.listdir(os.path.join(src, "llvm"))):
        d = os.path.join(src, "llvm", isa)
        if not os.path.isdir(d):
            shutil.copy(d, os.path.join(root, "llvm", isa))
            continue
        if isas and isa not in isas:
            continue
        os.makedirs(os.path.join(root, "llvm", isa))
        names = sorted(n for n in os.listdir(d) if n.endswith(".s.gz"))
        keep = names[:per_isa] + (["aos_loads.s.gz"] if "aos_loads.s.gz" in names[per_isa:] else [])
        for n in keep:
            shutil.copy(os.path.join(d, n), os.path.join(root, "llvm", isa, n))
    return root


def verify_cases(res, o, tmp, bad):
    # every fault shows on one ISA's files: the first case (gfx942, a
    # race_raw at line 19) and one gfx942 LLVM file (s_waitcnt, no race),
    # one verifier process per run (they go by ISA), not five
    root = verify_root(tmp, 1, 1, ["gfx942"])
    cache = ["--tool-cache", o.tool_cache] if o.tool_cache else []
    corpus = [PY, "tests/verify/corpus_test.py", "--root", root]
    expect_fail(res, "verify-test: a verifier that reports nothing misses the cases' findings",
                corpus + ["--kwgen", bad.verifier("no-findings")], r"expected race_raw at line 19 not reported")
    expect_fail(res, "verify-test: a race on an LLVM file is a false positive",
                corpus + ["--kwgen", bad.verifier("race-on-first-wait")], r"llvm/gfx942/.*no race finding")
    expect_fail(res, "verify-test: exit 3 is an error", corpus + ["--kwgen", bad.verifier("exit-3")], r"exit 3")
    # (the LLVM file's one harmful mutant: the labels from the tool cache)
    expect_fail(res, "verify-mutants: a verifier that reports nothing detects nothing",
                [PY, "tests/verify/mutants.py", "--short", "1", "--root", root, "--kwgen",
                 bad.verifier("no-findings")] + cache,
                r"FAILED .*detection 0/[1-9]")
    # one case with a finding (and one LLVM file): the lost finding shows on
    # it, no mutant needed.  Only the .s and objdump text are compared: the
    # code-object forms lose the findings too, so they agree with the
    # objdump text (no check of theirs can fail here), and the malformed
    # code objects have no finding to lose
    expect_fail(res, "verify-forms: findings lost in the objdump form and the code object",
                [PY, "tests/verify/objdump_test.py", "--mutants", "0", "--text-forms-only",
                 "--root", root, "--kwgen", bad.verifier("no-findings-in-objdump")] + cache,
                r"FAILED  cases/pr3635_lgkmcnt4_three_in_flight\.s: \.s and objdump form agree .*only \.s: "
                r"\[\('race_raw'")


def bench_cases(res, o, tmp, bad):
    # bench_gen.c checks every output against the golden answers before timing
    bench_gen = os.path.join(os.path.dirname(o.kwgen), "bench", "bench_gen")
    if not os.access(bench_gen, os.X_OK):
        rc = subprocess.run(["make", "-s", os.path.relpath(bench_gen, ROOT)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if rc != 0:
            res.fail("bench_gen builds", "make exited %d" % rc)
            return
    import gzip
    import itertools
    import json
    # the first 400 pairs: read only as far as they go (not the ~60 MB whole)
    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        reqs = [x.rstrip("\n") for x in itertools.islice(f, 400)]
    with gzip.open(os.path.join(ROOT, "tests", "golden", "answers.jsonl.gz"), "rt") as f:
        answers = [x.rstrip("\n") for x in itertools.islice(f, 400)]
    for i, a in enumerate(answers):
        obj = json.loads(a)
        if isinstance(obj.get("asm"), str) and obj["asm"]:
            obj["asm"] = obj["asm"].replace(" ", "  ", 1)   # one answer wrong by one space
            answers[i] = json.dumps(obj)
            break
    rq, an = os.path.join(tmp, "bench-req.jsonl"), os.path.join(tmp, "bench-ans.jsonl")
    open(rq, "w").write("\n".join(reqs) + "\n")
    open(an, "w").write("\n".join(answers) + "\n")
    expect_fail(res, "bench_gen: an output that differs from its golden answer stops the timing",
                [bench_gen, rq, an, "1", "1"], r"differ from the golden answers: no timing")
    # bench-http fails on non-2xx answers: a daemon that refuses most misses
    if not shutil.which("wrk") or not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")):
        res.skip("bench-http: non-2xx answers fail it", "wrk or nginx is not installed")
        return
    # kwgend with one generation slot: most concurrent misses get 503
    w = bad.kwgend_with("one-slot", "--max-inflight", "1", "--workers", "1")
    expect_fail(res, "bench-http: 503s under load fail it (and are counted)",
                ["sh", "bench/http.sh"], r"FAILED  misses: [1-9]\d* non-2xx",
                {"KWGEND": w, "DURATION": "1", "CONNS": "16", "ONLY": "misses"})


CASES = [("runner", runner_cases), ("bench", bench_cases), ("flags", flags_cases), ("golden", golden_cases), ("e2e", e2e_cases),
         ("hardening", hardening_cases), ("storage", storage_cases), ("package", package_cases),
         ("scaleout", scaleout_cases), ("verify", verify_cases)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    ap.add_argument("--tool-cache", help="the verify suites' cache of llvm-mc, llvm-objdump and ld.lld "
                    "outputs (tests/verify/batch.py), passed to objdump_test.py")
    ap.add_argument("--only", default="", help="comma-separated: " + ",".join(n for n, _ in CASES))
    o = ap.parse_args()
    o.kwgen, o.kwgend = os.path.abspath(o.kwgen), os.path.abspath(o.kwgend)
    only = set(filter(None, o.only.split(",")))
    res = Results("selftest")
    with tempfile.TemporaryDirectory(prefix="kwgen-selftest-") as tmp:
        bad = Broken(o, tmp)
        for name, fn in CASES:
            if not only or name in only:
                t0, c0 = time.time(), cpu_seconds()
                fn(res, o, tmp, bad)
                print("        (%s: %.1f s, %.1f s cpu)" % (name, time.time() - t0, cpu_seconds() - c0),
                      flush=True)
    res.finish()


if __name__ == "__main__":
    main()
