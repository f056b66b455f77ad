#!/usr/bin/env bash
# `cycprof report` and `cycprof diff` on pprof profiles (docs/cli/report.md,
# "pprof input"): cycprof's own pprof file, a Go CPU profile, and a profile
# laid out as RISC Zero's guest profiler writes it (mkrisc0.py).
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/pprofin/run.sh
#
# Oracles: the callgrind file of the same run (itself checked against
# cachegrind and callgrind_annotate by the other suites), and
# `go tool pprof` (-raw, -top, -top -lines) on the very files cycprof reads.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init pprofin
need_vglib
export HOME=$T/home GOCACHE=$T/gocache GOFLAGS=-mod=mod
mkdir -p "$HOME" "$GOCACHE"
command -v go >/dev/null || { bad setup "no go (golang-go, scripts/install-deps)"; finish; }
check() { python3 "$HERE/check.py" "$@"; }
try() { # NAME CHECK-ARGS...: ok when check.py finds no difference
    local name=$1; shift
    if check "$@" >c.txt 2>&1; then ok "$name"; else bad "$name" "$(head -c 400 c.txt | tr '\n' ' ')"; fi
}

# ------------------------------------------------- cycprof's own pprof file
# Both files of one run, in an empty directory, with a fixed environment.
mkdir own && gcc -O1 -g -o own/prog "$HERE/prog.c" || { bad setup "cannot compile prog.c"; finish; }
(cd own && env -i PATH=/usr/bin:/bin LANG=C VALGRIND_LIB="$VGLIB" \
    valgrind --tool=cycprof --cycprof-out-file=c.out ./prog >out.txt 2>&1 </dev/null) &&
    [ -s own/c.out.pb.gz ] || { bad setup "valgrind --tool=cycprof: $(tail -n 2 own/out.txt)"; finish; }
try own-pprof-equals-callgrind callgrind "$CYC" "$T/own/c.out" "$T/own/c.out.pb.gz" "$T/own/prog"

# ------------------------------------------------------- a Go CPU profile
mkdir gocpu && cp "$HERE/gocpu.go" gocpu/main.go && printf 'module gocpu\n\ngo 1.19\n' >gocpu/go.mod &&
    (cd gocpu && go build -o gocpu . && ./gocpu cpu.pprof) >go.txt 2>&1 ||
    { bad setup "cannot build or run gocpu.go: $(tail -n 2 go.txt)"; finish; }
