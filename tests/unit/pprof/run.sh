#!/usr/bin/env bash
# Unit tests of `cycprof pprof` (and the cycprof command skeleton), checked
# with the real reader, `go tool pprof`.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/pprof/run.sh
#
#   CYCPROF_BUILD  build dir holding cycprof/cli/cycprof (default: the repo)
#   CYCPROF        the cycprof binary itself (overrides CYCPROF_BUILD)
#   CYCPROF_BENCH  =1 also converts a 1,000,000-stack dump and reports time
#                  and memory (fails above 2 s)
#   KEEP=1         keep the scratch dir
#
# Prints 'ok NAME' or 'FAIL NAME: reason' per test, then a summary line;
# exits non-zero if any test failed. Needs python3 and go (golang-go).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
: "${CYCPROF_BUILD:=$REPO}"
CYCPROF=${CYCPROF:-$CYCPROF_BUILD/cycprof/cli/cycprof}
DATA=$HERE/data
T=$(mktemp -d "${TMPDIR:-/tmp}/cycprof-pprof-test.XXXXXX")
# go tool pprof must not touch the user's home or look for binaries.
export HOME=$T/home GOCACHE=$T/gocache GOFLAGS=-mod=mod GOTOOLCHAIN=local \
       PPROF_TMPDIR=$T/pprof-tmp PPROF_BINARY_PATH=$T/no-binaries LC_ALL=C
mkdir -p "$HOME" "$PPROF_TMPDIR"

PASS=0 FAILED=0
# `sed ... | bad NAME ...` must count a failure: the last command of a
# pipeline runs in this shell, not in a subshell whose counts are lost.
shopt -s lastpipe
ok() { echo "ok $1"; PASS=$((PASS + 1)); }
fail() { echo "FAIL $1: $2"; FAILED=$((FAILED + 1)); }
finish() {
    echo "pprof: $PASS passed, $FAILED failed"
    if [ "$FAILED" -eq 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$T"; else echo "# scratch kept in $T"; fi
    [ "$FAILED" -eq 0 ]
    exit
}
pp() { go tool pprof "$@" 2>>"$T/pprof.err"; }
# Text that differs, in a form that fits on one FAIL line.
differs() { diff "$1" "$2" | grep '^[<>]' | head -n 6 | tr '\n' '|'; }

if [ ! -x "$CYCPROF" ]; then
    fail setup "no cycprof binary at $CYCPROF (build first, or set CYCPROF)"
    finish
fi
if ! command -v go >/dev/null; then
    fail setup "go not found: install golang-go (go tool pprof is the reader)"
    finish
fi
if ! command -v python3 >/dev/null; then
    fail setup "python3 not found"
    finish
fi

# ------------------------------------------------------------ the command
t_cli() {
    local out rc
    out=$("$CYCPROF" --help) || { fail cli-help "cycprof --help exited $?"; return; }
    case $out in *"pprof "*) ;; *) fail cli-help "--help does not list pprof"; return ;; esac
    "$CYCPROF" --version | grep -Eq '^cycprof [0-9]' ||
        { fail cli-help "--version does not print 'cycprof VERSION'"; return; }
    "$CYCPROF" pprof --help | grep -q '^usage: cycprof pprof' ||
        { fail cli-help "cycprof pprof --help shows no usage"; return; }
    "$CYCPROF" help pprof | grep -q '^usage: cycprof pprof' ||
        { fail cli-help "cycprof help pprof shows no usage"; return; }
    "$CYCPROF" nosuch >/dev/null 2>"$T/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] ||
        { fail cli-help "unknown subcommand: exit $rc, $(wc -l <"$T/err") stderr lines"; return; }
    "$CYCPROF" >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || { fail cli-help "no argument: exit $rc, want 2"; return; }
    "$CYCPROF" pprof "$DATA/basic.stacks" 2>"$T/err"; rc=$?
    [ $rc -eq 2 ] && grep -q 'missing -o OUT' "$T/err" ||
        { fail cli-help "pprof without -o: exit $rc"; return; }
    ok cli-help
}

