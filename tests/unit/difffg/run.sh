#!/usr/bin/env bash
# Exact per-stack deltas (`cycprof diff --by=stack`, docs/cli/diff.md) and
# the differential flame graph (`cycprof flamegraph BASE NEW`,
# docs/cli/flamegraph.md), against differences known by construction:
# - prog.c built twice, in two folders, NEW with one more call of extra()
#   from b(); the oracle is cachegrind's self cost per function of each
#   build (deltas.py expect-cg), run in the same fixed environment;
# - two RISC Zero guest profiles (tests/unit/pprofin/mkrisc0.py) whose
#   text descriptions differ in a few stacks: the descriptions are the
#   oracle;
# - two Go CPU profiles of tests/unit/pprofin/gocpu.go, against `go tool
#   pprof -raw` of each (skipped without go).
# The SVG is opened in headless Chromium (Debian chromium-headless-shell;
# skipped without it): a small script (readback.js) hovers every box and
# reads the numbers the page shows.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/difffg/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init difffg
need_vglib
D=$HERE/deltas.py

# ------------------------------------------------------------ the builds
# The same source in two checkouts; the binaries differ by the extra call
# (and by where the linker put everything after it). The two paths are as
# long: ld.so's strrchr over the program's path costs what its length and
# alignment make it, and cachegrind's oracle would see that change too.
mkdir -p a/co/proj/src b/ci/proj/src run home
cp "$HERE/prog.c" a/co/proj/src/ && cp "$HERE/prog.c" b/ci/proj/src/
(cd a/co/proj && gcc -O1 -g -I"$REPO/cycprof/include" -o prog src/prog.c) &&
    (cd b/ci/proj && gcc -O1 -g -I"$REPO/cycprof/include" -DNEW -o prog src/prog.c) ||
    { bad setup "cannot compile prog.c"; finish; }
# One fixed environment and cwd for every run (the suites' rule).
vg() { # TOOL-OPTIONS... PROGRAM
    (cd run && env -i PATH=/usr/bin:/bin HOME="$T/home" LANG=C VALGRIND_LIB="$VGLIB" \
        valgrind "$@" >/dev/null 2>&1 </dev/null)
}
for s in a/co:base b/ci:new; do
    dir=${s%%:*} side=${s#*:}
    vg --tool=cycprof --deterministic=yes --cycprof-helper="$CYC" \
        --cycprof-out-file="$T/$side.out" --log-file="$T/$side.log" "$T/$dir/proj/prog"
    vg --tool=cachegrind --vex-guest-chase=no --cache-sim=no --show-below-main=yes \
        --cachegrind-out-file="$T/$side.cg" --log-file="$T/$side.cg.log" "$T/$dir/proj/prog"
    [ -s "$side.out.pb.gz" ] && [ -s "$side.cg" ] ||
        { bad setup "the $side run: $(tail -n 2 "$side.log" "$side.cg.log" | tr '\n' ' ')"; finish; }
done
python3 "$D" expect-cg base.cg new.cg >expect.json 2>err.txt ||
    { bad setup "$(cat err.txt)"; finish; }

# ------------------------------------------------------ diff --by=stack
# Every stack's delta: 0, but main;b and main;b;extra (cachegrind's self
# deltas of b and extra). The unnamed code the linker moved must match
# too (by its rank in the binary, as the function diff matches it).
for in in "callgrind:base.out new.out" "pprof:base.out.pb.gz new.out.pb.gz"; do
    kind=${in%%:*} files=${in#*:}
    name=diff-stack-json-$kind
    # shellcheck disable=SC2086
    "$CYC" diff --by=stack --format=json -n 0 $files >d.json 2>d.err ||
        { bad "$name" "exit $?: $(cat d.err)"; continue; }
    if ! python3 "$REPO/tests/unit/json/check_schema.py" diff d.json >v.txt; then
        bad "$name" "schema: $(head -n 3 v.txt | tr '\n' ' ')"
    elif python3 "$D" json expect.json d.json >c.txt 2>&1; then ok "$name ($(cat c.txt), as cachegrind says)"
    else bad "$name" "$(cat c.txt)"; fi
done
name=diff-stack-text
"$CYC" diff --by=stack -n 0 base.out new.out >d.txt 2>d.err; rc=$?
if [ $rc != 0 ]; then bad "$name" "exit $rc: $(cat d.err)"
elif python3 "$D" text expect.json d.txt >c.txt 2>&1; then ok "$name ($(cat c.txt))"
else bad "$name" "$(cat c.txt)"; fi

# The function diff of the pprof files agrees: only b and extra changed
# (cachegrind), the unnamed code outside the binary's mapping included.
"$CYC" diff --format=json -n 0 base.out.pb.gz new.out.pb.gz >f.json 2>f.err
got=$(python3 -c 'import json,sys; print(" ".join(sorted(r["function"] for r in json.load(open(sys.argv[1]))["rows"])))' f.json 2>/dev/null)
if [ "$got" = "b extra" ]; then ok "diff-function-pprof (changed: $got)"
else bad diff-function-pprof "changed functions '$got', want 'b extra' (cachegrind)"; fi

# Named regions come from the callgrind files: "calls b" grows by b's and
# extra's deltas, no other region changes.
want=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["stacks"].values()))' expect.json)
"$CYC" diff --by=stack --format=json base.out new.out >d.json 2>d.err
got=$(python3 -c 'import json,sys; print(" ".join("%s:%d" % (r["region"], r["delta"]) for r in json.load(open(sys.argv[1]))["regions"]))' d.json 2>/dev/null)
if [ "$got" = "calls b:$want" ]; then ok "diff-stack-regions (calls b $want)"
else bad diff-stack-regions "regions '$got', want 'calls b:$want'"; fi

