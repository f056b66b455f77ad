# F. Output safety (issue 14): outputs go where the user pointed, every lost
# pprof profile is reported in one line, exits are bounded.
# shellcheck shell=bash

# The files in the current directory other than the given ones and the
# runner's log and reason (leftovers: temporary files, stacks dumps).
others() {
    local f keep
    for f in * .[!.]*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        for keep in log reason "$@"; do [ "$f" = "$keep" ] && continue 2; done
        echo "$f"
    done
}
expect_no_leftovers() { # NAME... : the files that may be here
    local left
    left=$(others "$@" | tr '\n' ' ')
    [ -z "$left" ] || note "files left behind: $left"
}
# lines of LOG matching a cycprof message (not valgrind's banner), without
# the 'cycprof: wrote FILE' lines that name each file written (t-exitlog.sh
# checks those)
cp_lines() { grep -E '^==[0-9]+== cycprof: ' "$1" | grep -v '== cycprof: wrote ' | sed 's/^==[0-9]*== //'; }

# The callgrind file's total and the pprof profile's (read by go tool pprof)
# both equal the tool's I refs.
same_totals() { # CG PB LOG WHAT
    pycheck "$@" <<'PY'
import sys, cyc
C = cyc.Checker()
cg, pb, log, what = sys.argv[1:5]
r = cyc.parse_callgrind(cg)
refs = cyc.refs_total(log)
_, samples = cyc.pprof_raw(pb)
C.eq(what + ": callgrind summary = I refs", [refs], r.summary)
C.eq(what + ": pprof total = I refs", refs, sum(s.value for s in samples))
C.done()
PY
}

t_out_symlink() {
    need_tool; need_prog fib
    mkdir real
    ln -s real/cg.out cg.link
    ln -s "$PWD/real/pb.gz" pb.link
    cycprof "$PWD/cg.link" "$PWD/vg.log" --pprof-out-file="$PWD/pb.link" -- "$BIN/fib" 12 >out.txt 2>err.txt
    [ -L cg.link ] || note "the symlink given as --cycprof-out-file was replaced"
    [ -L pb.link ] || note "the symlink given as --pprof-out-file was replaced"
    [ -s real/cg.out ] && [ -s real/pb.gz ] || fail "the symlinks' targets were not written: $(ls real | tr '\n' ' ')"
    same_totals real/cg.out real/pb.gz vg.log "through symlinks"
    expect_no_leftovers real cg.link pb.link vg.log out.txt err.txt
    (cd real && expect_no_leftovers cg.out pb.gz)
    # cycprof pprof -o through a symlink, and folded/flamegraph -o
    vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --cycprof-out-file="$PWD/k.out" \
        --keep-stacks=yes --log-file="$PWD/k.log" "$BIN/fib" 12 >/dev/null 2>&1
    local dump; dump=$(ls k.out.pb.gz.stacks.* 2>/dev/null | head -n 1)
    [ -n "$dump" ] || fail "--keep-stacks=yes kept no k.out.pb.gz.stacks.PID"
    ln -s real/again.pb.gz again.link
    "$HELPER_BIN" pprof "$dump" -o again.link || note "cycprof pprof -o SYMLINK failed"
    [ -L again.link ] && [ -s real/again.pb.gz ] || note "cycprof pprof -o SYMLINK replaced the link"
    ln -s real/f.txt f.link
    "$HELPER_BIN" folded real/again.pb.gz -o f.link || note "cycprof folded -o SYMLINK failed"
    [ -L f.link ] && [ -s real/f.txt ] || note "cycprof folded -o SYMLINK did not write its target"
}
register safety-out-symlink t_out_symlink

# Waits up to 20 s for background readers, then stops them.
reap() {
    local p i
    for p in "$@"; do
        for i in $(seq 200); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill "$p" 2>/dev/null
    done
    wait 2>/dev/null
}

