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
What cycprof says, checked against an expectation (exit 1 and one line
per problem when they differ):
  deltas.py json EXPECT DIFF.json         `cycprof diff --by=stack --format=json`
  deltas.py text EXPECT DIFF.txt          the same as text
  deltas.py page EXPECT PAGE.json         a differential flame graph's
      boxes as its page showed them (readback.js): per box its frames from
      the root, base and new; each box's change must be the sum of the
      expected deltas of the stacks through it
"""
import collections
import json
import os
import re
import sys

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
            "total": tn - tb}


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


def key(frames, anchor):
    if anchor and anchor in frames:
        frames = frames[frames.index(anchor):]
    return ";".join(frames)


def check_stacks(exp, rows, total):
    """rows: [(frames, delta)] of the changed stacks cycprof listed."""
    errs = []
    got = collections.Counter()
    for frames, delta in rows:
        got[key(frames, exp["anchor"])] += delta
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
    rows, total, table = [], None, False
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^Total .*  ([+-][\d,]+|0) \(", line)
        if m:
            total = signed(m.group(1))
        if re.match(r"^ *delta +change +base +new +stack", line):
            table = True
            continue
        if table and line.strip():
            if line.startswith("("):
                sys.exit("%s: changes not listed: %s" % (path, line))
            f = re.split(r"  +", line.strip(), maxsplit=4)
            rows.append((f[4].split(";"), signed(f[0])))
        elif table:
            table = False
    return rows, total


def check_page(exp, path):
    """Each box's change is the sum of the expected deltas of its stacks."""
    page = json.load(open(path))
    errs = []
    boxes = page["boxes"]
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
        got = b["new"] - b["base"]
        if got != want or b.get("delta", got) != got:
            errs.append("box %s (%s view): base %d new %d delta %s, want delta %d"
                        % (";".join(fr) or "all", b["view"], b["base"], b["new"],
                           b.get("delta"), want))
    return errs


def main():
    mode = sys.argv[1]
    if mode in ("expect-cg", "expect-risc0"):
        f = expect_cg if mode == "expect-cg" else expect_risc0
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
    else:
        rows, total = (from_json if mode == "json" else from_text)(path)
        errs = check_stacks(exp, rows, total)
    if errs:
        print("; ".join(errs[:5]) + ("; ..." if len(errs) > 5 else ""))
        return 1
    print(", ".join("%s %+d" % (k, v) for k, v in sorted(exp["stacks"].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
