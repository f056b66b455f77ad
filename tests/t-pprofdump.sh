# shellcheck shell=bash
# The stacks dump per function (docs/internals/stacks-format.md): when pprof
# will get a profile at function granularity anyway (more line-level samples
# than --pprof-max-samples), the tool writes each node's samples per function
# and says in the `end` record how many line-level ones they stand for. The
# profile must be the one the line-level dump gives: the oracle is the same
# tool's line-level dump of the same run of the program
# (--pprof-max-samples=0), converted by `cycprof pprof`.
# dump_per_function_check LABEL|COMMAND [LIMIT]: the check above on one
# program, with --pprof-max-samples=LIMIT (default 40: more nodes certain to
# get a sample than that); LIMIT `nodes` is the line-level dump's number of
# nodes, at least the nodes certain to get a sample, so the tool must count
# the line-level samples to know.
dump_per_function_check() {
    local line fn ldump fdump n l=${1%%|*} limit=${2:-40}
    cg_prog "$1"
    line=$(shared_profile --pprof-max-samples=0 --keep-stacks=yes -- "${PROG[@]}")
    check_run "$line"
    ldump=$(ls "$line".pb.gz.stacks.* 2>/dev/null | head -n 1)
    [ -s "$ldump" ] || fail "--keep-stacks=yes kept no stacks dump"
    n=$(tail -n 1 "$ldump" | cut -f 2)
    if [ "$limit" = nodes ]; then
        limit=$(grep -c '^node' "$ldump")
        [ "$n" -gt "$limit" ] || fail "$l: $n line-level samples, not more than its $limit nodes"
    fi
    fn=$(shared_profile --pprof-max-samples="$limit" --keep-stacks=yes -- "${PROG[@]}")
    check_run "$fn"
    fdump=$(ls "$fn".pb.gz.stacks.* 2>/dev/null | head -n 1)
    [ -s "$fdump" ] || fail "--keep-stacks=yes kept no stacks dump"
    # Merged down to LIMIT samples, as the tool's own conversion was.
    "$HELPER_BIN" pprof --max-samples="$limit" "$ldump" -o "$l.merged-from-lines.pb.gz" 2>merged.err ||
        fail "cycprof pprof on the line-level dump: $(head -n 1 merged.err)"
    # Function granularity alone: from the line-level dump with a limit just
    # under its sample count, from the per-function dump with no limit.
    "$HELPER_BIN" pprof --max-samples=$((n - 1)) "$ldump" -o "$l.fn-from-lines.pb.gz" 2>fnl.err ||
        fail "cycprof pprof on the line-level dump: $(head -n 1 fnl.err)"
    "$HELPER_BIN" pprof --max-samples=0 "$fdump" -o "$l.fn-from-fn.pb.gz" 2>fnf.err ||
        fail "cycprof pprof --max-samples=0 on the per-function dump: $(head -n 1 fnf.err)"
    pycheck "$fn" "$ldump" "$fdump" "$n" "$l" "$limit" <<'PY' || true
import sys
from cyc import *
C = Checker()
fn, ldump, fdump, n, l, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
end = open(fdump).read().splitlines()[-1].split("\t")
C.eq(l + ": per-function dump: fields of its end record", 3, len(end))
if len(end) == 3:
    C.eq(l + ": per-function dump: line-level samples it stands for", n, int(end[2]))
    C.true(0 < int(end[1]) < n, l + ": per-function dump has %s samples, the line-level one %d" % (end[1], n))
C.eq(l + ": line-level dump: one field in its end record", 2,
     len(open(ldump).read().splitlines()[-1].split("\t")))
def raw(pb):
    out, _ = pprof(["-raw"], pb)
    return [l for l in out.splitlines() if not l.startswith(("Time:", "Duration:"))]
def same(what, a, b):
    ra, rb = raw(a), raw(b)
    d = [(x, y) for x, y in zip(ra, rb) if x != y]
    C.true(ra == rb, "%s: %d vs %d lines of pprof -raw, first difference %s" % (
        what, len(ra), len(rb), d[:1]))
same(l + ": the tool's profile vs the line-level dump's merged to %d" % limit, fn + ".pb.gz", l + ".merged-from-lines.pb.gz")
same(l + ": function granularity: per-function dump vs line-level dump", l + ".fn-from-fn.pb.gz", l + ".fn-from-lines.pb.gz")
log = open(fn + ".log").read()
C.true("%d line-level samples are more than --max-samples=%d" % (n, limit) in log,
       l + ": the tool's log does not give the line-level sample count %d" % n)
C.true("the dump's samples are per function (%d at line level)" % n in open("fnf.err").read(),
       l + ": cycprof pprof --max-samples=0 on a per-function dump does not say so: %s" % open("fnf.err").read().strip())
C.done()
PY
}

# A program with symbols for most of its code (python), and one without
# any (its code is named after addresses, per context: the dump's own short
# paths for it, docs/internals/stacks-format.md).
t_pprof_dump_per_function() {
    need_tool
    dump_per_function_check "python|/usr/bin/python3 -S -s PYSCRIPT"
    dump_per_function_check "stripped|mutual-stripped"
}
register pprof-dump-per-function t_pprof_dump_per_function

# Fewer nodes certain to get a sample than the limit, more line-level
# samples: the tool counts them to know (a program with a region set per
# transaction has three times as many line-level samples as such nodes).
t_pprof_dump_per_function_counted() {
    need_tool
    dump_per_function_check "python|/usr/bin/python3 -S -s PYSCRIPT" nodes
    region_prog rscale
    dump_per_function_check "regions|$BIN/rscale 200 1" nodes
}
register pprof-dump-per-function-counted t_pprof_dump_per_function_counted

