#!/usr/bin/env python3
"""make verify-roclibs: kwgen verify over the gfx908/gfx90a code objects that
Debian's ROCm libraries ship (librocsparse0, librocrand1: clang offload
bundles in each library's .hip_fatbin section, built by another LLVM).

Compiler output places every wait with LLVM's SIInsertWaitcnts, so each code
object must be read whole (exit 0, nothing refused) and give no race-class
finding (race_*, lds_barrier, lds_dma).  Prints the counts, the instructions
and the time; exit 1 on any refusal or race finding.

Not part of make test: the libraries are 1.3 GB of code objects (install them
with `apt-get install librocsparse0 librocrand1`).  Without them: SKIPPED,
exit 0 (outside CI) or 1 with --require.  The code objects are written to a
temporary directory and removed afterwards; nothing is kept.
"""
import argparse
import collections
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

PACKAGES = ("librocsparse0", "librocrand1")
ISAS = ("gfx908", "gfx90a")
MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
RACE = ("lds_barrier", "lds_dma")


def libraries():
    """The shared objects the packages install (one per real file)."""
    out, seen = [], set()
    for pkg in PACKAGES:
        r = subprocess.run(["dpkg", "-L", pkg], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if r.returncode:
            continue
        for path in r.stdout.split():
            if ".so" in os.path.basename(path) and os.path.isfile(path) and not os.path.islink(path):
                real = os.path.realpath(path)
                if real not in seen:
                    seen.add(real)
                    out.append(real)
    return sorted(out)


def unbundle(fatbin, outdir, tag):
    """Write the code objects of every offload bundle in `fatbin` (the
    format of clang-offload-bundler: magic, entry count, then per entry its
    offset from the bundle's start, size, and target id) whose target is one
    of ISAS; -> their paths."""
    data = open(fatbin, "rb").read()
    paths, pos = [], 0
    while True:
        start = data.find(MAGIC, pos)
        if start < 0:
            return paths
        p = start + len(MAGIC)
        (count,) = struct.unpack_from("<Q", data, p)
        p += 8
        for _ in range(count):
            off, size, idlen = struct.unpack_from("<QQQ", data, p)
            p += 24
            target = data[p:p + idlen].decode("ascii", "replace")
            p += idlen
            # e.g. hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-: the processor
            # follows the triple's empty environment field
            proc = target.rsplit("--", 1)[-1].split(":")[0]
            isa = proc if proc in ISAS else None
            if isa and size:
                path = os.path.join(outdir, "%s-%05d-%s.co" % (tag, len(paths), isa))
                with open(path, "wb") as f:
                    f.write(data[start + off:start + off + size])
                paths.append(path)
        pos = start + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default="build/kwgen")
    ap.add_argument("--objcopy", default="llvm-objcopy-22")
    ap.add_argument("--require", action="store_true", help="fail when the libraries are not installed")
    a = ap.parse_args()
    libs = libraries()
    if not libs:
        print("verify-roclibs: SKIPPED: none of %s is installed (apt-get install %s)"
              % (", ".join(PACKAGES), " ".join(PACKAGES)))
        return 1 if a.require else 0
    tmp = tempfile.mkdtemp(prefix="kwgen-roclibs-")
    try:
        cos = []
        for lib in libs:
            fat = os.path.join(tmp, "fatbin")
            r = subprocess.run([a.objcopy, "--dump-section", ".hip_fatbin=" + fat, lib, os.devnull],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode or not os.path.exists(fat):
                print("note: %s: no .hip_fatbin section (%s)" % (lib, r.stderr.strip()[:200]))
                continue
            cos += unbundle(fat, tmp, os.path.basename(lib).split(".so")[0])
            os.unlink(fat)
        if not cos:
            print("verify-roclibs: FAILED: no %s code object in %s" % ("/".join(ISAS), ", ".join(libs)))
            return 1
        t0 = time.time()
        r = subprocess.run([a.kwgen, "verify", "--json-lines", "--no-redundant", "--"] + cos,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        secs = time.time() - t0
        exits, codes, bad = collections.Counter(), collections.Counter(), []
        insts = funcs = 0
        for line in r.stdout.splitlines():
            o = json.loads(line)
            exits[o["exit"]] += 1
            if "error" in o:
                bad.append("%s: refused: %s" % (os.path.basename(o["file"]), o["error"][:300]))
                continue
            insts += o["stats"]["instructions"]
            funcs += o["stats"]["functions"]
            for f in o["findings"]:
                codes[f["code"]] += 1
                if f["code"].startswith("race_") or f["code"] in RACE:
                    bad.append("%s:%s: %s: %s" % (os.path.basename(o["file"]), f["line"], f["code"],
                                                  f.get("message", "")[:300]))
        n = sum(exits.values())
        print("verify-roclibs: %d code objects (%s) from %s: %d functions, %d instructions in %.1f s; "
              "exits %s; findings %s" % (n, "/".join(ISAS), ", ".join(os.path.basename(x) for x in libs),
                                        funcs, insts, secs, dict(sorted(exits.items())), dict(codes) or "none"))
        if n != len(cos):
            bad.append("kwgen verify answered %d of %d files (exit %d): %s" % (n, len(cos), r.returncode,
                                                                            r.stderr[-500:]))
        for b in bad[:20]:
            print("  " + b)
        if bad:
            print("verify-roclibs: FAILED: %d refusals or race findings on compiler output" % len(bad))
            return 1
        print("verify-roclibs: ok: every code object read whole, no race-class finding")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
