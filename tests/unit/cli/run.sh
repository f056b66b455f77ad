#!/usr/bin/env bash
# Tests of `cycprof report|diff|folded|flamegraph` (docs/cli/).
# Usage: CYCPROF_BUILD=/abs/build/dir tests/unit/cli/run.sh
# Prints "ok NAME" / "FAIL NAME: reason" per test and exits non-zero if any
# failed. Oracles: callgrind_annotate for report numbers (on real callgrind
# output), `go tool pprof -traces/-raw` for folded stacks.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init cli
export HOME=$T/home GOCACHE=$T/gocache GOFLAGS=-mod=mod
mkdir -p "$HOME" "$GOCACHE"
ROWS="$HERE/annotate_rows.awk"

# ---------------------------------------------------------------- fixtures
# Two builds of the same source path, so that diff matches the names.
gcc -O2 -g -pthread -o prog "$HERE/prog.c" &&
    gcc -O2 -g -pthread -DSLOWER -o prog_slower "$HERE/prog.c" ||
    { bad setup "cannot compile $HERE/prog.c"; finish; }
cg() { # OUT ARGS... : one callgrind run of ./prog
    local out=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$T/$out" "$@" >/dev/null 2>"$T/$out.log"
}
cg cg.out ./prog
cg cgi.out --dump-instr=yes --compress-strings=no --compress-pos=no ./prog
cg cgc.out --cache-sim=yes --branch-sim=yes --dump-instr=yes --dump-line=no ./prog
cg cgt.out --separate-threads=yes ./prog
# Without the thread, for diff: two runs then count exactly the same.
cg cgn.out ./prog 16 nothread
cg cgn2.out ./prog 16 nothread
cg cgs.out ./prog_slower 16 nothread

# Rows of callgrind_annotate, run from / so that it strips no directory
# prefix from file names (it does that for the cwd).
cga_rows() { (cd / && callgrind_annotate --threshold=100 --auto=no --show-percs=no "$@") | awk -v mode=cga -f "$ROWS"; }
cyc_rows() { "$CYC" report -n 0 --threshold=0 --show-percs=no "$@" | awk -v mode=cyc -f "$ROWS"; }
# Keep rows whose column $1 (1-based) is non-zero: callgrind_annotate's
# threshold stops listing once the primary sort event is exhausted.
nonzero_col() { awk -F'\t' -v c="$1" '{ split($1, a, ","); if (a[c] + 0 > 0) print }'; }

same_rows() { # NAME FILE [cga args] -- [cycprof args]
    local name=$1 f=$2; shift 2
    local ca=() ya=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do ca+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    ya=("$@")
    cga_rows ${ca[@]+"${ca[@]}"} "$T/$f" | nonzero_col "${COL:-1}" | sort >a.txt
    cyc_rows ${ya[@]+"${ya[@]}"} "$T/$f" | nonzero_col "${COL:-1}" | sort >b.txt
    if [ ! -s a.txt ]; then
        bad "$name" "callgrind_annotate listed nothing for $f"
    elif cmp -s a.txt b.txt; then
        ok "$name ($(wc -l <a.txt) rows)"
    else
        bad "$name" "rows differ from callgrind_annotate: $(diff a.txt b.txt | head -3 | tr '\n' ' ')"
    fi
}

# ---------------------------------------------------------------- report
same_rows report-self-vs-annotate cg.out
same_rows report-inclusive-vs-annotate cg.out --inclusive=yes -- --inclusive
same_rows report-self-instr-uncompressed cgi.out
same_rows report-inclusive-instr-uncompressed cgi.out --inclusive=yes -- --inclusive
same_rows report-multi-event cgc.out
same_rows report-multi-event-inclusive cgc.out --inclusive=yes -- --inclusive
COL=2 same_rows report-sort-Dr-Ir cgc.out --sort=Dr,Ir -- --sort=Dr,Ir
same_rows report-thread-1 cgt.out-01
same_rows report-thread-2-inclusive cgt.out-02 --inclusive=yes -- --inclusive

