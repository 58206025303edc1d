#!/usr/bin/env python3
"""Write tests/fuzz/kwgen.dict, the libFuzzer dictionary: request keys,
Tensile kernel keys, generator names and arguments, caps, ISAs, DataType
names.  Names are read from the library's headers and sources.
Run from the repository root:  python3 tests/fuzz/make_dict.py
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def main():
    words = []

    def add(group, names):
        words.append("# " + group)
        for n in names:
            if n not in seen:
                seen.add(n)
                words.append('"%s"' % n.replace("\\", "\\\\").replace('"', '\\"'))

    seen = set()
    add("request keys", ["isa", "wavefront", "kernel", "tPA", "tPB", "states", "archCaps", "asmCaps",
                         "vgprIdx", "vgprMsb", "outputNoComment", "fillDefaults", "replaceHolder", "strict",
                         "generator", "generators", "args", "name"])
    request_c = read("lib/request.c")
    gens = re.search(r"gen_names\[KW_GEN_COUNT\] = \{(.*?)\};", request_c, re.S).group(1)
    add("generators", re.findall(r'"(\w+)"', gens))
    add("generator arguments", ["tensorcnt", "comment", "skipGlobalRead", "skipLocalWrite", "skipLocalRead",
                                "conservativeWaitCnt", "skipGlobalReadInst", "skipForceWaitcnt0", "memoryToken",
                                "maxAgpr", "write", "spilledVgprBase", "startVgprAlphaTmp"])
    kernel_h = read("lib/include/kwgen/kernel.h")
    paths = re.findall(r'X\(\w+, "([\w.]+)", KW_KT_\w+\)', kernel_h)
    add("kernel keys", ["ProblemType"] + [p.split(".")[-1] for p in paths])
    kernel_c = read("lib/kernel.c")
    add("tPA / tPB / states", ["localReadInstruction", "localWriteInstruction", "blockWidth", "numOffsets",
                               "is_sparse", "tpsMetadata", "MX", "nrp", "nrc", "nwcv", "nwpv", "nwcvpi"]
        + re.findall(r'"(numReadsPerIter\w*)"', kernel_c))
    arch_h = read("lib/include/kwgen/arch.h")
    for macro in ("KW_ASMCAPS", "KW_ARCHCAPS"):
        body = re.search(r"#define %s\(X\)(.*?)\n\n" % macro, arch_h, re.S)
        body = body.group(1) if body else ""
        add(macro[3:].lower(), re.findall(r"X\((\w+)\)", body))
    add("ISAs", ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1100", "gfx1101",
                 "gfx1102", "gfx1200", "gfx1201", "gfx1250"])
    dt = read("lib/datatype.c")
    add("DataType names", [n for pair in re.findall(r'\{ "(\w+)", "(\w+)" \}', dt) for n in pair]
        + ["single", "complexSingle"])
    add("JSON", ["true", "false", "null", "-1", "2147483647", "-2147483648", "2147483648", "1e309", "[]", "{}",
                 "\\u0000", "\\ud800", ":", ","])
    with open(os.path.join(ROOT, "tests", "fuzz", "kwgen.dict"), "w") as f:
        f.write("# libFuzzer dictionary for the kwgen harnesses (written by make_dict.py)\n")
        f.write("\n".join(words) + "\n")


if __name__ == "__main__":
    main()
