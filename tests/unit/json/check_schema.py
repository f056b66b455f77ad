#!/usr/bin/env python3
"""Validates a `cycprof report|diff --format=json` document against the
schema written in docs/cli/json.md. Usage: check_schema.py report|diff FILE.
Prints nothing and exits 0 if valid, else one line per problem, exit 1."""
import json
import sys

problems = []


def need(obj, key, types, where, nullable=False):
    if key not in obj:
        problems.append("%s: missing '%s'" % (where, key))
        return None
    v = obj[key]
    if v is None and nullable:
        return None
    # bool is an int in Python: keep them apart.
    if isinstance(v, bool) and bool not in types:
        problems.append("%s.%s: boolean, want %s" % (where, key, types))
    elif not isinstance(v, types):
        problems.append("%s.%s: %s, want %s" % (where, key, type(v).__name__, types))
    return v


def count(obj, key, where):
    v = need(obj, key, (int,), where)
    if isinstance(v, int) and not isinstance(v, bool) and not 0 <= v < 2**64:
        problems.append("%s.%s: %d is not a count" % (where, key, v))
    return v


BY = {"function", "file", "line", "object"}


def row_name(r, by, where):
    need(r, "label", (str,), where)
    need(r, "object", (str,), where)
    if by != "object":
        need(r, "file", (str,), where)
    if by in ("function", "line"):
        need(r, "function", (str,), where)
    if by == "line":
        count(r, "line", where)
        n = count(r, "functions", where)
        if isinstance(n, int) and n < 1:
            problems.append("%s.functions: %d" % (where, n))


def frames(c, key, where):
    fr = need(c, key, (list,), where) or []
    if not fr or not all(isinstance(f, str) and f for f in fr):
        problems.append("%s.%s: want non-empty strings" % (where, key))
    return fr


def stack_name(c, where):
    fr = frames(c, "frames", where)
    if need(c, "label", (str,), where) != ";".join(fr):
        problems.append("%s.label: not the frames joined by ';'" % where)
    if "base_frames" in c:
        frames(c, "base_frames", where)


def change(c, where, named, by):
    if named and by == "stack":
        stack_name(c, where)
    elif named:
        row_name(c, by, where)
        if "base_label" in c:
            need(c, "base_label", (str,), where)
    b = count(c, "base", where)
    n = count(c, "new", where)
    d = need(c, "delta", (int,), where)
    pct = need(c, "change_pct", (int, float), where, nullable=True)
    st = need(c, "status", (str,), where)
    if None in (b, n, d, st):
        return
    if d != n - b:
        problems.append("%s: delta %d != new - base %d" % (where, d, n - b))
    want = ("unchanged" if n == b else "new" if b == 0 else "gone" if n == 0
            else "grew" if n > b else "shrank")
    if st != want:
        problems.append("%s: status %s, want %s" % (where, st, want))
    if b == 0 and pct is not None:
        problems.append("%s: change_pct must be null when base is 0" % where)
    if b and (pct is None or abs(pct - (n - b) * 100.0 / b) > 1e-4 * max(1, abs(pct))):
        problems.append("%s: change_pct %r, want %r" % (where, pct, (n - b) * 100.0 / b))


def check_report(doc):
    if need(doc, "schema", (str,), "$") != "cycprof-report/1":
        problems.append("$.schema: %r" % doc.get("schema"))
    need(doc, "command", (str,), "$", nullable=True)
    files = need(doc, "files", (list,), "$") or []
    if not files or not all(isinstance(f, str) for f in files):
        problems.append("$.files: want non-empty strings")
    count(doc, "omitted", "$")
    by = need(doc, "by", (str,), "$")
    if by == "stack":
        need(doc, "unit", (str,), "$")
        total = count(doc, "total", "$")
        stacks = need(doc, "stacks", (list,), "$") or []
        s = 0
        for i, st in enumerate(stacks):
            w = "$.stacks[%d]" % i
            s += count(st, "count", w) or 0
            fr = need(st, "frames", (list,), w) or []
            if not fr or not all(isinstance(f, str) for f in fr):
                problems.append("%s.frames: want non-empty strings" % w)
        if isinstance(total, int) and s > total:
            problems.append("$: stacks add up to %d > total %d" % (s, total))
        return
    if by not in BY:
        problems.append("$.by: %r" % by)
        return
    events = need(doc, "events", (list,), "$") or []
    sort = need(doc, "sort", (list,), "$") or []
    if not events or not all(isinstance(e, str) for e in events):
        problems.append("$.events: want non-empty strings")
    if not sort or any(e not in events for e in sort):
        problems.append("$.sort: %r not among events" % (sort,))
    need(doc, "inclusive", (bool,), "$")
    totals = need(doc, "totals", (dict,), "$") or {}
    if sorted(totals) != sorted(events):
        problems.append("$.totals: keys %r, want the events" % sorted(totals))
    for e in totals:
        count(totals, e, "$.totals")
    rows = need(doc, "rows", (list,), "$") or []
    prev = None
    for i, r in enumerate(rows):
        w = "$.rows[%d]" % i
        row_name(r, by, w)
        costs = need(r, "costs", (dict,), w) or {}
        if sorted(costs) != sorted(events):
            problems.append("%s.costs: keys %r" % (w, sorted(costs)))
        for e in costs:
            count(costs, e, w + ".costs")
        key = tuple(costs.get(e, 0) for e in sort)
        if prev is not None and key > prev:
            problems.append("%s: not in descending order of %r" % (w, sort))
        prev = key
        if not doc["inclusive"]:
            for e in events:
                if costs.get(e, 0) > totals.get(e, 0):
                    problems.append("%s: %s above the total" % (w, e))


