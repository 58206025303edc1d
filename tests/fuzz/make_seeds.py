#!/usr/bin/env python3
"""Write the fuzzing seed corpus tests/fuzz/seeds/ from the golden requests.

One compact JSON request per file (the "source" key dropped):
  gen-<generator>-<isa>.json  one corpus request per generator x ISA
  hw-<n>.json                 hand-written golden cases (edge cases, errors)
  farm-<n>.json               farm-form requests ("generators" lists, omitted)
  edge-<n>.json               small edge cases written here
  example-gfx942.json         examples/gfx942-request.json

Deterministic; run from the repository root:  python3 tests/fuzz/make_seeds.py
"""
import gzip
import json
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "seeds")
N_HANDWRITTEN = 64


def dump(path, obj):
    with open(os.path.join(OUT, path), "w") as f:
        f.write(json.dumps(obj, separators=(",", ":"), sort_keys=True))


def isa_name(isa):
    if isinstance(isa, list):
        return "gfx%d%d%x" % tuple(isa)
    return str(isa)


def main():
    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        reqs = [json.loads(line) for line in f]
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)

    # every generator x ISA: the shortest corpus request
    best = {}
    for r in reqs:
        if r["source"].startswith("handwritten"):
            continue
        k = (r["generator"], isa_name(r["isa"]))
        if k not in best or len(json.dumps(r)) < len(json.dumps(best[k])):
            best[k] = r
    for (gen, isa), r in sorted(best.items()):
        r = dict(r)
        del r["source"]
        dump("gen-%s-%s.json" % (gen, isa), r)

    # hand-written cases: one per case name, spread over the list
    hw = {}
    for r in reqs:
        if r["source"].startswith("handwritten:"):
            hw.setdefault(r["source"].split(":", 1)[1], r)
    names = sorted(hw)
    step = max(1, len(names) // N_HANDWRITTEN)
    for i, name in enumerate(names[::step][:N_HANDWRITTEN]):
        r = dict(hw[name])
        del r["source"]
        dump("hw-%02d.json" % i, r)

    # farm form: a matrix-instruction kernel with tPA/tPB/states
    farm = [r for (gen, isa), r in sorted(best.items()) if gen == "wait" and r.get("kernel", {}).get("EnableMatrixInstruction")]
    mi = [r for (gen, isa), r in sorted(best.items()) if gen == "mulMIoutAlphaToArch"]
    n = 0
    for base in farm[:3] + mi[:3]:
        base = {k: v for k, v in base.items() if k not in ("source", "generator", "args")}
        lists = [
            None,  # omitted: every generator that applies
            [{"name": "wait", "args": {"skipGlobalRead": 0, "skipLocalWrite": -1, "skipLocalRead": -1, "comment": "w"}},
             {"name": "syncThreads", "args": {"comment": "sync", "memoryToken": [1, 2]}},
             "accToArchMapper", "getAccToArchLen"],
            [{"name": "mapAcctoArchRegs", "args": {"maxAgpr": 128, "write": True}},
             {"name": "mulMIoutAlphaToArch", "args": {"startVgprAlphaTmp": 10}},
             {"name": "moveMIoutToArch", "args": {"startVgprAlphaTmp": -1}},
             {"name": "tdmWait", "args": {"tensorcnt": 1}},
             "hasSequentialValuC", "accVgprImagNumOffset"],
        ]
        for lst in lists:
            r = dict(base)
            if lst is not None:
                r["generators"] = lst
            r["replaceHolder"] = 3 if n % 2 else None
            dump("farm-%02d.json" % n, r)
            n += 1

    edges = [
        {},
        {"isa": "gfx942"},
        {"isa": [9, 4, 2], "generator": "tdmWait", "args": {"tensorcnt": 2147483647, "comment": "\u00e9\u0000x"}},
        {"isa": "gfx1250", "generator": "syncThreads", "args": {"memoryToken": []},
         "kernel": {"NumThreads": 32, "WavefrontSize": 32, "_ScheduleIterAlg": 3, "PrefetchGlobalRead": 2}},
        {"isa": "gfx950", "generators": [], "kernel": {}},
        {"isa": "gfx90a", "generator": "wait", "generators": ["wait"]},
        {"isa": "gfx942", "wavefront": 32, "generator": "syncThreads", "args": None, "kernel": {}},
        {"isa": "gfx1201", "vgprIdx": {"ValuC": 240, "": -1}, "vgprMsb": -2, "replaceHolder": [1, 2, 3],
         "strict": 1, "outputNoComment": True, "fillDefaults": True, "generator": "accToArchMapper",
         "kernel": {"EnableMatrixInstruction": True, "MatrixInstM": 16, "MatrixInstN": 16, "MIWaveTile": [2, 2]}},
    ]
    for i, e in enumerate(edges):
        dump("edge-%02d.json" % i, e)

    with open(os.path.join(ROOT, "examples", "gfx942-request.json")) as f:
        dump("example-gfx942.json", json.load(f))


if __name__ == "__main__":
    main()
