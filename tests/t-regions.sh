# R. Client requests, collection and instrumentation control, named regions
#    (docs/regions.md).  Oracles: callgrind itself running the same binaries
#    with the same requests and options; lackey's totals; cachegrind's self
#    costs; the structure of the programs (tests/progs/{cgreq,regions,
#    rthreads,dumps,rfork,rscale}.c).
# shellcheck shell=bash

# region_prog NAME [gcc flags]: builds tests/progs/NAME.c into $BIN once.
region_prog() {
    local p=$1
    shift
    _locked "prog-$p" gcc -O1 -g -fno-inline -fno-optimize-sibling-calls \
        -I"$REPO_DIR/cycprof/include" "$@" -o "$BIN/$p" "$TESTS_DIR/progs/$p.c" \
        >"$W/cache/prog-$p.log" 2>&1
    [ -x "$BIN/$p" ] || fail "cannot build $p: $(head -n 3 "$W/cache/prog-$p.log")"
}

# callgrind_file OUT PROG ARGS...: callgrind itself (the oracle) writes OUT.
callgrind_file() {
    local out=$PWD/$1
    shift
    vg --tool=callgrind --callgrind-out-file="$out" --log-file="$out.log" "$@" \
        >"$out.stdout" 2>"$out.stderr" </dev/null
    [ -s "$out" ] || fail "callgrind wrote no $out"
}

# Same totals and same self cost per function of the program as callgrind,
# for the requests of a gungraun-style harness and callgrind's options.
t_regions_callgrind_requests() {
    need_tool
    region_prog cgreq
    local i=0 opts
    for opts in "" "--instr-atstart=no" "--toggle-collect=bench" \
        "--collect-atstart=no --toggle-collect=be?ch" \
        "--toggle-collect=setup --collect-atstart=yes" "--toggle-collect=*eaf"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        callgrind_file "cg.$i" $opts "$BIN/cgreq" 300
        # shellcheck disable=SC2086
        cycprof "$PWD/cp.$i" "$PWD/cp.$i.log" --pprof=no $opts -- "$BIN/cgreq" 300 \
            >"cp.$i.stdout" 2>&1 </dev/null
        pycheck "cg.$i" "cp.$i" "$opts" <<'PY' || true
import sys
from cyc import *
C = Checker()
cg, cp, opts = parse_callgrind(sys.argv[1]), parse_callgrind(sys.argv[2]), sys.argv[3]
C.eq("options '%s': total (callgrind's file vs cycprof's)" % opts, cg.totals, cp.totals)
for fn in ("main", "bench", "leaf", "setup"):
    C.eq("options '%s': self Ir of %s" % (opts, fn), cg.fn_self.get(fn, 0), cp.fn_self.get(fn, 0))
C.done()
PY
        cmp -s "cg.$i.stdout" "cp.$i.stdout" || note "options '$opts': program output differs"
    done
}
register regions-callgrind-requests t_regions_callgrind_requests

# Collection toggled around a call made before from the same call site
# (cgreq's rounds): its call and the returns of the toggled rounds publish
# counters from views made before the toggle (cp_context.h), which must
# not count those rounds. Oracle: callgrind's self costs of the functions
# called.
t_regions_toggle_repeat() {
    need_tool
    region_prog cgreq
    callgrind_file cg "$BIN/cgreq" 200 rounds
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/cgreq" 200 rounds \
        >cp.stdout 2>&1 </dev/null
    pycheck cg cp <<'PY' || true
import sys
from cyc import *
C = Checker()
cg, cp = parse_callgrind(sys.argv[1]), parse_callgrind(sys.argv[2])
# Not main's own cost, which differs where lazy binding runs
# (docs/attribution.md), nor the total, 2 instructions above callgrind's
# here, as before views.
for fn in ("bench", "leaf"):
    C.eq("self Ir of %s" % fn, cg.fn_self.get(fn, 0), cp.fn_self.get(fn, 0))
C.done()
PY
    cmp -s cg.stdout cp.stdout || fail "program output differs"
}
register regions-toggle-repeat t_regions_toggle_repeat