# The gate works on stacks too: main;b;extra is new and over
# --min-change, main;b's one instruction is under it.
"$CYC" diff --by=stack --format=json --fail-above=1 base.out new.out >d.json 2>d.err; rc=$?
got=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gate"]; print(g["verdict"], [r["frames"][-2:] for r in g["tripped"]])' d.json 2>/dev/null)
if [ $rc = 3 ] && [ "$got" = "fail [['b', 'extra']]" ]; then ok diff-stack-gate
else bad diff-stack-gate "exit $rc: $got $(cat d.err)"; fi
"$CYC" diff --by=stack --fail-above=1 base.out base.out.pb.gz >d.txt 2>d.err; rc=$?
if [ $rc = 0 ] && grep -q "^No stack differs.$" d.txt; then ok diff-stack-same
else bad diff-stack-same "exit $rc: $(cat d.err) $(tail -n 2 d.txt)"; fi

# ------------------------------------------------ RISC Zero guest profiles
# NEW: fibonacci_1 runs 100,000 cycles more, a memcpy stack appears under
# it, the [PageOut] stack is gone.
MK=$REPO/tests/unit/pprofin/mkrisc0.py
G=$REPO/tests/unit/pprofin/guest.txt
sed -e 's/^1800000 /1900000 /' -e '/\[PageOut\]/d' "$G" >guest-new.txt &&
    echo '700 memcpy;fibonacci_1;main;__start' >>guest-new.txt &&
    python3 "$MK" guest-base.pb guest <"$G" && python3 "$MK" guest-new.pb guest <guest-new.txt &&
    python3 "$D" expect-risc0 "$G" guest-new.txt >expect-risc0.json ||
    { bad setup "mkrisc0.py failed"; finish; }
"$CYC" diff --by=stack --format=json -n 0 guest-base.pb guest-new.pb >d.json 2>d.err; rc=$?
if [ $rc != 0 ]; then
    bad diff-stack-risc0 "exit $rc: $(cat d.err)"
elif python3 "$D" json expect-risc0.json d.json >c.txt 2>&1; then ok "diff-stack-risc0 ($(cat c.txt))"
else bad diff-stack-risc0 "$(cat c.txt)"; fi

# A rebuild that renamed fibonacci_2 to fibonacci_2_v2: its stacks are
# gone and new, unless --mod-funcname names them alike; then nothing
# changed, and the flame graph (below) shows no change anywhere.
sed 's/fibonacci_2/fibonacci_2_v2/' "$G" >guest-renamed.txt &&
    python3 "$MK" guest-renamed.pb guest <guest-renamed.txt &&
    python3 "$D" expect-risc0 "$G" guest-renamed.txt >expect-renamed.json &&
    echo '{"anchor": null, "stacks": {}, "total": 0}' >expect-none.json ||
    { bad setup "mkrisc0.py failed"; finish; }
