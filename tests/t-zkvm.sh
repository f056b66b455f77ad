# Z. The zkVM model (docs/zkvm.md): --zk-model and --zk-segment-po2.
# shellcheck shell=bash

# zk_refused NAME OPTIONS...: the tool stops before the program with a
# non-zero exit and a message naming NAME.
zk_refused() {
    local name=$1 rc
    shift
    vg --tool=cycprof --pprof=no "$@" /bin/true >out.txt 2>err.txt
    rc=$?
    [ $rc -ne 0 ] || note "$* was accepted (exit 0)"
    grep -q -- "$name" err.txt out.txt || note "$*: no message naming $name"
}

# Bad values are refused as other options' are; RISC Zero's range is
# risc0-zkp's MIN_CYCLES_PO2 13 to MAX_CYCLES_PO2 24.
t_zkvm_options() {
    need_tool
    zk_refused --zk-model --zk-model=sp1
    zk_refused --zk-model --zk-model=
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=12
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=25
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=x
    zk_refused --zk-segment-po2 --zk-segment-po2=20
    local o
    for o in "--zk-model=none" "--zk-model=risc0" "--zk-model=risc0 --zk-segment-po2=13" \
        "--zk-model=risc0 --zk-segment-po2=24"; do
        # shellcheck disable=SC2086
        vg --tool=cycprof --pprof=no --cycprof-out-file="$PWD/ok.out" $o /bin/true \
            >out.txt 2>&1 || note "$o was refused: $(tail -n 2 out.txt | tr '\n' ' ')"
    done
}
register zkvm-options t_zkvm_options

# zk_prog: builds tests/progs/zkpages.c into $BIN once.
zk_prog() {
    _locked prog-zkpages gcc -O1 -g -fno-inline -fno-optimize-sibling-calls \
        -o "$BIN/zkpages" "$TESTS_DIR/progs/zkpages.c" >"$W/cache/prog-zkpages.log" 2>&1
    [ -x "$BIN/zkpages" ] || fail "cannot build zkpages: $(head -n 3 "$W/cache/prog-zkpages.log")"
}

# zk_run NAME PO2 K W R S: the tool with the model on zkpages; the log in
# NAME.log, the callgrind file in NAME.
zk_run() {
    local name=$1 po2=$2
    shift 2
    cycprof "$PWD/$name" "$PWD/$name.log" --pprof=no --zk-model=risc0 \
        --zk-segment-po2="$po2" -- "$BIN/zkpages" "$@" >"$name.stdout" 2>&1 </dev/null
    echo $? >"$name.rc"
    check_run "$name" cg
}

# The rules of docs/zkvm.md (RISC Zero 3.0.5's pager.rs), written again
# here: the pages of the 64 KiB run are pages 0..63 of a subtree of 6
# levels whose ancestors above are loaded and dirty (page 0, read and
# written in every run, made them so).
ZK_RULES='
PAGE, NODE = 322, 13
def run_cost(events):
    """Paging of events [(page, write)] in the 64-page subtree."""
    loaded, dirty = set(), set()
    def mark(marked, p):
        """The page, then each ancestor not yet in marked (page-in with
        the loaded set, page-out with the dirty one)."""
        if ("p", p) in marked:
            return 0
        marked.add(("p", p))
        cost = PAGE
        for n in [(lvl, p >> lvl) for lvl in range(1, 7)]:
            if n not in marked:
                marked.add(n)
                cost += NODE
        return cost
    cost = 0
    for p, write in events:
        cost += mark(loaded, p)
        if write:
            cost += mark(dirty, p)
    return cost
def events(k, w, r, s):
    ev = []
    for _ in range(r):
        ev += [(j, False) for j in range(k)] + [(j, True) for j in range(w)]
    if s:
        ev += [(1, True), (2, True)]
    return ev
'

# The segment table of a log: [(po2, user, paging, reserved, padding)].
ZK_TABLE='
import re
def segments(log):
    rows = []
    for line in open(log):
        m = re.match(r"==\d+== zkVM +\d+ +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", line)
        if m:
            rows.append(tuple(int(x) for x in m.groups()))
    return rows
