# G. Code generated at run time: never a crash, under every --smc-check value,
#    and exact counts (lackey as the oracle, with the same --smc-check).
# shellcheck shell=bash

t_jit_smc_check() {
    need_tool
    need_prog jit
    local smc b key
    for smc in none stack all all-non-file; do
        b=$(shared_profile --smc-check="$smc" -- "$BIN/jit")
        grep -q "INTERNAL ERROR\|the 'impossible' happened" "$b.log" &&
            note "--smc-check=$smc: valgrind crashed: $(grep -m1 -A3 'INTERNAL ERROR' "$b.log" | tr '\n' ' ')"
        expect_total_eq_lackey "--smc-check=$smc" "$b" --smc-check="$smc" "$BIN/jit"
        # With none and stack Valgrind does not see the rewrite: the program
        # then behaves as under lackey, not as natively.
        key=$(_key lackey --smc-check="$smc" "$BIN/jit")
        cmp -s "$b.stdout" "$W/cache/$key.lackey.out" ||
            note "--smc-check=$smc: the program printed '$(cat "$b.stdout")' under the tool, '$(cat "$W/cache/$key.lackey.out")' under lackey"
    done
}
register jit-smc-check t_jit_smc_check

# PCRE2's JIT (grep -P) compiles each pattern to machine code in an anonymous
# mapping.  Its count depends on buffer addresses, which differ between
# Valgrind tools, so the oracle here is the program's behaviour and the
# profile's own consistency; the exact count is checked on jit above.
t_jit_grep_pcre() {
    need_tool
    local b native rc
    seq 1 20000 >"$PWD/nums.txt"
    native=$(grep -cP '^(\d)\1*5$' "$PWD/nums.txt")
    b=$(shared_profile -- /bin/grep -cP '^(\d)\1*5$' "$PWD/nums.txt")
    rc=$(cat "$b.rc")
    grep -q "INTERNAL ERROR\|the 'impossible' happened" "$b.log" &&
        fail "valgrind crashed: $(grep -m1 -A3 'INTERNAL ERROR' "$b.log" | tr '\n' ' ')"
    [ "$rc" = 0 ] || note "grep -P exited $rc under the tool"
    [ "$(cat "$b.stdout")" = "$native" ] || note "grep -P printed '$(cat "$b.stdout")', natively '$native'"
    check_run "$b"
    pycheck "$b" <<'PY' || true
import sys
from cyc import *
C = Checker()
path = sys.argv[1]
r = parse_callgrind(path)
C.true(not r.errors, "callgrind format errors: %s" % r.errors[:3])
raw = pprof_raw(path + ".pb.gz")
C.eq("sum of pprof samples vs the callgrind file's total", r.totals[0], sum(s.value for s in raw[1]))
C.done()
PY
}
register jit-grep-pcre t_jit_grep_pcre
