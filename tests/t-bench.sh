# The bench's floor tool (scripts/bench.d/floor, docs/benchmarks.md).
# shellcheck shell=bash

# Both tests build the floor; the suite runs them side by side, and the
# overlay is remade from scratch each time, so one at a time.
build_bench_tools() {
    [ -f "$CYCPROF_BUILD/Makefile" ] || fail "no Makefile in $CYCPROF_BUILD"
    flock "$CYCPROF_BUILD/bench-build.lock" make -s -C "$CYCPROF_BUILD" bench-tools \
        >make.log 2>&1 || fail "make bench-tools failed: $(tail -n 1 make.log)"
}

# The floor is evidence only if it does all the counting cycprof does: its
# total equals lackey's, both run with bench-lib/ as VALGRIND_LIB (the
# environment is part of what the program executes).  And its stack pops
# every frame it pushed but the ones live at exit (_start's callers).
t_bench_floor_exact() {
    build_bench_tools
    local spec
    for spec in "fib 20" "recurse 10" "longjmp 500" "tailcall 100"; do
        # shellcheck disable=SC2086
        set -- $spec
        need_prog "$1"
        VGLIB=$CYCPROF_BUILD/bench-lib vg --tool=lackey --vex-guest-chase=no \
            --log-file="$PWD/lackey.log" "$BIN/$1" "${@:2}" >lackey.out 2>&1 </dev/null ||
            fail "$spec: lackey failed"
        VGLIB=$CYCPROF_BUILD/bench-lib vg --tool=cpfloor \
            --log-file="$PWD/floor.log" "$BIN/$1" "${@:2}" >floor.out 2>&1 </dev/null ||
            fail "$spec: cpfloor failed"
        local want got calls pops
        want=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total lackey.log) ||
            fail "$spec: no lackey total"
        read -r got calls pops < <(sed -n \
            's/.*cpfloor: guest instrs \([0-9]*\), calls \([0-9]*\), pops \([0-9]*\),.*/\1 \2 \3/p' \
            floor.log)
        [ -n "$got" ] || fail "$spec: no 'cpfloor: guest instrs' line in floor.log"
        [ "$got" = "$want" ] || note "$spec: floor total $got != lackey $want"
        [ "$calls" -gt 0 ] && [ $((calls - pops)) -ge 0 ] && [ $((calls - pops)) -le 8 ] ||
            note "$spec: the floor's stack pushed $calls frames and popped $pops"
        echo "$spec: floor=$got lackey=$want calls=$calls pops=$pops"
    done
}
# --floor=pipe measures the contexts built on another core only if nothing
# is lost on the way: the running count of the run, and the instructions
# the reader charged to its contexts, both equal lackey's total; so does
# the running count alone (--floor=running).
t_bench_floor_pipe_exact() {
    build_bench_tools
    local spec want run charged alone
    for spec in "fib 20" "recurse 10" "longjmp 500" "tailcall 100"; do
        # shellcheck disable=SC2086
        set -- $spec
        need_prog "$1"
        VGLIB=$CYCPROF_BUILD/bench-lib vg --tool=lackey --vex-guest-chase=no \
            --log-file="$PWD/lackey.log" "$BIN/$1" "${@:2}" >lackey.out 2>&1 </dev/null ||
            fail "$spec: lackey failed"
        want=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total lackey.log) ||
            fail "$spec: no lackey total"
        VGLIB=$CYCPROF_BUILD/bench-lib vg --tool=cpfloor --floor=pipe \
            --log-file="$PWD/pipe.log" "$BIN/$1" "${@:2}" >pipe.out 2>&1 </dev/null ||
            fail "$spec: cpfloor --floor=pipe failed"
        VGLIB=$CYCPROF_BUILD/bench-lib vg --tool=cpfloor --floor=running \
            --log-file="$PWD/running.log" "$BIN/$1" "${@:2}" >running.out 2>&1 </dev/null ||
            fail "$spec: cpfloor --floor=running failed"
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
    done
}
# The floor is amd64 only (its stack rule assumes calls push their return
# address), so the tests exist only there.
if [ "$(uname -m)" = x86_64 ]; then
    register bench-floor-exact t_bench_floor_exact
    register bench-floor-pipe-exact t_bench_floor_pipe_exact
fi
