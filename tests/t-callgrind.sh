# C. The callgrind-format file: read by callgrind_annotate, and its numbers agree
#    with lackey (total) and cachegrind (per-function self cost).
# shellcheck shell=bash

# Programs profiled for these checks: "label|prog args" ('python' uses PY_ENV).
CG_PROGS=("split|split" "cxxexc|cxxexc 100" "signal|signal 100"
    "recurse|recurse 10" "gzip|/bin/gzip -6 -c TEXT" "python|/usr/bin/python3 -S -s PYSCRIPT")
# CYCPROF_TESTS_QUICK=1 (scripts/check-arch, under qemu): the C programs only.
[ -n "${CYCPROF_TESTS_QUICK:-}" ] && CG_PROGS=("${CG_PROGS[@]:0:4}")

# cg_prog LABEL|SPEC -> sets PROG (array) and RUN_ENV
cg_prog() {
    local spec=${1#*|}
    spec=${spec//TEXT/$BIN/text.txt}
    spec=${spec//PYSCRIPT/$BIN/pyscript.py}
    # shellcheck disable=SC2206
    PROG=($spec)
    case ${PROG[0]} in /*) ;; *) need_prog "${PROG[0]}"; PROG[0]=$BIN/${PROG[0]} ;; esac
    RUN_ENV=()
    case $1 in python\|*) RUN_ENV=("${PY_ENV[@]}") ;; esac
}

t_cg_annotate_clean() {
    need_tool
    local p b
    for p in "${CG_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        pycheck "$b" "${p%%|*}" <<'PY' || true
import sys
from cyc import *
C = Checker()
path, label = sys.argv[1], sys.argv[2]
for args in ([], ["--inclusive=yes"], ["--tree=both"], ["--tree=caller"], ["--auto=yes"],
             ["--inclusive=yes", "--tree=both", "--auto=yes"]):
    rc, out, err, warns = callgrind_annotate(path, *args)
    what = "%s: callgrind_annotate %s" % (label, " ".join(args) or "(defaults)")
    C.eq(what + " exit status", 0, rc)
    C.true(not warns, "%s printed warnings: %s" % (what, warns[:3]))
    C.true("PROGRAM TOTALS" in out, what + ": no PROGRAM TOTALS in output")
r = parse_callgrind(path)
C.true(not r.errors, "%s: callgrind format errors: %s" % (label, r.errors[:5]))
C.done()
PY
    done
}
register cg-annotate-clean t_cg_annotate_clean

t_cg_header() {
    need_tool
    local p b
    for p in "${CG_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        head -c 2048 "$b" | grep -q '^events:' ||
            note "${p%%|*}: no 'events:' line within the first 2 KiB of $b"
        head -n 1 "$b" | grep -q -E '^(# |version:|creator:|events:|positions:|pid:|cmd:|desc:)' ||
            note "${p%%|*}: first line is not a callgrind header line: $(head -n 1 "$b" | cut -c1-80)"
    done
    true
}
register cg-header t_cg_header

t_cg_totals() {
    need_tool
    local p b want
    for p in "${CG_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        pycheck "$b" "${p%%|*}" "$want" <<'PY' || true
import sys
from cyc import *
C = Checker()
path, label, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = parse_callgrind(path)
rc, out, err, warns = callgrind_annotate(path, "--auto=no")
C.eq("%s: callgrind_annotate PROGRAM TOTALS vs lackey" % label, want, annotate_program_totals(out))
C.eq("%s: sum of all self costs in the file vs lackey" % label, want, r.self_total)
if r.totals is not None:
    C.eq("%s: 'totals:' line vs lackey" % label, want, r.totals[0])
if r.summary is not None:
    C.eq("%s: 'summary:' line vs lackey" % label, want, r.summary[0])
C.true(r.totals is not None or r.summary is not None, "%s: neither totals: nor summary: line" % label)
C.eq("%s: tool log total vs lackey" % label, want, refs_total(path + ".log"))
C.done()
PY
    done
}
register cg-totals t_cg_totals

t_cg_self_vs_cachegrind() {
    need_tool
    local p b cgo
    for p in "${CG_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        cgo=$(cachegrind_out "${PROG[@]}") || fail "cachegrind oracle failed"
        pycheck "$b" "${p%%|*}" "$cgo" <<'PY' || true
import sys
from cyc import *
C = Checker()
path, label, cgo = sys.argv[1], sys.argv[2], sys.argv[3]
ca = parse_callgrind(path).fn_self
cg, cg_total = cg_functions(cgo)
diffs = sorted(((abs(ca[k] - cg[k]), k) for k in set(ca) | set(cg) if ca[k] != cg[k]), reverse=True)
print("%s: %d functions in cachegrind, %d in the tool's file, %d differ" % (label, len(cg), len(ca), len(diffs)))
for d, k in diffs[:15]:
    print("   %-50s cachegrind=%d tool=%d" % (k, cg[k], ca[k]))
if diffs:
    C.fail("%s: per-function self cost differs from cachegrind for %d of %d functions, e.g. %s" % (
        label, len(diffs), len(set(ca) | set(cg)),
        "; ".join("%s cachegrind=%d tool=%d" % (k, cg[k], ca[k]) for d, k in diffs[:3])))
C.done()
PY
    done
}
register cg-self-vs-cachegrind t_cg_self_vs_cachegrind

# Inclusive costs: in a profile made from a calling-context tree, for every
# function F with callers, the cost of the calls into F (from other functions)
# equals F's self cost plus the cost of F's calls to other functions
# (inclusive = self + callees' inclusive, per the calls= lines). Functions
# without a symbol ('???') cannot be told apart and are skipped.
# A function re-entered while active (mutual recursion, callbacks) receives
# calls for its outermost activations only (t-recursion.sh), so the balance
# holds for the others: those callgrind's own file names without a
# recursion level.
t_cg_inclusive() {
    need_tool
    local p b cgo
    for p in "${CG_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        cgo=$(callgrind_out "${PROG[@]}") || fail "callgrind oracle failed"
        pycheck "$b" "${p%%|*}" "$cgo" <<'PY' || true
import sys, collections
from cyc import *
from inclusive import inclusive_by_function
C = Checker()
path, label, cgo = sys.argv[1], sys.argv[2], sys.argv[3]
reentered = {n for _o, n in inclusive_by_function(cgo)[1]}
r = parse_callgrind(path)
bal = call_balance(r)
bad = sorted((k, v) for k, v in bal.items()
             if v[0] > 0 and v[0] != v[1] and norm_fn(k[1]) != UNKNOWN
             and k[1] not in reentered)
for k, v in bad[:10]:
    print("  unbalanced %s: calls in=%d, self+calls out=%d" % (k, v[0], v[1]))
C.true(not bad, "%s: %d functions where cost of calls into F != self(F) + cost of calls out of F, e.g. %s" % (
    label, len(bad), "; ".join("%s in=%d out=%d" % (k[1], v[0], v[1]) for k, v in bad[:3])))
C.done()
PY
    done
}
register cg-inclusive t_cg_inclusive

# Self cost per line of the test program's own source equals cachegrind's
# (both files read directly; callgrind_annotate --auto=yes is run by cg-annotate-clean).
t_cg_source_lines() {
    need_tool
    local p b cgo src
    # longrun: a superblock whose instructions are stored by whole address
    for p in "split|split" "cxxexc|cxxexc 100" "signal|signal 100" "recurse|recurse 10" \
             "longrun|longrun 100"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b" cg
        cgo=$(cachegrind_out "${PROG[@]}") || fail "cachegrind oracle failed"
        src=$TESTS_DIR/progs/${p%%|*}.c
        [ -e "$src" ] || src=$TESTS_DIR/progs/${p%%|*}.cc
        expect_line_self_eq_cachegrind "$b" "$cgo" "$src"
    done
}
register cg-source-lines t_cg_source_lines

# A context's calls are kept with its counters, the first one without
# them (cycprof/tool/counting/cp_cold.h): the program's structure fixes
# the count of its one arc, here past 2^24.
t_cg_calls_count() {
    need_tool
    need_prog manycalls
    local n=$(((1 << 24) + 5)) out=$W/cg-calls-count
    mkdir -p "$out"
    cycprof "$out/p.out" "$out/p.log" -- "$BIN/manycalls" "$n" ||
        fail "cycprof failed (see $out/p.log)"
    pycheck "$out/p.out" "$n" <<'PY' || true
import sys
from cyc import *
C = Checker()
r = parse_callgrind(sys.argv[1])
n = int(sys.argv[2])
C.true(not r.errors, "callgrind format errors: %s" % r.errors[:5])
arcs = [(a, b, k) for a, b, k, _c in r.calls if b == "leaf"]
C.eq("calls of leaf, one arc from main", [("main", "leaf", n)], arcs)
C.done()
PY
}
register cg-calls-count t_cg_calls_count
