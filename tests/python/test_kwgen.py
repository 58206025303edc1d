#!/usr/bin/env python3
"""Tests of the Python module (python/kwgen, ctypes over libkwgen.so).

  test_kwgen.py [--lib build/libkwgen.so] [--kwgen build/kwgen] [--limit N]

1. Every golden pair (tests/golden/requests.jsonl.gz vs answers.jsonl.gz)
   through kwgen.generate(): asm byte-identical, type, acc2arch, arch2acc,
   value and isa equal; an oracle error must raise kwgen.Error.
2. Every golden pair again through the seed-shaped helper (kwgen.wait(states,
   kernel, tPA, tPB, ...), kwgen.accToArchMapper(kernel), ...) with Tensile-
   like objects (states with attributes, localReadInstruction.blockWidth,
   DataType objects): the seed's return values.
3. kwgen.asm() is byte-identical to `kwgen --asm` for the same request.
4. Errors: kwgen.Error with .message, .field, .code for bad requests;
   TypeError for an unknown option; ImportError naming what was tried when
   the library cannot be loaded; concurrent calls from threads.
Prints "python: N passed, M failed"; exit status 0 only if nothing failed.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import threading
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import zygote  # noqa: E402  (tests/lib)
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        if failed <= 20:
            print("FAIL:", what, flush=True)


def isa_name(isa):
    if isinstance(isa, list) and len(isa) == 3:
        return "gfx%d%d%s" % (isa[0], isa[1], "0123456789abcdef"[isa[2] % 16])
    return str(isa).lower()


def load_gz(name):
    """The lines of a golden file, unparsed: each is parsed when its pair is
    checked (holding all ~20k parsed pairs at once costs more CPU, in page
    faults and garbage-collector passes, than parsing them)."""
    with gzip.open(os.path.join(GOLDEN, name), "rt") as f:
        # line by line: read() and split cost twice the CPU
        return [t.rstrip("\n") for t in f if t.strip()]


OPTS = ("wavefront", "archCaps", "asmCaps", "vgprIdx", "vgprMsb", "outputNoComment", "fillDefaults",
        "replaceHolder", "strict")


class FakeDataType:
    """Tensile.Common.DataType's shape: the enum value in .value."""

    def __init__(self, value):
        self.value = value


def tensile_objects(req):
    """The request's kernel/tPA/tPB/states as Tensile hands them to the seed.
    req is changed (its kernel's DataTypes become objects, ...): pass a copy
    the caller owns (call_seed's fresh: the request line parsed again, which
    costs less than copying its parts through json.dumps and json.loads)."""
    kernel = req.get("kernel", {})
    pt = kernel.get("ProblemType")
    if isinstance(pt, dict):
        for k in ("DataType", "ComputeDataType"):
            if isinstance(pt.get(k), int) and not isinstance(pt.get(k), bool):
                pt[k] = FakeDataType(pt[k])
    tps = []
    for name in ("tPA", "tPB"):
        tp = req.get(name) or {}
        if isinstance(tp.get("localReadInstruction"), dict):
            tp["localReadInstruction"] = types.SimpleNamespace(**tp["localReadInstruction"])
        tps.append(tp)
    states = types.SimpleNamespace(**(req.get("states") or {}))
    return kernel, tps[0], tps[1], states


