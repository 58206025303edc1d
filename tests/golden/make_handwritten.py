#!/usr/bin/env python3
"""Write tests/golden/handwritten.jsonl: oracle-format requests for the
branches of the generators that the hipBLASLt corpus never reaches
(DirectToLds/DirectToVgpr, flat loads, sparse, MX, ds_load_b192, conservative
waits, tdmWait, complex and half/int types, spills, holder resolution,
gfx1250 VGPR banks, input spellings, error requests).

Every request carries "source": "handwritten:<case name>" so a failing case is
easy to find.  The answers come from the oracle (make_golden.py).

Usage: python3 tests/golden/make_handwritten.py [--shared ../shared] [-o handwritten.jsonl]
"""
import argparse
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ISA name -> (triple, table ISA used for the caps when the oracle has none)
ISAS = {
    "gfx908": ((9, 0, 8), None), "gfx90a": ((9, 0, 10), None),
    "gfx940": ((9, 4, 0), (9, 4, 2)), "gfx941": ((9, 4, 1), (9, 4, 2)),
    "gfx942": ((9, 4, 2), None), "gfx950": ((9, 5, 0), None),
    "gfx1100": ((11, 0, 0), None), "gfx1101": ((11, 0, 1), (11, 0, 0)),
    "gfx1102": ((11, 0, 2), (11, 0, 0)),
    "gfx1200": ((12, 0, 0), None), "gfx1201": ((12, 0, 1), None),
    "gfx1250": ((12, 5, 0), None),
}
NATIVE = ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1200", "gfx1201", "gfx1250"]
ALL = list(ISAS)

CAPS = None  # rocisa_mini.caps, loaded in main()


def gfx9(g):
    return g.startswith("gfx9")


def full_caps(g):
    """asmCaps/archCaps to put in a request for ISAs the oracle has no table for."""
    _, table = ISAS[g]
    if table is None:
        return {}
    return {"asmCaps": dict(CAPS.ASM_CAPS[table]), "archCaps": CAPS.arch_caps(table)}


def kernel(g, **kw):
    wave = kw.pop("WavefrontSize", 64 if gfx9(g) else 32)
    k = {
        "WavefrontSize": wave, "NumThreads": 256, "MatrixInstM": 16, "MatrixInstN": 16,
        "MatrixInstBM": 1, "MatrixInstBN": 1, "VectorWidthA": 2, "VectorWidthB": 1,
        "MIWaveTile": [2, 2], "SourceSwap": False, "MIRegPerOut": 1,
        "MIArchVgpr": not gfx9(g), "EnableMatrixInstruction": True, "CompactLoopStore": False,
        "BufferLoad": True, "DirectToLdsA": False, "DirectToLdsB": False,
        "DirectToVgprA": False, "DirectToVgprB": False, "DirectToVgprMXSA": False,
        "DirectToVgprMXSB": False, "DirectToVgprSparseMetadata": False,
        "NumLoadsPerpendicularA": 2, "NumLoadsCoalescedA": 2,
        "NumLoadsPerpendicularB": 1, "NumLoadsCoalescedB": 2,
        "NumLoadsPerpendicularMXSA": 0, "NumLoadsCoalescedMXSA": 0,
        "NumLoadsPerpendicularMXSB": 0, "NumLoadsCoalescedMXSB": 0,
        "NumLoadsPerpendicularMetadata": 0, "NumLoadsCoalescedMetadata": 0,
        "_ScheduleIterAlg": 3, "PrefetchGlobalRead": 1,
        "ProblemType": {"DataType": "S", "ComputeDataType": "S", "HighPrecisionAccumulate": False,
                        "MXBlockA": False, "MXBlockB": False, "Sparse": 0},
    }
    pt = kw.pop("ProblemType", None)
    k.update(kw)
    if pt:
        k["ProblemType"].update(pt)
    return k


def tp(nrp=2, nrc=2, nwcv=4, nwpv=1, nwcvpi=4, bw=4, **kw):
    d = {"nrp": nrp, "nrc": nrc, "nwcv": nwcv, "nwpv": nwpv, "nwcvpi": nwcvpi,
         "localReadInstruction": {"blockWidth": bw}, "is_sparse": False,
         "tpsMetadata": None, "MX": None}
    d.update(kw)
    return d


def states(a=2, b=2, mxsa=0, mxsb=0, meta=0):
    return {"numReadsPerIterA": a, "numReadsPerIterB": b, "numReadsPerIterMXSA": mxsa,
            "numReadsPerIterMXSB": mxsb, "numReadsPerIterMetadata": meta}


def W(gr, lw, lr, cons=0, inst=-1, comment="wait"):
    return {"skipGlobalRead": gr, "skipLocalWrite": lw, "skipLocalRead": lr,
            "conservativeWaitCnt": cons, "comment": comment, "skipGlobalReadInst": inst}


