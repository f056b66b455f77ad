# E. The pprof file, read by go tool pprof: totals and per-function flat costs.
# shellcheck shell=bash

PP_PROGS=("split|split" "cxxexc|cxxexc 100" "signal|signal 100" "recurse|recurse 10"
    "gzip|/bin/gzip -6 -c TEXT")
# (python3 is left out here: its pprof file has millions of samples and go tool
# pprof needs minutes to read it; its totals are checked by the A and C tests.)

t_pprof_totals_and_flat() {
    need_tool
    local p b want
    for p in "${PP_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b"
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        pycheck "$b" "${p%%|*}" "$want" <<'PY' || true
import sys, collections
from cyc import *
C = Checker()
b, label, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
types, samples = pprof_raw(b + ".pb.gz")
tot = sum(s.value for s in samples)
C.eq("%s: sum of pprof samples (-raw) vs lackey" % label, want, tot)
r = parse_callgrind(b)
C.eq("%s: sum of pprof samples vs callgrind file total" % label, r.self_total, tot)
# flat per function: leaf location's symbol function (outermost line), as -noinlines does
flat = collections.Counter()
for s in samples:
    flat[norm_fn(s.symframes[0]) if s.symframes else "??"] += s.value
cgself = r.fn_self
d = sorted(((abs(flat[k] - cgself[k]), k) for k in set(flat) | set(cgself) if flat[k] != cgself[k]), reverse=True)
C.true(not d, "%s: pprof flat != callgrind self for %d functions, e.g. %s" % (
    label, len(d), ["%s pprof=%d callgrind=%d" % (k, flat[k], cgself[k]) for x, k in d[:3]]))
# the same through -top -noinlines (real reader's own aggregation), when values print unscaled
try:
    top = pprof_top(b + ".pb.gz", "-noinlines")
except ValueError as e:
    C.fail("%s: cannot read exact values from -top: %s" % (label, e))
    top = {}
if top:
    ttot = sum(v[0] for v in top.values())
    C.eq("%s: sum of -top flat vs lackey" % label, want, ttot)
    byname = collections.Counter()
    for k, v in top.items():
        byname[norm_fn(k)] += v[0]
    d2 = [k for k in set(byname) | set(cgself) if k != UNKNOWN and byname[k] != cgself[k]]
    C.true(not d2, "%s: -top flat != callgrind self for %d functions, e.g. %s" % (
        label, len(d2), ["%s top=%d callgrind=%d" % (k, byname[k], cgself[k]) for k in d2[:3]]))
C.done()
PY
    done
}
register pprof-totals-and-flat t_pprof_totals_and_flat

t_pprof_inline() {
    need_tool; need_prog inl
    local b; b=$(shared_profile -- "$BIN/inl" 5000)
    check_run "$b"
    sc inline "$b.pb.gz"
}
register pprof-inline-frames t_pprof_inline
