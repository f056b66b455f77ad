#!/usr/bin/env bash
# Tests of the named regions in `cycprof diff` and `cycprof report`
# (docs/regions.md, docs/cli/diff.md, docs/cli/json.md) on hand-written
# callgrind files whose '# cycprof-region' lines fix the answer: the
# region gate obeys --min-change like every row, --format=json carries the
# regions and the gate's verdict on them, report --regions has no JSON.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/regions/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init regions
SCHEMA="$REPO/tests/unit/json/check_schema.py"

# profile FILE INNER: main costs 100000 in both files (so the total and the
# rows never trip the gate); region inner costs INNER, region setup 300.
profile() {
    printf '# callgrind format\nversion: 1\ncreator: test\ncmd: ./prog\nevents: Ir\n' >"$1"
    printf 'summary: 100000\ntotals: 100000\n' >>"$1"
    printf '# cycprof-region\t1\t%s\t%s\tinner\n' "$2" "$2" >>"$1"
    printf '# cycprof-region\t2\t300\t300\tsetup\n' >>"$1"
    printf 'fl=prog.c\nfn=main\n1 100000\n' >>"$1"
}
profile base.out 500
profile small.out 550      # +50: 10%, under the default --min-change of 100
profile large.out 1000     # +500: 100%

diff_rc() { # NAME WANT-RC ARGS...
    local name=$1 want=$2; shift 2
    "$CYC" diff "$@" >d.txt 2>d.err; local rc=$?
    if [ "$rc" = "$want" ]; then return 0; fi
    bad "$name" "exit $rc, want $want: $(head -c 300 d.err)"
    return 1
}

diff_rc region-below-min-change 0 --fail-above=1 base.out small.out &&
    { grep -q ' region inner$' d.txt && ok region-below-min-change ||
        bad region-below-min-change "the text does not list region inner: $(tr '\n' '|' <d.txt | tail -c 300)"; }
diff_rc region-min-change-1 3 --fail-above=1 --min-change=1 base.out small.out &&
    { [ "$(wc -l <d.err)" = 1 ] && grep -q 'region inner (+10.00%)$' d.err && ok region-min-change-1 ||
        bad region-min-change-1 "verdict '$(cat d.err)', want one line naming region inner (+10.00%)"; }
diff_rc region-large-red 3 --fail-above=50 base.out large.out && ok region-large-red

# JSON: the regions that changed, and the gate's verdict on them.
json() { # NAME WANT-RC WANT-TRIPPED ARGS...
    local name=$1 want=$2 tripped=$3; shift 3
    diff_rc "$name" "$want" --format=json "$@" || return
    python3 "$SCHEMA" diff d.txt >v.txt 2>&1 ||
        { bad "$name" "schema: $(head -n 3 v.txt | tr '\n' ' ')"; return; }
    local got
    got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%d:%d" % (r["region"], r["base"], r["new"]) for r in d["regions"]),
      "|", " ".join(r["region"] for r in d["gate"]["tripped_regions"]), "|", d["gate"]["verdict"])' d.txt)
    [ "$got" = "$tripped" ] && ok "$name" || bad "$name" "got '$got', want '$tripped'"
}
json json-regions-pass 0 "inner:500:550 |  | pass" --fail-above=1 base.out small.out
json json-regions-fail 3 "inner:500:550 | inner | fail" --fail-above=1 --min-change=1 base.out small.out
json json-regions-off 0 "inner:500:1000 |  | off" base.out large.out

# report --regions: the table; with --format=json one line and status 2.
"$CYC" report --regions large.out >r.txt 2>r.err && grep -q '^inner .* 1,000 ' r.txt &&
    ok report-regions || bad report-regions "$(head -c 300 r.err) $(head -n 3 r.txt | tr '\n' '|')"
"$CYC" report --regions --format=json large.out >r.txt 2>r.err; rc=$?
[ $rc = 2 ] && [ "$(wc -l <r.err)" = 1 ] && [ ! -s r.txt ] && grep -q '^cycprof report: --regions' r.err &&
    ok report-regions-json-refused ||
    bad report-regions-json-refused "exit $rc, stderr '$(head -c 200 r.err)', stdout $(wc -c <r.txt) bytes"

# report --regions prints every row (the log at exit shows only the
# costliest): 1,000 regions, region r-I costing I + 1, largest first.
{
    printf '# callgrind format\nversion: 1\ncreator: test\ncmd: ./prog\nevents: Ir\n'
    printf 'summary: 1000000\ntotals: 1000000\n'
    for i in $(seq 0 999); do printf '# cycprof-region\t1\t%d\t%d\tr-%d\n' $((i + 1)) $((i + 1)) "$i"; done
    printf 'fl=prog.c\nfn=main\n1 1000000\n'
} >many.out
"$CYC" report --regions many.out >r.txt 2>r.err
rows=$(grep -c '^r-' r.txt)
first=$(grep -m1 '^r-' r.txt | cut -d' ' -f1)
last=$(grep '^r-' r.txt | tail -n 1 | cut -d' ' -f1)
[ "$rows" = 1000 ] && [ "$first" = r-999 ] && [ "$last" = r-0 ] && ok report-regions-all ||
    bad report-regions-all "$rows rows (want 1000), first $first (want r-999), last $last (want r-0): $(head -c 200 r.err)"
finish
