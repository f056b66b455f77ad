#!/usr/bin/env bash
# Tests of the man pages (docs/man/README.md): each page of the build
# renders without groff warnings, names every option its command's --help
# names (they are made from it), --help points to the pages and not to the
# uninstalled docs/, cycprof(1) has the tool's options, and `make install`
# (its install-man part) puts them where `man` finds them.
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
for sub in report diff folded flamegraph firefox pprof; do
    "$CYC" "$sub" --help >h.txt
    page_has_help "man-cycprof-$sub" "$B/man/cycprof-$sub.1" h.txt
done
"$CYC" --help >h.txt
page_has_help man-cycprof "$B/man/cycprof.1" h.txt
if [ -x "$CARGO_CYC" ]; then
    "$CARGO_CYC" cycprof --help >h.txt
    page_has_help man-cargo-cycprof "$B/man/cargo-cycprof.1" h.txt
fi

# --help cites what `make install` installs: man pages, not the source
# tree's docs/ (which it does not install).
for sub in "" report diff folded flamegraph firefox pprof; do
    # shellcheck disable=SC2086
    "$CYC" $sub --help >h.txt
    if grep -q 'docs/' h.txt; then bad "help-cites-installed${sub:+-$sub}" "cites the source tree: $(grep -m1 'docs/' h.txt)"
    else ok "help-cites-installed${sub:+-$sub}"; fi
done
"$CYC" --help >h.txt
if grep -q "man cycprof-SUBCOMMAND" h.txt; then ok help-names-man-pages
else bad help-names-man-pages "cycprof --help does not name the man pages"; fi

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

# cycprof.h(3) (written by hand): renders cleanly, names every macro the
# header defines or tests (not the CYCPROF__ internals, not the include
# guard), and its example compiles and runs under the tool.
H3=$SUITE_REPO/docs/man/cycprof.h.3
HDR=$SUITE_REPO/cycprof/include/cycprof.h
if [ ! -s "$H3" ]; then bad man-cycprof-h "no page $H3"
else
    groff -man -ww -z "$H3" >g.txt 2>&1
    groff -man -Tutf8 -P-cbou "$H3" 2>/dev/null | sed 's/‐/-/g' >h3.txt
    grep -oE '^#[[:space:]]*(define|ifn?def)[[:space:]]+CYCPROF_[A-Z][A-Z0-9_]*' "$HDR" |
        grep -oE 'CYCPROF_[A-Z0-9_]*$' | grep -vx CYCPROF_H | sort -u >macros.txt
    missing=$(while read -r m; do grep -qw -- "$m" h3.txt || echo "$m"; done <macros.txt | tr '\n' ' ')
    if [ -s g.txt ]; then bad man-cycprof-h "groff: $(head -n 2 g.txt | tr '\n' ' ')"
    elif [ "$(wc -l <macros.txt)" -lt 10 ]; then bad man-cycprof-h "found only $(wc -l <macros.txt) macros in $HDR"
    elif [ -n "$missing" ]; then bad man-cycprof-h "macros of cycprof.h missing from the page: $missing"
    else ok "man-cycprof-h ($(wc -l <macros.txt) macros)"; fi
    # The EXAMPLE section's program, as the page shows it.
    awk '/^EXAMPLE/ { t = 1; next } t && /^ *Run +it +with/ { exit } t' h3.txt >example.c
    mkdir -p inc/valgrind && ln -sf "$HDR" inc/valgrind/cycprof.h
    if ! gcc -O1 -g -Wall -Werror -Iinc -o example example.c 2>cc.txt; then
        bad man-cycprof-h-example "the example does not compile: $(head -n 3 cc.txt | tr '\n' ' ')"
    elif [ ! -d "$VGLIB" ]; then skip man-cycprof-h-example-run "no vg-lib overlay under $VGLIB"
    else
        VALGRIND_LIB=$VGLIB valgrind --tool=cycprof --pprof=no --cycprof-out-file="$T/ex.out" \
            ./example >ex.txt 2>ex.log; rc=$?
        # work(1000) alone: 1000 iterations of a loop are more than 2000 instructions
        n=$(sed -n 's/^332833500 in \([0-9]*\) instructions$/\1/p' ex.txt)
        if [ $rc != 0 ] || [ -z "$n" ] || [ "$n" -lt 2000 ]; then
            bad man-cycprof-h-example "exit $rc, printed: $(head -c 100 ex.txt)"
        elif ! grep -qE '^==[0-9]+== +again ' ex.log; then
            bad man-cycprof-h-example "no region 'again' in the log's region table: $(grep -A3 -i region ex.log | head -n 4 | tr '\n' ' ')"
        else ok "man-cycprof-h-example ($n instructions)"; fi
    fi
fi

# make install installs them where man looks (MANPATH = the staged mandir).
if [ -f "$B/Makefile" ]; then
    # Under `make check`, MAKEFLAGS may make the nested make chatty: the
    # staged tree, not make's output, says where the pages went.
    if make -s --no-print-directory -C "$B" install-man DESTDIR="$T/stage" >inst.txt 2>&1; then
        mandir=$(find "$T/stage" -path '*/man1/cycprof.1' | sed "s|^$T/stage||; s|/man1/cycprof.1\$||" | head -n 1)
        n=0
        for p in cycprof cycprof-report cycprof-diff cycprof-folded cycprof-flamegraph cycprof-firefox cycprof-pprof cargo-cycprof; do
            [ -f "$T/stage$mandir/man1/$p.1" ] && MANPATH="$T/stage$mandir" man -w "$p" >/dev/null 2>&1 && n=$((n + 1))
        done
        [ $n = 8 ] && ok "man-installed (8 pages in $mandir/man1)" ||
            bad man-installed "only $n of 8 pages installed under $T/stage$mandir/man1"
        # `man cycprof.h` and `man 3 cycprof` both reach cycprof.h(3)
        h=$(MANPATH="$T/stage$mandir" man -w cycprof.h 2>/dev/null)
        m3=$(MANPATH="$T/stage$mandir" man 3 cycprof 2>/dev/null | grep -c 'CYCPROF_REGION_BEGIN')
        [ "$h" = "$T/stage$mandir/man3/cycprof.h.3" ] && [ "$m3" -gt 0 ] && ok man-cycprof-h-installed ||
            bad man-cycprof-h-installed "man -w cycprof.h: '$h'; man 3 cycprof shows CYCPROF_REGION_BEGIN $m3 times"
    else bad man-installed "make install-man DESTDIR failed: $(tail -n 3 inst.txt | tr '\n' ' ')"; fi
fi

finish
