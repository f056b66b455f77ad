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

# A 32-bit program on amd64 (Valgrind's x86-linux twin of the tool): one
# line saying cycprof profiles 64-bit programs, a non-zero exit, and the
# program not run.  The full tool built -m32 stopped in VG_(tool_panic).
t_guest_32bit() {
    need_tool
    [ "$TOOL_PLATFORM" = amd64-linux ] || skip "no 32-bit twin of the tool on $TOOL_PLATFORM"
    printf '#include <stdio.h>\nint main(void) { puts("ran"); return 3; }\n' >prog32.c
    gcc -m32 -o prog32 prog32.c 2>m32.err ||
        skip "gcc -m32 does not build here (scripts/install-deps installs gcc-multilib): $(head -c 200 m32.err)"
    # Valgrind starts the x86 twin by exec: a kernel without ia32
    # emulation (CONFIG_IA32_EMULATION, ia32_emulation=0) refuses it as
    # it refuses the program itself.
    local rc
    ./prog32 >native.txt 2>native.err
    rc=$?
    [ $rc = 3 ] && grep -qx ran native.txt ||
        skip "this kernel does not run 32-bit x86 programs: a -m32 build of a two-line C program exited $rc ($(sed -n '1s/^.*prog32: //p' native.err))"
    [ -e "$VGLIB/cycprof-x86-linux" ] ||
        fail "gcc -m32 works but the build has no cycprof-x86-linux (configure before gcc-multilib was installed?)"
    vg --tool=cycprof "$PWD/prog32" >out.txt 2>err.txt
    rc=$?
    cat out.txt err.txt
    [ $rc -ne 0 ] || note "a 32-bit program: valgrind --tool=cycprof exited 0"
    [ $rc -ne 3 ] || note "a 32-bit program ran to its own exit status under cycprof"
    ! grep -q '^ran$' out.txt || note "the 32-bit program ran"
    [ "$(grep -c 'cycprof: 32-bit x86 programs are not supported; cycprof profiles 64-bit amd64 and arm64 programs' err.txt)" = 1 ] ||
        note "no one-line message about 32-bit programs (stderr: $(tail -c 300 err.txt | tr '\n' ' '))"
    ! grep -q -i -E 'panic|internal error|valgrind: the .impossible. happened' err.txt ||
        note "Valgrind stopped in a panic: $(grep -i -m1 -E 'panic|impossible' err.txt)"
    true
}
register guest-32bit t_guest_32bit
