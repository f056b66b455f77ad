# The bench's floor tool (scripts/bench.d/floor, docs/benchmarks.md).
# shellcheck shell=bash

# The floor is evidence only if it does all the counting cycprof does: its
# total equals lackey's, both run with bench-lib/ as VALGRIND_LIB (the
# environment is part of what the program executes).  And its stack pops
# every frame it pushed but the ones live at exit (_start's callers).
t_bench_floor_exact() {
    [ -f "$CYCPROF_BUILD/Makefile" ] || fail "no Makefile in $CYCPROF_BUILD"
    make -s -C "$CYCPROF_BUILD" bench-tools >make.log 2>&1 ||
        fail "make bench-tools failed: $(tail -n 1 make.log)"
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
# The floor is amd64 only (its stack rule assumes calls push their return
# address), so the test exists only there.
if [ "$(uname -m)" = x86_64 ]; then
    register bench-floor-exact t_bench_floor_exact
fi