# followed_run DELAY: the python program under the tool with
# --pprof-max-samples=40, so that its dump is per function and followed,
# through a helper wrapper that records its arguments and starts DELAY
# seconds late.  Oracles: the arguments; the same dump, kept, converted
# once complete.  Sets fdump to the kept dump.
followed_run() {
    local delay=$1
    cg_prog "python|/usr/bin/python3 -S -s PYSCRIPT"
    printf '#!/bin/sh\necho "$@" >>"%s/helper-args"\nsleep %s\nexec "%s" "$@"\n' \
        "$PWD" "$delay" "$HELPER_BIN" >wrap.sh
    chmod +x wrap.sh
    vg --tool=cycprof --cycprof-helper="$PWD/wrap.sh" --pprof-max-samples=40 --keep-stacks=yes \
        --cycprof-out-file="$PWD/fn.out" --log-file="$PWD/fn.log" "${PROG[@]}" >/dev/null 2>&1 ||
        fail "valgrind --tool=cycprof failed: $(tail -n 2 fn.log | tr '\n' ' ')"
    grep -q -- "--per-function --follow /proc/self/fd/3 -o" helper-args ||
        fail "the tool did not start the helper to follow the per-function dump: $(cat helper-args)"
    ! grep -q "no pprof profile" fn.log ||
        fail "helper started $delay s late: $(grep -o 'no pprof profile.*' fn.log | head -n 1)"
    fdump=$(ls fn.out.pb.gz.stacks.* 2>/dev/null | head -n 1)
    [ -s "$fdump" ] && [ -s fn.out.pb.gz ] || fail "no kept dump or no profile: $(ls)"
    "$HELPER_BIN" pprof --max-samples=40 "$fdump" -o whole.pb.gz 2>whole.err ||
        fail "cycprof pprof on the complete dump: $(head -n 1 whole.err)"
    cmp -s fn.out.pb.gz whole.pb.gz ||
        note "the profile the tool wrote while following (helper $delay s late) differs from the complete dump's"
}

# The tool starts `cycprof pprof` on a per-function dump while it writes
# the samples (--follow: it reads the dump as it grows, until its stdin, a
# pipe from the tool, closes), so that converting overlaps writing at exit.
t_pprof_dump_followed() {
    need_tool
    local fdump size a b rc
    followed_run 0

    # A dump that grows in three pieces, with pauses, while it is read.
    size=$(stat -c %s "$fdump") a=$((size / 3)) b=$((size / 3))
    head -c $a "$fdump" >grow
    { sleep 0.3; tail -c +$((a + 1)) "$fdump" | head -c $b >>grow
      sleep 0.3; tail -c +$((a + b + 1)) "$fdump" >>grow; } |
        "$HELPER_BIN" pprof --max-samples=40 --per-function --follow grow -o grown.pb.gz 2>grown.err ||
        fail "cycprof pprof --follow on a growing dump: $(head -n 1 grown.err)"
    cmp -s grown.pb.gz whole.pb.gz || note "following a growing dump gave another profile"

    # Its writer stops before the end: one line, exit 1, no profile.
    head -c $a "$fdump" >cut
    { sleep 0.3; } | "$HELPER_BIN" pprof --per-function --follow cut -o cut.pb.gz 2>cut.err
    rc=$?
    [ $rc = 1 ] && [ "$(wc -l <cut.err)" = 1 ] && grep -q "^cycprof pprof: cut:[0-9]*: truncated dump" cut.err ||
        note "a followed dump cut short: want exit 1 and one 'truncated dump' line, got $rc: $(cat cut.err)"
    [ ! -e cut.pb.gz ] || note "a followed dump cut short left a profile"

    # The dump passes its size limit (1 MiB; its samples start at 0.6 MB)
    # while followed: the helper is stopped, one line says why, and
    # nothing is left but the callgrind file.
    mkdir limited && : >helper-args
    vg --tool=cycprof --cycprof-helper="$PWD/wrap.sh" --pprof-max-samples=40 --pprof-max-dump=1 \
        --cycprof-out-file="$PWD/limited/o" --log-file="$PWD/limited.log" "${PROG[@]}" >/dev/null 2>&1 ||
        note "valgrind failed when the followed dump passed its size limit"
    grep -q -- "--follow" helper-args || note "the size-limited dump was not followed: $(cat helper-args)"
    local msgs; msgs=$(grep -E '^==[0-9]+== cycprof: ' limited.log | grep -v ' wrote ')
    [ "$(echo "$msgs" | grep -c .)" = 1 ] && echo "$msgs" | grep -qF "cannot write the stacks dump" &&
        echo "$msgs" | grep -qF "size limit" ||
        note "a followed dump past its size limit: want one line about it, got: $msgs"
    [ "$(ls limited)" = o ] || note "a followed dump past its size limit left: $(ls limited | tr '\n' ' ')"

    # A line-level dump's sample count is in its last line: no following.
    "$HELPER_BIN" pprof --follow "$fdump" -o x.pb.gz </dev/null 2>usage.err
    rc=$?
    [ $rc = 2 ] && grep -q -- "--follow needs --per-function" usage.err ||
        note "--follow without --per-function: want exit 2 and a usage error, got $rc: $(cat usage.err)"
}
register pprof-dump-followed t_pprof_dump_followed

# A followed dump that is written before the helper gets to open it: a
# small per-function dump is done and renamed into place in a few
# milliseconds, which a loaded machine can take to start the helper.  A
# helper that starts 1 s late still converts it, and the profile is the
# one the complete dump gives.
t_pprof_dump_followed_late() {
    need_tool
    local fdump
    followed_run 1
}
register pprof-dump-followed-late t_pprof_dump_followed_late
