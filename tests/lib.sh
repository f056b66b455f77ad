# Shared helpers for the cycprof test suite; sourced by tests/run and tests/t-*.sh.
# shellcheck shell=bash

TESTS_DIR=${TESTS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
REPO_DIR=$(cd "$TESTS_DIR/.." && pwd)
: "${CYCPROF_BUILD:=$REPO_DIR/build}"
VGLIB=$CYCPROF_BUILD/vg-lib
case $(uname -m) in
    aarch64) TOOL_PLATFORM=arm64-linux ;;
    *) TOOL_PLATFORM=amd64-linux ;;
esac
TOOL_BIN=$VGLIB/cycprof-$TOOL_PLATFORM
# The userland helper: vg-lib/cycprof (overlay), else the build tree's binary.
HELPER_BIN=$VGLIB/cycprof
for _h in "$VGLIB/cycprof" "$CYCPROF_BUILD/cycprof/cli/cycprof" "$CYCPROF_BUILD/cycprof"; do
    if [ -f "$_h" ] && [ -x "$_h" ]; then HELPER_BIN=$_h; break; fi
done

# ------------------------------------------------------------------ work dir
# W: scratch space for this run (programs, oracle cache, per-test dirs).
setup_workdir() {
    if [ -n "${CYCPROF_TEST_DIR:-}" ]; then
        W=$CYCPROF_TEST_DIR
        mkdir -p "$W"
    else
        W=$(mktemp -d "${TMPDIR:-/tmp}/cycprof-tests.XXXXXX")
    fi
    BIN=$W/bin
    # cached tool runs must never outlive a rebuild of the tool
    [ -n "${CYCPROF_TEST_KEEP_CACHE:-}" ] || rm -rf "$W/cache"
    mkdir -p "$BIN" "$W/cache" "$W/t" "$W/run" "$W/home" "$W/gocache" "$W/pprof-tmp"
    export W BIN
}

# ------------------------------------------------------------------ failures
# Inside a test (run in its own subshell, cwd = its dir, REASON_FILE,
# SKIP_FILE and UNCHECKED_FILE set):
#   fail MSG         record MSG and end the test
#   note MSG         record MSG and go on (the test fails at the end)
#   skip MSG         this machine cannot run the test (a CPU feature, a
#                    package, a permission it lacks): record MSG and end the
#                    test, reported 'skip NAME: MSG' and counted apart from
#                    the passes (a failure noted before still fails it)
#   not_checked MSG  a part of the test cannot run here: record MSG and go
#                    on; the test's ok line names what was not checked
fail() { echo "$*" >>"$REASON_FILE"; echo "FAIL: $*"; exit 1; }
note() { echo "$*" >>"$REASON_FILE"; echo "FAIL: $*"; }
skip() { echo "$*" >>"$SKIP_FILE"; echo "SKIP: $*"; exit 0; }
not_checked() { echo "$*" >>"$UNCHECKED_FILE"; echo "NOT CHECKED: $*"; }

need_tool() {
    [ -x "$TOOL_BIN" ] || [ -f "$TOOL_BIN" ] ||
        fail "cycprof tool not built: $TOOL_BIN missing (CYCPROF_BUILD=$CYCPROF_BUILD)"
}
need_prog() {
    local p
    for p in "$@"; do
        [ -x "$BIN/$p" ] || fail "test program $p was not built (see $W/build.log)"
    done
}

# need_tail_jump PROG FROM TO: the test program is built as it says, with
# FROM ending in a tail jump to TO (x86 jmp, arm64 b).  FROM's code is
# left in FROM.s.
need_tail_jump() {
    local prog=$1 from=$2 to=$3
    objdump -d --no-show-raw-insn "$BIN/$prog" |
        awk "/<$from>:/{f=1;next} f&&/^\$/{exit} f" >"$from.s"
    grep -q -E "[[:space:]](jmp|b)[[:space:]]+[0-9a-f]+ <$to>" "$from.s" ||
        fail "test program: $from() does not tail-jump to $to (objdump: $(tr '\n' ' ' <"$from.s" | cut -c1-200))"
}

