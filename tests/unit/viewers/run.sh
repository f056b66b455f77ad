#!/usr/bin/env bash
# cycprof's profiles in the real viewers, offline (docs/cli/firefox.md,
# docs/pprof.md#speedscope):
# - `cycprof firefox` loaded by the Firefox Profiler's own import pipeline
#   (npm @firefox-devtools/profiler-cli): its total and its top functions'
#   self and total (running) costs equal `cycprof report`'s, threads stay
#   threads, inlined calls are functions of their own, regions are
#   categories, its source view has cachegrind's per-line self costs;
# - the pprof file opened in speedscope (npm speedscope) in headless
#   Chromium (Debian chromium-headless-shell): its sandwich table's self
#   and total columns equal `cycprof report`'s, and on the C programs its
#   self column equals cachegrind's own file (CYCPROF_TESTS_SKEW=1 makes
#   that check fail).
# cycprof report reads the callgrind file, whose figures the other suites
# check against lackey, cachegrind and callgrind_annotate.
#
# The npm packages are where scripts/install-deps puts them:
# $CYCPROF_NPM_DIR, else /var/cache/cycprof-npm (root), else
# ${XDG_CACHE_HOME:-~/.cache}/cycprof-npm.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/viewers/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init viewers
need_vglib
P=$REPO/tests/progs

NPM_DIR=${CYCPROF_NPM_DIR:-}
if [ -z "$NPM_DIR" ]; then
    for d in /var/cache/cycprof-npm "${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/cycprof-npm"; do
        [ -d "$d/node_modules" ] && { NPM_DIR=$d; break; }
    done
fi
# What a skipped check lacks and the command that installs it; the
# versions are scripts/install-deps' pins.
NPM_PINS=$(sed -n 's/^NPM_PKGS="\(.*\)"$/\1/p' "$REPO/scripts/install-deps")
npm_hint() { # PACKAGE
    local dir=${NPM_DIR:-${CYCPROF_NPM_DIR:-}} pin
    if [ -z "$dir" ]; then
        if [ "$(id -u)" -eq 0 ]; then dir=/var/cache/cycprof-npm
        else dir=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/cycprof-npm; fi
    fi
    pin=$(printf '%s\n' $NPM_PINS | grep -m1 "^$1@" || echo "$1")
    if [ -s "$dir/REGISTRY_FAILED" ]; then
        # install-deps tried once and remembers why it failed
        printf 'npm %s is not in %s: scripts/install-deps could not install it (%s); scripts/install-deps --viewers tries again' \
            "$1" "$dir/node_modules" "$(head -n 1 "$dir/REGISTRY_FAILED")"
    else
        printf 'npm %s is not in %s: scripts/install-deps installs it, or: npm install --prefix %s %s' \
            "$1" "$dir/node_modules" "$dir" "$pin"
    fi
}
chromium_hint() {
    echo "Debian's chromium-headless-shell is not installed: scripts/install-deps installs it, or: apt-get install chromium-headless-shell"
}
PCLI=${NPM_DIR:+$NPM_DIR/node_modules/.bin/profiler-cli}
SPEEDSCOPE=${NPM_DIR:+$NPM_DIR/node_modules/speedscope/dist/release}
CHROME=$(command -v chromium-headless-shell || true)

