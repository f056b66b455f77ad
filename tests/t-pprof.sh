# E. The pprof file, read by go tool pprof: totals and per-function flat costs.
# shellcheck shell=bash

PP_PROGS=("split|split" "cxxexc|cxxexc 100" "signal|signal 100" "recurse|recurse 10"
    "gzip|/bin/gzip -6 -c TEXT" "python|/usr/bin/python3 -S -s PYSCRIPT")

t_pprof_totals_and_flat() {
    need_tool
    local p b want
    for p in "${PP_PROGS[@]}"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b"
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        pycheck "$b" "${p%%|*}" "$want" <<'PY' || true
import sys, collections
from cyc import *
C = Checker()
b, label, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
types, samples = pprof_raw(b + ".pb.gz")
tot = sum(s.value for s in samples)
C.eq("%s: sum of pprof samples (-raw) vs lackey" % label, want, tot)
r = parse_callgrind(b)
C.eq("%s: sum of pprof samples vs callgrind file total" % label, r.self_total, tot)
# flat per function: leaf location's symbol function (outermost line), as -noinlines does
flat = collections.Counter()
for s in samples:
    flat[norm_fn(s.symframes[0]) if s.symframes else "??"] += s.value
cgself = r.fn_self
d = sorted(((abs(flat[k] - cgself[k]), k) for k in set(flat) | set(cgself) if flat[k] != cgself[k]), reverse=True)
C.true(not d, "%s: pprof flat != callgrind self for %d functions, e.g. %s" % (
    label, len(d), ["%s pprof=%d callgrind=%d" % (k, flat[k], cgself[k]) for x, k in d[:3]]))
# the same through -top -noinlines (real reader's own aggregation), when values print unscaled
try:
    top = pprof_top(b + ".pb.gz", "-noinlines")
except ValueError as e:
    C.fail("%s: cannot read exact values from -top: %s" % (label, e))
    top = {}
if top:
    ttot = sum(v[0] for v in top.values())
    C.eq("%s: sum of -top flat vs lackey" % label, want, ttot)
    byname = collections.Counter()
    for k, v in top.items():
        byname[norm_fn(k)] += v[0]
    d2 = [k for k in set(byname) | set(cgself) if k != UNKNOWN and byname[k] != cgself[k]]
    C.true(not d2, "%s: -top flat != callgrind self for %d functions, e.g. %s" % (
        label, len(d2), ["%s top=%d callgrind=%d" % (k, byname[k], cgself[k]) for k in d2[:3]]))
C.done()
PY
    done
}
register pprof-totals-and-flat t_pprof_totals_and_flat

t_pprof_inline() {
    need_tool; need_prog inl
    local b; b=$(shared_profile -- "$BIN/inl" 5000)
    check_run "$b"
    sc inline "$b.pb.gz"
}
register pprof-inline-frames t_pprof_inline

