#!/usr/bin/env python3
"""Turns `go tool pprof` text output into lines that tests can compare.

usage: pprofout.py traces   < `go tool pprof -traces` output
         one line per trace, sorted: "LABELS VALUE frame;frame;..." (leaf
         first, LABELS like "thread=1", "-" when none)
       pprofout.py top      < `go tool pprof -top` output
         one line per row: "FLAT CUM NAME"
       pprofout.py raw-samples < `go tool pprof -raw` output
         one line per sample: "VALUE NLOCATIONS LABELS"
"""
import re
import sys


def traces(text):
    out = []
    for block in re.split(r"^-+\+-+$", text, flags=re.M)[1:]:
        labels, value, frames = [], None, []
        for line in block.splitlines():
            if not line.strip():
                continue
            if value is None:
                m = re.match(r"^\s+(\d+)   (.*)$", line)
                if m:
                    value, frames = m.group(1), [m.group(2).strip()]
                    continue
                m = re.match(r"^\s+(\S+):\s+(.*)$", line)
                if m:
                    labels.append("%s=%s" % (m.group(1), m.group(2).strip()))
                    continue
                raise SystemExit("unparsed line: %r" % line)
            frames.append(line.strip())
        if value is not None:
            out.append("%s %s %s" % (",".join(labels) or "-", value, ";".join(frames)))
    return sorted(out)


def top(text):
    out = []
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+)\s+\S+%\s+\S+%\s+(\d+)\s+\S+%\s+(.*)$", line)
        if m:
            out.append("%s %s %s" % (m.group(1), m.group(2), m.group(3)))
    return out


def raw_samples(text):
    out, cur = [], None
    in_samples = False
    for line in text.splitlines():
        if line.startswith("Samples:"):
            in_samples = True
            continue
        if line.startswith("Locations"):
            break
        if not in_samples:
            continue
        m = re.match(r"^\s+(\d+): ((?:\d+ )*)$", line)
        if m:
            cur = [m.group(1), str(len(m.group(2).split())), []]
            out.append(cur)
            continue
        m = re.match(r"^\s+(\S+):\[(.*)\]$", line)
        if m and cur:
            cur[2].append("%s=%s" % (m.group(1), m.group(2)))
    return ["%s %s %s" % (v, n, ",".join(l) or "-") for v, n, l in out]


def main():
    text = sys.stdin.read()
    fn = {"traces": traces, "top": top, "raw-samples": raw_samples}[sys.argv[1]]
    for line in fn(text):
        print(line)


if __name__ == "__main__":
    main()
