# R. --deterministic=yes: the same command gives the same counts on every run
#    (docs/reproducible.md).  Each program runs 3 times with the option and 3
#    times without; the totals and every function's self cost are compared
#    byte for byte.  With the option they must be identical; without it they
#    must differ for the programs that read entropy on every run (the C
#    program, Rust's HashMap) and are shown to differ, or said not to, for
#    the interpreters.
# shellcheck shell=bash

# det_summary B: the total, then "self<TAB>object<TAB>file<TAB>function" of
# every function, from the callgrind file B (read by tests/lib/cyc.py).
det_summary() {
    pycheck "$1" <<'PY'
import sys
from cyc import *
r = parse_callgrind(sys.argv[1])
print("total", sum(r.fn_self_key.values()))
for key in sorted(r.fn_self_key, key=repr):
    print(r.fn_self_key[key], *key, sep="\t")
PY
}

# det_runs NAME N [tool options] -- PROG ARGS...: N tool runs, each in the
# same empty folder with the same environment; writes NAME.I.sum (det_summary),
# NAME.I.stdout and NAME.I.log for I in 1..N.
det_runs() {
    local name=$1 n=$2 i
    shift 2
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    for ((i = 1; i <= n; i++)); do
        cycprof "$PWD/$name.$i.out" "$PWD/$name.$i.log" --pprof=no \
            ${opts[@]+"${opts[@]}"} -- "$@" >"$name.$i.stdout" 2>"$name.$i.stderr" </dev/null ||
            fail "$name run $i exited non-zero ($(tail -n 2 "$name.$i.stderr" | tr '\n' ' '))"
        det_summary "$PWD/$name.$i.out" >"$name.$i.sum" || fail "$name run $i: no readable callgrind file"
    done
}

# runs_identical NAME N: every NAME.I.sum equals NAME.1.sum
runs_identical() {
    local i
    for ((i = 2; i <= $2; i++)); do
        cmp -s "$1.1.sum" "$1.$i.sum" || return 1
    done
}

# first_difference NAME I: the first line where run I differs from run 1
first_difference() {
    diff "$1.1.sum" "$1.$2.sum" | grep -m1 '^[<>]' || true
}

# expect_deterministic NAME PROG ARGS...: 3 runs with the option agree on
# the total and on every function; 3 runs without are reported (MUST_DIFFER=1:
# they must differ, or the test proves nothing).
expect_deterministic() {
    local name=$1
    shift
    det_runs "$name-det" 3 --deterministic=yes -- "$@"
    runs_identical "$name-det" 3 ||
        note "$name: 3 runs with --deterministic=yes differ: $(first_difference "$name-det" 2) / $(first_difference "$name-det" 3)"
    det_runs "$name-plain" 3 -- "$@"
    if runs_identical "$name-plain" 3; then
        [ -z "${MUST_DIFFER:-}" ] || note "$name: 3 runs without the option agree: the test cannot tell"
        echo "$name: without the option the 3 runs happened to agree"
    else
        echo "$name: without the option: $(head -n1 "$name-plain.1.sum") / $(head -n1 "$name-plain.2.sum") / $(head -n1 "$name-plain.3.sum")"
    fi
    echo "$name: with the option: $(head -n1 "$name-det.1.sum") on 3 of 3 runs"
    grep 'not deterministic' "$name-det.1.log" || true
    # The programs written for these tests read nothing the option cannot
    # fix (an interpreter may).
    [ -z "${MUST_DIFFER:-}" ] || ! grep -q 'not deterministic' "$name-det.1.log" ||
        note "$name: the log names a source the program does not have: $(grep -m1 'not deterministic' "$name-det.1.log")"
}

