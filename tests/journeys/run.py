#!/usr/bin/env python3
"""Journey tests: what a user does, done as the user does it.

    run.py --build build --asan-build build-asan [--only NAME ...] [--real-limit N]

Journeys (tests/journeys/README.md):
  docs      every shell block of README.md and the man pages' EXAMPLES, as written (docs.py)
  forms     every request form (oracle, many generators, generators omitted, each
            generator alone, errors) through `kwgen --batch` built with ASan+UBSan
  pipes     `kwgen logic FILE | kwgen --batch` for every fixture and every real
            hipBLASLt logic file in ../shared/logic (ASan build), --jobs 1 and the
            default give the same bytes, and kwgend answers the same requests alike
  server    `kwgen logic --server` against kwgend with bearer tokens and with TLS
            (a CA made here with openssl); docker/healthcheck.sh against both
  hostile   hostile YAML and hostile batch lines: a clear error, bounded memory
  install   make install DESTDIR=...; the installed kwgen, kwgend, man pages and
            pkg-config file used from there

Prints ok/FAIL/SKIPPED lines and `journeys: N passed, N failed, N skipped`;
exits 1 if anything failed.  Stdlib only.
"""
import argparse
import glob
import gzip
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, SHARED, Daemon, Tally, free_port, post_json, run, sanitizer_report  # noqa: E402

FIX = os.path.join(ROOT, "tests", "logic", "fixtures")
MB = 1024  # ru_maxrss is in KiB

GENERATORS = ["tdmWait", "wait", "syncThreads", "accToArchMapper", "getAccToArchLen", "hasSequentialValuC",
              "accVgprImagNumOffset", "mapAcctoArchRegs", "mulMIoutAlphaToArch", "moveMIoutToArch"]
REQUIRED_ARGS = {"tdmWait": {"tensorcnt": 0},
                 "wait": {"skipGlobalRead": 0, "skipLocalWrite": -1, "skipLocalRead": -1},
                 "mulMIoutAlphaToArch": {"startVgprAlphaTmp": 40},
                 "moveMIoutToArch": {"startVgprAlphaTmp": 40}}


def asan_env():
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=66"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=66"
    return env


def lines_of(b):
    return b.decode("utf-8", "replace").split("\n")[:-1] if b else []


# ---- forms ----------------------------------------------------------------