def check_diff(doc):
    if need(doc, "schema", (str,), "$") != "cycprof-diff/1":
        problems.append("$.schema: %r" % doc.get("schema"))
    for side in ("base", "new"):
        s = need(doc, side, (dict,), "$") or {}
        need(s, "file", (str,), "$." + side)
        need(s, "command", (str,), "$." + side, nullable=True)
        need(s, "deterministic", (str,), "$." + side, nullable=True)
    need(doc, "event", (str,), "$")
    by = need(doc, "by", (str,), "$")
    if by not in BY and by != "stack":
        problems.append("$.by: %r" % by)
    if need(doc, "inclusive", (bool,), "$") and by == "stack":
        problems.append("$.inclusive: true with by stack")
    # The matching rules, in the order they apply: --mod-filename,
    # --mod-funcname, then the common source root.
    order = {"mod-filename": 0, "mod-funcname": 1, "common-root": 2}
    last = -1
    for i, m in enumerate(need(doc, "matched_by", (list,), "$") or []):
        w = "$.matched_by[%d]" % i
        if not isinstance(m, dict):
            problems.append("%s: not an object" % w)
            continue
        rule = need(m, "rule", (str,), w)
        if rule not in order:
            problems.append("%s.rule: %r" % (w, rule))
            continue
        if order[rule] < last:
            problems.append("%s: %s out of order" % (w, rule))
        last = order[rule]
        if rule == "common-root":
            need(m, "base", (str,), w)
            need(m, "new", (str,), w)
            count(m, "files", w)
        else:
            need(m, "expr", (str,), w)
    change(need(doc, "total", (dict,), "$") or {}, "$.total", False, by)
    rows = need(doc, "rows", (list,), "$") or []
    prev = None
    for i, c in enumerate(rows):
        change(c, "$.rows[%d]" % i, True, by)
        m = abs(c.get("delta", 0))
        if prev is not None and m > prev:
            problems.append("$.rows[%d]: not largest change first" % i)
        if c.get("status") == "unchanged":
            problems.append("$.rows[%d]: an unchanged row is listed" % i)
        prev = m
    count(doc, "omitted", "$")
    regions = need(doc, "regions", (list,), "$") or []
    for i, c in enumerate(regions):
        need(c, "region", (str,), "$.regions[%d]" % i)
        change(c, "$.regions[%d]" % i, False, by)
        if c.get("status") == "unchanged":
            problems.append("$.regions[%d]: an unchanged region is listed" % i)
    g = need(doc, "gate", (dict,), "$") or {}
    fa = need(g, "fail_above_pct", (int, float), "$.gate", nullable=True)
    mc = count(g, "min_change", "$.gate")
    v = need(g, "verdict", (str,), "$.gate")
    tt = need(g, "total_tripped", (bool,), "$.gate")
    tr = need(g, "tripped", (list,), "$.gate") or []
    for i, c in enumerate(tr):
        change(c, "$.gate.tripped[%d]" % i, True, by)
        if c not in rows:
            problems.append("$.gate.tripped[%d]: not among the listed rows" % i)
    trr = need(g, "tripped_regions", (list,), "$.gate") or []
    for i, c in enumerate(trr):
        if c not in regions:
            problems.append("$.gate.tripped_regions[%d]: not among the regions" % i)
    # The verdict follows from the numbers (docs/cli/json.md, diff.md).
    def trips(c):
        b, n = c.get("base", 0), c.get("new", 0)
        return (fa is not None and n > b and n - b >= (mc or 0) and
                (b == 0 or (n - b) * 100.0 / b > fa))
    if fa is None:
        if v != "off" or tt or tr or trr:
            problems.append("$.gate: no --fail-above, want verdict off")
    else:
        want_rows = [c for c in rows if trips(c)]
        if tr != want_rows:
            problems.append("$.gate.tripped: %d rows, want %d" % (len(tr), len(want_rows)))
        if tt != trips(doc.get("total", {})):
            problems.append("$.gate.total_tripped: %r is wrong" % tt)
        want_regions = [c for c in regions if trips(c)]
        if trr != want_regions:
            problems.append("$.gate.tripped_regions: %d regions, want %d" % (len(trr), len(want_regions)))
        want_v = "fail" if (tt or tr or trr) else "pass"
        if v != want_v:
            problems.append("$.gate.verdict: %r, want %r" % (v, want_v))


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        raw = f.read()
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        print("%s: not JSON: %s" % (path, e))
        return 1
    if not isinstance(doc, dict):
        print("%s: top level is not an object" % path)
        return 1
    (check_report if kind == "report" else check_diff)(doc)
    for p in problems[:10]:
        print("%s: %s" % (path, p))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