def call_seed(kwgen, req, fresh):
    """The seed-shaped helper for an oracle-form request -> the oracle's
    answer fields.  fresh: a second parse of the request, which
    tensile_objects() turns into Tensile's objects (req stays as it is)."""
    g, a = req["generator"], req.get("args") or {}
    kernel, tpa, tpb, states = tensile_objects(fresh)
    opts = {k: req[k] for k in OPTS if k in req}
    opts["isa"] = req["isa"]
    if g == "tdmWait":
        r = kwgen.tdmWait(states, kernel, tpa, tpb, a["tensorcnt"], a.get("comment", ""), **opts)
    elif g == "wait":
        r = kwgen.wait(states, kernel, tpa, tpb, a["skipGlobalRead"], a["skipLocalWrite"], a["skipLocalRead"],
                       a.get("conservativeWaitCnt", 0), a.get("comment", ""), a.get("skipGlobalReadInst", -1), **opts)
    elif g == "syncThreads":
        r = kwgen.syncThreads(kernel, opts.pop("archCaps", None), opts.pop("asmCaps", None), a.get("comment", ""),
                              a.get("skipForceWaitcnt0", False), a.get("memoryToken"), **opts)
    elif g == "accToArchMapper":
        acc2arch, arch2acc = kwgen.accToArchMapper(kernel, **opts)
        return {"asm": None, "acc2arch": [acc2arch[i] for i in range(len(acc2arch))],
                "arch2acc": [arch2acc[i] for i in range(len(arch2acc))]}
    elif g in ("getAccToArchLen", "hasSequentialValuC", "accVgprImagNumOffset"):
        return {"asm": None, "value": getattr(kwgen, g)(kernel, **opts)}
    elif g not in ("mulMIoutAlphaToArch", "moveMIoutToArch", "mapAcctoArchRegs"):
        return kwgen.generate(req)  # an unknown generator: kwgen.Error
    elif g == "mapAcctoArchRegs":
        r = kwgen.mapAcctoArchRegs(kernel, a.get("maxAgpr", 256), a.get("write", False), a.get("spilledVgprBase"),
                                   **opts)
    else:
        r = getattr(kwgen, g)(kernel, a["startVgprAlphaTmp"], **opts)
    assert isinstance(r, str) and isinstance(r, kwgen.Asm)
    return {"asm": str(r), "type": r.type}


def same(want, got, keys):
    for k in keys:
        if k in want and (got.get(k) != want[k] or type(got.get(k)) is not type(want[k])):
            return "field %s: oracle %s, kwgen %s" % (k, json.dumps(want[k])[:120], json.dumps(got.get(k))[:120])
    return None


def golden(kwgen, limit):
    """Every golden pair (the first limit) through the module; returns the
    parsed requests text_matches_cli() samples (every n // 40-th)."""
    reqs, answers = load_gz("requests.jsonl.gz"), load_gz("answers.jsonl.gz")
    check(len(reqs) == len(answers) and len(reqs) > 1000, "golden set: %d requests, %d answers" % (len(reqs), len(answers)))
    n = min(limit, len(reqs)) if limit else len(reqs)
    step = max(1, n // 40)
    sample = []
    bad_gen = bad_seed = 0
    for i in range(n):
        req, want = json.loads(reqs[i]), json.loads(answers[i])
        if i % step == 0 and len(sample) < 40:
            sample.append(req)
        for how in ("generate", "seed"):
            try:
                if how == "generate":
                    ans = kwgen.generate(req)
                    got = dict(ans["results"][0])
                    got["isa"] = ans["isa"]
                else:
                    got = call_seed(kwgen, req, json.loads(reqs[i]))
                err = None
            except kwgen.Error as e:
                err = e
            except KeyError as e:
                # a required argument the request lacks: the seed's call
                # cannot be made either (TypeError in Python)
                if how == "generate":
                    raise
                err = e
            if "error" in want:
                problem = None if err else "oracle answers an error (%s), kwgen does not" % want["error"]
            elif err:
                problem = "kwgen raised %s" % err
            else:
                problem = same(want, got, ("asm", "type", "acc2arch", "arch2acc", "value"))
                if not problem and how == "generate" and got["isa"] != isa_name(want["isa"]):
                    problem = "isa %s, oracle %s" % (got["isa"], want["isa"])
            if problem:
                if how == "generate":
                    bad_gen += 1
                else:
                    bad_seed += 1
                if bad_gen + bad_seed <= 5:
                    print("  pair %d (%s %s) via %s: %s" % (i + 1, isa_name(req.get("isa")), req.get("generator"), how,
                                                            problem))
    global passed, failed
    # one count per pair and way
    passed += 2 * n - bad_gen - bad_seed
    failed += bad_gen + bad_seed
    if bad_gen:
        print("FAIL: kwgen.generate: %d of %d golden pairs differ" % (bad_gen, n))
    if bad_seed:
        print("FAIL: seed-shaped helpers: %d of %d golden pairs differ" % (bad_seed, n))
    print("golden through the module: %d pairs x 2 (generate, seed-shaped), %d differ"
          % (n, bad_gen + bad_seed), flush=True)
    return sample


def text_matches_cli(kwgen, cli, sample):
    example = json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))
    example["source"] = {"file": "Logic/x.yaml", "SolutionIndex": 4, "SolutionNameMin": "Cijk_X"}
    samples = [example] + sample
    bad = 0
    # each `kwgen --asm` its own process: with KWGEN_TOOL_ZYGOTE (make
    # python-test) a child forked at main by one loaded kwgen, not an exec
    # each (tests/lib/zygote.py; tests/README.md, golden's single mode);
    # without glibc's malloc on huge pages (HUGEPAGE_MALLOC_ENV, for the
    # module's run above), whose 2 MB heap pages each child would copy
    zygote.drop_hugepage_malloc()
    for r in samples:
        rc, out, err = zygote.run([cli, "--asm"], input=json.dumps(r).encode(), timeout=60)
        try:
            text = kwgen.asm(r)
            ok = rc == 0 and out.decode() == text
        except kwgen.Error as e:
            ok = rc == 1 and e.message in err.decode()
        bad += not ok
    check(bad == 0, "kwgen.asm() differs from `kwgen --asm` for %d of %d requests" % (bad, len(samples)))
    t = kwgen.asm(example)
    check(t.startswith("// source: Logic/x.yaml, SolutionIndex 4, SolutionNameMin Cijk_X\n// syncThreads("),
          "asm text starts with the source and a header: %r" % t[:120])


