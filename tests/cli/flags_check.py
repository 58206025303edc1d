#!/usr/bin/env python3
"""Every flag that a program's --help names has a row in the flag table of
tests/README.md ("## Every flag and its test"), and every row names a test
file that exists and exercises that flag (the file contains the flag text).

  python3 tests/cli/flags_check.py [--kwgen build/kwgen] [--kwgend build/kwgend]

Programs: kwgen (its --help also names the subcommands' flags: a row for
kwgen or for any kwgen subcommand covers those), kwgen logic, kwgen verify,
kwgen cache, kwgend.  A flag without a row fails with a message naming the
program and the flag.  Last line: `flags: N passed, N failed`.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import Results, exit_problems  # noqa: E402

README = os.path.join(ROOT, "tests", "README.md")
HEADING = "## Every flag and its test"
LONG_RE = re.compile(r"(?<![\w-])(--[A-Za-z][A-Za-z0-9-]*)")
SHORT_RE = re.compile(r"^\s+(-[A-Za-z])\b[ ,]", re.M)
ROW_RE = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|([^|]*)\|(.*)\|\s*$")
PATH_RE = re.compile(r"[\w./-]+\.(?:py|sh|c|json|lua|md)\b")


def help_flags(cmd):
    """Flags named in `cmd --help` (stdout and stderr), in order of appearance."""
    p = subprocess.run(cmd + ["--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
    problems = exit_problems(" ".join(os.path.basename(c) for c in cmd) + " --help", p.returncode,
                             p.stderr, allowed=(0,))
    flags = []
    for f in LONG_RE.findall(text) + SHORT_RE.findall(text):
        if f not in flags:
            flags.append(f)
    return flags, problems


def read_table():
    """[(program, flag, [test paths], what), ...] from tests/README.md; the
    test column names one or more files (`tests/a.py`, `tests/b.py`)."""
    with open(README) as f:
        text = f.read()
    if HEADING not in text:
        return None
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        m = ROW_RE.match(line)
        if m:
            rows.append((m.group(1).strip(), m.group(2).strip(), PATH_RE.findall(m.group(3)),
                         m.group(4).strip()))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    o = ap.parse_args()
    res = Results("flags")
    programs = [("kwgen", [o.kwgen]), ("kwgen logic", [o.kwgen, "logic"]),
                ("kwgen verify", [o.kwgen, "verify"]), ("kwgen cache", [o.kwgen, "cache"]),
                ("kwgend", [o.kwgend])]
    rows = read_table()
    if rows is None:
        res.fail("tests/README.md has a %r section" % HEADING)
        res.finish()
    table = {}
    for prog, flag, paths, what in rows:
        table.setdefault((prog, flag), []).append((paths, what))
    sub_named = set()
    for prog, cmd in programs[1:4]:
        sub_named.update(help_flags(cmd)[0])
    for prog, cmd in programs:
        flags, problems = help_flags(cmd)
        if prog == "kwgen":   # a subcommand's flag is checked against the subcommand's rows
            flags = [f for f in flags if f not in sub_named]
        if problems:
            res.fail("%s --help runs" % prog, "; ".join(problems))
            continue
        if not flags:
            res.fail("%s --help names flags" % prog, "none found")
            continue
        for flag in flags:
            if prog == "kwgen":
                owners = [p for p in table if p[1] == flag and (p[0] == "kwgen" or p[0].startswith("kwgen "))]
            else:
                owners = [(prog, flag)] if (prog, flag) in table else []
            if not owners:
                res.fail("%s %s has a row" % (prog, flag),
                         "`%s --help` names %s, but tests/README.md (%s) has no row "
                         "| `%s` | `%s` | tests/... | ... | for it: add a test and a row"
                         % (prog, flag, HEADING, prog, flag))
                continue
            bad = []
            named = []
            for owner in owners:
                for paths, what in table[owner]:
                    if not paths:
                        bad.append("the row names no test file")
                    found = False
                    for path in paths:
                        full = os.path.join(ROOT, path)
                        if not os.path.isfile(full):
                            bad.append("%s: no such file" % path)
                        elif flag in open(full, encoding="utf-8", errors="replace").read():
                            found = True
                        named.append(path)
                    if paths and not found:
                        bad.append("none of %s contains %s" % (", ".join(paths), flag))
            if bad:
                res.fail("%s %s has a test" % (prog, flag), "; ".join(bad))
            else:
                res.ok("%s %s -> %s" % (prog, flag, ", ".join(named)))
    # rows for flags no --help names any more
    named = set()
    for prog, cmd in programs:
        named.update((prog, f) for f in help_flags(cmd)[0])
    for prog, flag in table:
        if (prog, flag) not in named and not (prog.startswith("kwgen") and ("kwgen", flag) in named):
            if prog not in ("kwgen (mode)",):
                res.fail("row %s %s" % (prog, flag), "no --help names it (stale row)")
    res.finish()


if __name__ == "__main__":
    main()
