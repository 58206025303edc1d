"""Shared helpers for the Python test suites: sanitizer-report detection,
counted results (passed / failed / skipped) and the closing count line that
scripts/run-suites reads (tests/README.md).  Stdlib only.
"""
import os
import re
import subprocess
import sys
import tempfile

# A report from AddressSanitizer, LeakSanitizer or UndefinedBehaviorSanitizer
# in a program's stderr (or stdout).
SANITIZER_RE = re.compile(
    r"(==\d+==ERROR: (AddressSanitizer|LeakSanitizer)"
    r"|SUMMARY: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)"
    r"|WARNING: (AddressSanitizer|LeakSanitizer)"
    r"|\S+:\d+:\d+: runtime error: "
    r"|^runtime error: )", re.M)


def sanitizer_report(text):
    """Return the first line of a sanitizer report in text (str or bytes), or None."""
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    m = SANITIZER_RE.search(text)
    if not m:
        return None
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.start())
    return text[start:end if end >= 0 else len(text)].strip()


def ci():
    """True when CI=true (or 1/yes) is set: skips then count as failures."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


class Results:
    """Counted checks.  ok()/fail()/skip() print one line each; line() prints
    the closing `name: N passed, N failed, N skipped` line; status() is the
    exit status (non-zero on any failure, and on any skip under CI=true)."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []

    def ok(self, what):
        self.passed += 1
        print("ok      %s" % what, flush=True)

    def fail(self, what, why=""):
        self.failed += 1
        self.failures.append(what)
        print("FAILED  %s%s" % (what, (": " + why) if why else ""), flush=True)

    def skip(self, what, why):
        self.skipped += 1
        print("SKIPPED %s: %s" % (what, why), flush=True)

    def check(self, cond, what, why=""):
        if cond:
            self.ok(what)
        else:
            self.fail(what, why)
        return bool(cond)

    def not_run(self, what, because):
        """A check that depends on one that failed: counted as failed."""
        self.fail(what, "not run: %s" % because)

    def line(self):
        print("%s: %d passed, %d failed, %d skipped"
              % (self.name, self.passed, self.failed, self.skipped), flush=True)

    def status(self):
        if self.failed:
            return 1
        if self.skipped and ci():
            print("%s: %d skipped under CI=true" % (self.name, self.skipped))
            return 1
        return 0

    def finish(self):
        for f in self.failures:
            print("  failed: %s" % f)
        self.line()
        sys.exit(self.status())


def exit_problems(what, returncode, stderr, allowed=(0,)):
    """Problems with a finished program: an exit status not in allowed (a
    negative status is a signal), or a sanitizer report in its stderr.
    Returns a list of strings (empty = fine)."""
    problems = []
    if returncode not in allowed:
        if returncode is not None and returncode < 0:
            problems.append("%s was killed by signal %d" % (what, -returncode))
        else:
            problems.append("%s exited %s (allowed: %s)"
                            % (what, returncode, ", ".join(str(a) for a in allowed)))
    rep = sanitizer_report(stderr)
    if rep:
        problems.append("%s: sanitizer report: %s" % (what, rep[:300]))
    return problems


def kwgen_batch(kwgen, lines, timeout, who):
    """All request lines (str, without newlines) in one `kwgen --batch`
    process.  Returns (answers, stderr, problems): the answer lines (str),
    kwgen's stderr (bytes) and what is wrong (an exit status, a sanitizer
    report, a number of answer lines other than of requests; empty = fine).
    The requests go through a file, not a pipe: ~40 MB in 4 KiB pipe writes
    cost more CPU (both sides' system calls) than kwgen's parsing of them.
    A missing kwgen or one past timeout seconds ends the script, naming who."""
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, \
            tempfile.TemporaryFile() as ferr:
        for k in range(0, len(lines), 4096):
            fin.write("".join(t + "\n" for t in lines[k:k + 4096]).encode())
        fin.seek(0)
        try:
            rc = subprocess.run([kwgen, "--batch"], stdin=fin, stdout=fout, stderr=ferr,
                                timeout=timeout).returncode
        except FileNotFoundError:
            sys.exit("%s: %s not found (build it with `make`)" % (who, kwgen))
        except subprocess.TimeoutExpired:
            sys.exit("%s: %s --batch did not finish in %d s" % (who, kwgen, timeout))
        fout.seek(0)
        ferr.seek(0)
        out = fout.read().decode("utf-8", "replace").split("\n")
        err = ferr.read()
    if out and out[-1] == "":
        out.pop()
    problems = exit_problems("kwgen --batch", rc, err)
    if len(out) != len(lines):
        problems.append("kwgen --batch printed %d lines for %d requests" % (len(out), len(lines)))
    return out, err, problems
