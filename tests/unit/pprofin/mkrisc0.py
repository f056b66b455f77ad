#!/usr/bin/env python3
"""Write a pprof file laid out as RISC Zero's guest profiler writes it
(RISC0_PPROF_OUT), from a text description, for `cycprof report|diff`.

Copied from risc0/risc0, risc0/zkvm/src/host/server/exec/profiler.rs
(commit 0ce76753c948f5beb7f7eed219cce381197a9488), without its code:
  - ProfileBuilder::new: string 0 is "", then "cycles" and "count"; one
    sample type, cycles/count; no default_sample_type, period or comment;
  - Profiler::new: then the binary's name (or "unknown"), and one mapping,
    id 1, of the segment at TEXT_START (0x0020_0800, risc0_zkvm_platform
    memory.rs) with that name, has_functions, has_filenames,
    has_line_numbers and has_inline_frames set;
  - walk_stacks: one sample per call-tree node with a non-zero count, value
    [cycles], no labels, its location ids leaf first; every frame of the
    stack gets a location whose address is the start pc of the *leaf*'s
    function and whose one line is (function, line of that frame's
    function start); get_location shares a location among equal (address,
    lines), ids from 1 in order of first use, mapping_id 1;
  - get_function: functions keyed by (name, filename), ids from 1, only
    name and filename set; strings added in order of first use;
  - a symbol without DWARF: file "unknown", line 0; paging: frames named
    "[PageIn]" / "[PageOut]" with file "" and line 0, at address 0;
  - finalize_to_vec: the plain protobuf (prost's encode_to_vec), no gzip.

Input (stdin):
  fn NAME FILE LINE PC     a function ("-" for an empty file name)
  COUNT LEAF;CALLER;...;ROOT   one sample (names of fn lines)
Usage: mkrisc0.py OUT [BINARY-NAME]
"""
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from protowire import f_bytes, key, varint  # noqa: E402


def f_varint(field, n):
    # prost leaves out proto3 scalars that equal their default
    return key(field, 0) + varint(n) if n else b""


def packed(field, nums):
    return f_bytes(field, b"".join(varint(n) for n in nums)) if nums else b""

def main():
    out = sys.argv[1]
    binary = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    strings, sidx = [], {}
    def s(x):
        if x not in sidx:
            sidx[x] = len(strings)
            strings.append(x)
        return sidx[x]
    s("")
    s("cycles")
    s("count")
    bin_name = s(binary)
    fns, samples = {}, []
    for line in sys.stdin:
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "fn":
            fns[w[1]] = ("" if w[2] == "-" else w[2], int(w[3]), int(w[4], 0))
        else:
            samples.append((int(w[0]), w[1].split(";")))
    functions, locations, locidx, encoded = [], [], {}, []
    fnidx = {}
    for count, stack in samples:
        pc = fns[stack[0]][2]
        ids = []
        for name in stack:              # leaf first, as walk_stacks emits
            filename, lineno, _ = fns[name]
            fk = (name, filename)
            if fk not in fnidx:
                fnidx[fk] = len(functions) + 1
                functions.append((fnidx[fk], s(name), s(filename)))
            lk = (pc, fnidx[fk], lineno)
            if lk not in locidx:
                locidx[lk] = len(locations) + 1
                locations.append((locidx[lk], pc, fnidx[fk], lineno))
            ids.append(locidx[lk])
        if count > 0:
            encoded.append(packed(1, ids) + packed(2, [count]))
    text_start = 0x00200800
    msg = bytearray()
    msg += f_bytes(1, f_varint(1, s("cycles")) + f_varint(2, s("count")))
    for smp in encoded:
        msg += f_bytes(2, smp)
    msg += f_bytes(3, f_varint(1, 1) + f_varint(2, text_start)
                   + f_varint(3, text_start + 0x10000) + f_varint(4, 0x1000)
                   + f_varint(5, bin_name) + f_varint(7, 1)
                   + f_varint(8, 1 if binary != "unknown" else 0)
                   + f_varint(9, 1) + f_varint(10, 1))
    for lid, pc, fid, lineno in locations:
        msg += f_bytes(4, f_varint(1, lid) + f_varint(2, 1) + f_varint(3, pc)
                       + f_bytes(4, f_varint(1, fid) + f_varint(2, lineno)))
    for fid, name, filename in functions:
        msg += f_bytes(5, f_varint(1, fid) + f_varint(2, name) + f_varint(4, filename))
    for x in strings:
        msg += f_bytes(6, x.encode())
    with open(out, "wb") as f:
        f.write(bytes(msg))

main()
