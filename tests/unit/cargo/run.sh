#!/usr/bin/env bash
# Tests of `cargo cycprof` (cycprof/cli/cargo/cargo_cycprof.c, docs/cli/cargo-cycprof.md)
# on examples/fibonacci-rs and on small cargo projects made here.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/cargo/run.sh
#
# Prints 'ok NAME' / 'FAIL NAME: reason' per test and exits non-zero if any
# failed. Needs cargo (the runs are skipped without it), valgrind with the
# built tool (CYCPROF_BUILD/vg-lib), callgrind_annotate and go for the
# readers. Oracles: the program's own result computed here in awk, row
# counts, and the real readers (callgrind_annotate, go tool pprof).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init cargo
REPO=$SUITE_REPO
# cargo and rustup need the real home (toolchains); go gets a scratch one.
REAL_HOME=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
[ -d "$REAL_HOME/.cargo/bin" ] && PATH="$PATH:$REAL_HOME/.cargo/bin"
export GOCACHE=$T/gocache GOFLAGS=-mod=mod GOTOOLCHAIN=local \
       PPROF_TMPDIR=$T/pprof-tmp PPROF_BINARY_PATH=$T/no-binaries
export CARGO_TARGET_DIR=$T/target
one_line() { tr '\n' ' ' <"$1" | head -c 300; }

if [ -z "$CARGO_CYC" ]; then
    bad setup "no built cargo-cycprof under CYCPROF_BUILD=$CYCPROF_BUILD"; finish
fi
# cargo-cycprof finds cycprof next to itself; valgrind finds the tool here.
export VALGRIND_LIB=$VGLIB PATH="$(dirname "$CARGO_CYC"):$PATH"
# As cargo runs it: `cargo-cycprof cycprof ARGS`, with the real home.
cc() { HOME=$REAL_HOME "$CARGO_CYC" cycprof "$@"; }

if "$CARGO_CYC" cycprof --help | grep -q '^usage: cargo cycprof'; then ok help
else bad help "no usage text"; fi

# ---------------------------------------------------------------- errors before any build
# NAME RC REGEX [VAR=VALUE...] -- ARGS: exit RC (2 bad usage, 1 cannot
# run: issue 14's classes), exactly one line on stderr.
expect_err() {
    local name=$1 want=$2 re=$3; shift 3
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env ${envs[@]+"${envs[@]}"} HOME="$REAL_HOME" "$CARGO_CYC" cycprof "$@" >e.out 2>e.err
    local rc=$?
    if [ $rc != "$want" ]; then bad "$name" "exit $rc, want $want: $(one_line e.err)"
    elif [ "$(wc -l <e.err)" != 1 ]; then bad "$name" "stderr is not one line: $(one_line e.err)"
    elif ! grep -Eq "$re" e.err; then bad "$name" "stderr '$(cat e.err)' does not match /$re/"
    elif grep -q Compiling e.err; then bad "$name" "built before failing"
    else ok "$name"; fi
}
mkdir -p "$T/nocargo" && cd "$T/nocargo" || exit 1
d=$T/nocargo; while [ "$d" != / ] && [ ! -e "$d/Cargo.toml" ]; do d=$(dirname "$d"); done
if [ -e "$d/Cargo.toml" ]; then skip err-not-cargo-project "the scratch folder lies inside a cargo project ($d/Cargo.toml)"
else expect_err err-not-cargo-project 1 "^cargo-cycprof: not inside a cargo project \(no Cargo.toml in $T/nocargo or any parent" --; fi

if ! command -v cargo >/dev/null; then
    skip cargo-runs "cargo is not installed (scripts/install-deps installs it)"; finish
fi
if [ ! -f "$VGLIB/cycprof-amd64-linux" ]; then
    bad setup "the cycprof tool is not built ($VGLIB/cycprof-amd64-linux)"; finish
fi

