"""Many files per process for the verify suites (tests/verify/*.py).

Every llvm-objdump-22 or `kwgen verify FILE.o` process spends most of its
CPU loading libLLVM (about 70 ms), a `kwgen verify FILE.s` process about
20 ms: the suites run the same tools on the same files as before, but hand
each process a batch of files.

  verify_many(kwgen, paths, isa=None)  `kwgen verify --json-lines` on the
      paths (in chunks, chunk= files each): per path (findings, json object, error), with the
      same checks as one process per file: the file's own exit status
      ("exit") is 0 or 1, agrees with the findings' severities, no sanitizer
      report.
  objdump_many(paths)  `llvm-objdump-22 -d` on the paths, one process per
      chunk of objects with the same e_flags (llvm-objdump reads the processor
      of the first file for all): per path (text, error); the text is what
      `llvm-objdump-22 -d PATH` prints alone (objdump_one checks that on one
      file per group).
  verify_texts(kwgen, jobs, tmp, pool)  jobs [(isa, text, name)]: each text
      written to tmp and verified with --isa ISA, chunks of one ISA per
      process, the chunks run by pool (a ThreadPoolExecutor): per job
      (findings, json object, error), in order.
  chunks(seq, n)  seq cut into n-sized lists.

The tools' outputs on the committed sources do not change between runs:
with a cache directory (--tool-cache DIR, make passes
$(BUILD)/verify-cache), what llvm-mc-22, llvm-objdump-22, ld.lld-22 and
clang-22 make is kept under the SHA-256 of the tool (its `--version` text
and the binary's size and time), its arguments and its input bytes, and
read back instead of running the tool again: the suites that assemble the
same kernel (verify-forms and verify-mutants-objdump) share it, and a second
`make test` runs none of them.  Outputs of kwgen and codeobj_dump (what is
under test) are never cached.  Entries are written to a temporary name and
renamed, so suites running side by side share the directory safely.
"""
import hashlib, json, os, shutil, subprocess, sys, threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from checks import sanitizer_report  # noqa: E402
import zygote  # noqa: E402

LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")
LD_LLD = os.environ.get("LD_LLD", "ld.lld-22")
CHUNK = 24


class ToolCache:
    """Outputs of the LLVM tools keyed by tool, arguments and input (above).
    ToolCache(None) caches nothing."""

    def __init__(self, d):
        self.d = d
        self.ids, self.lock = {}, threading.Lock()
        self.hits = self.misses = 0
        if d:
            os.makedirs(d, exist_ok=True)

    def tool_id(self, tool):
        with self.lock:
            if tool not in self.ids:
                path = shutil.which(tool) or tool
                real = os.path.realpath(path)
                st = os.stat(real) if os.path.exists(real) else None
                head = "%s %s %s\n" % (real, st.st_size if st else 0, st.st_mtime_ns if st else 0)
                memo = self._version_memo(real, head) if st else None
                version = None
                if memo:
                    try:
                        with open(memo, encoding="utf-8") as f:
                            version = f.read()
                    except OSError:
                        pass
                if version is None:
                    p = subprocess.run([path, "--version"], capture_output=True)
                    version = p.stdout.decode("utf-8", "replace")
                    if memo and p.returncode == 0:
                        tmp = "%s.%d.tmp" % (memo, os.getpid())
                        with open(tmp, "w", encoding="utf-8") as f:
                            f.write(version)
                        os.replace(tmp, memo)
                self.ids[tool] = head + version
            return self.ids[tool]

    def _version_memo(self, real, head):
        """Where the cache keeps a tool's `--version` text (each run of an
        LLVM tool loads libLLVM: ~0.1 s of CPU, in every suite process that
        uses the cache), under the tool's and its LLVM libraries' path, size
        and mtime: a new tool or libLLVM (which prints the version) is a new
        name.  None without a cache directory."""
        if not self.d:
            return None
        import glob
        h = hashlib.sha256(head.encode())
        lib = os.path.join(os.path.dirname(os.path.dirname(real)), "lib")
        for pat in ("libLLVM*.so*", "libclang-cpp.so*", "liblld*.so*"):
            for so in sorted({os.path.realpath(x) for x in glob.glob(os.path.join(lib, pat))}):
                try:
                    st = os.stat(so)
                except OSError:
                    continue
                h.update(("%s %d %d\n" % (so, st.st_size, st.st_mtime_ns)).encode())
        d = os.path.join(self.d, "tool-versions")
        os.makedirs(d, exist_ok=True)
        return os.path.join(d, h.hexdigest())

    def key(self, tool, args, data):
        h = hashlib.sha256(self.tool_id(tool).encode())
        h.update(json.dumps(list(args)).encode() + b"\0")
        h.update(data)
        return h.hexdigest()

    def get(self, key):
        if not self.d:
            return None
        try:
            with open(os.path.join(self.d, key[:2], key), "rb") as f:
                data = f.read()
        except OSError:
            with self.lock:
                self.misses += 1
            return None
        with self.lock:
            self.hits += 1
        return data

    def put(self, key, data):
        if not self.d:
            return
        d = os.path.join(self.d, key[:2])
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, "%s.%d.%d.tmp" % (key, os.getpid(), threading.get_ident()))
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(d, key))

    def run_file(self, tool, args, src, out, argv):
        """Run argv (tool with args, reading src, writing out) unless the cache
        holds out for (tool, args, src's bytes): -> (returncode, stderr text)."""
        key = None
        if self.d:
            with open(src, "rb") as f:
                key = self.key(tool, args, f.read())
            data = self.get(key)
            if data is not None:
                with open(out, "wb") as f:
                    f.write(data)
                return 0, ""
        rc, _, err = run_tool(argv, timeout=300)
        if rc == 0 and key:
            with open(out, "rb") as f:
                self.put(key, f.read())
        return rc, err.decode("utf-8", "replace")


