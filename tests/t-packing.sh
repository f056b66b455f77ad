# G. Packed counters (--pack-cold-counters): contexts no frame is in have
#    their counters packed during the run and unpacked when they run again.
#    With a 1 KiB limit that happens at nearly every new context; the counts
#    must not change: totals equal lackey's, self costs cachegrind's, and both
#    files are the same as those of a run whose counters are never packed.
# shellcheck shell=bash

PACK_PROGS=("mutual|mutual" "signal|signal 100" "coro|coro 100" "longjmp|longjmp 500"
    "python|/usr/bin/python3 -S -s PYSCRIPT")

t_packing_exact() {
    need_tool
    local p b
    for p in "${PACK_PROGS[@]}"; do
        cg_prog "$p"
        local label=${p%%|*}
        b=$PWD/$label
        cycprof "$b.packed" "$b.packed.log" --pack-cold-counters=1 --stats=yes --keep-stacks=yes \
            -- "${PROG[@]}" >"$b.packed.stdout" 2>&1 </dev/null || note "$label: packed run exited non-zero"
        cycprof "$b.dense" "$b.dense.log" --pack-cold-counters=0 --keep-stacks=yes \
            -- "${PROG[@]}" >"$b.dense.stdout" 2>&1 </dev/null || note "$label: unpacked run exited non-zero"
        cmp -s "$b.packed.stdout" "$b.dense.stdout" || note "$label: the program's output changed when packing"
        local want cgo
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        cgo=$(cachegrind_out "${PROG[@]}") || fail "cachegrind oracle failed"
        pycheck "$b" "$label" "$want" "$cgo" <<'PY' || true
import glob, re, sys
from cyc import *
C = Checker()
b, label, want, cgo = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
log = open(b + ".packed.log").read()
m = re.search(r"(\d+) contexts packed, (\d+) unpacked again", log)
C.true(m and int(m.group(1)) > 0 and int(m.group(2)) > 0,
       "%s: with --pack-cold-counters=1 no context was packed and unpacked again (%s)" % (label, m and m.group(0)))
# Contexts with equal counts share a packed copy (cp_packed.c): fewer
# copies in use than contexts.
m = re.search(r"(\d+) distinct copies in use", log)
n = re.search(r"cycprof: (\d+) contexts,", log)
C.true(m and n and 0 < int(m.group(1)) < int(n.group(1)),
       "%s: packed copies not shared (%s of %s contexts)" % (label, m and m.group(1), n and n.group(1)))
r = parse_callgrind(b + ".packed")
C.eq("%s: packed: sum of self costs vs lackey" % label, want, r.self_total)
C.eq("%s: packed: tool log total vs lackey" % label, want, refs_total(b + ".packed.log"))
cg, _ = cg_functions(cgo)
ca = r.fn_self
diffs = [k for k in set(ca) | set(cg) if ca[k] != cg[k]]
C.true(not diffs, "%s: packed: self cost differs from cachegrind for %d functions, e.g. %s" % (
    label, len(diffs), "; ".join("%s cachegrind=%d tool=%d" % (k, cg[k], ca[k]) for k in diffs[:3])))
def body(path, skip):
    return [l for l in open(path, errors="replace") if not l.startswith(skip)]
C.true(body(b + ".packed", ("pid:", "cmd:")) == body(b + ".dense", ("pid:", "cmd:")),
       "%s: the callgrind file differs from the unpacked run's" % label)
dumps = [sorted(glob.glob(b + ".%s.pb.gz.stacks.*" % k)) for k in ("packed", "dense")]
C.true(all(len(d) == 1 for d in dumps), "%s: --keep-stacks=yes kept %s dumps" % (label, [len(d) for d in dumps]))
if all(len(d) == 1 for d in dumps):
    skip = ("pid\t", "duration_ns\t", "cmd\t")
    C.true(body(dumps[0][0], skip) == body(dumps[1][0], skip),
           "%s: the stacks dump differs from the unpacked run's" % label)
C.done()
PY
    done
}
register packing-exact t_packing_exact

# Closed regions' trees are packed before the limit is reached: a harness
# that opens a region per transaction (tests/progs/rscale.c: 80,000 of
# them, about 9 MB of dense counters, under the default 12 MiB) never
# reaches it.  Packing them changes no count: both files are the same as
# those of a run whose counters are never packed.
t_packing_closed_regions() {
    need_tool
    region_prog rscale
    local b=$PWD/rs
    cycprof "$b.packed" "$b.packed.log" --stats=yes --keep-stacks=yes \
        -- "$BIN/rscale" 80000 1 >"$b.packed.stdout" 2>&1 </dev/null || note "packed run exited non-zero"
    cycprof "$b.dense" "$b.dense.log" --pack-cold-counters=0 --keep-stacks=yes \
        -- "$BIN/rscale" 80000 1 >"$b.dense.stdout" 2>&1 </dev/null || note "unpacked run exited non-zero"
    pycheck "$b" <<'PY' || true
import glob, re, sys
from cyc import *
C = Checker()
b = sys.argv[1]
m = re.search(r"(\d+) contexts packed", open(b + ".packed.log").read())
C.true(m and int(m.group(1)) > 0,
       "no context of a closed region was packed below the limit (%s)" % (m and m.group(0)))
def body(path, skip):
    return [l for l in open(path, errors="replace") if not l.startswith(skip)]
C.true(body(b + ".packed", ("pid:", "cmd:")) == body(b + ".dense", ("pid:", "cmd:")),
       "the callgrind file differs from the unpacked run's")
dumps = [sorted(glob.glob(b + ".%s.pb.gz.stacks.*" % k)) for k in ("packed", "dense")]
C.true(all(len(d) == 1 for d in dumps), "--keep-stacks=yes kept %s dumps" % [len(d) for d in dumps])
if all(len(d) == 1 for d in dumps):
    skip = ("pid\t", "duration_ns\t", "cmd\t")
    C.true(body(dumps[0][0], skip) == body(dumps[1][0], skip),
           "the stacks dump differs from the unpacked run's")
C.done()
PY
}
register packing-closed-regions t_packing_closed_regions