# The difference of two CYCPROF_COUNT() reads around a call equals the
# difference of lackey's totals between a run that makes the call and one
# that does not (the request's own instructions are left out).
# count_vs_lackey PROG: PROG D FILE writes to FILE the difference of two
# count reads around a call made only when D is 1.  That difference, from
# D=1 minus D=0, must equal lackey's total for D=1 minus D=0.  Every run
# writes its count to a file named alike (same length), so that all four
# run the same code.  Sets C0 (the D=0 difference: the code between the
# reads).
count_vs_lackey() {
    local prog=$1 d l0 l1 c1
    for d in 0 1; do
        cycprof "$PWD/cp.$d" "$PWD/cp.$d.log" --pprof=no -- "$prog" "$d" "$PWD/count-c.$d" \
            >"out.$d" 2>&1 </dev/null
        [ "$(stat -c %s "count-c.$d")" = 8 ] || fail "$prog $d wrote no count"
    done
    C0=$(od -An -tu8 count-c.0 | tr -d ' ')
    c1=$(od -An -tu8 count-c.1 | tr -d ' ')
    l0=$(lackey_total "$prog" 0 "$PWD/count-l.0") || fail "lackey failed"
    l1=$(lackey_total "$prog" 1 "$PWD/count-l.1") || fail "lackey failed"
    echo "counts: $C0 $c1; lackey: $l0 $l1"
    [ $((c1 - C0)) = $((l1 - l0)) ] ||
        note "count difference $((c1 - C0)) != lackey difference $((l1 - l0))"
}

t_regions_count_vs_lackey() {
    need_tool
    region_prog regions
    count_vs_lackey "$BIN/regions"
    [ "$C0" -gt 0 ] && [ "$C0" -lt 10 ] ||
        note "two reads with 5 instructions between differ by $C0"
}
register regions-count-vs-lackey t_regions_count_vs_lackey

# Regions around calls equal the calls' inclusive cost in callgrind's file
# (plus the call instruction); nesting, self cost, unbalanced ends.
t_regions_vs_callgrind() {
    need_tool
    region_prog regions
    callgrind_file cg "$BIN/regions" 0
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/regions" 0 >out 2>&1 </dev/null
    echo $? >rc
    pycheck cg cp.log "$(cat rc)" <<'PY' || true
import sys
from cyc import *
from regions import *
C = Checker()
cg, log, rc = parse_callgrind(sys.argv[1]), sys.argv[2], sys.argv[3]
C.eq("exit status", "7", rc)
t = region_table(log)
C.true(t is not None, "no region table in the log")
t = t or {}
def incl(caller, callee):
    return sum(c[3] for c in cg.calls if c[0] == caller and c[1] == callee)
def calls(caller, callee):
    return sum(c[2] for c in cg.calls if c[0] == caller and c[1] == callee)
# each region instance spans one call instruction and the call
C.eq("region inner", (calls("outer", "work"), incl("outer", "work") + 3, incl("outer", "work") + 3),
     t.get("inner"))
outer = t.get("outer", (0, 0, 0))
C.eq("region outer calls", calls("main", "outer"), outer[0])
# the nested regions' BEGIN and END sequences (7 instructions each, see
# cycprof.h) are left out of the counts, callgrind counts them
C.eq("region outer inclusive", incl("main", "outer") + 3 - 3 * 2 * 7, outer[1])
C.eq("region outer self", outer[1] - t.get("inner", (0, 0, 0))[1], outer[2])
leaf = incl("mismatched", "leaf") + 1
C.eq("region b (closed by a's end)", (1, leaf, leaf), t.get("b"))
C.eq("region a", (1, leaf, 0), t.get("a"))
C.true("left-open" in t, "the region left open is not in the table")
w = "".join(warnings(log))
for what in ("'never-opened' ended but not open", "'a' ended while", "'left-open' still open at exit"):
    C.true(what in w, "no warning: " + what)
C.done()
PY
}
register regions-vs-callgrind t_regions_vs_callgrind

# Regions in threads add up over threads, and a thread's region counts
# only that thread's instructions.  Oracle: cachegrind's self cost of work().
t_regions_threads() {
    need_tool
    region_prog rthreads -pthread
    local cgo
    cgo=$(cachegrind_out "$BIN/rthreads") || fail "cachegrind failed"
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/rthreads" >out 2>&1 </dev/null
    pycheck "$cgo" cp.log <<'PY' || true
import sys
from cyc import *
from regions import *
C = Checker()
fns, total = cg_functions(sys.argv[1])
t = region_table(sys.argv[2]) or {}
work = fns.get("work", 0)
C.true(work > 0 and work % 21 == 0, "cachegrind: work() cost %d is not 21 equal calls" % work)
per_call = work // 21 + 1   # and the call instruction
C.eq("region work", (20, 20 * per_call, 20 * per_call), t.get("work"))
main = t.get("main", (0, 0, 0))
C.true(per_call < main[1] < 4 * per_call,
       "region main (%d) counts other threads' instructions or misses its own" % main[1])
C.done()
PY
}
register regions-threads t_regions_threads

