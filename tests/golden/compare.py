#!/usr/bin/env python3
"""Golden comparison: run `kwgen --batch` over tests/golden/requests.jsonl.gz and
compare every answer with the oracle's (tests/golden/answers.jsonl.gz).

  * `asm` must be byte-identical; `type`, `acc2arch`, `arch2acc`, `value` and
    `isa` must be equal; any other oracle field must be equal too.
  * an oracle {"error": ...} must be answered with kwgen's one error shape,
    {"error": {"code", "message", "field"}} (the message text may differ
    from the oracle's); with --farm the farm form of the same request must
    answer with the same code as the oracle form (its message names the
    field by its farm-form path).
  * kwgen's extra `diagnostics` field is allowed.

  * single mode (--single N, --single-cover): one process per request, the
    pretty answer compared the same way, exit 1 exactly when it is an error.

Usage: python3 tests/golden/compare.py [--kwgen build/kwgen] [--show N] [--only SUBSTR] [--every N]
                                       [--farm] [--single N] [--single-cover] [--data DIR]
                                       [--single-oracle-only] [--salt]
       (or KWGEN=path).  Exit status 0 only if every pair passes.
Stdlib only.
"""
import argparse
import collections
import gc
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import exit_problems, kwgen_batch  # noqa: E402
import zygote  # noqa: E402  (tests/lib: single mode from a loaded kwgen, when make sets it)
import salt_check  # noqa: E402  (tests/golden, beside this file)
EXTRA_OK = {"diagnostics"}
GENERATORS = ["tdmWait", "wait", "syncThreads", "accToArchMapper", "getAccToArchLen",
              "hasSequentialValuC", "accVgprImagNumOffset", "mapAcctoArchRegs",
              "mulMIoutAlphaToArch", "moveMIoutToArch"]
SHORT = {"tdmWait": "tdmW", "wait": "wait", "syncThreads": "sync", "accToArchMapper": "a2a",
         "getAccToArchLen": "len", "hasSequentialValuC": "seq", "accVgprImagNumOffset": "imOff",
         "mapAcctoArchRegs": "mapAcc", "mulMIoutAlphaToArch": "mulA", "moveMIoutToArch": "moveMI"}


DATA = HERE   # --data: where requests.jsonl.gz and answers.jsonl.gz are