# A C program that reads every source the option fixes (clocks, rdtsc,
# rdtscp, rdrand and rdseed on x86 where CPUID has them, or cntvct_el0 on
# arm64, getrandom, /dev/urandom by name and dup'd, /dev/random,
# AT_RANDOM, getcpu) and works in proportion to what it read.  The
# det-insn-* tests check the processor sources one by one, and skip those
# the CPU lacks.
t_det_c_sources() {
    need_tool
    need_prog detsources
    MUST_DIFFER=1 expect_deterministic detsources "$BIN/detsources" "--host-lacks=$(host_lacks)"
    grep '^processor sources read:' detsources-det.1.stdout ||
        note "detsources: the program does not name the processor sources it read"
    cmp -s detsources-det.1.stdout detsources-det.2.stdout ||
        note "detsources: the program's output differs between runs with the option"
    grep -q ' waited$' detsources-det.1.stdout ||
        note "detsources: a 20 ms poll timeout did not move the virtual clock on by 20 ms ($(cat detsources-det.1.stdout))"
    # The seed drives what the program reads.
    det_runs detsources-seed1 1 --deterministic=yes --det-seed=1 -- "$BIN/detsources"
    ! cmp -s detsources-det.1.stdout detsources-seed1.1.stdout ||
        note "detsources: --det-seed=1 gives the program the same values as --det-seed=0"
    grep -qx 'desc: Deterministic: yes, seed 0, epoch 1700000000' detsources-det.1.out ||
        note "detsources: the callgrind header does not record the mode and seed"
    grep -qx 'desc: Deterministic: no' detsources-plain.1.out ||
        note "detsources: the callgrind header of a plain run does not say 'Deterministic: no'"
    # cycprof diff says when its two inputs were recorded differently, and
    # only then.
    "$HELPER_BIN" diff detsources-det.1.out detsources-plain.1.out >mixed.diff 2>&1
    grep -qx 'Recorded: *differently: --deterministic=yes, seed 0, epoch 1700000000 in BASE, no in NEW; .*' mixed.diff ||
        note "cycprof diff does not say that its inputs were recorded differently: $(head -n 8 mixed.diff | tr '\n' '|')"
    "$HELPER_BIN" diff detsources-det.1.out detsources-det.2.out >same.diff 2>&1
    ! grep -q '^Recorded:' same.diff || note "cycprof diff says two runs of one mode were recorded differently"
}
register det-c-sources t_det_c_sources

# host_lacks: the x86 processor sources the host's CPU lacks, by
# /proc/cpuinfo's flags, comma-separated. Valgrind's guest CPUID is a fixed
# model that can claim one of them anyway (3.19's AVX2 model sets rdtscp's
# bit on every host), and VEX then stops at the instruction: detsources
# leaves these out whatever CPUID says.
# CYCPROF_TEST_HOST_LACKS=LIST stands for the flags (to see a host without
# rdtscp from one that has it).
host_lacks() {
    local f flags out=
    [ -z "${CYCPROF_TEST_HOST_LACKS+set}" ] || { echo "$CYCPROF_TEST_HOST_LACKS"; return 0; }
    flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
    case $TOOL_PLATFORM in amd64-linux | x86-linux) ;; *) return 0 ;; esac
    for f in tsc rdtscp rdrand rdseed; do
        case $flags in *" $f "*) ;; *) out=$out${out:+,}${f/tsc/rdtsc} ;; esac
    done
    echo "$out"
}

# insn_reads NAME INSN [tool options]: detsources INSN under the tool, its
# three reads in NAME.txt; skips the test when the CPU lacks INSN: the
# guest's CPUID or the host's flags (host_lacks).
insn_reads() {
    local name=$1 insn=$2 rc
    shift 2
    cycprof "$PWD/$name.out" "$PWD/$name.log" --pprof=no "$@" -- "$BIN/detsources" "--host-lacks=$(host_lacks)" "$insn" \
        >"$name.txt" 2>"$name.err" </dev/null
    rc=$?
    [ $rc = 77 ] && skip "$insn is not on this CPU ($(sed 's/^[^(]*(//; s/)$//' "$name.txt")): --deterministic=yes not checked on it"
    [ $rc = 0 ] || fail "$name: detsources $insn exited $rc ($(tail -n 2 "$name.err" | tr '\n' ' '))"
    [ "$(wc -l <"$name.txt")" = 3 ] || fail "$name: detsources $insn did not print three reads: $(head -c 200 "$name.txt")"
    sed "s/^/$name: /" "$name.txt"
}

