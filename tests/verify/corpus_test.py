#!/usr/bin/env python3
"""`kwgen verify` over the committed verify corpus (tests/verify/).

  llvm/<isa>/*.s.gz   assembly clang 22 produced from src/*.cl.gz at -O2
                      (LLVM's SIInsertWaitcnts placed every wait): every file
                      must verify with no race-class finding (race_*,
                      lds_barrier, lds_dma) and exit 0 or 1 with valid JSON.
  cases/*.s.gz        small cases from public reports, cases/cases.jsonl:
                      every non-optional expected finding on its line (race_*
                      matches race_raw or race_waw), no race-class finding on
                      a no_race_lines line.  Optional expectations (lds_dma)
                      are printed, not counted.

  corpus_test.py --kwgen build/kwgen [--root tests/verify] [--jobs 2]
One check per file; the last line is 'verify-corpus: N passed, N failed, N skipped'.
"""
import argparse, gzip, json, os, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, HERE)
from checks import Results  # noqa: E402


def is_race(code):
    return isinstance(code, str) and (code.startswith("race_") or code in ("lds_barrier", "lds_dma"))


def family_ok(exp, got):
    if exp.startswith("race_"):
        return isinstance(got, str) and got.startswith("race_")
    return exp == got


def read_gz(path):
    with gzip.open(path, "rt") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--root", default=HERE)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    R = Results("verify-corpus")
    if not os.access(a.kwgen, os.X_OK):
        R.fail("kwgen", f"{a.kwgen} is not built")
        R.finish()
    items = []
    llvm = os.path.join(a.root, "llvm")
    for isa in sorted(os.listdir(llvm)):
        d = os.path.join(llvm, isa)
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if f.endswith(".s.gz"):
                    items.append(dict(kind="llvm", id=f"llvm/{isa}/{f}", isa=isa, path=os.path.join(d, f)))
    with open(os.path.join(a.root, "cases", "cases.jsonl")) as f:
        for line in f:
            if line.strip():
                c = json.loads(line)
                items.append(dict(kind="case", id="cases/" + c["file"], isa=c["isa"],
                                  path=os.path.join(a.root, "cases", c["file"] + ".gz"), meta=c))
    tmp = tempfile.mkdtemp(prefix="kwgen-verify-corpus-")
    # many files of one ISA per `kwgen verify --json-lines` process (batch.py)
    import batch as B
    with ThreadPoolExecutor(a.jobs) as ex:
        res = B.verify_texts(a.kwgen, [(it["isa"], read_gz(it["path"]), it["id"]) for it in items], tmp, ex,
                             a.timeout)
    os.rmdir(tmp)
    per_isa = {}
    for it, (fs, out, err) in zip(items, res):
        if err:
            R.fail(it["id"], err)
            continue
        if it["kind"] == "llvm":
            races = [f for f in fs if is_race(f.get("code"))]
            pi = per_isa.setdefault(it["isa"], [0, 0, 0])
            pi[0] += 1
            pi[1] += bool(races)
            pi[2] += len(races)
            R.check(not races, f"{it['id']}: no race finding",
                    "; ".join(f"line {f.get('line')} {f.get('code')} {f.get('message', '')}" for f in races[:3]))
            continue
        c = it["meta"]
        why = []
        for e in c["expected"]:
            hit = any(f.get("line") == e["line"] and family_ok(e["code"], f.get("code")) for f in fs)
            if e.get("optional"):
                print(f"note    {it['id']}: optional {e['code']} at line {e['line']} "
                      f"{'reported' if hit else 'not reported'}")
            elif not hit:
                why.append(f"expected {e['code']} at line {e['line']} not reported")
        bad = [f for f in fs if is_race(f.get("code")) and f.get("line") in c["no_race_lines"]]
        why += [f"race {f.get('code')} on clean line {f.get('line')}" for f in bad]
        if why:
            got = ", ".join(f"{f.get('line')}:{f.get('code')}" for f in fs[:8])
            why.append(f"reported: [{got}]")
        R.check(not why, f"{it['id']}: expected findings, clean lines clean", "; ".join(why))
    print("\nfalse positives on LLVM files (files with a race finding / files, race findings):")
    for isa, (n, nf, nr) in sorted(per_isa.items()):
        print(f"   {isa:8s} {nf}/{n} files, {nr} findings")
    R.finish()


if __name__ == "__main__":
    main()