# DUMP_STATS(_AT) writes numbered parts like callgrind's; they add up to
# the run's lackey total.
t_regions_dump_parts() {
    need_tool
    region_prog dumps
    cycprof "$PWD/out" "$PWD/out.log" -- "$BIN/dumps" >stdout 2>&1 </dev/null
    local f
    for f in out.1 out.2 out out.1.pb.gz out.2.pb.gz out.pb.gz; do
        [ -s "$f" ] || note "no $f"
    done
    expect_total_eq_lackey "dumps (all parts)" "$PWD/out" "$BIN/dumps"
    pycheck "$(lackey_total "$BIN/dumps")" <<'PY' || true
import sys
from cyc import *
C = Checker()
want = int(sys.argv[1])
parts = {p: parse_callgrind(p) for p in ("out.1", "out.2", "out")}
C.eq("sum of the parts' totals", want, sum((r.totals or [0])[0] for r in parts.values()))
for p, n, trig in (("out.1", "1", "Client Request: after first work"),
                   ("out.2", "2", "Client Request"), ("out", "3", "Program termination")):
    head = open(p).read(4096)
    C.true(("\npart: %s\n" % n) in head, "%s: no 'part: %s'" % (p, n))
    C.true(("\ndesc: Trigger: %s\n" % trig) in head, "%s: no 'desc: Trigger: %s'" % (p, trig))
for p in parts.values():
    C.true(p.fn_self.get("work", 0) > 0, "a part has no cost for work()")
C.done()
PY
}
register regions-dump-parts t_regions_dump_parts

# Each part's region rows (the callgrind file's cycprof-region lines)
# count the regions closed in it, and the parts add up to the whole run's
# table in the log.  work(n) runs n iterations: r's second instance costs
# more than its first, s's second more than its first.
t_regions_dump_part_rows() {
    need_tool
    region_prog rdumps
    cycprof "$PWD/out" "$PWD/out.log" --pprof=no -- "$BIN/rdumps" >stdout 2>&1 </dev/null
    pycheck out.log <<'PY' || true
import sys
from cyc import *
from regions import *
C = Checker()
def rows(path):
    got = {}
    for line in open(path, errors="replace"):
        if line.startswith("# cycprof-region\t"):
            f = line.rstrip("\n").split("\t")
            got[f[4]] = tuple(int(x) for x in f[1:4])
    return got
parts = [rows(p) for p in ("out.1", "out.2", "out")]
C.eq("regions of each part", [["r"], ["r", "s"], ["s"]], [sorted(p) for p in parts])
C.eq("calls in each part", [1, 1, 1, 1],
     [parts[0].get("r", (0,))[0], parts[1].get("r", (0,))[0],
      parts[1].get("s", (0,))[0], parts[2].get("s", (0,))[0]])
incl = lambda p, n: parts[p].get(n, (0, 0))[1]
C.true(0 < incl(0, "r") < incl(1, "r"), "r: part 2's instance is not the costlier one")
C.true(0 < incl(1, "s") < incl(2, "s"), "s: part 3's instance is not the costlier one")
whole = region_table(sys.argv[1]) or {}
for name in ("r", "s"):
    summed = tuple(sum(p.get(name, (0, 0, 0))[i] for p in parts) for i in range(3))
    C.eq("region %s: the parts' sum against the log's table" % name, whole.get(name), summed)
C.done()
PY
}
register regions-dump-part-rows t_regions_dump_part_rows

# A region open across fork() is closed in both processes.
t_regions_fork() {
    need_tool
    region_prog rfork
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --pprof=no \
        --cycprof-out-file="$PWD/out.%p" --log-file="$PWD/log.%p" "$BIN/rfork" \
        >stdout 2>&1 </dev/null
    [ $? = 0 ] || note "exit status $?"
    pycheck log.* <<'PY' || true
import sys
from regions import *
from cyc import Checker
C = Checker()
tables = [region_table(l) or {} for l in sys.argv[1:]]
C.eq("processes", 2, len(tables))
child = [t for t in tables if "child-only" in t]
parent = [t for t in tables if "child-only" not in t]
C.eq("child's regions", ["across-fork", "child-only"], sorted(child[0]) if child else None)
C.eq("parent's regions", ["across-fork"], sorted(parent[0]) if parent else None)
if child:
    c = child[0]
    C.eq("child: across-fork self", c["across-fork"][1] - c["child-only"][1], c["across-fork"][2])
C.done()
PY
}
register regions-fork t_regions_fork

