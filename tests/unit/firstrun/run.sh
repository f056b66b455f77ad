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

# tty_writes_file CMD FILE WANT RAW [GREP...]: `cycprof CMD in.pb.gz` on a
# terminal writes FILE (equal to WANT), shows none of its text (RAW, a
# pattern of it), and prints one line naming it that matches every GREP.
tty_writes_file() {
    local cmd=$1 file=$2 want=$3 raw=$4 name="$1-tty-writes-file" dir="$1-tty" g
    shift 4
    if ! command -v script >/dev/null; then bad "$name" "no 'script' command (bsdutils) to make a terminal"; return; fi
    mkdir "$dir" && (cd "$dir" && script -qec "'$CYC' $cmd ../in.pb.gz" /dev/null >out.txt 2>&1 </dev/null)
    if [ ! -f "$dir/$file" ]; then bad "$name" "no $file; terminal got: $(head -c 200 "$dir/out.txt")"; return; fi
    if ! cmp -s "$dir/$file" "$want"; then bad "$name" "$file differs from -o output"; return; fi
    if grep -q "$raw" "$dir/out.txt"; then bad "$name" "raw $file on the terminal"; return; fi
    [ "$(tr -d '\r' <"$dir/out.txt" | grep -c .)" = 1 ] || { bad "$name" "want one line, got: $(head -c 300 "$dir/out.txt")"; return; }
    for g in "^cycprof $cmd: wrote $file" "$@"; do
        grep -q "$g" "$dir/out.txt" || { bad "$name" "the line lacks '$g': $(head -c 300 "$dir/out.txt")"; return; }
    done
    ok "$name"
}

# flamegraph without -o: a terminal gets a file, a pipe gets the SVG.
cp "$REPO/tests/unit/cli/data/inline.stacks" s.stacks
"$CYC" pprof s.stacks -o in.pb.gz 2>e.txt || { bad setup "cycprof pprof failed: $(cat e.txt)"; finish; }
"$CYC" flamegraph in.pb.gz -o want.svg 2>e.txt || { bad setup "flamegraph -o failed: $(cat e.txt)"; finish; }
tty_writes_file flamegraph flamegraph.svg want.svg "<svg"
"$CYC" flamegraph in.pb.gz >pipe.svg 2>e.txt
if cmp -s pipe.svg want.svg && [ ! -s e.txt ] && [ ! -e flamegraph.svg ]; then ok flamegraph-pipe-gets-svg
else bad flamegraph-pipe-gets-svg "stdout is not the SVG or a file was written: $(cat e.txt)"; fi

# firefox without -o: the same, firefox.json and a line saying how to open it.
"$CYC" firefox in.pb.gz -o want.json 2>e.txt || { bad setup "firefox -o failed: $(cat e.txt)"; finish; }
tty_writes_file firefox firefox.json want.json '"meta"' 'samply load firefox.json' 'https://profiler.firefox.com'
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
