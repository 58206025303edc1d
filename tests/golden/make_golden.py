#!/usr/bin/env python3
"""Regenerate the golden request/answer pairs (tests/golden/*.jsonl.gz).

Not needed at test time: it reads the shared reference material (the oracle
and the hipBLASLt corpus) next to the repository, by default ../shared.

  requests  = sampled corpus lines x Tensile's call-site argument patterns
              (make_requests.requests_for of the oracle)
            + corpus lines re-targeted to the ISAs the corpus lacks
              (gfx950, gfx941 from gfx942 lines; gfx1101 from gfx1100 lines;
              gfx1250 from gfx1201 lines)
            + tests/golden/handwritten.jsonl (make_handwritten.py)
  answers   = oracle.py --batch over the requests (line i answers line i)

Oracle gap: the oracle has asmCaps tables only for gfx908, gfx90a, gfx942,
gfx950, gfx1100, gfx1200, gfx1201 and gfx1250.  Requests for gfx940, gfx941
(the gfx942 instruction set) and gfx1101, gfx1102 (gfx1100 counters) get the
full asmCaps and archCaps of gfx942 / gfx1100 written into the request, so
the oracle answers what kwgen answers from its own tables (see README.md).

Usage: python3 tests/golden/make_golden.py [--shared DIR] [--target N]
"""
import argparse
import collections
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# gfx name of a corpus file -> ISA whose tables stand in for it (oracle gap)
ALIAS_TABLE = {(9, 4, 0): (9, 4, 2), (9, 4, 1): (9, 4, 2),
               (11, 0, 1): (11, 0, 0), (11, 0, 2): (11, 0, 0)}
# corpus lines kept per file (every-N sample spread over the file) before the extras
PER_FILE = {"gfx908": 33, "gfx90a": 150, "gfx940": 150, "gfx942": 220,
            "gfx1100": 110, "gfx1102": 60, "gfx1200": 110, "gfx1201": 80}
# ISAs the corpus lacks: (new ISA, source file, number of source lines)
RETARGET = [((9, 5, 0), "gfx942", 30), ((9, 4, 1), "gfx942", 25),
            ((11, 0, 1), "gfx1100", 25), ((12, 5, 0), "gfx1201", 35)]
SPILL_TILES = ([8, 10], [8, 11], [8, 12], [4, 20])


def gfx(isa):
    return "gfx%d%d%s" % (isa[0], isa[1], "0123456789abcdef"[isa[2]])


def signature(line):
    """What makes a corpus line interesting for the generators' branches."""
    k = line["kernel"]
    pt = k["ProblemType"]
    return (bool(k.get("EnableMatrixInstruction")), bool(k.get("MIArchVgpr")),
            bool(k.get("CompactLoopStore")), bool(k.get("SourceSwap")), pt.get("DataType"),
            pt.get("ComputeDataType"), bool(pt.get("HighPrecisionAccumulate")),
            k.get("MatrixInstM"), k.get("MatrixInstN"), k.get("MatrixInstBM"),
            k.get("MatrixInstBN"), k.get("MIRegPerOut"), k.get("PrefetchGlobalRead"),
            k.get("_ScheduleIterAlg"), k["NumThreads"] <= k["WavefrontSize"],
            type(k.get("SourceSwap")).__name__, type(k.get("MIArchVgpr")).__name__,
            "tPA" in line)


def is_spill(line):
    return bool(line.get("customKernelName")) and line["kernel"].get("MIWaveTile") in SPILL_TILES


