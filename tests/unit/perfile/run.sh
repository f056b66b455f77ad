#!/usr/bin/env bash
# Tests of per-file views (docs/cli/report.md): `report --by=file` and
# `--by=line` are keyed by (object, file), checked against cachegrind's
# per-file and per-line totals read from its raw output file
# (cachegrind.out has no objects: the rows of one file, summed over
# objects, must equal cachegrind's total for that file; which object a row
# belongs to is fixed by the program's structure, twin.h).
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/perfile/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init perfile
need_vglib
cp "$HERE"/twin.h "$HERE"/twin_lib.c "$HERE"/twin_main.c "$T/"
gcc -O2 -g -fPIC -shared -o libtwin.so twin_lib.c &&
    gcc -O2 -g -o twin twin_main.c -L. -ltwin -Wl,-rpath,"$T" ||
    { bad setup "cannot build the twin programs"; finish; }

# Tool and oracle run in one environment (the program sees it).
vg() { env -i PATH=/usr/bin:/bin LANG=C VALGRIND_LIB="$VGLIB" valgrind "$@" </dev/null; }
run() { # NAME PROG...
    local n=$1; shift
    vg --tool=cycprof --pprof=no --cycprof-out-file="$T/$n.out" "$@" >"$n.stdout" 2>"$n.log" &&
        vg --tool=cachegrind --cache-sim=no --vex-guest-chase=no --show-below-main=yes \
            --cachegrind-out-file="$T/$n.cg" "$@" >"$n.cg.stdout" 2>"$n.cg.log" ||
        { bad "setup-$n" "valgrind failed: $(tail -n 2 "$n.log" "$n.cg.log" | tr '\n' ' ')"; return 1; }
}
run twin ./twin || finish
gcc -O2 -g -o fib "$REPO/tests/progs/fib.c" 2>/dev/null && run fib ./fib 20 || finish

# Checks one profile; prints "ok" or the problems, one per line.
check() { # NAME
    python3 - "$CYC" "$T/$1.out" "$T/$1.cg" "$1" <<'PY'
import collections, json, subprocess, sys
cyc, out, cgf, name = sys.argv[1:5]

def ours(by):
    d = json.loads(subprocess.check_output(
        [cyc, "report", "--format=json", "--by=" + by, "-n", "0", "--threshold=0", out]))
    return d["rows"]

# cachegrind.out: fl=FILE, fn=FN, then "LINE IR" lines.
per_file = collections.Counter()
per_line = collections.Counter()
per_file_fn = collections.Counter()
fl = fn = None
for l in open(cgf, encoding="utf-8", errors="surrogateescape"):
    l = l.rstrip("\n")
    if l.startswith("fl="):
        fl = l[3:]
    elif l.startswith("fn="):
        fn = l[3:]
    elif l[:1].isdigit() and fl is not None:
        a = l.split()
        per_file[fl] += int(a[1])
        per_line[(fl, int(a[0]))] += int(a[1])
        per_file_fn[(fl, fn)] += int(a[1])

problems = []
files = ours("file")
seen = collections.Counter((r["object"], r["file"]) for r in files)
problems += ["(object, file) %r has %d rows" % (k, n) for k, n in seen.items() if n > 1]
sums = collections.Counter()
for r in files:
    sums[r["file"]] += r["costs"]["Ir"]
diff = sorted(k for k in set(sums) | set(per_file) if sums[k] != per_file[k])
problems += ["file %s: ours %d (summed over objects), cachegrind %d" % (k, sums[k], per_file[k]) for k in diff[:5]]

lines = ours("line")
seen = collections.Counter((r["object"], r["file"], r["line"]) for r in lines)
problems += ["(object, file, line) %r has %d rows" % (k, n) for k, n in seen.items() if n > 1]
lsums = collections.Counter()
for r in lines:
    lsums[(r["file"], r["line"])] += r["costs"]["Ir"]
diff = sorted(k for k in set(lsums) | set(per_line) if lsums[k] != per_line[k])
problems += ["line %s:%d: ours %d, cachegrind %d" % (k[0], k[1], lsums[k], per_line[k]) for k in diff[:5]]

# Unknown code is one "???" row per object, never one row for all.
unknown = [r for r in files if r["file"] == "???"]
if len({r["object"] for r in unknown}) != len(unknown):
    problems.append("??? rows repeat an object")

if name == "twin":
    # twin.h runs in both objects: in the library inside lib_twin_loop,
    # in the program inside main_twin_loop (the structure of the program).
    twin = {r["object"].rsplit("/", 1)[-1]: r["costs"]["Ir"]
            for r in files if r["file"].endswith("/twin.h")}
    th = [k for k in per_file if k.endswith("/twin.h")]
    want = {"libtwin.so": sum(per_file_fn[(f, "lib_twin_loop")] for f in th),
            "twin": sum(per_file_fn[(f, "main_twin_loop")] for f in th)}
    if len(th) != 1 or twin != want or 0 in want.values():
        problems.append("twin.h rows %r, want %r from cachegrind" % (twin, want))
print("\n".join(problems) if problems else "ok %d files, %d lines" % (len(files), len(lines)))
PY
}
for n in twin fib; do
    res=$(check $n 2>&1)
    case $res in ok*) ok "perfile-$n-vs-cachegrind (${res#ok })" ;;
                 *) bad "perfile-$n-vs-cachegrind" "$(echo "$res" | head -n 4 | tr '\n' ';')" ;; esac
done

# The text view labels each row with its own object.
"$CYC" report --by=file -n 0 --threshold=0 "$T/twin.out" >r.txt 2>&1
if grep -q '/twin\.h \[.*/libtwin\.so\]$' r.txt && grep -q '/twin\.h \[.*/twin\]$' r.txt
then ok perfile-text-labels-objects
else bad perfile-text-labels-objects "$(grep twin.h r.txt | tr '\n' ' ')"; fi

finish
