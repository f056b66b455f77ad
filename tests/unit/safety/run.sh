#!/usr/bin/env bash
# Robustness of the cycprof commands against hostile or odd input and
# outputs (issue 14): sums past 2^64, control characters on a terminal, a
# decompression bomb, exit codes and messages, outputs that are FIFOs or
# links, stacks too deep to convert in quadratic time.
# Usage: CYCPROF_BUILD=/abs/build/dir tests/unit/safety/run.sh
# Prints "ok NAME" / "FAIL NAME: reason" and exits non-zero if any failed.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init safety

# run NAME CMD...: stdout in NAME.out, stderr in NAME.err, status in RC
run() { local n=$1; shift; "$@" >"$n.out" 2>"$n.err"; RC=$?; }
# one_line NAME PATTERN: NAME.err is exactly one line and matches PATTERN
one_line() { [ "$(wc -l <"$1.err")" = 1 ] && grep -qE -- "$2" "$1.err"; }

# ------------------------------------------------------------ sums past 2^64
cat >max2.cg <<'CG'
# callgrind format
version: 1
events: Ir
fn=a
1 18446744073709551615
fn=b
2 18446744073709551615
CG
run ovf-report "$CYC" report max2.cg
if [ $RC = 1 ] && one_line ovf-report '2\^64-1' && ! grep -q '18,446,744,073,709,551,614' ovf-report.out; then
    ok sum-overflow-report
else
    bad sum-overflow-report "exit $RC, stderr: $(head -c 200 ovf-report.err), stdout: $(grep -m1 Total ovf-report.out)"
fi
run ovf-diff "$CYC" diff max2.cg max2.cg
if [ $RC = 1 ] && one_line ovf-diff '2\^64-1'; then ok sum-overflow-diff
else bad sum-overflow-diff "exit $RC, stderr: $(head -c 200 ovf-diff.err)"; fi

# a: self 2^63, calls b for 2^63: its inclusive cost is 2^64
cat >incl.cg <<'CG'
# callgrind format
version: 1
events: Ir
fn=a
1 9223372036854775808
cfn=b
calls=1 1
1 9223372036854775808
fn=b
1 1
CG
run ovf-incl "$CYC" report --inclusive incl.cg
if [ $RC = 1 ] && one_line ovf-incl '2\^64-1'; then ok sum-overflow-inclusive
else bad sum-overflow-inclusive "exit $RC, stderr: $(head -c 200 ovf-incl.err), stdout: $(grep -m1 'a$' ovf-incl.out)"; fi

# a change of more than 2^63-1 cannot be a signed number
printf '# callgrind format\nversion: 1\nevents: Ir\nfn=a\n1 18446744073709551615\n' >huge.cg
printf '# callgrind format\nversion: 1\nevents: Ir\nfn=a\n1 1\n' >tiny.cg
run big-change "$CYC" diff huge.cg tiny.cg
if [ $RC = 1 ] && one_line big-change '2\^63-1'; then ok diff-change-past-int64
else bad diff-change-past-int64 "exit $RC, stderr: $(head -c 200 big-change.err), stdout: $(grep -m1 Total big-change.out)"; fi

# ------------------------------------------------------------ control characters
ESC=$'\033'
printf '# callgrind format\nversion: 1\ncmd: evil%s[31mred\nevents: Ir\nfn=ev%s]0;pwned\007il\n1 5\n' "$ESC" "$ESC" >esc.cg
# on_tty OUTFILE CMD...: runs CMD with stdout and stderr on a pseudo-terminal
on_tty() {
    python3 - "$@" <<'PY'
import os, pty, sys
out = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
data = b""
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    data += d
os.waitpid(pid, 0)
open(out, "wb").write(data)
PY
}
on_tty esc-tty.out "$CYC" report esc.cg
if grep -qF 'ev\x1b]0;pwned\x07il' esc-tty.out && grep -qF 'evil\x1b[31mred' esc-tty.out &&
    ! grep -q "$ESC" esc-tty.out; then
    ok escapes-report-terminal
else
    bad escapes-report-terminal "$(grep -a 'ev' esc-tty.out | head -n 2 | cat -v | tr '\n' ' ')"
fi
"$CYC" report esc.cg >esc-pipe.out 2>&1
if grep -q "ev$ESC]0;pwned" esc-pipe.out; then ok escapes-only-on-terminal
else bad escapes-only-on-terminal "a name was changed in output to a pipe: $(grep -a ev esc-pipe.out | cat -v)"; fi
on_tty esc-err.out "$CYC" report "bad${ESC}[2Jname.cg"
if grep -qF 'bad\x1b[2Jname' esc-err.out && ! grep -q "$ESC" esc-err.out; then ok escapes-error-message
else bad escapes-error-message "$(cat -v esc-err.out | head -c 200)"; fi

