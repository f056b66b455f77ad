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


# ---- Builds made in different folders (docs/cli/diff.md, "Matching") ----
# The same prog.c copied into other folders, as a CI job checks out main
# beside the branch; -g file names carry the folder. The expected source
# roots follow from the folders made here.
far() { # DIR (under $T; prog.c goes to DIR/proj) HOW GCC-ARGS...
    local d=$1 how=$2; shift 2
    mkdir -p "$T/$d/proj" && cp "$T/prog.c" "$T/$d/proj/prog.c" || return 1
    case $how in
    abs) gcc -O2 -g "$@" -o "$T/$d/proj/prog" "$T/$d/proj/prog.c" ;;
    # A relative path on the command line (DWARF's comp_dir gives the
    # folder back) and, with -fdebug-prefix-map, names that stay relative.
    rel) (cd "$T/$d" && gcc -O2 -g "$@" -o proj/prog proj/prog.c) ;;
    map) (cd "$T/$d" && gcc -O2 -g -fdebug-prefix-map="$T/$d"=. "$@" -o proj/prog proj/prog.c) ;;
    esac
}
for v in fa:abs: checkout-fb:rel: fr:map: fm:abs:-DMORE fn:abs:-Dleft=left_v2; do
    d=${v%%:*} rest=${v#*:}; how=${rest%%:*} flags=${rest#*:}
    # shellcheck disable=SC2086
    far "$d" "$how" $flags || { bad setup "cannot build $d ($how $flags)"; finish; }
    vg "$d/proj" --tool=cycprof --pprof=no --cycprof-out-file=p.out ||
        { bad setup "valgrind --tool=cycprof failed on $d: $(tail -n 2 "$d/proj/out.txt")"; finish; }
done
# The folders must really show in the profiles, or nothing is tested.
for d in fa checkout-fb; do
    grep -q "=([0-9]*) $T/$d/proj/prog.c\$" "$T/$d/proj/p.out" ||
        bad "setup-$d-names-carry-folder" "no file named $T/$d/proj/prog.c"
done
grep -q '=([0-9]*) \./proj/prog\.c$' "$T/fr/proj/p.out" ||
    bad setup-fr-names-relative "no file named ./proj/prog.c"
"$CYC" diff --common-root=no "$T/fa/proj/p.out" "$T/checkout-fb/proj/p.out" 2>&1 |
    grep -q ' gone .*:left ' && ok other-folder-names-differ ||
    bad other-folder-names-differ "without the root, left is not gone"

# The header's matching rules (one a line), with the roots the folders give.
matched() { awk '/^Matched by:/ { on = 1; sub(/^Matched by: */, "") }
                 /^---/ { on = 0 } on { sub(/^ */, ""); print }' d.txt; }
gate other-folder-green 0 fa/proj checkout-fb/proj --fail-above=1
want="common source root $T/fa/ -> $T/checkout-fb/ (1 file)"
[ "$(matched)" = "$want" ] && ok other-folder-names-the-root ||
    bad other-folder-names-the-root "Matched by: '$(matched)', want '$want'"
# The two programs are built differently (an absolute and a relative
# path), so the loader's start-up may differ by a dozen instructions
# (strcspn, by where Valgrind's memory puts its strings: the floor's reason,
# docs/cli/diff.md); no function of prog.c may differ, and nothing may be
# gone or new.
if sed -n '/^ *delta /,$p' d.txt | tail -n +2 | grep -E 'prog\.c|\[.*/proj/prog\]| gone | new '; then
    bad other-folder-no-program-rows "$(sed -n '/^ *delta /,$p' d.txt | head -n 4 | tr '\n' ' ')"
else ok other-folder-no-program-rows; fi
gate other-folder-any-change-green 0 fa/proj checkout-fb/proj --fail-above=0
gate other-folder-by-line-green 0 fa/proj checkout-fb/proj --by=line --fail-above=0
gate other-folder-by-file-green 0 fa/proj checkout-fb/proj --by=file --fail-above=0
gate other-folder-relative-names-green 0 fa/proj fr/proj --fail-above=1
want="common source root $T/fa/ -> ./ (1 file)"
[ "$(matched)" = "$want" ] && ok other-folder-relative-names-root ||
    bad other-folder-relative-names-root "Matched by: '$(matched)', want '$want'"
gate other-folder-relative-names-reverse-green 0 fr/proj fa/proj --fail-above=1

# Real work in the other folder: red, for more() alone, which is new.
gate other-folder-real-work-red 3 fa/proj fm/proj --fail-above=1
if grep -q ' new .*:more ' d.txt && ! grep -Eq ' (gone|new) .*:(left|right|main) ' d.txt
then ok other-folder-real-work-names-more
else bad other-folder-real-work-names-more "$(head -c 200 d.err) $(sed -n '/^delta/,$p' d.txt | head -n 4 | tr '\n' ' ')"; fi

# JSON names the rule too, and stays valid.
"$CYC" diff --format=json --fail-above=1 "$T/fa/proj/p.out" "$T/checkout-fb/proj/p.out" >d.json 2>d.err
if python3 "$HERE/../json/check_schema.py" diff d.json >d.chk &&
   python3 -c '
import json, sys
d = json.load(open("d.json"))
want = [{"rule": "common-root", "base": sys.argv[1] + "/fa/",
         "new": sys.argv[1] + "/checkout-fb/", "files": 1}]
sys.exit(0 if d["matched_by"] == want and d["gate"]["verdict"] == "pass" else 1)' "$T"
then ok other-folder-json-names-the-rule
else bad other-folder-json-names-the-rule "$(head -c 200 d.chk) $(head -c 300 d.json)"; fi

# A renamed function: gone plus new, until --mod-funcname maps the name.
gate renamed-function-red 3 fa/proj fn/proj --fail-above=1
gate renamed-function-mod-funcname-green 0 fa/proj fn/proj --fail-above=1 --mod-funcname='s/_v[0-9]+$//'
if [ "$(matched | head -n 1)" = "--mod-funcname s/_v[0-9]+\$//" ] && [ "$(matched | wc -l)" = 2 ]
then ok renamed-function-names-the-rule
else bad renamed-function-names-the-rule "Matched by: $(matched | tr '\n' '|')"; fi

# Rust: the symbol hash follows -C metadata (here: like two checkouts with
# different crate metadata). Mangled names (--demangle=no) keep it; with
# --mod-funcname dropping it, work() is no longer gone plus new.
if command -v rustc >/dev/null 2>&1; then
    for m in ra rb; do
        mkdir -p "$T/$m" && cat >"$T/$m/prog.rs" <<'RS'
#[inline(never)]
fn work(n: u64) -> u64 { let mut s = 0; for i in 0..n { s += i % 7; } s }
fn main() { println!("{}", work(std::hint::black_box(10000))); }
RS
        (cd "$T/$m" && rustc -O -g -C metadata="$m" prog.rs -o prog 2>/dev/null) &&
            vg "$m" --tool=cycprof --demangle=no --pprof=no --cycprof-out-file=p.out ||
            bad setup-rust "cannot build or profile $m"
    done
    # Legacy mangling carries the hash at the end (17h<16 hex>E); v0 (the
    # default of newer rustc, e.g. Debian sid's) in the crate's
    # disambiguator (Cs<base62>_).
    sym_re='_ZN4prog4work17h[0-9a-f]*E|_RNvCs[0-9A-Za-z]+_4prog4work'
    ha=$(grep -oE "$sym_re" "$T/ra/p.out" | head -n 1)
    hb=$(grep -oE "$sym_re" "$T/rb/p.out" | head -n 1)
    case $ha in
    _R*) rule='s/^_RNvCs[0-9A-Za-z]+_/_RNvC_/' ;;
    *) rule='s/17h[0-9a-f]{16}E$/E/' ;;
    esac
    if [ -z "$ha" ] || [ "$ha" = "$hb" ]; then
        bad setup-rust-hashes-differ "work is '$ha' and '$hb'"
    fi
    "$CYC" diff -n 0 "$T/ra/p.out" "$T/rb/p.out" >d.txt 2>&1
    grep -q " gone .*:$ha " d.txt && ok rust-hash-gone-without-rule ||
        bad rust-hash-gone-without-rule "$(sed -n '/^delta/,$p' d.txt | head -n 3 | tr '\n' ' ')"
    "$CYC" diff -n 0 --mod-funcname="$rule" "$T/ra/p.out" "$T/rb/p.out" >d.txt 2>&1
    if ! grep -qE "$sym_re" d.txt && grep -qF "Matched by:       --mod-funcname $rule" d.txt
    then ok rust-hash-mod-funcname-matches
    else bad rust-hash-mod-funcname-matches "$(grep -m 3 -E "$sym_re|^Matched" d.txt | tr '\n' ' ')"; fi
