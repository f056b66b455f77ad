# F. Inclusive costs through recursion: every function's inclusive cost is the
#    number of instructions run while it was active, in the callgrind file (as
#    its readers compute it), in `cycprof report --inclusive` and as cum in
#    go tool pprof.  Oracle: callgrind's own file (outermost activations).
# shellcheck shell=bash

# check_inclusive B CALLGRIND_OUT LABEL NAME... : the four views agree with callgrind
check_inclusive() {
    local b=$1 cgo=$2 label=$3
    shift 3
    "$HELPER_BIN" report --inclusive -n 0 --threshold=0 "$b" >"$PWD/report.txt" 2>&1 ||
        note "$label: cycprof report --inclusive failed: $(tail -n 1 "$PWD/report.txt")"
    pycheck "$b" "$cgo" "$label" "$PWD/report.txt" "$@" <<'PY' || true
import re, sys
from cyc import *
from cyc import SKEW
from inclusive import inclusive_by_function, by_name
C = Checker()
path, cgo, label, report = sys.argv[1:5]
names = sys.argv[5:]
oracle = by_name(inclusive_by_function(cgo)[0], names)
views = {"callgrind file": by_name(inclusive_by_function(path)[0], names)}
rows = {}
for line in open(report):
    m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*?:(\S+)(?: \[.*\])?$", line)
    if m and m.group(2) in names:
        rows[m.group(2)] = rows.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
views["cycprof report --inclusive"] = rows
top = pprof_top(path + ".pb.gz")
views["go tool pprof cum"] = {n: top[n][1] for n in names if n in top}
for n in names:
    want = oracle.get(n)
    if not want:
        C.fail("%s: callgrind's file has no inclusive cost for %s (oracle problem)" % (label, n))
        continue
    want += SKEW
    for view, got in views.items():
        C.eq("%s: inclusive cost of %s in %s" % (label, n, view), want, got.get(n))
C.done()
PY
}

t_recursion_inclusive() {
    need_tool
    local b cgo
    need_prog mutual
    b=$(shared_profile -- "$BIN/mutual")
    check_run "$b"
    cgo=$(callgrind_out "$BIN/mutual") || fail "callgrind oracle failed"
    check_inclusive "$b" "$cgo" mutual A C P Q R work sort_some by_value qsort main
    need_prog recurse
    b=$(shared_profile -- "$BIN/recurse" 10)
    check_run "$b"
    cgo=$(callgrind_out "$BIN/recurse" 10) || fail "callgrind oracle failed"
    check_inclusive "$b" "$cgo" recurse rec ping pong rec_work ping_work pong_work main
    # A loop of tail calls (enter jumps to drop, drop to step, step back
    # to drop): step stays active until the shared slot returns.
    need_tailloop
    b=$(shared_profile -- "$BIN/tailloop" 10)
    check_run "$b"
    cgo=$(callgrind_out "$BIN/tailloop" 10) || fail "callgrind oracle failed"
    check_inclusive "$b" "$cgo" tailloop enter drop step work main
}

# progs/tailloop, checked to be built as it says: its functions end in
# tail jumps.
need_tailloop() {
    need_prog tailloop
    need_tail_jump tailloop step drop
    need_tail_jump tailloop drop step
    need_tail_jump tailloop enter drop
}
register recursion-inclusive t_recursion_inclusive

# python3's eval loop re-enters itself through C (map, sorted's key=).
t_recursion_python() {
    need_tool
    local b cgo
    RUN_ENV=("${PY_ENV[@]}")
    b=$(shared_profile -- /usr/bin/python3 -S -s "$BIN/pyrec.py")
    check_run "$b"
    cgo=$(callgrind_out /usr/bin/python3 -S -s "$BIN/pyrec.py") || fail "callgrind oracle failed"
    # The eval loop's entry points of Python 3.11 (Debian 12); newer Pythons
    # inline some of them: those callgrind's file names are compared.
    local names
    names=$(python3 "$TESTS_DIR/lib/inclusive.py" present "$cgo" _PyEval_EvalFrameDefault \
        PyEval_EvalCode _PyFunction_Vectorcall PyObject_Vectorcall PyObject_Call Py_RunMain)
    case " $names " in *" _PyEval_EvalFrameDefault "*) ;;
        *) fail "callgrind's file has no _PyEval_EvalFrameDefault (oracle problem)" ;; esac
    # shellcheck disable=SC2086
    check_inclusive "$b" "$cgo" python3 $names
}
register recursion-python t_recursion_python
