#!/usr/bin/env python3
"""The cache key's salt must change whenever any generated output changes.

kwgend keys its cache by SHA-256(generator-version salt || canonical request):
if the output for a request changed while the salt stayed, daemons would
serve stale entries.  This check runs `kwgen --batch` over the golden
requests, digests every answer (asm, type, maps, values, diagnostics; for an
error only the fact), and compares with tests/golden/salt.txt:

  same salt, same digest       ok
  same salt, other digest      FAIL: bump KW_GENERATOR_SALT (lib/canonical.c),
                               then `make salt-update`
  other salt                   FAIL until `make salt-update` records the pair

Usage: salt_check.py --kwgen build/kwgen [--update]
(`make golden` makes the same check on the answers it compares:
tests/golden/compare.py --salt, with Digest and verdict below.)
"""
import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ("asm", "type", "acc2arch", "arch2acc", "value", "isa", "diagnostics")


def salt_of(kwgen):
    """The salt kwgen keys its cache with: `kwgen --version`'s "(generators X)"."""
    version = subprocess.run([kwgen, "--version"], capture_output=True, text=True, check=True).stdout
    return version.split("(generators ", 1)[1].rstrip(")\n")


class Digest:
    """SHA-256 over the answers, in order: for each, its FIELDS (for an
    error only the fact) as sorted compact JSON and a newline."""

    def __init__(self):
        self.h, self.n = hashlib.sha256(), 0

    def add(self, a):
        """a: one parsed answer of `kwgen --batch`."""
        if isinstance(a, dict) and "error" in a:
            rec = {"error": True}
        elif isinstance(a, dict):
            rec = {k: a[k] for k in FIELDS if k in a}
        else:
            rec = {"not an answer": a if isinstance(a, (str, int, float, list)) else None}
        self.h.update(json.dumps(rec, sort_keys=True, separators=(",", ":")).encode())
        self.h.update(b"\n")
        self.n += 1

    def hexdigest(self):
        return self.h.hexdigest()


def verdict(salt, digest, n):
    """Compare (salt, digest) with salt.txt; print why; True when they match."""
    path = os.path.join(HERE, "salt.txt")
    rec = dict(l.split(" ", 1) for l in open(path).read().split("\n") if l)
    if rec.get("salt") == salt and rec.get("digest") == digest:
        print("salt-check: salt %s matches the output digest of %d answers" % (salt, n))
        return True
    if rec.get("salt") == salt:
        print("salt-check: the generated output changed (digest %s, recorded %s) but the salt is still %s:"
              % (digest[:16], rec.get("digest", "")[:16], salt))
        print("  bump KW_GENERATOR_SALT in lib/canonical.c so daemons do not serve stale cache entries,")
        print("  then run `make salt-update` to record the new pair")
    else:
        print("salt-check: salt %s is not the recorded %s; run `make salt-update` to record it"
              % (salt, rec.get("salt")))
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.environ.get("KWGEN", "build/kwgen"))
    ap.add_argument("--update", action="store_true")
    opts = ap.parse_args()

    salt = salt_of(opts.kwgen)
    # the requests reach kwgen through a file, not a pipe (~40 MB in 4 KiB
    # pipe writes cost more CPU than kwgen's parsing of them)
    with gzip.open(os.path.join(HERE, "requests.jsonl.gz"), "rb") as f, tempfile.TemporaryFile() as fin:
        shutil.copyfileobj(f, fin, 1 << 20)
        fin.seek(0)
        out = subprocess.run([opts.kwgen, "--batch"], stdin=fin, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, check=True).stdout
    d = Digest()
    for line in out.splitlines():
        d.add(json.loads(line))
    digest = d.hexdigest()
    if opts.update:
        with open(os.path.join(HERE, "salt.txt"), "w") as f:
            f.write("salt %s\ndigest %s\n" % (salt, digest))
        print("salt-check: recorded salt %s with digest %s over %d answers" % (salt, digest[:16], d.n))
        return 0
    ok = verdict(salt, digest, d.n)
    print("salt-check: %d passed, %d failed" % (ok, not ok))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
