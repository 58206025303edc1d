#!/usr/bin/env python3
"""Journeys through the plain-text answers, request sources and the cache
commands, with the real binaries as a user runs them.

  text_cache_test.py [--kwgen build/kwgen] [--kwgend build/kwgend]

1. `kwgen --asm FILE`: a header per result, the assembly, warnings as
   comments; errors on stderr with exit 1; `--asm --batch` one text per line.
2. replaceHolder: v[vgprValuC] is the holder, re-based by "replaceHolder".
3. `kwgen logic FILE | kwgen --asm --batch`: every text names its solution.
4. kwgend: `kwgen logic --server` answers carry their source; two sources of
   one configuration share the key and the row, each POST gets its own
   source back, GET gets the stored (first) one; Accept: text/plain on POST
   and GET is byte-identical to `kwgen --asm`; its ETag and 304.
5. `kwgen cache stats|ls|show|rm|purge` on the daemon's file while it runs,
   DELETE /v1/kernels/{key}, the README's sqlite3 queries; the daemon keeps
   answering and regenerates what was removed.
6. Wrong uses of the new commands: exit status 2 and a message naming what
   is allowed.
Prints "text-cache: N passed, M failed".
"""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as e2e  # noqa: E402  (the Daemon helper and the check() reporter)

EXAMPLE = os.path.join(ROOT, "examples", "gfx942-request.json")
FIXTURE = os.path.join("tests", "logic", "fixtures", "gfx942.yaml")
KW = {}


def kwgen(*args, stdin=None, timeout=120):
    p = subprocess.run([KW["kwgen"]] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, cwd=ROOT)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def example():
    with open(EXAMPLE) as f:
        return json.load(f)


def golden_lines(pred, n):
    out = []
    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        for line in f:
            r = json.loads(line)
            if pred(r):
                out.append(r)
                if len(out) == n:
                    break
    return out


# ------------------------------------------------------------------ 1, 2, 3