# Inline info is read for the objects that carry their own DWARF (inl, built
# with -g) and not, unless asked, for those whose DWARF is a separate debug
# file (libc's, from libc6-dbg), which cost about 0.13 s a run to read. So by
# default no libc location has an inlined frame while inl's do; with
# --read-inline-info=yes libc's have them too, inl's locations are the same
# and so is the callgrind file.
t_inline_info_own_dwarf() {
    need_tool; need_prog inl
    local d a
    d=$(shared_profile -- "$BIN/inl" 5000)
    a=$(shared_profile --read-inline-info=yes -- "$BIN/inl" 5000)
    check_run "$d"; check_run "$a"
    pycheck "$d" "$a" <<'PY'
import os, re, sys
from cyc import *
C = Checker()
def inlined_by_object(pb):
    """{mapped file: [locations, locations with an inlined frame]}"""
    out, err = pprof(["-raw"], pb)
    files, frames, section, loc = {}, {}, None, None
    for line in out.splitlines():
        if line.startswith(("Locations", "Mappings")):
            section = line.split()[0]
            continue
        m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ M=(\d+) ", line)
        if section == "Locations" and m:
            loc = (int(m.group(2)), int(m.group(1)))
            frames[loc] = 1
        elif section == "Locations" and loc and line.startswith("             ") and line.strip():
            frames[loc] += 1
        m = re.match(r"^(\d+): \S+ (\S+)", line)
        if section == "Mappings" and m:
            files[int(m.group(1))] = m.group(2)
    by = {}
    for (mapping, _), n in frames.items():
        row = by.setdefault(files.get(mapping, "?"), [0, 0])
        row[0] += 1
        row[1] += n > 1
    return by
d, a = sys.argv[1], sys.argv[2]
bd, ba = inlined_by_object(d + ".pb.gz"), inlined_by_object(a + ".pb.gz")
libc = [f for f in ba if re.search(r"/libc\.so", f)]
prog = [f for f in bd if f.endswith("/inl")]
C.true(prog and bd[prog[0]][1] > 0, "inl: no location with an inlined frame by default (%s)" % bd)
if not libc or ba[libc[0]][1] == 0:
    if not C.fails:  # what the test is about cannot be seen on this host
        why = "libc has no inline info here (libc6-dbg not installed)"
        open(os.environ["SKIP_FILE"], "a").write(why + "\n")
        print("SKIP: " + why)
    C.done()
C.eq("libc locations with an inlined frame by default", 0, bd.get(libc[0], [0, 0])[1])
C.eq("inl's locations, default vs --read-inline-info=yes", ba[prog[0]], bd[prog[0]])
strip = lambda p: [l for l in open(p) if not l.startswith(("pid:", "cmd:", "creator:"))]
C.true(strip(d) == strip(a), "the callgrind files differ between the default and --read-inline-info=yes")
C.done()
PY
}
register inline-info-own-dwarf t_inline_info_own_dwarf

# go tool pprof -lines (per source line, innermost inlined line first) gives the
# same per-line self costs as the callgrind-format file of the same run, whose
# per-line costs t-callgrind.sh checks against cachegrind. Line 0 (no debug
# info) is one bucket on both sides. Also: one sample per distinct stack.
t_pprof_lines_exact() {
    need_tool
    local p b want
    for p in "${PP_PROGS[@]}" "inl|inl 5000"; do
        cg_prog "$p"
        b=$(shared_profile -- "${PROG[@]}")
        check_run "$b"
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        pycheck "$b" "${p%%|*}" "$want" <<'PY' || true
import sys, collections
from cyc import *
C = Checker()
b, label, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
pl = pprof_lines(b + ".pb.gz")
cl = callgrind_line_self(b)
C.eq("%s: sum of -top -lines flat vs lackey" % label, want, sum(pl.values()))
d = sorted(k for k in set(pl) | set(cl) if pl[k] != cl[k])
C.true(not d, "%s: -lines per-line flat != callgrind-format per-line self cost on %d lines, e.g. %s" % (
    label, len(d), ["%s:%s pprof=%d callgrind=%d" % (k[0], k[1], pl[k], cl[k]) for k in d[:3]]))
C.true(sum(v for k, v in cl.items() if k[1]) > 0, "%s: no cost on any source line" % label)
types, samples = pprof_raw(b + ".pb.gz")
seen = collections.Counter((tuple(s.locs), tuple(sorted((k, tuple(v)) for k, v in s.labels.items())))
                           for s in samples)
dup = [k for k, n in seen.items() if n > 1]
C.true(not dup, "%s: %d stacks appear in more than one sample (-raw), e.g. %s" % (label, len(dup), dup[:1]))
C.done()
PY
    done
}
register pprof-lines-exact t_pprof_lines_exact

