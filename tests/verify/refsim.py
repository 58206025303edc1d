#!/usr/bin/env python3
"""Straight-line reference simulator for wait-count mutants.

An independent, deliberately simple model used only to *label* mutants of
clang-produced AMDGPU assembly (tests/verify/mutants.py).  It looks at one
basic block at a time and never follows edges.  Rules (each from LLVM's
llvm/lib/Target/AMDGPU/SIInsertWaitcnts.cpp and llvm/docs/AMDGPUUsage.rst,
"Memory Model" and the s_waitcnt / s_wait_* operand pages):

 1. Counter class by mnemonic prefix (WaitEventMaskForInst,
    counterOutOfOrder): VMEM loads and returning atomics count on
    vmcnt (gfx9-11) / loadcnt (gfx12); VMEM stores and non-returning atomics
    on vmcnt (gfx9, same class as loads) / vscnt (gfx10-11) / storecnt
    (gfx12); LDS-DMA loads on vmcnt/loadcnt with no VGPR result; ds_* on
    lgkmcnt / dscnt (in order); SMEM and messages on lgkmcnt / kmcnt (out of
    order); generic flat_* on both the VMEM and the LDS counter (complete only
    after a zero wait on each: hasPendingFlat).
 2. The destination is the first operand of loads, returning atomics, ds
    reads and *_rtn, s_load*; stores define nothing; for ALU instructions the
    first operand is the definition (both halves of a VOPD pair);
    fmac/mac/fmamk/fmaak/writelane/mfma/dot also read it.  vcc, exec, m0 and
    other named registers are ignored.
 3. cnt(0) completes every op on cnt; cnt(N>0) completes an op of an in-order
    class once at least N younger ops of the same class have issued (other
    classes on the counter prove nothing); out-of-order classes only complete
    on cnt(0).
 4. Back-pressure: a counter holds at most its maximum (gfx9 lgkmcnt 15,
    vmcnt 63; gfx10/11 63; gfx12 kmcnt 31, others 63): after that many
    younger same-class ops an op is complete.
 5. A load overwriting the destination of an older in-flight load of the same
    in-order class is not a hazard (the VmemType rule in
    generateWaitcntInstBefore), except VMEM loads from gfx12, which may write
    their VGPRs out of order (llvm/llvm-project#105549).
 6. Race: a read or a write of a register whose latest in-block producer is a
    load not yet complete by rules 3-5.

It shares no code with lib/verify (the verifier under test).
"""
import re

GEN = {"gfx908": 9, "gfx90a": 9, "gfx940": 9, "gfx941": 9, "gfx942": 9, "gfx950": 9,
       "gfx1100": 11, "gfx1101": 11, "gfx1102": 11, "gfx1200": 12, "gfx1201": 12, "gfx1250": 12}

# counter maxima (rule 4) and the all-ones "no wait" value
def cnt_max(gen, cnt):
    if gen == 9:
        return {"lgkmcnt": 15, "vmcnt": 63, "expcnt": 7}.get(cnt, 63)
    if gen in (10, 11):
        return {"expcnt": 7}.get(cnt, 63)
    return {"kmcnt": 31, "expcnt": 7}.get(cnt, 63)


def counters(gen):
    if gen == 9:
        return ("vmcnt", "lgkmcnt")
    if gen in (10, 11):
        return ("vmcnt", "vscnt", "lgkmcnt")
    return ("loadcnt", "storecnt", "dscnt", "kmcnt")


MEM_COUNTERS = {9: ("vmcnt", "lgkmcnt"), 11: ("vmcnt", "vscnt", "lgkmcnt"),
                12: ("loadcnt", "storecnt", "dscnt", "kmcnt")}

REG_RANGE = re.compile(r"(?<![\w.])([vsa])\[(\d+):(\d+)\]")
REG_ONE = re.compile(r"(?<![\w.\[])([vsa])(\d+)(?![\w\]])")

CACHE_PREFIX = ("buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv", "buffer_inv", "buffer_wbl2",
                "global_inv", "global_wb", "global_wbinv", "s_dcache_", "s_icache_")
BRANCH = re.compile(r"^(s_branch|s_cbranch_\w+|s_setpc_b64|s_swappc_b64|s_call_b64|s_endpgm\w*|s_trap|s_rfe_b64)$")