# det_insn INSN: --deterministic=yes on one processor source
# (progs/detsources.c INSN reads it three times).  Two runs with the option
# read the same values, two without read others (or the test cannot tell);
# under the option the counters are the virtual clock (docs/reproducible.md:
# a 3 GHz time-stamp counter, rdtscp's processor id 0; cntvct_el0 at
# cntfrq_el0's frequency), read between the CLOCK_MONOTONIC reads around
# them, and rdrand and rdseed always succeed and follow --det-seed.
det_insn() {
    local insn=$1
    need_tool
    need_prog detsources
    insn_reads plain.1 "$insn"
    insn_reads plain.2 "$insn"
    insn_reads det.1 "$insn" --deterministic=yes
    insn_reads det.2 "$insn" --deterministic=yes
    cmp -s det.1.txt det.2.txt ||
        note "$insn: two runs with --deterministic=yes read other values: $(paste -s -d' ' det.1.txt) / $(paste -s -d' ' det.2.txt)"
    ! cmp -s plain.1.txt plain.2.txt ||
        note "$insn: two runs without the option read the same values: the test cannot tell"
    case $insn in
    rdrand | rdseed)
        insn_reads seed1 "$insn" --deterministic=yes --det-seed=1
        ! cmp -s det.1.txt seed1.txt || note "$insn: --det-seed=1 reads the values --det-seed=0 reads"
        ;;
    esac
    pycheck "$insn" det.1.txt <<'PY'
import sys
from cyc import Checker
C = Checker()
insn, path = sys.argv[1], sys.argv[2]
for n, line in enumerate(open(path), 1):
    f = [int(x) for x in line.split()]
    where = "%s read %d under --deterministic=yes (%s)" % (insn, n, line.strip())
    if insn in ("rdtsc", "rdtscp"):
        before, tsc, after = f[:3]
        C.true(3 * before <= tsc <= 3 * after,
               "%s: the count is not a 3 GHz counter on the virtual clock read around it" % where)
        if insn == "rdtscp":
            C.eq("%s: processor id" % where, 0, f[3])
    elif insn == "cntvct":
        before, cnt, after, freq = f
        C.true(before * freq // 10**9 <= cnt <= after * freq // 10**9,
               "%s: the count is not the virtual clock at cntfrq_el0's frequency" % where)
    else:
        C.eq("%s: success flag" % where, 1, f[1])
C.done()
PY
}
case $TOOL_PLATFORM in
amd64-linux) DET_INSNS="rdtsc rdtscp rdrand rdseed" ;;
arm64-linux) DET_INSNS=cntvct ;;
*) DET_INSNS= ;;
esac
for insn in $DET_INSNS; do
    eval "t_det_insn_$insn() { det_insn $insn; }"
    register "det-insn-$insn" "t_det_insn_$insn"
done
unset insn

# A forked child gets a stream of entropy of its own, the same on every run.
t_det_fork() {
    need_tool
    need_prog detfork
    local i
    for i in 1 2; do
        cycprof "$PWD/f$i.%p" "$PWD/f$i.log" --pprof=no --deterministic=yes -- "$BIN/detfork" \
            >"f$i.raw" 2>"f$i.err" </dev/null || fail "run $i failed"
        sort "f$i.raw" >"f$i.out"
    done
    [ "$(wc -l <f1.out)" = 2 ] || fail "the program did not print for both processes: $(cat f1.out)"
    cmp -s f1.out f2.out || note "parent and child read other bytes on the second run: $(tr '\n' ' ' <f1.out) / $(tr '\n' ' ' <f2.out)"
    [ "$(cut -d' ' -f2 f1.out | sort -u | wc -l)" = 2 ] ||
        note "parent and child read the same bytes: $(tr '\n' ' ' <f1.out)"
}
register det-fork-streams t_det_fork

