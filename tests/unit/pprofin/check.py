#!/usr/bin/env python3
"""Checks of `cycprof report` on pprof input (tests/unit/pprofin/run.sh).

  check.py callgrind CYC CGFILE PBFILE OBJECT
      report on cycprof's pprof file equals report on the callgrind file of
      the same run: totals; self and inclusive cost of every named function
      of OBJECT; self cost per source line of OBJECT.
  check.py pprof CYC PBFILE...
      report (several files: merged) equals `go tool pprof` on the same
      files, for every sample type: totals (-raw), flat and cum per
      function (-top), flat per line (-top -lines).
Prints one line per failed comparison and exits 1 if any failed.
"""
import collections, json, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import cyc  # noqa: E402

bad = []


def eq(what, want, got):
    if want != got:
        bad.append("%s: want %r, got %r" % (what, want, got))


def report(c, files, *args):
    out = subprocess.run([c, "report", "--format=json", "-n", "0", "--threshold=0"]
                         + list(args) + list(files), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("cycprof report %s failed: %s" % (" ".join(args), out.stderr.strip()))
    return json.loads(out.stdout)


UNNAMED = re.compile(r"(0x|\S+\+0x)[0-9a-f]+$")


def by_function(doc, ev, obj=None):
    res = collections.Counter()
    for r in doc["rows"]:
        if obj is None or r["object"] == obj:
            res[r["function"]] += r["costs"][ev]
    return res


def by_line(doc, ev, obj=None):
    res = collections.Counter()
    for r in doc["rows"]:
        if obj is None or r["object"] == obj:
            key = (os.path.basename(r["file"]), r["line"]) if r["line"] else (None, 0)
            res[key] += r["costs"][ev]
    return res


def nonzero(c):
    return {k: v for k, v in c.items() if v}


def check_callgrind(c, cg, pb, obj):
    for args in ([], ["--inclusive"]):
        a, b = report(c, [cg], *args), report(c, [pb], *args)
        eq("total", a["totals"]["Ir"], b["totals"]["instructions"])
        # Code without a symbol ("0x<address>", "<object>+0x<offset>") is
        # left out: the two files may place it (PLT stubs) in different
        # objects.
        fa = {k: v for k, v in by_function(a, "Ir", obj).items() if not UNNAMED.match(k)}
        fb = {k: v for k, v in by_function(b, "instructions", obj).items() if not UNNAMED.match(k)}
        if len(fa) < 4:
            bad.append("only %d named functions of %s in the callgrind file" % (len(fa), obj))
        eq("%s cost per function of %s" % ("inclusive" if args else "self", obj), fa, fb)
    # Lines with a number only: code without line info is where the two
    # files may place unnamed code (PLT stubs) in different objects.
    a, b = report(c, [cg], "--by=line"), report(c, [pb], "--by=line")
    la, lb = by_line(a, "Ir", obj), by_line(b, "instructions", obj)
    del la[(None, 0)], lb[(None, 0)]
    if len(nonzero(la)) < 4:
        bad.append("only %d source lines of %s with a cost" % (len(nonzero(la)), obj))
    eq("self cost per line of %s" % obj, nonzero(la), nonzero(lb))


def gopprof(args, files):
    rc, out, err = cyc.run(["go", "tool", "pprof", "-symbolize=none"] + list(args) + list(files))
    if rc != 0:
        raise SystemExit("go tool pprof %s failed: %s" % (" ".join(args), err.strip()[-300:]))
    return out


def raw_totals(files):
    """Sum of every sample's values per sample type, from `go tool pprof -raw`
    (several files: pprof merges them first)."""
    out = gopprof(["-raw"], files)
    types, tot, section = None, None, None
    for line in out.splitlines():
        if line.startswith("Samples:"):
            section = "s"
            continue
        if line.startswith("Locations"):
            break
        if section == "s" and types is None:
            types = [t.split("/")[0] for t in line.split()]
            tot = [0] * len(types)
            continue
        m = re.match(r"^\s*(-?\d+(?:\s+-?\d+)*):(?:\s|$)", line) if section == "s" else None
        if m:
            for i, v in enumerate(m.group(1).split()):
                tot[i] += int(v)
    return dict(zip(types, tot))


def top(files, *args):
    """flat and cum per function, pprof -top over the (merged) files;
    " (inline)" is pprof's mark, not part of the name."""
    flat, cum = collections.Counter(), collections.Counter()
    for line in cyc.pprof_top_rows(files, ["-nodecount=1000000"] + list(args)):
        m = re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.*?)( \(inline\))?$", line)
        if not m:
            raise SystemExit("unparsable -top line %r" % line)
        flat[m.group(3)] += cyc.value_int(m.group(1))
        cum[m.group(3)] += cyc.value_int(m.group(2))
    return nonzero(flat), cum


def lines(files, *args):
    """flat per (file basename, line), pprof -top -lines over the (merged) files."""
    return nonzero(cyc.pprof_lines(files, *args))


def check_pprof(c, files):
    totals = raw_totals(files)
    units = {}
    out = gopprof(["-raw"], files)
    for t in out.splitlines()[out.splitlines().index("Samples:") + 1].split():
        units[t.split("/")[0]] = t.split("/")[1]
    self_doc, incl_doc = report(c, files), report(c, files, "--inclusive")
    line_doc = report(c, files, "--by=line")
    eq("totals", totals, self_doc["totals"])
    for ev in self_doc["events"]:
        args = ["-sample_index=" + ev] + (["-unit=ns"] if units[ev] == "nanoseconds" else [])
        flat, cum = top(files, *args)
        eq("self per function (%s)" % ev, flat, nonzero(by_function(self_doc, ev)))
        got = by_function(incl_doc, ev)
        eq("inclusive per function (%s)" % ev, {k: cum[k] for k in got}, dict(got))
        eq("self per line (%s)" % ev, lines(files, *args), nonzero(by_line(line_doc, ev)))


def main():
    if sys.argv[1] == "callgrind":
        check_callgrind(*sys.argv[2:6])
    else:
        check_pprof(sys.argv[2], sys.argv[3:])
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