'

# The callgrind file's Zk column: {(caller function, callee): inclusive
# Zk of the call lines}, read here with name compression undone.
ZK_CALLS='
import re
def zk_calls(path):
    names, cur, callee, out, after_calls = {}, None, None, {}, False
    def name(v):
        m = re.match(r"\((\d+)\)(?: (.*))?$", v)
        if not m:
            return v
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), v)
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("fn="):
            cur = name(line[3:])
        elif line.startswith("cfn="):
            callee = name(line[4:])
        elif line.startswith("calls="):
            after_calls = True
        elif after_calls and line and line[0].isdigit():
            cost = [int(x) for x in line.split()[1:]]
            key = (cur, callee)
            out[key] = out.get(key, 0) + (cost[1] if len(cost) > 1 else 0)
            after_calls = False
    return out
'

# K fresh pages read, then W of them written, in one segment; the same
# pages touched again; an 8-byte store across two pages.  Each run is
# measured against the run that touches page 0 only: everything else
# (start-up, code, stack) is the same in both.
t_zkvm_pages() {
    need_tool
    zk_prog
    zk_run base 24 01 01 01 0
    zk_run read 24 48 01 01 0
    zk_run write 24 48 20 01 0
    zk_run again 24 48 20 02 0
    zk_run span 24 01 01 01 1
    pycheck "$ZK_RULES$ZK_TABLE$ZK_CALLS" <<'PY' || true
import sys
from cyc import *
exec(sys.argv[1])
C = Checker()
runs = {"base": (1, 1, 1, 0), "read": (48, 1, 1, 0), "write": (48, 20, 1, 0),
        "again": (48, 20, 2, 0), "span": (1, 1, 1, 1)}
seg = {name: segments(name + ".log") for name in runs}
for name, rows in seg.items():
    C.eq("%s: segments at po2 24" % name, 1, len(rows))
if all(len(rows) == 1 for rows in seg.values()):
    base_paging = seg["base"][0][2]
    base_rule = run_cost(events(*runs["base"]))
    for name in ("read", "write", "again", "span"):
        want = run_cost(events(*runs[name])) - base_rule
        C.eq("%s: paging beyond the base run's (K, W, R, S = %s)" % (name, runs[name]),
             want, seg[name][0][2] - base_paging)
    # by hand: 47 page-ins of 322 plus 13 per trailing zero of j = 15680,
    # and 19 page-outs likewise = 6326; the span: 322+322 + 335+335.
    C.eq("read: the sum by hand", 15680, seg["read"][0][2] - base_paging)
    C.eq("write: the sum by hand", 15680 + 6326, seg["write"][0][2] - base_paging)
    C.eq("span: the sum by hand", 1314, seg["span"][0][2] - base_paging)
# the callgrind file: Zk in all is the table's total, and the paging
# shows as [PageIn] / [PageOut] under the function that caused it
for name, rows in seg.items():
    cg = parse_callgrind(name)
    total = sum(r[1] + r[2] + r[3] + r[4] for r in rows)
    C.eq("%s: events" % name, ["Ir", "Zk"], cg.events)
    C.eq("%s: totals (Ir, Zk = the segments' cycles)" % name,
         [sum(r[1] for r in rows), total], cg.totals)
calls = {name: zk_calls(name) for name in runs}
def under(name, fn, frame):
    return calls[name].get((fn, frame), 0)
C.eq("read_pages [PageIn] beyond the base run's", 15680,
     under("read", "read_pages", "[PageIn]") - under("base", "read_pages", "[PageIn]"))
C.eq("write_pages [PageOut] beyond the base run's", 6326,
     under("write", "write_pages", "[PageOut]") - under("base", "write_pages", "[PageOut]"))
C.eq("write_pages [PageIn]: its pages were read before", 0,
     under("write", "write_pages", "[PageIn]") - under("base", "write_pages", "[PageIn]"))
C.eq("again: read_pages [PageIn] as in one pass", under("write", "read_pages", "[PageIn]"),
     under("again", "read_pages", "[PageIn]"))
C.eq("store_across [PageIn] + [PageOut]: 322+322 + 335+335", 1314,
     under("span", "store_across", "[PageIn]") + under("span", "store_across", "[PageOut]"))
C.done()
PY
}
register zkvm-pages t_zkvm_pages

