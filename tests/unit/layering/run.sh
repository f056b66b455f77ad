#!/usr/bin/env bash
# The Valgrind tool's dependencies run one way (docs/internals/architecture.md):
# layering.py reads cycprof/tool/'s #include "..." lines and fails on a
# circle between modules or on an include of a higher folder's header.
# First it is shown both faults on small trees made here, so that a
# checker that found nothing could not pass.
#
#   tests/unit/layering/run.sh      (needs python3; no build)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CHECK="$HERE/layering.py"
PASS=0 FAILS=0
ok() { echo "ok $1"; PASS=$((PASS + 1)); }
bad() { echo "FAIL $1: $2"; FAILS=$((FAILS + 1)); }
T=$(mktemp -d "${TMPDIR:-/tmp}/cycprof-layering-tests.XXXXXX")
trap 'rm -rf "$T"' EXIT

module() { # module DIR NAME INCLUDED...: DIR/NAME.c and .h including the others
    local dir=$1 name=$2 h
    shift 2
    mkdir -p "$dir"
    printf '#include "%s.h"\n' "$name" >"$dir/$name.c"
    : >"$dir/$name.h"
    for h in "$@"; do printf '#include "%s.h"\n' "$h" >>"$dir/$name.c"; done
}

# A circle of three, one module header-only, among modules that are fine.
module "$T/circle/counting" cp_a cp_b
printf '#include "cp_c.h"\n' >"$T/circle/counting/cp_b.h"
module "$T/circle/counting" cp_c cp_a
module "$T/circle/base" cp_low
module "$T/circle/counting" cp_d cp_low
python3 "$CHECK" "$T/circle" >"$T/circle.out" 2>&1
if [ $? -ne 0 ] && grep -q '^circle of 3 modules (cp_a cp_b cp_c): cp_a -> cp_b -> cp_c -> cp_a$' "$T/circle.out"; then
    ok finds-circle
else
    bad finds-circle "$(tr '\n' '|' <"$T/circle.out")"
fi

# base/ (the lowest folder) including a header of output/.
module "$T/upward/output" cp_writer
module "$T/upward/base" cp_util cp_writer
python3 "$CHECK" "$T/upward" >"$T/upward.out" 2>&1
if [ $? -ne 0 ] && grep -q '^upward include: base/cp_util.c includes cp_writer.h of output/' "$T/upward.out"; then
    ok finds-upward-include
else
    bad finds-upward-include "$(tr '\n' '|' <"$T/upward.out")"
fi

# The same, in order, passes.
module "$T/fine/output" cp_writer2 cp_util2
module "$T/fine/base" cp_util2
if python3 "$CHECK" "$T/fine" >"$T/fine.out" 2>&1; then
    ok passes-one-way
else
    bad passes-one-way "$(tr '\n' '|' <"$T/fine.out")"
fi

# The tool itself.
if python3 "$CHECK" "$REPO/cycprof/tool" >"$T/tool.out" 2>&1; then
    ok tool-one-way
else
    bad tool-one-way "$(grep -v ' problems$' "$T/tool.out" | head -n 5 | tr '\n' '|')"
fi

echo "layering: $PASS passed, $FAILS failed"
[ "$FAILS" = 0 ]