# ------------------------------------------------------- the basic profile
# data/basic.stacks, thread 1: _start -> main -> {a, b} -> leaf, leaf with
# an inlined helper, a SIGSEGV handler on top of leaf; thread 2: worker.
# a is a C++ function with a mangled system name. @APP@ and @NOID@ become
# ELF files with and without a build-id.
BUILD_ID=0123456789abcdef0123456789abcdef01234567
setup_basic() {
    echo 'int main(void) { return 0; }' >"$T/app.c"
    gcc -o "$T/app" "$T/app.c" -Wl,--build-id=0x$BUILD_ID &&
        gcc -o "$T/noid" "$T/app.c" -Wl,--build-id=none || return 1
    sed -e "s|@APP@|$T/app|" -e "s|@NOID@|$T/noid|" "$DATA/basic.stacks" >"$T/basic.stacks"
}

t_convert() {
    if ! setup_basic; then fail convert "cannot build the test ELF files with gcc"; return 1; fi
    (cd "$T" && "$CYCPROF" pprof basic.stacks -o basic.pb.gz) 2>"$T/err" ||
        { fail convert "exit $?: $(head -c 300 "$T/err")"; return 1; }
    [ -s "$T/err" ] && { fail convert "stderr not empty: $(head -c 300 "$T/err")"; return 1; }
    [ -s "$T/basic.pb.gz" ] || { fail convert "no output file"; return 1; }
    ls "$T" | grep -q '\.tmp\.' && { fail convert "temporary file left behind"; return 1; }
    gzip -t "$T/basic.pb.gz" || { fail convert "output is not valid gzip"; return 1; }
    ok convert
}

t_header() {
    # Newer pprof (Go 1.2x) prints locations as 'file:LINE:COLUMN s=START(system name)'
    # with '()' for no system name; bring them to the older 'file:LINE s=START' form.
    pp -raw "$T/basic.pb.gz" >"$T/raw.orig" || { fail header "go tool pprof -raw failed: $(tail -1 "$T/pprof.err")"; return; }
    sed -E -e 's/:([0-9]+):[0-9]+ s=([0-9]+)/:\1 s=\2/' -e 's/ s=([0-9]+)\(\)$/ s=\1/' "$T/raw.orig" >"$T/raw"
    local want
    for want in 'PeriodType: instructions count' 'Period: 1' 'Duration: 5ms' \
                'Comment: ./app --flag x' 'instructions/count[dflt]'; do
        grep -qxF "$want" "$T/raw" || { fail header "-raw has no line '$want'"; return; }
    done
    ok header
}

t_sample_sum() {
    python3 "$HERE/pprofout.py" raw-samples <"$T/raw" >"$T/samples"
    local n sum
    n=$(wc -l <"$T/samples")
    sum=$(awk '{ s += $1 } END { print s + 0 }' "$T/samples")
    [ "$n" -eq 7 ] && [ "$sum" -eq 1421 ] ||
        { fail sample-sum "$n samples summing to $sum, want 7 summing to 1421"; return; }
    pp -top "$T/basic.pb.gz" | grep -q 'Total samples = 1421 *$' ||
        { fail sample-sum "-top does not say 'Total samples = 1421'"; return; }
    ok sample-sum
}

t_traces() {
    pp -traces "$T/basic.pb.gz" | python3 "$HERE/pprofout.py" traces >"$T/traces" ||
        { fail traces "cannot read -traces output"; return; }
    cmp -s "$T/traces" "$DATA/basic.traces" ||
        { fail traces "stacks differ: $(differs "$DATA/basic.traces" "$T/traces")"; return; }
    ok traces
}

t_inline() {
    # The inlined helper and its caller share one location: pprof marks the
    # inner frame "(inline)" and puts it right above the caller.
    grep -q ' inl_helper (inline);leaf;b;' "$T/traces" ||
        { fail inline "no 'inl_helper (inline)' frame above leaf in -traces"; return; }
    pp -raw "$T/basic.pb.gz" | grep -A1 ' inl_helper util.h:60' | grep -q '^ *leaf app.c:51' ||
        { fail inline "-raw location does not list inl_helper then leaf"; return; }
    ok inline
}

t_labels() {
    pp -tags "$T/basic.pb.gz" >"$T/tags"
    grep -q 'thread: Total 1421' "$T/tags" &&
        grep -Eq '^ +1000(\.0)? \(70\.37%\): 2$' "$T/tags" &&
        grep -Eq '^ +421(\.0)? \(29\.63%\): 1$' "$T/tags" ||
        { fail labels "-tags does not split 1421 into thread 2: 1000, thread 1: 421"; return; }
    ok labels
}