# Name compression with ids as sparse as the format allows: each table's
# ids renumbered, some in order, some past those defined so far (which the
# ids defined later then reach), some near 2^32.
perl -pe 's/^([a-z]+=)\((\d+)\)/$1."(".($2 % 2 ? 2 * $2 + 1 : $2 % 4 == 2 ? 2 * $2 + 1030 : 4000000000 - $2).")"/e' \
    "$T/cg.out" >"$T/cgsparse.out"
# Oracle: callgrind's own file (the original ids), parsed by tests/lib/cyc.py;
# self cost per function name, as the JSON report of the renumbered file has it.
"$CYC" report --format=json -n 0 --threshold=0 "$T/cgsparse.out" >sparse.json 2>&1
if PYTHONPATH="$HERE/../../lib" python3 - "$T/cg.out" sparse.json >sparse.diff 2>&1 <<'PY'
import collections, json, sys
from cyc import parse_callgrind
want, got = collections.Counter(), collections.Counter()
for (_, _, fn), v in parse_callgrind(sys.argv[1]).fn_self_key.items():
    want[fn] += v
try:
    rows = json.load(open(sys.argv[2]))["rows"]
except ValueError:
    sys.exit("no JSON report: " + open(sys.argv[2]).readline().strip())
for row in rows:
    got[row["function"]] += row["costs"]["Ir"]
want, got = (+want), (+got)
bad = sorted(k for k in set(want) | set(got) if want[k] != got[k])
print("; ".join("%s: callgrind %d, cycprof %d" % (k, want[k], got[k]) for k in bad[:3]))
sys.exit(1 if bad or not want else 0)
PY
then ok "report-sparse-name-ids ($(grep -cE '\(39999[0-9]{5}\)' "$T/cgsparse.out") ids near 2^32)"
else bad report-sparse-name-ids "$(head -c 300 sparse.diff)"; fi
for args in "--by=function" "--by=file" "--by=object" "--inclusive"; do
    "$CYC" report -n 0 $args "$T/cg.out" 2>&1 | grep -v '^Data file' >a.txt
    "$CYC" report -n 0 $args "$T/cgsparse.out" 2>&1 | grep -v '^Data file' >b.txt
    if grep -qE '\(39999[0-9]{5}\)' "$T/cgsparse.out" && cmp -s a.txt b.txt; then
        ok "report-sparse-name-ids $args"
    else
        bad "report-sparse-name-ids $args" "$(diff a.txt b.txt | head -3 | tr '\n' ' ')"
    fi
done

# Same order as callgrind_annotate, not only the same numbers.
cga_rows "$T/cg.out" >a.txt
cyc_rows "$T/cg.out" >b.txt
if cmp -s a.txt b.txt; then ok report-order-vs-annotate
else bad report-order-vs-annotate "$(diff a.txt b.txt | head -3 | tr '\n' ' ')"; fi

# Totals line = callgrind_annotate's PROGRAM TOTALS.
want=$( (cd / && callgrind_annotate --auto=no "$T/cg.out") | awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }')
got=$("$CYC" report "$T/cg.out" | sed -n 's/^Total Instructions\.\.\.//p' | tr -d ,)
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "report-totals ($got)"
else bad report-totals "cycprof '$got', callgrind_annotate '$want'"; fi

# Two files merged by name: each row is the sum of the per-file rows.
{ cga_rows "$T/cgt.out-01"; cga_rows "$T/cgt.out-02"; } |
    awk -F'\t' '{ s[$2] += $1 } END { for (k in s) print s[k] "\t" k }' | sort >a.txt
cyc_rows "$T/cgt.out-01" "$T/cgt.out-02" | sort >b.txt
if cmp -s a.txt b.txt; then ok "report-merge-two-files ($(wc -l <a.txt) rows)"
else bad report-merge-two-files "$(diff a.txt b.txt | head -3 | tr '\n' ' ')"; fi

# fl= without a new fn=: the cost lines after it are lines of that file,
# and costs of the function the last fn= named (as callgrind_annotate
# counts them).
printf 'events: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 7\n' >flswitch.cg
if "$CYC" report --show-percs=no --by=line flswitch.cg | grep -qE '^ *7  b\.c:2 f$' &&
    "$CYC" report --show-percs=no flswitch.cg | grep -qE '^ *12  a\.c:f$'; then
    ok report-fl-without-fn
