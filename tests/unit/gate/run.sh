#!/usr/bin/env bash
# Tests of the `cycprof diff` gate (docs/cli/diff.md): rebuilds that change
# nothing stay green, real work turns it red, and --by=line compares lines
# across functions. Real rebuilds of prog.c, profiled with the built tool.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/gate/run.sh
#
# Oracles: the builds themselves (nm shows that code really moved or was
# reordered), and cachegrind's raw output file for the counts of the rows
# that must change.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init gate
need_vglib

# Every build is ./prog in its own directory, from the same source path, as
# a CI job rebuilds it: same names, different code layout. The directory
# names have one length: ld.so scans the program's path (strcspn), so a
# longer path is a real, if tiny, change.
cp "$HERE/prog.c" "$T/prog.c"
build() { # DIR GCC-ARGS...
    local d=$1; shift
    mkdir -p "$d" && gcc -O2 -g "$@" -o "$d/prog" "$T/prog.c"
}
# Same environment and cwd for every run (the program sees both).
vg() { # DIR TOOL-ARGS...
    local d=$1; shift
    (cd "$T/$d" && env -i PATH=/usr/bin:/bin LANG=C VALGRIND_LIB="$VGLIB" \
        valgrind "$@" ./prog >out.txt 2>&1 </dev/null)
}
for v in base:"" extr:-DEXTRA tiny:-DTINY more:-DMORE swap:-DSWAP \
         sect:"-DEXTRA -ffunction-sections -Wl,--sort-section=name"; do
    d=${v%%:*} flags=${v#*:}
    # shellcheck disable=SC2086
    build "$d" $flags || { bad setup "cannot build $d ($flags)"; finish; }
    vg "$d" --tool=cycprof --pprof=no --cycprof-out-file=p.out ||
        { bad setup "valgrind --tool=cycprof failed on $d: $(tail -n 2 "$d/out.txt")"; finish; }
done

# The rebuilds must really move code, or the tests below prove nothing.
addr() { nm "$1/prog" | awk -v s="$2" '$3 == s { print $1 }'; }
[ "$(addr base _fini)" != "$(addr extr _fini)" ] ||
    bad setup-extra-moves-code "_fini did not move with the unused function"
order() { nm -n "$1/prog" | awk '$2 == "T" && ($3 == "left" || $3 == "right" || $3 == "main") { printf "%s ", $3 }'; }
[ "$(order base)" != "$(order sect)" ] ||
    bad setup-sections-reorder "--sort-section=name did not reorder functions ($(order base))"

gate() { # NAME WANT-RC BASE NEW ARGS...
    local name=$1 want=$2 a=$3 b=$4; shift 4
    "$CYC" diff "$@" "$a/p.out" "$b/p.out" >d.txt 2>d.err; local rc=$?
    if [ "$rc" = "$want" ]; then ok "$name"
    else bad "$name" "exit $rc, want $want: $(head -c 300 d.err) $(sed -n '/^delta/,$p' d.txt | head -n 4 | tr '\n' ' ')"; fi
}
gate gate-unused-function-green 0 base extr --fail-above=1
gate gate-unused-function-green-any-change 0 base extr --fail-above=0 --min-change=1
gate gate-function-sections-green 0 base sect --fail-above=1 --min-change=1
gate gate-real-work-red 3 base more --fail-above=1
if [ "$(wc -l <d.err)" = 1 ] && grep -q '^cycprof diff: Ir grew by more than --fail-above=1%' d.err
then ok gate-red-says-why-in-one-line
else bad gate-red-says-why-in-one-line "stderr: $(head -c 300 d.err)"; fi
gate gate-tiny-change-below-floor 0 base tiny --fail-above=1
gate gate-tiny-change-floor-off 3 base tiny --fail-above=1 --min-change=1

# The unused function changed nothing: no row at all differs.
"$CYC" diff -n 0 "$T/base/p.out" "$T/extr/p.out" >d.txt 2>&1
grep -q '^No function differs' d.txt && ok diff-rebuild-no-rows ||
    bad diff-rebuild-no-rows "$(sed -n '/^delta/,$p' d.txt | head -n 4 | tr '\n' ' ')"

# more() is the change, with the count cachegrind gives it.
cg_fn() { # DIR FUNCTION: self Ir from cachegrind's raw output file
    vg "$1" --tool=cachegrind --cache-sim=no --vex-guest-chase=no --cachegrind-out-file=cg.out &&
        awk -v f="$2" '/^fn=/ { in_f = (substr($0, 4) == f); next }
                       /^[a-z]/ { next } in_f && NF >= 2 { s += $2 } END { print s + 0 }' "$T/$1/cg.out"
}
want=$(cg_fn more more)
row=$("$CYC" diff "$T/base/p.out" "$T/more/p.out" | grep ':more ')
got=$(echo "$row" | awk '{ gsub(/[+,]/, "", $1); print $1 }')
if [ -n "$want" ] && [ "$want" != 0 ] && [ "$got" = "$want" ] && echo "$row" | grep -q ' new '
then ok "diff-real-work-row ($got, cachegrind $want)"
else bad diff-real-work-row "row '$row', cachegrind says $want"; fi

# --by=line across functions: helper()'s line moved from left() to right()
# by inlining, at the same cost; it must not show as gone plus new.
hl=$(grep -n 'HELPER_LINE' "$T/prog.c" | cut -d: -f1)
in_base=$("$CYC" report --by=line -n 0 --threshold=0 "$T/base/p.out" | grep -c "prog.c:$hl left ")
in_swap=$("$CYC" report --by=line -n 0 --threshold=0 "$T/swap/p.out" | grep -c "prog.c:$hl right ")
if [ "$in_base" != 1 ] || [ "$in_swap" != 1 ]; then
    bad setup-helper-inlined "helper's line $hl not in left() for base ($in_base) or right() for swap ($in_swap)"
fi
"$CYC" diff --by=line -n 0 "$T/base/p.out" "$T/swap/p.out" >d.txt 2>&1
if grep -q "prog.c:$hl " d.txt; then
    bad diff-by-line-across-functions "$(grep "prog.c:$hl " d.txt | head -n 2 | tr '\n' ' ')"
elif grep -q "prog.c:" d.txt; then ok diff-by-line-across-functions
else bad diff-by-line-across-functions "no prog.c line changed at all: $(head -c 300 d.txt)"; fi

finish