NO_CACHE = ToolCache(None)


def run_tool(argv, timeout=300, cwd=None):
    """argv run as by subprocess.run(argv, capture_output=True, cwd=cwd): ->
    (returncode, stdout bytes, stderr bytes); llvm-mc-22, llvm-objdump-22,
    ld.lld-22 and clang-22 from one loaded process per thread when make sets
    KWGEN_TOOL_ZYGOTE (tests/lib/zygote.py): a third of their CPU is
    loading libLLVM."""
    return zygote.run(argv, timeout=timeout, cwd=cwd)


def assemble(src, out, mcpu, cache=NO_CACHE):
    """llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=MCPU -filetype=obj SRC -o OUT:
    -> (returncode, stderr)."""
    args = ["-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", "-filetype=obj"]
    return cache.run_file(LLVM_MC, args, src, out, [LLVM_MC] + args + [src, "-o", out])


def link(obj, out, cache=NO_CACHE):
    """ld.lld -shared OBJ -o OUT: -> (returncode, stderr)."""
    return cache.run_file(LD_LLD, ["-shared"], obj, out, [LD_LLD, "-shared", obj, "-o", out])


def link_many(objs, out, cache=NO_CACHE):
    """ld.lld -shared OBJ... -o OUT (one code object holding every object's
    functions): -> (returncode, stderr).  Cached under the objects' bytes
    in order."""
    key = None
    if cache.d:
        parts = []
        for o in objs:
            with open(o, "rb") as f:
                b = f.read()
            parts += [b"%d\0" % len(b), b]
        data = b"".join(parts)      # joined once: += per object copied all before it
        key = cache.key(LD_LLD, ["-shared", "many", len(objs)], data)
        got = cache.get(key)
        if got is not None:
            with open(out, "wb") as f:
                f.write(got)
            return 0, ""
    rc, _, err = run_tool([LD_LLD, "-shared"] + list(objs) + ["-o", out], timeout=300)
    if rc == 0 and key:
        with open(out, "rb") as f:
            cache.put(key, f.read())
    return rc, err.decode("utf-8", "replace")


def chunks(seq, n=CHUNK):
    seq = list(seq)
    return [seq[i:i + n] for i in range(0, len(seq), n)]


def verify_many(kwgen, paths, isa=None, timeout=60, extra=(), chunk=CHUNK):
    """-> [(findings, out, error)] in the order of paths (one process per
    chunk of `chunk` files; timeout is per file, the chunk gets timeout x
    its length)."""
    res = []
    for part in chunks(paths, chunk):
        res += _verify_chunk(kwgen, part, isa, timeout, extra)
    return res


