# D. Stack events: hand-built programs whose structure fixes the expected stacks.
# shellcheck shell=bash


# prof [tool opts] -- PROG ARGS: cached tool run (both files required) -> base path
prof() {
    local b
    b=$(shared_profile "$@")
    check_run "$b"
    echo "$b"
}

t_split() {
    need_tool; need_prog split
    local b; b=$(prof -- "$BIN/split") || exit 1
    sc split "$b.pb.gz" "$b" "$(cachegrind_out "$BIN/split")"
}
register stack-split t_split

t_recursion_fold() {
    need_tool; need_prog recurse
    local b; b=$(prof -- "$BIN/recurse" 10) || exit 1
    sc recursion "$b.pb.gz" "$(cachegrind_out "$BIN/recurse" 10)" fold 20 10
}
register stack-recursion-fold t_recursion_fold

t_recursion_nofold() {
    need_tool; need_prog recurse
    local b; b=$(prof --fold-recursion=no -- "$BIN/recurse" 10) || exit 1
    sc recursion "$b.pb.gz" "$(cachegrind_out "$BIN/recurse" 10)" nofold 20 10
}
register stack-recursion-nofold t_recursion_nofold

# With every chain its own context, a loop of tail calls between frames
# that tail jumps entered must still not grow the tree: 20 rounds and
# 2000 give the same stacks.
t_tailloop_nofold() {
    need_tool; need_tailloop
    local b1 b2
    b1=$(prof --fold-recursion=no -- "$BIN/tailloop" 2 2000) || exit 1
    b2=$(prof --fold-recursion=no -- "$BIN/tailloop" 2 20) || exit 1
    sc bounded "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/tailloop" 2 2000)" ""
}
register stack-tailloop-nofold t_tailloop_nofold

t_tailcall() {
    need_tool; need_prog tailcall
    # the program must really contain a tail call: ta ends in a jump to tb
    need_tail_jump tailcall ta tb
    grep -q -E '[[:space:]](call|bl)[[:space:]]+[0-9a-f]+ <tb>' ta.s && fail "test program: ta() calls tb instead of jumping"
    local b; b=$(prof -- "$BIN/tailcall" 100) || exit 1
    sc tailcall "$b.pb.gz" "$(cachegrind_out "$BIN/tailcall" 100)"
}
register stack-tailcall t_tailcall

t_plt() {
    need_tool; need_prog plt_main; need_lazy_binding plt_main
    local b1 b2
    b1=$(prof -- "$BIN/plt_main" 1000) || exit 1
    b2=$(prof -- "$BIN/plt_main" 2000) || exit 1
    sc plt "$b1.pb.gz" "$b2.pb.gz" "$b1" "$(cachegrind_out "$BIN/plt_main" 1000)" 1000 2000
}
register stack-plt-lazy-binding t_plt

# The same library function reached by a tail jump through the PLT: the
# resolver is then entered by a jump, not a call.
t_plt_tail() {
    need_tool; need_prog plt_tail; need_lazy_binding plt_tail
    need_tail_jump plt_tail via libfn@plt
    local b1 b2
    b1=$(prof -- "$BIN/plt_tail" 1000) || exit 1
    b2=$(prof -- "$BIN/plt_tail" 2000) || exit 1
    sc plt_tail "$b1.pb.gz" "$b2.pb.gz" "$b1" "$(cachegrind_out "$BIN/plt_tail" 1000)" 1000 2000
}
register stack-plt-tail-jump t_plt_tail

t_longjmp() {
    need_tool; need_prog longjmp
    local mode opt b1 b2
    for mode in jmp sig; do
        for opt in --fold-recursion=yes --fold-recursion=no; do
            b1=$(prof $opt -- "$BIN/longjmp" 5000 $mode) || exit 1
            b2=$(prof $opt -- "$BIN/longjmp" 50 $mode) || exit 1
            echo "== $mode $opt"
            sc jump_out "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/longjmp" 5000 $mode)" after_jump driver ||
                note "(longjmp mode=$mode $opt: see log)"
        done
    done
    true
}
register stack-longjmp t_longjmp

t_cxx_exception() {
    need_tool; need_prog cxxexc
    local b1 b2
    b1=$(prof -- "$BIN/cxxexc" 1000) || exit 1
    b2=$(prof -- "$BIN/cxxexc" 100) || exit 1
    sc jump_out "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/cxxexc" 1000)" after_catch catcher
    sc chain "$b1.pb.gz" "$(cachegrind_out "$BIN/cxxexc" 1000)" thrower3 thrower3,thrower2,thrower1,catcher,main
}
register stack-cxx-exception t_cxx_exception

t_rust_panic() {
    need_tool; need_prog rpanic
    local b1 b2
    b1=$(prof -- "$BIN/rpanic" 300) || exit 1
    b2=$(prof -- "$BIN/rpanic" 30) || exit 1
    sc jump_out "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/rpanic" 300)" after_catch catcher
}
register stack-rust-panic t_rust_panic

t_signal() {
    need_tool; need_prog signal
    local b1 b2
    b1=$(prof -- "$BIN/signal" 1000) || exit 1
    b2=$(prof -- "$BIN/signal" 100) || exit 1
    sc signal "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/signal" 1000)"
}
register stack-signal t_signal

t_threads() {
    need_tool; need_prog threads
    local b; b=$(prof -- "$BIN/threads") || exit 1
    sc threads "$b.pb.gz" "$(cachegrind_out "$BIN/threads")"
}
register stack-threads t_threads

