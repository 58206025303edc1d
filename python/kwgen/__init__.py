"""kwgen: Tensile's KernelWriterModules helpers, from libkwgen, in-process.

Standard library only: ctypes over libkwgen.so (its text-in, text-out calls,
kwgen/ffi.h).  Two ways in:

    import kwgen
    ans = kwgen.generate({"isa": "gfx942", "kernel": {...}})   # the JSON answer, as a dict
    print(kwgen.asm({"isa": "gfx942", "kernel": {...}}))       # what `kwgen --asm` prints

and one function per seed helper, named and shaped like the seed's
(seed_KernelWriterModules.py), returning what the seed returns, so a Tensile
test can diff kwgen against its own output:

    kwgen.set_isa("gfx942")                       # or isa="gfx942" on each call
    text = kwgen.wait(states, kernel, tPA, tPB, 0, -1, -1, 0, "wait")
    acc2arch, arch2acc = kwgen.accToArchMapper(kernel)

Module helpers return an `Asm` (a str: str(Module) as Tensile prints it, with
`.type` and `.diagnostics`); accToArchMapper returns two dicts; the scalar
helpers return an int or a bool.  Tensile objects are accepted where the seed
reads them: a Solution (anything with __getitem__ and keys()), DataType
objects (their .value), `states` with attributes, localReadInstruction with
.blockWidth.  Keyword options on every helper: isa, wavefront, archCaps,
asmCaps, vgprIdx, vgprMsb, outputNoComment, fillDefaults, replaceHolder,
strict, source (the request keys of `kwgen --help`).

Errors raise kwgen.Error with .message, .field (the request key, or None)
and .code ("invalid", "unsupported", "strict", "limit", "syntax", ...).

The library is found at $KWGEN_LIB if set, else in the build tree of the
repository this module sits in (build/libkwgen.so), else where
`make install` put it, else through the dynamic loader (libkwgen.so.0).
"""
import ctypes
import json
import os
import threading

__all__ = [
    "Error", "Asm", "generate", "asm", "version", "library_path", "set_isa",
    "tdmWait", "wait", "syncThreads", "accToArchMapper", "getAccToArchLen",
    "hasSequentialValuC", "accVgprImagNumOffset", "mapAcctoArchRegs",
    "mulMIoutAlphaToArch", "moveMIoutToArch",
]

SONAME = "libkwgen.so.0"

_OPTIONS = ("isa", "wavefront", "archCaps", "asmCaps", "vgprIdx", "vgprMsb", "outputNoComment",
            "fillDefaults", "replaceHolder", "strict", "source")


class Error(Exception):
    """A request kwgen refuses: .message (what was wrong and what is
    allowed), .field (the request key, e.g. "kernel.MIWaveTile", or None),
    .code (the error code: "invalid", "unsupported", "strict", "limit",
    "syntax", "no_memory", ...)."""

    def __init__(self, message, field=None, code="invalid"):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code

    def __str__(self):
        return "%s: %s%s" % (self.code, self.message, " (field %s)" % self.field if self.field else "")


class Asm(str):
    """The assembly text of a Module helper (str(Module) as Tensile prints
    it), with .type ("Module" or "SWaitCnt") and .diagnostics (a list of
    {"code", "message"}: what the assembler or hardware would object to)."""

    type = None
    diagnostics = ()


# ---------------------------------------------------------------- the library

def _candidates():
    env = os.environ.get("KWGEN_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    if os.path.isfile(os.path.join(repo, "lib", "include", "kwgen", "ffi.h")):
        yield os.path.join(repo, os.environ.get("KWGEN_BUILD", "build"), "libkwgen.so")
    try:
        from . import _install  # written by `make install`
        yield os.path.join(_install.LIBDIR, SONAME)
    except ImportError:
        pass
    yield SONAME


_lib = None
_lib_path = None
_lock = threading.Lock()


def _load():
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append("%s (missing)" % path)
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            for name in ("kw_ffi_generate", "kw_ffi_run", "kw_ffi_asm"):
                fn = getattr(lib, name)
                fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]
                fn.restype = ctypes.c_void_p  # freed with kw_ffi_free, so not c_char_p
            lib.kw_ffi_free.argtypes = [ctypes.c_void_p]
            lib.kw_ffi_free.restype = None
            lib.kw_ffi_version.argtypes = []
            lib.kw_ffi_version.restype = ctypes.c_char_p
            _lib, _lib_path = lib, path
            return lib
        raise ImportError("kwgen: cannot load libkwgen: tried " + "; ".join(tried) +
                          " (build it with `make`, install it with `make install`, or set KWGEN_LIB)")