_REGS = {}


def regs_of(text):
    """32-bit register units named in an operand string: set of (file, index)
    (a new set: callers may change it)."""
    regs = _REGS.get(text)
    if regs is None:
        regs = _REGS[text] = frozenset(_regs_of(text))
    return set(regs)


def _regs_of(text):
    out = set()
    for m in REG_RANGE.finditer(text):
        f, a, b = m.group(1), int(m.group(2)), int(m.group(3))
        for i in range(a, b + 1):
            out.add((f, i))
    for m in REG_ONE.finditer(REG_RANGE.sub(" ", text)):
        out.add((m.group(1), int(m.group(2))))
    return out


_SPLIT = {}


def split_operands(ops):
    """Top-level comma split (brackets kept together); a new list."""
    parts = _SPLIT.get(ops)
    if parts is None:
        parts = _SPLIT[ops] = tuple(_split_operands(ops))
    return list(parts)


def _split_operands(ops):
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Inst:
    __slots__ = ("line", "mn", "ops", "text", "kind", "cls", "cnts", "ooo", "defs", "uses",
                 "is_store", "wait", "unmodelled", "lds")

    def __repr__(self):
        return f"<{self.line}: {self.text}>"


def parse_wait(gen, mn, ops):
    """Wait instruction -> {counter: value} for the counters it names (None if not a wait)."""
    if mn == "s_waitcnt":
        ops = ops.strip()
        d = {}
        if re.fullmatch(r"(0x[0-9a-fA-F]+|\d+)", ops):
            v = int(ops, 0)
            if gen == 9:
                d = {"vmcnt": (v & 0xF) | ((v >> 14) & 3) << 4, "lgkmcnt": (v >> 8) & 0xF, "expcnt": (v >> 4) & 7}
            else:
                d = {"vmcnt": (v >> 10) & 0x3F, "lgkmcnt": (v >> 4) & 0x3F, "expcnt": v & 7}
            return {k: x for k, x in d.items() if x < cnt_max(gen, k)}
        for m in re.finditer(r"(vmcnt|lgkmcnt|expcnt|vscnt)(?:_sat)?\((\d+)\)", ops):
            d[m.group(1)] = int(m.group(2))
        return d
    if mn in ("s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt"):
        parts = split_operands(ops)
        return {mn[len("s_waitcnt_"):]: int(parts[-1], 0)}
    if mn == "s_wait_loadcnt_dscnt":
        v = int(ops.strip(), 0)
        return {"loadcnt": (v >> 8) & 0x3F, "dscnt": v & 0x3F}
    if mn == "s_wait_storecnt_dscnt":
        v = int(ops.strip(), 0)
        return {"storecnt": (v >> 8) & 0x3F, "dscnt": v & 0x3F}
    m = re.fullmatch(r"s_wait_(loadcnt|storecnt|dscnt|kmcnt|samplecnt|bvhcnt|expcnt|xcnt|tensorcnt|asynccnt)", mn)
    if m:
        return {m.group(1): int(ops.strip(), 0)}
    if mn == "s_wait_idle":
        return {c: 0 for c in MEM_COUNTERS[12]}
    return None