t_out_fifo_and_stdout() {
    need_tool; need_prog fib
    mkfifo cg.fifo pb.fifo
    cat cg.fifo >cg.copy & local r1=$!
    cat pb.fifo >pb.copy & local r2=$!
    # a writer finds them only once they wait on the FIFOs
    local i
    for i in $(seq 200); do
        [ "$(cat /proc/$r1/wchan 2>/dev/null)" = wait_for_partner ] &&
            [ "$(cat /proc/$r2/wchan 2>/dev/null)" = wait_for_partner ] && break
        sleep 0.05
    done
    cycprof "$PWD/cg.fifo" "$PWD/vg.log" --pprof-out-file="$PWD/pb.fifo" -- "$BIN/fib" 12 >out.txt 2>err.txt
    local rc=$?
    reap $r1 $r2
    [ $rc = 0 ] || note "valgrind exited $rc"
    [ -p cg.fifo ] || note "the FIFO given as --cycprof-out-file was replaced"
    [ -p pb.fifo ] || note "the FIFO given as --pprof-out-file was replaced"
    [ -s cg.copy ] && [ -s pb.copy ] || fail "nothing came through the FIFOs ($(cp_lines vg.log | tr '\n' ' '))"
    same_totals cg.copy pb.copy vg.log "through FIFOs"
    # A FIFO nobody reads: one line, no wait without end.
    mkfifo lonely.fifo
    cycprof "$PWD/lonely.fifo" "$PWD/vg2.log" --pprof=no -- "$BIN/fib" 12 >/dev/null 2>&1
    [ "$(cp_lines vg2.log | grep -c 'lonely.fifo: nothing reads from it')" = 1 ] ||
        note "a FIFO without a reader: no one-line message ($(cp_lines vg2.log | tr '\n' ' '))"
    # /dev/stdout (here a link to /proc/self/fd/1 in this folder): written at
    # the end of what the program printed, the link left alone.
    ln -s /proc/self/fd/1 stdout.link
    cycprof "$PWD/stdout.link" "$PWD/vg3.log" --pprof=no -- "$BIN/fib" 12 >stdout.txt 2>err3.txt
    [ -L stdout.link ] || note "a link to /proc/self/fd/1 given as --cycprof-out-file was replaced"
    [ "$(head -n 1 stdout.txt)" = 144 ] || note "the program's own output is not first on stdout: $(head -c 80 stdout.txt)"
    # without --pprof-out-file no pprof name is made up beside it: one line
    cycprof "$PWD/stdout.link" "$PWD/vg4.log" -- "$BIN/fib" 12 >stdout4.txt 2>err4.txt
    [ -e stdout.link.pb.gz ] && note "a pprof file stdout.link.pb.gz was made up beside /dev/stdout"
    [ "$(cp_lines vg4.log | grep -c "no pprof profile: $PWD/stdout.link is not a regular file")" = 1 ] ||
        note "no one line saying why there is no pprof profile: $(cp_lines vg4.log | tr '\n' ' ')"
    sed 1d stdout.txt >stdout.cg
    pycheck stdout.cg vg3.log <<'PY'
import sys, cyc
C = cyc.Checker()
r = cyc.parse_callgrind(sys.argv[1])
C.eq("callgrind summary on stdout = I refs", [cyc.refs_total(sys.argv[2])], r.summary)
C.done()
PY
    expect_no_leftovers cg.fifo pb.fifo lonely.fifo stdout.link cg.copy pb.copy vg.log vg2.log vg3.log \
        vg4.log out.txt err.txt err3.txt err4.txt stdout.txt stdout4.txt stdout.cg
}
register safety-out-fifo-stdout t_out_fifo_and_stdout

# A FIFO reader that reads CHUNK bytes every PAUSE seconds, and stops
# reading (but keeps the FIFO open) once it has STOP bytes (-1: never);
# what it read goes to OUT. The pipe is shrunk to one page, so that a
# writer waits on it sooner.
slow_reader() { # FIFO OUT CHUNK PAUSE STOP
    python3 - "$@" <<'PY' &
import fcntl, os, sys, time
fifo, out, chunk, pause, stop = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
fd = os.open(fifo, os.O_RDONLY)
try:
    fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 4096)
except OSError:
    pass  # the writer was quicker: a 64 KiB pipe, still smaller than the file
got = b""
while stop < 0 or len(got) < stop:
    d = os.read(fd, chunk)
    if not d:
        break
    got += d
    time.sleep(pause)