t_top() {
    pp -top -nodefraction=0 "$T/basic.pb.gz" | python3 "$HERE/pprofout.py" top | sort >"$T/top"
    cmp -s "$T/top" "$DATA/basic.top" ||
        { fail top "flat/cum differ: $(differs "$DATA/basic.top" "$T/top")"; return; }
    ok top
}

t_lines() {
    pp -top -lines -nodefraction=0 "$T/basic.pb.gz" | python3 "$HERE/pprofout.py" top | sort >"$T/lines"
    cmp -s "$T/lines" "$DATA/basic.lines" ||
        { fail lines "per-line costs differ: $(differs "$DATA/basic.lines" "$T/lines")"; return; }
    ok lines
}

t_mappings() {
    local m
    m=$(sed -n '/^Mappings/,$p' "$T/raw")
    echo "$m" | grep -qxF "1: 0x400000/0x409000/0x0 $T/app $BUILD_ID [FN][FL][LN][IN]" ||
        { fail mappings "mapping 1 lacks the build-id or flags: $(echo "$m" | sed -n 2p)"; return; }
    echo "$m" | grep -qxF "2: 0x7f0000000000/0x7f0000010000/0x1000 $T/noid  [FN][FL][LN][IN]" ||
        { fail mappings "mapping 2 (no build-id) wrong: $(echo "$m" | sed -n 3p)"; return; }
    echo "$m" | grep -qxF "3: 0x7f1000000000/0x7f1000010000/0x0 /nonexistent/libfoo.so  [FN][FL][LN][IN]" ||
        { fail mappings "mapping 3 (missing file) wrong: $(echo "$m" | sed -n 4p)"; return; }
    pp -traces "$T/basic.pb.gz" | grep -qx "Build ID: $BUILD_ID" ||
        { fail mappings "-traces header has no 'Build ID: $BUILD_ID'"; return; }
    ok mappings
}

t_locations() {
    # Synthetic location: no mapping, address 0. Function names are kept as
    # the tool wrote them (pprof's own "simplification" would turn
    # "<signal 11>" into ""), and the mangled name survives as system_name.
    grep -Eq '^ +[0-9]+: 0x0 <signal 11> :0 s=0' "$T/raw" ||
        { fail locations "no unmapped '0x0 <signal 11>' location in -raw"; return; }
    grep -q 'M=1 ns::vec<int>::at(int) const vec.h:30 s=28(_ZNK2ns3vecIiE2atEi)' "$T/raw" ||
        { fail locations "C++ function name/system_name/start_line wrong in -raw"; return; }
    grep -q '0x405010 M=1 inl_helper util.h:60 s=58' "$T/raw" ||
        { fail locations "address/mapping of the inline location wrong in -raw"; return; }
    ok locations
}

# ----------------------------------------------------- ELF build-id reader
t_elf_flavours() {
    # Distinct ids: pprof merges mappings of equal build-id and size.
    local d=$T/elf id=00112233445566778899aabbccddeeff00112233 i=0 f
    mkdir -p "$d"
    # pprof shows only mappings that samples reach: one sample per location.
    {
        printf 'cycprof-stacks\t1\ncmd\tx\npid\t1\nduration_ns\t0\ntotal\t8\n'
        for f in "32 le phdr" "32 be phdr" "64 le phdr" "64 be phdr" "64 le shdr" "32 be shdr"; do
            i=$((i + 1))
            python3 "$HERE/mkelf.py" $f $id$i$i "$d/$i.elf" || return 1
            printf 'map\t%d\t%x\t%x\t0\t%s\n' $i $((i * 4096)) $((i * 4096 + 16)) "$d/$i.elf"
        done
        mkfifo "$d/fifo"    # must be skipped, not opened for a blocking read
        printf 'map\t7\t7000\t7010\t0\t%s\n' "$d/fifo"
        printf 'map\t8\t8000\t8010\t0\t%s\n' "$d"
        printf 'fn\t1\t0\tf\tf\t\n'
        for i in 1 2 3 4 5 6 7 8; do printf 'loc\t%d\t%d\t%x\t1:%d\n' $i $i $((i * 4096 + 8)) $i; done
        printf 'node\t1\t0\t0\n'
        for i in 1 2 3 4 5 6 7 8; do printf 'sample\t1\t%d\t1\t1\n' $i; done
        printf 'end\t8\n'
    } >"$d/elf.stacks" || { fail elf-flavours "cannot write the test ELF files"; return; }
    timeout 20 "$CYCPROF" pprof "$d/elf.stacks" -o "$d/elf.pb.gz" 2>"$T/err" ||
        { fail elf-flavours "conversion failed or hung: $(head -c 300 "$T/err")"; return; }
    pp -raw "$d/elf.pb.gz" | sed -n '/^Mappings/,$p' >"$d/maps"
    for i in 1 2 3 4 5 6; do
        grep -q " $d/$i.elf $id$i$i \[" "$d/maps" ||
            { fail elf-flavours "build-id of ELF flavour $i not read: $(grep "/$i.elf" "$d/maps")"; return; }
    done
    grep -q " $d/fifo  \[" "$d/maps" && grep -q " $d  \[" "$d/maps" ||
        { fail elf-flavours "a FIFO or directory got a build-id"; return; }
    ok elf-flavours
}