# need_lazy_binding PROG: the test program binds its PLT entries lazily.
need_lazy_binding() {
    readelf -d "$BIN/$1" | grep -q -E 'BIND_NOW|FLAGS.*NOW' &&
        fail "test program $1 is linked with -z now"
    return 0
}

# ------------------------------------------------------------------ running valgrind
# Every valgrind run (tool and oracles alike) gets the same small, fixed
# environment and cwd, so that the profiled program executes the same
# instructions under every tool: the environment is visible to the program
# (ld.so and libc scan it) and VALGRIND_LIB/LD_PRELOAD paths are part of it.
# Extra variables for the program: RUN_ENV=(NAME=VALUE ...).
# --vgdb=no: with it on, Valgrind maps a file whose name holds the pid, a
# line of the program's /proc/self/maps that glibc parses, so two runs whose
# pids have different lengths count differently (seen: 4 instructions in
# __memchr_avx2 between two --deterministic=yes runs of one Rust program).
# VG_VGDB_DEFAULT=1 leaves Valgrind's default (a test of that default).
RUN_ENV=()
RUN_CWD=""

vg() {
    local vglib=$VGLIB vgdb=(--vgdb=no)
    [ -z "${VG_VGDB_DEFAULT:-}" ] || vgdb=()
    [ -d "$vglib" ] || vglib=/usr/libexec/valgrind
    (cd "${RUN_CWD:-$W/run}" &&
        env -i PATH=/usr/bin:/bin HOME="$W/home" LANG=C VALGRIND_LIB="$vglib" \
            ${RUN_ENV[@]+"${RUN_ENV[@]}"} valgrind ${vgdb[@]+"${vgdb[@]}"} "$@")
}

# faketime_env DATE: RUN_ENV for Debian's libfaketime with the clock stopped
# at DATE (an oracle's way to fix a program's clock).  Left to itself,
# libfaketime makes a semaphore and a shared memory object named after the
# pid and exports their names in FAKETIME_SHARED, so what the program
# executes changes with the pid's length: lua5.4 counted 90 more with a
# 5-digit pid than with a 4-digit one, and when the longer environment moves
# lua's heap, its hash seed moves with it (the tool and lackey, run at pids
# of different lengths, then differed by 16,822).  Named in
# FAKETIME_SHARED, objects made here, one pair for the whole run, are
# opened instead; the start time they hold is already set (to 0), so no
# run reads the real clock to store it.
faketime_env() {
    local lib name
    lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n1)
    [ -n "$lib" ] || fail "libfaketime is not installed (scripts/install-deps: faketime)"
    name=$(faketime_shared_name)
    python3 - "$name" <<'PY' || fail "cannot make the shared objects for libfaketime in /dev/shm"
import _multiprocessing, os, sys
name = sys.argv[1]
try:   # a named semaphore holding 1, left in place (unlink=False)
    _multiprocessing.SemLock(1, 1, 1, "/%s-sem" % name, False)
except FileExistsError:
    pass
fd = os.open("/dev/shm/%s-shm" % name, os.O_RDWR | os.O_CREAT, 0o600)
os.ftruncate(fd, 4096)   # zeros: start time set, no ticks, no file index
PY
    RUN_ENV=(LD_PRELOAD="$lib" "FAKETIME=$1" "FAKETIME_SHARED=/$name-sem /$name-shm")
}
# One name per test run, as long in every run (mktemp's suffix).
faketime_shared_name() { echo "cycprof-faketime-${W##*.}"; }

# cycprof OUT LOG [tool options] -- PROG ARGS...
# Runs the tool writing OUT (callgrind format) and OUT.pb.gz; valgrind's log in LOG.
cycprof() {
    local out=$1 log=$2
    shift 2
    local opts=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    [ "${1:-}" = "--" ] && shift
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$out" \
        --log-file="$log" ${opts[@]+"${opts[@]}"} "$@"
}