open(out, "wb").write(got)
if stop >= 0:
    time.sleep(100)
PY
    READER=$!
    # a writer finds it only once it waits on the FIFO
    local i
    for i in $(seq 400); do
        [ "$(cat /proc/$READER/wchan 2>/dev/null)" = wait_for_partner ] && break
        sleep 0.05
    done
}

# A FIFO whose reader stops reading (issue 14: exit is bounded): the tool
# gives up after --out-stall-limit seconds without progress, in one line,
# and keeps the program's exit status. A reader that is slow but keeps
# reading gets the whole file, although it takes longer than the limit.
t_out_fifo_stalled() {
    need_tool; need_prog exitcode
    mkfifo stall.fifo slow.fifo
    # --dump-instr=yes: a callgrind file of ~190 KB, more than a pipe holds
    slow_reader stall.fifo stall.copy 1000 0 1000; local r1=$READER
    timeout -s KILL 120 env -i PATH=/usr/bin:/bin VALGRIND_LIB="$VGLIB" valgrind --tool=cycprof \
        --pprof=no --dump-instr=yes --out-stall-limit=2 --cycprof-out-file="$PWD/stall.fifo" \
        --log-file="$PWD/stall.log" "$BIN/exitcode" 3 >/dev/null 2>&1
    local rc=$?
    kill $r1 2>/dev/null; wait $r1 2>/dev/null
    [ $rc = 137 ] && fail "valgrind still writing to a FIFO nobody reads after 120 s (killed)"
    [ $rc = 3 ] || note "the program exited 3, valgrind $rc"
    [ -p stall.fifo ] || note "the FIFO was replaced"
    local msgs; msgs=$(cp_lines stall.log)
    echo "$msgs"
    [ "$msgs" = "cycprof: cannot write $PWD/stall.fifo: nothing read from it for 2 s (--out-stall-limit); the rest is not written" ] ||
        note "a stalled FIFO reader: want one line 'cannot write .../stall.fifo: nothing read from it for 2 s ...', got: $(echo "$msgs" | tr '\n' ' ')"
    grep -qF 'cycprof: wrote ' stall.log && note "the log says the stalled file was written"
    # 16 KiB every 0.5 s: about 6 s for the file, never 2 s without progress
    slow_reader slow.fifo slow.copy 16384 0.5 -1; local r2=$READER
    timeout -s KILL 120 env -i PATH=/usr/bin:/bin VALGRIND_LIB="$VGLIB" valgrind --tool=cycprof \
        --pprof=no --dump-instr=yes --out-stall-limit=2 --cycprof-out-file="$PWD/slow.fifo" \
        --log-file="$PWD/slow.log" "$BIN/exitcode" 3 >/dev/null 2>&1
    rc=$?
    reap $r2
    [ $rc = 3 ] || note "slow reader: the program exited 3, valgrind $rc"
    [ -z "$(cp_lines slow.log)" ] || note "slow reader: $(cp_lines slow.log | tr '\n' ' ')"
    pycheck slow.copy slow.log <<'PY'
import sys, cyc
C = cyc.Checker()
r = cyc.parse_callgrind(sys.argv[1])
C.eq("slow FIFO reader: callgrind summary = I refs", [cyc.refs_total(sys.argv[2])], r.summary)
C.eq("slow FIFO reader: the file is whole", "totals:", open(sys.argv[1]).read().splitlines()[-1][:7])
C.done()
PY
    expect_no_leftovers stall.fifo slow.fifo stall.copy slow.copy stall.log slow.log
}
register safety-out-fifo-stalled t_out_fifo_stalled