else
    skip rust-hash "rustc is not installed (scripts/install-deps installs it)"
fi

# Hand-written profiles, whose names are the oracle.
cgfile() { # FILE then pairs "FILE-NAME FUNCTION COST"...
    local out=$1; shift
    { echo "events: Ir"; echo "ob=/bin/prog"
      while [ $# -gt 0 ]; do echo "fl=$1"; echo "fn=$2"; echo "1 $3"; shift 3; done
    } >"$out"
}
# src/x.c and lib/x.c are different files: main.c names the root /a/ ->
# /b/, under which x.c moved folder, so f is gone and new.
cgfile s1.out /a/proj/src/x.c f 500 /a/proj/main.c main 300
cgfile s2.out /b/proj/lib/x.c f 500 /b/proj/main.c main 300
"$CYC" diff -n 0 s1.out s2.out >d.txt 2>&1
if [ "$(matched)" = "common source root /a/ -> /b/ (1 file)" ] &&
   grep -q ' gone .*/a/proj/src/x.c:f ' d.txt && grep -q ' new .*/b/proj/lib/x.c:f ' d.txt &&
   ! grep -q 'main.c:main' d.txt
then ok different-files-stay-apart
else bad different-files-stay-apart "$(matched) $(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"; fi
# Two trees that moved: the checkout and the toolchain's sources (a Rust
# std built by another rustc). The toolchain names more files, so its roots
# come first; both apply, and src/x.c and lib/x.c still stay apart.
R1=/rustc/1111/library R2=/rustc/2222/library
cgfile t1.out /a/proj/src/x.c f 500 /a/proj/main.c main 300 \
    $R1/core/src/fmt/mod.rs fmt 70 $R1/std/src/io/mod.rs io 80 $R1/alloc/src/vec.rs vec 90
cgfile t2.out /b/proj/lib/x.c f 500 /b/proj/main.c main 300 \
    $R2/core/src/fmt/mod.rs fmt 70 $R2/std/src/io/mod.rs io 80 $R2/alloc/src/vec.rs vec 90
"$CYC" diff -n 0 t1.out t2.out >d.txt 2>&1
if [ "$(matched | tr '\n' '|')" = "common source root /rustc/1111/ -> /rustc/2222/ (3 files)|common source root /a/ -> /b/ (1 file)|" ] &&
   grep -q ' gone .*/a/proj/src/x.c:f ' d.txt && [ "$(grep -Ec '^ *[-+][0-9,]+ +(gone|new) ' d.txt)" = 2 ]
then ok two-moved-trees
else bad two-moved-trees "$(matched | tr '\n' '|') $(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"; fi
# Other base names never match, whatever the folders.
cgfile s3.out /b/proj/src/y.c f 500 /b/proj/main.c main 300
"$CYC" diff -n 0 s1.out s3.out >d.txt 2>&1
grep -q ' gone .*/a/proj/src/x.c:f ' d.txt && ok other-base-name-stays-apart ||
    bad other-base-name-stays-apart "$(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"
# --mod-filename: 'g' replaces every match, the first one only without it.
cgfile m1.out /v1/w1/x.c f 500
cgfile m2.out /v2/w2/x.c f 500
"$CYC" diff --common-root=no --mod-filename='s/[0-9]//g' m1.out m2.out >d.txt 2>&1
grep -q '^No function differs' d.txt && ok mod-filename-g-flag ||
    bad mod-filename-g-flag "$(sed -n '/^Matched/p;/^delta/,$p' d.txt | tr '\n' ' ')"
"$CYC" diff --common-root=no --mod-filename='s/[0-9]//' m1.out m2.out >d.txt 2>&1
grep -q ' gone ' d.txt && ok mod-filename-first-match-only ||
    bad mod-filename-first-match-only "$(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"
# Groups (\1 and $1), 'i', '\/' and rules applied in order.
cgfile n1.out /src/x.c Work_OLD 500
cgfile n2.out /src/x.c work 500
"$CYC" diff --mod-funcname='s/^(.*)_old$/\1/i' --mod-funcname='s/W/w/' n1.out n2.out >d.txt 2>&1
grep -q '^No function differs' d.txt && ok mod-funcname-group-icase-in-order ||
    bad mod-funcname-group-icase-in-order "$(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"
cgfile n3.out /src/x.c Work 500
"$CYC" diff --mod-filename='s/\/src\//\/lib\//' --mod-funcname='s/^W(.*)$/w$1/' n3.out m2.out >d.txt 2>&1
grep -q ' /v2/w2/x.c:f' d.txt && grep -q 'Matched by: *--mod-filename s/\\/src' d.txt &&
    ok mod-rules-parse-slash-and-dollar || bad mod-rules-parse-slash-and-dollar "$(head -c 400 d.txt)"
cgfile n4.out /lib/x.c work 500
"$CYC" diff --mod-filename='s/\/src\//\/lib\//' --mod-funcname='s/^W(.*)$/w$1/' n3.out n4.out >d.txt 2>&1
grep -q '^No function differs' d.txt && ok mod-rules-slash-and-dollar-match ||
    bad mod-rules-slash-and-dollar-match "$(sed -n '/^delta/,$p' d.txt | tr '\n' ' ')"
# Bad expressions: one line naming the problem, exit 2.
for e in 'x/a/b/' 's/a/b' 's//b/' 's/a/b/q' 's/(a/b/' 's/a/\1/'; do
    "$CYC" diff --mod-funcname="$e" n1.out n2.out >d.txt 2>d.err; rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <d.err)" = 1 ] && grep -q "^cycprof diff: --mod-funcname: '" d.err
    then ok "mod-funcname-bad-$e"
    else bad "mod-funcname-bad-$e" "exit $rc: $(head -c 200 d.err)"; fi
done

finish
