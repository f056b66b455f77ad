# B. Option errors and exit status.
# shellcheck shell=bash

t_bad_option() {
    need_tool
    local rc
    vg --tool=cycprof --bogus-option /bin/true >out.txt 2>err.txt
    rc=$?
    cat out.txt err.txt
    [ $rc -ne 0 ] || fail "valgrind --tool=cycprof --bogus-option /bin/true exited 0"
    grep -q -- "--bogus-option" err.txt out.txt ||
        fail "no message naming --bogus-option (stderr: $(head -c 300 err.txt | tr '\n' ' '))"
    # a bad value of a real option is rejected too
    vg --tool=cycprof --fold-recursion=maybe /bin/true >out2.txt 2>err2.txt
    rc=$?
    cat out2.txt err2.txt
    [ $rc -ne 0 ] || note "--fold-recursion=maybe was accepted (exit 0)"
    grep -q -- "fold-recursion" err2.txt out2.txt || note "no message naming --fold-recursion=maybe"
}
register bad-option t_bad_option

t_exit_status() {
    need_tool
    need_prog exitcode
    local code rc
    for code in 3 0 42; do
        cycprof "$PWD/cp.$code" "$PWD/vg.$code.log" -- "$BIN/exitcode" "$code" >/dev/null 2>&1
        rc=$?
        [ "$rc" = "$code" ] || note "program exiting $code: valgrind --tool=cycprof exited $rc"
        [ -s "$PWD/cp.$code" ] || note "program exiting $code: no profile written"
    done
    true
}
register exit-status t_exit_status