# Device nodes made here (never the real ones under /dev): null (1,3) and
# full (1,7), whose writes fail with ENOSPC like a full disk.
t_out_device() {
    need_tool; need_prog fib exitcode
    if ! mknod null.dev c 1 3 2>mknod.err || ! mknod full.dev c 1 7 2>>mknod.err; then
        skip "cannot make device nodes here (mknod needs root, and a container may forbid it): $(head -n 1 mknod.err)"
    fi
    cycprof "$PWD/null.dev" "$PWD/vg.log" --pprof-out-file="$PWD/null.dev" -- "$BIN/fib" 12 >/dev/null 2>&1
    [ -c null.dev ] || note "the device given as output was replaced"
    [ -z "$(cp_lines vg.log)" ] || note "writing to a null device: $(cp_lines vg.log | tr '\n' ' ')"
    cycprof "$PWD/full.dev" "$PWD/vg2.log" --pprof-out-file="$PWD/full.dev" -- "$BIN/exitcode" 3 >/dev/null 2>&1
    local rc=$?
    [ $rc = 3 ] || note "the program exited 3, valgrind $rc"
    [ -c full.dev ] || note "the full device given as output was replaced"
    local msgs; msgs=$(cp_lines vg2.log)
    echo "$msgs"
    [ "$(echo "$msgs" | grep -c "^cycprof: cannot write $PWD/full.dev: No space left on device$")" = 1 ] ||
        note "disk full: no one line 'cannot write .../full.dev: No space left on device'"
    [ "$(echo "$msgs" | grep -c "^cycprof: no pprof profile $PWD/full.dev: .*No space left on device")" = 1 ] ||
        note "disk full: no one line 'no pprof profile .../full.dev: ...No space left on device'"
    [ "$(echo "$msgs" | wc -l)" = 2 ] || note "disk full: more than the two lines"
    expect_no_leftovers null.dev full.dev vg.log vg2.log mknod.err
}
register safety-out-device t_out_device

# The program's POSIX locks on a file it maps survive the tool, which reads
# the ELF files the program maps to decide on their inline info
# (symbols/cp_inline_info.c): through the program's descriptor, never by
# opening the file again, since any close of the file would drop the locks.
# The mapped file is an ELF copy of the program, so it is read in full.
t_mmap_keeps_locks() {
    need_tool; need_prog mmaplock
    cp "$BIN/mmaplock" locked.elf
    local native
    native=$("$BIN/mmaplock" locked.elf 2>&1)
    [ "$native" = locked ] || skip "the lock is not seen as held even without valgrind here: $native"
    cycprof "$PWD/m.out" "$PWD/vg.log" --pprof=no -- "$BIN/mmaplock" "$PWD/locked.elf" >out 2>err
    local rc=$?
    [ $rc = 0 ] || fail "mmaplock under cycprof exited $rc: $(head -n 2 err vg.log | tr '\n' ' ')"
    [ "$(cat out)" = locked ] || fail "the program's lock on the file it maps was dropped under cycprof: the child saw '$(cat out)'"
}
register safety-mmap-keeps-locks t_mmap_keeps_locks