try go-cpu-vs-go-tool-pprof pprof "$CYC" "$T/gocpu/cpu.pprof"
# The first event is the sample type pprof shows by default (Type:).
want=$(go tool pprof -symbolize=none -top gocpu/cpu.pprof 2>/dev/null | sed -n 's/^Type: //p')
got=$("$CYC" report --format=json gocpu/cpu.pprof | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"][0])' 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "go-default-sample-type ($got)" ||
    bad go-default-sample-type "want '$want' (go tool pprof's Type:), got '$got'"
# --sort by a sample type's name: ranked by cpu, ties broken by samples.
if "$CYC" report --sort=samples gocpu/cpu.pprof >s.txt 2>&1 &&
    grep -q '^Event sort order: samples$' s.txt; then ok go-sort-by-type-name
else bad go-sort-by-type-name "$(head -c 300 s.txt)"; fi

# --------------------------------------------- RISC Zero guest profiles
python3 "$HERE/mkrisc0.py" guest.pb guest <"$HERE/guest.txt" &&
    sed 's/^1800000 /1800060 /' "$HERE/guest.txt" | python3 "$HERE/mkrisc0.py" small.pb guest &&
    sed 's/^1800000 /1900000 /' "$HERE/guest.txt" | python3 "$HERE/mkrisc0.py" more.pb guest &&
    cp guest.pb same.pb && gzip -k guest.pb more.pb && cp guest.pb guest.prof &&
    sed -e '/^fn/s/ [0-9]* \(0x[0-9a-f]*\)$/ 0 \1/' -e '/^fn/s/ \/guest\/[^ ]* / unknown /' \
        "$HERE/guest.txt" | python3 "$HERE/mkrisc0.py" nodwarf.pb guest ||
    { bad setup "mkrisc0.py failed"; finish; }
try risc0-guest-vs-go-tool-pprof pprof "$CYC" "$T/guest.pb"
try risc0-merged-vs-go-tool-pprof pprof "$CYC" "$T/guest.pb" "$T/more.pb"
try risc0-by-content pprof "$CYC" "$T/guest.prof"
# The stack commands take it by content too (RISC Zero's name has no .pb).
if "$CYC" report --by=stack -n 1 guest.prof >st.txt 2>&1 && grep -q '^1,800,000 (64.6%)  fibonacci_1$' st.txt
then ok risc0-stacks-by-content; else bad risc0-stacks-by-content "$(head -c 300 st.txt)"; fi
# The whole guest is one mapping: --by=object has one row, the total.
if "$CYC" report --by=object --format=json guest.pb >o.json &&
    python3 -c 'import json,sys; d=json.load(open("o.json")); r=d["rows"]
sys.exit(not (len(r) == 1 and r[0]["object"] == "guest" and r[0]["costs"]["cycles"] == d["totals"]["cycles"]))'
then ok risc0-by-object; else bad risc0-by-object "$(head -c 300 o.json)"; fi

# The gate: exit 3 when cycles grew, 0 when nothing changed or the change
# is below --min-change.
gate() { # NAME WANT-RC ARGS...
    local name=$1 want=$2; shift 2
    "$CYC" diff "$@" >d.txt 2>d.err; local rc=$?
    if [ "$rc" = "$want" ]; then ok "$name"
    else bad "$name" "exit $rc, want $want: $(head -c 300 d.err)"; fi
}
gate gate-risc0-more-cycles-red 3 --fail-above=1 guest.pb.gz more.pb.gz
if [ "$(wc -l <d.err)" = 1 ] && grep -q '^cycprof diff: cycles grew by more than --fail-above=1%' d.err &&
    grep -q '^ *+100,000 .*  fibonacci_1$' d.txt
then ok gate-risc0-says-why; else bad gate-risc0-says-why "$(cat d.err) $(grep fibonacci d.txt)"; fi
gate gate-risc0-equal-green 0 --fail-above=1 guest.pb.gz same.pb
gate gate-risc0-plain-red 3 --fail-above=1 guest.pb more.pb
gate gate-risc0-below-min-change 0 --fail-above=0 guest.pb small.pb
gate gate-risc0-min-change-off 3 --fail-above=0 --min-change=1 guest.pb small.pb
gate gate-risc0-inclusive-red 3 --fail-above=1 --inclusive --by=function guest.pb more.pb
if "$CYC" diff --format=json guest.pb more.pb >d.json &&
    python3 -c 'import json; d=json.load(open("d.json"))
t=d["total"]; assert (t["base"], t["new"]) == (2786660, 2886660), t
r=[c for c in d["rows"] if c["function"] == "fibonacci_1"]
assert len(r) == 1 and (r[0]["base"], r[0]["new"]) == (1800000, 1900000), r'
then ok diff-json-risc0; else bad diff-json-risc0 "$(head -c 300 d.json)"; fi

# A RISC Zero profile's functions read as their names, as go tool pprof
# -top shows them: no "unknown:" file (a symbol without DWARF) and no
# "[unknown]" object (the binary's name not known).
sed -e '/^fn/s/ \/guest\/[^ ]* / unknown /' "$HERE/guest.txt" |
    python3 "$HERE/mkrisc0.py" unknown.pb || bad setup "mkrisc0.py failed"
go tool pprof -symbolize=none -top -nodecount=1000 -nodefraction=0 unknown.pb 2>/dev/null |
    sed -n '/flat%/,$p' | sed 1d | awk '$1 != 0 { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' |
    sort >names-go.txt
"$CYC" report -n 0 --threshold=0 unknown.pb 2>&1 | sed -n '/^ *cycles  function$/,/^$/p' |
    sed -e 1d -e '/^$/d' -e 's/^ *[0-9,]* ([0-9.]*%)  //' | sort >names-cyc.txt
if [ "$(wc -l <names-go.txt)" -ge 8 ] && cmp -s names-go.txt names-cyc.txt; then ok risc0-names-as-go-tool-pprof
else bad risc0-names-as-go-tool-pprof "$(diff names-go.txt names-cyc.txt | head -n 4 | tr '\n' ' ')"; fi

# ----------------------- a RISC Zero profile against a cycprof zkVM profile
# zkguest.c has guest.txt's function names; its zkvm_cycles per function
# come from go tool pprof -top -sample_index=zkvm_cycles (the oracle), the
# guest's from guest.txt by hand.
mkdir zk && gcc -O1 -g -fno-inline -o zk/zkguest "$HERE/zkguest.c" ||
    { bad setup "cannot compile zkguest.c"; finish; }
(cd zk && env -i PATH=/usr/bin:/bin LANG=C VALGRIND_LIB="$VGLIB" \
    valgrind --tool=cycprof --cycprof-out-file=zk.out --zk-model=risc0 ./zkguest 3000 \
    >out.txt 2>&1 </dev/null) && [ -s zk/zk.out.pb.gz ] ||
    { bad setup "valgrind --tool=cycprof --zk-model=risc0: $(tail -n 2 zk/out.txt)"; finish; }
go tool pprof -symbolize=none -top -nodecount=100000 -nodefraction=0 -edgefraction=0 \
    -sample_index=zkvm_cycles zk/zk.out.pb.gz \
    >zktop.txt 2>/dev/null || bad setup "go tool pprof -sample_index=zkvm_cycles failed"
for args in "" "--event=Zk" "--event=cycles" "--event=zkvm_cycles"; do
    if "$CYC" diff -n 0 --format=json $args guest.pb zk/zk.out.pb.gz >x.json 2>x.err &&
        python3 - x.json zktop.txt <<'PY' >x.txt 2>&1
import json, re, sys
d = json.load(open(sys.argv[1]))
flat = {}
for line in open(sys.argv[2]):
    m = re.match(r"^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(.*)$", line)
    if m:
        flat[m.group(2)] = flat.get(m.group(2), 0) + int(m.group(1))
guest = {"fibonacci_1": 1800000, "fibonacci_2": 950000, "fibonacci_3": 2000,
         "mat_mul": 21000, "mat_pow": 6800, "main": 5200, "[PageIn]": 340,
         "[PageOut]": 120}
rows = {r["function"]: (r["base"], r["new"]) for r in d["rows"]}
bad = []
for fn, base in guest.items():
    want = (base, flat.get(fn, 0))
    if rows.get(fn) != want:
        bad.append("%s: want %s (guest.txt, go tool pprof), got %s" % (fn, want, rows.get(fn)))
if flat.get("[PageIn]", 0) == 0 or flat.get("fibonacci_1", 0) == 0:
    bad.append("no [PageIn] or fibonacci_1 zk cycles in the cycprof profile")
if (d["total"]["base"], d["total"]["new"]) != (2786660, sum(flat.values())):
    bad.append("totals %s" % d["total"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    then ok "risc0-vs-cycprof-zk${args:+ $args}"
    else bad "risc0-vs-cycprof-zk${args:+ $args}" "$(head -c 400 x.err x.txt | tr '\n' ' ')"; fi
done
gate gate-risc0-vs-cycprof-zk 3 --fail-above=1 zk/zk.out.pb.gz guest.pb
expect_err err-event-not-in-risc0 "^cycprof diff: guest\.pb: unknown event 'instructions' in --event \(the profile has: cycles\)\$" \
    diff --event=instructions guest.pb zk/zk.out.pb.gz
expect_err err-event-unknown-report "^cycprof report: unknown event 'bogus' in --event \(the profile has: Ir Zk\)\$" \
    report --event=bogus zk/zk.out
expect_err err-event-unknown-folded "^cycprof folded: .*zk\.out\.pb\.gz: unknown event 'bogus' \(the profile has: instructions zkvm_cycles\)\$" \
    folded --event=bogus zk/zk.out
expect_err err-event-unknown-firefox "^cycprof firefox: .*zk\.out\.pb\.gz: unknown event 'bogus' \(the profile has: instructions zkvm_cycles\)\$" \
    firefox --event=bogus -o ff.json zk/zk.out
# folded --event: the sample type's total, by either of its names
want=$(go tool pprof -symbolize=none -raw zk/zk.out.pb.gz 2>/dev/null |
    awk '/^Samples:/ { s = 1; getline; next } /^Locations/ { s = 0 } s && $2 ~ /:$/ { sub(/:$/, "", $2); t += $2 } END { print t }')
for ev in Zk zkvm_cycles; do
    got=$("$CYC" folded --event=$ev zk/zk.out | awk '{ s += $NF } END { print s }')
    [ -n "$want" ] && [ "$want" = "$got" ] && ok "folded-event-$ev ($got)" ||
        bad "folded-event-$ev" "want $want (go tool pprof -raw), got $got"
done

# ----------------------------------------------------------- bad input
printf 'hello\n' >text.txt
head -c 200 "$(command -v gcc)" >elf.bin
: >empty.pb
printf '\062\000' >notypes.pb     # string_table [""]: a profile with no sample types
go tool pprof -proto -diff_base=guest.pb more.pb >delta.pb.gz 2>/dev/null ||
    bad setup "go tool pprof -proto -diff_base failed"
expect_err err-text-not-a-profile "^cycprof report: text\.txt:1: .*not a callgrind-format file or a pprof profile" report text.txt
expect_err err-binary-not-a-profile '^cycprof report: elf\.bin: not a valid pprof profile' report elf.bin
expect_err err-empty-pprof '^cycprof report: empty\.pb: empty file' report empty.pb
expect_err err-no-sample-types '^cycprof report: notypes\.pb: .*no count-like sample type' report notypes.pb
expect_err err-negative-values '^cycprof diff: delta\.pb\.gz: .*no count-like sample type' diff delta.pb.gz guest.pb
expect_err err-by-line-without-lines '^cycprof report: --by=line: the pprof profile has no line numbers' report --by=line nodwarf.pb
expect_err err-unknown-sample-type "^cycprof report: unknown event 'instructions' in --sort \(the profile has: cycles\)" report --sort=instructions guest.pb
expect_err err-mixed-types "^cycprof report: .*gocpu/cpu\.pprof: sample type '.*' is not among the events of the first profile \(cycles\)" report guest.pb gocpu/cpu.pprof

# Tables that the wire format allows but no valid profile has: report (pprof
# costs), folded (stacks) and firefox read them through one check, and each
# names the same fault.
python3 "$HERE/mkbroken.py" || bad setup "mkbroken.py failed"
if "$CYC" folded valid.pb >valid.folded && [ "$(cat valid.folded)" = "main 10" ]; then
    ok broken-tables-valid-control
else bad broken-tables-valid-control "folded valid.pb: $(head -c 200 valid.folded)"; fi
for cmd in report folded firefox; do
    expect_err "broken-$cmd-fn-dup" ": fn-dup\.pb: function: id 0 or a duplicate id\$" $cmd fn-dup.pb
    expect_err "broken-$cmd-loc-id0" ": loc-id0\.pb: location: id 0 or a duplicate id\$" $cmd loc-id0.pb
    expect_err "broken-$cmd-fn-unknown" ": fn-unknown\.pb: location 1 refers to unknown function 9\$" $cmd fn-unknown.pb
    expect_err "broken-$cmd-map-unknown" ": map-unknown\.pb: location 1 refers to unknown mapping 7\$" $cmd map-unknown.pb
    expect_err "broken-$cmd-fn-string" ": fn-string\.pb: function 1: string index out of range\$" $cmd fn-string.pb
    expect_err "broken-$cmd-map-string" ": map-string\.pb: mapping 1: string index out of range\$" $cmd map-string.pb
    expect_err "broken-$cmd-values" ": values\.pb: sample 0 has 2 values, expected 1 \(one per sample type\)\$" $cmd values.pb
done
expect_err broken-folded-negative ": negative\.pb: sample 0 has a negative value\$" folded negative.pb
expect_err broken-firefox-negative ": negative\.pb: sample 0 has a negative value\$" firefox negative.pb

finish
