# The bench's floor tool (scripts/bench.d/floor, docs/benchmarks.md).
# shellcheck shell=bash

# Both tests build the floor; the suite runs them side by side, and the
# overlay is remade from scratch each time, so one at a time.
build_bench_tools() {
    [ -f "$CYCPROF_BUILD/Makefile" ] || fail "no Makefile in $CYCPROF_BUILD"
    flock "$CYCPROF_BUILD/bench-build.lock" make -s -C "$CYCPROF_BUILD" bench-tools \
        >make.log 2>&1 || fail "make bench-tools failed: $(tail -n 1 make.log)"
}

# The programs both tests run, each with its arguments.
BENCH_PROGS=("fib 20" "recurse 10" "longjmp 500" "tailcall 100")

# bench_vg LOG TOOL-OPTIONS... -- PROG ARGS...: valgrind with bench-lib/ as
# VALGRIND_LIB (the environment is part of what the program executes),
# its log in LOG.
bench_vg() {
    local log=$1 opts=()
    shift
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    VGLIB=$CYCPROF_BUILD/bench-lib vg "${opts[@]}" --log-file="$PWD/$log" "$@" \
        >"$log.out" 2>&1 </dev/null || fail "$*: valgrind ${opts[*]} failed"
}

# lackey's total for PROG ARGS..., run as bench_vg runs it.
bench_lackey_total() {
    bench_vg lackey.log --tool=lackey --vex-guest-chase=no -- "$@"
    python3 "$TESTS_DIR/lib/cyc.py" lackey-total lackey.log || fail "$*: no lackey total"
}

# bench_each CHECK: builds the floor, then for each of BENCH_PROGS runs
# CHECK SPEC LACKEY-TOTAL PROG ARGS...
bench_each() {
    local spec want
    build_bench_tools
    for spec in "${BENCH_PROGS[@]}"; do
        # shellcheck disable=SC2086
        set -- $spec
        need_prog "$1"
        want=$(bench_lackey_total "$BIN/$1" "${@:2}") || exit 1
        "$CHECK" "$spec" "$want" "$BIN/$1" "${@:2}"
    done
}

# The floor is evidence only if it does all the counting cycprof does: its
# total equals lackey's.  And its stack pops every frame it pushed but the
# ones live at exit (_start's callers).
check_floor() {
    local spec=$1 want=$2 got calls pops
    shift 2
    bench_vg floor.log --tool=cpfloor -- "$@"
    read -r got calls pops < <(sed -n \
        's/.*cpfloor: guest instrs \([0-9]*\), calls \([0-9]*\), pops \([0-9]*\),.*/\1 \2 \3/p' \
        floor.log)
    [ -n "$got" ] || fail "$spec: no 'cpfloor: guest instrs' line in floor.log"
    [ "$got" = "$want" ] || note "$spec: floor total $got != lackey $want"
    [ "$calls" -gt 0 ] && [ $((calls - pops)) -ge 0 ] && [ $((calls - pops)) -le 8 ] ||
        note "$spec: the floor's stack pushed $calls frames and popped $pops"
    echo "$spec: floor=$got lackey=$want calls=$calls pops=$pops"
}
t_bench_floor_exact() { CHECK=check_floor bench_each; }

# --floor=pipe measures the contexts built on another core only if nothing
# is lost on the way: the running count of the run, and the instructions
# the reader charged to its contexts, both equal lackey's total; so does
# the running count alone (--floor=running).
check_pipe() {
    local spec=$1 want=$2 run charged alone
    shift 2
    bench_vg pipe.log --tool=cpfloor --floor=pipe -- "$@"
    bench_vg running.log --tool=cpfloor --floor=running -- "$@"
    run=$(sed -n 's/.*cpfloor pipe: run: words [0-9]*, instrs \([0-9]*\),.*/\1/p' pipe.log)
    charged=$(sed -n 's/.*cpfloor pipe: reader: .*instrs charged \([0-9]*\),.*/\1/p' pipe.log)
    alone=$(sed -n 's/.*cpfloor running: instrs \([0-9]*\)$/\1/p' running.log)
    [ -n "$run" ] && [ -n "$charged" ] ||
        fail "$spec: no run or reader line in pipe.log: $(grep -c cpfloor pipe.log) cpfloor lines"
    [ -n "$alone" ] || fail "$spec: no 'cpfloor running' line in running.log"
    [ "$run" = "$want" ] || note "$spec: the pipe's running count $run != lackey $want"
    [ "$charged" = "$want" ] || note "$spec: the reader charged $charged != lackey $want"
    [ "$alone" = "$want" ] || note "$spec: --floor=running counted $alone != lackey $want"
    echo "$spec: lackey=$want run=$run reader=$charged running=$alone"
}
t_bench_floor_pipe_exact() { CHECK=check_pipe bench_each; }

# The floor is amd64 only (its stack rule assumes calls push their return
# address), so the tests exist only there.
if [ "$(uname -m)" = x86_64 ]; then
    register bench-floor-exact t_bench_floor_exact
    register bench-floor-pipe-exact t_bench_floor_pipe_exact
fi