# ---------------------------------------------------------- special shapes
t_empty_profile() {
    printf 'cycprof-stacks\t1\ncmd\t\npid\t1\nduration_ns\t0\ntotal\t0\nend\t0\n' >"$T/empty.stacks"
    "$CYCPROF" pprof "$T/empty.stacks" -o "$T/empty.pb.gz" 2>"$T/err" ||
        { fail empty-profile "exit $?: $(head -c 300 "$T/err")"; return; }
    pp -raw "$T/empty.pb.gz" | grep -q '^PeriodType: instructions count' ||
        { fail empty-profile "go tool pprof cannot read a profile without samples"; return; }
    ok empty-profile
}

t_deep_stack() {
    # A 20,000-deep recursion: pprof sees it cut to 256 frames (the 127
    # innermost, a marker, the 128 outermost; docs/pprof.md#deep-stacks),
    # with its whole count.
    python3 - "$T/deep.stacks" <<'EOF' || { fail deep-stack "cannot write the dump"; return; }
import sys
n = 20000
with open(sys.argv[1], "w") as f:
    f.write("cycprof-stacks\t1\ncmd\trec\npid\t1\nduration_ns\t1\ntotal\t5\n")
    f.write("fn\t1\t1\trec\trec\trec.c\nloc\t1\t0\t0\t1:2\nloc\t2\t0\t0\t1:3\n")
    f.write("node\t1\t0\t0\n")
    for i in range(2, n + 1):
        f.write("node\t%d\t%d\t1\n" % (i, i - 1))
    f.write("sample\t%d\t2\t1\t5\nend\t1\n" % n)
EOF
    "$CYCPROF" pprof "$T/deep.stacks" -o "$T/deep.pb.gz" 2>"$T/err" ||
        { fail deep-stack "exit $?: $(head -c 300 "$T/err")"; return; }
    local got
    got=$(pp -raw "$T/deep.pb.gz" | python3 "$HERE/pprofout.py" raw-samples)
    [ "$got" = "5 256 thread=1" ] ||
        { fail deep-stack "want one sample of value 5 with 256 locations, got '$got'"; return; }
    ok deep-stack
}

# ------------------------------------------------------------- bad input
# bad NAME LINE 'expected text' < dump: the conversion must exit 1 with one
# stderr line 'cycprof pprof: bad.stacks:LINE: ...expected text...' (LINE -:
# 'bad.stacks: ...'), and leave neither the output nor a temporary file.
bad() {
    local name=$1 line=$2 want=$3 d=$T/bad/$1 rc
    mkdir -p "$d"
    cat >"$d/bad.stacks"
    (cd "$d" && "$CYCPROF" pprof bad.stacks -o out.pb.gz) >/dev/null 2>"$d/err"; rc=$?
    if [ $rc -ne 1 ]; then fail "bad-$name" "exit $rc, want 1 ($(head -c 200 "$d/err"))"; return; fi
    if [ "$(wc -l <"$d/err")" -ne 1 ]; then fail "bad-$name" "stderr has $(wc -l <"$d/err") lines, want 1"; return; fi
    local prefix="cycprof pprof: bad.stacks:$line: "
    [ "$line" = - ] && prefix="cycprof pprof: bad.stacks: "
    case $(cat "$d/err") in
        "$prefix"*"$want"*) ;;
        *) fail "bad-$name" "got '$(cat "$d/err")', want '$prefix...$want...'"; return ;;
    esac
    if ls "$d" | grep -q 'out\.pb\.gz'; then fail "bad-$name" "output or temporary file left behind"; return; fi
    ok "bad-$name"
}