# Broken helpers: each loses the pprof profile with one line saying why;
# the callgrind file is written, the exit status kept, nothing left behind.
t_helper_failures() {
    need_tool; need_prog exitcode
    printf '#!/bin/sh\nkill -SEGV $$\n' >segv.sh
    printf '#!/bin/sh\necho "cycprof pprof: it went wrong" >&2\nexit 3\n' >fails.sh
    # writes a temporary file as cycprof pprof does, then dies
    printf '#!/bin/sh\necho partial >"$4.tmp.$$"\nkill -KILL $$\n' >killed.sh
    chmod +x segv.sh fails.sh killed.sh
    : >noexec
    mkdir adir
    local spec h want
    for spec in "/bin/false|failed (exit status 1)" "/bin/true|exited 0 without writing it" \
        "$PWD/noexec|cannot be run: Permission denied" "$PWD/adir|is a directory" \
        "$PWD/segv.sh|killed by signal 11" "$PWD/fails.sh|failed (exit status 3): cycprof pprof: it went wrong" \
        "$PWD/killed.sh|killed by signal 9" "$PWD/missing|not found"; do
        h=${spec%%|*} want=${spec#*|}
        rm -f p.out p.log
        vg --tool=cycprof --cycprof-helper="$h" --cycprof-out-file="$PWD/p.out" \
            --log-file="$PWD/p.log" "$BIN/exitcode" 3 >/dev/null 2>&1
        local rc=$?
        [ $rc = 3 ] || note "helper $h: the program exited 3, valgrind $rc"
        [ -s p.out ] || note "helper $h: no callgrind file"
        local msgs; msgs=$(cp_lines p.log)
        echo "$h: $msgs"
        [ "$(echo "$msgs" | grep -c .)" = 1 ] && echo "$msgs" | grep -qF "no pprof profile $PWD/p.out.pb.gz: " &&
            echo "$msgs" | grep -qF "$want" ||
            note "helper $h: want one line 'no pprof profile $PWD/p.out.pb.gz: ...$want', got: $(echo "$msgs" | tr '\n' ' ')"
        expect_no_leftovers p.out p.log segv.sh fails.sh killed.sh noexec adir
    done
}
register safety-helper-failures t_helper_failures

# A helper that hangs (and starts a child that would outlive it): stopped
# at the time limit, with the whole of what it started, and reported.
t_helper_hangs() {
    need_tool; need_prog exitcode
    printf '#!/bin/sh\nsleep 617 &\nwait\n' >hangs.sh
    chmod +x hangs.sh
    timeout 300 env -i PATH=/usr/bin:/bin VALGRIND_LIB="$VGLIB" valgrind --tool=cycprof \
        --cycprof-helper="$PWD/hangs.sh" --pprof-time-limit=2 --cycprof-out-file="$PWD/h.out" \
        --log-file="$PWD/h.log" "$BIN/exitcode" 4 >/dev/null 2>&1
    local rc=$?
    [ $rc = 4 ] || note "the program exited 4, valgrind $rc"
    local msgs; msgs=$(cp_lines h.log)
    echo "$msgs"
    [ "$(echo "$msgs" | grep -c .)" = 1 ] &&
        echo "$msgs" | grep -qF "no pprof profile $PWD/h.out.pb.gz: '$PWD/hangs.sh pprof' did not finish within the time limit of 2 s" ||
        note "hanging helper: no one line about the time limit: $(echo "$msgs" | tr '\n' ' ')"
    sleep 0.5
    ! pgrep -f "sleep 617" >/dev/null || { pkill -f "sleep 617"; note "the hanging helper's child was left running"; }
    [ -s h.out ] || note "no callgrind file"
    expect_no_leftovers h.out h.log hangs.sh
}
register safety-helper-hangs t_helper_hangs

t_bad_granularity() {
    need_tool
    vg --tool=cycprof --pprof-granularity=foo /bin/true >out.txt 2>err.txt
    local rc=$?
    cat err.txt
    [ $rc != 0 ] || note "--pprof-granularity=foo was accepted"
    grep -q "Bad option: --pprof-granularity=foo" err.txt ||
        note "--pprof-granularity=foo: no 'Bad option' line like other bad values"
    grep -q "Unknown option" err.txt && note "--pprof-granularity=foo is called an unknown option"
    true
}
register safety-bad-granularity t_bad_granularity

# Processes writing under one output name at the same time (two runs of a
# program that forks 20 children): no shared intermediate file, and the
# callgrind file and the pprof profile left belong to the same process.
t_shared_output_name() {
    need_tool
    gcc -O1 -g -o forkn "$TESTS_DIR/progs/forkn.c" || fail "cannot build forkn"
    local round
    for round in 1 2 3; do
        rm -f x.out x.out.pb.gz
        cycprof "$PWD/x.out" "$PWD/a.log.%p" -- "$PWD/forkn" 20 >/dev/null 2>a.err &
        local p1=$!
        cycprof "$PWD/x.out" "$PWD/b.log.%p" -- "$PWD/forkn" 20 >/dev/null 2>b.err &
        local p2=$!
        wait $p1 $p2
        # the tool's messages (log) and the helper's (stderr, where the
        # program's go): none expected
        local bad; bad=$({ cat ./*.log.* | grep -E '^==[0-9]+== cycprof: ' | grep -v '== cycprof: wrote '; cat a.err b.err; } | head -n 3)
        [ -z "$bad" ] || note "round $round: $(echo "$bad" | tr '\n' ' ')"
        [ -s x.out ] && [ -s x.out.pb.gz ] || fail "round $round: no x.out or x.out.pb.gz"
        pycheck x.out x.out.pb.gz "$round" <<'PY'
import sys, cyc
C = cyc.Checker()
r = cyc.parse_callgrind(sys.argv[1])
_, samples = cyc.pprof_raw(sys.argv[2])
C.eq("round %s: pprof total = callgrind summary" % sys.argv[3], r.summary, [sum(s.value for s in samples)])
C.done()
PY
        expect_no_leftovers x.out x.out.pb.gz forkn a.err b.err *.log.*
        rm -f ./*.log.*
    done
}
register safety-shared-output-name t_shared_output_name

# A recursion 1,000,000 frames deep, not folded: the pprof profile is
# written (stacks cut to 256 frames: the outermost 128, a marker frame, the
# innermost 127) and carries the whole total. A hang guard, not a timing.
# --pprof-max-samples=0 keeps the line-level conversion whose cut this checks
# (its 3 M samples would otherwise be coarsened, docs/pprof.md#huge-profiles).
t_deep_recursion_nofold() {
    need_tool
    gcc -O1 -g -fno-inline -fno-optimize-sibling-calls -o deep "$TESTS_DIR/progs/deep.c" ||
        fail "cannot build deep"
    timeout 600 env -i PATH=/usr/bin:/bin VALGRIND_LIB="$VGLIB" valgrind --tool=cycprof \
        --cycprof-helper="$HELPER_BIN" --fold-recursion=no --main-stacksize=134217728 \
        --pprof-max-samples=0 \
        --cycprof-out-file="$PWD/d.out" --log-file="$PWD/d.log" "$PWD/deep" 1000000 >/dev/null 2>&1
    local rc=$?
    [ $rc = 0 ] || fail "valgrind exited $rc ($(cp_lines d.log | tr '\n' ' '))"
    [ -z "$(cp_lines d.log)" ] || note "$(cp_lines d.log | tr '\n' ' ')"
    same_totals d.out d.out.pb.gz d.log "1,000,000 frames"
    pycheck d.out.pb.gz <<'PY'
import sys, cyc
C = cyc.Checker()
_, samples = cyc.pprof_raw(sys.argv[1])
C.eq("longest stack", 256, max(len(s.symframes) for s in samples))
cut = [s for s in samples if any("left out" in f for f in s.symframes)]
C.true(len(cut) > 0, "no stack marks where frames were left out")
for s in cut:
    C.eq("a cut stack's length", 256, len(s.symframes))
    C.eq("the marker's place (after the 127 innermost frames)", "(frames of a deep stack left out)",
         s.symframes[127])
    C.true("main" in s.symframes[-10:], "a cut stack lost main at its root end")
C.done()
PY
}
register safety-deep-recursion-nofold t_deep_recursion_nofold

# An output name the exit could not write (a folder, a name ending in '/',
# a missing folder, a place that takes no new file) is refused before the
# program runs: exit status 1, one line in the log naming the option and
# the path (and on stderr, the log being a file), the program not run,
# nothing written anywhere.
t_out_bad_paths() {
    need_tool; need_prog fib
    mkdir outdir ro
    ln -s outdir dirlink
    local ro_path=$PWD/ro/x.out ro_why="cannot create a file in $PWD/ro: Permission denied" d
    chmod 555 ro
    if [ "$(id -u)" = 0 ]; then
        # root writes into a mode-555 folder; sysfs and procfs take no new
        # file from anyone, where they are mounted (a chroot may have a
        # plain /sys folder): the first that refuses a probe file is used
        ro_path=
        for d in /sys /proc; do
            if (: >"$d/cycprof-test.probe") 2>/dev/null; then rm -f "$d/cycprof-test.probe"
            else ro_path=$d/cycprof-test.out ro_why=; break; fi   # each says its own why
        done
    fi
    local spec opt path why n=0
    # OPTION|PATH|WHY: a --pprof-out-file or --firefox-out-file case gets a
    # good --cycprof-out-file, which a run that went ahead would write.
    for spec in \
        "--cycprof-out-file|$PWD/outdir|it is a folder (name a file in it)" \
        "--cycprof-out-file|$PWD/dirlink|it is a folder (name a file in it)" \
        "--cycprof-out-file|$PWD/outdir/|the name ends in '/' (name a file, not a folder)" \
        "--cycprof-out-file|$PWD/missing/x.out|the folder $PWD/missing does not exist" \
        ${ro_path:+"--cycprof-out-file|$ro_path|$ro_why"} \
        "--pprof-out-file|$PWD/outdir|it is a folder (name a file in it)" \
        "--pprof-out-file|$PWD/outdir/|the name ends in '/' (name a file, not a folder)" \
        "--pprof-out-file|$PWD/missing/p.pb.gz|the folder $PWD/missing does not exist" \
        "--firefox-out-file|$PWD/outdir|it is a folder (name a file in it)" \
        "--firefox-out-file|$PWD/missing/f.json|the folder $PWD/missing does not exist"; do
        IFS='|' read -r opt path why <<<"$spec"
        n=$((n + 1))
        local args=("$opt=$path")
        [ "$opt" = --cycprof-out-file ] || args+=(--cycprof-out-file="$PWD/good.out")
        vg --tool=cycprof --cycprof-helper="$HELPER_BIN" "${args[@]}" \
            --log-file="$PWD/bad$n.log" "$BIN/fib" 12 >"bad$n.stdout" 2>"bad$n.stderr"
        local rc=$?
        local want="cycprof: $opt: cannot write $path: $why"
        local msgs; msgs=$(cp_lines "bad$n.log")
        echo "$opt=$path: exit $rc: $msgs"
        [ $rc = 1 ] || note "$opt=$path: valgrind exited $rc, want 1"
        [ -s "bad$n.stdout" ] && note "$opt=$path: the program ran ($(head -c 40 "bad$n.stdout"))"
        [ "$(echo "$msgs" | grep -c .)" = 1 ] && [ "${msgs#"$want"}" != "$msgs" ] ||
            note "$opt=$path: want one log line '$want', got: $(echo "$msgs" | tr '\n' '|')"
        grep -qF "$want" "bad$n.stderr" || note "$opt=$path: stderr does not say it: $(head -c 200 "bad$n.stderr")"
        grep -q 'I   refs' "bad$n.log" && note "$opt=$path: the log has a total"
    done
    chmod 755 ro
    [ -z "$(ls -A outdir; ls -A ro)" ] || note "files left in outdir or ro: $(ls -A outdir ro | tr "\n" " ")"
    expect_no_leftovers outdir ro dirlink bad*.log bad*.stdout bad*.stderr
    [ -z "$ro_path" ] || [ ! -e "$ro_path" ] || note "$ro_path was made"
    [ -n "$ro_path" ] || not_checked "a place that takes no new file: root writes into a mode-555 folder, and neither /sys nor /proc refuses a file here"
}
register safety-out-bad-paths t_out_bad_paths

# A folder that goes away while the program runs shows only at exit: the
# exit status stays the program's, and each lost file gets one line that
# says only what is wrong (no unrelated limits).
t_out_folder_removed() {
    need_tool
    mkdir gone
    cycprof "$PWD/gone/x.out" "$PWD/g.log" -- /bin/sh -c "rmdir '$PWD/gone'; exit 3" >/dev/null 2>&1
    local rc=$?
    [ $rc = 3 ] || note "the program exited 3, valgrind $rc"
    local msgs; msgs=$(cp_lines g.log)
    echo "$msgs"
    local nofile="No such file or directory"
    [ "$(echo "$msgs" | grep -cxF "cycprof: cannot write $PWD/gone/x.out: $nofile")" = 1 ] ||
        note "no one line 'cannot write .../gone/x.out: $nofile'"
    [ "$(echo "$msgs" | grep -cF "cycprof: no pprof profile $PWD/gone/x.out.pb.gz: ")" = 1 ] ||
        note "no one line 'no pprof profile .../gone/x.out.pb.gz: ...'"
    echo "$msgs" | grep -q -- '--pprof-max-dump\|--pprof-time-limit' &&
        note "a missing folder's line names the pprof limits: $(echo "$msgs" | grep -- '--pprof-' | head -n 1)"
    [ "$(echo "$msgs" | grep -c .)" = 2 ] || note "want 2 lines, got: $(echo "$msgs" | tr '\n' '|')"
    expect_no_leftovers g.log
}
register safety-out-folder-removed t_out_folder_removed
