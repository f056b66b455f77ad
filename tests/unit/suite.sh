# shellcheck shell=bash
# What the unit suites share (sourced by tests/unit/*/run.sh):
#   suite_init NAME   finds the build (CYCPROF_BUILD, default ./build): $CYC
#                     (cycprof), $CARGO_CYC (cargo-cycprof, may be empty),
#                     $VGLIB (the vg-lib overlay); makes the scratch dir $T
#                     and cds into it
#   ok NAME / bad NAME REASON    one result line
#   skip NAME REASON  a check this machine cannot run: 'skip NAME: REASON',
#                     counted apart (tests/run reports a suite whose every
#                     check skipped as skipped, and names the skipped checks
#                     of any other)
#   expect_err NAME REGEX ARGS   cycprof ARGS rejected in one line
#   finish            "NAME: N passed, N failed, N skipped", removes $T when
#                     none failed (and KEEP is unset), exits non-zero on any
#                     failure
set -u
SUITE_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${CYCPROF_BUILD:=$SUITE_REPO/build}"
PASS=0 FAILS=0 SKIPS=0
ok() { echo "ok $1"; PASS=$((PASS + 1)); }
bad() { echo "FAIL $1: $2"; FAILS=$((FAILS + 1)); }
skip() { echo "skip $1: $2"; SKIPS=$((SKIPS + 1)); }
finish() {
    echo "$SUITE: $PASS passed, $FAILS failed, $SKIPS skipped"
    if [ $FAILS = 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$T"; else echo "# kept $T"; fi
    [ $FAILS = 0 ]
    exit
}
suite_init() {
    SUITE=$1
    CYC="" CARGO_CYC=""
    local d
    for d in "$CYCPROF_BUILD" "$CYCPROF_BUILD/cycprof/cli"; do
        [ -z "$CYC" ] && [ -f "$d/cycprof" ] && [ -x "$d/cycprof" ] && CYC=$d/cycprof
        [ -z "$CARGO_CYC" ] && [ -f "$d/cargo-cycprof" ] && [ -x "$d/cargo-cycprof" ] && CARGO_CYC=$d/cargo-cycprof
    done
    VGLIB=$CYCPROF_BUILD/vg-lib
    T=$(mktemp -d "${TMPDIR:-/tmp}/cycprof-$SUITE-tests.XXXXXX")
    export LC_ALL=C
    cd "$T" || exit 1
    [ -n "$CYC" ] || { bad setup "no built cycprof under CYCPROF_BUILD=$CYCPROF_BUILD"; finish; }
}
# expect_err NAME REGEX ARGS...: `cycprof ARGS` fails as bad input must: a
# non-zero exit, not a signal, and one line on stderr that matches REGEX
expect_err() {
    local name=$1 re=$2; shift 2
    "$CYC" "$@" >/dev/null 2>e.txt; local rc=$?
    if [ $rc -ge 128 ]; then bad "$name" "killed by signal $((rc - 128))"
    elif [ $rc = 0 ]; then bad "$name" "exit 0"
    elif [ "$(wc -l <e.txt)" != 1 ]; then bad "$name" "stderr is not one line: $(head -c 200 e.txt)"
    elif ! grep -Eq "$re" e.txt; then bad "$name" "stderr '$(cat e.txt)' does not match /$re/"
    else ok "$name"; fi
}
# need_vglib: the suite runs the tool
need_vglib() { [ -d "$VGLIB" ] || { bad setup "no vg-lib overlay under CYCPROF_BUILD=$CYCPROF_BUILD"; finish; }; }
