#!/usr/bin/env python3
"""Browser test of kwgend's playground page (GET /).

Starts kwgend on loopback (port 0, temporary cache) and Debian's chromium
headless, and drives the page over the Chrome DevTools Protocol (a WebSocket:
Debian's python3-websocket).  Every expected value is computed here from the
daemon's own JSON answers (POST /v1/kernels), not from the page's code.

  tests/ui/run.py --kwgend build/kwgend --out build/ui-test

Screenshots go to --out.  Prints one line per check and a final
"N passed, N failed" line; exits 1 if any check failed.
"""
import argparse
import base64
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

try:
    import websocket  # Debian: python3-websocket
except ImportError:
    # A python3 earlier on PATH (pyenv, venv) may not see Debian's packages.
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and not os.environ.get("KWGEN_UI_REEXEC"):
        os.environ["KWGEN_UI_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("ui-test: the websocket module is missing (Debian: python3-websocket; run `make deps`)")
    print("0 passed, 1 failed")
    sys.exit(1)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "server", "ui", "examples.json")
FIXTURE = os.path.join(ROOT, "tests", "logic", "fixtures", "gfx942.yaml")
FIXTURE_EXPECTED = os.path.join(ROOT, "tests", "logic", "fixtures", "gfx942.expected.jsonl")
TIMEOUT = 60.0

passed = 0
failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))
    return ok


# ---------------------------------------------------------------- processes