for r in "as-recorded:expect-renamed.json" "mod-funcname:expect-none.json:--mod-funcname=s/_v2$//"; do
    name=diff-stack-renamed-${r%%:*} rest=${r#*:}
    exp=${rest%%:*} opt=${rest#*:}
    [ "$opt" = "$rest" ] && opt=
    "$CYC" diff --by=stack --format=json -n 0 ${opt:+"$opt"} guest-base.pb guest-renamed.pb >d.json 2>d.err; rc=$?
    if [ $rc != 0 ]; then bad "$name" "exit $rc: $(cat d.err)"
    elif python3 "$D" json "$exp" d.json >c.txt 2>&1; then ok "$name ($(cat c.txt))"
    else bad "$name" "$(cat c.txt)"; fi
done

# Renamed and grown: one row, NEW's names, and BASE's after it.
sed -e 's/fibonacci_2/fibonacci_2_v2/' -e 's/^950000 /960000 /' "$G" | python3 "$MK" guest-grown.pb guest ||
    { bad setup "mkrisc0.py failed"; finish; }
"$CYC" diff --by=stack --mod-funcname='s/_v2$//' guest-base.pb guest-grown.pb >d.txt 2>d.err
"$CYC" diff --by=stack --format=json --mod-funcname='s/_v2$//' guest-base.pb guest-grown.pb >d.json 2>>d.err
got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rows"]; print(len(r), r[0]["delta"], r[0]["frames"][-1], r[0]["base_frames"][-1])' d.json 2>/dev/null)
if [ "$got" = "1 10000 fibonacci_2_v2 fibonacci_2" ] &&
    grep -q '^ *+10,000 .*  fibonacci_2_v2$' d.txt && grep -q '^ *(base: __start;main;fibonacci_2)$' d.txt
then ok diff-stack-renamed-grown
else bad diff-stack-renamed-grown "json '$got'; text: $(grep -A3 delta d.txt | tr '\n' ' ') $(cat d.err)"; fi

# ------------------------------------------------------ Go CPU profiles
# Two runs of tests/unit/pprofin/gocpu.go differ by sampling: the oracle
# is `go tool pprof -raw` of each file (deltas.py expect-pprof). NEW is
# built in another folder: Go's profiles name source files by their full
# path, so its frames match BASE's only through the common source root
# (--common-root=no lists the stacks through main.go twice, gone and new).
gocase=
if ! command -v go >/dev/null; then
    skip "diff-stack-go-*" "no go (golang-go, scripts/install-deps)"
else
    gobuild() { # DIR PROFILE: build gocpu.go in DIR and run it once
        mkdir -p "$1" && cp "$REPO/tests/unit/pprofin/gocpu.go" "$1/main.go" &&
            printf 'module gocpu\n\ngo 1.19\n' >"$1/go.mod" &&
            (cd "$1" && export HOME="$T/gohome" GOCACHE="$T/gocache" GOFLAGS=-mod=mod &&
                go build -o gocpu . && ./gocpu "$T/$2") >go.txt 2>&1
    }
    mkdir -p gohome
    gobuild gocpu base.pprof && gobuild ci/gocpu new.pprof &&
        GO_HOME="$T/gohome" python3 "$D" expect-pprof base.pprof new.pprof >expect-go.json 2>go.txt ||
        { bad setup "gocpu.go: $(tail -n 2 go.txt | tr '\n' ' ')"; finish; }
    for root in auto no; do
        name=diff-stack-go-common-root-$root
        "$CYC" diff --by=stack --format=json -n 0 --common-root=$root base.pprof new.pprof >d.json 2>d.err; rc=$?
        python3 "$D" json expect-go.json d.json >c.txt 2>&1; match=$?
        if [ $rc != 0 ]; then bad "$name" "exit $rc: $(cat d.err)"
        elif [ $root = auto ] && [ $match = 0 ]; then ok "$name ($(cat c.txt), as go tool pprof says)"
        elif [ $root = no ] && grep -q "listed 2 times" c.txt; then ok "$name (stacks through main.go unmatched)"
        else bad "$name" "$(cat c.txt)"; fi
    done
    gocase="go:base.pprof new.pprof:expect-go.json"
fi

# ------------------------------------------ the differential flame graph
# In headless Chromium: readback.js, appended after the page's own script,
# shows both views with the page's toggle, hovers every box and keeps the
# details line; deltas.py checks each box's change against the expected
# deltas of the stacks through it, and that every changed stack has a box
# (one only BASE ran, in BASE's shape).
CHROME=$(command -v chromium-headless-shell || true)
page() { # SVG SEARCH-TERM: SVG.dom.html, the DOM after readback.js ran
    python3 - "$1" "$2" "$HERE/readback.js" <<'PY' || return 1
import sys
svg, term, js = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
s = open(svg).read()
s = s.replace('<svg ', '<svg data-search="%s" ' % term, 1)
s = s.replace('</svg>', '<script type="text/ecmascript"><![CDATA[\n%s]]></script>\n</svg>' % js)
open(svg + ".rb.svg", "w").write(s)
PY
    timeout 120 "$CHROME" --no-sandbox --user-data-dir="$T/chrome" --dump-dom \
        "file://$T/$1.rb.svg" >"$1.dom.html" 2>chrome.err
}
if [ -z "$CHROME" ]; then
    skip "flamegraph-diff-*" "Debian's chromium-headless-shell is not installed: scripts/install-deps installs it, or: apt-get install chromium-headless-shell"
else
    for c in "c:base.out new.out:expect.json" "risc0:guest-base.pb guest-new.pb:expect-risc0.json" ${gocase:+"$gocase"}; do
        kind=${c%%:*} rest=${c#*:}
        files=${rest%%:*} exp=${rest#*:}
        name=flamegraph-diff-$kind
        # shellcheck disable=SC2086
        "$CYC" flamegraph --minwidth=0 $files -o "$kind.svg" 2>f.err; rc=$?
        if [ $rc != 0 ]; then bad "$name" "exit $rc: $(cat f.err)"
        elif ! page "$kind.svg" '^extra$'; then bad "$name" "chromium: $(tail -n 2 chrome.err | tr '\n' ' ')"
        elif python3 "$D" page "$exp" "$kind.svg.dom.html" >c.txt 2>&1; then ok "$name ($(cat c.txt))"
        else bad "$name" "$(cat c.txt)"; fi
    done
    name=flamegraph-diff-mod-funcname
    "$CYC" flamegraph --minwidth=0 --mod-funcname='s/_v2$//' guest-base.pb guest-renamed.pb -o renamed.svg 2>f.err; rc=$?
    if [ $rc != 0 ]; then bad "$name" "exit $rc: $(cat f.err)"
    elif ! page renamed.svg ''; then bad "$name" "chromium: $(tail -n 2 chrome.err | tr '\n' ' ')"
    elif python3 "$D" page expect-none.json renamed.svg.dom.html >c.txt 2>&1; then ok "$name (no box changed)"
    else bad "$name" "$(cat c.txt)"; fi
    # The search box: extra's boxes turn magenta and the page counts NEW's
    # count of extra, which is its delta (BASE has none).
    want=$(python3 -c 'import json,sys; print("{:,}".format(json.load(open(sys.argv[1]))["stacks"]["main;b;extra"]))' expect.json)
    got=$(python3 "$D" search c.svg.dom.html 2>&1 | tail -n 1)
    if echo "$got" | grep -q "(${want} instructions)\", \"boxes\": 1}"; then ok "flamegraph-diff-search ($got)"
    else bad flamegraph-diff-search "page says $got, want ($want instructions) on 1 box"; fi
    # The plain flame graph still works with the shared script: its root
    # shows NEW's total (cachegrind's).
    want=$(python3 -c 'import json,sys; print("{:,}".format(json.load(open(sys.argv[1]))["new_total"]))' expect.json)
    "$CYC" flamegraph new.out -o plain.svg 2>f.err && page plain.svg '' &&
        got=$(python3 "$D" root plain.svg.dom.html 2>&1 | tail -n 1)
    if [ "${got:-}" = "all ($want instructions, 100.00%)" ]; then ok "flamegraph-plain ($got)"
    else bad flamegraph-plain "root shows '${got:-}', want 'all ($want instructions, 100.00%)' $(cat f.err)"; fi
fi

# Names the SVG must escape (<, &, ", a control character) still give a
# well-formed document.
sed -e 's/fibonacci_3/fib<3>\&"q\x01/g' "$G" | python3 "$MK" odd-base.pb guest &&
    sed -e 's/fibonacci_3/fib<3>\&"q\x01/g' -e 's/^9000 /9500 /' "$G" | python3 "$MK" odd-new.pb guest ||
    { bad setup "mkrisc0.py failed"; finish; }
if "$CYC" flamegraph odd-base.pb odd-new.pb -o odd.svg 2>f.err &&
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' odd.svg 2>x.err &&
    grep -q 'fib&lt;3&gt;&amp;&quot;q?' odd.svg
then ok flamegraph-diff-escapes
else bad flamegraph-diff-escapes "$(cat f.err x.err | tail -n 2 | tr '\n' ' ')"; fi

# ------------------------------------------------------------ bad input
printf 'events: Ir\nfn=main\n1 5\n' >plain.out
expect_err diff-stack-needs-pprof "^cycprof diff: plain.out: exact stacks need the pprof file plain.out.pb.gz" \
    diff --by=stack plain.out new.out
expect_err diff-stack-no-sort "^cycprof diff: --by=stack .*--sort" diff --by=stack --sort=Ir base.out new.out
expect_err diff-stack-other-unit "^cycprof diff: guest-new.pb: the stacks count cycles but BASE's count instructions" \
    diff --by=stack base.out guest-new.pb
expect_err flamegraph-diff-three-files "^cycprof flamegraph: too many files" \
    flamegraph base.out new.out base.out -o x.svg
expect_err flamegraph-match-needs-two "^cycprof flamegraph: --mod-filename, --mod-funcname and --common-root match the frames of BASE and NEW" \
    flamegraph --common-root=no base.out -o x.svg
expect_err flamegraph-diff-needs-pprof "^cycprof flamegraph: plain.out: exact stacks need the pprof file" \
    flamegraph base.out plain.out -o x.svg
[ ! -e x.svg ] && ok flamegraph-diff-bad-no-file || bad flamegraph-diff-bad-no-file "x.svg written"

finish