OUT = []
_ROT = {}


def rot(pool, n=1):
    """n ISAs from pool, rotating so that consecutive cases land on different ISAs."""
    key = tuple(pool)
    i = _ROT.get(key, 0)
    _ROT[key] = i + n
    return [pool[(i + j) % len(pool)] for j in range(min(n, len(pool)))]


GFX9 = ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"]
NOT9 = ["gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201", "gfx1250"]
# one ISA of each rendering class (gfx9 / gfx11 / gfx12 / gfx1250), rotating inside the class
CLASSES = [GFX9, ["gfx1100", "gfx1101", "gfx1102"], ["gfx1200", "gfx1201"], ["gfx1250"]]


def per_class():
    return [rot(c)[0] for c in CLASSES]


def two():
    return rot(GFX9) + rot(NOT9)


def add(name, g, gen, k=None, args=None, isa_form="triple", tPA=None, tPB=None, st=None,
        caps=True, **extra):
    r = {"source": "handwritten:%s" % name}
    r["isa"] = g if isa_form == "string" else list(ISAS[g][0])
    r["generator"] = gen
    r["kernel"] = k if k is not None else kernel(g)
    if gen in ("wait", "tdmWait"):
        r["tPA"] = tPA if tPA is not None else tp()
        r["tPB"] = tPB if tPB is not None else tp(nrp=1)
        r["states"] = st if st is not None else states()
    r["args"] = args if args is not None else {}
    if caps:
        r.update(full_caps(g))
    r.update(extra)
    OUT.append(r)