# Every pprof sample carries the regions it ran in: go tool pprof
# -tagfocus=region=NAME shows exactly the region's calls.  Oracle:
# callgrind's inclusive cost of those calls.
t_regions_pprof_label() {
    need_tool
    region_prog regions
    callgrind_file cg "$BIN/regions" 0
    cycprof "$PWD/cp" "$PWD/cp.log" -- "$BIN/regions" 0 >out 2>&1 </dev/null
    [ -s cp.pb.gz ] || fail "no pprof profile cp.pb.gz"
    pycheck cg "$PWD/cp.pb.gz" <<'PY' || true
import sys
from cyc import *
C = Checker()
cg, pb = parse_callgrind(sys.argv[1]), sys.argv[2]
def incl(caller, callee):
    return sum(c[3] for c in cg.calls if c[0] == caller and c[1] == callee)
def focused(name):
    out, err = pprof(["-top", "-tagfocus=region=" + name], pb)
    m = re.search(r"Total samples = (\d+)", out)
    n = re.search(r"accounting for (\d+),", out)
    return int(n.group(1)) if n else 0
# inside "inner" run: the call instruction, work(), and END's own request
# sequence (7 instructions: the profile counts it, the table does not)
C.eq("samples labelled region=inner", incl("outer", "work") + 3 * (1 + 7), focused("inner"))
C.eq("samples labelled region=b", incl("mismatched", "leaf") + 1 + 7, focused("b"))
C.done()
PY
}
register regions-pprof-label t_regions_pprof_label

# Regions at scale (tests/progs/rscale.c): 20,000 regions of distinct
# names, each around one call of leaf(), inside 25 nested regions left
# open, then 25 mismatched pairs and 25 ENDs of names never opened.
# Oracles: the program's structure and cachegrind's self cost of leaf():
# every tx region costs the call instruction and one call of leaf(); the
# regions' nesting adds up.  The log shows the 20 costliest regions (by
# construction open-0 ... open-19, outermost first) and a line counting the
# others; 'cycprof report --regions' prints all of them from the callgrind
# file; each kind of misuse is one warning line with its count.
t_regions_scale() {
    need_tool
    region_prog rscale
    local n=20000 k=25 cgo
    cgo=$(cachegrind_out "$BIN/rscale" "$n" "$k") || fail "cachegrind failed"
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/rscale" "$n" "$k" >out 2>&1 </dev/null ||
        fail "cycprof run failed: $(tail -n 3 cp.log)"
    "$HELPER_BIN" report --regions cp >report 2>&1 || fail "report --regions failed: $(head -n 2 report)"
    # -q leaves the table out with the rest of the summary, as callgrind
    # prints nothing; the folded warnings still say what went wrong.
    cycprof "$PWD/q" "$PWD/q.log" --pprof=no -q -- "$BIN/rscale" 200 2 >/dev/null 2>&1 </dev/null
    ! grep -q '^==[0-9]*== Regions' q.log || note "-q: the log still has the region table"
    grep -q 'regions still open at exit' q.log || note "-q: the log lost the warning about open regions"
    pycheck "$cgo" cp.log report "$n" "$k" <<'PY' || true
import re, sys
from cyc import Checker, cg_functions
from regions import region_table, warnings
C = Checker()
cgo, log, report, n, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
leaf = cg_functions(cgo)[0].get("leaf", 0)
C.true(leaf > 0 and leaf % n == 0, "cachegrind: leaf() cost %d is not %d equal calls" % (leaf, n))
per_tx = leaf // n + 1   # and the call instruction
rows = {}
for line in open(report):
    m = re.match(r"^(\S+)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+[\d,]+\s+[\d.]+%$", line.rstrip())
    if m:
        rows[m.group(1)] = tuple(int(m.group(i).replace(",", "")) for i in (2, 3, 4))
tx = {name: row for name, row in rows.items() if name.startswith("tx-")}
C.eq("tx regions in report --regions", n, len(tx))
wrong = [(name, row) for name, row in tx.items() if row != (1, per_tx, per_tx)]
C.true(not wrong, "%d tx regions are not (1 call, %d, %d): %r" % (len(wrong), per_tx, per_tx, wrong[:3]))
C.eq("sum of the tx regions", n * per_tx, sum(row[1] for row in tx.values()))
C.eq("regions in report --regions", n + 3 * k, len(rows))
inner = rows.get("open-%d" % (k - 1), (0, 0, 0))
pairs = sum(rows.get("a-%d" % i, (0, 0, 0))[1] for i in range(k))
C.eq("open-%d: inclusive - self = the regions inside it" % (k - 1), n * per_tx + pairs,
     inner[1] - inner[2])
for i in range(k - 1):
    outer, within = rows.get("open-%d" % i, (0, 0, 0)), rows.get("open-%d" % (i + 1), (0, 0, 0))
    C.eq("open-%d self" % i, outer[1] - within[1], outer[2])
shown = region_table(log) or {}
C.eq("rows in the log's table", 20, len(shown))
C.eq("the log's rows", ["open-%d" % i for i in range(20)], list(shown)[:20])
C.true(all(rows.get(name) == row for name, row in shown.items()),
       "the log's rows differ from report --regions")
hidden = [l for l in open(log) if "more regions not shown" in l]
C.eq("lines counting the regions not shown", 1, len(hidden))
C.true(hidden and "(%d more regions not shown" % (n + 3 * k - 20) in hidden[0],
       "no line '(%d more regions not shown': %r" % (n + 3 * k - 20, hidden))
w = warnings(log)
C.eq("warning lines", 3, len(w))
for what in ("%d regions still open at exit: closed there (first: 'open-0', 'open-1', 'open-2', ...)" % k,
             "%d regions ended but not open: ends ignored (first: 'never-0', 'never-1', 'never-2', ...)" % k,
             "%d regions inside a region that ended were closed with it (first: 'b-0' in 'a-0', 'b-1' in 'a-1', 'b-2' in 'a-2', ...)" % k):
    C.true(any(what in l for l in w), "no warning line: " + what)
C.done()
PY
}
register regions-scale t_regions_scale