t_bad_inputs() {
    local B=$T/basic.stacks
    head -n 47 "$B" | bad no-end 47 "truncated dump: no 'end' record"
    head -c -1 "$B" | bad end-without-newline 48 "truncated dump: line has no newline"
    # (cut the unsubstituted file: its byte offsets do not depend on $T)
    head -c 700 "$DATA/basic.stacks" | bad cut-short 27 "truncated dump: line has no newline"
    sed '22s/3:30/33:30/' "$B" | bad undefined-fn 22 "fn 33 is not defined"
    sed '25s/1\t405010/4\t405010/' "$B" | bad undefined-map 25 "map 4 is not defined"
    sed '45s/^sample\t8/sample\t80/' "$B" | bad undefined-node 45 "node 80 is not defined"
    sed '38s/\t9$/\t13/' "$B" | bad undefined-loc 38 "loc 13 is not defined"
    sed '43s/50$/5x0/' "$B" | bad malformed-count 43 "'5x0' is not a decimal number"
    sed '43s/50$/-50/' "$B" | bad negative-count 43 "'-50' is not a decimal number"
    sed '43s/50$/99999999999999999999/' "$B" | bad huge-count 43 "too large"
    sed '19s/401000/0x401000/' "$B" | bad hex-prefix 19 "not a 64-bit hex number"
    sed '5s/1421/1422/' "$B" | bad sum-not-total 48 "add up to 1421 but the header says total 1422"
    sed '48s/7/8/' "$B" | bad end-count 48 "end says 8 sample records, the dump has 7"
    sed '48s/$/\tx/' "$B" | bad end-line-level-count 48 "'x' is not a decimal number"
    { cat "$B"; printf 'sample\t1\t1\t1\t0\n'; } | bad data-after-end 49 "data after the 'end' record"
    sed '20s/^loc\t2/loc\t3/' "$B" | bad id-out-of-order 20 "expected 2"
    sed '30{h;d};31G' "$B" | bad record-order 31 "'loc' record after 'node' records"
    sed '3d' "$B" | bad missing-header 5 "no 'pid' record"
    sed '3p' "$B" | bad duplicate-header 4 "second 'pid' record"
    sed '1s/1$/2/' "$B" | bad version 1 "unsupported stacks dump version '2'"
    printf 'hello\nworld\n' | bad not-a-dump 1 "not a cycprof stacks dump"
    bad empty-file - "empty file" </dev/null
    sed '26s/2:22/2:2\x002/' "$B" | bad nul-byte 26 "NUL byte"
    sed '44s/^sample/smaple/' "$B" | bad unknown-record 44 "unknown record 'smaple'"
    sed '32s/\t1$//' "$B" | bad field-count 32 "'node' record needs 3 TAB-separated fields"
    sed '31s/\t0$/\t1/' "$B" | bad root-with-loc 31 "root node (parent 0) must have loc 0"
    sed '32s/\t1$/\t0/' "$B" | bad child-without-loc 32 "non-root node needs a callsite loc"
    sed '25s/6:60,5:51/6:60,,5:51/' "$B" | bad empty-lines-entry 25 "'' is not 'fnid:line'"
}

t_missing_dump() {
    local rc
    (cd "$T" && "$CYCPROF" pprof no-such.stacks -o never.pb.gz) 2>"$T/err"; rc=$?
    [ $rc -eq 1 ] && [ "$(cat "$T/err")" = "cycprof pprof: no-such.stacks: No such file or directory" ] &&
        [ ! -e "$T/never.pb.gz" ] ||
        { fail missing-dump "exit $rc, stderr '$(cat "$T/err")'"; return; }
    ok missing-dump
}

