# A. Totals equal lackey's exact instruction count.
# shellcheck shell=bash

# totals for several C test programs (default options)
t_totals_c() {
    need_tool
    local spec specs=("split" "recurse 10" "longjmp 500" "signal 100" "fib 20"
        "cxxexc 100" "coro 100" "tailcall 100" "plt_main 1000" "plt_tail 1000")
    # oddret is x86 assembly
    [ "$(uname -m)" = x86_64 ] && specs+=("oddret 1000")
    for spec in "${specs[@]}"; do
        # (threads is not here: its count depends on thread scheduling)
        # shellcheck disable=SC2086
        set -- $spec
        need_prog "$1"
        local b
        b=$(shared_profile -- "$BIN/$1" "${@:2}")
        check_run "$b" cg
        expect_total_eq_lackey "$spec" "$b" "$BIN/$1" "${@:2}"
    done
}
register totals-c-programs t_totals_c

# gzip -6 -c of ~1 MB of generated text
t_totals_gzip() {
    need_tool
    [ -s "$BIN/text.txt" ] || fail "text.txt was not generated"
    local b
    b=$(shared_profile -- /bin/gzip -6 -c "$BIN/text.txt")
    check_run "$b" cg
    gzip -dc <"$b.stdout" | cmp -s - "$BIN/text.txt" || note "gzip output under the tool does not decompress to its input"
    expect_total_eq_lackey "gzip" "$b" /bin/gzip -6 -c "$BIN/text.txt"
}
register totals-gzip t_totals_gzip

# python3 running a small script. -S -s (not -I: -I implies -E, which ignores
# PYTHONHASHSEED and makes instruction counts vary from run to run).
# LD_PRELOAD: Python 3.14+ calls pthread_getattr_np at startup, which scans
# /proc/self/maps; under Valgrind that file differs between tools (see
# progs/stackattr_preload.c), so the count would differ from the oracles'.
PY_ENV=(PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 LD_PRELOAD="$BIN/libstackattr.so")
t_totals_python() {
    need_tool
    RUN_ENV=("${PY_ENV[@]}")
    local b
    b=$(shared_profile -- /usr/bin/python3 -S -s "$BIN/pyscript.py")
    check_run "$b" cg
    local native
    native=$(env -i PATH=/usr/bin:/bin LANG=C "${PY_ENV[@]}" /usr/bin/python3 -S -s "$BIN/pyscript.py")
    [ "$(cat "$b.stdout")" = "$native" ] || note "python output under the tool differs from native ($native)"
    expect_total_eq_lackey "python3" "$b" /usr/bin/python3 -S -s "$BIN/pyscript.py"
}
register totals-python t_totals_python

# The user passing --vex-guest-chase=yes must not change the count (the tool
# forces chasing off itself); a second identical run gives the same number.
t_totals_chase_and_repeat() {
    need_tool
    need_prog recurse tailcall
    local spec
    for spec in "recurse 10" "tailcall 100" "python"; do
        local prog
        RUN_ENV=()
        if [ "$spec" = python ]; then
            RUN_ENV=("${PY_ENV[@]}")
            prog=(/usr/bin/python3 -S -s "$BIN/pyscript.py")
        else
            # shellcheck disable=SC2206
            prog=($spec)
            prog[0]=$BIN/${prog[0]}
        fi
        local b0 b1 t0 t1 t2 want
        b0=$(shared_profile -- "${prog[@]}")
        check_run "$b0" cg
        t0=$(total_of_run "$b0") || fail "$t0"
        cycprof "$PWD/chase.out" "$PWD/chase.log" --vex-guest-chase=yes -- "${prog[@]}" >chase.stdout 2>chase.stderr </dev/null ||
            note "$spec: tool run with --vex-guest-chase=yes exited non-zero"
        t1=$(total_of_run "$PWD/chase") || fail "$t1"
        cycprof "$PWD/again.out" "$PWD/again.log" -- "${prog[@]}" >again.stdout 2>again.stderr </dev/null ||
            note "$spec: second tool run exited non-zero"
        t2=$(total_of_run "$PWD/again") || fail "$t2"
        want=$(lackey_total "${prog[@]}")
        echo "$spec: default=$t0 chase=yes=$t1 again=$t2 lackey=$want"
        [ "$t1" = "$t0" ] || note "$spec: total with --vex-guest-chase=yes $t1 != default $t0 (lackey $want)"
        [ "$t2" = "$t0" ] || note "$spec: second run total $t2 != first run $t0 (lackey $want)"
        [ "$t1" = "$want" ] || note "$spec: total with --vex-guest-chase=yes $t1 != lackey $want"
    done
}
register totals-chase-yes-and-repeat t_totals_chase_and_repeat

# Without --cycprof-out-file the files are cycprof.out.<pid> and cycprof.out.<pid>.pb.gz
t_default_names() {
    need_tool
    need_prog split
    RUN_CWD=$PWD
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --log-file="$PWD/vg.log" "$BIN/split" ||
        fail "tool run exited non-zero"
    local pid
    pid=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' vg.log | head -n 1)
    [ -n "$pid" ] || fail "no ==PID== prefix in the valgrind log"
    [ -s "cycprof.out.$pid" ] || fail "cycprof.out.$pid not written (dir has: $(ls | tr '\n' ' '))"
    [ -s "cycprof.out.$pid.pb.gz" ] || fail "cycprof.out.$pid.pb.gz not written (dir has: $(ls | tr '\n' ' '))"
    gzip -t "cycprof.out.$pid.pb.gz" || fail "cycprof.out.$pid.pb.gz is not gzip"
}
register default-output-names t_default_names

# A user raising VEX's loop unrolling gets superblocks of over 255
# instructions (progs/unrolled.c): the tool neither stops nor miscounts.
# Oracles run with the same options: lackey for the total, cachegrind for
# the self cost of each line of the loops.
t_totals_unrolled() {
    need_tool
    need_prog unrolled
    local vex=(--vex-iropt-unroll-thresh=400 --vex-guest-max-insns=100) b cgo
    b=$(shared_profile "${vex[@]}" -- "$BIN/unrolled" 1003)
    check_run "$b" both
    expect_total_eq_lackey "unrolled" "$b" "${vex[@]}" "$BIN/unrolled" 1003
    cgo=$(cachegrind_out "${vex[@]}" "$BIN/unrolled" 1003) || fail "cachegrind oracle failed"
    expect_line_self_eq_cachegrind "$b" "$cgo" "$TESTS_DIR/progs/unrolled.c" 21
}
register unrolled-superblocks t_totals_unrolled