# Segments at po2 14: each closed segment is 2^14 cycles with 4113
# reserved, closed once user + paging + 4113 passed 2^14 - 2000; each
# starts with 10 + 1216 paging (the system page, 22 ancestors); the last
# is padded to the next power of two; the users add up to the run's
# instructions (the callgrind file's total).
t_zkvm_segments() {
    need_tool
    zk_prog
    zk_run segs 14 48 20 40 0
    pycheck "$ZK_TABLE" <<'PY' || true
import sys
from cyc import *
exec(sys.argv[1])
C = Checker()
rows = segments("segs.log")
C.true(len(rows) >= 3, "several segments at po2 14 (got %d)" % len(rows))
for i, (po2, user, paging, reserved, padding) in enumerate(rows):
    C.eq("segment %d: reserved" % i, 4113, reserved)
    C.true(paging >= 10 + 2 * (322 + 22 * 13),
           "segment %d: paging %d below the segment start's 1226" % (i, paging))
    C.eq("segment %d: user + paging + reserved + padding" % i,
         1 << po2, user + paging + reserved + padding)
    if i < len(rows) - 1:
        C.eq("segment %d: po2" % i, 14, po2)
        C.true(user + paging + 4113 > (1 << 14) - 2000,
               "segment %d closed below the threshold: %d" % (i, user + paging + 4113))
    else:
        total = user + paging + 4113
        C.eq("last segment: po2 of the next power of two of %d" % total,
             (total - 1).bit_length(), po2)
cg = parse_callgrind("segs")
C.eq("user cycles = instructions (the callgrind file's total)", cg.totals[0] if cg.totals else None,
     sum(r[1] for r in rows))
C.done()
PY
    # cycprof report shows the same table, from the callgrind file
    "$HELPER_BIN" report segs >report.txt 2>&1 || note "cycprof report failed: $(head -n 2 report.txt)"
    grep '^zkVM' report.txt >from-report.txt
    sed -n 's/^==[0-9]*== \(zkVM.*\)$/\1/p' segs.log >from-log.txt
    [ -s from-log.txt ] || note "no segment table in the log"
    cmp -s from-log.txt from-report.txt ||
        note "cycprof report's segment table differs from the log's: $(diff from-log.txt from-report.txt | head -n 3 | tr '\n' ' ')"
}
register zkvm-segments t_zkvm_segments

