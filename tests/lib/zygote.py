"""Run one program many times from one loaded process (the tests' side of
tests/verify/tools/zygote.c, an LD_PRELOAD library).

With KWGEN_TOOL_ZYGOTE set to the path of build/tests/zygote.so (make sets
it for the suites that use it), run(argv, ...) starts argv[0] once per
thread with the library preloaded; the program is loaded, relocated and its
constructors run, and then, instead of main, it forks one child per run:
the child is the process a fresh exec of argv would be at main (its own
stdin, stdout, stderr, exit status; LeakSanitizer's check at exit in an
ASan build), without loading the program and its libraries again.  For
LLVM's tools that is about a third of their CPU per run (libLLVM's
relocation), for kwgen under ASan the sanitizer's start.  Unset, or the
library missing: one subprocess per run, as before.

  run(argv, timeout=300, cwd=None, input=None) -> (returncode, stdout
      bytes, stderr bytes), as subprocess.run(argv, input=input,
      capture_output=True, cwd=cwd) gives them (a run past the timeout is
      killed by SIGALRM: returncode -14).
"""
import atexit, os, select, shutil, subprocess, tempfile, threading

SO = os.environ.get("KWGEN_TOOL_ZYGOTE", "")
_local = threading.local()
_all, _lock = [], threading.Lock()


def drop_hugepage_malloc():
    """Take glibc.malloc.hugetlb out of this process's GLIBC_TUNABLES (make's
    HUGEPAGE_MALLOC_ENV, for runs with big heaps), for the many small runs
    that follow: each would touch a 2 MB heap page of its own (copied from
    the zygote's heap when it is a zygote child)."""
    os.environ["GLIBC_TUNABLES"] = ":".join(
        t for t in os.environ.get("GLIBC_TUNABLES", "").split(":") if t and not t.startswith("glibc.malloc.hugetlb="))


def enabled():
    return bool(SO) and os.path.exists(SO)


def _start(prog):
    """The thread's zygote of prog, or None when prog does not run as one
    (it did not say "zygote ready" within 30 s: a static binary, another
    libc): then every run is a subprocess."""
    d = _local.__dict__
    z = d.get(prog, False)
    if z is False or (z is not None and z.poll() is not None):
        path = os.path.abspath(prog) if os.sep in prog else (shutil.which(prog) or prog)
        z = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, LD_PRELOAD=os.path.abspath(SO), KWGEN_TOOL_ZYGOTE="1"))
        z.dir = tempfile.mkdtemp(prefix="kwgen-zygote-")
        with _lock:
            _all.append(z)
        ready = select.select([z.stdout], [], [], 30)[0] and z.stdout.readline() == b"zygote ready\n"
        if not ready:
            z.kill()
            z.wait()
            z = None
        d[prog] = z
    return z


def close():
    """Stop every zygote (end of their request stream); run at exit."""
    with _lock:
        zs = list(_all)
        del _all[:]
    for z in zs:
        if z.returncode is not None:
            shutil.rmtree(z.dir, ignore_errors=True)
            continue
        try:
            z.stdin.close()
            z.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            z.kill()
            z.wait()
        shutil.rmtree(z.dir, ignore_errors=True)
    _local.__dict__.clear()


atexit.register(close)


def run(argv, timeout=300, cwd=None, input=None):
    z = _start(argv[0]) if enabled() else None
    if z is None:
        p = subprocess.run(argv, input=input, capture_output=True, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    inp, out, err = (os.path.join(z.dir, n) for n in ("in", "out", "err"))
    with open(inp, "wb") as f:
        f.write(input or b"")
    req = [str(max(1, int(timeout))), os.path.abspath(cwd or os.getcwd()), inp, out, err] + [str(x) for x in argv]
    z.stdin.write(b"".join(x.encode() + b"\0" for x in req) + b"\0")
    z.stdin.flush()
    reply = z.stdout.readline().decode().split()
    if len(reply) != 2 or reply[0] not in ("exit", "signal"):
        raise RuntimeError(f"zygote of {argv[0]}: bad reply {reply!r}")
    with open(out, "rb") as f:
        o = f.read()
    with open(err, "rb") as f:
        e = f.read()
    return (int(reply[1]) if reply[0] == "exit" else -int(reply[1])), o, e