# Bad input: one line naming the problem, exit 1, no output file.
: >empty.pb.gz
printf 'not a profile\n' >text.pb
printf 'events: Ir\nfn=main\n1 5\n' >cg.out
for f in empty.pb.gz text.pb cg.out; do
    "$CYC" firefox "$f" -o bad.json >/dev/null 2>err.txt; rc=$?
    if [ $rc = 1 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "^cycprof firefox: .*$f" err.txt && [ ! -e bad.json ]; then
        ok "firefox-bad-input-$f ($(cat err.txt))"
    else bad "firefox-bad-input-$f" "exit $rc: $(head -n 3 err.txt | tr '\n' ' ')"; fi
done

# The programs, each run once under the tool in a fixed environment (the
# suite's rule: env -i, files for the program's output, one cwd).
mkdir -p run home
gcc -O1 -g -I"$REPO/cycprof/include" -o run/regions "$P/regions.c" &&
    gcc -O2 -g -o run/inl "$P/inl.c" &&
    gcc -O1 -g -pthread -o run/threads "$P/threads.c" ||
    { bad setup "cannot compile the programs"; finish; }
cp "$P/pyscript.py" run/
prof() { # NAME [TOOL OPTIONS] PROG ARGS...: run/NAME.out and run/NAME.out.pb.gz
    local name=$1
    shift
    (cd run && env -i PATH=/usr/bin:/bin HOME="$T/home" LANG=C PYTHONHASHSEED=0 \
        VALGRIND_LIB="$VGLIB" valgrind --tool=cycprof --cycprof-helper="$CYC" \
        --cycprof-out-file="$T/run/$name.out" --log-file="$T/run/$name.log" \
        "$@" >"$name.stdout" 2>"$name.stderr")
    # (regions.c exits non-zero on purpose: its exit code is not looked at)
    [ -s "run/$name.out.pb.gz" ] || { bad "run-$name" "$(tail -n 2 "run/$name.log" | tr '\n' ' ')"; return 1; }
}
# cachegrind, the oracle for self costs, with the same environment and cwd.
cgrun() { # NAME PROG ARGS...: run/NAME.cg.out
    local name=$1
    shift
    (cd run && env -i PATH=/usr/bin:/bin HOME="$T/home" LANG=C PYTHONHASHSEED=0 \
        VALGRIND_LIB="$VGLIB" valgrind --tool=cachegrind --vex-guest-chase=no --cache-sim=no \
        --show-below-main=yes --cachegrind-out-file="$T/run/$name.cg.out" \
        --log-file="$T/run/$name.cg.log" "$@" >"$name.stdout" 2>"$name.stderr")
}
progs=()
prof regions ./regions && progs+=(regions)
cgrun regions ./regions
cgrun inl ./inl 5000
prof inl ./inl 5000 && progs+=(inl)
prof threads ./threads && progs+=(threads)
# python3 as the suite runs it: -S -s with a fixed hash seed.
prof python3 /usr/bin/python3 -S -s pyscript.py && progs+=(python3)

# --firefox-out-file: the tool writes the profile at exit and the log
# names it; it is what `cycprof firefox` makes of the run's pprof file.
if prof ffout --firefox-out-file="$T/run/ffout.%p.json.gz" ./regions; then
    ff=$(sed -n 's/^==[0-9]*== cycprof: wrote \(.*\.json\.gz\)$/\1/p' run/ffout.log)
    if [ -n "$ff" ] && [ -f "$ff" ] && "$CYC" firefox run/ffout.out -o ffout.json &&
        gzip -dc "$ff" | cmp -s - ffout.json; then
        ok "firefox-out-file (the log names $(basename "$ff"); same as cycprof firefox)"
    else bad firefox-out-file "log: $(tail -n 3 run/ffout.log | tr '\n' ' ')"; fi
fi

for n in "${progs[@]}"; do
    "$CYC" report --format=json -n 0 --threshold=0 "run/$n.out" >"$n.self.json" &&
        "$CYC" report --format=json -n 0 --threshold=0 --inclusive "run/$n.out" >"$n.incl.json" ||
        bad "report-$n" "cycprof report failed"
done

# ---------------------------------------------------------------- Firefox Profiler
pcli() { HOME="$T/home" timeout 120 "$PCLI" "$@"; }
# pq_functions FILE.json OUT.json: every thread's function table, in
# compare_functions.py's form.
pq_functions() {
    local nthreads i outs=()
    nthreads=$(python3 -c 'import gzip,json,sys; print(len(json.load(gzip.open(sys.argv[1]) if sys.argv[1].endswith(".gz") else open(sys.argv[1]))["threads"]))' "$1") || return 1
    pcli load "$1" >load.txt 2>&1 || { cat load.txt; return 1; }
    for ((i = 0; i < nthreads; i++)); do
        pcli thread functions --thread "t-$i" --json --limit 0 >"fn.$i.json" 2>&1 || { cat "fn.$i.json"; pcli stop >/dev/null 2>&1; return 1; }
        outs+=("fn.$i.json")
    done
    pcli thread samples >samples.txt 2>&1
    pcli stop >/dev/null 2>&1
    python3 "$HERE/ff_functions.py" "${outs[@]}" >"$2"
}
if [ -z "$PCLI" ] || [ ! -x "$PCLI" ]; then
    skip "firefox-*" "$(npm_hint @firefox-devtools/profiler-cli)"
elif ! pcli --help >/dev/null 2>&1; then
    # It asks for Node 24 and runs on Debian 12's Node 20 (older: untried).
    skip "firefox-*" "profiler-cli does not run on this Node ($(node --version 2>&1))"
else
    for n in "${progs[@]}"; do
        name=firefox-$n
        "$CYC" firefox --inlines=no "run/$n.out" -o "$n.json.gz" 2>err.txt ||
            { bad "$name" "cycprof firefox: $(cat err.txt)"; continue; }
        pq_functions "$n.json.gz" "$n.ff.json" >err.txt 2>&1 ||
            { bad "$name" "profiler-cli: $(head -n 3 err.txt | tr '\n' ' ')"; continue; }
        if python3 "$HERE/compare_functions.py" "$n.ff.json" "$n.self.json" "$n.incl.json" 20 >cmp.txt; then
            ok "$name ($(cat cmp.txt))"
        else bad "$name" "$(cat cmp.txt)"; fi
    done
    # Inlined calls are functions of their own by default: mix() and
    # step() are inlined into hot() (progs/inl.c), and hot's self cost is
    # what is left (the profile's total is unchanged).
    if [ -f inl.ff.json ] && "$CYC" firefox run/inl.out -o inl-inline.json 2>err.txt &&
        pq_functions inl-inline.json inl-inline.ff.json >err.txt 2>&1; then
        got=$(python3 - inl.ff.json inl-inline.ff.json inl-inline.json <<'PY'
import json, sys
flat, inl, raw = (json.load(open(p)) for p in sys.argv[1:])
def by(d): return {f["name"]: f for f in d["functions"] if f["lib"] == "inl"}
a, b = by(flat), by(inl)
depth = max(raw["shared"]["frameTable"]["inlineDepth"])
ok = ("mix" not in a and "step" not in a and b.get("mix", {}).get("self", 0) > 0
      and b["hot"]["total"] == a["hot"]["total"]
      and b["hot"]["self"] + b["mix"]["self"] + b["step"]["self"] == a["hot"]["self"]
      and flat["total"] == inl["total"] and depth >= 2)
print("ok" if ok else "hot/mix/step %s, flat %s, inline depth %d" % (
    [(k, b.get(k)) for k in ("hot", "mix", "step")], a.get("hot"), depth))
PY
)
        [ "$got" = ok ] && ok "firefox-inlined (mix and step are inlined frames; with hot they hold hot's cost)" ||
            bad firefox-inlined "$got"
    else bad firefox-inlined "$(head -n 3 err.txt | tr '\n' ' ')"; fi
    # File and line reach the profiler: its source view of hot() (inl.c,
    # with the lines of the inlined mix() and step()) has, line by line,
    # the self costs of cachegrind's own file.
    if [ -f inl-inline.json ] && [ -f run/inl.cg.out ] && pcli load inl-inline.json >load.txt 2>&1; then
        fh=$(pcli thread functions --search hot --json --limit 0 2>/dev/null |
            python3 -c 'import json,sys; print(*[f["functionHandle"] for f in json.load(sys.stdin)["functions"] if f["name"] == "hot"])')
        pcli function annotate "$fh" --mode src --context file >annotate.txt 2>&1
        pcli stop >/dev/null 2>&1
        got=$(PYTHONPATH="$REPO/tests/lib" python3 - annotate.txt run/inl.cg.out <<'PY'
import re, sys, cyc
shown = {int(m.group(1)): int(m.group(2)) for m in
         re.finditer(r"^ *(\d+) +(\d+) +\d+", open(sys.argv[1]).read(), re.M)}
want = {line: n for (f, line), n in cyc.cg_line_self(sys.argv[2]).items() if f == "inl.c" and n}
print("ok %d lines" % len(want) if shown == want and want else "profiler %s, cachegrind %s" % (sorted(shown.items()), sorted(want.items())))
PY
)
        case $got in
        ok*) ok "firefox-lines (inl.c: ${got#ok } of self cost = cachegrind's)" ;;
        *) bad firefox-lines "$got" ;;
        esac
    else bad firefox-lines "$(head -n 3 load.txt | tr '\n' ' ')"; fi
    # Threads stay threads: progs/threads.c runs main and two workers.
    if [ -f threads.json.gz ]; then
        got=$(python3 -c 'import gzip,json,sys; d=json.load(gzip.open(sys.argv[1])); print(" ".join(t["name"] for t in d["threads"]))' threads.json.gz)
        [ "$got" = "main thread thread 2 thread 3" ] && ok "firefox-thread-list ($got)" ||
            bad firefox-thread-list "threads '$got', want main thread and 2 workers"
    fi
    # Regions are categories: the profiler's category breakdown names every
    # region of the run's table (cycprof report --regions).
    if [ -f regions.json.gz ] && pq_functions regions.json.gz /dev/null >err.txt 2>&1; then
        missing=
        for r in $("$CYC" report --regions run/regions.out | awk 'NR > 1 && NF >= 6 { print $1 }'); do
            grep -q "^  $r " samples.txt || missing="$missing $r"
        done
        [ -z "$missing" ] && grep -q "($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["Ir"])' regions.self.json) running samples)" samples.txt &&
            ok "firefox-region-categories (every region is a category)" ||
            bad firefox-region-categories "categories miss:$missing ($(grep -m1 'running samples' samples.txt))"
    else bad firefox-region-categories "$(head -n 3 err.txt | tr '\n' ' ')"; fi
