#!/usr/bin/env python3
"""Run the shell examples of README.md and of the man pages' EXAMPLES as
written, and compare their output where the document shows it.

    docs.py [--doc README.md] [--doc man/kwgen.1] ... [--list]

Each document runs in its own temporary copy of the source tree (with the
current build/), one block after another in document order, with `bash -e`
and build/ on PATH (the man pages call `kwgen`, `kwgend`).  When the kernel
allows it (unshare -rn) the document runs in a private network namespace,
so a block that starts kwgend on its default port 8080 does not meet other
daemons on this machine; otherwise (or with KWGEN_JOURNEYS_NO_NETNS=1) port
8080 in the blocks is replaced by a free port (and a bare `build/kwgend`
gets `--listen 127.0.0.1:PORT`).

Markers, written just before a block (tests/journeys/README.md):

    README.md:   <!-- journeys: skip REASON -->     not run (a block that cannot run inside
                                                    `make test`, e.g. `make test`); counted as
                                                    a passed check that the reason is given
                 <!-- journeys: background -->      a long-running command (a daemon):
                                                    started, waited for until port 8080
                                                    answers, stopped after the document
                 <!-- journeys: daemon -->          needs a daemon on 8080: `build/kwgend`
                                                    is started first unless one runs
                 <!-- journeys: exit N -->          the block exits N (default 0)
                 <!-- journeys: output -->          the next fenced block is its output
    man pages:   .\\" journeys: skip REASON        (same words, as a troff comment)

A shell block is a fence tagged sh, shell or bash.  Its output is the next
fenced block when only a short line ("prints", "gives:") or an output
marker stands between them: a json block is compared as JSON with the last
JSON document on stdout, any other block must be the end of stdout.
Prints one line per block and `docs: N passed, N failed, N skipped`;
exits 1 if any block failed.
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Tally, run  # noqa: E402

SHELL_TAGS = {"sh", "shell", "bash"}
MARK_MD = re.compile(r"^\s*<!--\s*journeys:\s*(.*?)\s*-->\s*$")
MARK_MAN = re.compile(r'^\.\\"\s*journeys:\s*(.*?)\s*$')
OUTPUT_LEAD = re.compile(r"^(it )?(prints|outputs|gives|answers|shows|writes)( something like)?:?$", re.I)


class Block:
    def __init__(self, doc, line, text, marks):
        self.doc, self.line, self.text, self.marks = doc, line, text, marks
        self.output = None       # (tag, text) of the expected output
        self.where = "%s:%d" % (doc, line)

    def mark(self, word):
        for m in self.marks:
            if m == word or m.startswith(word + " "):
                return m[len(word):].strip() or True
        return None


def parse_markdown(path, name):
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, fences = [], []
    marks, i = [], 0
    between = []  # non-blank, non-marker lines since the last fence closed
    while i < len(lines):
        line = lines[i]
        m = MARK_MD.match(line)
        if m:
            marks.append(m.group(1))
            i += 1
            continue
        f = re.match(r"^(\s*)(```+|~~~+)\s*([\w+-]*)", line)
        if not f:
            if line.strip():
                between.append(line.strip())
                # a paragraph between blocks ends the markers' reach
                if not line.strip().startswith("<!--"):
                    marks = [m for m in marks if m == "output"] if len(between) <= 1 else []
            i += 1
            continue
        fence, tag = f.group(2), f.group(3).lower()
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        body = "\n".join(l[len(f.group(1)):] if l.startswith(f.group(1)) else l for l in lines[start:j])
        fences.append((tag, body, start, marks, list(between)))
        marks, between = [], []
        i = j + 1
    prev_shell = None
    for tag, body, start, mks, betw in fences:
        is_output = prev_shell is not None and (
            "output" in mks or (len(betw) <= 1 and all(OUTPUT_LEAD.match(b) for b in betw) and betw))
        if is_output and tag not in SHELL_TAGS:
            prev_shell.output = (tag, body)
            prev_shell = None
            continue
        if tag in SHELL_TAGS:
            b = Block(name, start, body, mks)
            blocks.append(b)
            prev_shell = b
        else:
            prev_shell = None
    return blocks


def troff_text(s):
    """Undo the troff escapes used in example lines."""
    s = s.replace("\\-", "-").replace('\\(dq', '"').replace("\\(aq", "'").replace("\\e", "\\")
    s = s.replace("\\&", "").replace("\\ ", " ")
    return s


def parse_man(path, name):
    """Blocks of .nf ... .fi in the EXAMPLES section."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, in_ex, marks, i = [], False, [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SH"):
            in_ex = line.split(None, 1)[1].strip().strip('"').upper() == "EXAMPLES" if " " in line else False
            marks = []
        elif in_ex and MARK_MAN.match(line):
            marks.append(MARK_MAN.match(line).group(1))
        elif in_ex and line.strip() == ".nf":
            j = i + 1
            while j < len(lines) and lines[j].strip() != ".fi":
                j += 1
            body = "\n".join(troff_text(l) for l in lines[i + 1:j] if not l.startswith('.\\"'))
            blocks.append(Block(name, i + 2, body, marks))
            marks = []
            i = j
        i += 1
    return blocks


