"""Readers for the region checks: the region table the tool prints in its
log (what is under test), and callgrind's own file (the oracle)."""
import os
import re


def region_table(log):
    """{name: (calls, inclusive, self)} from the 'Regions' table of a log."""
    rows = {}
    seen = False
    if not os.path.exists(log):
        return None
    for line in open(log, errors="replace"):
        line = re.sub(r"^==\d+== ?", "", line.rstrip("\n"))
        if line.startswith("Regions ("):
            seen = True
            continue
        if not seen:
            continue
        m = re.match(r"^(\S.*?)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+[\d.]+$", line)
        if m and m.group(1) != "region":
            rows[m.group(1)] = tuple(int(m.group(i).replace(",", "")) for i in (2, 3, 4))
    return rows if seen else None


def warnings(log):
    return [l for l in open(log, errors="replace") if "cycprof: warning" in l]