# Cache of oracle runs and shared tool runs, keyed by what was run.
_key() { printf '%s\n' "$*" "${RUN_ENV[*]-}" "${RUN_CWD:-}" | sha1sum | cut -c1-16; }
_locked() { # _locked KEY CMD...: run CMD once per KEY (others wait for it)
    local key=$1
    shift
    (
        flock 9
        if [ ! -e "$W/cache/$key.done" ]; then
            "$@" && touch "$W/cache/$key.done"
        fi
    ) 9>"$W/cache/$key.lock"
}

# lackey_total PROG ARGS... -> prints the exact instruction count (oracle)
# The program's stdout/stderr always go to regular files (never /dev/null or a
# pipe): libc behaves differently (and executes different instructions) otherwise.
_run_lackey() { vg --tool=lackey --vex-guest-chase=no --log-file="$W/cache/$1.lackey.log" "${@:2}" >"$W/cache/$1.lackey.out" 2>"$W/cache/$1.lackey.err" </dev/null; }
lackey_total() {
    local key
    key=$(_key lackey "$@")
    _locked "$key" _run_lackey "$key" "$@"
    python3 "$TESTS_DIR/lib/cyc.py" lackey-total "$W/cache/$key.lackey.log"
}

# cachegrind_out PROG ARGS... -> prints path of a cachegrind.out (oracle for per-function Ir).
# --show-below-main=yes: real names (_start, __libc_start_call_main), not '(below main)'.
_run_cachegrind() {
    vg --tool=cachegrind --vex-guest-chase=no --cache-sim=no --show-below-main=yes \
        --cachegrind-out-file="$W/cache/$1.cg.out" --log-file="$W/cache/$1.cg.log" "${@:2}" \
        >"$W/cache/$1.cg.stdout" 2>"$W/cache/$1.cg.err" </dev/null
}
cachegrind_out() {
    local key
    key=$(_key cachegrind-sbm "$@")
    _locked "$key" _run_cachegrind "$key" "$@"
    [ -s "$W/cache/$key.cg.out" ] || { echo "cachegrind produced no output for: $*" >&2; return 1; }
    echo "$W/cache/$key.cg.out"
}

# callgrind_out PROG ARGS... -> prints the path of callgrind's own output file
# (oracle for inclusive costs through recursion).
_run_callgrind() {
    vg --tool=callgrind --callgrind-out-file="$W/cache/$1.callgrind.out" \
        --log-file="$W/cache/$1.callgrind.log" "${@:2}" \
        >"$W/cache/$1.callgrind.stdout" 2>"$W/cache/$1.callgrind.err" </dev/null
}
callgrind_out() {
    local key
    key=$(_key callgrind "$@")
    _locked "$key" _run_callgrind "$key" "$@"
    [ -s "$W/cache/$key.callgrind.out" ] || { echo "callgrind produced no output for: $*" >&2; return 1; }
    echo "$W/cache/$key.callgrind.out"
}

# shared_profile [tool options] -- PROG ARGS... -> prints base path B of a cached tool run:
# B (callgrind format), B.pb.gz, B.log (valgrind log), B.rc (exit status), B.stdout, B.stderr.
_run_shared() {
    local b=$W/cache/$1
    shift
    cycprof "$b" "$b.log" "$@" >"$b.stdout" 2>"$b.stderr" </dev/null
    echo $? >"$b.rc"
}
shared_profile() {
    local key
    key=$(_key cycprof "$@")
    _locked "$key" _run_shared "$key" "$@"
    echo "$W/cache/$key"
}

# check_run B [cg|pb|both]: the tool run at base B exited 0 and wrote its file(s).
check_run() {
    local b=$1 which=${2:-both}
    [ "$(cat "$b.rc" 2>/dev/null)" = 0 ] ||
        fail "valgrind --tool=cycprof exited $(cat "$b.rc" 2>/dev/null) ($(grep -v '^==[0-9]*== *$' "$b.log" "$b.stderr" 2>/dev/null | tail -n 3 | tr '\n' ' '))"
    [ "$which" = pb ] || [ -s "$b" ] || fail "no callgrind-format file $b"
    [ "$which" = cg ] || [ -s "$b.pb.gz" ] ||
        fail "no pprof file $b.pb.gz ($(grep -i -E 'pprof|helper|error' "$b.log" 2>/dev/null | head -n 2 | tr '\n' ' '))"
}