# --pprof-granularity=instr: one location per instruction address (as before
# line granularity existed): more locations, more samples, the same totals,
# the same per-line and per-function figures, and each location is one address
# whose -addresses row sums what ran there.
t_pprof_granularity_instr() {
    need_tool
    local p bl bi want
    for p in "inl|inl 5000" "gzip|/bin/gzip -6 -c TEXT"; do
        cg_prog "$p"
        bl=$(shared_profile -- "${PROG[@]}")
        bi=$(shared_profile --pprof-granularity=instr -- "${PROG[@]}")
        check_run "$bl" pb
        check_run "$bi" pb
        want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
        pycheck "$bl" "$bi" "${p%%|*}" "$want" <<'PY' || true
import sys, re
from cyc import *
C = Checker()
bl, bi, label, want = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def raw_locations(pb):
    """(address, first function) of each location: code without a symbol is
    named after its context (docs/pprof.md), so one address may have a
    location per name."""
    out, err = pprof(["-raw"], pb)
    return re.findall(r"^\s*\d+: (0x[0-9a-f]+) (?:M=\d+ )?(\S+)", out.split("Locations", 1)[1], re.M)
tl, sl = pprof_raw(bl + ".pb.gz")
ti, si = pprof_raw(bi + ".pb.gz")
C.eq("%s: instr: sum of samples vs lackey" % label, want, sum(s.value for s in si))
C.eq("%s: line: sum of samples vs lackey" % label, want, sum(s.value for s in sl))
al, ai = raw_locations(bl + ".pb.gz"), raw_locations(bi + ".pb.gz")
C.true(len(ai) > len(al), "%s: instr has %d locations, line %d: expected more per address" % (
    label, len(ai), len(al)))
C.true(len(si) > len(sl), "%s: instr has %d samples, line %d: expected more" % (label, len(si), len(sl)))
real = [a for a in ai if int(a[0], 16)]
C.eq("%s: instr: distinct (address, function) among %d locations" % (label, len(real)), len(real), len(set(real)))
C.true(pprof_lines(bl + ".pb.gz") == pprof_lines(bi + ".pb.gz"),
       "%s: -lines differs between line and instr granularity" % label)
tl_, ti_ = pprof_top(bl + ".pb.gz", "-noinlines"), pprof_top(bi + ".pb.gz", "-noinlines")
C.true(tl_ == ti_, "%s: -top -noinlines differs between line and instr granularity" % label)
C.done()
PY
    done
}
register pprof-granularity-instr t_pprof_granularity_instr