# The mode also records itself in the pprof profile's comments.
t_det_pprof_comment() {
    need_tool
    need_prog recurse
    local b
    b=$(shared_profile --deterministic=yes --det-seed=7 -- "$BIN/recurse" 3)
    check_run "$b" both
    pycheck "$b.pb.gz" <<'PY' || true
import sys
from cyc import *
C = Checker()
out, _err = pprof(["-comments"], sys.argv[1])
C.true("cycprof deterministic: yes, seed 7, epoch 1700000000" in out,
       "go tool pprof -comments does not show the mode: %r" % out[:300])
C.done()
PY
    # cycprof diff reads the mode from pprof profiles too.
    local p
    p=$(shared_profile -- "$BIN/recurse" 3)
    check_run "$p" both
    "$HELPER_BIN" diff "$b.pb.gz" "$p.pb.gz" >mixed.diff 2>&1
    grep -qx 'Recorded: *differently: --deterministic=yes, seed 7, epoch 1700000000 in BASE, no in NEW; .*' mixed.diff ||
        note "cycprof diff of two pprof profiles does not say they were recorded differently: $(head -n 8 mixed.diff | tr '\n' '|')"
}
register det-pprof-comment t_det_pprof_comment

# The option changes nothing for a program that reads no clock and no
# entropy, and a program given the same clock by faketime (lua seeds its
# strings from time()) counts what lackey counts.
t_det_totals_eq_lackey() {
    need_tool
    need_prog recurse
    local b
    b=$(shared_profile --deterministic=yes -- "$BIN/recurse" 10)
    check_run "$b" cg
    expect_total_eq_lackey "recurse 10 (--deterministic=yes)" "$b" "$BIN/recurse" 10
    command -v lua5.4 >/dev/null || fail "lua5.4 is not installed (scripts/install-deps)"
    cp "$TESTS_DIR/progs/strings.lua" .
    faketime_env "2023-11-14 22:13:20"
    b=$(shared_profile --deterministic=yes -- /usr/bin/lua5.4 "$PWD/strings.lua")
    check_run "$b" cg
    expect_total_eq_lackey "lua5.4 under faketime (--deterministic=yes)" "$b" /usr/bin/lua5.4 "$PWD/strings.lua"
}
register det-totals-eq-lackey t_det_totals_eq_lackey

# Rust: a std HashMap (RandomState seeds from getrandom) and a loop timed
# by Instant.
t_det_rust() {
    need_tool
    need_prog rdet
    MUST_DIFFER=1 expect_deterministic rust-hashmap "$BIN/rdet"
}
register det-rust-hashmap-instant t_det_rust

# python3 without PYTHONHASHSEED: str hashes, and so dict and set layouts,
# change with the seed it takes from getrandom.
t_det_python() {
    need_tool
    cp "$TESTS_DIR/progs/pyhash.py" .
    expect_deterministic python3 /usr/bin/python3 -S -s "$PWD/pyhash.py"
}
register det-python3 t_det_python

# perl without PERL_HASH_SEED.
t_det_perl() {
    need_tool
    expect_deterministic perl /usr/bin/perl -e \
        'my %h; $h{"k$_"} = $_ for 1 .. 5000; my $s = 0; $s += length($_) for keys %h; print "$s\n"'
}
register det-perl t_det_perl

# lua5.4: its string hash seed comes from time() and addresses.
t_det_lua() {
    need_tool
    command -v lua5.4 >/dev/null || fail "lua5.4 is not installed (scripts/install-deps)"
    cp "$TESTS_DIR/progs/strings.lua" .
    expect_deterministic lua5.4 /usr/bin/lua5.4 "$PWD/strings.lua"
}
register det-lua5.4 t_det_lua

# sqlite3: random(), randomblob() and datetime('now').
t_det_sqlite() {
    need_tool
    command -v sqlite3 >/dev/null || fail "sqlite3 is not installed (scripts/install-deps)"
    expect_deterministic sqlite3 /usr/bin/sqlite3 :memory: \
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
         SELECT count(*), sum(random() % 7), hex(randomblob(8)), datetime('now') FROM c;"
}
register det-sqlite3 t_det_sqlite