def build():
    # ---------------------------------------------------------------- tdmWait
    for g in ALL:
        for n in (-1, 0, 5):
            add("tdmWait(%d)" % n, g, "tdmWait", args={"tensorcnt": n, "comment": "wait for TDM"})
    for g in per_class():
        add("tdmWait(2) no comment", g, "tdmWait", args={"tensorcnt": 2})
    # ------------------------------------------------------------------- wait
    for pat in ((1, -1, -1), (-1, 1, -1), (-1, -1, 2), (1, 1, 1), (0, 0, 0), (-1, -1, -1),
                (2, -1, 0), (-1, -1, -1, 0, 3), (1, -1, -1, 0, 2), (-1, 2, -1, 0, 4)):
        for g in per_class():
            add("wait %s" % (pat,), g, "wait", args=W(*pat[:3], *(pat[3:] or ())))
    # direct-to-LDS / direct-to-VGPR drop their tensor from the counts
    for key in ("DirectToLdsA", "DirectToLdsB", "DirectToVgprA", "DirectToVgprB"):
        for pat in ((-1, 1, -1), (-1, -1, 1), (1, 1, -1), (1, -1, 2)):
            for g in two():
                add("wait %s %s" % (key, pat), g, "wait", k=kernel(g, **{key: True}), args=W(*pat))
    for g in two():
        add("wait DTV A+B", g, "wait", k=kernel(g, DirectToVgprA=True, DirectToVgprB=True),
            args=W(-1, 1, 1), st=states(0, 0))
    # flat loads: global reads also count on dscnt when dscnt is waited on
    for pat in ((1, 0, -1), (1, -1, 0), (0, -1, -1), (2, 1, -1), (-1, 0, -1, 0, 3), (1, 1, 1)):
        for g in two():
            add("wait flat %s" % (pat,), g, "wait", k=kernel(g, BufferLoad=False),
                args=W(*pat[:3], *(pat[3:] or ())))
    # sparse metadata
    meta = tp(nrp=1, nrc=1, nwcv=2, nwpv=1, nwcvpi=2)
    for sparse in (1, 2):
        for dtv in (False, True):
            for pat in ((1, 1, -1), (-1, -1, 1), (2, -1, -1)):
                for g in two():
                    k = kernel(g, DirectToVgprSparseMetadata=dtv, NumLoadsPerpendicularMetadata=1,
                               NumLoadsCoalescedMetadata=2, ProblemType={"Sparse": sparse})
                    ta = tp(is_sparse=(sparse == 1), tpsMetadata=meta if sparse == 1 else None)
                    tb = tp(nrp=1, is_sparse=(sparse == 2), tpsMetadata=meta if sparse == 2 else None)
                    add("wait sparse%d dtvsm=%d %s" % (sparse, dtv, pat), g, "wait", k=k,
                        tPA=ta, tPB=tb, st=states(meta=1), args=W(*pat))
    # MX scale blocks
    mx = tp(nrp=1, nrc=1, nwcv=1, nwpv=1, nwcvpi=1)
    for a_on, b_on in ((True, False), (False, True), (True, True)):
        for dtv in (False, True):
            for pat in ((1, 1, -1), (-1, -1, 1), (1, -1, 1)):
                g = rot(ALL)[0]
                k = kernel(g, NumLoadsPerpendicularMXSA=1, NumLoadsCoalescedMXSA=2,
                           NumLoadsPerpendicularMXSB=2, NumLoadsCoalescedMXSB=1,
                           DirectToVgprMXSA=dtv, DirectToVgprMXSB=dtv,
                           ProblemType={"MXBlockA": a_on, "MXBlockB": b_on})
                ta = tp(MX=mx if a_on else None)
                tb = tp(nrp=1, MX=mx if b_on else None)
                add("wait MX A=%d B=%d dtv=%d %s" % (a_on, b_on, dtv, pat), g, "wait", k=k,
                    tPA=ta, tPB=tb, st=states(mxsa=3, mxsb=1), args=W(*pat))
    for g in two():
        # MX with direct-to-LDS: the local-write MX count drops
        k = kernel(g, DirectToLdsA=True, NumLoadsPerpendicularMXSA=1, NumLoadsCoalescedMXSA=1,
                   ProblemType={"MXBlockA": 1})
        add("wait MX DTL", g, "wait", k=k, tPA=tp(MX=mx), args=W(-1, 1, -1))
    # ds_load_b192 doubles the reads
    for bwa, bwb in ((6, 4), (4, 6), (6, 6)):
        for g in two():
            add("wait blockWidth %d/%d" % (bwa, bwb), g, "wait",
                tPA=tp(bw=bwa), tPB=tp(nrp=1, bw=bwb), args=W(-1, -1, 1))
    # conservative mode (module: all-zero wait + barrier) and when it does not apply
    for cons, pat in ((0x2, (0, -1, -1)), (0x2, (-1, -1, -1, 0, 1)), (0x4, (-1, 0, -1)),
                      (0x8, (-1, -1, 0)), (0xe, (1, 1, 1)), (0x2, (-1, 0, -1)),
                      (0x4, (0, -1, -1)), (0x8, (-1, 1, -1)), (0x1, (1, -1, -1))):
        inst = pat[3] if len(pat) > 3 else -1
        for g in per_class():
            add("wait conservative %#x %s" % (cons, pat), g, "wait",
                args=W(pat[0], pat[1], pat[2], cons, inst, comment="cons"))
    # large counts that clamp (per ISA maxima)
    for pat in ((20, -1, -1), (-1, 10, -1), (-1, -1, 40), (40, 40, -1), (-1, -1, -1, 0, 70),
                (-1, 16, -1), (-1, -1, 8)):
        for g in per_class():
            add("wait large %s" % (pat,), g, "wait", args=W(*pat[:3], *(pat[3:] or ())))
    for g in per_class():
        add("wait empty comment", g, "wait", args=W(1, -1, -1, comment=""))
        add("wait defaults", g, "wait", args={"skipGlobalRead": 1, "skipLocalWrite": -1,
                                              "skipLocalRead": -1})
    # ----------------------------------------------------------- syncThreads
    for g in ALL:
        wave = 64 if gfx9(g) else 32
        add("sync", g, "syncThreads", args={"comment": "sync"})
        add("sync skipForceWaitcnt0", g, "syncThreads", args={"skipForceWaitcnt0": True})
        add("sync memoryToken", g, "syncThreads", args={"comment": "tok", "memoryToken": [1, 2]})
        add("sync PGR2", g, "syncThreads", k=kernel(g, PrefetchGlobalRead=2))
        add("sync SIA2", g, "syncThreads", k=kernel(g, _ScheduleIterAlg=2), args={"comment": "sia"})
        add("sync one wave", g, "syncThreads", k=kernel(g, NumThreads=wave),
            args={"comment": " (single wave)"})
    for g in per_class():
        wave = 64 if gfx9(g) else 32
        add("sync no args", g, "syncThreads")
        add("sync skipForceWaitcnt0=1", g, "syncThreads",
            args={"skipForceWaitcnt0": 1, "comment": "x"})
        add("sync memoryToken empty", g, "syncThreads", args={"memoryToken": []})
        add("sync PGR0", g, "syncThreads", k=kernel(g, PrefetchGlobalRead=0), args={"comment": "pgr0"})
        add("sync SIA1", g, "syncThreads", k=kernel(g, _ScheduleIterAlg=1))
        add("sync fewer threads", g, "syncThreads", k=kernel(g, NumThreads=wave // 2))
    for g in rot([i for i in NOT9 if i != "gfx1250"], 3):  # gfx1250 runs wave32 only
        add("sync wave64 128", g, "syncThreads", k=kernel(g, WavefrontSize=64, NumThreads=128),
            wavefront=64, args={"comment": "w64"})
        add("sync wave64 64", g, "syncThreads", k=kernel(g, WavefrontSize=64, NumThreads=64))
    # cap overrides change what syncThreads/wait print
    add("sync Waitcnt0Disabled off", "gfx942", "syncThreads", archCaps={"Waitcnt0Disabled": 0})
    add("sync SeparateVscnt on gfx942", "gfx942", "syncThreads", asmCaps={"SeparateVscnt": True})
    add("sync Waitcnt0Disabled on gfx1201", "gfx1201", "syncThreads",
        archCaps={"Waitcnt0Disabled": True})
    add("wait MaxVmcnt 15", "gfx90a", "wait", args=W(20, -1, -1), asmCaps={"MaxVmcnt": 15})
    add("wait MaxLgkmcnt 7 gfx942", "gfx942", "wait", args=W(-1, -1, 40),
        asmCaps={"MaxLgkmcnt": 7})
    # ------------------------------------------- accToArchMapper and friends
    mats = [
        ("16x16", {}),
        ("32x32 VW4", dict(MatrixInstM=32, MatrixInstN=32, VectorWidthA=4, VectorWidthB=2,
                           MIWaveTile=[4, 2])),
        ("4x4 BM4 BN1", dict(MatrixInstM=4, MatrixInstN=4, MatrixInstBM=4, MatrixInstBN=1,
                             VectorWidthA=1, VectorWidthB=1, MIWaveTile=[2, 2])),
        ("4x4 BM1 BN4", dict(MatrixInstM=4, MatrixInstN=4, MatrixInstBM=1, MatrixInstBN=4,
                             VectorWidthA=1, VectorWidthB=1, MIWaveTile=[1, 2])),
        ("4x16 BM16", dict(MatrixInstM=4, MatrixInstN=16, MatrixInstBM=16, MatrixInstBN=1,
                           VectorWidthA=1, VectorWidthB=1, MIWaveTile=[1, 1])),
        ("16x16 BM2 BN2", dict(MatrixInstBM=2, MatrixInstBN=2, VectorWidthA=1, VectorWidthB=1,
                               MIWaveTile=[2, 2])),
        ("32x32 BM2", dict(MatrixInstM=32, MatrixInstN=32, MatrixInstBM=2, MatrixInstBN=1,
                           VectorWidthA=2, VectorWidthB=2, MIWaveTile=[2, 4])),
        ("VW1 seq", dict(VectorWidthA=1, VectorWidthB=1, MIWaveTile=[1, 1])),
        ("VW1 tile 2x3", dict(VectorWidthA=1, VectorWidthB=1, MIWaveTile=[2, 3])),
        ("MIRegPerOut2", dict(MIRegPerOut=2, ProblemType={"DataType": "D", "ComputeDataType": "D"})),
        ("complex C", dict(ProblemType={"DataType": "C", "ComputeDataType": "C"})),
    ]
    for name, kw in mats:
        for swap in (False, True):
            g = rot(ALL)[0]
            k = kernel(g, SourceSwap=swap, **copy.deepcopy(kw))
            for gen in ("accToArchMapper", "getAccToArchLen", "hasSequentialValuC",
                        "accVgprImagNumOffset"):
                add("%s %s swap=%r" % (gen, name, swap), g, gen, k=k)
        g = rot(ALL)[0]
        add("accToArchMapper %s swap=1" % name, g, "accToArchMapper",
            k=kernel(g, SourceSwap=1, **copy.deepcopy(kw)))
    for g in two():
        add("hasSequentialValuC non-MI", g, "hasSequentialValuC",
            k={"EnableMatrixInstruction": False, "ProblemType": {"DataType": 0}})
        add("hasSequentialValuC EMI=0", g, "hasSequentialValuC",
            k=kernel(g, EnableMatrixInstruction=0))
    # ------------------------------------------------------ mapAcctoArchRegs
    for write in (False, True):
        for g in rot(GFX9, 2):
            add("mapAcc acc write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=False), args={"write": write})
        for g in rot(GFX9, 2):
            add("mapAcc acc spill write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=False), args={"maxAgpr": 5, "write": write})
        for g in rot(GFX9, 2):
            add("mapAcc acc spill base write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=False),
                args={"maxAgpr": 6, "write": write, "spilledVgprBase": 100})
        g = rot(GFX9)[0]
        add("mapAcc acc spill base0 write=%d" % write, g, "mapAcctoArchRegs",
            k=kernel(g, MIArchVgpr=False), args={"maxAgpr": 0, "write": write, "spilledVgprBase": 0})
        for g in rot(GFX9, 2):
            add("mapAcc acc complex write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=False, ProblemType={"DataType": "C", "ComputeDataType": "C"}),
                args={"write": write, "maxAgpr": 12})
        g = rot(GFX9)[0]
        add("mapAcc acc Z MIRegPerOut2 write=%d" % write, g, "mapAcctoArchRegs",
            k=kernel(g, MIArchVgpr=0, MIRegPerOut=2,
                     ProblemType={"DataType": "Z", "ComputeDataType": "Z"}), args={"write": write})
        for cls in (False, True):
            for g in two():
                add("mapAcc arch write=%d CLS=%d" % (write, cls), g, "mapAcctoArchRegs",
                    k=kernel(g, MIArchVgpr=True, CompactLoopStore=cls), args={"write": write})
        for g in two():
            add("mapAcc arch complex write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=True, ProblemType={"DataType": "C", "ComputeDataType": "C"}),
                args={"write": write})
        for g in two():
            add("mapAcc arch Z MIRegPerOut2 write=%d" % write, g, "mapAcctoArchRegs",
                k=kernel(g, MIArchVgpr=1, MIRegPerOut=2,
                         ProblemType={"DataType": "Z", "ComputeDataType": "Z"}), args={"write": write})

    def big_tile(g):
        """A tile with more than 256 accumulators per thread (wave64; wave32 on gfx1250)."""
        if g == "gfx1250":
            return dict(MIWaveTile=[4, 4], VectorWidthA=1, VectorWidthB=1, MatrixInstM=32,
                        MatrixInstN=32, WavefrontSize=32)
        return dict(MIWaveTile=[8, 8], VectorWidthA=1, VectorWidthB=1, MatrixInstM=32,
                    MatrixInstN=32, WavefrontSize=64)

    for g in rot(GFX9, 2):
        # AGPRs past acc255 (maxAgpr above the hardware limit)
        add("mapAcc acc past 255", g, "mapAcctoArchRegs", k=kernel(g, MIArchVgpr=False, **big_tile(g)),
            args={"maxAgpr": 512})
        # spilled VGPRs past v255
        add("mapAcc acc spill past v255", g, "mapAcctoArchRegs",
            k=kernel(g, MIArchVgpr=False, **big_tile(g)), args={"maxAgpr": 256, "spilledVgprBase": 200})
    for g in two():
        add("mapAcc arch CLS=1 int", g, "mapAcctoArchRegs", k=kernel(g, MIArchVgpr=1, CompactLoopStore=1))
        add("mapAcc arch past v255", g, "mapAcctoArchRegs", k=kernel(g, MIArchVgpr=True, **big_tile(g)))
    # ----------------------------------------- mulMIoutAlphaToArch / moveMIoutToArch
    types = [("S", False, 1), ("D", False, 1), ("D", False, 2), ("H", True, 1), ("H", False, 1),
             ("I", False, 1), ("C", False, 1), ("Z", False, 1), ("Z", False, 2), ("B", False, 1),
             ("B", True, 1)]
    for ct, hpa, mirpo in types:
        for gen in ("mulMIoutAlphaToArch", "moveMIoutToArch"):
            for tmp in ((-1, 40, 41) if ct in ("C", "Z") else (-1,)):
                for g in (per_class() if tmp != 41 else rot(ALL)):
                    k = kernel(g, MIRegPerOut=mirpo,
                               ProblemType={"DataType": ct, "ComputeDataType": ct,
                                            "HighPrecisionAccumulate": hpa})
                    add("%s %s hpa=%d rpo=%d tmp=%d" % (gen, ct, hpa, mirpo, tmp), g, gen, k=k,
                        args={"startVgprAlphaTmp": tmp})
    for g in two():
        # half data with single compute (the common HHS/HSS shape)
        k = kernel(g, ProblemType={"DataType": "H", "ComputeDataType": "S",
                                   "HighPrecisionAccumulate": True})
        add("mulAlpha HSS", g, "mulMIoutAlphaToArch", k=k, args={"startVgprAlphaTmp": -1})
        # registers past v255
        k = kernel(g, **big_tile(g))
        add("mulAlpha past v255", g, "mulMIoutAlphaToArch", k=k,
            args={"startVgprAlphaTmp": -1})
        add("moveMIout past v255", g, "moveMIoutToArch", k=k,
            args={"startVgprAlphaTmp": -1})
    # gfx1250 prints registers past v255 with s_set_vgpr_msb; gfx908/gfx11/gfx12 accept odd pairs
    for g in ("gfx1250", "gfx1100"):
        add("mapAcc arch past v255 (%s)" % g, g, "mapAcctoArchRegs",
            k=kernel(g, MIArchVgpr=True, **big_tile(g)))
        add("mulAlpha past v255 (%s)" % g, g, "mulMIoutAlphaToArch", k=kernel(g, **big_tile(g)),
            args={"startVgprAlphaTmp": -1})
    for g in ("gfx908", "gfx90a", "gfx1100", "gfx1201", "gfx1250"):
        add("moveMIout D odd pairs (%s)" % g, g, "moveMIoutToArch",
            k=kernel(g, ProblemType={"DataType": "D", "ComputeDataType": "D"}),
            args={"startVgprAlphaTmp": -1})
    # ------------------------------------------------------ input spellings
    dts = [("int 0", 0), ("int 1", 1), ("int 2", 2), ("int 3", 3), ("int 4", 4), ("int 6", 6),
           ("char S", "S"), ("char Z", "Z"), ("char 4xi8", "4xi8"), ("char I8", "I8"),
           ("name ComplexDouble", "ComplexDouble"), ("name half", "half"), ("name Float", "Float"),
           ("name complexfloat", "complexfloat"), ("name Int32", "Int32"), ("name double", "double"),
           ("name BFloat16", "BFloat16"), ("char h", "h")]
    for name, v in dts:
        g = rot(ALL)[0]
        k = kernel(g, MIArchVgpr=True, ProblemType={"DataType": v, "ComputeDataType": v,
                                                    "HighPrecisionAccumulate": False})
        add("DataType %s mapAcc" % name, g, "mapAcctoArchRegs", k=k)
        add("DataType %s mulAlpha" % name, g, "mulMIoutAlphaToArch", k=k,
            args={"startVgprAlphaTmp": 40})
    for g in NATIVE:
        add("isa as string wait", g, "wait", isa_form="string", args=W(1, -1, -1))
        add("isa as string sync", g, "syncThreads", isa_form="string", args={"comment": "s"})
    for g in ("gfx940", "gfx941", "gfx1101", "gfx1102"):
        add("isa as string mapAcc", g, "mapAcctoArchRegs", isa_form="string")
    add("isa as string GFX942", "gfx942", "syncThreads", isa="GFX942")
    add("isa as string gfx90A", "gfx90a", "syncThreads", isa="gfx90A")
    # booleans as 1/0
    for g in two():
        add("bools as ints wait", g, "wait",
            k=kernel(g, BufferLoad=0, DirectToLdsA=1, DirectToVgprB=0,
                     ProblemType={"MXBlockA": 0, "MXBlockB": 0, "Sparse": 0}),
            args=W(1, 1, -1))
        add("bools as ints mapAcc", g, "mapAcctoArchRegs",
            k=kernel(g, MIArchVgpr=int(not gfx9(g)), SourceSwap=1), args={"write": 1})
        add("bools as ints mul HPA", g, "mulMIoutAlphaToArch",
            k=kernel(g, ProblemType={"DataType": "H", "ComputeDataType": "H",
                                     "HighPrecisionAccumulate": 1}),
            args={"startVgprAlphaTmp": -1})
    # -------------------------------------------------------- replaceHolder
    for g in per_class():
        k = kernel(g)
        add("replaceHolder int mapAcc", g, "mapAcctoArchRegs", k=k, replaceHolder=8)
        add("replaceHolder 0 mapAcc", g, "mapAcctoArchRegs", k=k, replaceHolder=0)
        add("replaceHolder int mulAlpha", g, "mulMIoutAlphaToArch", k=k,
            args={"startVgprAlphaTmp": -1}, replaceHolder=12)
        kc = kernel(g, ProblemType={"DataType": "C", "ComputeDataType": "C"})
        add("replaceHolder int complex mulAlpha", g, "mulMIoutAlphaToArch", k=kc,
            args={"startVgprAlphaTmp": 40}, replaceHolder=20)
        kd = kernel(g, MIRegPerOut=2, ProblemType={"DataType": "D", "ComputeDataType": "D"})
        add("replaceHolder int D moveMIout", g, "moveMIoutToArch", k=kd,
            args={"startVgprAlphaTmp": -1}, replaceHolder=6)
        add("replaceHolder int D moveMIout odd", g, "moveMIoutToArch", k=kd,
            args={"startVgprAlphaTmp": -1}, replaceHolder=7)
        kz = kernel(g, MIRegPerOut=2, ProblemType={"DataType": "Z", "ComputeDataType": "Z"})
        add("replaceHolder int Z mulAlpha", g, "mulMIoutAlphaToArch", k=kz,
            args={"startVgprAlphaTmp": 40}, replaceHolder=64)
        add("replaceHolder int sync (no holders)", g, "syncThreads", replaceHolder=4)
        add("replaceHolder int wait (bare SWaitCnt)", g, "wait", args=W(1, -1, -1), replaceHolder=4)
        add("replaceHolder int tdmWait", g, "tdmWait", args={"tensorcnt": 1}, replaceHolder=4)
        REPL.append((g, k, kc, kd))
    # ------------------------------------------------------- outputNoComment
    for g in per_class():
        add("noComment wait", g, "wait", args=W(1, 1, -1), outputNoComment=True)
        add("noComment conservative", g, "wait", args=W(0, -1, -1, 0x2), outputNoComment=True)
        add("noComment sync", g, "syncThreads", args={"comment": "c"}, outputNoComment=True)
        add("noComment sync one wave", g, "syncThreads",
            k=kernel(g, NumThreads=32), args={"comment": "c"}, outputNoComment=True)
        add("noComment tdmWait", g, "tdmWait", args={"tensorcnt": 0, "comment": "t"},
            outputNoComment=True)
        add("noComment mapAcc", g, "mapAcctoArchRegs", outputNoComment=True)
        add("noComment mulAlpha C", g, "mulMIoutAlphaToArch",
            k=kernel(g, ProblemType={"DataType": "C", "ComputeDataType": "C"}),
            args={"startVgprAlphaTmp": 40}, outputNoComment=True)
    # ------------------------------------------------- gfx1250 VGPR banks
    g = "gfx1250"
    big = kernel(g, MIArchVgpr=True, MIWaveTile=[4, 4])
    for msb in (None, -1, 0):
        extra = {} if msb is None else {"vgprMsb": msb}
        for idx in ({"ValuC": 240}, {"ValuC": 300}, {}):
            tag = "msb=%s idx=%s" % (msb, idx.get("ValuC"))
            add("vgprMsb mapAcc read %s" % tag, g, "mapAcctoArchRegs", k=big, vgprIdx=idx, **extra)
            add("vgprMsb mapAcc write %s" % tag, g, "mapAcctoArchRegs", k=big, vgprIdx=idx,
                args={"write": True}, **extra)
            add("vgprMsb moveMIout %s" % tag, g, "moveMIoutToArch", k=big, vgprIdx=idx,
                args={"startVgprAlphaTmp": -1}, **extra)
        add("vgprMsb mulAlpha D msb=%s" % msb, g, "mulMIoutAlphaToArch",
            k=kernel(g, MIArchVgpr=True, MIWaveTile=[4, 4], MIRegPerOut=2,
                     ProblemType={"DataType": "D", "ComputeDataType": "D"}),
            vgprIdx={"ValuC": 200}, args={"startVgprAlphaTmp": -1}, **extra)
        add("vgprMsb mulAlpha C msb=%s" % msb, g, "mulMIoutAlphaToArch",
            k=kernel(g, MIArchVgpr=True, MIWaveTile=[4, 4],
                     ProblemType={"DataType": "C", "ComputeDataType": "C"}),
            vgprIdx={"ValuC": 230}, args={"startVgprAlphaTmp": 260}, **extra)
        add("vgprMsb wait msb=%s" % msb, g, "wait", args=W(1, 1, -1), **extra)
        add("vgprMsb tdmWait msb=%s" % msb, g, "tdmWait", args={"tensorcnt": 0}, **extra)
        add("vgprMsb sync msb=%s" % msb, g, "syncThreads", **extra)
        add("vgprMsb replaceHolder msb=%s" % msb, g, "mapAcctoArchRegs", k=big,
            vgprIdx={"ValuC": 240}, replaceHolder=10, **extra)
    add("vgprMsb 1", g, "mapAcctoArchRegs", k=big, vgprIdx={"ValuC": 240}, vgprMsb=1)
    add("vgprMsb on gfx942 (ignored)", "gfx942", "mapAcctoArchRegs",
        k=kernel("gfx942", MIArchVgpr=True, MIWaveTile=[4, 4]), vgprIdx={"ValuC": 240}, vgprMsb=-1)
    # --------------------------------------------------------- fillDefaults
    for g in per_class():
        wave = 64 if gfx9(g) else 32
        mini = {"WavefrontSize": wave, "NumThreads": 256, "MatrixInstM": 16, "MatrixInstN": 16,
                "VectorWidthA": 1, "VectorWidthB": 1, "MIWaveTile": [2, 2],
                "ProblemType": {"DataType": "S", "ComputeDataType": "S"}}
        add("fillDefaults sync", g, "syncThreads", k=copy.deepcopy(mini), fillDefaults=True)
        add("fillDefaults wait", g, "wait", k=copy.deepcopy(mini), fillDefaults=True,
            args=W(1, 1, 1))
        add("fillDefaults mapAcc", g, "mapAcctoArchRegs", k=copy.deepcopy(mini), fillDefaults=True)
        add("fillDefaults mulAlpha", g, "mulMIoutAlphaToArch", k=copy.deepcopy(mini),
            fillDefaults=True, args={"startVgprAlphaTmp": -1})
        add("fillDefaults accToArchMapper", g, "accToArchMapper", k=copy.deepcopy(mini),
            fillDefaults=True)
        add("fillDefaults keeps kernel values", g, "syncThreads",
            k=dict(copy.deepcopy(mini), PrefetchGlobalRead=2), fillDefaults=True)
        add("error: fillDefaults off, missing key", g, "mapAcctoArchRegs", k=copy.deepcopy(mini))
        add("error: fillDefaults off, wait missing key", g, "wait", k=copy.deepcopy(mini),
            args=W(1, 1, 1))
    # --------------------------------------------------------------- errors
    for g in two():
        k = kernel(g)
        del k["NumThreads"]
        add("error: missing NumThreads", g, "syncThreads", k=k)
        k = kernel(g)
        del k["ProblemType"]["MXBlockA"]
        add("error: missing ProblemType.MXBlockA", g, "wait", k=k, args=W(1, 1, -1))
        k = kernel(g)
        del k["MIRegPerOut"]
        add("error: missing MIRegPerOut", g, "mapAcctoArchRegs", k=k)
        add("error: unknown generator", g, "waitAll")
        add("error: bad DataType", g, "mulMIoutAlphaToArch",
            k=kernel(g, ProblemType={"DataType": "Q", "ComputeDataType": "Q"}),
            args={"startVgprAlphaTmp": -1})
        add("error: bad DataType name", g, "mapAcctoArchRegs",
            k=kernel(g, ProblemType={"DataType": "Float32x", "ComputeDataType": "S"}))
        add("error: DataType int out of range", g, "mapAcctoArchRegs",
            k=kernel(g, ProblemType={"DataType": 99, "ComputeDataType": "S"}))
        add("error: tdmWait without tensorcnt", g, "tdmWait", args={"comment": "x"})
        add("error: wait without skipLocalRead", g, "wait",
            args={"skipGlobalRead": 1, "skipLocalWrite": -1})
        add("error: mulAlpha without startVgprAlphaTmp", g, "mulMIoutAlphaToArch")
        add("error: replaceHolder list too short", g, "mapAcctoArchRegs", replaceHolder=[0, 1])
        add("error: sparse without tpsMetadata", g, "wait",
            k=kernel(g, ProblemType={"Sparse": 1}), args=W(-1, 1, -1))
        add("error: MX without tPA.MX", g, "wait", k=kernel(g, ProblemType={"MXBlockA": True}),
            args=W(-1, 1, -1))
        add("error: bf16 compute (no branch: None item)", g, "moveMIoutToArch",
            k=kernel(g, ProblemType={"DataType": "B", "ComputeDataType": "B"}),
            args={"startVgprAlphaTmp": -1})
    add("error: missing kernel", "gfx942", "syncThreads", k={})
    add("error: missing ProblemType", "gfx942", "mapAcctoArchRegs",
        k={k2: v for k2, v in kernel("gfx942").items() if k2 != "ProblemType"})


REPL = []


def add_replace_lists(oracle):
    """replaceHolder as a list: one destination per top-level item (needs the item count)."""
    for g, k, kc, kd in REPL:
        for name, kern, gen, args in (("mapAcc", k, "mapAcctoArchRegs", {}),
                                      ("mapAcc write", k, "mapAcctoArchRegs", {"write": True}),
                                      ("mulAlpha C", kc, "mulMIoutAlphaToArch", {"startVgprAlphaTmp": 40}),
                                      ("moveMIout D", kd, "moveMIoutToArch", {"startVgprAlphaTmp": -1}),
                                      ("mulAlpha D", kd, "mulMIoutAlphaToArch", {"startVgprAlphaTmp": -1})):
            n = oracle.KWM.getAccToArchLen(oracle.prep_kernel(kern, False))
            if gen == "mapAcctoArchRegs":
                n *= kern["MIRegPerOut"] * (2 if kern["ProblemType"]["DataType"] in ("C", "Z") else 1)
            stride = 2 if kern["ProblemType"]["ComputeDataType"] in ("D", "C", "Z") else 1
            add("replaceHolder list %s" % name, g, gen, k=kern, args=args,
                replaceHolder=[stride * i for i in range(n)])
            add("replaceHolder list reversed %s" % name, g, gen, k=kern, args=args,
                replaceHolder=[stride * (n - 1 - i) + 3 for i in range(n)])
        # gfx9/gfx11 print a wait (or comment) item before the barrier, gfx12 only the barrier
        add("replaceHolder list sync", g, "syncThreads",
            replaceHolder=[0] if g.startswith("gfx12") else [0, 1])
        add("error: replaceHolder list sync too long", g, "syncThreads", replaceHolder=[0, 1])
        add("replaceHolder list wait (bare)", g, "wait", args=W(1, -1, -1), replaceHolder=[5])


def main():
    global CAPS
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "handwritten.jsonl"))
    opts = ap.parse_args()
    sys.path.insert(0, os.path.join(os.path.abspath(opts.shared), "oracle"))
    import oracle  # noqa: E402
    from rocisa_mini import caps  # noqa: E402
    CAPS = caps
    build()
    add_replace_lists(oracle)
    with open(opts.output, "w") as f:
        for r in OUT:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print("%d hand-written requests -> %s" % (len(OUT), opts.output), file=sys.stderr)


if __name__ == "__main__":
    main()