# python3 running real code (scripts/bench.d/pywork.py, ~650 million
# instructions): go tool pprof -http serves the flame graph of its profile.
t_pprof_python_flamegraph() {
    need_tool
    RUN_ENV=("${PY_ENV[@]}")
    local b py=$REPO_DIR/scripts/bench.d/pywork.py
    b=$(shared_profile -- /usr/bin/python3 -S -s "$py" 1)
    check_run "$b"
    local total
    total=$(total_of_run "$b") || fail "$total"
    pycheck "$b" "$total" <<'PY' || true
import sys, os, signal, socket, subprocess, time, urllib.request
from cyc import *
C = Checker()
b, total = sys.argv[1], int(sys.argv[2])
pb = b + ".pb.gz"
t0 = time.time()
top = pprof_top(pb)
C.eq("python3: sum of -top flat vs the tool's total", total, sum(v[0] for v in top.values()))
print("python3: -top took %.1f s for %d nodes" % (time.time() - t0, len(top)))
names = [k for k, v in sorted(top.items(), key=lambda kv: -kv[1][0]) if norm_fn(k) != UNKNOWN][:5]
C.true("_PyEval_EvalFrameDefault" in top, "python3: no _PyEval_EvalFrameDefault in -top")
env = dict(os.environ, HOME=os.environ.get("GO_HOME", os.environ.get("HOME", "")))
page = None
for attempt in range(3):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    t0 = time.time()
    # own process group: `go tool` runs pprof as a child, and both must go
    log = open("pprof-http-%d.log" % port, "w+")
    srv = subprocess.Popen(["go", "tool", "pprof", "-symbolize=none", "-no_browser",
                            "-http=127.0.0.1:%d" % port, pb], env=env, stdout=log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    try:
        while time.time() - t0 < 60 and srv.poll() is None:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/ui/flamegraph" % port, timeout=60) as r:
                    page = (r.status, r.read().decode("utf-8", "replace"))
                break
            except OSError:
                time.sleep(0.5)
    finally:
        os.killpg(srv.pid, signal.SIGKILL)
        srv.wait()
    if page:
        print("python3: flame graph answered in %.1f s (%d bytes)" % (time.time() - t0, len(page[1])))
        break
    log.seek(0)
    print("python3: go tool pprof -http on port %d: %s" % (port, log.read()[-300:]))
if not page:
    C.fail("python3: go tool pprof -http never served /ui/flamegraph within 60 s")
else:
    C.eq("python3: HTTP status of /ui/flamegraph", 200, page[0])
    missing = [n for n in names + ["_PyEval_EvalFrameDefault"] if n not in page[1]]
    C.true(not missing, "python3: flame graph page lacks the functions %s" % missing)
C.done()
PY
}
register pprof-python-flamegraph t_pprof_python_flamegraph

# A Rust release build (rustc -O -g): mix() and step() are inlined into hot()
# and show as '(inline)' frames above it in -traces, carrying their cost.
t_pprof_rust_inline() {
    need_tool
    command -v rustc >/dev/null ||
        fail "rustc not found: this test needs a Rust toolchain (scripts/install-deps installs Debian's rustc)"
    need_prog rinline
    local b want
    b=$(shared_profile -- "$BIN/rinline" 5000)
    check_run "$b"
    # Not lackey: Rust's runtime parses /proc/self/maps at start-up
    # (pthread_getattr_np), and that file differs from one Valgrind tool to
    # another, so the count does too (by ~2,000 instructions of sscanf).
    want=$(total_of_run "$b") || fail "$want"
    pycheck "$b" "$want" <<'PY' || true
import sys
from cyc import *
C = Checker()
b, want = sys.argv[1], int(sys.argv[2])
tr = pprof_traces(b + ".pb.gz")
C.eq("rinline: sum of -traces values vs the tool's total", want, sum(value_int(v) for v, fr, lab in tr))
C.eq("rinline: sum of -traces values vs the callgrind-format file", parse_callgrind(b).self_total,
     sum(value_int(v) for v, fr, lab in tr))
chain = 0
for v, fr, lab in tr:
    f = [x.strip() for x in fr]
    for i in range(len(f) - 2):
        if (f[i] == "mix (inline)" or fn_matches(f[i], "mix") and f[i].endswith("(inline)")) \
                and fn_matches(f[i + 1], "step") and f[i + 1].endswith("(inline)") \
                and fn_matches(f[i + 2], "hot") and not f[i + 2].endswith("(inline)"):
            chain += value_int(v)
            break
# each of the 5000 iterations runs mix's instructions (shift, xor, multiply)
C.true(chain >= 3 * 5000, "rinline: stacks with 'mix (inline)' -> 'step (inline)' -> hot in -traces "
       "hold %d instructions, expected >= 15000" % chain)
C.done()
PY
}
register pprof-rust-inline t_pprof_rust_inline

# A profile with more line-level samples than --pprof-max-samples (a compiler's
# has millions; go tool pprof needs ~80 bytes per frame) is written per function,
# then with the smallest contexts merged under a marker frame: the log says so,
# the sample count obeys the limit (or is one per leaf function), totals (lackey) and flat per function (the
# callgrind file's self costs) stay exact, and function granularity alone leaves
# every function's cum as the line-level profile has it.
t_pprof_coarsened() {
    need_tool
    local line fn small n want
    cg_prog "python|/usr/bin/python3 -S -s PYSCRIPT"
    line=$(shared_profile -- "${PROG[@]}")
    check_run "$line"
    grep -q "pprof-max-samples" "$line.log" && fail "a small profile was coarsened: $(grep pprof-max "$line.log")"
    n=$(PYTHONPATH="$TESTS_DIR/lib" python3 -c 'import sys; from cyc import pprof_raw; print(len(pprof_raw(sys.argv[1])[1]))' "$line.pb.gz")
    fn=$(shared_profile --pprof-max-samples=$((n - 1)) -- "${PROG[@]}")
    small=$(shared_profile --pprof-max-samples=40 -- "${PROG[@]}")
    check_run "$fn"
    check_run "$small"
    want=$(lackey_total "${PROG[@]}") || fail "lackey failed"
    pycheck "$line" "$fn" "$small" "$want" "$n" <<'PY' || true
import sys, collections
from cyc import *
C = Checker()
line, fn, small, want, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
cgself = parse_callgrind(line).fn_self
sizes = []
for b, limit, merged in ((fn, n - 1, False), (small, 40, True)):
    log = open(b + ".log").read()
    C.true("written at function granularity" in log and "--pprof-max-samples=0 keeps every line" in log,
           "%s: no log line saying the pprof profile was coarsened and how to turn it off" % b)
    C.eq("%s: log says contexts were merged" % b, merged, "merged into their callers" in log)
    types, samples = pprof_raw(b + ".pb.gz")
    # The limit gives way only to one sample per leaf function and thread.
    leaves = len({(s.locs[0], s.labels.get("thread") and tuple(s.labels["thread"])) for s in samples})
    C.true(0 < len(samples) <= max(limit, leaves), "%s: %d samples, limit %d, %d leaves" % (
        b, len(samples), limit, leaves))
    sizes.append(len(samples))
    C.eq("%s: sum of samples vs lackey" % b, want, sum(s.value for s in samples))
    flat = collections.Counter()
    for s in samples:
        flat[norm_fn(s.symframes[0]) if s.symframes else "??"] += s.value
    d = sorted(k for k in set(flat) | set(cgself) if flat[k] != cgself[k])
    C.true(not d, "%s: flat != callgrind self for %d functions, e.g. %s" % (
        b, len(d), ["%s pprof=%d callgrind=%d" % (k, flat[k], cgself[k]) for k in d[:3]]))
    C.eq("%s: a marker frame where contexts were merged" % b, merged,
         any("(contexts under the merge threshold)" in f for s in samples for f in s.symframes))
C.true(sizes[1] < sizes[0], "merging left %d samples, function granularity alone %d" % (sizes[1], sizes[0]))
ref = pprof_top(line + ".pb.gz", "-noinlines")
got = pprof_top(fn + ".pb.gz", "-noinlines")
d = sorted(k for k in set(ref) | set(got) if ref.get(k, (0, 0))[1] != got.get(k, (0, 0))[1])
C.true(not d, "function granularity changed cum of %d functions, e.g. %s" % (
    len(d), ["%s line=%s fn=%s" % (k, ref.get(k), got.get(k)) for k in d[:3]]))
C.done()
PY
}
register pprof-coarsened t_pprof_coarsened

# A profile that decompresses past the bomb limit (192 MiB) but only a few times its
# own size is a real profile, not a bomb: cycprof folded reads it. (A compiler's
# line-level profile is 50 MB compressed, 665 MB decompressed.) Built by hand: one
# sample in a function whose file name is 200 MB of random bytes, stored uncompressed.
t_pprof_large_profile_read() {
    need_tool
    python3 - large.pb.gz <<'PY' || fail "cannot build the large profile"
import base64, gzip, os, sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n: return bytes(out)
def field(num, payload):        # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload
def vfield(num, v):
    return varint(num << 3) + varint(v)
strings = [b"", b"instructions", b"count", b"big_function", base64.b64encode(os.urandom(150 << 20))]
prof = field(1, vfield(1, 1) + vfield(2, 2))                      # sample_type
prof += field(2, field(1, varint(1)) + field(2, varint(12345)))  # sample: loc 1, value
prof += field(4, vfield(1, 1) + field(4, vfield(1, 1) + vfield(2, 7)))   # location 1 -> fn 1 line 7
prof += field(5, vfield(1, 1) + vfield(2, 3) + vfield(3, 3) + vfield(4, 4))  # function 1
for s in strings:
    prof += field(6, s)
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(prof)
PY
    local out
    out=$("$HELPER_BIN" folded large.pb.gz 2>err.txt) || fail "cycprof folded refused a real profile: $(cat err.txt)"
    [ "$out" = "big_function 12345" ] || fail "cycprof folded printed '$out', want 'big_function 12345'"
}
register pprof-large-profile-read t_pprof_large_profile_read
