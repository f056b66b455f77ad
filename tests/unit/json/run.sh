#!/usr/bin/env bash
# Tests of `cycprof report|diff --format=json` (docs/cli/json.md): every
# document is read with Python's json parser and checked against the
# schema (check_schema.py); the numbers in it against callgrind_annotate
# run on real callgrind output files.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/json/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init json
SCHEMA="$HERE/check_schema.py"
ROWS="$REPO/tests/unit/cli/annotate_rows.awk"

# Fixtures: real callgrind files of two builds (the oracle's own format),
# and one cycprof run for --by=stack.
P=$REPO/tests/unit/cli/prog.c
gcc -O2 -g -pthread -o prog "$P" && gcc -O2 -g -pthread -DSLOWER -o prog_slower "$P" ||
    { bad setup "cannot compile $P"; finish; }
cg() { valgrind --tool=callgrind --callgrind-out-file="$T/$1" "${@:2}" >/dev/null 2>"$T/$1.log"; }
cg cg.out ./prog 16 nothread
cg cgs.out ./prog_slower 16 nothread
cg cgc.out --cache-sim=yes --branch-sim=yes ./prog 16 nothread
if [ -d "$VGLIB" ]; then
    VALGRIND_LIB=$VGLIB valgrind --tool=cycprof --cycprof-out-file="$T/cyc.out" ./prog 16 nothread >/dev/null 2>cyc.log
fi

valid() { # NAME KIND FILE: parses and matches the schema
    if python3 "$SCHEMA" "$2" "$3" >v.txt 2>&1; then return 0; fi
    bad "$1" "$(head -n 3 v.txt | tr '\n' ' ')"; return 1
}
# JSON rows as "count1,count2,...<TAB>label" (callgrind_annotate's rows).
json_rows() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    c = [r["costs"][e] for e in d["events"]]
    if any(c):
        print(",".join(map(str, c)) + "\t" + r["label"])' "$1"
}
cga_rows() { (cd / && callgrind_annotate --threshold=100 --auto=no --show-percs=no "$@") | awk -v mode=cga -f "$ROWS"; }

# ---------------------------------------------------------------- report
for f in cg.out cgc.out; do
    for inc in no yes; do
        name=json-report-$f-inclusive-$inc
        "$CYC" report --format=json -n 0 --threshold=0 --inclusive=$inc "$T/$f" >r.json 2>r.err ||
            { bad "$name" "exit $?: $(cat r.err)"; continue; }
        valid "$name" report r.json || continue
        json_rows r.json | sort >b.txt
        cga_rows --inclusive=$inc "$T/$f" | sort >a.txt
        if [ -s a.txt ] && cmp -s a.txt b.txt; then ok "$name ($(wc -l <a.txt) rows = callgrind_annotate)"
        else bad "$name" "rows differ from callgrind_annotate: $(diff a.txt b.txt | head -n 3 | tr '\n' ' ')"; fi
    done
done
want=$( (cd / && callgrind_annotate --auto=no "$T/cg.out") | awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }')
for by in file line object; do
    name=json-report-by-$by
    "$CYC" report --format=json --by=$by -n 0 --threshold=0 "$T/cg.out" >r.json 2>r.err ||
        { bad "$name" "exit $?: $(cat r.err)"; continue; }
    valid "$name" report r.json || continue
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["totals"]["Ir"], sum(r["costs"]["Ir"] for r in d["rows"]))' r.json)
    if [ "$got" = "$want $want" ]; then ok "$name (rows add up to $want)"
    else bad "$name" "total and row sum '$got', callgrind_annotate total $want"; fi
done
"$CYC" report --format=json -n 3 "$T/cg.out" >r.json 2>r.err
if valid json-report-top-n report r.json; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (len(d["rows"]) == 3 and d["omitted"] > 0))' r.json &&
        ok json-report-top-n || bad json-report-top-n "want 3 rows and some omitted"
fi
if [ -f "$T/cyc.out.pb.gz" ]; then
    "$CYC" report --format=json --by=stack -n 0 --threshold=0 "$T/cyc.out" >r.json 2>r.err
    if valid json-report-by-stack report r.json; then
        got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["total"] == sum(s["count"] for s in d["stacks"]) and d["stacks"][0]["frames"][0] == "_start")' r.json)
        [ "$got" = True ] && ok json-report-by-stack || bad json-report-by-stack "stacks do not add up to the total or do not start at _start"
    fi
else bad json-report-by-stack "no pprof file from the tool ($(tail -n 2 cyc.log | tr '\n' ' '))"; fi

# ---------------------------------------------------------------- diff
total() { (cd / && callgrind_annotate --auto=no "$1") | awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }'; }
tb=$(total "$T/cg.out") tn=$(total "$T/cgs.out")
work_b=$(cga_rows "$T/cg.out" | awk -F'\t' '$2 ~ /:work$/ { print $1 }')
work_n=$(cga_rows "$T/cgs.out" | awk -F'\t' '$2 ~ /:work$/ { print $1 }')
for v in "off:" "fail:--fail-above=1" "pass:--fail-above=50"; do
    verdict=${v%%:*} opt=${v#*:}
    name=json-diff-gate-$verdict
    # shellcheck disable=SC2086
    "$CYC" diff --format=json -n 0 $opt "$T/cg.out" "$T/cgs.out" >d.json 2>d.err; rc=$?
    want_rc=0; [ "$verdict" = fail ] && want_rc=3
    [ $rc = $want_rc ] || { bad "$name" "exit $rc, want $want_rc: $(cat d.err)"; continue; }
    valid "$name" diff d.json || continue
    got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = [r for r in d["rows"] if r["label"].endswith(":work")]
print(d["gate"]["verdict"], d["total"]["base"], d["total"]["new"], w[0]["base"], w[0]["new"], d["rows"][0] == w[0])' d.json)
    want="$verdict $tb $tn $work_b $work_n True"
    if [ "$got" = "$want" ]; then ok "$name (callgrind_annotate: total $tb -> $tn, work $work_b -> $work_n)"
    else bad "$name" "got '$got', want '$want'"; fi
done
"$CYC" diff --format=json --by=line -n 0 "$T/cg.out" "$T/cgs.out" >d.json 2>d.err &&
    valid json-diff-by-line diff d.json && ok json-diff-by-line

# ---------------------------------------------------------------- strings
# A name with a quote, a backslash, a control character and a byte that is
# not UTF-8: the document must still parse, with the name escaped.
printf 'version: 1\ncmd: ./odd\nevents: Ir\nob=/bin/odd\nfl=odd.c\nfn=a"b\\c\001d\377e\n1 5\n' >odd.out
"$CYC" report --format=json "$T/odd.out" >r.json 2>r.err
if valid json-escapes report r.json; then
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rows"][0]["function"] == "a\"b\\c\x01d\ufffde")' r.json)
    [ "$got" = True ] && ok json-escapes || bad json-escapes "name not escaped right: $(head -c 300 r.json)"
fi

"$CYC" report --format=xml "$T/cg.out" >/dev/null 2>e.txt; rc=$?
if [ $rc = 2 ] && [ "$(wc -l <e.txt)" = 1 ] && grep -q "^cycprof report: --format must be text or json, got 'xml'" e.txt
then ok json-bad-format
else bad json-bad-format "exit $rc: $(cat e.txt)"; fi

finish
