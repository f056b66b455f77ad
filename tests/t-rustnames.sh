# Names of inlined Rust frames in the pprof profile (docs/pprof.md, "Names
# of inlined frames").
#
# Oracle: the same program built without optimization, where the functions
# a release build inlines are real frames, named by their symbols. Every
# inlined frame of a function of the program's own sources whose function
# is a real frame of the debug profile (same source file and first line)
# must carry the debug build's name, and no inlined Rust frame at all may be
# a bare name that the debug build does not also show. Which functions are
# expected comes from the sources (grep of their definition lines), not
# from either profile.
#
# Functions of the precompiled standard library are left out of the name
# comparison: rustc names them two ways in one program (the library's own
# v0 symbol, which the release build's DWARF gives the inlined copy, and a
# legacy symbol for the debug build's local copy), see docs/pprof.md.
# shellcheck shell=bash

# rustnames_check REL_BASE DBG_BASE SOURCE OWN_FILES EXPECT...: the checks
# above on two tool runs; OWN_FILES: the basenames of the program's sources,
# comma-separated; each EXPECT is a pattern (grep -n -E) whose first line in
# SOURCE starts a function that the release build inlines.
rustnames_check() {
    local rel=$1 dbg=$2 src=$3 own=$4 want=() p n
    shift 4
    for p in "$@"; do
        n=$(grep -n -m1 -E "$p" "$src" | cut -d: -f1)
        [ -n "$n" ] || fail "test source $src has no line matching '$p'"
        want+=("$n")
    done
    go_env
    pycheck "$rel" "$dbg" "$(basename "$src")" "$own" "${want[@]}" <<'PY' || true
import os, sys
from cyc import *
C = Checker()
rel, dbg, src = sys.argv[1:4]
own = set(sys.argv[4].split(","))
want_lines = [int(x) for x in sys.argv[5:]]

def frames(pb):
    """(name, file basename, start line, inlined) of every frame of every
    location, innermost first."""
    out, err = pprof(["-raw"], pb)
    for fr in pprof_raw_locations(out.splitlines()).values():
        for i, (name, file, line, start) in enumerate(fr):
            yield (name, os.path.basename(file), start, i < len(fr) - 1)

rel_frames = set(frames(rel + ".pb.gz"))
dbg_frames = set(frames(dbg + ".pb.gz"))
dbg_real = {}
dbg_names = set()
for name, file, start, inl in dbg_frames:
    dbg_names.add(name)
    if not inl and file.endswith(".rs"):
        dbg_real.setdefault((file, start), set()).add(name)

matched = {}
for name, file, start, inl in sorted(rel_frames):
    if not inl or not file.endswith(".rs"):
        continue
    names = dbg_real.get((file, start)) if file in own else None
    if names:
        C.true(name in names, "inlined frame %r (%s:%d) is named %s in the debug build"
               % (name, file, start, " or ".join(sorted(names))))
        matched[(file, start)] = name
    C.true("::" in name or name in dbg_names,
           "inlined Rust frame %r (%s:%d) has no path, and the debug build has no such name"
           % (name, file, start))
for line in want_lines:
    C.true((src, line) in matched,
           "no inlined frame of the function at %s:%d that the debug build names %s (release inline frames there: %s)"
           % (src, line, sorted(dbg_real.get((src, line), [])),
              sorted(n for n, f, s, i in rel_frames if i and f == src and s == line)))
print("rustnames: %d inlined functions named as in the debug build: %s"
      % (len(matched), sorted(matched.values())))
C.done()
PY
}

# Both builds of a program: tool runs whose logs' totals equal the sum of
# their pprof samples (renaming frames moves no instruction).
rustnames_profile() {
    local b
    b=$(shared_profile -- "$@") || exit 1
    check_run "$b"
    echo "$b"
}

# An inherent generic method, a trait method, a closure of a module and two
# functions with unmangled symbols, inlined into one function by rustc -O.
t_rustnames_prog() {
    need_tool
    command -v rustc >/dev/null || fail "rustc not found (scripts/install-deps installs it)"
    local src=$TESTS_DIR/progs/rnames.rs rel dbg
    _locked prog-rnames-O rustc -O -g -o "$BIN/rnames-O" "$src" >"$W/cache/prog-rnames-O.log" 2>&1
    _locked prog-rnames-g rustc -g -C opt-level=0 -o "$BIN/rnames-g" "$src" >"$W/cache/prog-rnames-g.log" 2>&1
    [ -x "$BIN/rnames-O" ] && [ -x "$BIN/rnames-g" ] ||
        fail "cannot build rnames.rs: $(head -n 3 "$W/cache/prog-rnames-O.log" "$W/cache/prog-rnames-g.log")"
    rel=$(rustnames_profile "$BIN/rnames-O" 2000) || exit 1
    dbg=$(rustnames_profile "$BIN/rnames-g" 2000) || exit 1
    rustnames_check "$rel" "$dbg" "$src" rnames.rs '^ *pub fn add' 'fn step\(&self, x: u64\) -> u64 \{' 'let mix = \|' \
        'fn rnames_plain' 'pub fn exported'
}
register rustnames-prog t_rustnames_prog

