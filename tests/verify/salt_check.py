#!/usr/bin/env python3
"""The verifier's version must change whenever its findings change.

kwgend keys cached verifications (POST /v1/verify) by kw_verify_version():
if the findings for some input changed while the version stayed, daemons
would serve stale findings.  This check runs `kwgen verify --json` over the
committed corpus (llvm/<isa>/*.s.gz and cases/*.s.gz), digests every answer
(isa, findings, totals, suppressed, truncated, the exit status; not stats)
and compares with tests/verify/salt.txt:

  same version, same digest       ok
  same version, other digest      FAIL: bump KW_VERIFY_VERSION
                                  (lib/verify/findings.c), then
                                  `make verify-salt-update`
  other version                   FAIL until `make verify-salt-update`
                                  records the pair

Usage: salt_check.py --kwgen build/kwgen [--update]
The last line is 'verify-salt-check: N passed, N failed'.
"""
import argparse
import glob
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
FIELDS = ("isa", "findings", "totals", "suppressed", "truncated")


def inputs():
    """-> [(name, isa, text)] in a stable order."""
    out = []
    for path in sorted(glob.glob(os.path.join(HERE, "llvm", "*", "*.s.gz"))):
        isa = os.path.basename(os.path.dirname(path))
        out.append(("llvm/%s/%s" % (isa, os.path.basename(path)), isa, path))
    with open(os.path.join(HERE, "cases", "cases.jsonl")) as f:
        for line in f:
            if line.strip():
                c = json.loads(line)
                out.append(("cases/" + c["file"], c["isa"], os.path.join(HERE, "cases", c["file"] + ".gz")))
    return out


def digest(kwgen, files, tmp):
    """SHA-256 over each file's name, then its --json fields and exit status;
    the files of one ISA go to one `kwgen verify --json-lines` process
    (tests/verify/batch.py): the same objects and statuses."""
    import batch as B
    jobs = []
    for k, (name, isa, path) in enumerate(files):
        with gzip.open(path, "rb") as f:
            text = f.read()
        local = os.path.join(tmp, "%05d_input.s" % k)
        with open(local, "wb") as f:
            f.write(text)
        jobs.append((isa, local))
    res = {}
    for isa in sorted(set(i for i, _ in jobs)):
        paths = [p for i, p in jobs if i == isa]
        for path, (fs, out, err) in zip(paths, B.verify_many(kwgen, paths, isa, timeout=120)):
            res[path] = (out, err)
    h = hashlib.sha256()
    for (name, _, _), (_, local) in zip(files, jobs):
        a, err = res[local]
        os.unlink(local)
        if err:
            raise RuntimeError("%s: kwgen verify: %s" % (name, err))
        rec = {k: a.get(k) for k in FIELDS}
        rec["exit"] = a["exit"]
        h.update(name.encode() + b"\0")
        h.update(json.dumps(rec, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.environ.get("KWGEN", "build/kwgen"))
    ap.add_argument("--update", action="store_true")
    opts = ap.parse_args()
    kwgen = os.path.abspath(opts.kwgen)

    p = subprocess.run([kwgen, "verify", "--version"], capture_output=True, text=True)
    version = p.stdout.strip()
    if p.returncode != 0 or not version.startswith("kwgen-verify-"):
        print("verify-salt-check: `kwgen verify --version` gave exit %d, %r" % (p.returncode, version))
        print("verify-salt-check: 0 passed, 1 failed")
        return 1
    files = inputs()
    tmp = tempfile.mkdtemp(prefix="kwgen-verify-salt-")
    try:
        d = digest(kwgen, files, tmp)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        print("verify-salt-check: %s" % e)
        print("verify-salt-check: 0 passed, 1 failed")
        return 1
    finally:
        for f in glob.glob(os.path.join(tmp, "*")):
            os.unlink(f)
        os.rmdir(tmp)
    path = os.path.join(HERE, "salt.txt")
    if opts.update:
        with open(path, "w") as f:
            f.write("version %s\ndigest %s\n" % (version, d))
        print("verify-salt-check: recorded version %s with digest %s over %d files" % (version, d[:16], len(files)))
        return 0
    rec = dict(l.split(" ", 1) for l in open(path).read().split("\n") if l)
    if rec.get("version") == version and rec.get("digest") == d:
        print("verify-salt-check: version %s matches the findings digest of %d files" % (version, len(files)))
        print("verify-salt-check: 1 passed, 0 failed")
        return 0
    if rec.get("version") == version:
        print("verify-salt-check: the findings changed (digest %s, recorded %s) but the verifier version is still %s:"
              % (d[:16], rec.get("digest", "")[:16], version))
        print("  bump KW_VERIFY_VERSION in lib/verify/findings.c so daemons do not serve stale verifications,")
        print("  then run `make verify-salt-update` to record the new pair")
    else:
        print("verify-salt-check: version %s is not the recorded %s; run `make verify-salt-update` to record it"
              % (version, rec.get("version")))
    print("verify-salt-check: 0 passed, 1 failed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
