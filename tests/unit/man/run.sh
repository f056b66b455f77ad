#!/usr/bin/env bash
# Tests of the man pages (docs/man/README.md): each page of the build
# renders without groff warnings, names every option its command's --help
# names (they are made from it), cycprof(1) has the tool's options, and
# `make install` (its install-man part) puts them where `man` finds them.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/man/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init man
export MANWIDTH=200
B=$CYCPROF_BUILD

# Option names (--long) in a text.
opts() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
page_has_help() { # NAME PAGE HELP-FILE
    local name=$1 page=$2 help=$3
    if [ ! -s "$page" ]; then bad "$name" "no page $page"; return; fi
    groff -man -ww -z "$page" >g.txt 2>&1
    if [ -s g.txt ]; then bad "$name" "groff: $(head -n 2 g.txt | tr '\n' ' ')"; return; fi
    groff -man -Tutf8 -P-cbou "$page" 2>/dev/null | sed 's/‐/-/g' >p.txt
    opts <"$help" >want.txt
    opts <p.txt >got.txt
    local missing
    missing=$(comm -23 want.txt got.txt | tr '\n' ' ')
    if [ ! -s want.txt ]; then bad "$name" "no options in $help"
    elif [ -n "$missing" ]; then bad "$name" "options of --help missing from the page: $missing"
    elif ! grep -q "^SYNOPSIS" p.txt || ! grep -qF "$(head -n 1 "$help" | sed 's/^usage: //' | cut -c1-20)" p.txt
    then bad "$name" "no synopsis from the usage line"
    else ok "$name ($(wc -l <want.txt) options)"; fi
}
for sub in report diff folded flamegraph pprof; do
    "$CYC" "$sub" --help >h.txt
    page_has_help "man-cycprof-$sub" "$B/man/cycprof-$sub.1" h.txt
done
"$CYC" --help >h.txt
page_has_help man-cycprof "$B/man/cycprof.1" h.txt
if [ -x "$CARGO_CYC" ]; then
    "$CARGO_CYC" cycprof --help >h.txt
    page_has_help man-cargo-cycprof "$B/man/cargo-cycprof.1" h.txt
fi

# cycprof(1) has the tool's own options, from the tool.
if [ -d "$B/vg-lib" ]; then
    VALGRIND_LIB=$B/vg-lib valgrind --tool=cycprof --help 2>&1 |
        sed -n '/user options for cycprof:/,/^ *$/p' >th.txt
    groff -man -Tutf8 -P-cbou "$B/man/cycprof.1" 2>/dev/null | sed 's/‐/-/g' >p.txt
    missing=$(comm -23 <(opts <th.txt) <(opts <p.txt) | tr '\n' ' ')
    if [ "$(opts <th.txt | wc -l)" -lt 5 ]; then bad man-cycprof-tool-options "the tool's --help lists no options"
    elif [ -n "$missing" ] || ! grep -q '^VALGRIND TOOL OPTIONS' p.txt; then bad man-cycprof-tool-options "missing: $missing"
    else ok "man-cycprof-tool-options ($(opts <th.txt | wc -l) options)"; fi
fi

# make install installs them where man looks (MANPATH = the staged mandir).
if [ -f "$B/Makefile" ]; then
    # Under `make check`, MAKEFLAGS may make the nested make chatty: the
    # staged tree, not make's output, says where the pages went.
    if make -s --no-print-directory -C "$B" install-man DESTDIR="$T/stage" >inst.txt 2>&1; then
        mandir=$(find "$T/stage" -path '*/man1/cycprof.1' | sed "s|^$T/stage||; s|/man1/cycprof.1\$||" | head -n 1)
        n=0
        for p in cycprof cycprof-report cycprof-diff cycprof-folded cycprof-flamegraph cycprof-pprof cargo-cycprof; do
            [ -f "$T/stage$mandir/man1/$p.1" ] && MANPATH="$T/stage$mandir" man -w "$p" >/dev/null 2>&1 && n=$((n + 1))
        done
        [ $n = 7 ] && ok "man-installed (7 pages in $mandir/man1)" ||
            bad man-installed "only $n of 7 pages installed under $T/stage$mandir/man1"
    else bad man-installed "make install-man DESTDIR failed: $(tail -n 3 inst.txt | tr '\n' ' ')"; fi
fi

finish