# pycheck ARGS... <<'PY' ... PY : run python checks with tests/lib on the path
# A check that exits non-zero without recording a reason (a crash, a reader
# error) still fails the test.
pycheck() {
    local n0 rc
    n0=$(wc -l <"$REASON_FILE")
    PYTHONPATH="$TESTS_DIR/lib" PYTHONDONTWRITEBYTECODE=1 python3 - "$@"
    rc=$?
    [ $rc -eq 0 ] || [ "$(wc -l <"$REASON_FILE")" -gt "$n0" ] || note "python check crashed (exit $rc), see log"
    return $rc
}
# expect_line_self_eq_cachegrind B CGO SRC [MIN_LINES]: the self cost of every
# line of SRC in the tool's callgrind file B equals cachegrind's (its own file
# CGO), on at least MIN_LINES lines with cost (default 1; fewer is an oracle
# problem).
expect_line_self_eq_cachegrind() {
    pycheck "$1" "$2" "$3" "${4:-1}" <<'PY' || true
import os, sys
from cyc import *
C = Checker()
path, cgo, src, min_lines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
base = os.path.basename(src)
want = {k: v for k, v in cg_line_self(cgo).items() if k[0] == base and v}
got = {k: v for k, v in callgrind_line_self(path).items() if k[0] == base and v}
C.true(len(want) >= min_lines, "cachegrind has cost on %d lines of %s, fewer than %d (oracle problem)" % (
    len(want), base, min_lines))
d = sorted((k[1], want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0))
C.true(not d, "%s: per-line self cost differs from cachegrind on %d of %d lines, e.g. %s" % (
    base, len(d), len(want), ["line %d: cachegrind=%d tool=%d" % x for x in d[:3]]))
C.done()
PY
}
# sc CHECK ARGS...: run a check from lib/stack_checks.py (same failure rules)
sc() {
    local n0 rc
    n0=$(wc -l <"$REASON_FILE")
    PYTHONPATH="$TESTS_DIR/lib" PYTHONDONTWRITEBYTECODE=1 python3 "$TESTS_DIR/lib/stack_checks.py" "$@"
    rc=$?
    [ $rc -eq 0 ] || [ "$(wc -l <"$REASON_FILE")" -gt "$n0" ] || note "stack check $1 crashed (exit $rc), see log"
    return $rc
}

# go tool pprof needs a writable HOME/GOCACHE and must not touch the network.
# HOME is set for go only (cyc.py passes GO_HOME as HOME), so rustup etc. keep theirs.
export GOCACHE GOFLAGS PPROF_TMPDIR PPROF_BINARY_PATH GOTOOLCHAIN GO_HOME
go_env() {
    GO_HOME=$W/home
    GOCACHE=$W/gocache
    GOFLAGS=-mod=mod
    PPROF_TMPDIR=$W/pprof-tmp
    PPROF_BINARY_PATH=$W/no-binaries
    GOTOOLCHAIN=local
    export GO_HOME GOCACHE GOFLAGS PPROF_TMPDIR PPROF_BINARY_PATH GOTOOLCHAIN
}

# ------------------------------------------------------------------ test registry
TESTS=()
declare -A TEST_FN
register() { TESTS+=("$1"); TEST_FN[$1]=$2; }

# ------------------------------------------------------------------ common checks
# total_of_run B -> the tool's 'I   refs:' total from B.log (fails the test if absent)
total_of_run() {
    python3 "$TESTS_DIR/lib/cyc.py" refs-total "$1.log" 2>&1 ||
        fail "no single 'I   refs:' line in the tool's log $1.log"
}

# expect_total_eq_lackey WHAT B PROG ARGS...: tool total of run B equals lackey's count
expect_total_eq_lackey() {
    local what=$1 b=$2
    shift 2
    local want got
    want=$(lackey_total "$@") || fail "lackey oracle failed for $*"
    got=$(total_of_run "$b") || fail "$got"
    [ "$want" = "$got" ] || note "$what: tool total $got != lackey $want (diff $((got - want)))"
    echo "$what: tool=$got lackey=$want"
}
