#!/usr/bin/env bash
# The suite's own reporting, on made-up tests: tests/run and unit/suite.sh
# say skip for a test or check that skipped (never ok), count skips apart
# from passes and failures, list the skipped tests before the closing
# 'N passed, N failed, N skipped' line, and a failure noted before a skip
# still fails; .ci/run adds up such lines (and the older
# 'N passed, N failed'). The runner runs a copy of tests/run and lib.sh in
# a folder of its own, with no test programs to build: its
# build-test-programs fails, and is counted as the failure it is.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/runner/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init runner

# ---------------------------------------------------------------- tests/run
mkdir -p fake/unit/allskip fake/unit/someskip fake/unit/fails
cp "$REPO/tests/run" "$REPO/tests/lib.sh" fake/
cp "$REPO/tests/unit/suite.sh" fake/unit/
cat >fake/t-fake.sh <<'EOF'
t_pass() { true; }
t_skip() { skip "no widget here (apt-get install widget)"; note "not reached"; }
t_note_then_skip() { note "broken before the skip"; skip "no widget here"; }
t_partial() { not_checked "part B (no gadget)"; }
t_fail() { fail "boom"; }
register fake-pass t_pass
register fake-skip t_skip
register fake-note-then-skip t_note_then_skip
register fake-partial t_partial
register fake-fail t_fail
EOF
suite() { # FOLDER BODY: a unit suite of the fake tree
    printf '. "$(dirname "$0")/../suite.sh"\nsuite_init %s\n%s\nfinish\n' "$1" "$2" >"fake/unit/$1/run.sh"
}
suite allskip 'skip a "r1"; skip b "r2"'
suite someskip 'ok x; skip y "r3"'
suite fails 'ok x; skip y "r4"; bad z "r5"'
# (the failing suite keeps its scratch folder: in $T too)
(CYCPROF_BUILD=$CYCPROF_BUILD CYCPROF_TEST_DIR=$T/w TMPDIR=$T bash fake/run 'fake-*' 'unit-*') >run.out 2>&1
rc=$?
[ $rc != 0 ] && ok "run-exit-status (exit $rc: a test failed)" || bad run-exit-status "exit 0 with failed tests"
expect_line() { # NAME LINE [REGEX]: run.out has LINE, or a line matching REGEX
    if grep -qxF -- "$2" run.out || { [ -n "${3:-}" ] && grep -qE -- "$3" run.out; }; then ok "$1"
    else bad "$1" "no line '$2' in: $(grep -v '^#' run.out | tr '\n' '|' | cut -c1-600)"; fi
}
expect_line skip-line "skip fake-skip: no widget here (apt-get install widget)"
expect_line pass-line "ok fake-pass"
expect_line note-then-skip-fails "FAIL fake-note-then-skip: broken before the skip"
expect_line not-checked-on-ok-line "ok fake-partial (not checked: part B (no gadget))"
expect_line fail-line "FAIL fake-fail: boom"
expect_line unit-all-skipped "skip unit-allskip: a: r1; b: r2"
expect_line unit-some-skipped "ok unit-someskip (1 of its checks skipped: y)"
expect_line unit-skip-reason "# unit-someskip: skip y: r3"
expect_line unit-fails "FAIL unit-fails: ... exited non-zero: fails: 1 passed, 1 failed, 1 skipped ..." \
    '^FAIL unit-fails: .* exited non-zero: fails: 1 passed, 1 failed, 1 skipped'

# passed: fake-pass, fake-partial, unit-someskip; failed: build-test-programs
# (no programs here), fake-note-then-skip, fake-fail, unit-fails; skipped:
# fake-skip, unit-allskip
tail -n 3 run.out >tail.txt
printf '%s\n' "skip fake-skip: no widget here (apt-get install widget)" \
    "skip unit-allskip: a: r1; b: r2" "3 passed, 4 failed, 2 skipped" >want.txt
if cmp -s tail.txt want.txt; then ok "closing-lines (the skips, then 3 passed, 4 failed, 2 skipped)"
else bad closing-lines "last lines: $(tr '\n' '|' <tail.txt)"; fi

# ---------------------------------------------------------------- .ci/run
# Its summing, run on made-up logs: the lines from '^passed=0' to its exit.
mkdir -p ci
printf 'ok a\nskip b: r\n70 passed, 0 failed, 3 skipped\n' >ci/host; echo 0 >ci/host.rc
printf '69 passed, 2 failed, 1 skipped\n' >ci/trixie; echo 1 >ci/trixie.rc
printf '72 passed, 0 failed\n' >ci/old; echo 0 >ci/old.rc
printf 'make: *** Error 2\n' >ci/broken; echo 2 >ci/broken.rc
printf '5 passed, 0 failed, 0 skipped\n' >ci/outside; echo 1 >ci/outside.rc
{
    echo 'set -euo pipefail'
    echo "logs=$T/ci"
    echo 'runs=(host trixie old broken outside)'
    sed -n '/^passed=0 /,/^exit \$status/p' "$REPO/.ci/run"
} >ci/sum.sh
bash ci/sum.sh >ci.out 2>&1
rc=$?
# 70+69+72+0+5 passed; 0+2+0+1 (no summary)+1 (exit 1 outside the suite) failed
if [ $rc = 1 ] && [ "$(tail -n 1 ci.out)" = "216 passed, 4 failed, 4 skipped" ]; then
    ok "ci-run-sum (216 passed, 4 failed, 4 skipped, exit 1)"
else bad ci-run-sum "exit $rc: $(tr '\n' '|' <ci.out)"; fi
finish