# ------------------------------------------------------------ decompression bomb
python3 -c "
import gzip
with gzip.open('bomb.pb.gz', 'wb', compresslevel=9) as f:
    z = b'\0' * (1 << 20)
    for i in range(1024): f.write(z)
"
python3 - "$CYC" <<'PY' >bomb.result
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "folded", "bomb.pb.gz"], capture_output=True)
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(r.returncode, rss_mb, r.stderr.decode(errors="replace").count("\n"),
      r.stderr.decode(errors="replace").strip())
PY
read -r brc brss blines bmsg <bomb.result
if [ "$brc" = 1 ] && [ "$brss" -lt 256 ] && [ "$blines" = 1 ]; then ok bomb-refused-early
else bad bomb-refused-early "exit $brc, peak RSS ${brss} MB (want < 256), message: $bmsg"; fi

# ------------------------------------------------------------ exit codes, messages
printf '# callgrind format\nversion: 1\nevents: Ir\nfn=a\n1 5\n' >five.cg
run sort-empty "$CYC" report --sort= five.cg
[ $RC = 2 ] && one_line sort-empty 'sort' && ok usage-sort-empty ||
    bad usage-sort-empty "exit $RC (want 2): $(head -c 200 sort-empty.err)"
run sort-unknown "$CYC" report --sort=Dr five.cg
[ $RC = 2 ] && one_line sort-unknown "unknown event 'Dr'" && ok usage-sort-unknown ||
    bad usage-sort-unknown "exit $RC (want 2): $(head -c 200 sort-unknown.err)"
mkdir adir
run folded-dir "$CYC" folded adir
[ $RC = 1 ] && one_line folded-dir 'adir: is a directory' && ok folded-directory ||
    bad folded-directory "exit $RC: $(head -c 200 folded-dir.err)"
printf 'cycprof-stacks\t1\r\ncmd\tx\r\npid\t1\r\n' >crlf.stacks
run crlf "$CYC" pprof crlf.stacks -o crlf.pb.gz
[ $RC = 1 ] && one_line crlf 'crlf.stacks:1: line ends with CR LF' && [ ! -e crlf.pb.gz ] && ok crlf-dump ||
    bad crlf-dump "exit $RC: $(head -c 200 crlf.err)"
# running out of memory is not bad usage: status 1, one line (400,000
# functions read with 40 MB of address space)
python3 -c "
w = open('many.cg', 'w'); w.write('# callgrind format\\nversion: 1\\nevents: Ir\\n')
for i in range(400000): w.write('fn=function_with_a_long_name_%d\\n1 %d\\n' % (i, i + 1))
"
(ulimit -v 40000; "$CYC" report -n 1 many.cg >oom.out 2>oom.err); RC=$?
[ $RC = 1 ] && one_line oom '^cycprof: out of memory$' && ok out-of-memory-status ||
    bad out-of-memory-status "exit $RC (want 1): $(head -c 200 oom.err)"
if [ -n "$CARGO_CYC" ]; then
    mkdir empty && (cd empty && "$CARGO_CYC" cycprof --vg-opt= >../vgopt.out 2>../vgopt.err); RC=$?
    [ $RC = 2 ] && one_line vgopt "^cargo-cycprof: --vg-opt needs a valgrind option" && ok cargo-empty-vg-opt ||
        bad cargo-empty-vg-opt "exit $RC: $(head -c 200 vgopt.err)"
else
    bad cargo-empty-vg-opt "no built cargo-cycprof"
fi

