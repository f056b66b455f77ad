#!/usr/bin/env python3
"""Per-stack deltas known by construction, and checks of what cycprof says
against them (tests/unit/difffg/run.sh).

Expectations (written as JSON {"anchor", "stacks": {"a;b;c": delta},
"total": delta}; a key is a stack's frames from its first ANCHOR frame on,
root first; every stack not named must not change):
  deltas.py expect-cg BASE.cg NEW.cg      prog.c's two builds, from their
      cachegrind files: the only functions whose self cost may differ are
      b (its one more call) and extra (new in NEW); prog.c calls b from
      main only and extra from b only, so stack main;b changes by b's self
      delta and main;b;extra by extra's, and nothing else changes
  deltas.py expect-risc0 BASE.txt NEW.txt  two mkrisc0.py descriptions:
      each sample line is one stack (leaf first) and its count
  deltas.py expect-pprof BASE NEW         two pprof files as `go tool
      pprof -raw` reads them (for Go's CPU profiles, whose two runs differ
      by sampling): each side's stacks and their default values
What cycprof says, checked against an expectation (exit 1 and one line
per problem when they differ):
  deltas.py json EXPECT DIFF.json         `cycprof diff --by=stack --format=json`
  deltas.py text EXPECT DIFF.txt          the same as text
  deltas.py page EXPECT DOM.html          a differential flame graph's
      boxes as its page showed them (readback.js, in the DOM Chromium
      dumped): each box's change must be the sum of the expected deltas of
      the stacks through it, and every changed stack must have a box
  deltas.py search DOM.html               what the page's search said
  deltas.py root DOM.html                 what the root box of a plain
      flame graph showed
"""
import collections
import html
import json
import os
import re
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "lib"))
import cyc  # noqa: E402


def expect_cg(base, new):
    fb, tb = cyc.cg_functions(base)
    fn, tn = cyc.cg_functions(new)
    changed = sorted(f for f in set(fb) | set(fn) if fb.get(f, 0) != fn.get(f, 0))
    if changed != ["b", "extra"]:
        sys.exit("setup: cachegrind's self costs differ in %s, not just b and extra" % changed)
    return {"anchor": "main",
            "stacks": {"main;b": fn["b"] - fb["b"], "main;b;extra": fn["extra"] - fb["extra"]},
            "total": tn - tb, "new_total": tn}


def risc0_stacks(path):
    st = collections.Counter()
    for line in open(path):
        m = re.match(r"^(\d+) (\S+)$", line.strip())
        if m:
            st[";".join(reversed(m.group(2).split(";")))] += int(m.group(1))
    return st


def expect_risc0(base, new):
    b, n = risc0_stacks(base), risc0_stacks(new)
    d = {k: n[k] - b[k] for k in set(b) | set(n) if n[k] != b[k]}
    return {"anchor": None, "stacks": d, "total": sum(n.values()) - sum(b.values())}


def pprof_stacks(pb):
    """Per stack (root first, inlined frames expanded) the sum of the
    value pprof shows by default, as `go tool pprof -raw` prints them."""
    out, _ = cyc.pprof(["-raw"], pb)
    lines = out.splitlines()
    locs = cyc.pprof_raw_locations(lines)
    st, types, section = collections.Counter(), None, None
    for line in lines:
        if line.startswith("Samples:"):
            section = "samples"
        elif line.startswith("Locations"):
            break
        elif section and types is None:
            types = line.split()
        elif section:
            m = re.match(r"^\s*((?:-?\d+\s*)+):\s((?:\d+\s*)*)$", line)
            if not m:
                continue
            vals = [int(x) for x in m.group(1).split()]
            dflt = [i for i, t in enumerate(types) if t.endswith("[dflt]")]
            frames = []
            for loc in m.group(2).split():
                frames += [f[0] for f in locs.get(int(loc), [])] or ["??"]
            st[";".join(reversed(frames))] += vals[dflt[0] if dflt else -1]
    return st