def extract(path):
    name = os.path.relpath(path, ROOT)
    if re.search(r"\.\d$", path):
        return parse_man(path, name)
    return parse_markdown(path, name)


# ---- running -----------------------------------------------------------

def netns_ok():
    if os.environ.get("KWGEN_JOURNEYS_NO_NETNS"):
        return False
    try:
        return subprocess.run(["unshare", "-rn", "true"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def port_open(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def copy_tree(dst, build):
    """The source tree, with the build directory as build/ (copied with its
    times, so `make` has nothing to redo).  Not copied: the suites' caches
    and test programs (verify-cache/, pycache/, tests/: ~27 MB of the
    build, written anew for each document), which no document's block uses
    and `make` (all) does not build."""
    def ignore(d, names):
        if os.path.abspath(d) == ROOT:
            return [n for n in names if n == ".git" or n == "build" or n.startswith("build-") or n.endswith(".db")
                    or n.startswith("kwgen-cache")]
        return [n for n in names if n == "__pycache__"]
    shutil.copytree(ROOT, dst, symlinks=True, ignore=ignore)
    if os.path.isdir(build):
        top = os.path.abspath(build)
        shutil.copytree(build, os.path.join(dst, "build"), symlinks=True,
                        ignore=lambda d, names: [n for n in names if n in ("verify-cache", "pycache", "tests")]
                        if os.path.abspath(d) == top else [])


def last_json(text):
    """The last JSON document that ends stdout."""
    lines = text.rstrip().split("\n")
    for k in range(len(lines) - 1, -1, -1):
        if lines[k][:1] in "{[":
            try:
                return json.loads("\n".join(lines[k:]))
            except ValueError:
                continue
    raise ValueError("no JSON document ends the output")


class Runner:
    def __init__(self, tally, workdir, port, env):
        self.t, self.dir, self.port, self.env = tally, workdir, port, env
        self.background = []

    def adapt(self, text):
        if self.port == 8080:
            return text
        text = re.sub(r"(127\.0\.0\.1|localhost):8080\b", r"\g<1>:%d" % self.port, text)
        return re.sub(r"(^|[\s;&|(])((?:build/)?kwgend)(?![\w-])(?!.*--listen)([^\n]*)",
                      r"\1\2 --listen 127.0.0.1:%d\3" % self.port, text, flags=re.M)

    def start_background(self, text, where):
        log = open(os.path.join(self.dir, ".journeys-bg-%d.log" % len(self.background)), "wb")
        p = subprocess.Popen(["bash", "-c", self.adapt(text)], cwd=self.dir, env=self.env, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
        self.background.append((p, log, where))
        deadline = time.time() + 30
        while time.time() < deadline and p.poll() is None and not port_open(self.port):
            time.sleep(0.05)
        return p.poll() is None and port_open(self.port)

    def ensure_daemon(self, where):
        if port_open(self.port):
            return True
        return self.start_background("build/kwgend", where + " (daemon for the block)")

    def stop_all(self):
        for p, log, where in self.background:
            if p.poll() is None:
                os.killpg(p.pid, 15)
                try:
                    rc = p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, 9)
                    rc = p.wait()
                self.t.check(rc in (0, -15, 143), "%s: the background command stops cleanly on SIGTERM" % where,
                             "exit %s" % rc)
            else:
                log.flush()
                self.t.check(False, "%s: the background command kept running" % where,
                             "it exited %s: %s" % (p.returncode, open(log.name, "rb").read()[-600:].decode("utf-8", "replace")))
            log.close()
        self.background = []

    def block(self, b):
        skip = b.mark("skip")
        if skip:
            # by design never runnable here (e.g. `make test` itself): not a
            # check, so neither passed nor skipped; the reason is required
            self.t.check(skip is not True, "%s: not run (%s): %s" % (b.where, b.text.strip().split("\n")[0][:60],
                                                                   skip if skip is not True else "?"),
                         "a skip marker must give its reason: <!-- journeys: skip REASON -->")
            return
        first = b.text.strip().split("\n")[0][:70]
        if b.mark("background"):
            self.t.check(self.start_background(b.text, b.where), "%s: `%s` runs and listens" % (b.where, first))
            return
        if b.mark("daemon") and not self.ensure_daemon(b.where):
            self.t.check(False, "%s: a daemon for `%s`" % (b.where, first), "build/kwgend did not start")
            return
        want_rc = int(b.mark("exit")) if b.mark("exit") not in (None, True) else 0
        r = run(["bash", "-e", "-o", "pipefail", "-c", self.adapt(b.text)], env=self.env, cwd=self.dir, timeout=600)
        out, err = r.out.decode("utf-8", "replace"), r.err.decode("utf-8", "replace")
        ok = self.t.check(r.rc == want_rc, "%s: `%s` exits %d" % (b.where, first, want_rc),
                          "exit %d\nstdout: %s\nstderr: %s" % (r.rc, out[-800:], err[-800:]))
        if not ok or not b.output:
            return
        tag, want = b.output
        if tag == "json":
            try:
                got = last_json(out)
                same = got == json.loads(want)
                detail = "got %s" % json.dumps(got)[:800]
            except ValueError as e:
                same, detail = False, "%s: %s" % (e, out[-800:])
        else:
            same = out.rstrip().endswith(want.rstrip())
            detail = "stdout ends: %s" % out[-800:]
        self.t.check(same, "%s: `%s` prints what the document shows" % (b.where, first), detail)


def run_doc(path, tally, port, build, work=None):
    """The blocks of one document in a copy of the tree: work, a copy the
    caller made (shared by the documents, one after another: the entries
    this document's blocks add at its top are removed at the end), or a
    copy of its own."""
    blocks = extract(path)
    with tempfile.TemporaryDirectory(prefix="kwgen-journeys-docs-") as tmp:
        if not work:
            work = os.path.join(tmp, "src")
            copy_tree(work, build)
        before = set(os.listdir(work))
        scratch = os.path.join(tmp, "scratch")  # the blocks' ${TMPDIR:-/tmp}: their own
        os.makedirs(scratch)
        env = dict(os.environ)
        env["TMPDIR"] = scratch
        env["PATH"] = os.path.join(work, "build") + os.pathsep + env.get("PATH", "")
        env.pop("MAKEFLAGS", None)
        env.pop("MAKELEVEL", None)
        r = Runner(tally, work, port, env)
        try:
            for b in blocks:
                r.block(b)
        finally:
            r.stop_all()
        # a user following the document keeps a clean checkout: scratch
        # files go to a temporary directory (the daemon's cache file and
        # this runner's logs are expected)
        left = sorted(f for f in set(os.listdir(work)) - before
                      if not f.startswith("kwgen-cache.db") and not f.startswith(".journeys-bg-"))
        tally.check(not left, "%s: its blocks leave no scratch files in the checkout" % os.path.basename(path),
                    "left: %s" % ", ".join(left))
        # the next document starts from the same checkout
        for f in set(os.listdir(work)) - before:
            f = os.path.join(work, f)
            if os.path.isdir(f) and not os.path.islink(f):
                shutil.rmtree(f, ignore_errors=True)
            else:
                os.unlink(f)
    return len(blocks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--doc", action="append", help="README.md or man/*.[18] (default: all of them)")
    ap.add_argument("--build", default="build", help="the build directory the blocks see as build/")
    ap.add_argument("--list", action="store_true", help="print the blocks and their markers, run nothing")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)  # the copy of the tree the documents share
    a = ap.parse_args()
    docs = a.doc or (["README.md"] + sorted(os.path.join("man", f) for f in os.listdir(os.path.join(ROOT, "man"))
                                          if re.search(r"\.\d$", f)))
    docs = [d if os.path.isabs(d) else os.path.join(ROOT, d) for d in docs]
    build = os.path.abspath(os.path.join(ROOT, a.build))
    if a.list:
        for d in docs:
            for b in extract(d):
                print("%s %s%s\n%s\n" % (b.where, b.marks, " +output(%s)" % b.output[0] if b.output else "",
                                         b.text))
        return 0
    t = Tally("docs")
    if a.inner:
        for d in docs:
            n = run_doc(d, t, 8080, build, a.work)
            print("docs: %s: %d shell blocks" % (os.path.relpath(d, ROOT), n), flush=True)
        print(t.line(), flush=True)
        return 1 if t.failed else 0
    # one copy of the tree (~20 MB with the build) for every document, one
    # after another: not a copy per document (~0.45 s of CPU each)
    share = tempfile.mkdtemp(prefix="kwgen-journeys-tree-")
    try:
        work = os.path.join(share, "src")
        copy_tree(work, build)
        return run_docs(a, docs, build, t, work)
    finally:
        shutil.rmtree(share, ignore_errors=True)


def run_docs(a, docs, build, t, work):
    if netns_ok():
        # one private network namespace per document: port 8080 is its own
        for d in docs:
            p = subprocess.Popen(["unshare", "-rn", "bash", "-c", 'ip link set lo up 2>/dev/null || true; exec "$@"',
                                  "-", sys.executable, os.path.abspath(__file__), "--inner", "--doc", d,
                                  "--build", build, "--work", work],
                                 stdout=subprocess.PIPE, text=True)
            counted, inner_failed = False, 0
            for line in p.stdout:
                m = re.match(r"^docs: (\d+) passed, (\d+) failed, (\d+) skipped$", line.strip())
                if m:
                    t.passed += int(m.group(1))
                    t.failed += int(m.group(2))
                    t.skipped += int(m.group(3))
                    inner_failed = int(m.group(2))
                    counted = True
                else:
                    print(line, end="", flush=True)
            rc = p.wait()
            t.check(counted and (rc != 0) == (inner_failed > 0),
                    "%s: the examples ran to the end" % os.path.relpath(d, ROOT), "exit %d" % rc)
        print(t.line(), flush=True)
        return 1 if t.failed else 0
    print("docs: no private network namespace here (unshare -rn); port 8080 in the blocks is replaced by a free port",
          flush=True)
    for d in docs:
        n = run_doc(d, t, free_port(), build, work)
        print("docs: %s: %d shell blocks" % (os.path.relpath(d, ROOT), n), flush=True)
    print(t.line(), flush=True)
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
