#!/usr/bin/env python3
"""Tests of `kwgen logic` (logic-file import).

  logic_test.py --kwgen "build/kwgen logic" [--corpus DIR]

1. Every fixture tests/logic/fixtures/gfxNNN.yaml (written from corpus lines by
   gen_fixtures.py) is imported; each request must equal the corpus line's
   isa/kernel/tPA/tPB/states, solutions the corpus could not derive must be
   reported (by index and line), and the exit status is 1 exactly then.
2. --unique prints each distinct request once; --generators is passed through.
3. A malformed YAML file fails with status 2 and "FILE:LINE:COLUMN:";
   a YAML file that is not a logic file fails with status 2 and says so;
   a missing file fails with status 2.
4. With --corpus DIR (or $KWGEN_CORPUS): every corpus line of every ISA is
   written back into a logic file and must derive to the same tPA/tPB/states.
Prints "logic: N passed, M failed".
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from checks import sanitizer_report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def run(cmd, *args):
    """Run `kwgen logic ...`; a sanitizer report in its stderr is a failure."""
    p = subprocess.run(cmd + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    err = p.stderr.decode("utf-8", "replace")
    rep = sanitizer_report(err)
    check(rep is None, "%s: no sanitizer report (%s)" % (" ".join(list(args)[-1:]), rep))
    return p.returncode, p.stdout.decode("utf-8", "replace"), err


def compare_file(cmd, yaml_path, exp_path, label):
    """Import yaml_path and compare with exp_path; returns (#ok, #bad)."""
    rc, out, err = run(cmd, "--no-progress", yaml_path)
    exp = [json.loads(l) for l in open(exp_path)]
    got = [json.loads(l) for l in out.splitlines() if l.strip()]
    errs = {int(m.group(1)) for m in re.finditer(r"solution #(\d+) \(line \d+\)", err)}
    want_errs = {i for i, e in enumerate(exp) if "deriveError" in e}
    check(errs == want_errs, "%s: derivation errors at %s, expected %s\n%s" % (label, sorted(errs), sorted(want_errs), err))
    check(rc == (1 if want_errs else 0), "%s: exit status %d\n%s" % (label, rc, err))
    ok = [e for e in exp if "deriveError" not in e]
    check(len(got) == len(ok), "%s: %d requests, expected %d" % (label, len(got), len(ok)))
    bad = 0
    for i, (g, e) in enumerate(zip(got, ok)):
        for k in ("isa", "kernel", "tPA", "tPB", "states"):
            if g.get(k) != e[k]:
                bad += 1
                if bad <= 3:
                    print("  %s request %d: %s differs:\n    got  %s\n    want %s" % (
                        label, i, k, json.dumps(g.get(k), sort_keys=True), json.dumps(e[k], sort_keys=True)))
                break
    check(bad == 0, "%s: %d of %d requests differ from the corpus" % (label, bad, len(ok)))
    return len(ok) - bad, bad, len(got), err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default="build/kwgen logic")
    ap.add_argument("--corpus", default=os.environ.get("KWGEN_CORPUS", ""))
    a = ap.parse_args()
    cmd = shlex.split(a.kwgen)

    fixtures = sorted(f for f in os.listdir(FIX) if re.match(r"gfx\w+\.yaml$", f))
    check(len(fixtures) >= 8, "fixtures present (%d)" % len(fixtures))
    total = 0
    for f in fixtures:
        n, bad, _, _ = compare_file(cmd, os.path.join(FIX, f), os.path.join(FIX, f[:-5] + ".expected.jsonl"), f)
        total += n
    print("logic: fixtures: %d requests equal their corpus lines" % total)

    # GlobalReadVectorWidth defaults: a solution that leaves the key out (or
    # gives -1) gets what Tensile derives; solutions 2k and 2k+1 (k < 4) of the
    # fixture are twins, 2k+1 stating the derived widths; 8.. are refused.
    f = os.path.join(FIX, "grvw-default.yaml")
    rc, out, err = run(cmd, "--no-progress", f)
    got = [json.loads(l) for l in out.splitlines() if l.strip()]
    idx = [q.get("source", {}).get("SolutionIndex") for q in got]
    check(rc == 1 and idx == list(range(8)), "grvw-default: status %d, solutions %s\n%s" % (rc, idx, err))
    want = {0: (8, 8), 2: (4, 1), 4: (4, 2), 6: (2, 2)}  # (A, B) as Tensile derives them
    for i, (wa, wb) in want.items():
        if i + 1 >= len(got):
            break
        a_, b_ = got[i], got[i + 1]
        same = all(a_.get(k) == b_.get(k) for k in ("isa", "kernel", "tPA", "tPB", "states"))
        # TLUA and not UnrollMajorLDSA: A's coalesced vector is the width; B: UnrollMajorLDSB
        widths = (a_["tPA"]["nwcv"], b_["tPB"]["nwcv"])
        check(same and widths == (wa, wb), "grvw-default: solution %d derives widths %s (want %s), equal to "
              "its twin: %s" % (i, widths, (wa, wb), same))
    for i, want_err in ((8, "missing GlobalReadVectorWidthA (Tensile derives it only for MFMA/WMMA and dot2"),
                        (9, "GlobalReadVectorWidthA = -2 is for a skinny macro tile only"),
                        (10, "GlobalReadVectorWidthA * bytes per element is 32; Tensile rejects more than 16"),
                        (11, "missing MacroTile1 (needed to derive GlobalReadVectorWidthB")):
        check(re.search(r"solution #%d \(line \d+\): %s" % (i, re.escape(want_err)), err),
              "grvw-default: solution %d refused with %r:\n%s" % (i, want_err, err))

    # --unique and the summary
    f = os.path.join(FIX, "gfx942.yaml")
    exp = [l for l in open(os.path.join(FIX, "gfx942.expected.jsonl")) if "deriveError" not in l]
    rc, out, err = run(cmd, "--unique", "--no-progress", f)
    lines = out.splitlines()
    check(len(lines) == len(set(lines)) == len(set(exp)), "--unique: %d lines, %d distinct expected" % (len(lines), len(set(exp))))
    m = re.search(r"(\d+) solutions?, (\d+) unique requests?", err)
    check(m and int(m.group(1)) == len(open(os.path.join(FIX, "gfx942.expected.jsonl")).readlines())
          and int(m.group(2)) == len(set(exp)), "summary line: %r" % err.strip().splitlines()[-1:])
    rc, out, err = run(cmd, "--no-progress", "--generators", "syncThreads,accToArchMapper", "--isa", "gfx90a", f)
    r0 = json.loads(out.splitlines()[0])
    check(r0.get("generators") == [{"name": "syncThreads"}, {"name": "accToArchMapper"}] and r0["isa"] == "gfx90a",
          "--generators/--isa passed through: %s %s" % (r0.get("generators"), r0.get("isa")))
    # --isa and --generators are checked locally with libkwgen's tables, before any file is read
    for args, want in ((["--isa", "gfx1030"], "unknown ISA \"gfx1030\"; supported: gfx908"),
                       (["--generators", "wiat"], "allowed: tdmWait, wait"),
                       (["--generators", "wait"], "skipGlobalRead")):
        rc, out, err = run(cmd, *args, f)
        check(rc == 2 and want in err and out == "" and "usage:" not in err,
              "%s checked locally: status %d, stderr %r" % (" ".join(args), rc, err[-300:]))
    g = '[{"name":"wait","args":{"skipGlobalRead":0,"skipLocalWrite":-1,"skipLocalRead":-1}}]'
    rc, out, err = run(cmd, "--no-progress", "--generators", g, f)
    check(json.loads(out.splitlines()[0]).get("generators") == json.loads(g), "--generators JSON array passed through")
    rc, out, err = run(cmd, "--generators", "[]", f)
    check(rc == 2, "--generators []: status %d" % rc)
    rc, out, err = run(cmd, "--quiet", "-o", os.devnull, f)
    check(rc == 1 and "solutions," not in err, "--quiet and -o: status %d, stderr %r" % (rc, err[-200:]))

    # bad input
    rc, out, err = run(cmd, os.path.join(FIX, "malformed.yaml"))
    check(rc == 2 and re.search(r"malformed\.yaml:8:\d+: malformed YAML", err), "malformed YAML: status %d: %s" % (rc, err))
    rc, out, err = run(cmd, os.path.join(FIX, "not-logic.yaml"))
    check(rc == 2 and "not a Tensile logic file" in err, "not a logic file: status %d: %s" % (rc, err))
    rc, out, err = run(cmd, os.path.join(FIX, "no-such-file.yaml"))
    check(rc == 2 and "No such file" in err, "missing file: status %d: %s" % (rc, err))
    rc, out, err = run(cmd, "--batch", "0", f)
    check(rc == 2 and "--batch" in err, "bad option: status %d" % rc)
    with tempfile.TemporaryDirectory() as t:
        cases = {
            "scalar.yaml": ("42\n", "top level is a scalar"),
            "empty.yaml": ("", "empty file"),
            "alias.yaml": ("- {MinimumRequiredVersion: 1}\n- x\n- gfx942\n- []\n- {}\n- - *nope\n", "names no anchor"),
            "badkey.yaml": ("- {MinimumRequiredVersion: 1}\n- x\n- gfx942\n- []\n- {}\n- - {[1]: 2}\n", "mapping keys must be scalars"),
            "arch.yaml": ("- {MinimumRequiredVersion: 1}\n- x\n- 12\n- []\n- {}\n- - {}\n", "gfx target"),
            "twodocs.yaml": ("- {MinimumRequiredVersion: 1}\n---\n- b\n", "more than one YAML document"),
            "utf.yaml": (b"- {MinimumRequiredVersion: 1}\n- \xff\xfe\n", "malformed YAML"),
        }
        for name, (text, want) in cases.items():
            p = os.path.join(t, name)
            with open(p, "wb") as fh:
                fh.write(text if isinstance(text, bytes) else text.encode())
            rc, out, err = run(cmd, p)
            check(rc == 2 and want in err, "%s: status %d, stderr %r" % (name, rc, err))
        # nested anchors that would expand exponentially: refused at the alias's line, memory untouched
        bomb = "- {MinimumRequiredVersion: 1}\n- x\n- gfx942\n- - &a0 [1, 1]\n"
        for i in range(1, 9):
            bomb += "  - &a%d [%s]\n" % (i, ", ".join(["*a%d" % (i - 1)] * 10))
        bomb += "- {}\n- - {MIWaveTile: *a8}\n"
        p = os.path.join(t, "bomb.yaml")
        with open(p, "w") as fh:
            fh.write(bomb)
        rc, out, err = run(cmd, "--no-progress", p)
        check(rc == 2 and re.search(r"bomb\.yaml:(\d+):\d+: alias \*a\d expands to \d+ values", err)
              and err.strip().endswith("exit 2"), "alias bomb: status %d: %s" % (rc, err[-300:]))
        # a directory is walked recursively, in name order; a directory without logic files is an error
        tree = os.path.join(t, "Logic", "asm_full", "gfx942", "sub")
        os.makedirs(tree)
        for name in ("b.yaml", "a.yml"):
            with open(os.path.join(FIX, "gfx940.yaml")) as src, open(os.path.join(tree, name), "w") as dst:
                dst.write(src.read())
        rc, out, err = run(cmd, "--no-progress", os.path.join(t, "Logic"))
        srcs = [json.loads(l).get("source", {}).get("file", "") for l in out.splitlines()]
        check(rc == 0 and "2 files, 26 solutions" in err and srcs and srcs[0].endswith("a.yml")
              and srcs[-1].endswith("b.yaml"), "directory walk: status %d: %s" % (rc, err[-300:]))
        os.makedirs(os.path.join(t, "nothing-here"))
        rc, out, err = run(cmd, "--no-progress", os.path.join(t, "nothing-here"))
        check(rc == 2 and "no *.yaml or *.yml file" in err and "exit 2" in err, "empty directory: status %d: %s" % (rc, err))
        # --token-file: missing, empty
        rc, out, err = run(cmd, "--server", "http://127.0.0.1:9", "--token-file", os.path.join(t, "none"), p)
        check(rc == 2 and "--token-file" in err and "No such file" in err, "missing token file: status %d: %s" % (rc, err))
        with open(os.path.join(t, "empty-token"), "w") as fh:
            fh.write("\n")
        rc, out, err = run(cmd, "--server", "http://127.0.0.1:9", "--token-file", os.path.join(t, "empty-token"), p)
        check(rc == 2 and "no token in the file" in err, "empty token file: status %d: %s" % (rc, err))
        # a solution that is not a mapping, and sparse: per-solution errors, status 1
        p = os.path.join(t, "sol.yaml")
        with open(p, "w") as fh:
            fh.write("- {MinimumRequiredVersion: 1}\n- x\n- gfx942\n- []\n- {DataType: 0, Sparse: 1}\n- - 7\n  - {NumThreads: 64}\n")
        rc, out, err = run(cmd, p)
        check(rc == 1 and "solution #0 (line 6)" in err and "solution #1 (line 7)" in err,
              "bad solutions: status %d: %s" % (rc, err))
        # anchors / aliases are resolved; the ProblemType comes from the file when the solution lacks it
        p = os.path.join(t, "anchors.yaml")
        with open(p, "w") as fh:
            fh.write("- {MinimumRequiredVersion: 4.33.0}\n- x\n- gfx1100\n- [Device 0000]\n"
                     "- &pt {DataType: 0, TLUA: true, TLUB: true}\n"
                     "- - &s {NumLoadsCoalescedA: 1, NumLoadsCoalescedB: 1, NumLoadsPerpendicularA: 2,\n"
                     "       NumLoadsPerpendicularB: 2, WorkGroup: [8, 8, 1], EnableMatrixInstruction: false,\n"
                     "       GlobalReadVectorWidthA: 1, GlobalReadVectorWidthB: 2, VectorWidthA: 1, VectorWidthB: 2,\n"
                     "       ThreadTile0: 4, ThreadTile1: 4, ProblemType: *pt, WavefrontSize: 32}\n"
                     "  - *s\n"
                     "  - {NumLoadsCoalescedA: 1, NumLoadsCoalescedB: 1, NumLoadsPerpendicularA: 2,\n"
                     "     NumLoadsPerpendicularB: 2, NumThreads: 64, MatrixInstruction: [],\n"
                     "     GlobalReadVectorWidthA: 1, GlobalReadVectorWidthB: 2, VectorWidthA: 1, VectorWidthB: 2,\n"
                     "     ThreadTile: [4, 4], TransposeA: 0, WavefrontSize: 32}\n")
        rc, out, err = run(cmd, "--no-progress", p)
        reqs = [json.loads(l) for l in out.splitlines()]
        # every request says where it came from; the rest is the same
        srcs = [q.pop("source", None) for q in reqs]
        check(srcs == [{"file": p, "SolutionIndex": i} for i in range(3)], "anchors/defaults: sources %r" % srcs)
        check(rc == 0 and len(reqs) == 3 and reqs[0] == reqs[1] == reqs[2], "anchors/defaults: status %d: %s" % (rc, err))
        if reqs:
            r = reqs[0]
            check(r["kernel"]["NumThreads"] == 64 and r["kernel"]["_ScheduleIterAlg"] == 1
                  and r["kernel"]["ProblemType"]["ComputeDataType"] == 0
                  and r["tPA"]["localWriteInstruction"]["name"] == "ds_store_b32"
                  and r["tPB"]["localWriteInstruction"]["name"] == "ds_store_b64"
                  and r["tPB"]["localReadInstruction"]["name"] == "ds_load_b64"
                  and r["states"]["numReadsPerIterA"] == 4 and r["states"]["numReadsPerIterB"] == 2,
                  "anchors/defaults: derived values: %s" % json.dumps(r, sort_keys=True))

    if a.corpus:
        with tempfile.TemporaryDirectory() as t:
            gen = os.path.join(HERE, "gen_fixtures.py")
            subprocess.run([sys.executable, gen, "--corpus", a.corpus, "--out", t, "--all"], check=True)
            n_all = 0
            for f in sorted(os.listdir(t)):
                if f.endswith(".yaml"):
                    n, bad, _, err = compare_file(cmd, os.path.join(t, f), os.path.join(t, f[:-5] + ".expected.jsonl"), "corpus " + f)
                    n_all += n
                    print("logic: corpus %s: %d solutions derived equal, %d differ; %s" % (
                        f, n, bad, err.strip().splitlines()[-1] if err.strip() else ""))
            print("logic: corpus: %d lines re-derived" % n_all)

    print("logic: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
