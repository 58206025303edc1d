#!/usr/bin/env python3
"""Write the seed corpora of the path harnesses from the repository's real
inputs (deterministic; run from anywhere):

  seeds-fuzz_http/   "PATH\\nBODY": tests/fuzz/seeds requests posted to
                     /v1/kernels (JSON and ?text), in batches to
                     /v1/kernels:batch, the bodies of tests/bad-inputs, and
                     GET /v1/kernels/KEY lines
  seeds-fuzz_batch/  mode byte + golden request lines (tests/golden), with
                     blank, CRLF, bad and unterminated lines
  seeds-fuzz_yaml/   the logic fixtures (tests/logic/fixtures/*.yaml)
  seeds-fuzz_cache/  NUL-separated rows made from golden answers
  seeds-fuzz_verify/ ISA byte + assembly: every case of tests/verify/cases
                     (<id>.s) and one LLVM kernel per ISA of tests/verify/llvm
                     (llvm-<isa>-<name>.s), decompressed from the committed .gz

  python3 tests/fuzz/make_seeds_paths.py [--out DIR]   (default tests/fuzz/;
  make fuzz writes them to $(FUZZ_BUILD)/ and tests/fuzz/run.sh --seeds-root
  finds them there)
"""
import argparse
import glob
import gzip
import hashlib
import itertools
import json
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


OUT = HERE


def reset(name):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def golden_lines(name):
    """The non-blank lines of tests/golden/NAME (gzip) as bytes, read a
    block at a time: the file is never held whole (the 19,784 requests are
    40 MB; held and split as text they took 2.2 of this script's 2.8 s of
    CPU, most of it first-touch page faults; the seeds use 120 of them)."""
    with gzip.open(os.path.join(ROOT, "tests", "golden", name), "rb") as f:
        for line in f:
            if line.strip():
                yield line.rstrip(b"\n")


def golden(n):
    """n golden requests spread evenly over the set (every step-th) and
    their answers, as str."""
    count = sum(1 for _ in golden_lines("requests.jsonl.gz"))
    step = max(1, count // n)

    def spread(name):
        return [x.decode() for x in itertools.islice(golden_lines(name), 0, None, step)][:n]
    return spread("requests.jsonl.gz"), spread("answers.jsonl.gz")


def main():
    global OUT
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=HERE)
    OUT = ap.parse_args().out
    seeds = sorted(glob.glob(os.path.join(HERE, "seeds", "*.json")))
    bodies = [open(p).read() for p in seeds]

    d = reset("seeds-fuzz_http")
    for i, b in enumerate(bodies[::4]):
        write(d, "post-%03d" % i, "/v1/kernels\n" + b)
    for i, b in enumerate(bodies[1::16]):
        write(d, "text-%03d" % i, "/v1/kernels?text\n" + b)
    for i in range(0, min(len(bodies), 48), 6):
        reqs = [json.loads(b) for b in bodies[i:i + 6] if b.strip().startswith("{")]
        write(d, "batch-%03d" % i, "/v1/kernels:batch\n" + json.dumps({"requests": reqs + [17]}))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad-inputs", "*.json"))):
        c = json.load(open(p))
        if "body" in c and c.get("method") == "POST":
            path = c.get("path", "/v1/kernels")
            write(d, "bad-" + os.path.basename(p)[:-5], path + "\n" + json.dumps(c["body"]))
        elif isinstance(c.get("body_raw"), str):
            write(d, "badraw-" + os.path.basename(p)[:-5], c.get("path", "/v1/kernels") + "\n" + c["body_raw"])
    write(d, "get-zero", "/v1/kernels/" + "0" * 64 + "\n")
    write(d, "get-bad", "/v1/kernels/xyz\n")
    write(d, "bypass", "/v1/kernels?cache=bypass\n" + bodies[0])

    d = reset("seeds-fuzz_batch")
    reqs, answers = golden(120)
    for i in range(0, len(reqs), 6):
        lines = reqs[i:i + 6]
        write(d, "golden-%03d" % i, bytes([i % 8]) + ("\n".join(lines) + "\n").encode())
    write(d, "blank-crlf", b"\x00" + ("\n   \n" + reqs[0] + "\r\n{bad\n" + reqs[1]).encode())
    write(d, "nul-utf8", b"\x02" + reqs[2].encode() + b"\n\x00\xff\xfe\n" + reqs[3].encode())
    write(d, "long-line", b"\x04" + reqs[4].encode() + b"\n" + reqs[5].encode() + b"\n")
    write(d, "farm", b"\x00" + (json.dumps({k: v for k, v in json.loads(reqs[6]).items()
                                            if k not in ("generator", "args")}) + "\n").encode())

    d = reset("seeds-fuzz_yaml")
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "logic", "fixtures", "*.yaml"))):
        shutil.copy(p, os.path.join(d, os.path.basename(p)))

    d = reset("seeds-fuzz_cache")
    for i, (r, a) in enumerate(zip(reqs[:40], answers[:40])):
        req = json.loads(r)
        key = hashlib.sha256(r.encode()).hexdigest()
        ans = json.loads(a)
        fields = [key, hashlib.sha256(key.encode()).hexdigest(), str(req.get("isa")),
                  r, ans.get("asm") or "", json.dumps(ans.get("acc2arch") or []), a,
                  json.dumps(req.get("source", "")) if i % 2 else ""]
        write(d, "row-%03d" % i, "\0".join(fields))
    write(d, "key-odd", "not a key'; DROP TABLE entries; --\0\0gfx942\0{}\0\0[]\0{}\0")

    verify_seeds()


# one LLVM kernel per ISA for seeds-fuzz_verify (tests/verify/llvm/<isa>/<name>.s.gz)
VERIFY_LLVM_SEEDS = [("gfx1100", "reduce_sum_f32"), ("gfx1201", "scan_lds"), ("gfx1250", "flat_generic_rw"),
                     ("gfx90a", "aos_loads"), ("gfx942", "gemm_prefetch_f16")]


def verify_isas():
    """The ISA names of fuzz_verify.c's isas[], in order: the seed's first
    byte is the index of its ISA there."""
    with open(os.path.join(HERE, "fuzz_verify.c")) as f:
        m = re.search(r"isas\[\]\s*=\s*\{([^}]*)\}", f.read())
    return re.findall(r'"(gfx[0-9a-f]+)"', m.group(1))


def verify_seeds():
    isas = verify_isas()
    vdir = os.path.join(ROOT, "tests", "verify")
    d = reset("seeds-fuzz_verify")
    with open(os.path.join(vdir, "cases", "cases.jsonl")) as f:
        cases = [json.loads(x) for x in f if x.strip()]
    for c in cases:
        with gzip.open(os.path.join(vdir, "cases", c["file"] + ".gz"), "rb") as f:
            write(d, c["id"] + ".s", bytes([isas.index(c["isa"])]) + f.read())
    for isa, name in VERIFY_LLVM_SEEDS:
        with gzip.open(os.path.join(vdir, "llvm", isa, name + ".s.gz"), "rb") as f:
            write(d, "llvm-%s-%s.s" % (isa, name), bytes([isas.index(isa)]) + f.read())


if __name__ == "__main__":
    main()