def t_asm_cli(tmp):
    rc, out, err = kwgen("--asm", EXAMPLE)
    assert rc == 0 and not err, (rc, err)
    rc2, js, _ = kwgen(EXAMPLE)
    ans = json.loads(js)
    heads = [l for l in out.splitlines() if l.startswith("// ") and "(" in l.split()[1]]
    assert [h.split("(")[0][3:] for h in heads] == [r["name"] for r in ans["results"]], heads
    assert "// wait(skipGlobalRead=0, skipLocalWrite=-1, skipLocalRead=-1, conservativeWaitCnt=0, comment=\"wait\", " \
           "skipGlobalReadInst=-1)\ns_waitcnt vmcnt(0)" in out, out[:600]
    assert "// getAccToArchLen() = 64\n" in out and "// hasSequentialValuC() = False\n" in out
    assert "// acc2arch: [0, 16, 32, 48, 1," in out
    for r in ans["results"]:
        if r.get("asm"):
            assert r["asm"] in out, r["name"]
    # a real corpus configuration with a diagnostic: the warning follows its asm
    # (the first corpus mapAcctoArchRegs request whose answer has a warning,
    # among those whose accumulators pass maxAgpr, the agpr_spill warning:
    # ~60 requests through kwgen --batch, not all ~2,500 of the generator,
    # which asan-golden answers under ASan already)
    def spills(r):
        k = r.get("kernel", {})
        try:
            acc = (k["MIWaveTile"][0] * k["MIWaveTile"][1] * k["MatrixInstM"] * k["MatrixInstN"]
                   * k.get("MatrixInstBM", 1) * k.get("MatrixInstBN", 1) * k.get("MIRegPerOut", 1)
                   // k.get("WavefrontSize", 64))
        except (KeyError, TypeError, IndexError):
            return False
        return acc > r.get("args", {}).get("maxAgpr", 256)
    cands = golden_lines(lambda r: r.get("generator") == "mapAcctoArchRegs" and spills(r), 100000)
    rc, out, err = kwgen("--batch", stdin="".join(json.dumps(c) + "\n" for c in cands).encode())
    diag = [c for c, a in zip(cands, out.splitlines()) if json.loads(a).get("diagnostics")]
    assert diag, "no answer with a warning among %d mapAcctoArchRegs requests past maxAgpr" % len(cands)
    diag = diag[0]
    p = os.path.join(tmp, "diag.json")
    with open(p, "w") as f:
        json.dump(diag, f)
    rc, out, err = kwgen("--asm", p)
    lines = out.splitlines()
    assert rc == 0 and lines[0].startswith("// source: library/") and lines[1].startswith("// mapAcctoArchRegs(maxAgpr=256"), lines[:2]
    assert lines[-1].startswith("// warning: "), lines[-1]
    assert not any(l.startswith("// warning: ") for l in lines[:-1]), "the warning comes after the asm"
    # errors: stderr, exit 1, nothing on stdout
    bad = example()
    bad["kernel"]["MIWaveTile"] = [0, 2]
    rc, out, err = kwgen("--asm", stdin=json.dumps(bad).encode())
    assert rc == 1 and out == "" and "kernel.MIWaveTile" in err and err.startswith("kwgen: invalid: "), (rc, out, err)
    rc, out, err = kwgen("--asm", stdin=b"{not json")
    assert rc == 1 and out == "" and "not JSON" in err, (rc, err)
    # --batch: one text per line, errors as a comment line
    lines = (json.dumps(example()) + "\n\n" + json.dumps({"isa": "gfx942", "generator": "nope"}) + "\n").encode()
    rc, out, err = kwgen("--asm", "--batch", stdin=lines)
    assert rc == 0, (rc, err)
    errs = [l for l in out.splitlines() if l.startswith("// error: ")]
    assert len(errs) == 2 and "line 2 is blank" in errs[0] and "allowed" in errs[1], errs


def t_replace_holder(tmp):
    """README's example (examples/replace-holder.json) and its list form."""
    with open(os.path.join(ROOT, "examples", "replace-holder.json")) as f:
        r = json.load(f)
    rc, out, err = kwgen("--asm", "examples/replace-holder.json")
    assert rc == 0 and out.splitlines()[1].startswith("v_accvgpr_read_b32 v[vgprValuC+8], acc0 "), (rc, out, err)
    assert "v[vgprValuC]," not in out, out
    del r["replaceHolder"]
    rc, out, err = kwgen("--asm", stdin=json.dumps(r).encode())
    assert rc == 0 and out.count("v_accvgpr_read_b32 v[vgprValuC], acc") == 4, (rc, out, err)
    r["replaceHolder"] = [0, 1, 2, 3]
    rc, out, err = kwgen("--asm", stdin=json.dumps(r).encode())
    assert rc == 0 and "v[vgprValuC+3], acc3" in out and "v[vgprValuC+0], acc0" in out, out
    r["replaceHolder"] = [0, 1]
    rc, out, err = kwgen("--asm", stdin=json.dumps(r).encode())
    assert rc == 1 and "replaceHolder list has 2 entries, the result has 4 items" in err, err


def t_logic_asm(tmp):
    rc, reqs, err = kwgen("logic", "--no-progress", FIXTURE)
    assert rc in (0, 1), (rc, err)
    lines = [json.loads(l) for l in reqs.splitlines()]
    assert lines and all(r["source"]["file"] == FIXTURE and isinstance(r["source"]["SolutionIndex"], int)
                         for r in lines), lines[0].get("source")
    rc, out, err = kwgen("--asm", "--batch", stdin=reqs.encode())
    assert rc == 0, err
    srcs = [l for l in out.splitlines() if l.startswith("// source: ")]
    assert len(srcs) == len(lines), (len(srcs), len(lines))
    assert srcs[0] == "// source: %s, SolutionIndex %d" % (FIXTURE, lines[0]["source"]["SolutionIndex"]), srcs[0]


# ------------------------------------------------------------------ 4, 5

FRESH_MS = 200   # KWGEND_TEST_MEMO_FRESH_MS of t_daemon's kwgend

def t_daemon(tmp):
    db = os.path.join(tmp, "cache.db")
    # memory answers without confirming the row for 200 ms instead of 1 s
    # (the test hook KWGEND_TEST_MEMO_FRESH_MS): the checks past that
    # freshness wait 0.25 s, not 1.1
    d = e2e.Daemon(KW["kwgend"], db, "--log-level", "error")
    d.prefix = ["env", "KWGEND_TEST_MEMO_FRESH_MS=%d" % FRESH_MS]
    d.start()
    try:
        url = "http://127.0.0.1:%d" % d.port
        rc, out, err = kwgen("logic", "--no-progress", "--server", url, "-o", os.path.join(tmp, "answers.jsonl"),
                             FIXTURE)
        assert rc in (0, 1), (rc, err)
        answers = [json.loads(l) for l in open(os.path.join(tmp, "answers.jsonl"))]
        assert answers and all(a.get("source", {}).get("file") == FIXTURE for a in answers), answers[0].get("source")
        KW["rows"] = len({a["key"] for a in answers})

        J = {"Content-Type": "application/json"}
        r1, r2 = example(), example()
        r1["source"] = {"file": "Logic/a.yaml", "SolutionIndex": 3, "SolutionNameMin": "Cijk_A"}
        r2["source"] = {"file": "Logic/b.yaml", "SolutionIndex": 9, "SolutionNameMin": "Cijk_B"}
        st, h, a1 = d.post(r1)
        st2, _, a2 = d.post(r2)
        st3, _, a0 = d.post(example())
        assert st == st2 == st3 == 200 and a1["key"] == a2["key"] == a0["key"], (st, st2, st3)
        assert a1["cached"] is False and a2["cached"] is True and a0["cached"] is True
        assert a1["source"] == r1["source"] and a2["source"] == r2["source"] and "source" not in a0
        st, _, a2b = d.post(r2)  # again: from memory, still its own source
        assert a2b["source"] == r2["source"] and a2b["cached"] is True
        key = a1["key"]
        st, h, data = d.request("GET", "/v1/kernels/" + key)
        g = json.loads(data)
        assert st == 200 and g["source"] == r1["source"] and g["results"] == a1["results"], g.get("source")
        assert h.get("vary") == "Accept"

        # text: byte-identical to kwgen --asm, for POST and GET
        p = os.path.join(tmp, "r2.json")
        with open(p, "w") as f:
            json.dump(r2, f)
        _, cli_text, _ = kwgen("--asm", p)
        st, h, data = d.request("POST", "/v1/kernels", json.dumps(r2), dict(J, Accept="text/plain"))
        assert st == 200 and h.get("content-type", "").startswith("text/plain") and data.decode() == cli_text, \
            (st, h.get("content-type"), data[:200])
        st, h, data = d.request("GET", "/v1/kernels/" + key, headers={"Accept": "text/plain"})
        assert st == 200 and data.decode().startswith("// source: Logic/a.yaml, SolutionIndex 3, SolutionNameMin Cijk_A\n")
        assert data.decode().split("\n", 1)[1] == cli_text.split("\n", 1)[1]
        assert h.get("etag") == '"%s-text"' % key, h.get("etag")
        st, _, _ = d.request("GET", "/v1/kernels/" + key, headers={"Accept": "text/plain",
                                                                    "If-None-Match": '"%s-text"' % key})
        assert st == 304, st
        st, h, _ = d.request("GET", "/v1/kernels/" + key, headers={"If-None-Match": '"%s-text"' % key})
        assert st == 200 and h.get("etag") == '"%s"' % key, st
        for accept, text in (("application/json", False), ("*/*", False), ("text/plain;q=0.5, application/json", False),
                             ("application/json;q=0.5, text/plain", True), ("text/*", True),
                             ("text/plain, application/json", True), ("text/html", False)):
            st, h, data = d.request("GET", "/v1/kernels/" + key, headers={"Accept": accept})
            is_text = h.get("content-type", "").startswith("text/plain")
            assert st == 200 and is_text == text, (accept, h.get("content-type"))

        # a batch in text: byte-identical to kwgen --asm --batch over the
        # same lines, an item without an answer as "// error: CODE: MESSAGE"
        bad = example()
        bad["kernel"]["MIWaveTile"] = "four"
        items = [r2, bad, example(), {"isa": "gfx000", "kernel": {}}]
        _, cli_batch, _ = kwgen("--asm", "--batch", stdin="".join(json.dumps(x) + "\n" for x in items).encode())
        st, h, data = d.request("POST", "/v1/kernels:batch", json.dumps({"requests": items}),
                                dict(J, Accept="text/plain"))
        assert st == 200 and h.get("content-type", "").startswith("text/plain") and h.get("vary") == "Accept", \
            (st, h, data[:300])
        assert data.decode() == cli_batch, (data[:600], cli_batch[:600])
        assert data.decode().count("// error: invalid: ") == 2, data[:600]
        st, h, data = d.request("POST", "/v1/kernels:batch", json.dumps({"requests": items}), J)
        assert st == 200 and h.get("content-type", "").startswith("application/json"), h
        # the cache commands, on the file the daemon is using
        rows = KW["rows"] + 1
        rc, out, err = kwgen("cache", "--db", db, "stats")
        assert rc == 0 and ("entries   %d\n" % rows) in out and "gfx942" in out, (rc, out, err)
        rc, out, err = kwgen("cache", "--db", db, "ls")
        ls = out.splitlines()
        assert rc == 0 and len(ls) == rows and ls[0].startswith(key), (rc, ls[:2], err)
        assert "Logic/a.yaml, SolutionIndex 3, SolutionNameMin Cijk_A" in ls[0], ls[0]
        rc, out, err = kwgen("cache", "--db", db, "ls", "--limit", "2")
        assert rc == 0 and len(out.splitlines()) == 2
        rc, out, err = kwgen("cache", "--db", db, "show", key)
        assert rc == 0 and out.startswith("// key: %s\n" % key) and "// source: Logic/a.yaml" in out and \
            cli_text.split("\n", 1)[1] in out, out[:400]
        rc, out, err = kwgen("cache", "--db", db, "show", key, "--json")
        sj = json.loads(out)
        assert rc == 0 and sj["key"] == key and sj["source"] == r1["source"] and sj["cached"] is True
        # a key prefix names its key; ls --json is one object per line
        rc, out2, err = kwgen("cache", "--db", db, "show", key[:10], "--json")
        assert rc == 0 and json.loads(out2) == sj, (rc, err)
        rc, out, err = kwgen("cache", "--db", db, "ls", "--json")
        objs = [json.loads(l) for l in out.splitlines()]
        assert rc == 0 and len(objs) == rows and objs[0]["key"] == key and objs[0]["source"] == r1["source"], objs[:1]
        assert all(set(o) >= {"key", "isa", "bytes", "created", "last_access"} for o in objs)
        rc, out, err = kwgen("cache", "--db", db, "show", "0000")
        assert (rc, out) == (1, "") and "no entry for key 0000" in err, (rc, err)
        # the README's sqlite3 shell queries read the same
        if shutil.which("sqlite3"):
            q = subprocess.run(["sqlite3", db, "SELECT count(*), sum(bytes) FROM entries"], stdout=subprocess.PIPE,
                               check=True, timeout=30).stdout.decode().strip()
            assert q.split("|")[0] == str(rows), q
            q = subprocess.run(["sqlite3", db, "SELECT source FROM entries WHERE key = '%s'" % key],
                               stdout=subprocess.PIPE, check=True, timeout=30).stdout.decode().strip()
            assert json.loads(q) == r1["source"], q
        else:
            print("SKIPPED sqlite3 shell queries: the sqlite3 shell is not installed")
        # rm through the CLI: the daemon no longer has it (GET reads the file)
        rc, out, err = kwgen("cache", "--db", db, "rm", key)
        assert rc == 0 and out == "deleted %s\n" % key, (rc, out, err)
        rc, out, err = kwgen("cache", "--db", db, "rm", key)
        assert rc == 1 and "no entry for key" in err, (rc, err)
        rc, out, err = kwgen("cache", "--db", db, "show", key)
        assert rc == 1 and "no entry for key" in err
        # past the daemon's in-memory freshness (FRESH_MS), which GET by key
        # and POST hits share: a row removed behind kwgend's back is then gone
        time.sleep(FRESH_MS / 1000.0 + 0.05)
        st, _, _ = d.request("GET", "/v1/kernels/" + key)
        assert st == 404, st
        st, _, a = d.post(r1)
        assert st == 200 and a["cached"] is False and a["source"] == r1["source"], a.get("cached")
        # DELETE over HTTP, then the CLI no longer lists it
        st, _, data = d.request("DELETE", "/v1/kernels/" + key)
        assert st == 200 and json.loads(data) == {"key": key, "deleted": True}, (st, data)
        st, _, a = d.post(r1)
        assert st == 200 and a["cached"] is False, "DELETE must drop what memory holds too"
        # purge: recent rows survive --older-than, then everything goes
        rc, out, err = kwgen("cache", "--db", db, "purge", "--older-than", "1")
        assert rc == 0 and out == "purged 0 entries\n", (rc, out, err)
        rc, out, err = kwgen("cache", "--db", db, "purge", "--older-than", "0")
        assert rc == 0 and out == "purged %d entries\n" % rows, (rc, out, err)
        rc, out, err = kwgen("cache", "--db", db, "stats")
        assert rc == 0 and "entries   0\n" in out and "bytes     0 " in out, out
        time.sleep(FRESH_MS / 1000.0 + 0.05)  # past the daemon's in-memory freshness
        st, _, a = d.post(r2)
        assert st == 200 and a["cached"] is False and a["source"] == r2["source"], (st, a.get("cached"))
        # /v1/verify is JSON only: text alone is 406, a wildcard or JSON is JSON
        asm = "s_waitcnt vmcnt(0)\ns_endpgm\n"
        for accept, want in (("text/plain", 406), ("application/json;q=0, text/plain", 406),
                             ("text/plain, */*;q=0.1", 200), ("application/json", 200)):
            st, h, data = d.request("POST", "/v1/verify?isa=gfx942", asm,
                                    {"Content-Type": "text/plain", "Accept": accept})
            assert st == want and h.get("content-type", "").startswith("application/json"), (accept, st, data[:200])
            if want == 406:
                assert json.loads(data)["error"]["code"] == "not_acceptable", data
            else:
                vkey = json.loads(data)["key"]
        st, _, data = d.request("GET", "/v1/verify/" + vkey, headers={"Accept": "text/plain"})
        assert st == 406, (st, data[:200])

        st, _, _ = d.request("GET", "/healthz")
        assert st == 200
        rc = d.stop()
        assert rc == 0, "kwgend exit status %d" % rc
        bad = [x for x in d.log if "Sanitizer" in x or "runtime error" in x]
        assert not bad, bad[:3]
    finally:
        if d.proc and d.proc.poll() is None:
            d.stop()


# ------------------------------------------------------------------ 6

def t_wrong_uses(tmp):
    db = os.path.join(tmp, "w.db")
    d = e2e.Daemon(KW["kwgend"], db, "--log-level", "error").start()
    d.stop()
    cases = [
        ((), "purge [--older-than DAYS]"),
        (("cache",), "usage: kwgen cache"),
        (("cache", "--db", db, "explode"), "unknown command \"explode\"; allowed: stats, ls, show KEY, rm KEY, purge"),
        (("cache", "--db", db, "show"), "show needs a KEY"),
        (("cache", "--db", db, "ls", "abc"), "ls takes no KEY"),
        (("cache", "--db", db, "show", "XYZ"), "64 lower-case hex digits"),
        (("cache", "--db", db, "rm", "A" * 64), "64 lower-case hex digits"),
        (("cache", "--db", db, "purge", "--older-than", "-1"), "--older-than takes a number of days"),
        (("cache", "--db", db, "purge", "--older-than", "soon"), "--older-than takes a number of days"),
        (("cache", "--db", db, "purge", "--older-than", "nan"), "--older-than takes a number of days"),
        (("cache", "--db", db, "ls", "--limit", "0"), "--limit takes a count"),
        (("cache", "--db", db, "stats", "--json"), "takes none of"),
        (("cache", "--db", db, "show", "abc"), "or its first 4 or more"),
        (("cache", "--db", db, "stats", "--bogus"), "unknown option --bogus"),
        (("cache", "--db", os.path.join(tmp, "missing.db"), "stats"), "missing.db: No such file"),
        (("--asm", "--canonical", EXAMPLE), "--asm and --canonical do not go together"),
    ]
    for args, want in cases:
        if not args:
            rc, out, err = kwgen("cache", "--help")
            assert rc == 0 and want in out, out
            continue
        rc, out, err = kwgen(*args)
        assert rc == 2 and want in err, (args, rc, err)
    assert not os.path.exists(os.path.join(tmp, "missing.db")), "kwgen cache created a file"
    # a file that is not a cache
    junk = os.path.join(tmp, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"this is not an SQLite file" * 100)
    rc, out, err = kwgen("cache", "--db", junk, "ls")
    assert rc == 2 and "junk.db" in err, (rc, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.path.join(ROOT, "build", "kwgen"))
    ap.add_argument("--kwgend", default=os.path.join(ROOT, "build", "kwgend"))
    a = ap.parse_args()
    KW["kwgen"], KW["kwgend"] = os.path.abspath(a.kwgen), os.path.abspath(a.kwgend)
    with tempfile.TemporaryDirectory(prefix="kwgen-text-cache-") as tmp:
        e2e.check("kwgen --asm: headers, asm, warnings, errors, --batch", t_asm_cli, tmp)
        e2e.check("replaceHolder fills Tensile's v[vgprValuC] holder", t_replace_holder, tmp)
        e2e.check("kwgen logic | kwgen --asm --batch names every solution", t_logic_asm, tmp)
        e2e.check("kwgend: sources, text/plain (batches too; 406 on /v1/verify), kwgen cache, DELETE while it runs",
                  t_daemon, tmp)
        e2e.check("wrong uses of kwgen cache and --asm: exit 2 and what is allowed", t_wrong_uses, tmp)
    print("text-cache: %d passed, %d failed" % (e2e.PASSED, e2e.FAILED))
    return 1 if e2e.FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