def classify(gen, line, mn, ops):
    """One instruction -> Inst with its counter class, definitions and uses."""
    I = Inst()
    I.line, I.mn, I.ops, I.text = line, mn, ops, (mn + " " + ops).strip()
    I.kind, I.cls, I.cnts, I.ooo, I.is_store, I.wait, I.unmodelled, I.lds = "alu", None, (), False, False, None, False, False
    g = 9 if gen == 9 else (11 if gen in (10, 11) else 12)
    VM_LOAD = {9: "vmcnt", 11: "vmcnt", 12: "loadcnt"}[g]
    VM_STORE = {9: "vmcnt", 11: "vscnt", 12: "storecnt"}[g]
    LDSC = {9: "lgkmcnt", 11: "lgkmcnt", 12: "dscnt"}[g]
    SMEMC = {9: "lgkmcnt", 11: "lgkmcnt", 12: "kmcnt"}[g]
    parts = split_operands(ops)
    allregs = regs_of(ops)
    first = regs_of(parts[0]) if parts else set()
    rest = set()
    for p in parts[1:]:
        rest |= regs_of(p)

    w = parse_wait(g, mn, ops)
    if w is not None:
        I.kind, I.wait, I.defs, I.uses = "wait", w, set(), set()
        return I
    I.defs, I.uses = set(), set(allregs)
    if mn in ("s_barrier", "s_barrier_signal", "s_barrier_signal_isfirst"):
        I.kind, I.uses = "barrier", set()
        return I
    if mn.startswith(CACHE_PREFIX):
        I.kind, I.uses = "cache", set()
        return I
    if BRANCH.match(mn):
        I.kind = "branch"
        if mn in ("s_swappc_b64", "s_call_b64"):
            I.defs, I.uses = first, rest
        return I
    if mn.startswith(("s_nop", "s_barrier_wait", "s_wait_alu", "s_waitcnt_depctr", "s_delay_alu", "s_setprio",
                      "s_sleep", "s_code_end", "s_wait_event", "s_clause", "s_set_inst_prefetch",
                      "s_singleuse", "s_ttracedata", "s_version")):
        I.kind, I.uses = "nop", set()
        return I
    is_vmem = mn.startswith(("global_", "buffer_", "scratch_", "tbuffer_"))
    is_flat = mn.startswith("flat_")
    if is_vmem or is_flat:
        I.kind = "mem"
        atomic = "_atomic" in mn
        lds_dma = (mn.startswith("global_load_lds") or re.search(r"(^|\s)lds(\s|$)", ops) is not None)
        if mn.startswith(("global_load_async", "global_store_async", "global_load_tr", "buffer_load_lds",
                          "global_load_monitor", "flat_load_monitor")) or "_async" in mn:
            I.unmodelled = True
            return I
        if atomic:
            ret = bool(re.search(r"(^|\s)(glc|sc0)(\s|$)", ops)) or "TH_ATOMIC_RETURN" in ops
        else:
            ret = "_load" in mn
            if "_store" not in mn and "_load" not in mn:
                I.unmodelled = True
                return I
        if lds_dma:
            I.cls, I.cnts, I.defs, I.lds = ("vmem" if g == 9 else "vmem_load", (VM_LOAD,), set(), True)
            I.uses = rest if mn.startswith("buffer") else allregs
            return I
        if ret:
            I.defs, I.uses = first, rest
            if "_d16" in mn:
                I.uses = rest  # a d16 merge into a same-class load's register is not a read (rule 5)
        else:
            I.is_store = True
        if is_flat:
            I.cls = "flat_load" if ret else "flat_store"
            I.cnts = ((VM_LOAD if ret else VM_STORE), LDSC)
        else:
            I.cls = "vmem_load" if (ret or g == 9) else "vmem_store"
            if g == 9:
                I.cls = "vmem"
            I.cnts = ((VM_LOAD if ret else VM_STORE),)
        return I
    if mn.startswith("ds_"):
        if mn.startswith(("ds_gws", "ds_nop", "ds_bvh", "ds_atomic_async", "ds_load_tr", "ds_read_tr")):
            I.kind, I.unmodelled = "mem", True
            return I
        I.kind, I.cls, I.cnts = "mem", "lds", (LDSC,)
        ret = (mn.startswith(("ds_read", "ds_load", "ds_swizzle", "ds_permute", "ds_bpermute", "ds_append",
                              "ds_consume", "ds_ordered_count")) or "_rtn" in mn)
        if ret:
            I.defs, I.uses = first, rest
            if "_d16" in mn:
                I.uses = rest
        else:
            I.is_store = True
            I.lds = True
        I.lds = True
        return I
    if mn.startswith(("s_load", "s_buffer_load", "s_memtime", "s_memrealtime", "s_store", "s_buffer_store",
                      "s_scratch_", "s_atomic", "s_buffer_atomic", "s_sendmsg_rtn", "s_get_barrier_state")):
        I.kind, I.cls, I.cnts, I.ooo = "mem", "smem", (SMEMC,), True
        if mn.startswith(("s_store", "s_buffer_store", "s_scratch_store")):
            I.is_store = True
        else:
            I.defs, I.uses = first, rest
        return I
    if mn.startswith(("s_sendmsg", "s_sendmsghalt")):
        I.kind = "sendmsg"
        if g != 12:
            I.cls, I.cnts, I.ooo = "smem", (SMEMC,), True
        I.uses = set()
        return I
    if mn.startswith(("image_", "tensor_", "s_prefetch", "global_prefetch", "flat_prefetch", "exp ", "export")) \
            or mn in ("exp",):
        I.kind, I.unmodelled = "mem", True
        return I
    # ALU
    if "::" in ops:  # VOPD: "v_dual_x d0, a, b :: v_dual_y d1, c, d"
        a, b = ops.split("::", 1)
        pa = split_operands(a)
        bb = b.strip().split(None, 1)
        pb = split_operands(bb[1] if len(bb) > 1 else "")
        I.defs = (regs_of(pa[0]) if pa else set()) | (regs_of(pb[0]) if pb else set())
        I.uses = set()
        for p in pa[1:] + pb[1:]:
            I.uses |= regs_of(p)
        if re.search(r"fmac|fmamk|fmaak|dot2acc", mn + " " + b):
            I.uses |= I.defs
        return I
    if mn.startswith(("s_cmp", "s_bitcmp", "s_cmpk")) or (mn.startswith("v_cmpx_") and (mn.endswith("_e32") or g != 9)):
        I.defs, I.uses = set(), allregs
        return I
    if mn.startswith("s_setreg") or mn.startswith("s_set_gpr_idx") or mn.startswith("s_setvskip"):
        return I
    I.defs, I.uses = first, rest
    if re.search(r"fmac|_mac_|fmamk|fmaak|writelane|mfma|smfmac|_dot\d|dot2c|dot4c|dot8c", mn):
        I.uses = rest | first
    return I