# What the option cannot fix is named in the log, one line each: a second
# thread, an asynchronous signal, a read under /proc other than the
# process's own maps; a signal the program sends itself and its own maps
# are not named.
t_det_named_sources() {
    need_tool
    need_prog detnamed
    cycprof "$PWD/n.out" "$PWD/n.log" --pprof=no --deterministic=yes -- "$BIN/detnamed" \
        >n.stdout 2>n.stderr </dev/null || fail "tool run failed"
    grep -qx done n.stdout || fail "the program did not finish ($(cat n.stdout))"
    local lines
    lines=$(grep -c 'not deterministic' n.log)
    grep -q 'not deterministic: a second thread ran' n.log || note "a second thread is not named"
    grep -q 'not deterministic: asynchronous signal 14 was delivered' n.log || note "SIGALRM is not named"
    grep -q 'not deterministic: /proc/stat was read' n.log || note "the read of /proc/stat is not named"
    grep -q 'signal 10\b' n.log && note "the signal the program sent itself (SIGUSR1) is named"
    grep -q '/proc/self/maps' n.log && note "the program's own maps are named"
    [ "$lines" = 3 ] || note "$lines 'not deterministic' lines, want 3: $(grep 'not deterministic' n.log | tr '\n' '|')"
    # Without the option nothing is named.
    cycprof "$PWD/p.out" "$PWD/p.log" --pprof=no -- "$BIN/detnamed" >p.stdout 2>p.stderr </dev/null ||
        fail "tool run without the option failed"
    ! grep -q 'not deterministic' p.log || note "a run without the option names sources"
}
register det-named-sources t_det_named_sources

# The program sees as many lines in /proc/self/maps as under --tool=none:
# glibc's pthread_getattr_np parses that file, and every Rust program calls
# it at start-up (mapslines does the same, then counts the lines).
# maps_lines NAME OPTIONS... -- CMD...: runs CMD under valgrind with
# OPTIONS, and prints how many lines its /proc/self/maps had: CMD prints
# that file (cat) or the count.
maps_lines() {
    local name=$1 opts=()
    shift
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    vg "${opts[@]}" --log-file="$PWD/$name.log" "$@" >"$name.maps" 2>"$name.err" </dev/null ||
        fail "$name: run failed: $(tail -1 "$name.err")"
    if [ "$(wc -l <"$name.maps")" = 1 ]; then cat "$name.maps"; else wc -l <"$name.maps"; fi
}

