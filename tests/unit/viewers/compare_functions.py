#!/usr/bin/env python3
"""Compare a viewer's per-function self and total costs with cycprof report's.

usage: compare_functions.py VIEWER.json REPORT_SELF.json REPORT_INCL.json TOP

VIEWER.json: {"total": N, "functions": [{"lib": L, "name": F, "self": S,
"total": T}, ...]} (what the viewer showed, all threads together; "lib"
may be null when the viewer shows names only). REPORT_*.json: `cycprof
report --format=json -n 0 --threshold=0 [--inclusive]` of the callgrind
file. Rows of one function in several source files are summed (report keys
by (object, file, function), the viewers by function). The TOP functions
by report's self cost, and the TOP by its inclusive cost, must be in the
viewer with exactly report's numbers. Prints one line; exit 1 on a
mismatch.
"""
import json
import os
import sys
from collections import defaultdict


def report_costs(path, with_lib):
    d = json.load(open(path))
    costs, rows, objs = defaultdict(int), defaultdict(int), defaultdict(set)
    for r in d["rows"]:
        lib = os.path.basename(r.get("object") or "") if with_lib else None
        costs[(lib, r["function"])] += r["costs"]["Ir"]
        rows[(lib, r["function"])] += 1
        objs[(lib, r["function"])].add(r.get("object"))
    # A viewer that shows names only cannot tell apart functions of one
    # name in several objects (strcmp in ld.so and in libc): leave them out.
    costs = {k: n for k, n in costs.items() if len(objs[k]) == 1}
    return d["totals"]["Ir"], costs, rows


def main():
    viewer, rself, rincl, top = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    v = json.load(open(viewer))
    with_lib = any(f.get("lib") for f in v["functions"])
    total, self_, _ = report_costs(rself, with_lib)
    _, incl, rows = report_costs(rincl, with_lib)
    # A function with code from several source files (inlined from
    # headers) has one inclusive row per file in report, and those do not
    # add up to the function's inclusive cost: compare the others.
    incl = {k: n for k, n in incl.items() if rows[k] == 1}
    vself, vtotal, count = defaultdict(int), {}, defaultdict(int)
    for f in v["functions"]:
        k = (f.get("lib") if with_lib else None, f["name"])
        vself[k] += f["self"]
        vtotal[k] = f["total"]
        count[k] += 1
    errs = []
    if v["total"] != total:
        errs.append("total %d, report's %d" % (v["total"], total))
    compared = {}
    for kind, want, got in (("self", self_, vself), ("total", incl, vtotal)):
        ranked = sorted(want.items(), key=lambda kv: (-kv[1], str(kv[0])))[:top]
        compared[kind] = 0
        for k, n in ranked:
            # Two functions of one name (static functions of two files):
            # their self costs add up, their totals cannot be told apart.
            if kind == "total" and count[k] > 1:
                continue
            compared[kind] += 1
            if got.get(k) != n:
                errs.append("%s %s: viewer %s, report %d" % ("!".join(filter(None, k)), kind, got.get(k), n))
    if compared["total"] < min(top, 5):
        errs.append("only %d totals could be compared" % compared["total"])
    if errs:
        print("; ".join(errs[:6]) + (" (%d differences)" % len(errs) if len(errs) > 6 else ""))
        sys.exit(1)
    print("total %d = cycprof report's, and the self cost of its top %d functions, "
          "the total of %d" % (total, compared["self"], compared["total"]))


main()