def library_path():
    """The path (or soname) libkwgen was loaded from."""
    _load()
    return _lib_path


def version():
    """The generator-version salt of the loaded library."""
    return _load().kw_ffi_version().decode()


def _call(fn_name, request):
    lib = _load()
    data = _dumps(request)
    code = ctypes.c_int(0)
    p = getattr(lib, fn_name)(data, len(data), ctypes.byref(code))
    if not p:
        raise MemoryError("kwgen: out of memory")
    try:
        text = ctypes.string_at(p).decode("utf-8")
    finally:
        lib.kw_ffi_free(p)
    if code.value != 0:
        err = json.loads(text)["error"]
        raise Error(err.get("message", ""), err.get("field"), err.get("code", "invalid"))
    return text


# ------------------------------------------------------- Tensile objects -> JSON

_STATE_KEYS = ("numReadsPerIterA", "numReadsPerIterB", "numReadsPerIterMetadata",
               "numReadsPerIterMXSA", "numReadsPerIterMXSB")


_MAX_DEPTH = 12  # deeper than any request key; object graphs with cycles stop here


def _plain(v, depth=0):
    """A Tensile value as JSON data: mappings and Solution-like objects
    (keys() + __getitem__) become dicts, DataType objects their .value,
    other objects the dict of their public attributes.  Past _MAX_DEPTH
    levels (a cycle) a value becomes its str()."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if depth > _MAX_DEPTH:
        return str(v)
    if isinstance(v, dict):
        return {str(k): _plain(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x, depth + 1) for x in v]
    if hasattr(v, "keys") and hasattr(v, "__getitem__"):
        return {str(k): _plain(v[k], depth + 1) for k in v.keys()}
    val = getattr(v, "value", None)
    if isinstance(val, int) and not isinstance(val, bool):
        return val
    try:
        return int(v)
    except (TypeError, ValueError):
        pass
    if hasattr(v, "__dict__"):
        return {k: _plain(x, depth + 1) for k, x in vars(v).items() if not k.startswith("_") and not callable(x)}
    return str(v)


def _dumps(obj):
    if isinstance(obj, bytes):
        return obj
    if isinstance(obj, str):
        return obj.encode("utf-8")
    return json.dumps(obj, default=_plain, separators=(",", ":")).encode("utf-8")


def _states(states):
    if states is None or isinstance(states, dict):
        return states
    return {k: getattr(states, k) for k in _STATE_KEYS if hasattr(states, k)}


_default_isa = None


def set_isa(isa):
    """The ISA the seed-shaped helpers use when no isa= is given ("gfx942"
    or (9, 4, 2)); Tensile's rocIsa.getInstance().init(isa, ...)."""
    global _default_isa
    _default_isa = list(isa) if isinstance(isa, (tuple, list)) else isa


def _request(generator, args, kernel, opts, **parts):
    unknown = set(opts) - set(_OPTIONS)
    if unknown:
        raise TypeError("kwgen.%s: unknown option(s) %s; allowed: %s"
                        % (generator, ", ".join(sorted(unknown)), ", ".join(_OPTIONS)))
    req = {"generator": generator, "args": args, "kernel": _plain(kernel)}
    for k, v in parts.items():
        if v is not None:
            req[k] = _plain(v)
    for k, v in opts.items():
        if v is not None:
            req[k] = _plain(v)
    if "isa" not in req:
        if _default_isa is None:
            raise Error("no ISA: pass isa=\"gfx942\" or call kwgen.set_isa() first", "isa")
        req["isa"] = _default_isa
    return req


def _one(generator, args, kernel, opts, **parts):
    """Run one generator; its result dict (no cache key is computed)."""
    return json.loads(_call("kw_ffi_run", _request(generator, args, kernel, opts, **parts)))["results"][0]


def _asm_of(res):
    a = Asm(res["asm"])
    a.type = res.get("type")
    a.diagnostics = res.get("diagnostics", [])
    return a


# ------------------------------------------------------------------ the API

