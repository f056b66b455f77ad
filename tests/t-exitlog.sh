# F. The Valgrind log names the files written (docs/options.md, "Output at exit").
# shellcheck shell=bash

# Lines after 'I   refs:' in a log, without the '==pid== ' prefix.
_after_refs() { sed -n '/I   refs:/,$p' "$1" | sed 1d | sed 's/^==[0-9]*== //' | grep -v '^$'; }

t_exit_log_names_files() {
    need_tool
    need_prog fib
    cycprof "$PWD/p.out" "$PWD/a.log" -- "$BIN/fib" 10 >/dev/null 2>&1 ||
        fail "valgrind --tool=cycprof exited $?"
    [ -s p.out ] && [ -s p.out.pb.gz ] || fail "the run did not write p.out and p.out.pb.gz"
    local want
    want=$(printf 'cycprof: wrote %s\ncycprof: wrote %s' "$PWD/p.out" "$PWD/p.out.pb.gz")
    [ "$(_after_refs a.log)" = "$want" ] ||
        fail "after 'I   refs:' the log says '$(_after_refs a.log | tr '\n' '|')', want '$(echo "$want" | tr '\n' '|')'"

    # The pprof file of the first run is still there, but this run cannot
    # write one: the log must not claim it.
    vg --tool=cycprof --cycprof-helper=/nonexistent/cycprof --cycprof-out-file="$PWD/p.out" \
        --log-file="$PWD/b.log" "$BIN/fib" 10 >/dev/null 2>&1
    [ "$(_after_refs b.log)" = "cycprof: wrote $PWD/p.out" ] ||
        fail "with no helper, the log says '$(_after_refs b.log | tr '\n' '|')', want only the callgrind file"

    cycprof "$PWD/q.out" "$PWD/c.log" --pprof=no -- "$BIN/fib" 10 >/dev/null 2>&1
    [ "$(_after_refs c.log)" = "cycprof: wrote $PWD/q.out" ] ||
        fail "with --pprof=no, the log says '$(_after_refs c.log | tr '\n' '|')'"
}
register exit-log-names-files t_exit_log_names_files

# Parts dumped while the program runs (CALLGRIND_DUMP_STATS, tests/progs/dumps.c)
# are written like the files at exit (through a symlink to its target) and
# named in the log when written, before 'I   refs:'; after it only the last part.
t_exit_log_names_parts() {
    need_tool
    region_prog dumps
    mkdir real && ln -s real/first out.1
    cycprof "$PWD/out" "$PWD/a.log" -- "$BIN/dumps" >/dev/null 2>&1 </dev/null ||
        fail "valgrind --tool=cycprof exited $?"
    [ -L out.1 ] && [ -s real/first ] || note "the part out.1 did not go through the symlink to real/first"
    local before want
    before=$(sed -n '/I   refs:/q;p' a.log | sed 's/^==[0-9]*== //' | grep '^cycprof: wrote ')
    want=$(printf 'cycprof: wrote %s\n' "$PWD/real/first" "$PWD/out.1.pb.gz" "$PWD/out.2" "$PWD/out.2.pb.gz")
    [ "$before" = "$want" ] ||
        note "before 'I   refs:' the log says '$(echo "$before" | tr '\n' '|')', want '$(echo "$want" | tr '\n' '|')'"
    want=$(printf 'cycprof: wrote %s\ncycprof: wrote %s' "$PWD/out" "$PWD/out.pb.gz")
    [ "$(_after_refs a.log)" = "$want" ] ||
        note "after 'I   refs:' the log says '$(_after_refs a.log | tr '\n' '|')', want '$(echo "$want" | tr '\n' '|')'"
    true
}
register exit-log-names-parts t_exit_log_names_parts

# -q: no summary, as callgrind under -q (its log stays empty too); the
# files are still written, and what went wrong is still said.
t_exit_log_quiet() {
    need_tool
    need_prog fib
    vg -q --tool=callgrind --callgrind-out-file="$PWD/cg.out" --log-file="$PWD/cg.log" \
        "$BIN/fib" 10 >/dev/null 2>&1 || fail "valgrind -q --tool=callgrind exited $?"
    [ -s cg.out ] && [ ! -s cg.log ] ||
        fail "callgrind under -q: want an empty log and a file, got log '$(head -c 200 cg.log | tr '\n' '|')'"
    vg -q --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/p.out" \
        --log-file="$PWD/q.log" "$BIN/fib" 10 >/dev/null 2>&1 || fail "valgrind -q --tool=cycprof exited $?"
    [ -s p.out ] && [ -s p.out.pb.gz ] || note "under -q the run did not write p.out and p.out.pb.gz"
    [ ! -s q.log ] || note "under -q the log is not empty, as callgrind's is: '$(head -c 300 q.log | tr '\n' '|')'"
    vg -q --tool=cycprof --cycprof-helper=/nonexistent/cycprof --cycprof-out-file="$PWD/r.out" \
        --log-file="$PWD/r.log" "$BIN/fib" 10 >/dev/null 2>&1
    [ "$(sed 's/^==[0-9]*== //' r.log)" = "cycprof: no pprof profile $PWD/r.out.pb.gz: helper '/nonexistent/cycprof' not found (see --cycprof-helper)" ] ||
        note "under -q a lost pprof profile is not said in one line: '$(tr '\n' '|' <r.log)'"
}
register exit-log-quiet t_exit_log_quiet
