#!/usr/bin/env bash
# The dependencies of the Valgrind tool and of the cycprof command run one
# way (docs/internals/architecture.md): layering.py reads the #include "..."
# lines of cycprof/tool/ (or of cycprof/cli/, with --cli) and fails on a
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

# The command's floors, with includes that name their folder.
cli_module() { # cli_module DIR FOLDER/NAME INCLUDED...: FOLDER/NAME.c and .h
    local dir=$1 name=${2#*/} folder=${2%%/*} h
    shift 2
    mkdir -p "$dir/$folder"
    printf '#include "%s/%s.h"\n' "$folder" "$name" >"$dir/$folder/$name.c"
    : >"$dir/$folder/$name.h"
    for h in "$@"; do printf '#include "%s.h"\n' "$h" >>"$dir/$folder/$name.c"; done
}
cli_module "$T/cli-circle" read/a_reader read/b_reader
cli_module "$T/cli-circle" read/b_reader model/c_model
cli_module "$T/cli-circle" model/c_model util/d_util
cli_module "$T/cli-circle" util/d_util
printf '#include "read/a_reader.h"\n' >"$T/cli-circle/model/c_model.h"
python3 "$CHECK" "$T/cli-circle" --cli >"$T/cli-circle.out" 2>&1
if [ $? -ne 0 ] && grep -q '^circle of 3 modules (a_reader b_reader c_model): a_reader -> b_reader -> c_model -> a_reader$' "$T/cli-circle.out"; then
    ok cli-finds-circle
else
    bad cli-finds-circle "$(tr '\n' '|' <"$T/cli-circle.out")"
fi

# A reader (read/) including a header of analyse/, the floor above.
cli_module "$T/cli-upward" analyse/rank
cli_module "$T/cli-upward" read/reader analyse/rank util/lines
cli_module "$T/cli-upward" util/lines
python3 "$CHECK" "$T/cli-upward" --cli >"$T/cli-upward.out" 2>&1
if [ $? -ne 0 ] && grep -q '^upward include: read/reader.c includes rank.h of analyse/' "$T/cli-upward.out" \
    && [ "$(grep -c '^upward include' "$T/cli-upward.out")" = 1 ]; then
    ok cli-finds-upward-include
else
    bad cli-finds-upward-include "$(tr '\n' '|' <"$T/cli-upward.out")"
fi

# The same tree the right way up (analyse/ calls read/), and main.c on top.
cli_module "$T/cli-fine" read/reader2 util/lines2
cli_module "$T/cli-fine" analyse/rank2 read/reader2
cli_module "$T/cli-fine" util/lines2
printf '#include "analyse/rank2.h"\n' >"$T/cli-fine/main.c"
if python3 "$CHECK" "$T/cli-fine" --cli >"$T/cli-fine.out" 2>&1; then
    ok cli-passes-one-way
else
    bad cli-passes-one-way "$(tr '\n' '|' <"$T/cli-fine.out")"
fi

# The tool and the command themselves.
if python3 "$CHECK" "$REPO/cycprof/tool" >"$T/tool.out" 2>&1; then
    ok tool-one-way
else
    bad tool-one-way "$(grep -v ' problems$' "$T/tool.out" | head -n 5 | tr '\n' '|')"
fi
if python3 "$CHECK" "$REPO/cycprof/cli" --cli >"$T/cli.out" 2>&1; then
    ok cli-one-way
else
    bad cli-one-way "$(grep -v ' problems$' "$T/cli.out" | head -n 5 | tr '\n' '|')"
fi

echo "layering: $PASS passed, $FAILS failed"
[ "$FAILS" = 0 ]
