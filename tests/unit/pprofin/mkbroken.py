#!/usr/bin/env python3
"""Write pprof profiles whose wire format is sound but whose tables are not,
one per way a reader could be misled, into the current folder:

  fn-dup.pb        two functions with id 1
  loc-id0.pb       a location with id 0
  fn-unknown.pb    a location's line names function 9, which is not there
  map-unknown.pb   a location names mapping 7, which is not there
  fn-string.pb     a function's name is string 99 of a table of 6
  map-string.pb    a mapping's build id is string 99
  values.pb        a sample with 2 values for 1 sample type
  negative.pb      a sample whose one value is -5

Every other field is as in a valid profile: one sample type
(instructions/count), mapping 1, function 1 "main", location 1 in mapping 1
at line 3 of main, one sample of 10 at location 1.
Usage: mkbroken.py
"""
import os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from protowire import f_bytes, key, varint  # noqa: E402


def f_int(field, n):
    # int64 fields are varints of their two's complement
    return key(field, 0) + varint(n & 0xFFFFFFFFFFFFFFFF)


def packed(field, nums):
    return f_bytes(field, b"".join(varint(n & 0xFFFFFFFFFFFFFFFF) for n in nums))


STRINGS = ["", "instructions", "count", "main", "main.c", "/bin/prog"]


def profile(functions=((1, 3),), locations=((1, 1, 1),), mappings=((1, 5, 0),),
            values=(10,)):
    """functions: (id, name string); locations: (id, mapping id, function id);
    mappings: (id, filename string, build id string)."""
    out = f_bytes(1, f_int(1, 1) + f_int(2, 2))                      # sample_type
    out += f_bytes(2, packed(1, [1]) + packed(2, list(values)))       # sample
    for mid, fname, build in mappings:                                # mapping
        out += f_bytes(3, f_int(1, mid) + f_int(2, 0x1000) + f_int(3, 0x2000)
                       + f_int(5, fname) + (f_int(6, build) if build else b""))
    for lid, mid, fid in locations:                                   # location
        line = f_bytes(4, f_int(1, fid) + f_int(2, 3))
        out += f_bytes(4, (f_int(1, lid) if lid else b"") + f_int(2, mid)
                       + f_int(3, 0x1010) + line)
    for fid, name in functions:                                       # function
        out += f_bytes(5, f_int(1, fid) + f_int(2, name) + f_int(4, 4))
    for s in STRINGS:                                                 # string_table
        out += f_bytes(6, s.encode())
    return out


CASES = {
    "fn-dup": profile(functions=((1, 3), (1, 3))),
    "loc-id0": profile(locations=((0, 1, 1),)),
    "fn-unknown": profile(locations=((1, 1, 9),)),
    "map-unknown": profile(locations=((1, 7, 1),)),
    "fn-string": profile(functions=((1, 99),)),
    "map-string": profile(mappings=((1, 5, 99),)),
    "values": profile(values=(10, 20)),
    "negative": profile(values=(-5,)),
    "valid": profile(),
}

for name, data in CASES.items():
    with open(name + ".pb", "wb") as f:
        f.write(data)