def expect_pprof(base, new):
    b, n = pprof_stacks(base), pprof_stacks(new)
    d = {k: n[k] - b[k] for k in set(b) | set(n) if n[k] != b[k]}
    return {"anchor": None, "stacks": d, "total": sum(n.values()) - sum(b.values())}


def key(frames, anchor):
    if anchor and anchor in frames:
        frames = frames[frames.index(anchor):]
    return ";".join(frames)


def check_stacks(exp, rows, total):
    """rows: [(frames, delta)] of the changed stacks cycprof listed."""
    errs = []
    got = collections.Counter()
    seen = collections.Counter()
    for frames, delta in rows:
        got[key(frames, exp["anchor"])] += delta
        seen[";".join(frames)] += 1
    # A stack listed twice (gone, and new under the same names) is one
    # whose frames were not matched.
    for k, n in sorted(seen.items()):
        if n > 1:
            errs.append("stack %s listed %d times (frames not matched)" % (k, n))
    want = exp["stacks"]
    for k in sorted(set(got) | set(want)):
        if got.get(k, 0) != want.get(k, 0):
            errs.append("stack %s: delta %s, want %s" % (k, got.get(k, 0), want.get(k, 0)))
    if total != exp["total"]:
        errs.append("total delta %s, want %s" % (total, exp["total"]))
    return errs


def from_json(path):
    d = json.load(open(path))
    if d["omitted"]:
        sys.exit("%s: %d changes not listed (use -n 0)" % (path, d["omitted"]))
    return [(r["frames"], r["delta"]) for r in d["rows"]], d["total"]["delta"]


def signed(s):
    return int(s.replace(",", ""))