# fork: parent and child each write a complete file of their own. The child's
# totals are compared with lackey's count for the child, which (like the
# child's calling-context tree) includes what the process did before fork.
t_fork() {
    need_tool; need_prog forkexec
    mkdir -p out lk
    : >roles.lk
    RUN_CWD=$PWD
    vg --tool=lackey --vex-guest-chase=no --log-file="$PWD/lk/lk.%p" "$BIN/forkexec" "$PWD/roles.lk" \
        >lk.stdout 2>lk.stderr </dev/null || fail "lackey run failed"
    : >roles.cp
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/out/cp.%p" \
        --log-file="$PWD/out/vg.%p" "$BIN/forkexec" "$PWD/roles.cp" >cp.stdout 2>cp.stderr </dev/null ||
        fail "tool run exited non-zero"
    local pw cw
    pw=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total "lk/lk.$(awk '$1=="parent"{print $2+0}' roles.lk)") || fail "no lackey parent count"
    cw=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total "lk/lk.$(awk '$1=="child"{print $2+0}' roles.lk)") || fail "no lackey child count"
    echo "lackey: parent=$pw child=$cw"
    sc fork "$PWD/out" "$PWD/roles.cp" "$pw" "$cw" fork
}
register stack-fork t_fork

t_exec_children() {
    need_tool; need_prog forkexec
    mkdir -p out lk
    RUN_CWD=$PWD
    : >roles.lk
    vg --tool=lackey --vex-guest-chase=no --trace-children=yes --log-file="$PWD/lk/lk.%p" \
        "$BIN/forkexec" "$PWD/roles.lk" exec >lk.stdout 2>lk.stderr </dev/null || fail "lackey run failed"
    : >roles.cp
    vg --tool=cycprof --trace-children=yes --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/out/cp.%p" \
        --log-file="$PWD/out/vg.%p" "$BIN/forkexec" "$PWD/roles.cp" exec >cp.stdout 2>cp.stderr </dev/null ||
        fail "tool run exited non-zero"
    grep -q "hello from echo" cp.stdout || note "echo's output missing under the tool"
    local pw cw
    pw=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total "lk/lk.$(awk '$1=="parent"{print $2+0}' roles.lk)") || fail "no lackey parent count"
    cw=$(python3 "$TESTS_DIR/lib/cyc.py" lackey-total "lk/lk.$(awk '$1=="child"{print $2+0}' roles.lk)") || fail "no lackey count for the exec'd echo"
    echo "lackey: parent=$pw echo=$cw"
    sc fork "$PWD/out" "$PWD/roles.cp" "$pw" "$cw" exec
}
register stack-exec-children t_exec_children

t_swapcontext() {
    need_tool; need_prog coro
    local b1 b2
    b1=$(prof -- "$BIN/coro" 1000) || exit 1
    b2=$(prof -- "$BIN/coro" 100) || exit 1
    expect_total_eq_lackey "coro 1000" "$b1" "$BIN/coro" 1000
    sc bounded "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/coro" 1000)" "main_work:main,co_work:coroutine"
}
register stack-swapcontext t_swapcontext

# ret without call (push+ret) and call without ret (call next; pop)
t_unmatched() {
    need_tool; need_prog oddret
    local b1 b2
    b1=$(prof -- "$BIN/oddret" 10000) || exit 1
    b2=$(prof -- "$BIN/oddret" 100) || exit 1
    expect_total_eq_lackey "oddret 10000" "$b1" "$BIN/oddret" 10000
    sc bounded "$b1.pb.gz" "$b2.pb.gz" "$(cachegrind_out "$BIN/oddret" 10000)" ""
}
register stack-unmatched-ret t_unmatched

# Beyond "no crash, bounded": after the unbalanced push_ret/call_pop returned,
# main's next call is still attributed to main->tail_work.
t_unmatched_attr() {
    need_tool; need_prog oddret
    local b; b=$(prof -- "$BIN/oddret" 10000) || exit 1
    sc chain "$b.pb.gz" "$(cachegrind_out "$BIN/oddret" 10000)" tail_work tail_work,main
}
register stack-unmatched-ret-attribution t_unmatched_attr

# doubly recursive fib(27): finishes, peak RSS at most 1.5x callgrind's.
# Peak RSS = ru_maxrss of the valgrind process from wait4() (what /usr/bin/time -f %M shows).
t_memory_fib() {
    need_tool; need_prog fib
    vg_rss() { # vg_rss RSSFILE valgrind-args...
        local f=$1; shift
        env -i PATH=/usr/bin:/bin HOME="$W/home" LANG=C VALGRIND_LIB="$VGLIB" python3 -c '
import os, subprocess, sys
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=open("rss.stdout", "w"), stderr=subprocess.STDOUT)
_, st, ru = os.wait4(p.pid, 0)
open(sys.argv[1], "w").write("%d\n" % ru.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(st))' "$f" valgrind "$@"
    }
    vg_rss cp.rss --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/cp.out" \
        --log-file="$PWD/cp.log" "$BIN/fib" 27 || fail "tool run on fib(27) failed ($(tail -n 3 cp.log | tr '\n' ' '))"
    vg_rss cg.rss --tool=callgrind --callgrind-out-file="$PWD/cg.out" --log-file="$PWD/cg.log" "$BIN/fib" 27 ||
        fail "callgrind run failed"
    local a c
    a=$(cat cp.rss) c=$(cat cg.rss)
    echo "peak RSS KiB: cycprof=$a callgrind=$c"
    [ "$a" -gt 0 ] && [ "$c" -gt 0 ] || fail "could not measure peak RSS ($a, $c)"
    [ -s cp.out ] || note "no callgrind-format file"
    [ -s cp.out.pb.gz ] || note "no pprof file"
    [ $((a * 2)) -le $((c * 3)) ] || note "peak RSS $a KiB > 1.5 x callgrind's $c KiB"
}
register memory-fib27 t_memory_fib
