#!/usr/bin/env python3
"""The self cost per function a viewer showed (compare_functions.py's viewer
JSON) against cachegrind's own file, the oracle: cachegrind.out's self Ir
per function name, summed over objects and files, as tests/lib/cyc.py
reads it (functions without a symbol are one bucket, left out here).

usage: vs_cachegrind.py VIEWER.json CACHEGRIND.OUT TOP
The total and the TOP functions by cachegrind's self cost must be equal."""
import collections
import sys

import cyc

v = __import__("json").load(open(sys.argv[1]))
fns, total = cyc.cg_functions(sys.argv[2])
top = int(sys.argv[3])
got = collections.Counter()
for f in v["functions"]:
    got[cyc.norm_fn(f["name"])] += f["self"]
errs = []
if v["total"] != total:
    errs.append("total %d, cachegrind's %d" % (v["total"], total))
ranked = [kv for kv in sorted(fns.items(), key=lambda kv: (-kv[1], kv[0])) if kv[0] != cyc.UNKNOWN][:top]
for name, n in ranked:
    if got.get(name) != n:
        errs.append("%s: viewer %s, cachegrind %d" % (name, got.get(name), n))
if errs:
    print("; ".join(errs[:6]))
    sys.exit(1)
print("total %d and the self cost of the top %d functions = cachegrind's" % (total, len(ranked)))
