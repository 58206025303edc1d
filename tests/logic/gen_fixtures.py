#!/usr/bin/env python3
"""Write Tensile logic YAML files from corpus lines (the inverse of the corpus
extraction), plus the request each solution must turn into.

Each corpus line carries the kernel keys the helpers read and the solution
values the tPA/tPB/states derivation used (derivationInputs).  This script
puts them back into a hipBLASLt-style logic file:

    - {MinimumRequiredVersion: 4.33.0}
    - <schedule name>
    - <gfx name>
    - [Device 0000]
    - <ProblemType dict>
    - [<solution dict>, ...]      # kernel keys + derivation inputs + noise keys
    - [0, 1, 2, 3]                # index order
    - []                          # exact logic
    - null

Keys listed in a line's "defaulted" are left out, so the importer's Tensile
defaults are exercised.  Next to NAME.yaml it writes NAME.expected.jsonl: one
{"isa", "kernel", "tPA", "tPB", "states"} (or {"deriveError"}) per solution.

usage: gen_fixtures.py --corpus DIR --out DIR [--per-isa N] [--all] [--seed S]
"""
import argparse
import glob
import json
import os
import random
import re

PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .-]*$")
RESERVED = {"null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
            "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "~"}


def scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return repr(v)
    s = str(v)
    if PLAIN.match(s) and s not in RESERVED and not s.endswith(" "):
        return s
    return json.dumps(s)


def flow(v):
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join("%s: %s" % (scalar(k), flow(x)) for k, x in v.items()) + "}"
    return scalar(v)


def block_map(d, indent, first_prefix=None):
    """Lines of a block mapping; the first line may carry a '- ' prefix."""
    out = []
    pad = " " * indent
    for i, (k, v) in enumerate(d.items()):
        lead = first_prefix if (i == 0 and first_prefix is not None) else pad
        if isinstance(v, dict) and v:
            out.append("%s%s:" % (lead, scalar(k)))
            out.extend(block_map(v, indent + 2))
        else:
            out.append("%s%s: %s" % (lead, scalar(k), flow(v)))
    return out


def solution_dict(line, index, lrvw_plain):
    k = line["kernel"]
    d = line.get("derivationInputs", {})
    defaulted = set(line.get("defaulted", []))
    sol = {"KernelLanguage": "Assembly", "SolutionIndex": index,
           "ISA": line["isa"], "CustomKernelName": line.get("customKernelName", "")}
    pt = {}
    for key, v in k.items():
        if key == "ProblemType":
            for pk, pv in v.items():
                if "ProblemType." + pk not in defaulted:
                    pt[pk] = pv
        elif key not in defaulted:
            sol[key] = v
    if "_ScheduleIterAlg" in defaulted:
        sol["ScheduleIterAlg"] = k["_ScheduleIterAlg"]
    lrvw = {x: d[x] for x in ("LocalReadVectorWidthA", "LocalReadVectorWidthB") if x in d}
    for key, v in d.items():
        if key.startswith("ProblemType."):
            pt[key[len("ProblemType."):]] = v
        elif key not in lrvw:
            sol[key] = v
    if lrvw_plain and len(set(lrvw.values())) == 1:
        sol["LocalReadVectorWidth"] = list(lrvw.values())[0]
    else:
        sol.update(lrvw)
    # Keys the importer must ignore.
    sol["KernelNameMin"] = "Cijk_fixture_%d" % index
    sol["WorkGroup"] = [16, 16, 1]
    sol["LdsPadA"] = 0
    sol["ProblemType"] = dict(sorted(pt.items()))
    return dict(sorted(sol.items()))


def expected(line):
    if "deriveError" in line:
        return {"deriveError": line["deriveError"]}
    strip = lambda t: {k: v for k, v in t.items() if k != "derived"}
    return {"isa": line["gfx"], "kernel": line["kernel"], "tPA": strip(line["tPA"]),
            "tPB": strip(line["tPB"]), "states": strip(line["states"])}


def write_logic(path, gfx, lines, lrvw_plain):
    sols = [solution_dict(l, i, lrvw_plain) for i, l in enumerate(lines)]
    pt = dict(sols[0]["ProblemType"]) if sols else {}
    out = ["- {MinimumRequiredVersion: 4.33.0}", "- fixture", "- " + gfx, "- [Device 0000]"]
    out.extend(block_map(pt, 2, "- ") if pt else ["- {}"])
    if sols:
        for i, s in enumerate(sols):
            out.extend(block_map(s, 4, ("- - " if i == 0 else "  - ")))
    else:
        out.append("- []")
    out += ["- [0, 1, 2, 3]", "- []", "- null"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    with open(path[:-len(".yaml")] + ".expected.jsonl", "w") as f:
        for l in lines:
            f.write(json.dumps(expected(l), sort_keys=True, separators=(",", ":")) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True, help="directory of gfx*.jsonl corpus files")
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-isa", type=int, default=24)
    ap.add_argument("--all", action="store_true", help="every line (one file per ISA)")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    for n, path in enumerate(sorted(glob.glob(os.path.join(a.corpus, "gfx*.jsonl")))):
        gfx = os.path.basename(path)[:-len(".jsonl")]
        lines = [json.loads(x) for x in open(path)]
        if not a.all:
            errs = [l for l in lines if "deriveError" in l][:1]
            nonmi = [l for l in lines if not l["kernel"]["EnableMatrixInstruction"]][:4]
            umlds = [l for l in lines if "LocalReadVectorWidthA" in l.get("derivationInputs", {})
                     or "LocalReadVectorWidthB" in l.get("derivationInputs", {})][:4]
            rest = rng.sample(lines, min(a.per_isa, len(lines)))
            seen, pick = set(), []
            for l in errs + nonmi + umlds + rest:
                if l["source"] not in seen:
                    seen.add(l["source"])
                    pick.append(l)
            # a repeated solution: the importer must report it once as unique
            pick.append(pick[-1])
            lines = pick
        write_logic(os.path.join(a.out, gfx + ".yaml"), gfx, lines, lrvw_plain=(n % 2 == 0))


if __name__ == "__main__":
    main()