# 'cycprof report --regions' prints the table of the profile again;
# 'cycprof diff --fail-above' gates a region that grew.
t_regions_report_diff() {
    need_tool
    region_prog regions
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/regions" 0 >out 2>&1 </dev/null
    "$HELPER_BIN" report --regions cp >report 2>&1 || fail "report --regions failed: $(head -n 2 report)"
    pycheck cp.log report <<'PY' || true
import re, sys
from cyc import Checker
from regions import region_table
C = Checker()
logged = region_table(sys.argv[1]) or {}
printed = {}
for line in open(sys.argv[2]):
    m = re.match(r"^(\S+)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+[\d,]+\s+[\d.]+%$", line.rstrip())
    if m:
        printed[m.group(1)] = tuple(int(m.group(i).replace(",", "")) for i in (2, 3, 4))
C.true(len(logged) == 5, "the log's table has %d regions, not 5" % len(logged))
C.eq("report --regions vs the log's table", logged, printed)
C.done()
PY
    # NEW: region inner 5% costlier
    awk -F'\t' 'BEGIN{OFS="\t"} $1=="# cycprof-region" && $5=="inner" {$3=int($3*1.05)} {print}' \
        cp >new
    "$HELPER_BIN" diff --fail-above=10 cp new >d10 2>&1 || note "diff --fail-above=10 tripped: $(tail -n 1 d10)"
    "$HELPER_BIN" diff --fail-above=1 cp new >d1 2>&1
    [ $? = 3 ] || note "diff --fail-above=1 did not exit 3 for a region 5% costlier"
    grep -q "region inner" d1 || note "diff does not name region inner: $(tail -n 2 d1)"
    "$HELPER_BIN" diff --fail-above=0 cp cp >d0 2>&1 || note "diff of a file with itself failed"
}
register regions-report-diff t_regions_report_diff

