#!/usr/bin/env python3
"""Post kwgen requests to a kwgend (or to nginx in front of several) and print
the generated assembly.  Standard library only.

  client.py [--server URL] [--json] [--batch] FILE [FILE ...]

FILE holds one request object (JSON) or one request per line (JSON lines,
such as `kwgen logic` prints); "-" reads stdin.  Each request is sent with an
X-Kwgen-Config header - the SHA-256 of the request with sorted keys, compact -
so a balancer that hashes on it (docker/nginx.conf) sends a configuration to
the same replica every time.  --batch sends all requests of a file in one
POST /v1/kernels:batch instead.  Exit status: 0, or 1 if any request failed.
"""
import argparse
import hashlib
import json
import sys
import urllib.error
import urllib.request


def config_id(req):
    text = json.dumps(req, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def post(url, body, headers=None, timeout=120):
    data = json.dumps(body).encode()
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    r = urllib.request.Request(url, data=data, headers=h, method="POST")
    try:
        with urllib.request.urlopen(r, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read() or b"null"), dict(resp.headers)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = {"error": {"message": raw.decode(errors="replace")}}
        return e.code, doc, dict(e.headers)


def read_requests(path):
    text = sys.stdin.read() if path == "-" else open(path).read()
    text = text.strip()
    if not text:
        return []
    try:
        doc = json.loads(text)
        return doc if isinstance(doc, list) else [doc]
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def show(resp, as_json, out):
    if as_json:
        out.write(json.dumps(resp) + "\n")
        return
    out.write("// key %s  cached %s  isa %s\n" % (resp.get("key"), resp.get("cached"), resp.get("isa")))
    for r in resp.get("results", []):
        out.write("// ---- %s %s\n" % (r.get("name"), json.dumps(r.get("args", {}), sort_keys=True)))
        if r.get("asm") is not None:
            out.write(r["asm"] if r["asm"].endswith("\n") or not r["asm"] else r["asm"] + "\n")
        elif "value" in r:
            out.write("// value: %s\n" % json.dumps(r["value"]))
        for d in r.get("diagnostics") or []:
            out.write("// diagnostic %s: %s\n" % (d.get("code"), d.get("message")))


def error_text(doc):
    e = doc.get("error") if isinstance(doc, dict) else None
    if isinstance(e, dict):
        return "%s: %s%s" % (e.get("code"), e.get("message"), " (field %s)" % e["field"] if e.get("field") else "")
    return json.dumps(doc)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--server", default="http://127.0.0.1:8080")
    ap.add_argument("--json", action="store_true", help="print the whole responses as JSON lines")
    ap.add_argument("--batch", action="store_true", help="one POST /v1/kernels:batch per file")
    a = ap.parse_args()
    base = a.server.rstrip("/")
    failed = 0
    for path in a.files:
        reqs = read_requests(path)
        if a.batch and reqs:
            status, doc, _ = post(base + "/v1/kernels:batch", {"requests": reqs})
            if status != 200:
                sys.stderr.write("client: %s: HTTP %d %s\n" % (path, status, error_text(doc)))
                failed += len(reqs)
                continue
            for i, item in enumerate(doc.get("results", [])):
                if item.get("status", 200) == 200 and "response" in item:
                    show(item["response"], a.json, sys.stdout)
                else:
                    failed += 1
                    sys.stderr.write("client: %s #%d: HTTP %s %s\n" % (path, i, item.get("status"), error_text(item)))
            continue
        for i, req in enumerate(reqs):
            status, doc, headers = post(base + "/v1/kernels", req, {"X-Kwgen-Config": config_id(req)})
            if status != 200:
                failed += 1
                sys.stderr.write("client: %s #%d: HTTP %d %s\n" % (path, i, status, error_text(doc)))
                continue
            if headers.get("X-Kwgen-Replica"):
                sys.stderr.write("client: %s #%d answered by %s\n" % (path, i, headers["X-Kwgen-Replica"]))
            show(doc, a.json, sys.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ValueError) as e:
        sys.stderr.write("client: %s\n" % e)
        sys.exit(1)