else
    bad report-fl-without-fn "$("$CYC" report --show-percs=no --by=line flswitch.cg | tail -n 3 | tr '\n' ' ')"
fi

# --by=file|line|object: the rows add up to the total (totals = costs).
total=$("$CYC" report "$T/cg.out" | sed -n 's/^Total Instructions\.\.\.//p' | tr -d ,)
for by in function file line object; do
    sum=$(cyc_rows --by=$by "$T/cg.out" | awk -F'\t' '{ s += $1 } END { print s + 0 }')
    if [ "$sum" = "$total" ]; then ok "report-by-$by-sums-to-total"
    else bad "report-by-$by-sums-to-total" "rows add up to $sum, total $total"; fi
done

# -n and --threshold.
n=$("$CYC" report -n 3 "$T/cg.out" | awk '/file:function$/ { t = 1; next } t && /^$/ { exit } t { c++ } END { print c + 0 }')
[ "$n" = 3 ] && ok report-top-n || bad report-top-n "expected 3 rows, got $n"
if "$CYC" report --threshold=50 "$T/cg.out" | grep -q 'prog.c:work' &&
   ! "$CYC" report --threshold=50 "$T/cg.out" | grep -q 'prog.c:fib '; then
    ok report-threshold
else bad report-threshold "--threshold=50 should keep work (most of the run) only"; fi

# Default file: the newest cycprof.out.* here, never a .pb.gz or a stacks
# dump kept beside it (--keep-stacks=yes), which the tool writes last.
mkdir -p dflt && cp "$T/cg.out" dflt/cycprof.out.100 && cp "$T/cgs.out" dflt/cycprof.out.200 &&
    touch -d '2020-01-01' dflt/cycprof.out.100 && touch -d '2021-01-01' dflt/cycprof.out.200 &&
    echo junk >dflt/cycprof.out.300.pb.gz &&
    printf 'cycprof-stacks\t1\ncmd\t\npid\t1\nduration_ns\t0\ntotal\t0\nend\t0\n' \
        >dflt/cycprof.out.200.pb.gz.stacks.200
if (cd dflt && "$CYC" report) | grep -q '^Data file(s):  *cycprof.out.200$'; then ok report-default-newest-file
else bad report-default-newest-file "did not pick cycprof.out.200"; fi

# ---------------------------------------------------------------- diff
tb=$("$CYC" report "$T/cgn.out" | sed -n 's/^Total Instructions\.\.\.//p' | tr -d ,)
tn=$("$CYC" report "$T/cgs.out" | sed -n 's/^Total Instructions\.\.\.//p' | tr -d ,)
"$CYC" diff "$T/cgn.out" "$T/cgs.out" >d.txt 2>d.err; rc=$?
line=$(grep '^Total Instructions:' d.txt | tr -d ,)
want="Total Instructions: $tb -> $tn  +$((tn - tb))"
if [ $rc = 0 ] && [ "${line#"$want"}" != "$line" ]; then ok "diff-total ($tb -> $tn)"
else bad diff-total "rc=$rc line='$line' want prefix '$want'"; fi
# work() is where the builds differ: it must be the first row and grow.
first=$(awk '/file:function$/ { getline; print; exit }' d.txt)
case $first in
    +*prog.c:work*) ok diff-largest-change-first ;;
    *) bad diff-largest-change-first "first row: $first" ;;
esac
"$CYC" diff --fail-above=1 "$T/cgn.out" "$T/cgs.out" >/dev/null 2>d.err; rc=$?
if [ $rc = 3 ] && [ "$(wc -l <d.err)" = 1 ] && grep -q '^cycprof diff: Ir grew by more than' d.err
then ok diff-fail-above-trips
else bad diff-fail-above-trips "rc=$rc stderr=$(head -c 200 d.err)"; fi
"$CYC" diff --fail-above=50 "$T/cgn.out" "$T/cgs.out" >/dev/null 2>d.err; rc=$?
[ $rc = 0 ] && ok diff-fail-above-passes || bad diff-fail-above-passes "rc=$rc $(cat d.err)"
"$CYC" diff --fail-above=0 "$T/cgn.out" "$T/cgn2.out" >d.txt 2>d.err; rc=$?
if [ $rc = 0 ] && grep -q 'No function differs' d.txt; then ok diff-identical
else bad diff-identical "rc=$rc"; fi

