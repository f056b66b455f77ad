#!/bin/sh
# Runs every input in tests/fuzz/regress/ through the built `cycprof`.
# A run passes if it exits normally (no signal) and, when it fails, prints
# exactly one line on stderr of the form "cycprof SUBCOMMAND: ...".
# Files named pprof-* go through folded, flamegraph, firefox and report/diff
# (which read pprof profiles too); all others are callgrind-format inputs
# for report (self, inclusive, by line) and diff.
# Usage: tests/fuzz/run-regress.sh [CYCPROF_BINARY]
#        (default: $CYCPROF_BUILD/cycprof or $CYCPROF_BUILD/cycprof/cli/cycprof)
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
    for b in "${CYCPROF_BUILD:-$here/../../build}/cycprof" \
             "${CYCPROF_BUILD:-$here/../../build}/cycprof/cli/cycprof"; do
        if [ -f "$b" ] && [ -x "$b" ]; then bin=$b; break; fi
    done
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "FAIL fuzz-regress: no built cycprof (set CYCPROF_BUILD or pass the binary)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 failn=0

check() { # NAME CMD...
    name=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ $rc -ge 128 ]; then
        echo "FAIL $name: killed by signal $((rc - 128))"; failn=$((failn + 1))
    elif [ $rc -ne 0 ] && { [ "$lines" -ne 1 ] || ! grep -q '^cycprof [a-z]*: .' "$tmp/err"; }; then
        echo "FAIL $name: exit $rc without exactly one 'cycprof CMD: ...' line on stderr:"
        head -n 3 "$tmp/err"; failn=$((failn + 1))
    else
        pass=$((pass + 1))
    fi
}

for f in "$here"/regress/*; do
    [ -f "$f" ] || continue
    n=$(basename "$f")
    case $n in
    pprof-*)
        # Give it a name the stack commands take as a pprof file.
        cp "$f" "$tmp/in.pb.gz"
        check "$n folded" "$bin" folded "$tmp/in.pb.gz"
        check "$n flamegraph" "$bin" flamegraph "$tmp/in.pb.gz" -o "$tmp/fg.svg"
        check "$n report-stack" "$bin" report --by=stack "$tmp/in.pb.gz"
        check "$n report-pprof" "$bin" report -n 0 --threshold=0 "$tmp/in.pb.gz"
        check "$n report-pprof-inclusive" "$bin" report --inclusive "$tmp/in.pb.gz"
        check "$n report-pprof-line" "$bin" report --by=line "$tmp/in.pb.gz"
        check "$n diff-pprof" "$bin" diff "$tmp/in.pb.gz" "$tmp/in.pb.gz"
        check "$n firefox" "$bin" firefox "$tmp/in.pb.gz" -o "$tmp/ff.json"
        ;;
    *)
        check "$n report" "$bin" report -n 0 --threshold=0 "$f"
        check "$n report-inclusive" "$bin" report --inclusive "$f"
        check "$n report-line" "$bin" report --by=line "$f"
        check "$n diff" "$bin" diff "$f" "$f"
        ;;
    esac
done
echo "fuzz-regress: $pass passed, $failn failed"
[ $failn -eq 0 ]