def errors(kwgen):
    ex = json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))

    def raises(fn, code, field, text):
        try:
            fn()
        except kwgen.Error as e:
            ok = e.code == code and e.field == field and text in e.message and text in str(e)
            check(ok, "Error(code=%r, field=%r, message=%r), want %r %r %r" % (e.code, e.field, e.message,
                                                                                 code, field, text))
            return
        check(False, "no kwgen.Error (want %s %s)" % (code, field))

    raises(lambda: kwgen.generate(dict(ex, isa="gfx000")), "invalid", "isa", "supported: gfx908")
    raises(lambda: kwgen.generate({"kernel": {}}), "invalid", "isa", "isa")
    raises(lambda: kwgen.generate(dict(ex, kernel=dict(ex["kernel"], MIWaveTile=[0, 1]))), "invalid",
           "kernel.MIWaveTile", "MIWaveTile")
    raises(lambda: kwgen.generate(dict(ex, source={"SolutionIndex": -2})), "invalid", "source.SolutionIndex", ">= 0")
    raises(lambda: kwgen.generate(dict(ex, generators=[{"name": "nope"}])), "invalid", "generators[0]", "allowed")
    raises(lambda: kwgen.generate(dict(ex, strict="yes")), "invalid", "strict", "boolean")
    raises(lambda: kwgen.asm(dict(ex, isa=[9, 4])), "invalid", "isa", "isa")
    try:
        kwgen.wait(None, {}, {}, {}, 0, -1, -1, 0, "w", isa="gfx942")
        check(False, "wait with an empty kernel raised nothing")
    except kwgen.Error as e:
        check(e.code == "invalid" and e.field and e.field.startswith("kernel.") and "wait" in e.message,
              "missing kernel key: %s" % e)
    saved = kwgen._default_isa
    kwgen._default_isa = None
    try:
        kwgen.getAccToArchLen(ex["kernel"])
        check(False, "no ISA raised nothing")
    except kwgen.Error as e:
        check(e.field == "isa" and "set_isa" in e.message, "no ISA: %s" % e)
    kwgen._default_isa = saved
    try:
        kwgen.getAccToArchLen(ex["kernel"], isa="gfx942", colour="red")
        check(False, "unknown option raised nothing")
    except TypeError as e:
        check("colour" in str(e) and "replaceHolder" in str(e), "unknown option: %s" % e)
    try:
        kwgen.generate({"isa": "gfx942", "kernel": {"NumThreads": object()}})
        check(False, "an object that is no number raised nothing")
    except kwgen.Error as e:
        check(e.field == "kernel.NumThreads", "object for an int: %s" % e)
    # seed-shaped helpers return what the seed returns
    kwgen.set_isa((9, 4, 2))
    a2a, a2b = kwgen.accToArchMapper(ex["kernel"])
    n = kwgen.getAccToArchLen(ex["kernel"])
    check(isinstance(a2a, dict) and len(a2a) == n == len(a2b) and all(a2b[a2a[i]] == i for i in range(n)),
          "accToArchMapper: two inverse dicts of getAccToArchLen entries")
    check(isinstance(kwgen.hasSequentialValuC(ex["kernel"]), bool), "hasSequentialValuC is a bool")
    w = kwgen.wait(types.SimpleNamespace(**ex["states"]), ex["kernel"], ex["tPA"], ex["tPB"], 0, -1, -1, 0, "w")
    check(isinstance(w, str) and w.type == "SWaitCnt" and w == "s_waitcnt vmcnt(0)" + " " * 33 + "// w\n",
          "wait text: %r" % w)
    # placeholders: v[vgprValuC] is Tensile's holder until replaceHolder fills it
    m = kwgen.mapAcctoArchRegs(ex["kernel"])
    m8 = kwgen.mapAcctoArchRegs(ex["kernel"], replaceHolder=8)
    check(m.startswith("v_accvgpr_read_b32 v[vgprValuC], acc0") and
          m8.startswith("v_accvgpr_read_b32 v[vgprValuC+8], acc0") and "v[vgprValuC]," not in m8,
          "replaceHolder re-bases the holder: %r / %r" % (m[:60], m8[:60]))
    # JSON text is accepted as it is; an object graph with a cycle does not hang
    check(kwgen.generate(json.dumps(ex))["key"] == kwgen.generate(ex)["key"], "generate(JSON text)")

    class Node:
        def __init__(self):
            self.me = self
            self.NumThreads = 256

    k = dict(ex["kernel"], Extra=Node())
    check(kwgen.generate(dict(ex, kernel=k))["key"] == kwgen.generate(ex)["key"],
          "a kernel holding a cyclic object (unknown keys are ignored)")
    # threads
    results, errs = [], []

    def worker():
        try:
            for _ in range(20):
                results.append(kwgen.generate(ex)["key"])
        except Exception as e:  # noqa: BLE001 - reported below
            errs.append(e)

    ts = [threading.Thread(target=worker) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    check(not errs and len(results) == 80 and len(set(results)) == 1, "4 threads x 20 calls: %s" % errs[:1])


def load_failure(lib):
    code = ("import kwgen\ntry:\n    kwgen.version()\nexcept ImportError as e:\n    print('IMPORT-ERROR', e)\n")
    env = dict(os.environ, KWGEN_LIB="/nonexistent/libkwgen.so", PYTHONPATH=os.path.join(ROOT, "python"))
    p = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    out = p.stdout.decode()
    check(p.returncode == 0 and "IMPORT-ERROR" in out and "/nonexistent/libkwgen.so" in out and "KWGEN_LIB" in out,
          "a missing library: %r %r" % (out, p.stderr.decode()[-300:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(ROOT, "build", "libkwgen.so"))
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--limit", type=int, default=0, help="golden pairs (0 = all)")
    a = ap.parse_args()
    os.environ["KWGEN_LIB"] = os.path.abspath(a.lib)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import kwgen
    check(kwgen.library_path() == os.path.abspath(a.lib), "loaded %s" % kwgen.library_path())
    check(kwgen.version().startswith("kwgen-generators-"), "version %s" % kwgen.version())
    reqs = golden(kwgen, a.limit)
    text_matches_cli(kwgen, os.path.abspath(a.kwgen), reqs)
    errors(kwgen)
    load_failure(a.lib)
    print("python: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