# The bundled example (examples/fibonacci-rs), release with debug info as
# its Cargo.toml sets it: mat_mul and its closure, the region closures and
# the cycprof crate's region() are inlined. Also what the views derived
# from the profile show (cycprof folded, report --by=stack), and that the
# profile's total is still the run's.
t_rustnames_example() {
    need_tool
    command -v cargo >/dev/null || fail "cargo not found (scripts/install-deps installs it)"
    cp -r "$REPO_DIR/examples/fibonacci-rs" fib
    sed -i "s|path = \"../../cycprof/rust\"|path = \"$REPO_DIR/cycprof/rust\"|" fib/Cargo.toml
    (cd fib && CARGO_TARGET_DIR=$PWD/target cargo build --release --offline >../build-release.log 2>&1 &&
        CARGO_TARGET_DIR=$PWD/target cargo build --offline >../build-debug.log 2>&1) ||
        fail "cargo build failed: $(tail -n 3 build-release.log build-debug.log)"
    local src=$PWD/fib/src/main.rs rel dbg total
    rel=$(rustnames_profile "$PWD/fib/target/release/fibonacci-rs" 300) || exit 1
    dbg=$(rustnames_profile "$PWD/fib/target/debug/fibonacci-rs" 300) || exit 1
    rustnames_check "$rel" "$dbg" "$src" main.rs,lib.rs '^fn mat_mul' 'let m = \|'
    total=$(total_of_run "$rel") || fail "$total"
    "$HELPER_BIN" folded "$rel.pb.gz" >folded 2>folded.err || fail "cycprof folded: $(head -n 2 folded.err)"
    awk -v t="$total" '{ s += $NF } END { if (s != t) { print "folded: sum " s " != total " t; exit 1 } }' folded ||
        note "cycprof folded: counts do not add up to the run's total $total"
    # The closure's name has rustc's legacy form ({{closure}}) or, where rustc
    # mangles the crate with v0 (newer releases), {closure#0}: as its real frames.
    grep -qE 'fibonacci_rs::fib_matrix;fibonacci_rs::mat_mul;fibonacci_rs::mat_mul::(\{\{closure\}\}|\{closure#0\}) [0-9]' folded ||
        note "cycprof folded: no stack fibonacci_rs::fib_matrix;fibonacci_rs::mat_mul;fibonacci_rs::mat_mul::{{closure}}"
    "$HELPER_BIN" report --by=stack "$rel.pb.gz" >stacks 2>stacks.err || fail "cycprof report --by=stack: $(head -n 2 stacks.err)"
    grep -qE 'fibonacci_rs::mat_mul::(\{\{closure\}\}|\{closure#0\})' stacks ||
        note "cycprof report --by=stack does not show fibonacci_rs::mat_mul::{{closure}}"
}
register rustnames-example t_rustnames_example

# An object without .debug_aranges (LLVM does not always write it, and
# elfutils before 0.191 does not make up for it) still gets qualified
# names. Without the object's debug info the conversion keeps the tool's
# short names and still writes the whole profile.
t_rustnames_objects() {
    need_tool
    command -v rustc >/dev/null || fail "rustc not found (scripts/install-deps installs it)"
    rustc -O -g -o prog "$TESTS_DIR/progs/rnames.rs" >build.log 2>&1 || fail "cannot build rnames.rs: $(head -n 3 build.log)"
    cycprof "$PWD/cp" "$PWD/cp.log" --keep-stacks=yes -- "$PWD/prog" 2000 >out 2>&1 </dev/null ||
        fail "tool run failed: $(tail -n 3 cp.log)"
    local dump
    dump=$(ls cp.pb.gz.stacks.* 2>/dev/null | head -n 1)
    [ -n "$dump" ] || fail "--keep-stacks=yes kept no dump"
    objcopy --remove-section=.debug_aranges prog
    readelf -S prog | grep -q debug_aranges && fail "objcopy left .debug_aranges in"
    "$HELPER_BIN" pprof "$dump" -o noaranges.pb.gz 2>err || fail "cycprof pprof without .debug_aranges: $(head -n 2 err)"
    strip --strip-debug prog
    "$HELPER_BIN" pprof "$dump" -o stripped.pb.gz 2>err || fail "cycprof pprof on a stripped object: $(head -n 2 err)"
    rm -f prog
    "$HELPER_BIN" pprof "$dump" -o gone.pb.gz 2>err || fail "cycprof pprof with the object gone: $(head -n 2 err)"
    go_env
    pycheck cp.log noaranges.pb.gz stripped.pb.gz gone.pb.gz <<'PY' || true
import sys
from cyc import *
C = Checker()
want = refs_total(sys.argv[1])
for pb in sys.argv[2:]:
    types, samples = pprof_raw(pb)
    C.eq("%s: sum of samples" % pb, want, sum(s.value for s in samples))
    names = {f for s in samples for f in s.frames}
    closures = sorted(n for n in names if "closure" in n and len(n) < 60)[:8]
    if pb.startswith("noaranges"):
        C.true(("rnames::shapes::run::{{closure}}" in names or "rnames::shapes::run::{closure#0}" in names)
               and "{closure#0}" not in names,
               "%s: closures named %s" % (pb, closures))
    else:
        C.true("{closure#0}" in names, "%s: the short name {closure#0} is gone: %s" % (pb, closures))
C.done()
PY
}
register rustnames-objects t_rustnames_objects