# ---------------------------------------------------------------- folded
pprof_traces() { go tool pprof -traces "$1" 2>/dev/null | awk -f "$HERE/traces_to_folded.awk" | sort; }
pprof_raw_sum() {
    go tool pprof -raw "$1" 2>/dev/null | awk '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
        s && /^ +[0-9]+:/ { sub(":", "", $1); t += $1 } END { print t + 0 }'
}
check_folded() { # NAME PPROF [EXPECTED_FOLDED]
    local name=$1 pf=$2 exp=${3:-}
    if ! timeout 120 "$CYC" folded "$pf" >f.txt 2>f.err; then bad "$name" "folded failed: $(cat f.err)"; return; fi
    sort f.txt >fs.txt
    if [ -n "$exp" ] && ! cmp -s fs.txt <(sort "$exp"); then
        bad "$name" "differs from $exp: $(diff fs.txt <(sort "$exp") | head -3 | tr '\n' ' ')"; return
    fi
    if ! command -v go >/dev/null; then ok "$name (go not installed: pprof oracle skipped)"; return; fi
    pprof_traces "$pf" >g.txt
    if ! cmp -s fs.txt g.txt; then
        bad "$name" "differs from go tool pprof -traces: $(diff fs.txt g.txt | head -3 | tr '\n' ' ')"; return
    fi
    local s r
    s=$(awk '{ s += $NF } END { print s + 0 }' f.txt)
    r=$(pprof_raw_sum "$pf")
    [ "$s" = "$r" ] && ok "$name ($(wc -l <f.txt) stacks, $s)" || bad "$name" "folded sum $s, pprof -raw sum $r"
}
"$CYC" pprof "$HERE/data/inline.stacks" -o inline.pb.gz 2>p.err ||
    bad folded-setup "cycprof pprof failed: $(cat p.err)"
check_folded folded-inline-fixture inline.pb.gz "$HERE/data/inline.folded"
# More stacks than the first hash table size (256): sorting them once hung.
awk 'BEGIN { OFS = "\t"; n = 600
    print "cycprof-stacks", 1; print "cmd", "many"; print "pid", 1
    print "duration_ns", 1; print "total", n * (n + 1) / 2
    print "map", 1, "1000", "100000", "0", "/many"
    for (i = 1; i <= n; i++) print "fn", i, 0, "f" i, "f" i, "many.c"
    for (i = 1; i <= n; i++) print "loc", i, 1, sprintf("%x", 4096 + i), i ":" i
    print "node", 1, 0, 0
    for (i = 1; i <= n; i++) print "node", i + 1, i, i
    for (i = 1; i <= n; i++) print "sample", i + 1, i, 1, i
    print "end", n }' >many.stacks
if "$CYC" pprof many.stacks -o many.pb.gz 2>p.err; then
    check_folded folded-many-stacks many.pb.gz
    n=$(timeout 60 "$CYC" report --by=stack -n 0 --threshold=0 many.pb.gz | grep -c '^ *[0-9,]* (')
    [ "$n" = 600 ] && ok report-by-stack-many || bad report-by-stack-many "expected 600 stacks, got $n"
else
    bad folded-many-stacks "cycprof pprof failed: $(cat p.err)"
fi
"$CYC" folded -o out.folded inline.pb.gz && cmp -s out.folded <("$CYC" folded inline.pb.gz) &&
    ok folded-output-file || bad folded-output-file "-o output differs from stdout"

# ---------------------------------------------------------------- flamegraph
svg_ok() { # FILE: well-formed XML?
    if command -v xmllint >/dev/null; then xmllint --noout "$1" 2>/dev/null
    else python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" 2>/dev/null; fi
}
if "$CYC" flamegraph --minwidth=0 inline.pb.gz -o fg.svg 2>fg.err && svg_ok fg.svg &&
   grep -q '<script' fg.svg && grep -q 'semi:colon &lt;&amp;&gt;' fg.svg &&
   grep -q '^123,456,789,723 instructions, 100.0%</title>' fg.svg; then
    ok "flamegraph-svg ($(grep -c '<g class="f"' fg.svg) frames)"