LABEL = re.compile(r"^([.\w$]+):")
INST = re.compile(r"^\s+([a-z][a-z0-9_]*)(?:\s+(.*?))?\s*$")


def strip_comment(s):
    for c in (";", "//"):
        i = s.find(c)
        if i >= 0:
            s = s[:i]
    return s


def parse_file(text, isa):
    """clang -S text -> list of functions: {name, kernel, blocks: [[Inst]]}."""
    gen = GEN[isa]
    kernels = set(re.findall(r"^\s*\.amdhsa_kernel\s+(\S+)", text, re.M))
    funcs, cur, block = [], None, None
    lines = text.split("\n")
    for n, raw in enumerate(lines, 1):
        s = strip_comment(raw)
        if not s.strip():
            continue
        m = LABEL.match(s)
        if m and not s.startswith((" ", "\t")):
            name = m.group(1)
            if name.startswith(".Lfunc_end"):
                cur = None
                continue
            if not name.startswith("."):
                if name.startswith(("amdhsa", "amdgpu")):
                    cur = None
                    continue
                cur = dict(name=name, kernel=name in kernels, blocks=[], entry_label=True)
                funcs.append(cur)
                block = []
                cur["blocks"].append(dict(insts=block, entry=True, label=name))
            elif cur is not None:
                block = []
                cur["blocks"].append(dict(insts=block, entry=False, label=name))
            continue
        if cur is None:
            continue
        m = INST.match(s)
        if not m or s.lstrip().startswith("."):
            continue
        I = classify(gen, n, m.group(1), m.group(2) or "")
        if block is None:
            block = []
            cur["blocks"].append(dict(insts=block, entry=False, label=None))
        block.append(I)
        if I.kind == "branch":
            block = []
            cur["blocks"].append(dict(insts=block, entry=False, label=None))
    for f in funcs:
        f["blocks"] = [b for b in f["blocks"] if b["insts"]]
    return funcs


class Op:
    __slots__ = ("id", "inst", "cls", "cnts", "ooo", "zero", "done", "younger")

    def __init__(self, i, inst):
        self.id, self.inst, self.cls, self.cnts, self.ooo = i, inst, inst.cls, inst.cnts, inst.ooo
        self.zero, self.done, self.younger = set(), False, 0