# A segment closes before the first instruction at which user + paging +
# 4113 passes the threshold (2^16 - 25000 at po2 16): so where the
# instruction before that one paged nothing, the closed segment holds
# exactly threshold + 1.  zkspin's loop pages only in its segments'
# first few hundred instructions, the same pages in each segment (those
# of start-up, exit and the way between differ), so its segments all do; a close one instruction late
# gives one more.  Wherever the last instruction paged, the excess is at
# most what one instruction can page (two pages in and out, 22 ancestors).
t_zkvm_close_exact() {
    need_tool
    _locked prog-zkspin gcc -O1 -g -o "$BIN/zkspin" "$TESTS_DIR/progs/zkspin.c" \
        >"$W/cache/prog-zkspin.log" 2>&1
    [ -x "$BIN/zkspin" ] || fail "cannot build zkspin: $(head -n 3 "$W/cache/prog-zkspin.log")"
    cycprof "$PWD/spin" "$PWD/spin.log" --pprof=no --zk-model=risc0 \
        --zk-segment-po2=16 -- "$BIN/zkspin" 400000 >spin.stdout 2>&1 </dev/null
    echo $? >spin.rc
    check_run spin cg
    pycheck "$ZK_TABLE" <<'PY' || true
import sys
from cyc import *
exec(sys.argv[1])
C = Checker()
threshold = (1 << 16) - 25000
one_insn_most = 2 * 2 * (322 + 22 * 13)
closed = segments("spin.log")[:-1]
# the loop's segments: each pages the same few pages, where start-up, the
# way into the loop and exit page more (and may close on an instruction
# that paged)
pagings = [r[2] for r in closed]
usual = max(set(pagings), key=pagings.count) if pagings else None
loop = [r for r in closed if r[2] == usual]
C.true(len(loop) >= 60, "zkspin 400000 fills 60 segments at po2 16 (got %d)" % len(loop))
late = [r[1] + r[2] + 4113 for r in loop if r[1] + r[2] + 4113 != threshold + 1]
C.true(not late, "%d of the loop's %d segments hold threshold + 1 = %d; the others: %s"
       % (len(loop) - len(late), len(loop), threshold + 1, sorted(late)[:8]))
for i, r in enumerate(closed):
    total = r[1] + r[2] + 4113
    C.true(threshold < total <= threshold + 1 + one_insn_most,
           "segment %d holds %d: not closed at the first instruction past %d"
           % (i, total, threshold))
C.done()
PY
}
register zkvm-close-exact t_zkvm_close_exact
# The pprof file with the model on (docs/zkvm.md, "The pprof file"): its
# second sample type, read by go tool pprof -raw (an independent reader),
# against the callgrind file (an independent writer, read by the parser
# below) and the log's segment table.  Per (object, leaf function) the zk
# cycles of the samples equal the callgrind file's self Zk; [PageIn] and
# [PageOut] sit right under the function that paged, [Segment] where a
# segment closed; the totals are the table's.
ZK_SELF='
import re, os, collections
def cg_self(path):
    """{(object basename, function): [self Ir, self Zk]} of a callgrind file."""
    names = {"ob": {}, "fn": {}}
    ob = fn = None
    out = collections.defaultdict(lambda: [0, 0])
    skip = False
    def name(kind, v):
        m = re.match(r"\((\d+)\)(?: (.*))?$", v)
        if not m:
            return v
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), v)
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("ob="):
            ob = os.path.basename(name("ob", line[3:]))
        elif line.startswith("fn="):
            fn = name("fn", line[3:])
        elif line.startswith(("cob=", "cfn=")):
            name("ob" if line[1] == "o" else "fn", line[4:])
        elif line.startswith("calls="):
            skip = True
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            if skip:
                skip = False
                continue
            cost = [int(x) for x in line.split()[1:]]
            cost += [0] * (2 - len(cost))
            out[(ob, fn)][0] += cost[0]
            out[(ob, fn)][1] += cost[1]
    return out
def raw_samples(pb):
    """go tool pprof -raw: sample types, [(values, location ids)], {location:
    (mapping id, [functions innermost first])}, {mapping id: basename}."""
    out, _ = pprof(["-raw"], pb)
    lines = out.splitlines()
    types, samples, section = None, [], None
    for line in lines:
        if line.startswith("Samples:"):
            section = "s"
        elif line.startswith("Locations"):
            break
        elif section == "s":
            if types is None:
                types = line.split()
                continue
            m = re.match(r"^\s*((?:-?\d+\s*)+):\s((?:\d+\s*)*)$", line)
            if m:
                samples.append(([int(x) for x in m.group(1).split()],
                                [int(x) for x in m.group(2).split()]))
    locs = {i: [f[0] for f in fr] for i, fr in pprof_raw_locations(lines).items()}
    loc_map, maps, section = {}, {}, None
    for line in lines:
        if line.startswith("Locations"):
            section = "l"
        elif line.startswith("Mappings"):
            section = "m"
        elif section == "l":
            m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ (?:M=(\d+) )?", line)
            if m:
                loc_map[int(m.group(1))] = int(m.group(2) or 0)
        elif section == "m":
            m = re.match(r"^(\d+): \S+ (\S+)", line)
            if m:
                maps[int(m.group(1))] = os.path.basename(m.group(2))
    return types, samples, locs, loc_map, maps