def from_text(path):
    """The text table: a row is a delta, change, base, new and the leaf,
    then one "<- CALLER" line per caller, and "(base: ...)" when BASE
    named the frames otherwise."""
    rows, total, table = [], None, False
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^Total .*  ([+-][\d,]+|0) \(", line)
        if m:
            total = signed(m.group(1))
        if re.match(r"^ *delta +change +base +new +stack", line):
            table = True
            continue
        if not table:
            continue
        if not line.strip():
            table = False
        elif line.startswith("("):
            sys.exit("%s: changes not listed: %s" % (path, line))
        elif re.match(r"^ +<- ", line):
            rows[-1][0].insert(0, line.split("<- ", 1)[1])
        elif re.match(r"^ +\(base: ", line):
            continue
        else:
            f = re.split(r"  +", line.strip(), maxsplit=4)
            rows.append(([f[4]], signed(f[0])))
    return rows, total


SHOWN = re.compile(r"^(.*): ([\d,]+) -> ([\d,]+) \S+ \(([+-]?[\d,]+), [^)]*\)$")


def page_boxes(path):
    """The boxes readback.js read from the page in the DOM Chromium dumped:
    per box its view, its frames from the root (by the boxes' spans, one
    depth below the other) and the numbers its details line showed."""
    dom = open(path, errors="replace").read()
    m = re.search(r'data-readback="([^"]*)"', dom)
    if not m:
        sys.exit("%s: no data-readback: the page's script did not run" % path)
    rb = json.loads(urllib.parse.unquote(html.unescape(m.group(1))))
    boxes = []
    for v in rb["views"]:
        by_depth = collections.defaultdict(list)
        if v["side"] == "plain":
            return v["boxes"], rb["search"]
        # The page's toggle showed this view, and now offers the other.
        other = {"new": "Show BASE's shape", "base": "Show NEW's shape"}[v["side"]]
        if not v["visible"] or v["toggle"] != other:
            sys.exit("%s: the toggle did not show %s's shape (control reads %r)"
                     % (path, v["side"].upper(), v["toggle"]))
        for b in v["boxes"]:
            m = SHOWN.match(b["shown"])
            if not m:
                sys.exit("%s: a box shows %r" % (path, b["shown"]))
            b.update(name=m.group(1), base=signed(m.group(2)), new=signed(m.group(3)),
                     delta=signed(m.group(4)), view=v["side"])
            by_depth[b["d"]].append(b)
        for d in sorted(by_depth):
            for b in by_depth[d]:
                if d == 0:
                    b["frames"] = []
                    continue
                up = [p for p in by_depth[d - 1] if p["s"] <= b["s"] and b["s"] + b["n"] <= p["s"] + p["n"]]
                if len(up) != 1:
                    sys.exit("%s: box %s at depth %d has %d parents" % (path, b["name"], d, len(up)))
                b["frames"] = up[0]["frames"] + [b["name"]]
            boxes += by_depth[d]
    return boxes, rb["search"]


def check_page(exp, path):
    """Each box's change is the sum of the expected deltas of its stacks,
    and every changed stack has a box (a gone one in BASE's shape)."""
    boxes, _ = page_boxes(path)
    errs = []
    anchor = exp["anchor"]
    # Boxes above the anchor: those on the way to an anchored box.
    above = set()
    for b in boxes:
        fr = b["frames"]
        if anchor in fr:
            i = fr.index(anchor)
            for j in range(i):
                above.add(tuple(fr[:j + 1]))
    for b in boxes:
        fr = b["frames"]
        if not fr:
            want = exp["total"]
        elif anchor and anchor in fr:
            pre = fr[fr.index(anchor):]
            want = sum(v for k, v in exp["stacks"].items()
                       if k.split(";")[:len(pre)] == pre)
        elif anchor and tuple(fr) in above:
            want = sum(exp["stacks"].values())
        elif not anchor:
            want = sum(v for k, v in exp["stacks"].items()
                       if k.split(";")[:len(fr)] == fr)
        else:
            want = 0
        if b["delta"] != want or b["new"] - b["base"] != b["delta"]:
            errs.append("box %s (%s's shape): %d -> %d, delta %d, want delta %d"
                        % (";".join(fr) or "all", b["view"], b["base"], b["new"],
                           b["delta"], want))
    have = set(key(b["frames"], anchor) for b in boxes)
    for k in exp["stacks"]:
        if k not in have:
            errs.append("no box for the changed stack %s" % k)
    return errs


def main():
    mode = sys.argv[1]
    if mode == "search":
        print(json.dumps(page_boxes(sys.argv[2])[1]))
        return 0
    if mode == "root":
        print([b["shown"] for b in page_boxes(sys.argv[2])[0] if b["d"] == 0][0])
        return 0
    if mode.startswith("expect-"):
        f = {"expect-cg": expect_cg, "expect-risc0": expect_risc0,
             "expect-pprof": expect_pprof}[mode]
        json.dump(f(sys.argv[2], sys.argv[3]), sys.stdout, sort_keys=True)
        return 0
    try:
        return check(mode, json.load(open(sys.argv[2])), sys.argv[3])
    except (ValueError, KeyError, IndexError, TypeError) as e:
        print("%s: cannot read: %s: %s" % (sys.argv[3], type(e).__name__, e))
        return 1


def check(mode, exp, path):
    if mode == "page":
        errs = check_page(exp, path)
        if not errs:
            n = sum(1 for b in page_boxes(path)[0] if b["delta"])
            print("%d boxes changed, as expected" % n)
            return 0
    else:
        rows, total = (from_json if mode == "json" else from_text)(path)
        errs = check_stacks(exp, rows, total)
    if errs:
        print("; ".join(errs[:5]) + ("; ..." if len(errs) > 5 else ""))
        return 1
    if not exp["stacks"]:
        print("no stack changed")
    elif len(exp["stacks"]) > 4:
        print("%d stacks changed, total %+d" % (len(exp["stacks"]), exp["total"]))
    else:
        print(", ".join("%s %+d" % (k, v) for k, v in sorted(exp["stacks"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