# The program's /proc/self/maps holds Valgrind's mappings, and where
# Valgrind's own memory lands moves with what Valgrind did before: how many
# translations it made and how much debug information it read.  cycprof
# sets --vex-guest-chase=no (more, smaller translations), and it asks for
# the name of every function it runs, which since Valgrind 3.22 is what
# makes Valgrind read an object's DWARF at all.  By default it has Valgrind
# read inline info for some objects and not others, which no other run
# does; here it reads it for all (--read-inline-info=yes).  The run that
# does the same work with no memory of its own: before 3.22, --tool=none
# with --vex-guest-chase=no and --read-inline-info=yes; from 3.22 on,
# callgrind with --read-inline-info=yes (it names every function too, and
# sets the chase off itself).  At start-up (cat, a C program, a Rust
# program) cycprof must show exactly as many lines as that run.  Thirty
# million instructions into python3 the two runs' memory has grown apart,
# and where Valgrind's own blocks land with it: at most 2 lines more
# (Debian 12 and 13: equal; sid, Valgrind 3.27: 67 against 66).  At
# start-up the count may also be plain --tool=none's, the product's own
# rule (the program sees no more than --tool=none changes): on sid
# (Valgrind 3.27) the C program sees 43 lines under cycprof and plain
# --tool=none, 42 under callgrind, whose debug-information arena kept one
# 1 MiB block fewer.  A mapping of the tool's own would be a line more than
# both.  With cycprof's default reading, Debian 13's C program sees 43
# lines against callgrind's 42: a hole that reading libc's DWARF leaves in
# Valgrind's memory stays empty, where its inline info would fill it
# (docs/internals/memory.md).
t_det_maps_lines() {
    need_tool
    need_prog mapslines rmaps
    local version same label
    version=$(valgrind --version | sed -n 's/^valgrind-\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
    if [ "${version% *}" -eq 3 ] && [ "${version#* }" -lt 22 ]; then
        same=(--tool=none --vex-guest-chase=no --read-inline-info=yes)
        label="--tool=none --vex-guest-chase=no --read-inline-info=yes"
    else
        same=(--tool=callgrind --read-inline-info=yes --callgrind-out-file="$PWD/same.cg")
        label="--tool=callgrind --read-inline-info=yes"
    fi
    local tool=(--tool=cycprof --read-inline-info=yes --cycprof-helper="$HELPER_BIN"
                --cycprof-out-file="$PWD/m.out" --pprof=no)
    local name cmd plain want got
    for name in cat c rust python3; do
        case $name in
            cat) cmd=(/bin/cat /proc/self/maps) ;;
            c) cmd=("$BIN/mapslines") ;;          # after pthread_getattr_np
            rust) cmd=("$BIN/rmaps") ;;           # at a Rust program's start
            python3) cmd=(python3 -c "print(len(open('/proc/self/maps').readlines()))")
                command -v python3 >/dev/null || continue ;;  # 30 M instructions in
        esac
        plain=$(maps_lines "$name-none" --tool=none -- "${cmd[@]}")
        want=$(maps_lines "$name-same" "${same[@]}" -- "${cmd[@]}")
        got=$(maps_lines "$name-tool" "${tool[@]}" -- "${cmd[@]}")
        echo "/proc/self/maps lines, $name: cycprof $got, $label $want, plain --tool=none $plain"
        if [ "$name" = python3 ]; then
            [ "$got" -le $((want + 2)) ] ||
                note "$name: cycprof shows $got lines in /proc/self/maps, $label $want (at most 2 more allowed)"
        else
            [ "$got" = "$want" ] || [ "$got" = "$plain" ] ||
                note "$name: cycprof shows $got lines in /proc/self/maps, $label $want, plain --tool=none $plain"
        fi
    done
}
register det-maps-lines t_det_maps_lines

# vgdb_lines NAME OPTIONS...: lines of the program's /proc/self/maps that
# name Valgrind's vgdb file, under Valgrind's default for --vgdb.
vgdb_lines() {
    local name=$1
    shift
    VG_VGDB_DEFAULT=1 vg --tool=cycprof --cycprof-helper="$HELPER_BIN" --pprof=no \
        --cycprof-out-file="$PWD/$name.out" --log-file="$PWD/$name.log" "$@" \
        /bin/cat /proc/self/maps >"$name.maps" 2>"$name.err" </dev/null ||
        fail "$name: run failed: $(tail -1 "$name.err")"
    grep -c vgdb "$name.maps"
}

# total_at_pid NAME PID OPTIONS... -- CMD...: the tool's total for CMD run
# as process PID+1 (the kernel's next pid set through ns_last_pid), under
# Valgrind's default for --vgdb; "pid P" instead when another process took
# the pid first.
total_at_pid() {
    local name=$1 pid=$2 opts=()
    shift 2
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    echo "$pid" >/proc/sys/kernel/ns_last_pid
    VG_VGDB_DEFAULT=1 cycprof "$PWD/$name" "$PWD/$name.log" --pprof=no "${opts[@]}" -- "$@" \
        >"$name.stdout" 2>"$name.err" </dev/null || fail "$name: run failed: $(tail -1 "$name.err")"
    local got
    got=$(grep -o -m1 '^==[0-9]*==' "$name.log" | tr -d =)
    if [ "$got" != $((pid + 1)) ]; then echo "pid $got"; return; fi
    total_of_run "$PWD/$name"
}