# SP1's cycle-tracker markers printed by a Rust program open and close
# regions; the program's output is unchanged; --sp1-markers=no turns them
# off.  Oracle: cachegrind's self cost of the function each region calls
# (one call each; a region also holds the end of one println! and the start
# of the next).
t_regions_sp1_rust() {
    need_tool
    command -v rustc >/dev/null || fail "rustc not found (scripts/install-deps installs it)"
    _locked prog-sp1 rustc -O -g -o "$BIN/sp1" "$TESTS_DIR/progs/sp1.rs" >"$W/cache/prog-sp1.log" 2>&1
    [ -x "$BIN/sp1" ] || fail "cannot build sp1.rs: $(head -n 3 "$W/cache/prog-sp1.log")"
    local cgo
    cgo=$(cachegrind_out "$BIN/sp1") || fail "cachegrind failed"
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/sp1" >out 2>&1 </dev/null
    cycprof "$PWD/off" "$PWD/off.log" --pprof=no --sp1-markers=no -- "$BIN/sp1" >out.off 2>&1 </dev/null ||
        note "--sp1-markers=no: exit status $?"
    cmp -s out "${cgo%.cg.out}.cg.stdout" || note "the program's output differs from its output under cachegrind"
    pycheck "$cgo" cp.log off.log <<'PY' || true
import sys
from cyc import *
from regions import *
C = Checker()
fns, total = cg_functions(sys.argv[1])
t = region_table(sys.argv[2]) or {}
C.true(region_table(sys.argv[3]) is None, "--sp1-markers=no: still a region table")
wa, wb, wc = (fns.get("sp1::work_" + f, 0) for f in "abc")
C.true(wa > 0 and wb > 0 and wc > 0, "cachegrind: work_a %d, work_b %d, work_c %d" % (wa, wb, wc))
PRINT = 5000   # generous bound for the println! machinery inside a region
def within(name, low):
    row = t.get(name)
    C.true(row is not None and row[0] == 1 and low <= row[1] <= low + PRINT,
           "region %s: %r, expected 1 call and %d..%d instructions" % (name, row, low, low + PRINT))
within("inner", wb)
within("verify", wc)
setup, inner = t.get("setup", (0, 0, 0)), t.get("inner", (0, 0, 0))
C.true(setup[1] >= inner[1] + wa, "region setup does not hold inner and work_a(1000)")
C.eq("region setup self", setup[1] - inner[1], setup[2])
C.done()
PY
}
register regions-sp1-rust t_regions_sp1_rust

# The crate, built by cargo as a path dependency of a small program:
# count() around a call equals lackey's difference; guard and closure
# regions nest, and the closure's region holds its call of inner_work: at
# least cachegrind's self cost of that leaf, called only there, plus at most
# a few instructions of glue around the call.
t_regions_rust_crate() {
    need_tool
    command -v cargo >/dev/null || fail "cargo not found (scripts/install-deps installs it)"
    cp -r "$TESTS_DIR/progs/crate-user" user
    sed -i "s|CYCPROF_CRATE|$REPO_DIR/cycprof/rust|" user/Cargo.toml
    (cd user && CARGO_TARGET_DIR=$PWD/target cargo build --release --offline >../build.log 2>&1) ||
        fail "cargo build failed: $(tail -n 3 build.log)"
    count_vs_lackey "$PWD/user/target/release/crate-user"
    local cgo
    cgo=$(cachegrind_out "$PWD/user/target/release/crate-user" 1 "$PWD/count-g.1") ||
        fail "cachegrind failed"
    pycheck cp.1.log "$cgo" <<'PY' || true
import sys
from cyc import Checker, cg_functions
from regions import region_table
C = Checker()
t = region_table(sys.argv[1]) or {}
work = cg_functions(sys.argv[2])[0].get("crate_user::inner_work", 0)
GLUE = 50   # generous bound for the closure's code around the call
outer, inner = t.get("outer"), t.get("inner")
C.true(outer and inner and outer[0] == 1 and inner[0] == 1, "regions outer/inner: %r" % t)
C.true(work > 0, "cachegrind has no cost for crate_user::inner_work")
if outer and inner:
    C.true(work <= inner[1] <= work + GLUE and outer[1] >= inner[1],
           "inner %r (inner_work: %d) inside outer %r" % (inner, work, outer))
    C.eq("outer self", outer[1] - inner[1], outer[2])
C.done()
PY
}
register regions-rust-crate t_regions_rust_crate