mkdir -p "$T/fib" && cp -r "$REPO/examples/fibonacci-rs/." "$T/fib/" && rm -rf "$T/fib/target" "$T"/fib/cycprof.out.*
# The copy still uses the repository's cycprof crate.
sed -i "s|path = \"../../cycprof/rust\"|path = \"$REPO/cycprof/rust\"|" "$T/fib/Cargo.toml"
cd "$T/fib" || exit 1
expect_err err-unknown-event 2 "^cargo-cycprof: unknown event 'Xx' in --sort" -- --sort Xx
expect_err err-unknown-event-eq 2 "^cargo-cycprof: unknown event 'Xy' in --sort" -- --sort=Ir,Xy
expect_err err-bad-n 2 "^cargo-cycprof: -n/--top needs a number of rows, got 'abc'" -- -n abc
expect_err err-dev-release 2 "^cargo-cycprof: --dev conflicts" -- --dev --release
expect_err err-vg-opt-empty 2 "^cargo-cycprof: --vg-opt needs a valgrind option starting with '-', got ''$" -- --vg-opt=
expect_err err-top-missing 2 "^cargo-cycprof: -n/--top needs a number of rows$" -- --top
# valgrind missing: a PATH with cargo only.
mkdir -p "$T/onlycargo" && ln -sf "$(command -v cargo)" "$T/onlycargo/cargo"
expect_err err-no-valgrind 1 "^cargo-cycprof: valgrind not found on PATH" PATH="$T/onlycargo" --
expect_err err-no-tool 1 "^cargo-cycprof: valgrind has no cycprof tool" VALGRIND_LIB="$T/none" --

# ---------------------------------------------------------------- fibonacci-rs
# fib(k) mod 1e9+7, computed here: the program's result is checked, not only
# that it ran.
fibmod() { awk -v n="$1" 'BEGIN { a = 0; b = 1; for (i = 0; i < n; i++) { t = (a + b) % 1000000007; a = b; b = t } print a }'; }
rows() { # the report rows of stdout file $1
    awk '/file:function$/ { t = 1; next } t && /^$/ { exit } t { print }' "$1"
}
cc --release -n 3 --sort Ir -o prof/run1 -- 300 >out.txt 2>err.txt
rc=$?
want="fib(300) mod 1000000007 = $(fibmod 300) "
if [ $rc != 0 ]; then bad fib-run "exit $rc: $(tail -n 3 err.txt | tr '\n' ' ')"
elif ! grep -qF "$want" out.txt; then bad fib-run "program output is not '$want...': $(grep '^fib' out.txt)"
else ok "fib-run ($want)"; fi
n=$(rows out.txt | wc -l)
[ "$n" = 3 ] && ok fib-n-3-rows || bad fib-n-3-rows "expected 3 rows, got $n"
# The three ways are the three costliest functions, each one row.
got=$(rows out.txt | sed -n 's/.*:fibonacci_rs::\(fib_[a-z]*\) .*/\1/p' | sort | tr '\n' ' ')
[ "$got" = "fib_batched fib_iterative fib_matrix " ] && ok fib-three-functions ||
    bad fib-three-functions "top rows: '$got'"
grep -q '^Event sort order: Ir$' out.txt && ok fib-sort-ir || bad fib-sort-ir "no 'Event sort order: Ir'"
# The region table after the report: each method in its region (the
# cycprof crate), called once per k, costing at least its function's row.
regions=$(awk '/^Regions \(/ { t = 1; next } t && /^fib_/ { print $1, $2, $3 }' out.txt | sort)
fn_cost() { rows out.txt | awk -v f="fibonacci_rs::$1 " 'index($0, f) { gsub(/,/, "", $1); print $1 }'; }
bad_region=
for f in fib_batched fib_iterative fib_matrix; do
    row=$(echo "$regions" | awk -v f="$f" '$1 == f { gsub(/,/, "", $3); print $2, $3 }')
    [ "${row%% *}" = 301 ] && [ "${row#* }" -ge "$(fn_cost "$f")" ] || bad_region="$bad_region $f:'$row'"
done
[ -z "$bad_region" ] && ok fib-region-table || bad fib-region-table "region rows:$bad_region (table: $regions)"
grep -q '^Command: .*/release/fibonacci-rs 300$' out.txt && ok fib-release-build ||
    bad fib-release-build "$(grep '^Command' out.txt)"

# --deterministic: the run gets valgrind's --deterministic=yes, which the
# callgrind file records; two such runs count the same.
for i in 1 2; do
    cc --release --no-report --deterministic -o "prof/det$i" -- 30 >"det$i.out" 2>"det$i.err" ||
        bad fib-deterministic "run $i exited non-zero: $(tail -n 2 "det$i.err" | tr '\n' ' ')"
