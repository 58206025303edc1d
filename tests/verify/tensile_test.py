#!/usr/bin/env python3
"""tensile_test.py - `kwgen verify` on the labelled hand-written Tensile kernels.

Reads ../shared/verify-corpus/tensile in place (never copied into the
project): 53 shipped hipBLASLt custom GEMM kernels in llvm-objdump form, with
races.jsonl (every race-class finding an earlier verifier made, classified by
hand: real, infeasible, known_lds, host_never) and redundant.jsonl (its
redundant_wait warnings, right or not).  A finding matches a label at the same
line or with the same producer (the README's rule).

Checks, per label class:
  real        every one still reported as a race (race_raw / race_waw);
  known_lds   every one reported as lds_latency (a warning), none as
              race_raw;
  infeasible  at most --max-infeasible still reported as races (paths that
              two tests of one unmodified SGPR rule out are pruned);
  redundant   every `right` redundant_wait still reported, no wrong one
              (s_swappc is a call that waits for nothing by itself);
  unsupported at most one per kernel (one per distinct cause);
  host_never  every one still reported by default (the path is feasible in
              registers: only a protocol in memory rules it out), its
              message naming the atomic and the option (no real one's
              does), and at
              most --max-host-never in a second pass with
              --assume-atomic-counters (the GSU synchronizer's counter
              protocol), which must keep every other check above;
  assumptions every answer records the assumption (with it: from
              "option", ruled_out = what the answer without it reports
              beyond this one's, per code, in all at least the host_never
              races pruned; without it: not assumed, 0).
Prints precision/recall per class and the CPU seconds of each pass.  Without ../shared
it prints SKIPPED (a failure under CI=true, scripts/run-suites).
"""
import argparse
import collections
import gzip
import json
import os
import resource
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import batch as B  # noqa: E402
DEFAULT = os.path.join(HERE, "..", "..", "..", "shared", "verify-corpus", "tensile")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--corpus", default=DEFAULT)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--max-infeasible", type=int, default=0,
                    help="infeasible-labelled races still reported (of 1325; 0 with 16 partitions per block)")
    ap.add_argument("--max-host-never", type=int, default=0,
                    help="host_never-labelled races still reported with --assume-atomic-counters (of 35)")
    a = ap.parse_args()
    corpus = os.path.normpath(a.corpus)
    if not os.path.isfile(os.path.join(corpus, "races.jsonl")):
        print(f"SKIPPED tensile: {corpus} not found (the shared verify corpus is not next to this clone)")
        print("tensile: 0 passed, 0 failed, 1 skipped")
        return 0
    races = [json.loads(l) for l in open(os.path.join(corpus, "races.jsonl"))]
    red = [json.loads(l) for l in open(os.path.join(corpus, "redundant.jsonl"))]
    files = sorted(f for f in os.listdir(corpus) if f.endswith(".dis.s.gz"))
    tmp = tempfile.mkdtemp(prefix="kw_tensile_")

    # every kernel decompressed once for both passes; `kwgen verify
    # --json-lines` on a few kernels per process (tests/verify/batch.py:
    # each file's own exit status and JSON checked as with one process each)
    paths = {}
    for gz in files:
        paths[gz[:-3]] = os.path.join(tmp, gz[:-3])
        with gzip.open(os.path.join(corpus, gz), "rb") as src, open(paths[gz[:-3]], "wb") as dst:
            dst.write(src.read())

    def run_part(part, flags):
        res = B.verify_many(a.kwgen, [paths[n] for n in part], "gfx942", a.timeout,
                            ("--max-findings", "1000000") + tuple(flags))
        return [(n, out, err) for n, (_, out, err) in zip(part, res)]

    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    def matches(r, fs, codes):
        return [f for f in fs if f["code"] in codes and
                (f["line"] == r["line"] or f.get("producer_line") == r["producer_line"])]

    def one_pass(flags):
        """Verify every kernel with flags and check the labels; the count
        of host_never races still reported."""
        tag = " ".join(flags) or "default"
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        # one process per job, the kernels dealt largest first: a process
        # reuses the heap its last kernel grew (make's VERIFY_MALLOC_ENV
        # keeps it), where one per 4 kernels faulted it in again each time
        by_size = sorted(paths, key=lambda n: (-os.path.getsize(paths[n]), n))
        parts = [p for p in (by_size[k::max(1, a.jobs)] for k in range(max(1, a.jobs))) if p]
        with ThreadPoolExecutor(max_workers=a.jobs) as ex:
            results = [r for rs in ex.map(lambda part: run_part(part, flags), parts) for r in rs]
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = {}
        for name, d, err in results:
            if err:
                check(False, f"[{tag}] {name}: {err}")
            else:
                out[name] = d
        race_codes = {"race_raw", "race_waw", "lds_barrier", "lds_dma"}
        total = collections.Counter()
        kept = collections.Counter()
        for r in races:
            fs = out.get(r["file"], {}).get("findings", [])
            total[r["cls"]] += 1
            hit = matches(r, fs, race_codes)
            kept[r["cls"]] += bool(hit)
            if r["cls"] == "real":
                check(bool(hit), f"[{tag}] real race lost: {r['file']}:{r['line']} (producer {r['producer_line']})")
            elif r["cls"] == "known_lds":
                lat = matches(r, fs, {"lds_latency"})
                check(bool(lat) and not hit,
                      f"[{tag}] LDS-latency reliance not lds_latency: {r['file']}:{r['line']}")
            elif r["cls"] == "host_never" and not flags:
                check(bool(hit), f"[{tag}] host_never race lost without --assume-atomic-counters (unsound): "
                      f"{r['file']}:{r['line']}")
                check(any("--assume-atomic-counters" in f["message"] for f in hit),
                      f"[{tag}] host_never race does not name the atomic its path tests: {r['file']}:{r['line']}")
            if r["cls"] == "real" and hit:
                check(not any("--assume-atomic-counters" in f["message"] for f in hit),
                      f"[{tag}] a real race names --assume-atomic-counters: {r['file']}:{r['line']}")
        check(kept["infeasible"] <= a.max_infeasible,
              f"[{tag}] {kept['infeasible']} infeasible races still reported (at most {a.max_infeasible})")
        rtot = collections.Counter()
        rkept = collections.Counter()
        for r in red:
            fs = out.get(r["file"], {}).get("findings", [])
            hit = any(f["code"] == "redundant_wait" and f["line"] == r["line"] for f in fs)
            rtot[r["right"]] += 1
            rkept[r["right"]] += hit
            if r["right"]:
                check(hit, f"[{tag}] redundant_wait lost: {r['file']}:{r['line']}")
            else:
                check(not hit, f"[{tag}] wrong redundant_wait (removing it creates a race): {r['file']}:{r['line']}")
        for name, d in sorted(out.items()):
            n = d["totals"].get("unsupported", 0)
            check(n <= 1, f"[{tag}] {name}: {n} unsupported findings (one per distinct cause expected)")
        print(f"[{tag}] races still reported, per label class (of labelled):")
        for c in ("real", "infeasible", "known_lds", "host_never"):
            print(f"   {c:11s} {kept[c]:5d} / {total[c]:5d}")
        lat = sum(d["totals"].get("lds_latency", 0) for d in out.values())
        print(f"   lds_latency warnings: {lat} (known_lds labelled: {total['known_lds']})")
        print(f"redundant_wait still reported: right {rkept[True]} / {rtot[True]}, wrong {rkept[False]} / {rtot[False]}")
        tp = kept["real"]
        fp = kept["infeasible"] + kept["host_never"]
        print(f"race precision {tp / max(1, tp + fp):.3f}, recall {tp / max(1, total['real']):.3f} "
              f"(known_lds reported as warnings, host_never counted as false)")
        print(f"cpu seconds {r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime:.1f} for {len(out)} kernels")
        return kept["host_never"], out

    hn0, plain = one_pass(())
    hn, assumed = one_pass(("--assume-atomic-counters",))
    check(hn <= a.max_host_never,
          f"[--assume-atomic-counters] {hn} host_never races still reported (at most {a.max_host_never})")
    # every answer records the assumption; with it, what it ruled out is
    # the surplus of the answer without it, per code (at least the
    # host_never races it pruned)
    ruled = 0
    for name, d in sorted(assumed.items()):
        ac = d.get("assumptions", {}).get("atomic_counters", {})
        p0 = plain.get(name)
        want = sum(max(0, n - d["totals"].get(c, 0)) for c, n in p0["totals"].items()) if p0 else None
        check(ac.get("assumed") is True and ac.get("from") == "option" and ac.get("ruled_out") == want,
              f"[--assume-atomic-counters] {name}: assumptions {ac}, want ruled_out {want}")
        ruled += ac.get("ruled_out") or 0
    for name, d in sorted(plain.items()):
        ac = d.get("assumptions", {}).get("atomic_counters", {})
        check(ac.get("assumed") is False and ac.get("ruled_out") == 0, f"[default] {name}: assumptions {ac}")
    check(ruled >= hn0 - hn, f"[--assume-atomic-counters] {ruled} findings ruled out, fewer than the "
          f"{hn0 - hn} host_never races it pruned")
    print(f"[--assume-atomic-counters] findings ruled out (the answers' assumptions): {ruled} in "
          f"{sum(1 for d in assumed.values() if d['assumptions']['atomic_counters']['ruled_out'])} kernels")
    for path in paths.values():
        os.unlink(path)
    os.rmdir(tmp)
    print(f"tensile: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