def load_gz(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        # line by line: read() and split cost twice the CPU
        return [t.rstrip("\n") for t in f if t.strip()]


def isa_name(isa):
    if isinstance(isa, list) and len(isa) == 3:
        return "gfx%d%d%s" % (isa[0], isa[1], "0123456789abcdef"[isa[2] % 16])
    return str(isa).lower()


def run_kwgen(kwgen, lines, timeout):
    """All requests in one `kwgen --batch` process (checks.kwgen_batch);
    one answer line per request.  Returns (answers, problems)."""
    out, err, problems = kwgen_batch(kwgen, lines, timeout, "compare")
    if problems:
        sys.stderr.write(err.decode("utf-8", "replace")[-2000:])
    return out, problems


def run_single(kwgen, line, timeout):
    """One request through single mode (request on stdin, pretty answer,
    exit 1 when the answer is an error).  Returns (answer text, problems)."""
    try:
        # its own process either way: a child forked at main by a kwgen
        # loaded once (KWGEN_TOOL_ZYGOTE, tests/lib/zygote.py; past the
        # timeout: SIGALRM) or a subprocess
        rc, out, err = zygote.run([kwgen], timeout=timeout, input=line.encode())
    except subprocess.TimeoutExpired:
        return None, ["kwgen (single) did not finish in %d s" % timeout]
    text = out.decode("utf-8", "replace")
    try:
        is_error = "error" in json.loads(text)
    except ValueError:
        is_error = False
    problems = exit_problems("kwgen (single)", rc, err,
                             allowed=(1,) if is_error else (0,))
    return text, problems


_NOT_JSON = object()
_UNPARSED = object()


def parsed(text):
    """text as JSON, or _NOT_JSON."""
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        return _NOT_JSON


def error_problems(err):
    """Problems with an "error" value against the one error shape."""
    if not isinstance(err, dict):
        return ["kwgen's error is not {\"code\", \"message\", \"field\"}: %s" % json.dumps(err)[:200]]
    if not isinstance(err.get("code"), str) or not err["code"]:
        return ["kwgen's error has no code: %s" % json.dumps(err)[:200]]
    if not isinstance(err.get("message"), str) or not err["message"]:
        return ["kwgen's error has no message: %s" % json.dumps(err)[:200]]
    if "field" not in err or not (err["field"] is None or isinstance(err["field"], str)):
        return ["kwgen's error has no field (a name or null): %s" % json.dumps(err)[:200]]
    return []


def error_of(got):
    """The "error" object of a parsed answer (top level or a farm answer's
    single result), or None."""
    if not isinstance(got, dict):
        return None
    if "error" in got:
        return got["error"]
    res = got.get("results")
    if isinstance(res, list) and len(res) == 1 and isinstance(res[0], dict):
        return res[0].get("error")
    return None


def compare_one(want, got_text, got=_UNPARSED):
    """Return a list of human-readable problems (empty = pass).  got: got_text
    already parsed (parsed()), when the caller has it."""
    if got is _UNPARSED:
        got = parsed(got_text)
    if got is _NOT_JSON:
        return ["kwgen answer is not JSON: %r" % (got_text[:200] if got_text else got_text)]
    if not isinstance(got, dict):
        return ["kwgen answer is not a JSON object"]
    if "error" in want:
        if "error" not in got:
            return ["oracle answers an error (%s), kwgen does not" % want["error"]]
        return error_problems(got["error"])
    if "error" in got:
        return ["kwgen answers an error: %s" % json.dumps(got["error"])[:300]]
    problems = []
    for key, val in want.items():
        if key not in got:
            problems.append("field %r missing" % key)
        elif got[key] != val or type(got[key]) is not type(val):
            if key == "asm":
                problems.append("asm differs")
            else:
                problems.append("field %r: oracle %s, kwgen %s"
                                % (key, json.dumps(val)[:200], json.dumps(got[key])[:200]))
    for key in got:
        if key not in want and key not in EXTRA_OK:
            problems.append("extra field %r" % key)
    return problems


def to_farm(req):
    """The same request in the farm form: {"isa", "kernel", "generators": [...]}."""
    f = {k: v for k, v in req.items() if k not in ("generator", "args", "source")}
    f["generators"] = [{"name": req["generator"], "args": req.get("args", {})}]
    return f


def compare_farm(want, got_text, got=_UNPARSED):
    """A farm-form answer against the oracle's answer for the same request:
    results[0] carries the oracle's fields (isa as a name at the top)."""
    if got is _UNPARSED:
        got = parsed(got_text)
    if got is _NOT_JSON:
        return ["kwgen answer is not JSON: %r" % (got_text[:200] if got_text else got_text)]
    if not isinstance(got, dict):
        return ["kwgen answer is not a JSON object"]
    res = got.get("results")
    first = res[0] if isinstance(res, list) and len(res) == 1 and isinstance(res[0], dict) else None
    if "error" in want:
        if "error" in got:
            return error_problems(got["error"])
        if first is not None and "error" in first:
            return error_problems(first["error"])
        return ["oracle answers an error (%s), kwgen's farm form does not" % want["error"]]
    if "error" in got:
        return ["kwgen answers an error: %s" % json.dumps(got["error"])[:300]]
    if first is None:
        return ["farm answer has no single result: %s" % json.dumps(got)[:200]]
    if "error" in first:
        return ["kwgen's result is an error: %s" % json.dumps(first["error"])[:300]]
    problems = []
    for key, val in want.items():
        if key == "isa":
            if got.get("isa") != isa_name(val):
                problems.append("field 'isa': oracle %s, kwgen %s" % (isa_name(val), got.get("isa")))
        elif key not in first:
            problems.append("field %r missing" % key)
        elif first[key] != val or type(first[key]) is not type(val):
            problems.append("asm differs" if key == "asm" else "field %r: oracle %s, kwgen %s"
                            % (key, json.dumps(val)[:200], json.dumps(first[key])[:200]))
    return problems


def show_asm(label, text):
    if text is None:
        return "    %s: null\n" % label
    lines = text.split("\n")
    body = "".join("      |%s\n" % ln.replace("\t", "\\t") for ln in lines[:-1])
    if lines[-1] != "":
        body += "      |%s   <- no final newline\n" % lines[-1]
    return "    %s (%d bytes):\n%s" % (label, len(text), body or "      (empty)\n")


def first_diff_line(a, b):
    la, lb = (a or "").split("\n"), (b or "").split("\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else None
        y = lb[i] if i < len(lb) else None
        if x != y:
            return "    first difference at line %d:\n      oracle: %r\n      kwgen:  %r\n" % (i + 1, x, y)
    return ""


def cover_kinds(req, want):
    """What a request covers in single mode: its generator x {answer, error}
    and its ISA spelling (req, want: the parsed request and oracle answer)."""
    return [("generator", str(req.get("generator")), "error" in want), ("isa", json.dumps(req.get("isa")))]


def cover_sample(idx, kinds_of):
    """The first request of each generator x {answer, error} and of each ISA
    spelling: every single-mode path (every generator's answer and error,
    every ISA form the reader takes) in a few processes.  kinds_of: index ->
    cover_kinds()."""
    seen, out = set(), []
    for i in idx:
        kinds = kinds_of[i]
        if any(k not in seen for k in kinds):
            seen.update(kinds)
            out.append(i)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwgen", default=os.environ.get("KWGEN", os.path.join(ROOT, "build", "kwgen")))
    ap.add_argument("--show", type=int, default=5, help="diffs to print in full")
    ap.add_argument("--only", help="only requests whose JSON contains this text")
    ap.add_argument("--data", default=HERE, metavar="DIR",
                    help="read requests.jsonl.gz and answers.jsonl.gz from DIR (default: this "
                         "directory; the self-tests pass a small extract)")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="only every Nth request (a sample for make check; default 1: all)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--farm", action="store_true",
                    help="also send every request in the farm form (generators list) "
                         "through one kwgen --batch and compare results[0]")
    ap.add_argument("--single", type=int, default=0, metavar="N",
                    help="also run N requests (spread over the set) one per process "
                         "in single mode; -1 = all")
    ap.add_argument("--salt", action="store_true",
                    help="also check the cache-key salt against salt.txt over this run's oracle-form "
                         "answers (salt_check.py's check, without a second kwgen --batch; the whole "
                         "set only: no --only, --every or --data)")
    ap.add_argument("--single-oracle-only", action="store_true",
                    help="with --farm: single mode in the oracle form only (under ASan: single mode and "
                         "--batch answer both forms with the same code, so the farm form's single-mode "
                         "runs reach no code --batch's farm form and the oracle form's single mode miss)")
    ap.add_argument("--single-cover", action="store_true",
                    help="also run in single mode the first request of each generator x "
                         "{answer, error} and of each ISA spelling (with --single N: both sets)")
    opts = ap.parse_args()
    global DATA
    DATA = opts.data
    # no reference cycles here worth collecting
    gc.disable()

    if opts.salt and (opts.only or opts.every > 1 or os.path.abspath(DATA) != HERE):
        sys.exit("compare: --salt digests every answer of tests/golden: no --only, --every or --data")
    digest = salt_check.Digest() if opts.salt else None

    reqs = load_gz("requests.jsonl.gz")
    answers = load_gz("answers.jsonl.gz")
    if len(reqs) != len(answers):
        sys.exit("compare: %d requests but %d answers" % (len(reqs), len(answers)))
    idx = [i for i, r in enumerate(reqs) if not opts.only or opts.only in r][::max(1, opts.every)]
    got, run_problems = run_kwgen(opts.kwgen, [reqs[i] for i in idx], opts.timeout)
    # one pass parses each request (~40 MB of JSON in all) once and keeps
    # only what the farm form and single mode need from it (keeping the
    # parsed requests costs more than parsing them)
    farm_lines, got_err, kinds_of = [], [], {}
    for p in run_problems:
        print("FAILED  %s" % p)

    passed = collections.Counter()
    total = collections.Counter()
    reasons = collections.Counter()
    failures = []
    for n, i in enumerate(idx):
        req = json.loads(reqs[i])
        want = json.loads(answers[i])
        key = (isa_name(req.get("isa")), req.get("generator"))
        total[key] += 1
        g = parsed(got[n]) if n < len(got) else _NOT_JSON
        if digest and n < len(got):
            digest.add(g)
        problems = compare_one(want, got[n], g) if n < len(got) else compare_one(want, None)
        if opts.farm:
            farm_lines.append(json.dumps(to_farm(req)))
            got_err.append(error_of(g))
        if opts.single_cover:
            kinds_of[i] = cover_kinds(req, want)
        if problems:
            for p in problems:
                reasons[p.split(":")[0]] += 1
            failures.append((i, req, want, got[n] if n < len(got) else None, problems))
        else:
            passed[key] += 1

    # per-ISA x per-generator table of pass counts
    isas = sorted({k[0] for k in total}, key=lambda s: (len(s), s))
    gens = [g for g in GENERATORS if any(k[1] == g for k in total)]
    gens += sorted({k[1] for k in total} - set(gens), key=str)
    head = "%-9s" % "isa" + "".join("%12s" % SHORT.get(g, str(g)[:10]) for g in gens) + "%14s" % "all"
    print(head)
    for isa in isas:
        row = "%-9s" % isa
        for g in gens:
            t = total[(isa, g)]
            row += "%12s" % ("%d/%d" % (passed[(isa, g)], t) if t else "-")
        tp = sum(v for k, v in passed.items() if k[0] == isa)
        tt = sum(v for k, v in total.items() if k[0] == isa)
        row += "%14s" % ("%d/%d" % (tp, tt))
        print(row)

    if failures:
        print("\nfailure kinds:")
        for r, c in reasons.most_common():
            print("  %6d  %s" % (c, r))
        print("\nfirst %d of %d failures:" % (min(opts.show, len(failures)), len(failures)))
        for i, req, want, got_text, problems in failures[:opts.show]:
            print("-- pair %d: %s %s  [%s]" % (i + 1, isa_name(req.get("isa")), req.get("generator"),
                                              req.get("source", "")))
            print("   args: %s" % json.dumps(req.get("args", {}), sort_keys=True))
            for p in problems:
                print("   * %s" % p)
            g = parsed(got_text)
            if "asm differs" in problems and isinstance(g, dict):
                sys.stdout.write(first_diff_line(want.get("asm"), g.get("asm")))
                sys.stdout.write(show_asm("oracle asm", want.get("asm")))
                sys.stdout.write(show_asm("kwgen asm", g.get("asm")))
        first = failures[0][0] + 1
        print("\nre-run one pair: zcat tests/golden/requests.jsonl.gz | sed -n '%dp' | %s"
              % (first, opts.kwgen))
        print("                 zcat tests/golden/answers.jsonl.gz | sed -n '%dp'" % first)

    n_pass = sum(passed.values())
    n_fail = len(idx) - n_pass + len(run_problems)
    if digest:
        salt_ok = salt_check.verdict(salt_check.salt_of(opts.kwgen), digest.hexdigest(), digest.n)
        n_pass += salt_ok
        n_fail += not salt_ok

    if opts.farm:
        fgot, fproblems = run_kwgen(opts.kwgen, farm_lines, opts.timeout)
        for p in fproblems:
            print("FAILED  farm form: %s" % p)
        f_fail = 0
        for n, i in enumerate(idx):
            fg = parsed(fgot[n]) if n < len(fgot) else _NOT_JSON
            want = json.loads(answers[i])
            problems = compare_farm(want, fgot[n], fg) if n < len(fgot) else compare_farm(want, None)
            oe = got_err[n]
            fe = error_of(fg)
            if not problems and isinstance(oe, dict) and isinstance(fe, dict) and \
                    oe.get("code") != fe.get("code"):
                problems = ["the oracle form's error code (%s: %s) differs from the farm form's (%s: %s)"
                            % (oe.get("code"), oe.get("message"), fe.get("code"), fe.get("message"))]
            if problems:
                f_fail += 1
                if f_fail <= opts.show:
                    print("FAILED  farm form, pair %d: %s" % (i + 1, "; ".join(problems)))
        print("farm form: %d of %d requests match" % (len(idx) - f_fail, len(idx)))
        n_pass += len(idx) - f_fail
        n_fail += f_fail + len(fproblems)

    if opts.single or opts.single_cover:
        step = 1 if opts.single < 0 else max(1, len(idx) // max(1, opts.single))
        sample = idx[::step][:len(idx) if opts.single < 0 else opts.single]
        if opts.single_cover:
            sample = sorted(set(sample) | set(cover_sample(idx, kinds_of)))
        # single mode's runs are small: glibc's malloc on huge pages (make's
        # HUGEPAGE_MALLOC_ENV, for the batches) would cost each a 2 MB page
        # (copied from the zygote's heap when it runs from one)
        zygote.drop_hugepage_malloc()
        s_fail = 0
        forms = [("oracle form", lambda i: reqs[i], compare_one)]
        if opts.farm and not opts.single_oracle_only:
            at = {i: n for n, i in enumerate(idx)}
            forms.append(("farm form", lambda i: farm_lines[at[i]], compare_farm))
        for form, make, cmp in forms:
            s_fail = 0
            for i in sample:
                text, problems = run_single(opts.kwgen, make(i), opts.timeout)
                if not problems:
                    problems = cmp(json.loads(answers[i]), text)
                if problems:
                    s_fail += 1
                    if s_fail <= opts.show:
                        print("FAILED  single mode, %s, pair %d: %s" % (form, i + 1, "; ".join(problems)))
            print("single mode, %s: %d of %d requests match" % (form, len(sample) - s_fail, len(sample)))
            n_pass += len(sample) - s_fail
            n_fail += s_fail
    print("golden: %d passed, %d failed" % (n_pass, n_fail))
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
