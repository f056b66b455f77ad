#!/usr/bin/env python3
"""Turn `profiler-cli thread functions --json --limit 0` outputs (one per
thread, given as arguments) into compare_functions.py's viewer JSON: self
costs summed over the threads; the total of a function is per thread in the
profiler, so it is summed too (no stack is in two threads)."""
import json
import sys
from collections import defaultdict

self_, total = defaultdict(int), defaultdict(int)
grand = 0
for path in sys.argv[1:]:
    d = json.load(open(path))
    for f in d["functions"]:
        k = (f.get("library"), f["name"], f["functionIndex"])
        self_[k] += f["selfSamples"]
        total[k] += f["totalSamples"]
        grand += f["selfSamples"]
print(json.dumps({"total": grand, "functions": [
    {"lib": k[0], "name": k[1], "self": self_[k], "total": total[k]} for k in self_]}))