fi

# ---------------------------------------------------------------- speedscope
if [ -z "$SPEEDSCOPE" ] || [ ! -f "$SPEEDSCOPE/index.html" ]; then
    skip "speedscope-*" "$(npm_hint speedscope)"
elif [ -z "$CHROME" ]; then
    skip "speedscope-*" "$(chromium_hint)"
else
    for n in "${progs[@]}"; do
        name=speedscope-$n
        # speedscope's own loader (what its CLI does): a script that hands
        # it the file, named in the URL.
        printf 'speedscope.loadFileFromBase64("%s", "%s")\n' "$n.out.pb.gz" \
            "$(base64 -w0 "run/$n.out.pb.gz")" >"$n.load.js"
        timeout 120 "$CHROME" --no-sandbox --user-data-dir="$T/chrome" --use-angle=swiftshader \
            --enable-unsafe-swiftshader --window-size=1200,100000 --virtual-time-budget=15000 \
            --dump-dom "file://$SPEEDSCOPE/index.html#localProfilePath=$T/$n.load.js&view=sandwich" \
            >"$n.dom.html" 2>chrome.err ||
            { bad "$name" "chromium: $(tail -n 2 chrome.err | tr '\n' ' ')"; continue; }
        total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["totals"]["Ir"])' "$n.self.json")
        python3 "$HERE/speedscope_table.py" "$n.dom.html" "$total" >"$n.ss.json" 2>err.txt ||
            { bad "$name" "$(cat err.txt)"; continue; }
        if python3 "$HERE/compare_functions.py" "$n.ss.json" "$n.self.json" "$n.incl.json" 20 >cmp.txt; then
            ok "$name ($(cat cmp.txt))"
        else bad "$name" "$(cat cmp.txt)"; fi
        # The C programs run the same instructions under every tool (the
        # suite's fixed environment): speedscope's self costs against
        # cachegrind's file directly.
        [ -f "run/$n.cg.out" ] || continue
        if PYTHONPATH="$REPO/tests/lib" python3 "$HERE/vs_cachegrind.py" "$n.ss.json" "run/$n.cg.out" 10 >cmp.txt 2>&1; then
            ok "$name-cachegrind ($(cat cmp.txt))"
        else bad "$name-cachegrind" "$(cat cmp.txt)"; fi
    done
fi
finish