def journey_forms(t, a, tmp):
    """Every request form through batch mode under ASan, in one file."""
    base = json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))
    base.pop("generators", None)
    reqs = []
    # the oracle form: a sample of the golden requests (every generator, every ISA)
    with gzip.open(os.path.join(ROOT, "tests", "golden", "requests.jsonl.gz"), "rt") as f:
        # line by line: read() and split() cost four times the CPU
        golden = [l.rstrip("\n") for l in f if l.strip()]
    reqs += golden[::max(1, len(golden) // 400)]
    # farm form: generators omitted, each generator alone, all of them at once
    reqs.append(json.dumps(base))
    everything = []
    for g in GENERATORS:
        call = {"name": g}
        if g in REQUIRED_ARGS:
            call["args"] = REQUIRED_ARGS[g]
        everything.append(call)
        reqs.append(json.dumps(dict(base, generators=[call])))
    reqs.append(json.dumps(dict(base, generators=everything)))
    reqs.append(json.dumps(dict(base, generators=everything, isa=[9, 4, 2])))
    # errors in each form (answered, not crashed on)
    reqs.append(json.dumps(dict(base, generators=[{"name": "wiat"}])))
    reqs.append(json.dumps({"isa": "gfx942", "generator": "wiat", "args": {}, "kernel": {}}))
    reqs.append(json.dumps(dict(base, generators=[{"name": "getAccToArchLen"}],
                                kernel=dict(base["kernel"], MIWaveTile=[100000, 100000]))))
    reqs.append(json.dumps(dict(base, strict="yes")))
    text = ("\n".join(reqs) + "\n").encode()
    kw = os.path.join(a.asan_build, "kwgen")
    outs = {}
    for jobs in (None, "1", "3"):
        argv = [kw, "--batch"] + (["--jobs", jobs] if jobs else [])
        r = run(argv, text, env=asan_env(), timeout=600)
        san = sanitizer_report(r.err)
        label = "jobs %s" % (jobs or "default")
        t.check(r.rc == 0 and not san, "forms: %d requests (oracle form, many generators, omitted, each of %d "
                "generators, errors) through ASan kwgen --batch, %s" % (len(reqs), len(GENERATORS), label),
                "exit %d: %s" % (r.rc, san or r.err[-600:].decode("utf-8", "replace")))
        outs[label] = r.out
    t.check(len(set(outs.values())) == 1, "forms: the same bytes for every --jobs")
    ans = [json.loads(l) for l in lines_of(outs["jobs default"])]
    t.check(len(ans) == len(reqs), "forms: one answer per request (%d for %d)" % (len(ans), len(reqs)))
    if len(ans) != len(reqs):
        return
    k = len(reqs)
    farm = ans[k - len(GENERATORS) - 7:k - 4]
    t.check(all("results" in x and x.get("isa") == "gfx942" for x in farm),
            "forms: farm-form answers carry results and isa \"gfx942\"",
            json.dumps([x for x in farm if "results" not in x or x.get("isa") != "gfx942"])[:600])
    errs = ans[-4:]
    shapes = [isinstance(e.get("error"), dict) and set(e["error"]) == {"code", "message", "field"} for e in errs]
    t.check(all(shapes) and errs[0]["error"]["code"] == "invalid" and errs[2]["error"]["code"] == "limit"
            and errs[2]["error"]["field"] == "kernel.MIWaveTile",
            "forms: errors in every form (the oracle form's too) are {\"error\": {code, message, field}} "
            "(getAccToArchLen past the acc-len limit: limit)",
            json.dumps(errs)[:800])
    # the farm-form requests, answers and errors alike, posted to kwgend: the same objects
    idx = [i for i, q in enumerate(reqs) if "generator" not in json.loads(q)]
    with Daemon(os.path.join(a.build, "kwgend"), os.path.join(tmp, "forms.db"), "--log-level", "error") as d:
        srv = daemon_answers(d, [json.loads(reqs[i]) for i in idx])
    diff = [i for i, s in zip(idx, srv) if comparable(ans[i]) != comparable(s)]
    t.check(not diff, "forms: kwgend answers the %d farm-form requests (errors included) with the same objects" % len(idx),
            "first difference, request %s:\n  cli %s\n  srv %s" % (
                diff[:1], json.dumps(comparable(ans[diff[0]]))[:400] if diff else "",
                json.dumps(comparable(srv[idx.index(diff[0])]))[:400] if diff else ""))


# ---- pipes ----------------------------------------------------------------

def logic_files(a, t):
    files = sorted(glob.glob(os.path.join(FIX, "gfx*.yaml")))
    real_dir = os.path.join(SHARED, "logic")
    real = sorted(glob.glob(os.path.join(real_dir, "**", "*.yaml"), recursive=True))
    if not real:
        t.skip("pipes: real hipBLASLt logic files", "%s is absent (a fresh clone has no ../shared)" % real_dir)
    return files, real


def daemon_answers(d, reqs):
    """The daemon's answer per request (POST /v1/kernels:batch, 200 at a time)."""
    out = []
    url = "http://127.0.0.1:%d/v1/kernels:batch" % d.port
    for i in range(0, len(reqs), 200):
        st, body = post_json(url, {"requests": reqs[i:i + 200]})
        if st != 200:
            raise RuntimeError("batch POST: HTTP %d %s" % (st, json.dumps(body)[:300]))
        for it in body["results"]:
            out.append(it["response"] if it.get("status") == 200 else {"error": it.get("error")})
    return out


def comparable(ans):
    if "error" in ans:
        return {"error": ans["error"]}
    return {k: ans.get(k) for k in ("isa", "config_id", "key", "generator_version", "results")}


def journey_pipes(t, a, tmp):
    fixtures, real = logic_files(a, t)
    if a.real_limit and len(real) > a.real_limit:
        real = real[:a.real_limit]
    kw_asan = os.path.join(a.asan_build, "kwgen")
    total_req = total_files = 0
    t0 = time.time()
    # every file through ASan's kwgen logic in one run (one process start
    # and LeakSanitizer pass, not one per file: the files are read one after
    # another, each file's lines in its order, tagged with its source.file);
    # each file's own exit status and summary are checked below on the plain
    # build's `kwgen logic FILE` of the shell pipe
    paths = fixtures + real
    want = {p: 1 if os.path.basename(p) in ("gfx90a.yaml", "gfx942.yaml") and p.startswith(FIX) else 0
            for p in paths}
    lg = run([kw_asan, "logic", "--no-progress"] + paths, env=asan_env(), timeout=300)
    san = sanitizer_report(lg.err)
    want_all = max(want.values()) if want else 0
    summary = (lg.err.decode("utf-8", "replace").strip().split("\n") or [""])[-1]
    t.check(lg.rc == want_all and not san and ("exit %d" % lg.rc) in summary,
            "pipes: kwgen logic over the %d files (ASan) exits %d, summary says so" % (len(paths), want_all),
            "exit %d: %s" % (lg.rc, san or lg.err[-600:].decode("utf-8", "replace")))
    per = {p: [] for p in paths}
    for raw in lg.out.splitlines(keepends=True):
        src = json.loads(raw).get("source", {}).get("file")
        if src in per:
            per[src].append(raw)
    files = []   # (path, name, want_rc, requests text, requests)
    for path in paths:
        name = os.path.relpath(path, ROOT) if path.startswith(ROOT) else "shared/" + os.path.relpath(path, SHARED)
        files.append((path, name, want[path], b"".join(per[path]), [json.loads(l) for l in per[path]]))
    t.check(sum(len(f[4]) for f in files) == len(lines_of(lg.out)),
            "pipes: every request line of the ASan run names one of the files as its source",
            "%d of %d lines" % (sum(len(f[4]) for f in files), len(lines_of(lg.out))))
    # every file's requests through ASan's kwgen --batch in one run per
    # --jobs (one process start and LeakSanitizer pass each, not one per
    # file): a line's answer does not depend on the lines around it, so
    # each file's answers are its part of the output
    everything = b"".join(f[3] for f in files)
    n_all = sum(len(f[4]) for f in files)
    outs = []
    for jobs in (None, "1"):
        argv = [kw_asan, "--batch"] + (["--jobs", jobs] if jobs else [])
        r = run(argv, everything, env=asan_env(), timeout=600)
        san = sanitizer_report(r.err)
        t.check(r.rc == 0 and not san and len(lines_of(r.out)) == n_all,
                "pipes: the %d files' %d requests | kwgen --batch%s (ASan): %d answers" % (
                    len(files), n_all, " --jobs 1" if jobs else "", n_all),
                "exit %d, %d lines: %s" % (r.rc, len(lines_of(r.out)),
                                            san or r.err[-600:].decode("utf-8", "replace")))
        outs.append(lines_of(r.out))
    with Daemon(os.path.join(a.build, "kwgend"), os.path.join(tmp, "pipes.db"), "--log-level", "error") as d:
        at = 0
        for path, name, want_rc, reqs_text, reqs in files:
            mine = [o[at:at + len(reqs)] for o in outs]
            at += len(reqs)
            t.check(len(mine[0]) == len(reqs) and mine[0] == mine[1],
                    "pipes: %s: %d answers, default --jobs and --jobs 1 give the same bytes" % (name, len(reqs)))
            answers = "".join(x + "\n" for x in mine[0]).encode()
            # and literally as typed: one shell pipe.  The plain build: the
            # ASan runs above took the same paths (their stdin is a pipe too)
            logic_err = os.path.join(tmp, "pipes-logic.err")
            r = run(["bash", "-o", "pipefail", "-c", '"$0" logic --no-progress "$1" 2>"$2" | "$0" --batch',
                     os.path.join(a.build, "kwgen"), path, logic_err], timeout=600)
            with open(logic_err, "rb") as f:
                lerr_b = f.read()
            lerr = lerr_b.decode("utf-8", "replace")
            summary = (lerr.strip().split("\n") or [""])[-1]
            t.check(r.rc == want_rc and ("exit %d" % want_rc) in summary and not sanitizer_report(lerr_b),
                    "pipes: kwgen logic %s exits %d, summary says so" % (name, want_rc),
                    "exit %d: %s" % (r.rc, lerr[-600:]))
            t.check(r.rc == want_rc and r.out == answers and not sanitizer_report(r.err),
                    "pipes: `kwgen logic %s | kwgen --batch` prints the answers ASan's kwgen --batch printed"
                    % os.path.basename(path),
                    "exit %d: %s" % (r.rc, r.err[-400:].decode("utf-8", "replace")))
            cli = [json.loads(l) for l in mine[0]]
            try:
                srv = daemon_answers(d, reqs)
            except Exception as e:  # report, count as a failure, go on with the next file
                t.check(False, "pipes: %s: kwgend answers the requests" % name, repr(e))
                continue
            diff = [i for i, (c, s) in enumerate(zip(cli, srv)) if comparable(c) != comparable(s)]
            t.check(len(cli) == len(srv) and not diff,
                    "pipes: %s: kwgend answers all %d requests as kwgen --batch does" % (name, len(reqs)),
                    "first difference at %s:\n  cli %s\n  srv %s" % (
                        diff[:1], json.dumps(comparable(cli[diff[0]]))[:400] if diff else "",
                        json.dumps(comparable(srv[diff[0]]))[:400] if diff else ""))
            total_req += len(reqs)
            total_files += 1
    print("pipes: %d files, %d requests, %.1f s" % (total_files, total_req, time.time() - t0), flush=True)
    # the real files through the directory walk, as a user points kwgen at Logic/
    if real:
        r = run([os.path.join(a.build, "kwgen"), "logic", "--no-progress", os.path.join(SHARED, "logic")], timeout=300)
        last = (r.err.decode().strip().split("\n") or [""])[-1]
        m = re.search(r"(\d+) files?, (\d+) solutions?", last)
        t.check(r.rc == 0 and m and int(m.group(1)) == len(real) and "no errors; exit 0" in last,
                "pipes: kwgen logic ../shared/logic walks the tree: %s" % last, r.err[-600:].decode())
        r = run([os.path.join(a.build, "kwgen"), "logic", "--no-progress", "--isa", "gfx950",
                 os.path.join(SHARED, "logic")], timeout=300)
        err = r.err.decode()
        msgs = [l for l in err.split("\n") if "does not run on gfx950" in l]
        t.check(r.rc == 1 and re.search(r"\d+ times: kernel.WavefrontSize 32 does not run on gfx950", err)
                and len(msgs) == 2 and "exit 1" in err.strip().split("\n")[-1],
                "pipes: --isa gfx950 on wave32 files: the error printed once, then counted; summary agrees with exit 1",
                err[-800:])


# ---- server ---------------------------------------------------------------

def make_ca(tmp):
    """A private CA and a server certificate for 127.0.0.1 signed by it."""
    def ossl(*args):
        p = subprocess.run(["openssl"] + list(args), cwd=tmp, capture_output=True)
        if p.returncode:
            raise RuntimeError("openssl %s: %s" % (args[0], p.stderr.decode()[-300:]))
    # P-256 keys: their keygen and handshakes cost a fraction of RSA 2048's CPU
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    ossl("req", "-x509", *ec, "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
         "-subj", "/CN=kwgen journeys CA")
    ossl("req", *ec, "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(tmp, "ext.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    ossl("x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
         "srv.pem", "-days", "2", "-extfile", "ext.cnf")
    return os.path.join(tmp, "ca.pem"), os.path.join(tmp, "srv.pem"), os.path.join(tmp, "srv.key")


def check_compose(t):
    """docker/compose.yaml as written (no Docker here): a published nginx tag,
    the port on the loopback by default, the health check on every replica."""
    text = open(os.path.join(ROOT, "docker", "compose.yaml")).read()
    m = re.search(r"^\s*image:\s*nginx:(\S+)", text, re.M)
    # tags the official nginx image publishes for Debian 12: <series>-bookworm, stable-/mainline-bookworm
    t.check(m and re.match(r"^(1\.(2[5-9])(\.\d+)?|stable|mainline)-bookworm$", m.group(1)),
            "compose: nginx image tag %s is a published bookworm tag" % (m.group(1) if m else "?"))
    ports = re.findall(r"^\s*ports:\s*\[(.*)\]", text, re.M)
    t.check(ports and all("127.0.0.1:" in p for p in ports),
            "compose: ports published on 127.0.0.1 by default: %s" % ports)
    t.check("healthcheck.sh" in text and "service_healthy" in text,
            "compose: the replicas' health check is docker/healthcheck.sh, nginx waits for it")
    df = open(os.path.join(ROOT, "docker", "Dockerfile")).read()
    t.check("COPY docker/healthcheck.sh" in df and "healthcheck.sh" in df.split("HEALTHCHECK", 1)[-1],
            "compose: the image installs and uses docker/healthcheck.sh")


def journey_server(t, a, tmp):
    check_compose(t)
    kw = os.path.join(a.build, "kwgen")
    fx = os.path.join(FIX, "gfx940.yaml")
    tokens = os.path.join(tmp, "tokens")
    with open(tokens, "w") as f:
        f.write("# kwgen tokens\n\n  s3cret-token-1  \nother-token\n")
    tokfile = os.path.join(tmp, "my-token")
    with open(tokfile, "w") as f:
        f.write("s3cret-token-1\n")
    hc = os.path.join(ROOT, "docker", "healthcheck.sh")
    env = dict(os.environ)
    for v in ("KWGEN_TOKEN", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        env.pop(v, None)
    try:
        ca, cert, key = make_ca(tmp)
    except (OSError, RuntimeError) as e:
        t.skip("server: TLS journeys", "cannot make certificates: %s" % e)
        ca = None
    configs = [("tokens", [])]
    if ca:
        configs.append(("tokens+TLS", ["--tls-cert", cert, "--tls-key", key]))
    for label, extra in configs:
        # a fixed port: the health check reads it from kwgend's --listen
        with Daemon(os.path.join(a.build, "kwgend"), os.path.join(tmp, "srv-%d.db" % len(extra)), "--auth-tokens",
                    tokens, "--log-level", "error", *extra, listen="127.0.0.1:%d" % free_port()) as d:
            url = "%s://127.0.0.1:%d" % ("https" if extra else "http", d.port)
            cafile = ["--cacert", ca] if extra else []
            r = run([kw, "logic", "--no-progress", "--server", url] + cafile + [fx], env=env)
            err = r.err.decode()
            t.check(r.rc == 2 and "401" in err and "--token" in err,
                    "server (%s): without a token: exit 2, the 401 says to give --token" % label, err[-500:])
            r = run([kw, "logic", "--no-progress", "--server", url, "--token", "wrong"] + cafile + [fx], env=env)
            t.check(r.rc == 2 and "refused the token" in r.err.decode(),
                    "server (%s): a wrong token: exit 2, said so" % label, r.err.decode()[-500:])
            r = run([kw, "logic", "--no-progress", "--server", url, "--token-file", tokfile] + cafile + [fx], env=env)
            last = (r.err.decode().strip().split("\n") or [""])[-1]
            t.check(r.rc == 0 and re.search(r"13 posted", last) and "no errors; exit 0" in last,
                    "server (%s): --token-file: every solution posted: %s" % (label, last), r.err.decode()[-500:])
            env2 = dict(env, KWGEN_TOKEN="other-token")
            r = run([kw, "logic", "--no-progress", "--server", url] + cafile + [fx], env=env2)
            last = (r.err.decode().strip().split("\n") or [""])[-1]
            t.check(r.rc == 0 and "13 cache hits (100.0%)" in last,
                    "server (%s): KWGEN_TOKEN: the second run is all cache hits: %s" % (label, last),
                    r.err.decode()[-500:])
            if extra:
                r = run([kw, "logic", "--no-progress", "--server", url, "--token-file", tokfile, fx], env=env)
                err = r.err.decode()
                t.check(r.rc == 2 and "--cacert" in err,
                        "server (TLS): a private CA not given: exit 2, the message names --cacert", err[-500:])
                for var in ("CURL_CA_BUNDLE", "SSL_CERT_FILE"):
                    r = run([kw, "logic", "--no-progress", "--server", url, "--token-file", tokfile, fx],
                            env=dict(env, **{var: ca}))
                    t.check(r.rc == 0, "server (TLS): %s trusts the CA" % var, r.err.decode()[-500:])
            r = run(["sh", hc], env=dict(env, KWGEND_PID=str(d.proc.pid)))
            t.check(r.rc == 0, "server (%s): docker/healthcheck.sh follows kwgend's flags and reports healthy" % label,
                    (r.out + r.err).decode()[-400:])
            t.check(d.stop() == 0, "server (%s): kwgend exits 0 on SIGTERM" % label)
    port = free_port()  # nothing listens there
    r = run([kw, "logic", "--no-progress", "--server", "http://127.0.0.1:%d" % port, fx], env=env, timeout=120)
    last = (r.err.decode().strip().split("\n") or [""])[-1]
    t.check(r.rc == 2 and "1 exchange failed" in last and last.endswith("exit 2"),
            "server: no daemon at the URL: exit 2, the summary counts the failed exchange: %s" % last,
            r.err.decode()[-500:])
    with Daemon(os.path.join(a.build, "kwgend"), os.path.join(tmp, "srv-plain.db"), "--log-level", "error",
                listen="127.0.0.1:%d" % free_port()) as d:
        r = run(["sh", hc], env=dict(env, KWGEND_PID=str(d.proc.pid)))
        t.check(r.rc == 0, "server (plain): docker/healthcheck.sh reports healthy", (r.out + r.err).decode()[-400:])
        pid = d.proc.pid
    r = run(["sh", hc], env=dict(env, KWGEND_PID=str(pid)))
    t.check(r.rc != 0, "server: docker/healthcheck.sh fails once kwgend is gone")


# ---- hostile --------------------------------------------------------------

def bomb_yaml(levels=8):
    src = open(os.path.join(FIX, "gfx940.yaml")).read().split("\n")
    assert src[3].startswith("- [Device")
    dev = ["- - Device 0000", "  - &a0 [1, 1]"]
    for i in range(1, levels + 1):
        dev.append("  - &a%d [%s]" % (i, ", ".join(["*a%d" % (i - 1)] * 10)))
    out = src[:3] + dev + src[4:]
    for k, l in enumerate(out):
        if "MIWaveTile:" in l:
            out[k] = l.split("MIWaveTile:")[0] + "MIWaveTile: *a7"
            break
    return "\n".join(out) + "\n"


def late_bomb_yaml():
    """Anchors defined inside the solution that uses them, one per line."""
    src = open(os.path.join(FIX, "gfx940.yaml")).read().split("\n")
    out = []
    done = False
    for l in src:
        if not done and "MIWaveTile:" in l:
            ind = l.split("MIWaveTile:")[0]
            out.append(ind + "Bomb0: &b0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]")
            for i in range(1, 7):
                out.append(ind + "Bomb%d: &b%d [%s]" % (i, i, ", ".join(["*b%d" % (i - 1)] * 10)))
            out.append(l)
            done = True
        else:
            out.append(l)
    return "\n".join(out) + "\n"


def journey_hostile(t, a, tmp):
    """Each input on the plain build (peak memory bounded by --rss-mb) and on
    the ASan + UBSan build (no report; its memory is not judged: shadow)."""
    # the 50 MB line's file, written once for both builds, a MiB at a time
    # (one 50 MB bytes object, and its copy in the line, cost ~1 s of CPU
    # in first-touched pages per build)
    good = json.dumps(json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))).encode()
    big = os.path.join(tmp, "big.jsonl")
    with open(big, "wb") as f:
        f.write(good + b"\n" + b'{"isa": "')
        mib = b"x" * (1 << 20)
        for _ in range(50):
            f.write(mib)
        f.write(b'"}\n' + good + b"\n")
    for build, label in ((a.build, ""), (a.asan_build, " [ASan]")):
        sub = os.path.join(tmp, "asan" if label else "plain")
        os.mkdir(sub)
        hostile_inputs(t, a, sub, os.path.join(build, "kwgen"), label, big)
    os.unlink(big)


def hostile_inputs(t, a, tmp, kw, label, big):
    env = asan_env()
    # memory is judged above what kwgen needs to start (shared libraries: libLLVM alone maps tens of MB)
    base_kb = run([kw, "--version"], env=env, measure=True).maxrss_kb
    limit_kb = base_kb + a.rss_mb * MB if not label else 1 << 40
    print("hostile%s: kwgen --version peaks at %d MB; an input may add %d MB" % (label, base_kb // MB, a.rss_mb),
          flush=True)
    if not label and not os.access("/usr/bin/time", os.X_OK):
        t.skip("hostile: exact peak memory", "/usr/bin/time is absent (package time): the figures include the "
               "forked Python test process")
    cases = []
    p = os.path.join(tmp, "bomb.yaml")
    open(p, "w").write(bomb_yaml())
    cases.append(("alias bomb under MIWaveTile (the issue's 17 KB file shape)", p, r"bomb\.yaml:\d+:\d+: alias \*a\d expands to"))
    p = os.path.join(tmp, "late-bomb.yaml")
    open(p, "w").write(late_bomb_yaml())
    cases.append(("alias bomb inside one solution", p, r"late-bomb\.yaml:\d+:\d+: alias \*b\d expands to"))
    p = os.path.join(tmp, "deep.yaml")
    open(p, "w").write("- {MinimumRequiredVersion: 1}\n- x\n- gfx942\n- []\n- {}\n- - " + "[" * 5000 + "]" * 5000 + "\n")
    cases.append(("5000 nested lists", p, r"deep\.yaml:\d+: nesting deeper than 64 levels"))
    p = os.path.join(tmp, "binary.yaml")
    with open(p, "wb") as f:
        f.write(bytes(range(256)) * 64 + os.urandom(4096))
    cases.append(("binary bytes", p, r"binary\.yaml:\d+:\d+: malformed YAML"))
    p = os.path.join(tmp, "empty-dir")
    os.mkdir(p)
    cases.append(("a directory without logic files", p, r"empty-dir: no \*\.yaml or \*\.yml file"))
    sub = os.path.join(tmp, "tree", "Logic", "asm_full", "aquavanjaram", "gfx942", "Equality")
    os.makedirs(sub)
    shutil.copy(os.path.join(FIX, "gfx940.yaml"), os.path.join(sub, "a.yaml"))
    shutil.copy(os.path.join(FIX, "malformed.yaml"), os.path.join(sub, "b.yaml"))
    cases.append(("a tree with one malformed file among good ones", os.path.join(tmp, "tree"),
                  r"b\.yaml:8:\d+: malformed YAML"))
    cases.append(("a missing file", os.path.join(tmp, "no-such.yaml"), r"no-such\.yaml: No such file or directory"))
    for what, path, want in cases:
        r = run([kw, "logic", "--no-progress", path], env=env, timeout=60, measure=True)
        err = r.err.decode("utf-8", "replace")
        last = (err.strip().split("\n") or [""])[-1]
        san = sanitizer_report(r.err)
        t.check(r.rc == 2 and re.search(want, err) and "exit 2" in last and "no errors" not in last and not san
                and r.maxrss_kb < limit_kb and r.seconds < 30,
                "hostile YAML%s: %s: exit 2, a clear error, %+d MB over start-up, %.2f s" % (
                    label, what, (r.maxrss_kb - base_kb) // MB, r.seconds),
                "exit %d, %d KB: %s" % (r.rc, r.maxrss_kb, san or err[-600:]))
    # hostile batch lines: one answer per line, each one a clear error
    good = json.dumps(json.load(open(os.path.join(ROOT, "examples", "gfx942-request.json")))).encode()
    lines = [good, b"", b"   \t ", good + b"\r", b'{"isa": "gfx942", "kern\x00el": {}}', b'{"isa": "gfx9\xff\xfe"}',
             b"[1, 2", good]
    text = b"\n".join(lines)  # and no final newline
    r = run([kw, "--batch"], text, env=env, measure=True)
    ans = [json.loads(l) for l in lines_of(r.out)]
    want_codes = [None, "syntax", "syntax", None, "syntax", "syntax", "syntax", None]
    got_codes = [x["error"]["code"] if isinstance(x.get("error"), dict) else None for x in ans]
    t.check(r.rc == 0 and not sanitizer_report(r.err) and got_codes == want_codes
            and all("results" in x for x, c in zip(ans, want_codes) if c is None)
            and "line 2 is blank" in ans[1]["error"]["message"],
            "hostile batch%s: blank, whitespace, CRLF, NUL, invalid UTF-8, truncated JSON, no final newline: "
            "answer N is line N's" % label, "exit %d codes %s: %s" % (r.rc, got_codes, r.out[-600:].decode("utf-8", "replace")))
    with open(big, "rb") as f:
        r = run([kw, "--batch"], f, env=env, timeout=120, measure=True)
    ans = [json.loads(l) for l in lines_of(r.out)]
    t.check(r.rc == 0 and len(ans) == 3 and ans[1].get("error", {}).get("code") == "limit"
            and "--max-line-bytes" in ans[1]["error"]["message"] and "results" in ans[2]
            and r.maxrss_kb < limit_kb and not sanitizer_report(r.err),
            "hostile batch%s: a 50 MB line answers limit (--max-line-bytes), %+d MB over start-up" % (
                label, (r.maxrss_kb - base_kb) // MB),
            "exit %d, %d KB: %s" % (r.rc, r.maxrss_kb, r.out[:600].decode("utf-8", "replace")))


# ---- install --------------------------------------------------------------

def journey_install(t, a, tmp):
    dest = os.path.join(tmp, "stage")
    prefix = "/opt/kwgen"
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MAKELEVEL", None)
    r = run(["make", "-C", ROOT, "--no-print-directory", "BUILD=" + a.build, "install", "PREFIX=" + prefix,
             "DESTDIR=" + dest], env=env, timeout=600)
    if not t.check(r.rc == 0, "install: make install PREFIX=%s DESTDIR=..." % prefix, r.err[-800:].decode()):
        return
    root = dest + prefix
    kw, kwd = os.path.join(root, "bin", "kwgen"), os.path.join(root, "bin", "kwgend")
    req = open(os.path.join(ROOT, "examples", "gfx942-request.json"), "rb").read()
    r = run([kw], req, cwd=tmp)
    try:
        ok = r.rc == 0 and json.loads(r.out)["isa"] == "gfx942"
    except (ValueError, KeyError):
        ok = False
    t.check(ok, "install: the installed kwgen answers examples/gfx942-request.json", r.err[-300:].decode())
    with Daemon(kwd, os.path.join(tmp, "inst.db"), "--log-level", "error") as d:
        st, body = post_json("http://127.0.0.1:%d/v1/kernels" % d.port, json.loads(req))
        t.check(st == 200 and body.get("isa") == "gfx942", "install: the installed kwgend serves /v1/kernels",
                "HTTP %d" % st)
    for page, sec in (("kwgen", "1"), ("kwgend", "8")):
        path = os.path.join(root, "share", "man", "man" + sec, "%s.%s" % (page, sec))
        r = run(["man", "-M", os.path.join(root, "share", "man"), sec, page], env=dict(env, MANPAGER="cat", PAGER="cat",
                                                                                       MANWIDTH="80"))
        text = r.out.decode("utf-8", "replace")
        t.check(os.path.exists(path) and r.rc == 0 and "EXAMPLES" in text and page.upper() in text,
                "install: man -M PREFIX/share/man %s %s renders" % (sec, page), r.err[-300:].decode())
    pcdir = os.path.join(root, "lib", "pkgconfig")
    penv = dict(env, PKG_CONFIG_PATH=pcdir, PKG_CONFIG_SYSROOT_DIR=dest)
    r = run(["pkg-config", "--cflags", "--libs", "kwgen"], env=penv)
    flags = r.out.decode().split()
    t.check(r.rc == 0 and ("-I" + os.path.join(root, "include")) in flags,
            "install: pkg-config kwgen points into the staged prefix: %s" % " ".join(flags), r.err.decode())
    src = os.path.join(tmp, "use.c")
    with open(src, "w") as f:
        f.write('#include <kwgen/request.h>\n#include <stdio.h>\n'
                'int main(void) { printf("%s\\n", kw_generator_version()); return 0; }\n')
    exe = os.path.join(tmp, "use")
    r = run(["cc", "-std=c11", src, "-o", exe] + flags + ["-Wl,-rpath," + os.path.join(root, "lib")], env=penv)
    if t.check(r.rc == 0, "install: a program builds with `pkg-config --cflags --libs kwgen`", r.err[-600:].decode()):
        r = run([exe])
        want = run([os.path.join(a.build, "kwgen"), "--version"]).out.decode()
        t.check(r.rc == 0 and r.out.decode().strip() in want, "install: and runs against the installed libkwgen",
                r.err.decode())
    r = run(["make", "-C", ROOT, "--no-print-directory", "BUILD=" + a.build, "uninstall", "PREFIX=" + prefix,
             "DESTDIR=" + dest], env=env)
    left = [os.path.join(dp, f) for dp, _, fs in os.walk(dest) for f in fs]
    t.check(r.rc == 0 and not left, "install: make uninstall removes every file", "\n".join(left[:10]))


# ---- main -----------------------------------------------------------------

def journey_docs(t, a, tmp):
    p = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests", "journeys", "docs.py"), "--build", a.build],
                         stdout=subprocess.PIPE, text=True)
    got = None
    for line in p.stdout:
        m = re.match(r"^docs: (\d+) passed, (\d+) failed, (\d+) skipped$", line.strip())
        if m:
            got = [int(x) for x in m.groups()]
        else:
            print(line, end="", flush=True)
    rc = p.wait()
    if got:
        t.passed += got[0]
        t.failed += got[1]
        t.skipped += got[2]
    t.check(got is not None and (rc != 0) == (got[1] > 0), "docs: docs.py ran to its count line", "exit %d" % rc)


JOURNEYS = [("docs", journey_docs), ("forms", journey_forms), ("pipes", journey_pipes), ("server", journey_server),
            ("hostile", journey_hostile), ("install", journey_install)]


def cpu_seconds():
    """User + system CPU of this process and the children it has waited for."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--asan-build", default="build-asan")
    ap.add_argument("--only", action="append", choices=[n for n, _ in JOURNEYS])
    ap.add_argument("--real-limit", type=int, default=0, help="at most N real logic files (0: all)")
    ap.add_argument("--rss-mb", type=int, default=32,
                    help="peak memory (MB) a hostile input may add to kwgen's start-up peak")
    a = ap.parse_args()
    a.build = os.path.abspath(os.path.join(ROOT, a.build))
    a.asan_build = os.path.abspath(os.path.join(ROOT, a.asan_build))
    total = Tally("journeys")
    times = []
    for name, fn in JOURNEYS:
        if a.only and name not in a.only:
            continue
        t = Tally(name)
        t0, c0 = time.time(), cpu_seconds()
        print("== %s" % name, flush=True)
        with tempfile.TemporaryDirectory(prefix="kwgen-journeys-%s-" % name) as tmp:
            try:
                fn(t, a, tmp)
            except Exception as e:  # a journey that crashes is a failure, the others still run
                import traceback
                traceback.print_exc()
                t.check(False, "%s: ran to the end" % name, repr(e))
        times.append((name, time.time() - t0, cpu_seconds() - c0, t))
        total.add(t)
    print("\njourney        passed failed skipped seconds     cpu")
    for name, s, cpu, t in times:
        print("%-14s %6d %6d %7d %7.1f %7.1f" % (name, t.passed, t.failed, t.skipped, s, cpu))
    print(total.line(), flush=True)
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main())