# With vgdb on (Valgrind's default), Valgrind maps a file whose name holds
# the pid, a line of the program's /proc/self/maps that glibc parses in
# pthread_getattr_np, which every Rust program calls at its start: with
# --vgdb=yes the Rust program rmaps counted 292,987, 293,001 and 292,938
# instructions as pids 301, 9001 and 20001, the C program mapslines 207,501,
# 207,501 and 207,493.  --deterministic=yes turns vgdb off unless a --vgdb
# or --vgdb-* option is given: no such line, and one count at every pid
# length (290,439 and 205,051 in the environment of those runs).  rmaps
# where a Rust toolchain built it (not in the arm64 chroot).
t_det_vgdb_off() {
    need_tool
    need_prog mapslines
    local n
    n=$(vgdb_lines det --deterministic=yes)
    [ "$n" = 0 ] || note "--deterministic=yes: $n line(s) of /proc/self/maps name the vgdb file"
    grep -q 'turns vgdb off' det.log || note "--deterministic=yes: the log does not say vgdb is off"
    n=$(vgdb_lines asked --deterministic=yes --vgdb=yes)
    [ "$n" = 1 ] || note "--deterministic=yes --vgdb=yes: $n lines name the vgdb file, not 1"
    n=$(vgdb_lines gdb-at-start --deterministic=yes --vgdb-error=1000)
    [ "$n" = 1 ] || note "--deterministic=yes --vgdb-error=1000: $n lines name the vgdb file, not 1"
    n=$(vgdb_lines default)
    [ "$n" = 1 ] || note "without --deterministic: $n lines name the vgdb file, not 1 (Valgrind's default)"
    # Pids of 3, 4 and 5 digits, where the kernel lets the test pick them.
    [ -w /proc/sys/kernel/ns_last_pid ] || { not_checked "counts at pids of 3, 4 and 5 digits (/proc/sys/kernel/ns_last_pid is not writable: needs root)"; return 0; }
    local prog progs=(mapslines) pid totals t
    [ -x "$BIN/rmaps" ] && progs+=(rmaps)
    for prog in "${progs[@]}"; do
        totals=()
        for pid in 300 9000 20000; do
            local try
            for try in 1 2 3; do   # another test's process may take the pid first
                t=$(total_at_pid "$prog-$pid" "$pid" --deterministic=yes -- "$BIN/$prog")
                case $t in pid*) echo "pid $((pid + 1)) was taken ($t ran)" ;; *) totals+=("$t"); break ;; esac
            done
        done
        [ "${#totals[@]}" -ge 2 ] || note "$prog: fewer than two runs got the pid asked for (${totals[*]})"
        echo "$prog, --deterministic=yes, pids 301/9001/20001: ${totals[*]}"
        [ "$(printf '%s\n' "${totals[@]}" | sort -u | wc -l)" -le 1 ] ||
            note "--deterministic=yes: $prog counts ${totals[*]} as pids 301, 9001 and 20001"
    done
}
register det-vgdb-off t_det_vgdb_off

# A read of /proc/sys/vm/overcommit_memory (glibc's malloc reads it) is not
# named: a setting of the machine, the same on every run, so two runs that
# read it count the same.  A file under /proc that changes is still named.
t_det_overcommit_not_named() {
    need_tool
    [ -r /proc/sys/vm/overcommit_memory ] || { echo "skipped: no /proc/sys/vm/overcommit_memory"; return 0; }
    det_runs overcommit 2 --deterministic=yes -- /bin/cat /proc/sys/vm/overcommit_memory
    runs_identical overcommit 2 || note "two runs reading overcommit_memory differ: $(first_difference overcommit 2)"
    cmp -s overcommit.1.stdout overcommit.2.stdout || note "overcommit_memory read differently on two runs"
    ! grep -q 'not deterministic' overcommit.1.log ||
        note "a false alarm: $(grep -m1 'not deterministic' overcommit.1.log | sed 's/^==[0-9]*== //')"
    det_runs uptime 1 --deterministic=yes -- /bin/cat /proc/sys/vm/overcommit_memory /proc/uptime
    [ "$(grep -c 'not deterministic' uptime.1.log)" = 1 ] &&
        grep -q 'not deterministic: /proc/uptime was read' uptime.1.log ||
        note "want one line naming /proc/uptime, got: $(grep 'not deterministic' uptime.1.log | tr '\n' '|')"
}
register det-overcommit-not-named t_det_overcommit_not_named