class Daemon:
    def __init__(self, kwgend, tmp, name, extra=()):
        self.log = open(os.path.join(tmp, name + ".log"), "w+")
        self.proc = subprocess.Popen([kwgend, "--listen", "127.0.0.1:0", "--db", os.path.join(tmp, name + ".db"),
                                      "--threads", "2", "--log-level", "warn"] + list(extra),
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + TIMEOUT
        self.base = None
        while time.time() < deadline and self.base is None:
            self.log.seek(0)
            m = re.search(r"listening on (127\.0\.0\.1:\d+)", self.log.read())
            if m:
                self.base = "http://" + m.group(1)
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if not self.base:
            self.log.seek(0)
            raise RuntimeError("kwgend did not start: " + self.log.read()[-500:])

    def stop(self):
        """SIGTERM; -> the exit status, or -1000 if the log holds a sanitizer report."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.seek(0)
        text = self.log.read()
        self.log.close()
        if re.search(r"Sanitizer|runtime error:", text):
            print(text[-2000:])
            return -1000
        return self.proc.returncode


def http(base, path, body=None, headers=None, method=None):
    """(status, headers, bytes) of one request."""
    h = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=data, headers=h, method=method)
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def answer(base, request, headers=None):
    st, _, b = http(base, "/v1/kernels", request, headers)
    if st != 200:
        raise RuntimeError("POST /v1/kernels %d: %s" % (st, b[:300]))
    return json.loads(b)


def find_chromium():
    for c in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "", shutil.which("chromium-browser") or ""):
        if c and os.access(c, os.X_OK):
            return c
    return None


class Browser:
    """chromium --headless=new with one page, driven over CDP."""

    def __init__(self, exe, tmp, downloads):
        os.makedirs(tmp, exist_ok=True)
        self.profile = os.path.join(tmp, "profile")
        args = [exe, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-dev-shm-usage", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                "--user-data-dir=" + self.profile, "--window-size=1500,1100", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # chromium refuses to run as root with its sandbox
        self.log = open(os.path.join(tmp, "chromium.log"), "w+")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + TIMEOUT
        port = None
        while time.time() < deadline:
            if os.path.exists(port_file):
                lines = open(port_file).read().split("\n")
                if lines and lines[0].strip().isdigit():
                    port = int(lines[0])
                    break
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        if not port:
            self.log.seek(0)
            raise RuntimeError("chromium did not open its DevTools port: " + self.log.read()[-800:])
        targets = []
        while time.time() < deadline and not targets:
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=10) as r:
                targets = [t for t in json.load(r) if t.get("type") == "page"]
            if not targets:
                time.sleep(0.1)
        self.ws = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], timeout=TIMEOUT,
                                              suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.console_errors = []
        self.call("Runtime.enable")
        self.call("Log.enable")
        self.call("Page.enable")
        self.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})

    def _event(self, msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.console_errors.append("console.%s: %s" % (p["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.console_errors.append("exception: %s %s" % (d.get("text", ""),
                                                              d.get("exception", {}).get("description", "")))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            self.console_errors.append("log %s: %s %s" % (e.get("source"), e.get("text"), e.get("url", "")))
        self.events.append(msg)

    def call(self, method, params=None):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params or {}}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self._event(msg)

    def js(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("JS %s: %s" % (expr[:80], r["exceptionDetails"].get("exception", {}).get(
                "description", r["exceptionDetails"].get("text"))))
        return r["result"].get("value")

    def wait(self, expr, what, timeout=TIMEOUT):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.js(expr):
                return True
            time.sleep(0.1)
        raise RuntimeError("timed out waiting for " + what)

    def goto(self, url):
        self.call("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete'", "the page to load")

    def screenshot(self, path, full=True, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = clip
            params["captureBeyondViewport"] = True
        elif full:
            m = self.call("Page.getLayoutMetrics")
            size = m.get("cssContentSize") or m["contentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def hover(self, selector):
        box = self.js("(() => { const e = document.querySelector(%s); e.scrollIntoView({block: 'center'});"
                      " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
                      % json.dumps(selector))
        self.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": box[0], "y": box[1]})

    def stop(self):
        try:
            self.ws.close()
        except Exception as e:  # the browser may be gone already
            print("note: closing the DevTools socket: %s" % e)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ------------------------------------------------------------ page helpers

def set_solution(b, text):
    b.js("(() => { const t = document.getElementById('solution'); t.value = %s;"
         " t.dispatchEvent(new Event('input')); })()" % json.dumps(text))


def tick_isas(b, isas):
    b.js("document.querySelectorAll('#isas input').forEach(x => { x.checked = %s.includes(x.value); })"
         % json.dumps(isas))


def set_generators(b, gens):
    """gens: [{"name", "args"}] -> tick those, fill their args."""
    b.js("document.querySelectorAll('#generators input[data-gen]').forEach(x => { x.checked = false; })")
    for g in gens:
        b.js("document.querySelector('#generators input[data-gen=\"%s\"]').checked = true" % g["name"])
        for k, v in g["args"].items():
            sel = '#generators [data-gen-arg="%s.%s"]' % (g["name"], k)
            if isinstance(v, bool):
                b.js("document.querySelector(%s).checked = %s" % (json.dumps(sel), "true" if v else "false"))
            else:
                b.js("document.querySelector(%s).value = %s" % (json.dumps(sel), json.dumps(
                    v if isinstance(v, str) else json.dumps(v))))


def generate(b):
    """Click Generate and wait for the answer to be drawn."""
    b.js("document.getElementById('status').dataset.seen = ''; document.getElementById('status').className = ''")
    b.js("document.getElementById('run').click()")
    b.wait("['ok', 'error'].some(c => document.getElementById('status').classList.contains(c))",
           "the answer")


def cells(b):
    """The page's assembly cells: {(isa, generator): {"lines", "diff", "diag", "titles", "banners"}}."""
    return b.js("""(() => { const out = {};
      for (const c of document.querySelectorAll('.asm-cell')) {
        const ls = [...c.querySelectorAll('.ln')];
        out[c.dataset.isa + '|' + c.dataset.gen] = {
          lines: ls.map(l => l.querySelector('.tx').textContent),
          diff: ls.map((l, i) => l.classList.contains('diff') ? i : -1).filter(i => i >= 0),
          diag: ls.map((l, i) => l.classList.contains('diag') ? i : -1).filter(i => i >= 0),
          titles: ls.filter(l => l.classList.contains('diag')).map(l => l.title),
          banners: [...c.querySelectorAll('.diag-banner')].map(d => d.dataset.code),
          pre: (c.querySelector('pre') || {}).textContent || '' };
      } return out; })()""")


def picture(b, which="cell", n=0):
    """The cells of drawing n (g.cell: the arch VGPR grid, g.acc: the accumulator grid)."""
    return b.js("""(() => { const one = document.querySelectorAll('#pic-svg .pic-one')[%d];
      return one ? [...one.querySelectorAll('g.%s')].map(g => ({
        arch: +g.dataset.arch, acc: +g.dataset.acc, label: g.querySelector('text').textContent,
        fill: g.querySelector('rect').getAttribute('fill'),
        x: +g.querySelector('rect').getAttribute('x'), y: +g.querySelector('rect').getAttribute('y') })) : []; })()"""
                % (n, which))


def drawings(b):
    """Each drawing: {isas, head, legend, axes: {arch: [rows, cols], acc: [rows, cols]}, err}."""
    return b.js("""[...document.querySelectorAll('#pic-svg .pic-one')].map(o => ({
        isas: o.dataset.isas.split(','), head: (o.querySelector('h3') || {}).textContent || '',
        legend: (o.querySelector('.pic-legend-one') || {}).textContent || '',
        err: (o.querySelector('.err') || {}).textContent || '',
        axes: Object.fromEntries(['arch', 'acc'].map(w => [w, [o.querySelectorAll('text.axis.row.' + w).length,
                                                              o.querySelectorAll('text.axis.col.' + w).length]])) }))""")


def check_grids(b, k, swap, what, n=0):
    """Drawing n: both grids column-major with the same d0 rows and the
    same axis labels, the same place holding the same index (arch VGPR i
    above, accumulator i below), d0 and the captions from the kernel."""
    f = acc_info(k)
    d0 = f["VW0"] * f["BM"] * f["TT0"] * (1 if swap else f["OPM"])
    total = f["VW0"] * f["VW1"] * f["TT0"] * f["TT1"] * f["OPM"] * f["BM"] * f["BN"]
    cols = -(-total // d0)
    top, bottom = picture(b, "cell", n), picture(b, "acc", n)
    d = drawings(b)[n]
    ok = len(top) == len(bottom) == total
    if ok:
        x0, y0 = min(c["x"] for c in top), min(c["y"] for c in top)
        bx0, by0 = min(c["x"] for c in bottom), min(c["y"] for c in bottom)
        cw = sorted(set(c["x"] for c in top))[1] - x0 if cols > 1 else 1
        ch = sorted(set(c["y"] for c in top))[1] - y0 if d0 > 1 else 1
        ok = all((c["x"] - x0, c["y"] - y0) == ((c["arch"] // d0) * cw, (c["arch"] % d0) * ch) for c in top) and \
            all((c["x"] - bx0, c["y"] - by0) == ((c["acc"] // d0) * cw, (c["acc"] % d0) * ch) for c in bottom) and \
            bx0 == x0
    n_inst = k["MIWaveTile"][0] * k["MIWaveTile"][1]
    inst = "WMMA" if k["WavefrontSize"] == 32 else "MFMA"
    want = ["%d registers = %d %s instruction%s" % (total, n_inst, inst, "" if n_inst == 1 else "s"),
            "MatrixInstBM %d, MatrixInstBN %d" % (k["MatrixInstBM"], k["MatrixInstBN"]),
            "Columns of %d = VectorWidthA %d" % (d0, k["VectorWidthA"])]
    if k["MatrixInstM"] == 4:
        want.append("one %dx%d tile" % (4 * k["MatrixInstBM"], k["MatrixInstN"]))
    return check(ok and d["axes"] == {"arch": [d0, cols], "acc": [d0, cols]} and all(w in d["legend"] for w in want),
                 "%s: both grids %dx%d column-major, labelled alike; the caption from the kernel's keys" % (what, d0, cols),
                 "%s %s; legend %r lacks %s" % (ok, d["axes"], d["legend"], [w for w in want if w not in d["legend"]]))


def check_asm_layout(b, what):
    """No assembly cell scrolls sideways or clips a line; a one-line cell has
    no scroll bar at all."""
    r = b.js("""[...document.querySelectorAll('.asm-cell pre.code')].map(p => {
        const pr = p.getBoundingClientRect();
        const lines = p.querySelectorAll('.ln').length;
        const clipped = [...p.querySelectorAll('.ln .tx')].filter(t => {
            const r = t.getBoundingClientRect(); return r.right > pr.right + 0.5 || r.width < t.scrollWidth - 0.5; }).length;
        return {lines, hscroll: p.scrollWidth > p.clientWidth, vscroll: p.scrollHeight > p.clientHeight, clipped,
                text: p.textContent.slice(0, 60)}; })""")
    bad = [x for x in r if x["hscroll"] or x["clipped"] or (x["lines"] == 1 and x["vscroll"])]
    one = [x for x in r if x["lines"] == 1]
    return check(r and one and not bad, "%s: %d assembly cells (%d of one line): none scrolls sideways or clips a line, "
                 "a one-line cell has no scroll bar" % (what, len(r), len(one)), json.dumps(bad[:3]))


def hsl(fill):
    m = re.match(r"hsl\(([\d.]+), ([\d.]+)%, ([\d.]+)%\)", fill)
    if not m:
        raise ValueError("fill %r is not hsl(h, s%%, l%%)" % fill)
    return tuple(float(x) for x in m.groups())


def lcs_unmatched(a, b):
    """Indices of b not on a longest common subsequence with a."""
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            dp[i][j] = dp[i + 1][j + 1] + 1 if a[i] == b[j] else max(dp[i + 1][j], dp[i][j + 1])
    i = j = 0
    matched = set()
    while i < n and j < m:
        if a[i] == b[j]:
            matched.add(j)
            i += 1
            j += 1
        elif dp[i + 1][j] >= dp[i][j + 1]:
            i += 1
        else:
            j += 1
    return [k for k in range(m) if k not in matched]


def acc_info(k):
    """The seed's _getAccToArchInfo (KernelWriterModules.py)."""
    M, N = k["MatrixInstM"], k["MatrixInstN"]
    BM = 1 if M == 4 else k["MatrixInstBM"]
    BN = 1 if N == 4 else k["MatrixInstBN"]
    mM = M * k["MatrixInstBM"] if M == 4 else M
    mN = N * k["MatrixInstBN"] if N == 4 else N
    opm = mM * mN // k["WavefrontSize"]
    return dict(BM=BM, BN=BN, OPM=opm, VW0=k["VectorWidthA"], VW1=k["VectorWidthB"],
                TT0=k["MIWaveTile"][0] // k["VectorWidthA"], TT1=k["MIWaveTile"][1] // k["VectorWidthB"])


def lines_of(asm):
    ls = asm.split("\n")
    return ls[:-1] if ls and ls[-1] == "" else ls


# ------------------------------------------------------------------ checks

def check_headers(d):
    st, h, body = http(d.base, "/")
    check(st == 200 and h.get("Content-Type", "").startswith("text/html") and b"<title>kwgen playground" in body,
          "GET / serves the page as text/html", "%d %s" % (st, h.get("Content-Type")))
    csp = h.get("Content-Security-Policy", "")
    check("script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp
          and "connect-src 'self'" in csp, "strict Content-Security-Policy (no inline script)", csp)
    check(b"<script>" not in body and b"onclick" not in body and b"style=" not in body,
          "the page has no inline script or style")
    etag = h.get("ETag", "")
    check(re.fullmatch(r'"[0-9a-f]{64}"', etag) is not None and h.get("Cache-Control") == "no-cache",
          "strong ETag and Cache-Control: no-cache", "%s %s" % (etag, h.get("Cache-Control")))
    st2, h2, b2 = http(d.base, "/", headers={"If-None-Match": etag})
    check(st2 == 304 and not b2 and h2.get("ETag") == etag, "If-None-Match answers 304", str(st2))
    for path, ctype in (("/ui/app.js", "text/javascript"), ("/ui/style.css", "text/css"),
                        ("/ui/examples.json", "application/json"), ("/ui/index.html", "text/html")):
        st, h, body = http(d.base, path)
        check(st == 200 and h.get("Content-Type", "").startswith(ctype) and len(body) > 100
              and h.get("X-Content-Type-Options") == "nosniff", "GET %s is %s" % (path, ctype),
              "%d %s" % (st, h.get("Content-Type")))
    st, h, body = http(d.base, "/", method="HEAD")
    check(st == 200 and not body, "HEAD / answers 200 without a body", str(st))
    st, _, body = http(d.base, "/ui/nope.js")
    check(st == 404 and json.loads(body)["error"]["code"] == "not_found", "an unknown /ui/ file is 404", str(st))
    st, _, body = http(d.base, "/", body={})
    check(st == 405, "POST / is 405", str(st))


def check_main(b, d, out):
    ex = json.load(open(EXAMPLES))["examples"][0]
    req = ex["request"]
    k = req["kernel"]
    b.goto(d.base + "/")
    b.wait("document.body.dataset.ready === '1'", "the page to start")
    b.wait("document.getElementById('status').classList.contains('ok')", "the first example to render")
    check(b.js("document.querySelectorAll('#pic-svg g.cell').length") == 64 and
          b.js("document.querySelectorAll('.asm-cell').length") > 5,
          "the first example is drawn on arrival, without a click")
    isas_api = json.loads(http(d.base, "/v1/isas")[2])["isas"]
    gens_api = json.loads(http(d.base, "/v1/generators")[2])["generators"]
    n_isa = b.js("document.querySelectorAll('#isas input').length")
    n_gen = b.js("document.querySelectorAll('#generators input[data-gen]').length")
    check(n_isa == len(isas_api) and n_gen == len(gens_api),
          "ISA and generator choices come from /v1/isas and /v1/generators (%d, %d)" % (n_isa, n_gen))
    check(b.js("document.getElementById('example').options.length") == 1 + len(json.load(open(EXAMPLES))["examples"]),
          "the bundled examples are offered")
    check(json.loads(b.js("document.getElementById('solution').value")) == req and
          b.js("JSON.stringify([...document.querySelectorAll('#isas input:checked')].map(x => x.value))") == '["gfx942"]',
          "the first example is loaded with its ISA ticked")

    isas = ["gfx90a", "gfx942", "gfx1100"]  # the page's order: /v1/isas order; the first is the reference
    gens = [{"name": "syncThreads", "args": {"comment": "sync"}},
            {"name": "mapAcctoArchRegs", "args": {"maxAgpr": 40}},
            {"name": "wait", "args": {"skipGlobalRead": 0, "skipLocalWrite": 1, "skipLocalRead": 0,
                                      "comment": "wait for this tile's global reads before the local writes of the next"}}]
    tick_isas(b, isas)
    set_generators(b, gens)
    generate(b)
    status = b.js("document.getElementById('status').textContent")
    check(status.startswith("3 of 3 ISAs answered"), "three ISAs answered", status)
    check(status.endswith("source " + req["source"]), "the answer's source (the example's hipBLASLt file) is shown", status)
    got = cells(b)
    want = {}
    for isa in isas:
        r = dict(req, isa=isa, generators=gens)
        want[isa] = {x["name"]: x for x in answer(d.base, r)["results"]}
    same = all(got.get(isa + "|" + g["name"], {}).get("lines") == lines_of(want[isa][g["name"]]["asm"])
               for isa in isas for g in gens)
    check(same, "every rendered assembly cell is the daemon's text, line for line (3 ISAs x 3 generators)")
    # diagnostics: agpr_spill everywhere, instruction_not_on_isa on gfx1100
    for isa in isas:
        w = want[isa]["mapAcctoArchRegs"]
        g = got[isa + "|mapAcctoArchRegs"]
        codes = [x["code"] for x in w["diagnostics"]]
        check(g["banners"] == codes and "agpr_spill" in codes,
              "%s mapAcctoArchRegs shows the daemon's diagnostics %s" % (isa, codes), str(g["banners"]))
        lines = lines_of(w["asm"])
        expect = set(i for i, l in enumerate(lines) if not l.split()[0].startswith("v_accvgpr"))
        if "instruction_not_on_isa" in codes:
            msg = [x["message"] for x in w["diagnostics"] if x["code"] == "instruction_not_on_isa"][0]
            mnemonic = msg.split()[0]
            expect |= set(i for i, l in enumerate(lines) if l.split()[0] == mnemonic)
        spill = [x["message"] for x in w["diagnostics"] if x["code"] == "agpr_spill"][0]
        check(set(g["diag"]) == expect and len(expect) > 0 and all(spill in t or "instruction_not_on_isa" in t
                                                                  for t in g["titles"]),
              "%s: %d lines marked with their diagnostic, message on hover" % (isa, len(expect)),
              "marked %s want %s" % (sorted(g["diag"])[:8], sorted(expect)[:8]))
    # the ISA diff, against the first ISA
    check([i["name"] for i in isas_api if i["name"] in isas] == isas, "ISAs listed in /v1/isas order")
    ref = {gn: lines_of(want[isas[0]][gn]["asm"]) for gn in want[isas[0]]}
    for isa in isas[1:]:
        for gn in ("syncThreads", "mapAcctoArchRegs", "wait"):
            exp = lcs_unmatched(ref[gn], lines_of(want[isa][gn]["asm"]))
            check(got[isa + "|" + gn]["diff"] == exp,
                  "%s %s: the %d lines that differ from %s are highlighted" % (isa, gn, len(exp), isas[0]),
                  "page %s want %s" % (got[isa + "|" + gn]["diff"][:8], exp[:8]))
    n_diff = sum(len(got[isa + "|" + gn]["diff"]) for isa in isas[1:] for gn in ("syncThreads", "mapAcctoArchRegs", "wait"))
    check(n_diff > 0, "the ISAs do differ somewhere (%d highlighted lines)" % n_diff)
    check_asm_layout(b, "3 ISAs, a long wait comment")
    b.js("document.querySelector('.asm-cell[data-gen=\"wait\"]').scrollIntoView({block: 'center'})")
    box = b.js("(() => { const c = [...document.querySelectorAll('.asm-cell[data-gen=\"wait\"]')];"
               " const r0 = c[0].getBoundingClientRect(), r1 = c[c.length - 1].getBoundingClientRect();"
               " return {x: r0.x - 4, y: r0.y - 28 + window.scrollY, width: r1.right - r0.x + 8, height: r0.height + 36}; })()")
    b.screenshot(os.path.join(out, "asm-one-line.png"), clip=dict(box, scale=1))
    drawn = drawings(b)
    check(len(drawn) == 1 and drawn[0]["isas"] == isas and drawn[0]["head"] == ", ".join(isas) + ": the same map",
          "one drawing for the three ISAs, which answer the same map, and it says so",
          json.dumps([(x["isas"], x["head"]) for x in drawn]))

    # the picture: SourceSwap 1 as given
    f = acc_info(k)
    per_mfma = f["OPM"] * f["BM"] * f["BN"]
    for flip in (False, True):
        swap = (1 - int(bool(k["SourceSwap"]))) if flip else int(bool(k["SourceSwap"]))
        if flip:
            b.js("document.getElementById('flip').click()")
        kk = dict(k, SourceSwap=swap)
        a2a = answer(d.base, dict(req, kernel=kk, generators=[{"name": "accToArchMapper", "args": {}}]))["results"][0]["acc2arch"]
        inverse = {dst: src for src, dst in enumerate(a2a)}
        pic = picture(b)
        check(len(pic) == len(a2a) == len(inverse), "SourceSwap %d: %d cells, one per arch VGPR" % (swap, len(pic)),
              "%d cells, acc2arch %d" % (len(pic), len(a2a)))
        check(all(c["label"] == str(inverse[c["arch"]]) for c in pic),
              "SourceSwap %d: every cell is labelled with the accumulator acc2arch sends to it" % swap)
        hue = collections.defaultdict(set)
        for c in pic:
            hue[hsl(c["fill"])[0]].add(inverse[c["arch"]] // per_mfma)
        groups = {c["arch"]: inverse[c["arch"]] // per_mfma for c in pic}
        n_mfma = len(set(groups.values()))
        check(len(hue) == n_mfma and all(len(v) == 1 for v in hue.values()),
              "SourceSwap %d: one hue per MFMA instruction (%d hues)" % (swap, n_mfma),
              "%d hues for %d MFMAs" % (len(hue), n_mfma))
        light_ok = all(hsl(c1["fill"])[2] > hsl(c2["fill"])[2]
                       for c1 in pic for c2 in pic
                       if groups[c1["arch"]] == groups[c2["arch"]] and inverse[c1["arch"]] % f["OPM"] < inverse[c2["arch"]] % f["OPM"])
        check(light_ok, "SourceSwap %d: within an MFMA, earlier outputs are lighter" % swap)
        check_grids(b, kk, swap, "SourceSwap %d" % swap)
        d0 = f["VW0"] * f["BM"] * f["TT0"] * (1 if swap else f["OPM"])
        ys = sorted(set(c["y"] for c in pic))
        xs = sorted(set(c["x"] for c in pic))
        check(len(ys) == d0 and len(xs) == len(pic) // d0 and
              all(ys.index(c["y"]) == c["arch"] % d0 and xs.index(c["x"]) == c["arch"] // d0 for c in pic),
              "SourceSwap %d: column-major %dx%d grid (dimension 0 down)" % (swap, d0, len(pic) // d0))
        if not flip:
            b.screenshot(os.path.join(out, "playground.png"))
            # the top of the page at 3/4 scale (README's picture: docs/playground.png)
            b.js("window.scrollTo(0, 0)")
            b.screenshot(os.path.join(out, "overview.png"),
                         clip={"x": 0, "y": 0, "width": 1500, "height": 1180, "scale": 0.75})
            first_labels = [c["label"] for c in sorted(pic, key=lambda c: c["arch"])]
        else:
            labels = [c["label"] for c in sorted(pic, key=lambda c: c["arch"])]
            check(labels != first_labels, "flipping SourceSwap changes the picture")
            b.js("document.getElementById('picture').scrollIntoView()")
            b.screenshot(os.path.join(out, "picture-flipped.png"))
    # hover: arch -> acc
    b.hover('#pic-svg g.cell[data-arch="5"]')
    info = b.js("document.getElementById('pic-info').textContent")
    hl = b.js("[...document.querySelectorAll('#pic-svg g.hl')].map(g => g.getAttribute('class') + ':' + g.dataset.acc)")
    check(info.startswith("v[vgprValuC+5] ← acc%d:" % inverse[5]) and sorted(hl) == sorted(["cell hl:%d" % inverse[5], "acc hl:%d" % inverse[5]]),
          "hovering arch VGPR 5 names acc%d and highlights it in the accumulator strip" % inverse[5], "%s %s" % (info, hl))
    # colour by lane
    b.js("{ const s = document.getElementById('colour-by'); s.value = 'lane'; s.dispatchEvent(new Event('change')); }")
    pic = picture(b)
    lane_hue = collections.defaultdict(set)
    for c in pic:
        acc = inverse[c["arch"]]
        rest = acc // per_mfma
        lane = (rest % f["VW0"], (rest // (f["VW0"] * f["TT0"])) % f["VW1"])
        lane_hue[hsl(c["fill"])[0]].add(lane)
    check(len(lane_hue) == f["VW0"] * f["VW1"] and all(len(v) == 1 for v in lane_hue.values()),
          "colour by vector-width lane: %d hues" % (f["VW0"] * f["VW1"]), str(len(lane_hue)))
    # SVG download
    dl = os.path.join(out, "downloads")
    for old in os.listdir(dl):
        os.unlink(os.path.join(dl, old))
    b.js("document.getElementById('svg-download').click()")
    deadline = time.time() + 30
    files = []
    while time.time() < deadline:
        files = [x for x in os.listdir(dl) if x.endswith(".svg")]
        if files:
            break
        time.sleep(0.1)
    ok = False
    tree = None
    while files and tree is None:
        # chromium renames its .crdownload to the name once written: the
        # file parses from then on (polled in case it is still being written)
        try:
            tree = ET.parse(os.path.join(dl, files[0]))
        except ET.ParseError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    if tree is not None:
        rects = tree.getroot().findall(".//{http://www.w3.org/2000/svg}rect")
        ok = len(rects) == 2 * len(a2a)
    check(ok, "Download SVG writes a standalone SVG with every cell (%s)" % (files[0] if files else "no file"))

    # the shared URL reproduces the page
    href = b.js("location.href")
    frag = href.split("#r=", 1)[1] if "#r=" in href else ""
    share = json.loads(base64.urlsafe_b64decode(frag + "=" * (-len(frag) % 4))) if frag else {}
    check(share.get("isas") == isas and sorted(share.get("generators", []), key=lambda g: g["name"]) == sorted(gens, key=lambda g: g["name"])
          and share.get("flip") is True and share.get("colourBy") == "lane",
          "the URL fragment holds the request (base64url JSON)",
          json.dumps({k: v for k, v in share.items() if k != "solution"})[:400])
    before = cells(b)
    b.goto("about:blank")
    b.goto(href)
    b.wait("document.body.dataset.ready === '1' && document.getElementById('status').classList.contains('ok')",
           "the shared link to render")
    after = cells(b)
    check(after == before and b.js("document.getElementById('flip').checked"),
          "opening the shared link renders the same assembly, diff and marks")
    # copy as curl, run it
    b.js("document.getElementById('curl').click()")
    b.wait("document.getElementById('curl-text').textContent.startsWith('curl ')", "the curl command")
    cmd = b.js("document.getElementById('curl-text').textContent")
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, timeout=TIMEOUT)
    ok = False
    try:
        res = json.loads(r.stdout)["results"]
        ok = [x["status"] for x in res] == [200] * 3 and all(
            {y["name"]: lines_of(y["asm"]) for y in res[i]["response"]["results"]} ==
            {g["name"]: after[isa + "|" + g["name"]]["lines"] for g in gens} for i, isa in enumerate(isas))
    except (ValueError, KeyError) as e:
        print("curl output: %s %s (%s)" % (r.stdout[:300], r.stderr[:300], e))
    check(ok, "the 'copy as curl' command, run by sh, answers what the page shows")
    return req


def check_hostile_fragment(b, d):
    """A share link is data: names with quotes and brackets (which would break
    a CSS selector built from them), wrong types and unknown fields must not
    stop the page from starting; the known parts are restored."""
    req = json.load(open(EXAMPLES))["examples"][0]["request"]
    share = {"v": 1, "isas": ["gfx942", 'gfx"]', 7], "solution": json.dumps(req), "example": '0"]',
             "generators": [{"name": 'wait"]', "args": {'skipGlobalRead"]': 1}},
                            {"name": "syncThreads", "args": {'comment"] x': "a", "comment": "from the link"}},
                            "not an object", {"name": 5}],
             "outputNoComment": "yes", "replaceHolder": {"x": 1}, "flip": 1, "colourBy": '"]'}
    frag = base64.urlsafe_b64encode(json.dumps(share).encode()).decode().rstrip("=")
    b.goto("about:blank")
    b.console_errors.clear()
    b.goto(d.base + "/#r=" + frag)
    b.wait("document.body.dataset.ready === '1'", "the page to start from a hostile share link")
    b.wait("['ok', 'error'].some(c => document.getElementById('status').classList.contains(c))", "its answer")
    status = b.js("document.getElementById('status').textContent")
    ticked = b.js("[...document.querySelectorAll('#generators input[data-gen]:checked')].map(x => x.dataset.gen)")
    comment = b.js("[...document.querySelectorAll('#generators [data-gen-arg]')].find(x => x.dataset.genArg === 'syncThreads.comment').value")
    isas = b.js("[...document.querySelectorAll('#isas input:checked')].map(x => x.value)")
    check(status.startswith("1 of 1 ISAs answered") and ticked == ["syncThreads"] and comment == "from the link"
          and isas == ["gfx942"] and not b.js("document.getElementById('opt-nocomment').checked")
          and b.js("document.getElementById('colour-by').value") in ("mfma", "lane", "output"),
          "a share link with '\"]' in names and ill-typed fields starts the page; the valid parts are restored",
          "%s %s %r %s" % (status, ticked, comment, isas))
    check(not b.console_errors, "no exception from the hostile share link", "; ".join(b.console_errors)[:500])
    b.goto("about:blank")
    b.goto(d.base + "/")
    b.wait("document.body.dataset.ready === '1'", "the page to start again")


def check_picture_per_isa(b, d, out):
    """One drawing per distinct map over the ticked ISAs, grouped as the
    daemon's own accToArchMapper answers group them (an ISA whose answer is
    an error gets its own entry with the error)."""
    req = json.load(open(EXAMPLES))["examples"][0]["request"]
    isas = ["gfx90a", "gfx942", "gfx1250"]  # gfx1250 runs no wave64 kernel
    b.js("document.getElementById('flip').checked = false; document.getElementById('colour-by').value = 'mfma'")
    b.js("{ const s = document.getElementById('example'); s.value = '0'; s.dispatchEvent(new Event('change')); }")
    b.wait("document.getElementById('status').classList.contains('ok')", "example 0")
    tick_isas(b, isas)
    set_generators(b, [{"name": "accToArchMapper", "args": {}}])
    generate(b)
    groups = collections.OrderedDict()
    for isa in isas:
        st, _, body = http(d.base, "/v1/kernels", dict(req, isa=isa, generators=[{"name": "accToArchMapper", "args": {}}]))
        res = json.loads(body)
        key = json.dumps(res["results"][0]["acc2arch"]) if st == 200 else "error " + isa
        groups.setdefault(key, []).append(isa)
    drawn = drawings(b)
    want = list(groups.values())
    check([x["isas"] for x in drawn] == want and len(want) == 2 and drawn[1]["err"].startswith("accToArchMapper on gfx1250: 422")
          and drawn[0]["head"] == "gfx90a, gfx942: the same map" and drawn[1]["head"] == "gfx1250"
          and len(picture(b, "cell", 0)) == 64 and not picture(b, "cell", 1),
          "a drawing per distinct answer over gfx90a, gfx942, gfx1250: %s" % want,
          json.dumps([(x["isas"], x["head"], x["err"][:60]) for x in drawn]))
    b.js("document.getElementById('picture').scrollIntoView()")
    b.screenshot(os.path.join(out, "picture-per-isa.png"), full=False)
    set_generators(b, [])


def check_examples(b, d, out):
    """Every bundled example: its picture matches the daemon's acc2arch."""
    examples = json.load(open(EXAMPLES))["examples"]
    for i, ex in enumerate(examples):
        req = ex["request"]
        b.js("document.getElementById('flip').checked = false; document.getElementById('colour-by').value = 'mfma'")
        b.js("document.getElementById('status').className = ''")
        b.js("{ const s = document.getElementById('example'); s.value = '%d'; s.dispatchEvent(new Event('change')); }" % i)
        b.wait("['ok', 'error'].some(c => document.getElementById('status').classList.contains(c))", "example %d" % i)
        a2a = answer(d.base, dict(req, generators=[{"name": "accToArchMapper", "args": {}}]))["results"][0]["acc2arch"]
        inverse = {dst: src for src, dst in enumerate(a2a)}
        pic = picture(b)
        per = acc_info(req["kernel"])
        per_mfma = per["OPM"] * per["BM"] * per["BN"]
        hues = collections.defaultdict(set)
        for c in pic:
            hues[hsl(c["fill"])[0]].add(inverse[c["arch"]] // per_mfma)
        status = b.js("document.getElementById('status').textContent")
        check_grids(b, req["kernel"], int(bool(req["kernel"]["SourceSwap"])), "example %d (%s)" % (i, ex["name"]))
        b.js("document.getElementById('picture').scrollIntoView()")
        b.screenshot(os.path.join(out, "example-%d-picture.png" % i), full=False)
        check(status.startswith("1 of 1 ISAs answered") and len(pic) == len(a2a) and
              all(c["label"] == str(inverse[c["arch"]]) for c in pic) and all(len(v) == 1 for v in hues.values()),
              "example %d (%s): %d cells labelled from acc2arch, one hue per MFMA" % (i, req["isa"], len(pic)),
              "%s; %d cells for %d" % (status, len(pic), len(a2a)))


def read_status(b):
    """The solution box's status line once the daemon has read the text."""
    b.wait("(() => { const p = document.getElementById('parse-status');"
           " return p.classList.contains('ok') || p.classList.contains('bad'); })()", "the solution to be read")
    return b.js("document.getElementById('parse-status').textContent")


def check_yaml(b, d, out):
    """A pasted solution is YAML the daemon reads (POST /v1/kernels with
    Content-Type: application/yaml, ?derive=only): the page has no YAML
    parser, a flow mapping PyYAML wraps over two lines is read, and the
    solution gets tPA/tPB/states, so wait runs."""
    check(b.js("typeof parseYaml") == "undefined" and "parseYaml" not in http(d.base, "/ui/app.js")[2].decode(),
          "the page carries no YAML parser of its own")
    text = open(FIXTURE).read().split("\n")
    # the second solution of the fixture, as a person would copy it, with a
    # flow mapping wrapped over two lines as PyYAML writes long ones
    starts = [i for i, l in enumerate(text) if l.startswith("  - ") or l.startswith("- - ")]
    sol = "\n".join(text[starts[1]:starts[2]]) + \
        "\n    InternalSupportParams: {KernArgsVersion: 2, SupportUserGSU: true,\n      UseUniversalArgs: true}\n"
    expected = [json.loads(l) for l in open(FIXTURE_EXPECTED)][1]
    check("MIWaveTile: [3, 1]" in sol and expected["kernel"]["MIWaveTile"] == [3, 1], "fixture: solution 1 of gfx942.yaml")
    gens = [{"name": "mapAcctoArchRegs", "args": {}}, {"name": "accToArchMapper", "args": {}},
            {"name": "wait", "args": {"skipGlobalRead": 0, "skipLocalWrite": -1, "skipLocalRead": -1}}]
    b.js("document.getElementById('example').value = ''")
    tick_isas(b, [])
    set_generators(b, gens)
    b.js("document.getElementById('flip').checked = false")
    set_solution(b, sol)
    st = read_status(b)
    check(st.startswith("Read as YAML Tensile solution, derived by the daemon") and
          b.js("JSON.stringify([...document.querySelectorAll('#isas input:checked')].map(x => x.value))") == '["gfx942"]',
          "pasted logic-file YAML (a flow mapping wrapped over two lines) is read by the daemon and its ISA ticked", st)
    generate(b)
    status = b.js("document.getElementById('status').textContent")
    check(status.startswith("1 of 1 ISAs answered") and status.endswith("source solution 1 · KernelNameMin Cijk_fixture_1"),
          "the pasted solution's SolutionIndex and name come back as the answer's source", status)
    got = cells(b)
    want = {x["name"]: x for x in answer(d.base, dict(expected, generators=gens))["results"]}
    check(all(got.get("gfx942|" + g["name"], {}).get("lines") == lines_of(want[g["name"]]["asm"])
              for g in gens if want[g["name"]]["asm"] is not None) and want["wait"]["asm"],
          "the YAML solution gives the same assembly as `kwgen logic`'s request for it, wait included")
    check(len(picture(b)) == len(want["accToArchMapper"]["acc2arch"]),
          "the YAML solution's picture has %d cells" % len(want["accToArchMapper"]["acc2arch"]))
    b.screenshot(os.path.join(out, "yaml.png"))
    set_solution(b, open(FIXTURE).read())
    st = read_status(b)
    check("a logic file with 14 solutions: post one solution" in st and
          b.js("document.getElementById('parse-status').classList.contains('bad')"),
          "a whole logic file: the daemon's message says to paste one solution", st)
    for bad, word in (("MIWaveTile: [1, 2\nSourceSwap: 1", "YAML solution: body:2:"),
                      ("a: 1\n  b: 2", "YAML solution: body:2:"),
                      ("- *anchor\n", "names no anchor"),
                      ("{\"kernel\": ", "JSON")):
        set_solution(b, bad)
        read_status(b)
        generate(b)
        msg = b.js("document.getElementById('parse-status').textContent")
        check(word in msg and b.js("document.getElementById('status').classList.contains('error')"),
              "bad input %r: a clear error (%s)" % (bad[:20], msg[:80]))
    # the browser logs each of those 400 answers; they are what this test asked for
    b.console_errors[:] = [e for e in b.console_errors
                           if not re.search(r"status of 400 \(Bad Request\) \S+/v1/kernels\?derive=only$", e)]


def check_auth(b, kwgend, tmp, out):
    """--auth-tokens, in browser b (the main checks' chromium: this daemon
    is another origin, so the page starts with no token stored; one chromium
    start, ~1.5 s of CPU, less)."""
    tokfile = os.path.join(tmp, "tokens")
    with open(tokfile, "w") as f:
        f.write("# test\nsecret-ui-token\n")
    d = Daemon(kwgend, tmp, "auth", ["--auth-tokens", tokfile])
    b.console_errors[:] = []
    try:
        st, _, _ = http(d.base, "/")
        st2, _, _ = http(d.base, "/v1/isas")
        check(st == 200 and st2 == 401, "with --auth-tokens the page is served, the API wants a token (%d, %d)" % (st, st2))
        b.goto(d.base + "/")
        b.wait("!document.getElementById('auth').hidden", "the token box")
        check(True, "the page asks for the token")
        b.js("document.getElementById('token').value = 'wrong'; document.getElementById('auth-form').requestSubmit()")
        b.wait("document.getElementById('auth-msg').textContent.includes('refused')", "the refusal")
        check(True, "a wrong token is refused with a message")
        b.screenshot(os.path.join(out, "auth.png"), full=False)
        b.js("document.getElementById('token').value = 'secret-ui-token'; document.getElementById('auth-form').requestSubmit()")
        b.wait("document.body.dataset.ready === '1'", "the page to start with the token")
        generate(b)
        status = b.js("document.getElementById('status').textContent")
        check(status.startswith("1 of 1 ISAs answered") and b.js("document.getElementById('auth').hidden"),
              "with the token the page generates", status)
        href = b.js("location.href")
        check("secret-ui-token" not in href and "secret-ui-token" not in b.js("document.getElementById('curl-text').textContent"),
              "the token is neither in the shared URL nor in the curl command")
        errs = [e for e in b.console_errors if "401" not in e]
        check(not errs, "no console errors besides the expected 401s", "; ".join(errs)[:500])
    finally:
        rc = d.stop()
        check(rc == 0, "the --auth-tokens kwgend exits 0 on SIGTERM", str(rc))
    d = Daemon(kwgend, tmp, "noui", ["--no-ui"])
    try:
        st, _, body = http(d.base, "/")
        st2, _, _ = http(d.base, "/ui/app.js")
        st3, _, _ = http(d.base, "/healthz")
        check(st == 404 and st2 == 404 and st3 == 200 and b"--no-ui" in body, "--no-ui: / and /ui/* are 404, the API works")
    finally:
        rc = d.stop()
        check(rc == 0, "the --no-ui kwgend exits 0 on SIGTERM", str(rc))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kwgend", required=True)
    ap.add_argument("--out", required=True, help="screenshots and logs")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.join(out, "downloads"), exist_ok=True)
    exe = find_chromium()
    if not exe:
        print("ui-test: chromium not found (Debian package chromium; run `make deps`)")
        print("0 passed, 1 failed")
        return 1
    tmp = tempfile.mkdtemp(prefix="kwgen-ui-")
    d = Daemon(os.path.abspath(args.kwgend), tmp, "main")
    b = None
    try:
        check_headers(d)
        b = Browser(exe, tmp, os.path.join(out, "downloads"))
        check_main(b, d, out)
        check_hostile_fragment(b, d)
        check_examples(b, d, out)
        check_picture_per_isa(b, d, out)
        check_yaml(b, d, out)
        check(not b.console_errors, "no console errors or exceptions on the page", "; ".join(b.console_errors)[:800])
        check_auth(b, os.path.abspath(args.kwgend), tmp, out)
        b.stop()
        b = None
    except Exception as e:  # report and count it, then clean up
        check(False, "the browser run completed", "%s: %s" % (type(e).__name__, e))
        if b:
            try:
                b.screenshot(os.path.join(out, "failure.png"))
            except Exception as e2:
                print("note: no failure screenshot: %s" % e2)
    finally:
        if b:
            b.stop()
        rc = d.stop()
        check(rc == 0, "kwgend exits 0 on SIGTERM, no sanitizer report", str(rc))
        shutil.rmtree(tmp, ignore_errors=True)
    print("screenshots in %s" % out)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