t_atomic() {
    # A failed conversion leaves an existing OUT untouched; a good one
    # replaces it.
    local d=$T/atomic
    mkdir -p "$d"
    echo old >"$d/out.pb.gz"
    head -n 47 "$T/basic.stacks" >"$d/bad.stacks"
    "$CYCPROF" pprof "$d/bad.stacks" -o "$d/out.pb.gz" 2>/dev/null
    [ "$(cat "$d/out.pb.gz")" = old ] || { fail atomic "a failed run changed the existing output"; return; }
    "$CYCPROF" pprof "$T/basic.stacks" -o "$d/out.pb.gz" 2>/dev/null &&
        gzip -t "$d/out.pb.gz" || { fail atomic "a good run did not replace the output"; return; }
    [ "$(ls "$d" | wc -l)" -eq 2 ] || { fail atomic "stray files: $(ls "$d" | tr '\n' ' ')"; return; }
    ok atomic
}

# ------------------------------------------------------- memory and speed
# "EXIT PEAK_RSS_KB WALL_SECONDS CPU_SECONDS" of one command (CPU: user +
# system, what the 2 s target is about: wall time depends on the machine's
# load). GNU time when installed;
# else getrusage from python, whose fork adds python's own ~10 MB.
measure() {
    if [ -x /usr/bin/time ]; then
        local rc
        /usr/bin/time -o "$T/time.out" -f '%M %e %U %S' "$@"; rc=$?
        tail -n 1 "$T/time.out" | awk -v rc=$rc '{ printf "%d %d %s %.2f\n", rc, $1, $2, $3 + $4 }'
        return
    fi
    python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:])
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, ru.ru_maxrss, "%.2f" % (time.monotonic() - t), "%.2f" % (ru.ru_utime + ru.ru_stime))
EOF
}

t_memory_flat() {
    # Same tree, 20 times the samples: memory must not follow the samples.
    # (--max-samples=0: the streaming line-level conversion; past the limit
    # the profile is coarsened in memory, docs/pprof.md#huge-profiles.)
    python3 "$HERE/gen_big_dump.py" 20000 "$T/m1.stacks" &&
        python3 "$HERE/gen_big_dump.py" --samples-per-node 20 20000 "$T/m20.stacks" ||
        { fail memory-flat "cannot generate the dumps"; return; }
    local a b
    a=$(measure "$CYCPROF" pprof --max-samples=0 "$T/m1.stacks" -o "$T/m1.pb.gz")
    b=$(measure "$CYCPROF" pprof --max-samples=0 "$T/m20.stacks" -o "$T/m20.pb.gz")
    set -- $a $b
    [ "$1" -eq 0 ] && [ "$5" -eq 0 ] || { fail memory-flat "conversion failed ($1, $5)"; return; }
    # 400,000 samples are about 30 MB of protobuf; allow 2 MB of noise.
    [ "$6" -le $(($2 + 2048)) ] ||
        { fail memory-flat "peak RSS grew from $2 KB (20k samples) to $6 KB (400k samples)"; return; }
    pp -top "$T/m20.pb.gz" | grep -q "Total samples = $(awk -F'\t' '$1 == "total" { print $2 }' "$T/m20.stacks") *$" ||
        { fail memory-flat "go tool pprof total differs from the dump's total"; return; }
    echo "# memory: 20k samples ${2} KB, 400k samples ${6} KB peak RSS"
    ok memory-flat
}