def _verify_chunk(kwgen, paths, isa, timeout, extra):
    cmd = [kwgen, "verify", "--json-lines"] + (["--isa", isa] if isa else []) + list(extra) + ["--"] + list(paths)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout * len(paths))
    except subprocess.TimeoutExpired:
        return [(None, None, f"timeout after {timeout} s per file ({len(paths)} files)")] * len(paths)
    san = sanitizer_report(p.stderr)
    if san:
        return [(None, None, f"sanitizer: {san}")] * len(paths)
    lines = p.stdout.splitlines()
    if len(lines) != len(paths):
        why = f"exit {p.returncode}, {len(lines)} lines for {len(paths)} files: {p.stderr.strip()[-300:]}"
        return [(None, None, why)] * len(paths)
    res, worst = [], 0
    for path, line in zip(paths, lines):
        try:
            out = json.loads(line)
            if out.get("file") != path:
                raise ValueError(f"line for {out.get('file')!r}, expected {path!r}")
            rc = out["exit"]
            worst = max(worst, rc)
            if rc not in (0, 1):
                res.append((None, None, f"exit {rc}: {out.get('error', '')[-300:]}"))
                continue
            fs = out["findings"]
            if not isinstance(fs, list):
                raise ValueError("findings is not a list")
        except (ValueError, KeyError, TypeError) as e:
            res.append((None, None, f"bad JSON ({e}): {line[:200]!r}"))
            continue
        # exit 1 = an error finding; warnings (redundant_wait, unsupported, lds_latency) alone exit 0
        if (rc == 1 and not fs) or (rc == 0 and any(f.get("severity") == "error" for f in fs)):
            res.append((None, None, f"exit {rc} with findings {[f.get('code') for f in fs][:5]}"))
            continue
        res.append((fs, out, None))
    if p.returncode != worst:
        why = f"process exit {p.returncode}, the worst file's exit {worst}"
        return [(None, None, why)] * len(paths)
    return res


def verify_texts(kwgen, jobs, tmp, pool, timeout=60):
    by = {}
    for k, (isa, text, name) in enumerate(jobs):
        path = os.path.join(tmp, "%05d_%s" % (k, name.replace("/", "_").replace(".gz", "")))
        with open(path, "w") as f:
            f.write(text)
        by.setdefault(isa, []).append((k, path))
    tasks = [(isa, part) for isa, lst in sorted(by.items()) for part in chunks(lst)]
    out = [None] * len(jobs)
    for (isa, part), res in zip(tasks, pool.map(
            lambda t: verify_many(kwgen, [p for _, p in t[1]], t[0], timeout), tasks)):
        for (k, path), r in zip(part, res):
            os.unlink(path)
            out[k] = r
    return out


def e_flags(path):
    with open(path, "rb") as f:
        head = f.read(52)
    return head[48:52] if len(head) >= 52 and head[:4] == b"\x7fELF" else None


def objdump_many(paths, timeout=120, cache=NO_CACHE):
    """-> {path: (text, error)}: llvm-objdump -d per chunk of same-e_flags
    objects (the cache keeps each object's text without its first line,
    which names the file)."""
    groups, res, keys = {}, {}, {}
    for p in paths:
        if cache.d:
            with open(p, "rb") as f:
                keys[p] = cache.key(LLVM_OBJDUMP, ["-d"], f.read())
            data = cache.get(keys[p])
            if data is not None:
                res[p] = (f"\n{p}:" + data.decode(), None)
                continue
        groups.setdefault(e_flags(p), []).append(p)
    for _, group in sorted(groups.items(), key=lambda g: str(g[0])):
        for part in chunks(group, 64):
            got = _objdump_chunk(part, timeout)
            for p, (text, err) in got.items():
                if err is None and p in keys:
                    cache.put(keys[p], text[len(f"\n{p}:"):].encode())
            res.update(got)
    return res


def _objdump_chunk(paths, timeout):
    rc, out, err = run_tool([LLVM_OBJDUMP, "-d"] + list(paths), timeout=timeout)
    if rc != 0:
        why = err.decode()[-300:]
        return {path: (None, why) for path in paths}
    text = out.decode()
    heads = []
    at = 0
    for path in paths:
        h = text.find(f"\n{path}:\tfile format ", at)
        if h < 0:
            return {q: (None, f"no `{q}:\tfile format` header in llvm-objdump's output") for q in paths}
        heads.append(h)
        at = h + 1
    heads.append(len(text))
    if heads[0] != 0:
        return {q: (None, "llvm-objdump's output does not start with the first file's header") for q in paths}
    return {path: (text[heads[i]:heads[i + 1]], None) for i, path in enumerate(paths)}


def objdump_one(path, timeout=120):
    """llvm-objdump -d PATH alone: (text, error)."""
    rc, out, err = run_tool([LLVM_OBJDUMP, "-d", path], timeout=timeout)
    return (out.decode(), None) if rc == 0 else (None, err.decode()[-300:])
