#!/usr/bin/env python3
"""Developer aid: write a small profile.proto (gzip) from a text description,
to exercise the suite's pprof parsers before/without the tool.

Input (stdin), one sample per line:  COUNT THREAD leaf;caller;...;root
A frame may be 'fn' or 'fn@inlinedInto' is not supported; keep it simple.
"""
import gzip, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protowire import f_bytes, key, varint  # noqa: E402


def f_varint(field, n):
    return key(field, 0) + varint(n)


def packed(field, nums):
    return f_bytes(field, b"".join(varint(n) for n in nums))

def main():
    out = sys.argv[1]
    strings = [""]
    sidx = {"": 0}
    def s(x):
        if x not in sidx:
            sidx[x] = len(strings)
            strings.append(x)
        return sidx[x]
    funcs, locs, samples = {}, {}, []
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        cnt, thr, stack = line.split(None, 2)
        ids = []
        for fr in stack.split(";"):
            if fr not in funcs:
                funcs[fr] = len(funcs) + 1
                locs[fr] = len(locs) + 1
            ids.append(locs[fr])
        samples.append((int(cnt), int(thr), ids))
    msg = bytearray()
    msg += f_bytes(1, f_varint(1, s("instructions")) + f_varint(2, s("count")))
    for cnt, thr, ids in samples:
        lab = f_varint(1, s("thread")) + f_varint(3, thr)
        msg += f_bytes(2, packed(1, ids) + packed(2, [cnt]) + f_bytes(3, lab))
    msg += f_bytes(3, f_varint(1, 1) + f_varint(2, 0x400000) + f_varint(3, 0x500000)
                   + f_varint(5, s("/bin/prog")) + f_varint(7, 1))
    for fr, lid in locs.items():
        line = f_varint(1, funcs[fr]) + f_varint(2, 1)
        msg += f_bytes(4, f_varint(1, lid) + f_varint(2, 1) + f_varint(3, 0x400000 + lid * 16)
                       + f_bytes(4, line))
    for fr, fid in funcs.items():
        msg += f_bytes(5, f_varint(1, fid) + f_varint(2, s(fr)) + f_varint(3, s(fr))
                       + f_varint(4, s("prog.c")))
    pt = f_varint(1, s("instructions")) + f_varint(2, s("count"))
    for x in strings:
        msg += f_bytes(6, x.encode())
    msg += f_bytes(11, pt) + f_varint(12, 1)
    with gzip.open(out, "wb") as f:
        f.write(bytes(msg))

main()