# Outputs written into the program's working folder are in its listing on
# the next run: under --deterministic=yes one warning line at start says so
# and where to look; none with the outputs elsewhere, none without the
# option.  python3 lists its folder: two runs that write there count
# differently, two that write elsewhere the same.
t_det_outputs_in_working_folder() {
    need_tool
    local wd; wd=$(pwd -P)
    local want="cycprof: warning: --deterministic=yes: the outputs go into the program's working folder $wd,"
    mkdir elsewhere
    RUN_CWD=$PWD vg --tool=cycprof --deterministic=yes --pprof=no --cycprof-out-file=here.out \
        --log-file="$PWD/here.log" /bin/true || fail "run with the outputs here failed"
    [ "$(grep -c 'cycprof: warning: --deterministic=yes' here.log)" = 1 ] && grep -qF "$want" here.log &&
        grep -q 'docs/reproducible.md' here.log ||
        note "outputs in the working folder: want one line '$want ... docs/reproducible.md', got: $(grep -v '^==[0-9]*== *$' here.log | tail -n 3 | tr '\n' '|')"
    # the warning comes at start, before the program's own output
    RUN_CWD=$PWD vg --tool=cycprof --deterministic=yes --pprof=no --cycprof-out-file=order.out \
        --log-fd=1 /bin/echo PROGRAM >order.txt 2>&1
    [ "$(grep -n 'cycprof: warning' order.txt | cut -d: -f1)" -lt "$(grep -n '^PROGRAM$' order.txt | cut -d: -f1)" ] ||
        note "the warning does not come before the program's output: $(tr '\n' '|' <order.txt | head -c 300)"
    RUN_CWD=$PWD vg --tool=cycprof --deterministic=yes --pprof=no --cycprof-out-file="$PWD/elsewhere/x.out" \
        --log-file="$PWD/elsewhere.log" /bin/true || fail "run with the outputs elsewhere failed"
    ! grep -q 'cycprof: warning' elsewhere.log || note "outputs elsewhere: $(grep 'cycprof: warning' elsewhere.log)"
    RUN_CWD=$PWD vg --tool=cycprof --pprof=no --cycprof-out-file=plain.out \
        --log-file="$PWD/plain.log" /bin/true || fail "run without the option failed"
    ! grep -q 'cycprof: warning' plain.log || note "without --deterministic: $(grep 'cycprof: warning' plain.log)"
    command -v python3 >/dev/null || return 0
    mkdir lists out
    local i where totals=()
    for where in lists out; do
        for i in 1 2; do
            RUN_CWD=$PWD/lists vg --tool=cycprof --deterministic=yes --pprof=no \
                --cycprof-out-file="$PWD/$where/py$i.out" --log-file="$PWD/$where-py$i.log" \
                python3 -S -s -c 'import os; print(len(os.listdir(".")))' >"$where-py$i.stdout" 2>&1 ||
                fail "python3 run $i, outputs in $where: exit $?"
            totals+=("$(python3 "$TESTS_DIR/lib/cyc.py" refs-total "$where-py$i.log")")
        done
    done
    echo "python3 listing its folder: outputs there ${totals[0]} / ${totals[1]}, elsewhere ${totals[2]} / ${totals[3]}"
    [ "${totals[0]}" != "${totals[1]}" ] || note "python3: outputs in its folder and still the same count: the warning's reason does not show"
    [ "${totals[2]}" = "${totals[3]}" ] || note "python3: outputs elsewhere and still counts ${totals[2]} / ${totals[3]}"
}
register det-outputs-in-working-folder t_det_outputs_in_working_folder