# With --instr-atstart=no the shadow stack is seeded from Valgrind's
# unwinder when START_INSTRUMENTATION comes: the measured code's stacks
# root at _start and main, not at a made-up root.  Oracle: the program's
# structure (_start -> ... -> main -> bench -> leaf).
t_regions_instr_seeded_stack() {
    need_tool
    region_prog cgreq
    cycprof "$PWD/cp" "$PWD/cp.log" --instr-atstart=no -- "$BIN/cgreq" 300 >out 2>&1 </dev/null
    [ -s cp.pb.gz ] || fail "no pprof profile"
    pycheck "$PWD/cp.pb.gz" <<'PY' || true
import sys
from cyc import *
C = Checker()
traces = pprof_traces(sys.argv[1])
C.true(traces, "no samples")
for value, frames, labels in traces:
    rf = [re.sub(r" \(inline\)$", "", f) for f in root_first(frames)]
    names = [f for f in rf]
    ok = rf and rf[0] == "_start" and "main" in names
    if ok and any(fn_matches(f, "leaf") for f in rf):
        ok = contains_seq(frames[::-1], ["main", "bench", "leaf"]) or \
             any(rf[i:i + 3] == ["main", "bench", "leaf"] for i in range(len(rf)))
    C.true(ok, "stack not rooted at _start ... main: %s" % " <- ".join(frames))
C.done()
PY
}
register regions-instr-seeded-stack t_regions_instr_seeded_stack

# A run that starts uninstrumented reads no inline info unless
# --read-inline-info=yes is given (docs/options.md): the pprof profile of
# the region has no inlined frames, and the same counts.  Oracle: the
# program's structure (mix and step are always_inline into hot).
t_regions_instr_inline_default() {
    need_tool
    region_prog inlreq
    cycprof "$PWD/off" "$PWD/off.log" --instr-atstart=no -- "$BIN/inlreq" 2000 \
        >off.out 2>&1 </dev/null || fail "cycprof run failed: $(tail -n 3 off.log)"
    cycprof "$PWD/on" "$PWD/on.log" --instr-atstart=no --read-inline-info=yes \
        -- "$BIN/inlreq" 2000 >on.out 2>&1 </dev/null ||
        fail "cycprof run failed: $(tail -n 3 on.log)"
    [ -s off.pb.gz ] && [ -s on.pb.gz ] || fail "no pprof profile"
    pycheck "$PWD/off.pb.gz" "$PWD/on.pb.gz" <<'PY' || true
import sys
from cyc import *
C = Checker()
off, on = pprof_traces(sys.argv[1]), pprof_traces(sys.argv[2])
def inlined(traces):
    return sorted({f for v, frames, l in traces for f in frames if f.endswith(" (inline)")})
C.eq("inlined frames without --read-inline-info", [], inlined(off))
C.true(any(re.match(r"(mix|step) \(inline\)$", f) for f in inlined(on)),
       "no mix/step inlined frame with --read-inline-info=yes: %r" % inlined(on))
C.true(any(any(fn_matches(f, "hot") for f in fr) for v, fr, l in off), "hot not in any stack")
C.eq("total without / with inline info", sum(value_int(v) for v, f, l in on),
     sum(value_int(v) for v, f, l in off))
C.done()
PY
}
register regions-instr-inline-default t_regions_instr_inline_default

# A region opened at the end of a chain of tail calls keeps the whole
# chain: the region's tree, like the rest of the run, has land called by
# hop, which first tail-called (hop's frame was replaced by land's, as the
# tail-call rule does, but hop stays active).  Oracle: callgrind's own file.
t_regions_tail_chain() {
    need_tool
    region_prog regiontail -O2 -foptimize-sibling-calls
    need_tail_jump regiontail first hop
    need_tail_jump regiontail hop land
    callgrind_file cg "$BIN/regiontail"
    cycprof "$PWD/cp" "$PWD/cp.log" --pprof=no -- "$BIN/regiontail" >out 2>&1 </dev/null
    [ -s cp ] || fail "no callgrind file cp"
    pycheck cg cp <<'PY' || true
import sys
from cyc import *
C = Checker()
cg, cp = parse_callgrind(sys.argv[1]), parse_callgrind(sys.argv[2])
def arcs(f, callee):
    return sorted(set(c[0] for c in f.calls if c[1] == callee))
def incl(f, caller, callee):
    return sum(c[3] for c in f.calls if c[0] == caller and c[1] == callee)
C.eq("callers of land", arcs(cg, "land"), arcs(cp, "land"))
C.eq("callers of hop", arcs(cg, "hop"), arcs(cp, "hop"))
for caller, callee in (("first", "hop"), ("hop", "land"), ("land", "work")):
    C.eq("inclusive cost of %s's calls to %s" % (caller, callee),
         incl(cg, caller, callee), incl(cp, caller, callee))
C.done()
PY
}
register regions-tail-chain t_regions_tail_chain