else bad flamegraph-svg "invalid SVG or missing frames: $(cat fg.err)"; fi

# ---------------------------------------------------------------- real cycprof runs
if [ -f "$VGLIB/cycprof-amd64-linux" ]; then
    mkdir -p run && (cd run && VALGRIND_LIB=$VGLIB valgrind --tool=cycprof ../prog >/dev/null 2>vg.log)
    out=$(ls run/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$' | head -n 1)
    if [ -z "$out" ]; then
        bad cycprof-run "valgrind --tool=cycprof wrote no cycprof.out.*: $(tail -n 2 run/vg.log | tr '\n' ' ')"
    else
        cp "$out" "$T/cyc.out"
        same_rows report-cycprof-file-vs-annotate cyc.out
        same_rows report-cycprof-file-inclusive-vs-annotate cyc.out --inclusive=yes -- --inclusive
        if [ -f "$out.pb.gz" ]; then
            check_folded folded-cycprof-run "$out.pb.gz"
            fs=$(awk '{ s += $NF } END { print s + 0 }' f.txt)
            tot=$("$CYC" report "$out" | sed -n 's/^Total Instructions\.\.\.//p' | tr -d ,)
            [ "$fs" = "$tot" ] && ok "folded-sum-equals-report-total ($tot)" ||
                bad folded-sum-equals-report-total "folded $fs, report $tot"
            top=$(awk '{ print $NF }' f.txt | sort -n -r | head -n 1)
            st=$("$CYC" report --by=stack -n 1 "$out" | awk '/stack \(leaf first/ { getline; gsub(/,/, "", $1); print $1; exit }')
            [ "$st" = "$top" ] && ok report-by-stack-heaviest || bad report-by-stack-heaviest "report $st, folded max $top"
            "$CYC" flamegraph "$out" -o run.svg && svg_ok run.svg && ok flamegraph-cycprof-run ||
                bad flamegraph-cycprof-run "no valid SVG"
        else
            bad folded-cycprof-run "the tool wrote no $out.pb.gz"
        fi
    fi
else
    skip real-runs "the cycprof tool is not built ($VGLIB/cycprof-amd64-linux)"
fi

# ---------------------------------------------------------------- bad input
printf 'version: 1\nevents: Ir\nfl=(1) a.c\nfn=(1) main\n0 5\ncfn=(2) f\ncalls=1 0\n' >trunc.out
printf 'version: 1\nevents: Ir\nfl=a.c\nfn=main\n0 5\nbogus line\n' >corrupt.out
printf 'hello' >garbage.pb.gz
head -c 100 inline.pb.gz >trunc.pb.gz
expect_err err-missing-file '^cycprof report: nope\.out: No such file' report nope.out
expect_err err-truncated-calls '^cycprof report: trunc\.out: truncated' report trunc.out
expect_err err-corrupt-line '^cycprof report: corrupt\.out:6: unrecognized line' report corrupt.out
expect_err err-unknown-option "^cycprof report: unknown option '--bogus'" report --bogus "$T/cg.out"
expect_err err-unknown-event "^cycprof report: unknown event 'Xx' in --sort" report --sort=Xx "$T/cg.out"
expect_err err-bad-top "^cycprof report: -n/--top needs a number, got 'abc'$" report -n abc "$T/cg.out"
expect_err err-stack-needs-pprof '^cycprof report: .*cg\.out: exact stacks need the pprof file' report --by=stack "$T/cg.out"
expect_err err-diff-one-file '^cycprof diff: need two files' diff "$T/cg.out"
expect_err err-diff-unknown-event "^cycprof diff: .*unknown event 'Xx'" diff --sort=Xx "$T/cg.out" "$T/cg.out"
# report and diff on pprof profiles: tests/unit/pprofin.

# A text file that is no profile is said to be none at its first line,
# whichever command reads it (the callgrind reader used to take passwd's
# 'name:' lines for headers and stop at line 13, the first name with a '-').
{ echo 'root:x:0:0:root:/root:/bin/bash'
  for n in 1 2 3 4 5 6 7 8 9 10 11; do echo "user$n:x:$n:$n::/home/user$n:/bin/sh"; done
  echo 'www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin'; } >passwd
seq 1 20 >nums.txt
printf '# /etc/fstab\n\nUUID=1234 / ext4 defaults 0 1\n' >fstab
neither='not a callgrind-format file or a pprof profile'
expect_err err-passwd-not-a-profile "^cycprof report: passwd:1: $neither \('root:x:0:0:root:/root:/bin/bash'\)$" report passwd
expect_err err-numbers-not-a-profile "^cycprof report: nums\.txt:1: $neither \('1'\)$" report nums.txt
expect_err err-comments-then-not-a-profile "^cycprof report: fstab:3: $neither \('UUID=1234 / ext4 defaults 0 1'\)$" report fstab
expect_err err-diff-not-a-profile "^cycprof diff: nums\.txt:1: $neither" diff "$T/cg.out" nums.txt
for sub in folded flamegraph firefox; do
    expect_err "err-$sub-not-a-profile" "^cycprof $sub: passwd:1: $neither" "$sub" passwd
done
# A callgrind-format file with a fault deep inside: the fault's own line.
printf '# callgrind format\nversion: 1\ncreator: x\nevents: Ir\nfl=a.c\nfn=main\n3 5\n4 6\nwww-data 7\n' >deep.out
expect_err err-deep-fault-line "^cycprof report: deep\.out:9: unrecognized line 'www-data 7'$" report deep.out

# An option whose value is missing is named as --help names it.
while IFS='|' read -r sub opt want; do
    expect_err "err-missing-value-$sub$opt" "^cycprof $sub: $want( \(see cycprof $sub --help\))?$" "$sub" "$opt"
done <<'EOF_OPTS'
report|-n|-n/--top needs a number
report|--top|-n/--top needs a number
report|--by|--by needs function, file, line, object or stack
report|--threshold|--threshold needs a percentage 0-100
report|--format|--format needs text or json
diff|-n|-n/--top needs a number
diff|--by|--by needs function, file, line, object or stack
diff|--min-change|--min-change needs a number of events
diff|--fail-above|--fail-above needs a percentage
diff|--common-root|--common-root needs auto or no
flamegraph|--width|--width needs a number of pixels \(100-100000\)
flamegraph|--minwidth|--minwidth needs a number of pixels
flamegraph|-o|-o/--output needs a file name
folded|--output|-o/--output needs a file name
firefox|-o|-o/--output needs a file name
pprof|-o|-o/--output needs a file name
pprof|-z|-z/--level needs a gzip level 1\.\.9
pprof|--max-samples|--max-samples needs a number
EOF_OPTS
expect_err err-folded-garbage '^cycprof folded: garbage\.pb\.gz: not a valid pprof' folded garbage.pb.gz
expect_err err-folded-truncated '^cycprof folded: trunc\.pb\.gz: truncated gzip' folded trunc.pb.gz
expect_err err-folded-no-pprof '^cycprof folded: .*cg\.out: exact stacks need' folded "$T/cg.out"
expect_err err-flamegraph-bad-width '^cycprof flamegraph: --width' flamegraph --width=x inline.pb.gz
expect_err err-flamegraph-unwritable '^cycprof flamegraph: /nonexistent/x\.svg: ' flamegraph inline.pb.gz -o /nonexistent/x.svg
(mkdir -p empty && cd empty && "$CYC" report >/dev/null 2>../e.txt); rc=$?
[ $rc != 0 ] && grep -q '^cycprof report: no cycprof.out' e.txt && ok err-no-default-file ||
    bad err-no-default-file "rc=$rc $(cat e.txt)"

# ---------------------------------------------------------------- help
for sub in report diff folded flamegraph firefox; do
    if "$CYC" "$sub" --help >h.txt 2>&1 && grep -q "^usage: cycprof $sub" h.txt; then ok "help-$sub"
    else bad "help-$sub" "no usage text"; fi
done

# cargo cycprof: tests/unit/cargo/run.sh.

# ---------------------------------------------------------------- fuzz regressions
if "$SUITE_REPO/tests/fuzz/run-regress.sh" "$CYC" >r.txt 2>&1; then ok "fuzz-regress ($(tail -n 1 r.txt))"
else bad fuzz-regress "$(grep FAIL r.txt | head -n 3 | tr '\n' ' ')"; fi

finish