def select(lines, quota):
    """Every-N spread sample, plus the first line of every new branch signature,
    the spill configurations and the deriveError lines."""
    every = max(1, len(lines) // quota)
    keep = set(range(0, len(lines), every))
    seen = {signature(lines[i]) for i in keep}
    for i, line in enumerate(lines):
        sig = signature(line)
        if sig not in seen:
            seen.add(sig)
            keep.add(i)
        if is_spill(line) or "deriveError" in line:
            keep.add(i)
    return sorted(keep)


def fix_caps(req, caps_mod):
    """Full caps for the ISAs the oracle has no table for (see module doc)."""
    isa = tuple(req["isa"])
    table = ALIAS_TABLE.get(isa)
    if table is None:
        return req
    asm = dict(caps_mod.ASM_CAPS[table])
    asm.update({k: int(v) for k, v in (req.get("asmCaps") or {}).items()})
    arch = caps_mod.arch_caps(table)
    arch.update({k: int(v) for k, v in (req.get("archCaps") or {}).items()})
    req["asmCaps"], req["archCaps"] = asm, arch
    return req


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    ap.add_argument("--out", default=HERE)
    opts = ap.parse_args()
    shared = os.path.abspath(opts.shared)
    oracle_dir = os.path.join(shared, "oracle")
    sys.path.insert(0, oracle_dir)
    import make_requests  # noqa: E402
    from rocisa_mini import caps as caps_mod  # noqa: E402

    corpus = {}
    for name in sorted(PER_FILE):
        with open(os.path.join(shared, "corpus", name + ".jsonl")) as f:
            corpus[name] = [json.loads(t) for t in f]

    requests = []

    def emit(line, isa=None, origin=None):
        if isa is not None:
            line = dict(line, isa=list(isa))
        for req in make_requests.requests_for(line):
            req["source"] = origin or line.get("source", "")
            requests.append(fix_caps(req, caps_mod))

    for name, lines in corpus.items():
        for i in select(lines, PER_FILE[name]):
            emit(lines[i])
    for isa, name, count in RETARGET:
        lines = corpus[name]
        step = max(1, len(lines) // count)
        # offset so the re-targeted lines differ from the plain sample
        for i in range(step // 2, len(lines), step)[:count]:
            emit(lines[i], isa, "%s (as %s)" % (lines[i].get("source", ""), gfx(isa)))

    # the spill configurations (custom kernels, > 256 accumulators) on the other
    # gfx942-class ISAs too
    for name in ("gfx942",):
        for line in corpus[name]:
            if is_spill(line):
                for isa in ((9, 4, 0), (9, 4, 1)):
                    emit(line, isa, "%s (as %s)" % (line.get("source", ""), gfx(isa)))

    hand = os.path.join(HERE, "handwritten.jsonl")
    with open(hand) as f:
        requests += [json.loads(t) for t in f if t.strip()]

    req_text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in requests)
    proc = subprocess.run([sys.executable, os.path.join(oracle_dir, "oracle.py"), "--batch"],
                          input=req_text.encode(), stdout=subprocess.PIPE, check=True)
    answers = proc.stdout.decode().splitlines()
    if len(answers) != len(requests):
        sys.exit("oracle gave %d answers for %d requests" % (len(answers), len(requests)))

    for fname, text in (("requests.jsonl.gz", req_text), ("answers.jsonl.gz", "\n".join(answers) + "\n")):
        path = os.path.join(opts.out, fname)
        with open(path, "wb") as raw:
            # mtime 0 and no file name: the same input gives the same bytes
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
                gz.write(text.encode())

    table = collections.Counter()
    for r in requests:
        isa = r["isa"] if isinstance(r["isa"], list) else None
        table[(gfx(isa) if isa else str(r["isa"]).lower(), r["generator"])] += 1
    isas = sorted({k[0] for k in table})
    errs = sum(1 for a in answers if '"error"' in a[:10])
    print("%d pairs (%d oracle errors, %d hand-written)" % (len(requests), errs,
          sum(1 for r in requests if str(r.get("source", "")).startswith("handwritten:"))))
    for isa in isas:
        print("  %-8s %5d" % (isa, sum(v for k, v in table.items() if k[0] == isa)))
    for fname in ("requests.jsonl.gz", "answers.jsonl.gz"):
        print("  %s: %d bytes" % (fname, os.path.getsize(os.path.join(opts.out, fname))))


if __name__ == "__main__":
    main()