# A region opened from any stack: a region's samples keep their whole stacks and their regions, whatever the stack
# (tests/progs/rstacks.c: one name opened from two stacks, nested regions,
# a region closed in another function than the one that opened it, one
# opened at the bottom of a recursion, in threads, in a forked child).
# Oracle: callgrind's inclusive cost of the calls made in each region.
t_regions_stacks() {
    need_tool
    region_prog rstacks -pthread
    vg --tool=callgrind --callgrind-out-file="$PWD/cg.%p" --log-file="$PWD/cg.log" \
        "$BIN/rstacks" >cg.stdout 2>&1 </dev/null
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/cp.%p" \
        --log-file="$PWD/log.%p" "$BIN/rstacks" >stdout 2>&1 </dev/null
    [ $? = 0 ] || note "exit status $?"
    pycheck <<'PY' || true
import re, glob
from cyc import *
C = Checker()
cgs = [parse_callgrind(p) for p in sorted(glob.glob("cg.[0-9]*"))]
pbs = sorted(glob.glob("cp.*.pb.gz"))
C.eq("processes (callgrind, cycprof)", (2, 2), (len(cgs), len(pbs)))
def incl(caller, callee):
    # callgrind names a recursive caller's inner activations rec'2, ...
    return sum(c[3] for cg in cgs for c in cg.calls
               if c[0].split("'")[0] == caller and c[1] == callee)
def focused(*args):
    out, err = pprof(["-top", "-nodecount=100000", "-nodefraction=0"] + list(args), pbs)
    m = re.search(r"accounting for (\d+),", out)
    return int(m.group(1)) if m else 0
def region(name, *chain):
    # pprof keeps only the last -focus: each of the region's stacks
    # through chain[-1] must hold the whole chain, outermost first.
    out, err = pprof(["-traces", "-tagfocus=region=" + name,
                      "-focus=^%s$" % chain[-1]], pbs)
    want = list(reversed(chain))
    for t in out.split("-----------+")[1:]:
        frames = [l.split()[-1] for l in t.splitlines()
                  if re.match(r"^ +(\d+ +)?[^\s:]+$", l)]
        if frames and not any(frames[i:i + len(want)] == want for i in range(len(frames))):
            C.true(False, "%s: a stack of %s without %s: %s"
                   % (name, chain[-1], " > ".join(chain), " < ".join(frames)))
            break
    return focused("-tagfocus=region=" + name, *["-focus=^%s$" % f for f in chain])
C.eq("shared: w1 under main > f1", incl("f1", "w1"), region("shared", "main", "f1", "w1"))
C.eq("shared: w2 under main > g > f2", incl("f2", "w2"), region("shared", "main", "g", "f2", "w2"))
C.eq("inner: w3 under main > nest", incl("nest", "w3"), region("inner", "main", "nest", "w3"))
C.eq("outer holds inner's samples", incl("nest", "w3"), region("outer", "w3"))
C.eq("cross: w4, run after the opener returned", incl("main", "w4"), region("cross", "main", "w4"))
C.true(incl("rec", "w7") > 0, "callgrind ran no w7 under rec")
C.eq("rec: w7 below the recursion", incl("rec", "w7"), region("rec", "main", "rec", "w7"))
# recursion folds (attribution.md): rec is on the stack once, in the region too
out, err = pprof(["-traces", "-tagfocus=region=rec", "-focus=^w7$"], pbs)
traces = [t for t in out.split("-----------+")[1:] if re.search(r"\bw7$", t, re.M)]
C.true(len(traces) > 0, "no trace of w7 in region rec")
C.eq("rec: once on each stack in the region", [1] * len(traces),
     [len(re.findall(r"^ +(?:\d+ +)?rec$", t, re.M)) for t in traces])
C.eq("thr: w5 in both threads", incl("thread_main", "w5"), region("thr", "thread_main", "w5"))
C.eq("kid: w6 in the forked child", incl("main", "w6"), region("kid", "main", "w6"))
C.done()
PY
}
register regions-stacks t_regions_stacks