# ------------------------------------------------------------- regions
# basic.stacks with two region sets (outer, and inner inside it) and
# thread 2's root node in the inner one: its samples (1000 instructions)
# get the labels region=inner and region=outer, the others none.
t_regions() {
    local B=$T/basic.stacks R=$T/regions.stacks rc
    sed '30a region\t1\t0\touter\nregion\t2\t1\tinner' "$B" |
        sed '41s/^node\t9\t0\t0$/node\t9\t0\t0\t2/' >"$R"
    "$CYCPROF" pprof "$R" -o "$T/regions.pb.gz" 2>"$T/regions.err"; rc=$?
    [ $rc -eq 0 ] || { fail regions "conversion exit $rc: $(head -c 200 "$T/regions.err")"; return; }
    local r o i
    r=$(pp -raw "$T/regions.pb.gz" | grep -c 'region:\[inner outer\]\|region:\[outer inner\]')
    o=$(pp -top -tagfocus=region=outer "$T/regions.pb.gz" | sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')
    i=$(pp -top -tagfocus=region=inner "$T/regions.pb.gz" | sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')
    [ "$o" = 1000 ] && [ "$i" = 1000 ] ||
        { fail regions "tagfocus totals: outer '$o', inner '$i', want 1000 ($r labelled samples)"; return; }
    ok regions
    sed '31s/\t0\touter/\t3\touter/' "$R" | bad region-undefined-parent 31 "region 3 is not defined"
    sed '41s/\t2$/\t7/' "$R" | bad node-undefined-region 41 "region 7 is not defined"
    sed '31s/\touter$/\t/' "$R" | bad region-empty-name 31 "empty name"
    awk 'NR == 31 || NR == 32 { held = held $0 "\n"; next } { print } NR == 36 { printf "%s", held }' "$R" |
        bad region-after-node 35 "'region' record after 'node' records"
}

# A graft (docs/internals/stacks-format.md): node 11 hangs from node 2 in
# region set 1, and node 12 below it has node 5's call site. The sample of
# node 2 at loc 8, moved to node 12, must read as node 5's stack would (the
# graft adds no frame) and carry region=tx; the rest keeps no region.
t_graft() {
    local B=$T/basic.stacks G=$T/graft.stacks P=$T/plain.stacks rc
    sed '30a region\t1\t0\ttx' "$B" |
        sed '41a node\t11\t2\t0\t1\nnode\t12\t11\t3' |
        sed 's/^sample\t2\t8\t1\t7$/sample\t12\t8\t1\t7/' >"$G"
    sed 's/^sample\t2\t8\t1\t7$/sample\t5\t8\t1\t7/' "$B" >"$P"
    grep -q '^sample.12.8' "$G" && grep -q '^node.12.11.3$' "$G" ||
        { fail graft "the test's dump was not made"; return; }
    for f in graft plain; do
        "$CYCPROF" pprof "$T/$f.stacks" -o "$T/$f.pb.gz" 2>"$T/$f.err"; rc=$?
        [ $rc -eq 0 ] || { fail graft "$f: conversion exit $rc: $(head -c 200 "$T/$f.err")"; return; }
        pp -traces "$T/$f.pb.gz" | grep -v 'region:\|^File:\|^Type:\|^Duration:' >"$T/$f.traces"
    done
    local tx
    tx=$(pp -top -tagfocus=region=tx "$T/graft.pb.gz" | sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')
    [ "$tx" = 7 ] || { fail graft "tagfocus region=tx: '$tx', want 7"; return; }
    cmp -s "$T/graft.traces" "$T/plain.traces" ||
        { fail graft "stacks differ from the same samples without the graft: $(differs "$T/plain.traces" "$T/graft.traces")"; return; }
    ok graft
    sed '42s/\t1$/\t2/' "$G" | bad graft-undefined-region 42 "region 2 is not defined"
    sed '42s/\t0\t1$/\t0/' "$G" | bad graft-without-region 42 "non-root node needs a callsite loc"
}

# Three 600-deep stacks (cut to 256 frames, merged by stack_merge): two in
# region a, one in region b. The merge must keep the region sets apart and
# the labels on: -tagfocus=region=a counts 5 + 11, region=b 7.
t_deep_stack_regions() {
    python3 - "$T/deepr.stacks" <<'EOF2' || { fail deep-stack-regions "cannot write the dump"; return; }
import sys
n = 600
with open(sys.argv[1], "w") as f:
    f.write("cycprof-stacks\t1\ncmd\trec\npid\t1\nduration_ns\t1\ntotal\t23\n")
    f.write("fn\t1\t1\trec\trec\trec.c\nloc\t1\t0\t0\t1:2\nloc\t2\t0\t0\t1:3\n")
    f.write("region\t1\t0\ta\nregion\t2\t0\tb\n")
    node, leaves = 0, []
    for region in (1, 2, 1):
        node += 1
        f.write("node\t%d\t0\t0\t%d\n" % (node, region))
        for _ in range(n):
            node += 1
            f.write("node\t%d\t%d\t1\n" % (node, node - 1))
        leaves.append(node)
    for leaf, count in zip(leaves, (5, 7, 11)):
        f.write("sample\t%d\t2\t1\t%d\n" % (leaf, count))
    f.write("end\t3\n")
EOF2
    "$CYCPROF" pprof "$T/deepr.stacks" -o "$T/deepr.pb.gz" 2>"$T/err" ||
        { fail deep-stack-regions "exit $?: $(head -c 300 "$T/err")"; return; }
    local a b
    a=$(pp -top -tagfocus=region=a "$T/deepr.pb.gz" | sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')
    b=$(pp -top -tagfocus=region=b "$T/deepr.pb.gz" | sed -n 's/.*accounting for \([0-9]*\),.*/\1/p')
    [ "$a" = 16 ] && [ "$b" = 7 ] ||
        { fail deep-stack-regions "tagfocus totals: a '$a' (want 16), b '$b' (want 7)"; return; }
    ok deep-stack-regions
}

# Every command that reads profiles reads a stacks dump as the pprof
# profile `cycprof pprof` makes of it (its defaults: above 250,000
# line-level samples, per function). The oracle is that conversion: each
# command's output on the dump must equal its output on the converted file,
# given under the same name. A dump that is not valid gets the reader's one
# line, under the command's name.
t_dump_as_profile() {
    local D=$T/asdump P=$T/aspprof f c rc n=0
    mkdir -p "$D" "$P"
    python3 "$HERE/gen_big_dump.py" 260000 "$D/big" ||
        { fail dump-as-profile "cannot generate the dump"; return; }
    for f in basic regions graft deep deepr; do
        [ -f "$T/$f.stacks" ] && cp "$T/$f.stacks" "$D/$f"
    done
    for f in $(ls "$D"); do
        "$CYCPROF" pprof "$D/$f" -o "$P/$f" 2>/dev/null ||
            { fail dump-as-profile "$f: cycprof pprof failed"; return; }
        for c in "report" "report --by=stack" "report --regions" "report --by=line -n 5" \
                 "report --format=json -n 0" "folded" "diff $f $f" "diff --by=stack $f $f" \
                 "flamegraph -o out.svg" "firefox -o out.json"; do
            for d in "$D" "$P"; do
                rm -f "$d/out.svg" "$d/out.json"
                (cd "$d" && "$CYCPROF" $c "$f" >"$d.stdout" 2>"$d.stderr"; echo "exit $?" >>"$d.stdout"
                 cat out.svg out.json 2>/dev/null >>"$d.stdout")
            done
            n=$((n + 1))
            cmp -s "$D.stdout" "$P.stdout" && cmp -s "$D.stderr" "$P.stderr" ||
                { fail dump-as-profile "$f: 'cycprof $c' differs on the dump: $(differs "$P.stdout" "$D.stdout")$(head -c 200 "$D.stderr")"; return; }
        done
    done
    rm -f "$D"/out.* "$P"/out.*
    head -c 700 "$DATA/basic.stacks" >"$D/cut"
    (cd "$D" && "$CYCPROF" report cut) >/dev/null 2>"$T/err"; rc=$?
    [ $rc -eq 1 ] && [ "$(cat "$T/err")" = "cycprof report: cut:27: truncated dump: line has no newline" ] ||
        { fail dump-as-profile "a cut dump: exit $rc, stderr '$(cat "$T/err")'"; return; }
    echo "# dump-as-profile: $n outputs on $(ls "$P" | wc -l) dumps"
    ok dump-as-profile
}

t_bench() {
    python3 "$HERE/gen_big_dump.py" 1000000 "$T/big.stacks" || { fail bench "cannot generate the dump"; return; }
    set -- $(measure "$CYCPROF" pprof "$T/big.stacks" -o "$T/big.pb.gz")
    echo "# bench: 1,000,000 distinct stacks: $4 s CPU ($3 s wall), peak RSS $2 KB, $(stat -c %s "$T/big.pb.gz") bytes out"
    [ "$1" -eq 0 ] || { fail bench "conversion failed"; return; }
    awk -v s="$4" 'BEGIN { exit !(s < 2.0) }' || { fail bench "took $4 s of CPU, target < 2 s"; return; }
    ok bench
}

t_cli
if t_convert; then
    t_header
    t_sample_sum
    t_traces
    t_inline
    t_labels
    t_top
    t_lines
    t_mappings
    t_locations
    t_bad_inputs
    t_atomic
    t_regions
    t_graft
fi
t_missing_dump
t_elf_flavours
t_empty_profile
t_deep_stack
t_deep_stack_regions
t_dump_as_profile
t_memory_flat
[ "${CYCPROF_BENCH:-}" = 1 ] && t_bench
finish