# ------------------------------------------------------------ outputs
# A 300-deep chain dump (cut at 256 frames), written through a FIFO, a
# symlink and a link to /proc/self/fd/1.
python3 - <<'PY'
n = 300
L = ["cycprof-stacks\t1", "cmd\t./deep", "pid\t1", "duration_ns\t5", "total\t%d" % (n * (n + 1) // 2),
     "map\t1\t1000\t2000\t0\t/bin/deep", "fn\t1\t3\tmain\tmain\tdeep.c",
     "fn\t2\t5\tdown\tdown\tdeep.c", "loc\t1\t1\t1010\t1:4", "loc\t2\t1\t1020\t2:6",
     "node\t1\t0\t0", "node\t2\t1\t1"]
L += ["node\t%d\t%d\t2" % (i, i - 1) for i in range(3, n + 1)]
L += ["sample\t%d\t2\t1\t%d" % (i, i) for i in range(1, n + 1)]
L.append("end\t%d" % n)
open("chain.stacks", "w").write("\n".join(L) + "\n")
PY
# fifo_reader FIFO OUT: copies FIFO to OUT in the background (giving up
# after 120 s: a FIFO replaced by a file gets no writer) and returns once
# the reader waits on it, so that a writer finds it; its pid in READER.
fifo_reader() {
    timeout 120 cat "$1" >"$2" & READER=$!
    local i c
    for i in $(seq 200); do
        c=$(pgrep -P "$READER" cat | head -n 1)
        [ -n "$c" ] && [ "$(cat "/proc/$c/wchan" 2>/dev/null)" = wait_for_partner ] && return
        sleep 0.05
    done
}
mkfifo p.fifo
fifo_reader p.fifo p.copy; reader=$READER
run pprof-fifo "$CYC" pprof chain.stacks -o p.fifo
wait $reader
cp p.copy p.copy.pb.gz
if [ $RC = 0 ] && [ -p p.fifo ] && "$CYC" folded p.copy.pb.gz >chain.folded; then
    ok pprof-output-fifo
else
    bad pprof-output-fifo "exit $RC, $(head -c 200 pprof-fifo.err); p.fifo is $(stat -c %F p.fifo)"
fi
total=$(awk '{s += $NF} END {print s}' chain.folded 2>/dev/null)
deepest=$(awk '{n = gsub(/;/, ";"); if (n > m) m = n} END {print m + 1}' chain.folded 2>/dev/null)
[ "$total" = 45150 ] && [ "$deepest" = 256 ] && grep -q 'left out' chain.folded && ok deep-stack-cut ||
    bad deep-stack-cut "total $total (want 45150), deepest stack $deepest frames (want 256)"
mkfifo f.fifo
fifo_reader f.fifo f.copy; reader=$READER
run folded-fifo "$CYC" folded p.copy.pb.gz -o f.fifo
wait $reader
[ $RC = 0 ] && [ -p f.fifo ] && cmp -s f.copy chain.folded && ok folded-output-fifo ||
    bad folded-output-fifo "exit $RC, $(head -c 200 folded-fifo.err)"
mkdir real && ln -s real/p.pb.gz p.link
run pprof-link "$CYC" pprof chain.stacks -o p.link
[ $RC = 0 ] && [ -L p.link ] && [ -s real/p.pb.gz ] && ok pprof-output-symlink ||
    bad pprof-output-symlink "exit $RC, p.link is $(stat -c %F p.link), $(ls real)"
ln -s /proc/self/fd/1 stdout.link
"$CYC" flamegraph p.copy.pb.gz -o stdout.link >fg.out 2>fg.err; RC=$?
[ $RC = 0 ] && [ -L stdout.link ] && grep -q '</svg>' fg.out && ok flamegraph-output-stdout-link ||
    bad flamegraph-output-stdout-link "exit $RC, stdout.link is $(stat -c %F stdout.link), $(head -c 200 fg.err)"
left=$(ls | grep -E '\.tmp\.' | tr '\n' ' ')
[ -z "$left" ] && ok no-temporary-files || bad no-temporary-files "$left"

# ------------------------------------------------------------ linear conversion
# 1,000,000 nested nodes: the conversion must not be quadratic (a hang
# guard of 300 s, not a timing: quadratic conversion takes hours).
python3 - <<'PY'
n = 1000000
with open("million.stacks", "w") as f:
    f.write("cycprof-stacks\t1\ncmd\t./deep\npid\t1\nduration_ns\t5\ntotal\t%d\n" % n)
    f.write("map\t1\t1000\t2000\t0\t/bin/deep\nfn\t1\t3\tmain\tmain\tdeep.c\n")
    f.write("fn\t2\t5\tdown\tdown\tdeep.c\nloc\t1\t1\t1010\t1:4\nloc\t2\t1\t1020\t2:6\n")
    f.write("node\t1\t0\t0\nnode\t2\t1\t1\n")
    f.write("".join("node\t%d\t%d\t2\n" % (i, i - 1) for i in range(3, n + 1)))
    f.write("".join("sample\t%d\t2\t1\t1\n" % i for i in range(1, n + 1)))
    f.write("end\t%d\n" % n)
PY
timeout 300 "$CYC" pprof million.stacks -o million.pb.gz >million.out 2>million.err; RC=$?
mtotal=$("$CYC" folded million.pb.gz 2>/dev/null | awk '{s += $NF} END {print s}')
[ $RC = 0 ] && [ "$mtotal" = 1000000 ] && ok million-frames-convert ||
    bad million-frames-convert "exit $RC (124: still running after 300 s), total $mtotal, $(head -c 200 million.err)"

finish