done
d1=$(ls prof/det1/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$')
d2=$(ls prof/det2/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$')
if ! grep -qx 'desc: Deterministic: yes, seed 0, epoch 1700000000' "$d1" 2>/dev/null; then
    bad fib-deterministic "the callgrind file does not record --deterministic=yes"
elif [ "$(grep '^summary:' "$d1")" != "$(grep '^summary:' "$d2")" ]; then
    bad fib-deterministic "two runs count $(grep '^summary:' "$d1") and $(grep '^summary:' "$d2")"
else
    ok "fib-deterministic ($(grep '^summary:' "$d1"))"
fi

# --deterministic without -o: the files go to <target dir>/cycprof, not
# into the working folder, so the valgrind log has no warning and a
# program that lists its folder sees the same listing, and counts the
# same, on both runs. The project's own target/ (CARGO_TARGET_DIR unset),
# made by the build before either run.
mkdir -p "$T/lsdir/src" && cd "$T/lsdir" || exit 1
printf '[package]\nname = "lsdir"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' >Cargo.toml
cat >src/main.rs <<'RS'
fn main() {
    let mut names: Vec<String> = std::fs::read_dir(".").unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    println!("{} entries: {}", names.len(), names.join(" "));
}
RS
for i in 1 2; do
    (unset CARGO_TARGET_DIR; cc --no-report --deterministic >"$T/ls$i.out" 2>"$T/ls$i.err") ||
        bad lsdir-deterministic "run $i exited non-zero: $(tail -n 2 "$T/ls$i.err" | tr '\n' ' ')"
done
l1=$(ls "$T"/lsdir/target/cycprof/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$' | head -n 1)
l2=$(ls "$T"/lsdir/target/cycprof/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$' | tail -n 1)
if [ -z "$l1" ] || [ "$l1" = "$l2" ]; then
    bad lsdir-deterministic "not two callgrind files in target/cycprof: $(ls "$T"/lsdir "$T"/lsdir/target/cycprof 2>&1 | tr '\n' ' ')"
elif grep -q 'cycprof: warning' "$T/ls1.err" "$T/ls2.err"; then
    bad lsdir-deterministic "$(grep -h -m1 'cycprof: warning' "$T/ls1.err" "$T/ls2.err" | head -n 1)"
elif ! cmp -s <(grep entries "$T/ls1.out") <(grep entries "$T/ls2.out"); then
    bad lsdir-deterministic "the program listed '$(grep entries "$T/ls1.out")', then '$(grep entries "$T/ls2.out")'"
elif ! grep -q "^  $l1 *callgrind" "$T/ls1.out" "$T/ls2.out"; then
    bad lsdir-deterministic "the output does not name $l1"
elif [ "$(grep '^summary:' "$l1")" != "$(grep '^summary:' "$l2")" ]; then
    bad lsdir-deterministic "two runs count $(grep '^summary:' "$l1") and $(grep '^summary:' "$l2")"
else
    ok "lsdir-deterministic ($(grep entries "$T/ls1.out"); $(grep '^summary:' "$l1"))"
fi
cd "$T/fib" || exit 1

# -o DIR: both files in DIR (created), named in the output, readable by
# the real readers.
cg=$(ls prof/run1/cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$')
if [ "$(echo "$cg" | wc -w)" != 1 ] || [ ! -f "$cg.pb.gz" ]; then
    bad fib-o-dir "prof/run1 holds: $(ls prof/run1 2>&1 | tr '\n' ' ')"
elif ! grep -q "^  $cg  *callgrind" out.txt || ! grep -q "^  $cg.pb.gz  *pprof" out.txt; then
    bad fib-o-dir "output does not name $cg and $cg.pb.gz: $(grep -A2 '^Profile files' out.txt | tr '\n' ' ')"
elif ls cycprof.out.* >/dev/null 2>&1; then
    bad fib-o-dir "files also written to the current directory"
else
    ok fib-o-dir
    # callgrind_annotate's own row for fib_iterative equals ours.
    a=$( (cd / && callgrind_annotate --auto=no --threshold=100 "$T/fib/$cg") 2>&1 |
        awk '/:fibonacci_rs::fib_iterative / { gsub(/,/, "", $1); print $1; exit }')
    c=$(rows out.txt | awk '/fib_iterative/ { gsub(/,/, "", $1); print $1 }')
    [ -n "$a" ] && [ "$a" = "$c" ] && ok "fib-callgrind-annotate-reads ($a)" ||
        bad fib-callgrind-annotate-reads "callgrind_annotate '$a', cargo cycprof '$c'"
    if command -v go >/dev/null; then
        # pprof's flat count for fib_batched is its self cost: the same
        # number (not fib_matrix: pprof counts the inlined mat_mul apart).
        p=$(HOME=$T/home go tool pprof -top -symbolize=none "$cg.pb.gz" 2>/dev/null |
            awk '/fibonacci_rs::fib_batched$/ { print $1; exit }')
        m=$("$CYC" report -n 0 --threshold=0 --show-percs=no "$cg" |
            awk '/fibonacci_rs::fib_batched / { gsub(/,/, "", $1); print $1 }')
        [ -n "$p" ] && [ "$p" = "$m" ] && ok "fib-pprof-reads ($p)" ||
            bad fib-pprof-reads "go tool pprof -top '$p', cycprof report '$m'"
    else
        skip fib-pprof-reads "go is not installed (scripts/install-deps installs golang-go)"
    fi
fi

# Default: files in the current directory; -n=N and --top N spellings.
cc -n=2 -- 50 >out2.txt 2>err2.txt; rc=$?
n=$(rows out2.txt | wc -l)
f=$(ls cycprof.out.* 2>/dev/null | grep -v '\.pb\.gz$')
if [ $rc = 0 ] && [ "$n" = 2 ] && [ -n "$f" ] && grep -q "^  $f  *callgrind" out2.txt; then ok fib-default-dir
else bad fib-default-dir "rc=$rc rows=$n file='$f'"; fi
cc --top 1 --no-report -- 50 >out3.txt 2>err3.txt; rc=$?
[ $rc = 0 ] && ! grep -q 'file:function' out3.txt && grep -q '^Profile files:' out3.txt &&
    ok fib-no-report || bad fib-no-report "rc=$rc"

# ---------------------------------------------------------------- a package with two binaries
mkdir -p "$T/two/src/bin" && cd "$T/two" || exit 1
printf '[package]\nname = "two"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' >Cargo.toml
printf 'fn main() { println!("main bin"); }\n' >src/main.rs
printf 'fn main() { println!("other bin"); std::process::exit(7); }\n' >src/bin/other.rs
cc >o.txt 2>e.txt; rc=$?
last=$(tail -n 1 e.txt)
if [ $rc = 2 ] && [ "$last" = "cargo-cycprof: 2 binaries (other, two) and none chosen: use --bin NAME, or set default-run in Cargo.toml" ] &&
   [ "$(grep -c '^cargo-cycprof' e.txt)" = 1 ]; then ok err-two-binaries
else bad err-two-binaries "rc=$rc last line: $last"; fi
# --bin chooses; the program's exit status is ours.
cc --bin other -n 1 >o.txt 2>e.txt; rc=$?
[ $rc = 7 ] && grep -q '^other bin$' o.txt && grep -q '^Command: .*/release/other$' o.txt &&
    ok two-bin-other-exit-status || bad two-bin-other-exit-status "rc=$rc, want 7"
# default-run chooses, as for cargo run.
sed -i 's/^edition = .*/&\ndefault-run = "two"/' Cargo.toml
cc -n 1 >o.txt 2>e.txt; rc=$?
[ $rc = 0 ] && grep -q '^main bin$' o.txt && ok two-default-run || bad two-default-run "rc=$rc: $(tail -n 1 e.txt)"
# From a subdirectory, as cargo itself works; the files go to the cwd.
mkdir -p sub && (cd sub && cc --bin two -n 1 >o.txt 2>e.txt); rc=$?
[ $rc = 0 ] && ls sub/cycprof.out.* >/dev/null 2>&1 && ok two-from-subdir || bad two-from-subdir "rc=$rc"

# ---------------------------------------------------------------- a failed build
# keeps cargo's own exit status (101), which the last line names.
printf 'fn main() { let x: u32 = "no"; }\n' >src/bin/broken.rs
cc --bin broken >o.txt 2>e.txt; rc=$?
if [ $rc = 101 ] && grep -q 'error\[E0308\]' e.txt &&
   [ "$(tail -n 1 e.txt)" = "cargo-cycprof: cargo build failed (exit status 101; its messages are above); nothing was profiled" ]
then ok err-build-failed
else bad err-build-failed "rc=$rc: $(tail -n 2 e.txt | tr '\n' ' ')"; fi

# ---------------------------------------------------------------- a library crate
# Nothing to run: a usage error (choose --example), after the build.
mkdir -p "$T/lib/src" && cd "$T/lib" || exit 1
printf '[package]\nname = "onlylib"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' >Cargo.toml
printf 'pub fn f() -> u32 { 7 }\n' >src/lib.rs
cc >o.txt 2>e.txt; rc=$?
last=$(tail -n 1 e.txt)
if [ $rc = 2 ] && [ "$last" = "cargo-cycprof: cargo built no binary (a library crate?); choose one with --bin NAME or --example NAME" ]
then ok err-library-crate
else bad err-library-crate "rc=$rc last line: $last"; fi

finish
