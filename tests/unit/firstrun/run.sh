#!/usr/bin/env bash
# Tests of the small things a first run meets (issue 15, point 8): --help
# texts print what they mean, `cycprof flamegraph` and `cycprof firefox`
# without -o on a terminal write flamegraph.svg and firefox.json and say so
# instead of raw SVG or JSON, and the quickstart ends with the report and
# the flame graph command.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/firstrun/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init firstrun
# --help is printed as is (not through printf): no doubled '%%'.
for sub in report diff folded flamegraph firefox pprof; do
    "$CYC" "$sub" --help >h.txt 2>&1
    if grep -q '%%' h.txt; then bad "help-$sub-percent" "$(grep '%%' h.txt | head -n 1)"
    elif ! grep -q "^usage: cycprof $sub" h.txt; then bad "help-$sub-percent" "no usage text"
    else ok "help-$sub-percent"; fi
done
if [ -n "$CARGO_CYC" ]; then
    "$CARGO_CYC" cycprof --help >h.txt 2>&1
    grep -q '%%' h.txt && bad help-cargo-percent "$(grep '%%' h.txt | head -n 1)" || ok help-cargo-percent
fi

# flamegraph without -o: a terminal gets a file, a pipe gets the SVG.
cp "$REPO/tests/unit/cli/data/inline.stacks" s.stacks
"$CYC" pprof s.stacks -o in.pb.gz 2>e.txt || { bad setup "cycprof pprof failed: $(cat e.txt)"; finish; }
"$CYC" flamegraph in.pb.gz -o want.svg 2>e.txt || { bad setup "flamegraph -o failed: $(cat e.txt)"; finish; }
if command -v script >/dev/null; then
    mkdir tty && (cd tty && script -qec "'$CYC' flamegraph ../in.pb.gz" /dev/null >out.txt 2>&1 </dev/null)
    if [ ! -f tty/flamegraph.svg ]; then bad flamegraph-tty-writes-file "no flamegraph.svg; terminal got: $(head -c 200 tty/out.txt)"
    elif ! cmp -s tty/flamegraph.svg want.svg; then bad flamegraph-tty-writes-file "flamegraph.svg differs from -o output"
    elif grep -q '<svg' tty/out.txt; then bad flamegraph-tty-writes-file "raw SVG on the terminal"
    elif [ "$(tr -d '\r' <tty/out.txt | grep -c .)" != 1 ] || ! grep -q '^cycprof flamegraph: wrote flamegraph.svg' tty/out.txt
    then bad flamegraph-tty-writes-file "want one line naming the file, got: $(head -c 200 tty/out.txt)"
    else ok flamegraph-tty-writes-file; fi
else bad flamegraph-tty-writes-file "no 'script' command (bsdutils) to make a terminal"; fi
"$CYC" flamegraph in.pb.gz >pipe.svg 2>e.txt
if cmp -s pipe.svg want.svg && [ ! -s e.txt ] && [ ! -e flamegraph.svg ]; then ok flamegraph-pipe-gets-svg
else bad flamegraph-pipe-gets-svg "stdout is not the SVG or a file was written: $(cat e.txt)"; fi

# firefox without -o: the same, firefox.json and a line saying how to open it.
"$CYC" firefox in.pb.gz -o want.json 2>e.txt || { bad setup "firefox -o failed: $(cat e.txt)"; finish; }
if command -v script >/dev/null; then
    mkdir fftty && (cd fftty && script -qec "'$CYC' firefox ../in.pb.gz" /dev/null >out.txt 2>&1 </dev/null)
    if [ ! -f fftty/firefox.json ]; then bad firefox-tty-writes-file "no firefox.json; terminal got: $(head -c 200 fftty/out.txt)"
    elif ! cmp -s fftty/firefox.json want.json; then bad firefox-tty-writes-file "firefox.json differs from -o output"
    elif grep -q '"meta"' fftty/out.txt; then bad firefox-tty-writes-file "raw JSON on the terminal"
    elif [ "$(tr -d '\r' <fftty/out.txt | grep -c .)" != 1 ] || ! grep -q '^cycprof firefox: wrote firefox.json' fftty/out.txt ||
        ! grep -q 'samply load firefox.json' fftty/out.txt || ! grep -q 'https://profiler.firefox.com' fftty/out.txt
    then bad firefox-tty-writes-file "want one line naming the file and how to open it, got: $(head -c 300 fftty/out.txt)"
    else ok firefox-tty-writes-file; fi
else bad firefox-tty-writes-file "no 'script' command (bsdutils) to make a terminal"; fi
"$CYC" firefox in.pb.gz >pipe.json 2>e.txt
if cmp -s pipe.json want.json && [ ! -s e.txt ] && [ ! -e firefox.json ]; then ok firefox-pipe-gets-json
else bad firefox-pipe-gets-json "stdout is not the JSON or a file was written: $(cat e.txt)"; fi

# The quickstart shows the answer: report -n 10 and the flame graph.
q=$REPO/scripts/quickstart
if grep -q 'cycprof report -n 10' "$q" && grep -q 'cycprof flamegraph' "$q"; then ok quickstart-shows-report-and-flamegraph
else bad quickstart-shows-report-and-flamegraph "scripts/quickstart does not run 'cycprof report -n 10' and 'cycprof flamegraph'"; fi
for w in 'cycprof report' 'cycprof flamegraph'; do
    for s in 'Quick start' 'Usage'; do
        if awk -v s="## $s" -v w="$w" '$0 == s { on = 1; next } /^## / { on = 0 } on && index($0, w) { f = 1 } END { exit !f }' "$REPO/README.md"
        then ok "readme-$s-shows-$w"
        else bad "readme-$s-shows-$w" "README section '$s' does not show '$w'"; fi
    done
done

finish