def generate(request):
    """Answer one request (a dict in either form of `kwgen --help`, or its
    JSON text) as
    kwgend and `kwgen` do for the farm form:
    {"isa", "config_id", "key", "generator_version", "results": [{"name",
    "args", "asm", "type", "acc2arch", "arch2acc", "value", "diagnostics"}],
    "source"?}.  Raises Error."""
    return json.loads(_call("kw_ffi_generate", request))


def asm(request):
    """The answer as plain text, exactly what `kwgen --asm` prints (request:
    a dict or its JSON text).  Raises Error."""
    return _call("kw_ffi_asm", request)


def tdmWait(states, kernel, tPA, tPB, tensorcnt, comment, **opts):
    """seed: tdmWait(states, kernel, tPA, tPB, tensorcnt: int, comment: str) -> Module"""
    return _asm_of(_one("tdmWait", {"tensorcnt": tensorcnt, "comment": comment}, kernel, opts,
                        tPA=tPA, tPB=tPB, states=_states(states)))


def wait(states, kernel, tPA, tPB, skipGlobalRead, skipLocalWrite, skipLocalRead, conservativeWaitCnt,
         comment, skipGlobalReadInst=-1, **opts):
    """seed: wait(states, kernel, tPA, tPB, skipGlobalRead, skipLocalWrite,
    skipLocalRead, conservativeWaitCnt: int, comment, skipGlobalReadInst=-1)"""
    args = {"skipGlobalRead": skipGlobalRead, "skipLocalWrite": skipLocalWrite, "skipLocalRead": skipLocalRead,
            "conservativeWaitCnt": conservativeWaitCnt, "comment": comment,
            "skipGlobalReadInst": skipGlobalReadInst}
    return _asm_of(_one("wait", args, kernel, opts, tPA=tPA, tPB=tPB, states=_states(states)))


def syncThreads(kernel, archCaps=None, asmCaps=None, comment="", skipForceWaitcnt0=False, memoryToken=None, **opts):
    """seed: syncThreads(kernel, archCaps, asmCaps, comment="",
    skipForceWaitcnt0=False, memoryToken=None).  archCaps / asmCaps are
    merged onto the ISA's tables (None: the ISA's own)."""
    args = {"comment": comment, "skipForceWaitcnt0": skipForceWaitcnt0, "memoryToken": memoryToken}
    return _asm_of(_one("syncThreads", args, kernel, opts, archCaps=archCaps, asmCaps=asmCaps))


def getAccToArchLen(kernel, **opts):
    """seed: getAccToArchLen(kernel) -> int"""
    return _one("getAccToArchLen", {}, kernel, opts)["value"]


def accToArchMapper(kernel, **opts):
    """seed: accToArchMapper(kernel) -> (acc2arch: dict, arch2acc: dict)"""
    res = _one("accToArchMapper", {}, kernel, opts)
    return dict(enumerate(res["acc2arch"])), dict(enumerate(res["arch2acc"]))


def hasSequentialValuC(kernel, **opts):
    """seed: hasSequentialValuC(kernel) -> bool"""
    return _one("hasSequentialValuC", {}, kernel, opts)["value"]


def accVgprImagNumOffset(kernel, **opts):
    """seed: accVgprImagNumOffset(kernel) -> int"""
    return _one("accVgprImagNumOffset", {}, kernel, opts)["value"]


def mapAcctoArchRegs(kernel, maxAgpr=256, write=False, spilledVgprBase=None, **opts):
    """seed: mapAcctoArchRegs(kernel, maxAgpr=256, write=False, spilledVgprBase=None) -> Module"""
    args = {"maxAgpr": maxAgpr, "write": write, "spilledVgprBase": spilledVgprBase}
    return _asm_of(_one("mapAcctoArchRegs", args, kernel, opts))


def mulMIoutAlphaToArch(kernel, startVgprAlphaTmp, **opts):
    """seed: mulMIoutAlphaToArch(kernel, startVgprAlphaTmp) -> Module"""
    return _asm_of(_one("mulMIoutAlphaToArch", {"startVgprAlphaTmp": startVgprAlphaTmp}, kernel, opts))


def moveMIoutToArch(kernel, startVgprAlphaTmp, **opts):
    """seed: moveMIoutToArch(kernel, startVgprAlphaTmp) -> Module"""
    return _asm_of(_one("moveMIoutToArch", {"startVgprAlphaTmp": startVgprAlphaTmp}, kernel, opts))