'
t_zkvm_pprof() {
    need_tool
    zk_prog
    command -v go >/dev/null || skip "no go (golang-go) for go tool pprof"
    cycprof "$PWD/zp" "$PWD/zp.log" --zk-model=risc0 --zk-segment-po2=14 \
        -- "$BIN/zkpages" 48 20 40 0 >zp.stdout 2>&1 </dev/null
    echo $? >zp.rc
    check_run zp
    pycheck "$ZK_TABLE$ZK_CALLS$ZK_SELF" <<'PY' || true
import sys, collections
from cyc import *
exec(sys.argv[1])
C = Checker()
rows = segments("zp.log")
C.true(len(rows) >= 3, "several segments at po2 14 (got %d)" % len(rows))
types, samples, locs, loc_map, maps = raw_samples("zp.pb.gz")
C.eq("sample types", ["instructions/count[dflt]", "zkvm_cycles/count"], types)
C.eq("total zkvm_cycles = user + paging + reserved + padding of the table",
     sum(r[1] + r[2] + r[3] + r[4] for r in rows), sum(v[1] for v, _ in samples))
C.eq("total instructions = the table's user cycles", sum(r[1] for r in rows),
     sum(v[0] for v, _ in samples))
cg = cg_self("zp")
C.eq("callgrind totals = pprof totals (Ir, Zk)",
     [sum(v[0] for v in cg.values()), sum(v[1] for v in cg.values())],
     [sum(v[0] for v, _ in samples), sum(v[1] for v, _ in samples)])
# Per (object, leaf function) of the program itself (built -fno-inline,
# so its leaf frames are its functions in both files).
pb = collections.defaultdict(lambda: [0, 0])
under = collections.Counter()
zk_frames = ("[PageIn]", "[PageOut]", "[Segment]")
for vals, ids in samples:
    leaf = locs[ids[0]][0]
    pb[(maps.get(loc_map[ids[0]]), leaf)][0] += vals[0]
    pb[(maps.get(loc_map[ids[0]]), leaf)][1] += vals[1]
    if leaf in zk_frames:
        C.eq("%s: no instructions" % leaf, 0, vals[0])
        caller = locs[ids[1]][-1] if len(ids) > 1 else None
        under[(caller, leaf)] += vals[1]
    else:
        C.true(vals[0] == vals[1], "an instruction sample is 1 cycle each: %s" % vals)
# Code without a symbol is left out: the two files may place it (PLT
# stubs) in different objects, and the paging of its frames with it.
unnamed = re.compile(r"(^0x|\+0x)[0-9a-f]+$")
named = lambda f: f and not unnamed.search(f)
mine = lambda d: {k: v for k, v in d.items()
                  if k[0] == "zkpages" and named(k[1]) and k[1] not in zk_frames and any(v)}
C.true(len(mine(cg)) >= 4, "functions of zkpages in the callgrind file: %s" % sorted(mine(cg)))
C.eq("self [Ir, Zk] per function of zkpages", mine(cg), mine(pb))
# Each zk frame under each named caller, in every object: the callgrind
# file's call lines to it against the pprof samples right under it.
calls = zk_calls("zp")
want = {k: v for k, v in calls.items() if k[1] in zk_frames and named(k[0]) and v}
got = {k: v for k, v in under.items() if named(k[0]) and v}
C.true(len(want) >= 10, "zk frames under named callers: %d" % len(want))
C.eq("zk cycles of each zk frame under each named caller", want, got)
C.true(under[("read_pages", "[PageIn]")] > 15680,
       "read_pages [PageIn] right under read_pages: %d" % under[("read_pages", "[PageIn]")])
C.true(under[("write_pages", "[PageOut]")] > 6326,
       "write_pages [PageOut] right under write_pages: %d" % under[("write_pages", "[PageOut]")])
C.true(sum(v for (c, f), v in under.items() if f == "[Segment]") > 0, "[Segment] frames")
C.done()
PY
    # the table as pprof comments, and cycprof report on the pprof file
    HOME=$GO_HOME go tool pprof -raw zp.pb.gz 2>/dev/null | sed -n 's/^Comment: cycprof-zkvm: //p' >from-pb.txt
    "$HELPER_BIN" report zp.pb.gz 2>&1 | grep '^zkVM' >from-report.txt
    sed -n 's/^==[0-9]*== \(zkVM.*\)$/\1/p' zp.log >from-log.txt
    [ -s from-log.txt ] || note "no segment table in the log"
    cmp -s from-log.txt from-pb.txt ||
        note "the pprof file's comments differ from the log's table: $(diff from-log.txt from-pb.txt | head -n 3 | tr '\n' ' ')"
    cmp -s from-log.txt from-report.txt ||
        note "cycprof report zp.pb.gz: table differs from the log's: $(diff from-log.txt from-report.txt | head -n 3 | tr '\n' ' ')"
}
register zkvm-pprof t_zkvm_pprof