def simulate(gen, insts, override=None, prods=True, states=None, base=None):
    """Run one block.  override = (index, wait dict or None for deleted).

    Returns per instruction index the snapshot taken *before* it executes:
    (pending op ids, producer map register -> op id or None), plus the op list.
    prods=False: the producer maps are not kept (None in each snapshot; the
    pending sets are the same), which spares a copy of the map per
    instruction when only the pending sets are read.

    states: a dict filled, in a run without override, with the pending
    ops' state before every wait.  base = (snaps, ops, states) of such a
    run: with override and prods=False the run starts at the overridden
    wait from the unmutated state there, and stops at the first later wait
    where its state equals the unmutated one (from there on every step is
    the same, so the unmutated snapshots are the mutant's).  The snapshots
    are the ones a run from the start gives.
    """
    g = 9 if gen == 9 else (11 if gen in (10, 11) else 12)
    ops, pending, prod, snaps = [], [], {}, []
    record = states if override is None else None
    states = base[2] if base is not None else None
    if override is not None and base is not None and not prods:
        k0 = override[0]
        snaps = [(s[0], None) for s in base[0][:k0]]
        n_ops, st = base[2][k0]
        ops = base[1][:n_ops]
        for i, zero, younger in st:
            o = Op(i, ops[i].inst)
            o.zero, o.younger = set(zero), younger
            pending.append(o)
        start = k0
    else:
        start, states = 0, None
    pend_ids = None
    for k in range(start, len(insts)):
        I = insts[k]
        if I.kind == "wait" and (record is not None or states is not None):
            st = tuple((o.id, frozenset(o.zero), o.younger) for o in pending)
            if record is not None:
                record[k] = (len(ops), st)
            elif states is not None and k > start and states[k][1] == st:
                # the unmutated run's state again: the rest is its snapshots
                snaps += [(s[0], None) for s in base[0][k:]]
                return snaps, base[1]
        if pend_ids is None:
            pend_ids = frozenset(o.id for o in pending)
        snaps.append((pend_ids, dict(prod) if prods else None))
        if I.kind == "wait":
            w = I.wait
            if override is not None and override[0] == k:
                w = override[1] or {}
            for o in pending:
                for c in o.cnts:
                    if c not in w:
                        continue
                    n = w[c]
                    if n == 0:
                        o.zero.add(c)
                    elif not o.ooo and len(o.cnts) == 1 and o.younger >= n:
                        o.zero.add(c)
                if set(o.cnts) <= o.zero:
                    o.done = True
            if any(o.done for o in pending):
                pending = [o for o in pending if not o.done]
                pend_ids = None
            continue
        for r in I.defs:
            prod[r] = None
        if I.cls is not None and not I.unmodelled:
            o = Op(len(ops), I)
            ops.append(o)
            for p in pending:
                if p.cls == o.cls and not p.ooo and len(p.cnts) == 1:
                    p.younger += 1
                    if p.younger >= cnt_max(g, p.cnts[0]):
                        p.done = True
            pending = [p for p in pending if not p.done]
            pending.append(o)
            pend_ids = None
            for r in I.defs:
                prod[r] = o.id
    if pend_ids is None:
        pend_ids = frozenset(o.id for o in pending)
    snaps.append((pend_ids, dict(prod) if prods else None))
    return snaps, ops


def in_block_races(gen, insts, snaps, ops, newly=None, start=0):
    """First race in the block: (index, code, register unit, producer op) or None.

    newly: set of op ids counted as hazards (None = every pending op)."""
    for k in range(start, len(insts)):
        I = insts[k]
        pend, prod = snaps[k]
        if I.kind == "wait":
            continue
        for r in sorted(I.uses):
            p = prod.get(r)
            if p is not None and p in pend and (newly is None or p in newly):
                return k, "race_raw", r, ops[p]
        for r in sorted(I.defs):
            p = prod.get(r)
            if p is not None and p in pend and (newly is None or p in newly):
                po = ops[p]
                # gfx12 VMEM loads may write VGPRs out of order (llvm-project #105549)
                if I.cls is not None and I.cls == po.cls and not po.ooo and len(po.cnts) == 1 \
                        and not (gen >= 12 and po.cls.startswith("vmem")):
                    continue
                return k, "race_waw", r, po
    return None


def reg_name(r):
    return f"{r[0]}{r[1]}"
