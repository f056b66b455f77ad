#!/usr/bin/env bash
# No exported function or variable that nothing else uses, no prototype
# that nothing defines: exports.py reads the built objects (nm) of the
# tool and of the CLI, and the headers (ctags).  First it is shown each
# fault on small trees made here, so that a checker that found nothing
# could not pass.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/exports/run.sh  (needs python3, gcc, nm)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../suite.sh"
suite_init exports
CHECK="$HERE/exports.py"
for t in python3 gcc nm; do
    command -v $t >/dev/null || { skip all "no $t"; finish; }
done

# tree NAME: sources under NAME/src/cycprof/cli/util, objects as the build
# names them under NAME/obj (cycprof-FILE.o)
tree() {
    mkdir -p "$1/src/cycprof/cli/util" "$1/obj/cycprof/cli/util" "$1/src/tests/fuzz"
}
compile() { # compile TREE FILE: TREE/src/.../FILE.c -> TREE/obj/.../cycprof-FILE.o
    gcc -O2 -c -o "$1/obj/cycprof/cli/util/cycprof-$2.o" "$1/src/cycprof/cli/util/$2.c"
}
run_check() { python3 "$CHECK" "$1/obj" "$1/src" >"$1.out" 2>&1; }

# One function nothing calls, one only its own file calls, one the fuzz
# harnesses call, one another file calls.
tree dead
cat >dead/src/cycprof/cli/util/lib.c <<'C'
int lib_used(int x) { return x + 1; }
int lib_unused(int x) { return x * 3; }
int lib_fuzzed(int x) { return x - 1; }
int lib_own(int x) { return x * 5; }
__attribute__((noinline)) int lib_calls_own(int x) { return lib_own(x) + 2; }
C
cat >dead/src/cycprof/cli/util/main.c <<'C'
int lib_used(int x);
int lib_calls_own(int x);
int main(int argc, char **argv) { (void)argv; return lib_used(argc) + lib_calls_own(argc); }
C
echo 'int f(void) { return lib_fuzzed(1); }' >dead/src/tests/fuzz/fuzz_lib.c
compile dead lib && compile dead main || { bad setup "gcc failed"; finish; }
run_check dead; rc=$?
if [ $rc = 1 ] && grep -q '^cli: lib_unused is exported by cycprof/cli/util/lib.c and nothing uses it$' dead.out \
    && grep -q '^cli: lib_own is exported but only cycprof/cli/util/lib.c uses it: make it static$' dead.out \
    && ! grep -q 'lib_used\|lib_fuzzed\|lib_calls_own\|main' dead.out; then
    ok finds-unused-exports
else
    bad finds-unused-exports "rc $rc: $(tr '\n' '|' <dead.out)"
fi

# A header's prototype that nothing defines.
if command -v ctags >/dev/null; then
    tree ghost
    printf 'int ghost_defined(void);\nint ghost_missing(int x);\n' >ghost/src/cycprof/cli/util/ghost.h
    printf '#include "ghost.h"\nint ghost_defined(void) { return 1; }\n' >ghost/src/cycprof/cli/util/ghost.c
    printf 'int ghost_defined(void);\nint main(void) { return ghost_defined(); }\n' >ghost/src/cycprof/cli/util/main.c
    compile ghost ghost && compile ghost main || { bad setup "gcc failed"; finish; }
    run_check ghost; rc=$?
    if [ $rc = 1 ] && grep -q '^cli: ghost_missing is declared in cycprof/cli/util/ghost.h and defined nowhere$' ghost.out \
        && ! grep -q ghost_defined ghost.out; then
        ok finds-undefined-prototype
    else
        bad finds-undefined-prototype "rc $rc: $(tr '\n' '|' <ghost.out)"
    fi
else
    skip finds-undefined-prototype "no ctags"
fi

# The same without the faults passes.
tree clean
cp dead/src/cycprof/cli/util/main.c clean/src/cycprof/cli/util/
cat >clean/src/cycprof/cli/util/lib.c <<'C'
int lib_used(int x) { return x + 1; }
static int own(int x) { return x * 5; }
int lib_calls_own(int x) { return own(x) + 2; }
C
compile clean lib && compile clean main || { bad setup "gcc failed"; finish; }
if run_check clean; then ok passes-clean; else bad passes-clean "$(tr '\n' '|' <clean.out)"; fi

# cycprof itself, as built in CYCPROF_BUILD (a build in the source tree,
# or one whose objects sit under it with the sources beside).
if ! ls "$CYCPROF_BUILD"/cycprof/cli/*.o >/dev/null 2>&1; then
    skip cycprof "no objects under CYCPROF_BUILD=$CYCPROF_BUILD/cycprof"
elif python3 "$CHECK" "$CYCPROF_BUILD" "$SUITE_REPO" >cycprof.out 2>&1; then
    ok cycprof
else
    bad cycprof "$(grep -v ' problems$' cycprof.out | head -n 5 | tr '\n' '|')"
fi
finish