# --zk-model=none leaves the callgrind file as it is without the option.
t_zkvm_none() {
    need_tool
    zk_prog
    local o
    for o in plain none; do
        local opt=()
        [ $o = none ] && opt=(--zk-model=none)
        cycprof "$PWD/$o" "$PWD/$o.log" --pprof=no ${opt[@]+"${opt[@]}"} -- \
            "$BIN/zkpages" 48 20 01 0 >"$o.stdout" 2>&1 </dev/null
        echo $? >"$o.rc"
        check_run "$o" cg
    done
    # the pid line differs, nothing else may
    diff <(grep -v '^pid:' plain) <(grep -v '^pid:' none) >d.txt ||
        fail "--zk-model=none changed the callgrind file: $(head -n 4 d.txt | tr '\n' ' ')"
}
register zkvm-none t_zkvm_none

# Dump requests: each part carries the model's costs of its own stretch
# of the run, as it carries its own instructions, so the parts' Zk add
# up to the segment table's total (and their Ir to its user cycles).
t_zkvm_parts() {
    need_tool
    _locked prog-zkdumps gcc -O1 -g -I"$REPO_DIR/cycprof/include" -o "$BIN/zkdumps" \
        "$TESTS_DIR/progs/dumps.c" >"$W/cache/prog-zkdumps.log" 2>&1
    [ -x "$BIN/zkdumps" ] || fail "cannot build dumps.c: $(head -n 3 "$W/cache/prog-zkdumps.log")"
    cycprof "$PWD/parts" "$PWD/parts.log" --pprof=no --zk-model=risc0 -- "$BIN/zkdumps" \
        >parts.stdout 2>&1 </dev/null
    echo $? >parts.rc
    check_run parts cg
    pycheck "$ZK_TABLE" <<'PY' || true
import glob, sys
from cyc import *
exec(sys.argv[1])
C = Checker()
rows = segments("parts.log")
files = sorted(glob.glob("parts") + glob.glob("parts.[0-9]*"))
C.true(len(files) >= 2, "several parts (got %s)" % files)
tot = [parse_callgrind(f).totals for f in files]
C.eq("parts' Zk summed = the table's cycles", sum(r[1] + r[2] + r[3] + r[4] for r in rows),
     sum(t[1] for t in tot if t and len(t) > 1))
C.eq("parts' Ir summed = the table's user cycles", sum(r[1] for r in rows),
     sum(t[0] for t in tot if t))
C.done()
PY
}
register zkvm-parts t_zkvm_parts

# The guest layout follows the order of first touches, not native
# addresses: the buffer mapped at two addresses of different alignment
# (64 KiB apart from aligned, and 12 KiB past it) gives the very same
# segment table.  A layout taken from the native address bits would place
# the 48 pages across a different part of the Merkle tree.
t_zkvm_layout() {
    need_tool
    zk_prog
    zk_run at1 24 48 20 01 0 0000200000000
    zk_run at2 24 48 20 01 0 0000300003000
    sed -n 's/^==[0-9]*== \(zkVM.*\)$/\1/p' at1.log >t1.txt
    sed -n 's/^==[0-9]*== \(zkVM.*\)$/\1/p' at2.log >t2.txt
    [ -s t1.txt ] || fail "no segment table in at1.log"
    grep -q "zkVM total" t1.txt || fail "no total in the table"
    cmp -s t1.txt t2.txt ||
        fail "the tables differ with the mapping's address: $(diff t1.txt t2.txt | head -n 4 | tr '\n' ' ')"
}
register zkvm-layout t_zkvm_layout
