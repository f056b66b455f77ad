#!/usr/bin/env bash
# scripts/install-deps: the lists agree with docs/building.md, the profiling
# list is the small one, and an npm registry that cannot be reached fails
# once, within its bound, is remembered, and is tried again on --viewers.
# Runs no apt-get: the npm part runs only where every Debian package of the
# test list is installed (after README's test command), against a closed
# port on loopback and a scratch folder.
#
#   CYCPROF_BUILD=/abs/build/dir tests/unit/deps/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
. "$HERE/../suite.sh"
suite_init deps
DEPS=$REPO/scripts/install-deps

# The profiling list: building and profiling, nothing of the test suite's.
want="autoconf automake build-essential libprotobuf-c-dev pkg-config protobuf-c-compiler valgrind zlib1g-dev"
got=$("$DEPS" --profile --list | tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] && ok profile-list-is-small || bad profile-list-is-small "got '$got', want '$want'"

# Every package of every list is in docs/building.md's tables.
missing_doc=
for opts in --profile "" --deb; do
    for p in $("$DEPS" $opts --list); do
        grep -Eq "^\\|[^|]*\\b$p\\b" "$REPO/docs/building.md" ||
            grep -q "\`[^\`]*\\b$p\\b[^\`]*\`" "$REPO/docs/building.md" || missing_doc="$missing_doc $p"
    done
done
[ -z "$missing_doc" ] && ok lists-documented || bad lists-documented "not in docs/building.md:$missing_doc"

# The test list holds the profiling list.
full=" $("$DEPS" --list) "
lost=
for p in $want; do case $full in *" $p "*) ;; *) lost="$lost $p" ;; esac; done
[ -z "$lost" ] && ok test-list-holds-profile-list || bad test-list-holds-profile-list "missing:$lost"

"$DEPS" --no-such-option >/dev/null 2>e.txt; rc=$?
[ $rc = 2 ] && grep -q "unknown option '--no-such-option'" e.txt && ok bad-option ||
    bad bad-option "exit $rc: $(head -c 200 e.txt)"

# The npm registry that cannot be reached.
all_installed=yes
for p in $("$DEPS" --list); do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || all_installed=
done
if [ -z "$all_installed" ] || ! command -v npm >/dev/null; then
    skip npm-unreachable "not every package of 'scripts/install-deps --list' (or npm) is installed, and this test runs no apt-get"
else
    export CYCPROF_NPM_DIR=$T/npm npm_config_registry=http://127.0.0.1:9/ CYCPROF_NPM_TIME_LIMIT=60
    s=$(date +%s)
    "$DEPS" >o1.txt 2>&1; rc=$?
    took=$(($(date +%s) - s))
    if [ $rc != 0 ]; then bad npm-unreachable-fails-once "exit $rc: $(tail -n 2 o1.txt)"
    elif [ ! -s npm/REGISTRY_FAILED ]; then bad npm-unreachable-fails-once "no npm/REGISTRY_FAILED: $(tail -n 2 o1.txt)"
    elif ! grep -q 'viewer tests skip' o1.txt; then bad npm-unreachable-fails-once "no word that the viewer tests skip: $(tail -n 2 o1.txt)"
    elif [ "$took" -gt 60 ]; then bad npm-unreachable-fails-once "took ${took} s"
    else ok npm-unreachable-fails-once; fi
    log1=$(stat -c %Y.%s npm/npm-install.log 2>/dev/null)
    sleep 1
    "$DEPS" >o2.txt 2>&1; rc=$?
    if [ $rc = 0 ] && grep -q "not trying npm again" o2.txt && grep -q -- "--viewers" o2.txt &&
       [ "$(stat -c %Y.%s npm/npm-install.log 2>/dev/null)" = "$log1" ]
    then ok npm-unreachable-remembered
    else bad npm-unreachable-remembered "exit $rc, npm ran again or no word of it: $(tail -n 2 o2.txt)"; fi
    "$DEPS" --viewers >o3.txt 2>&1; rc=$?
    if [ $rc = 0 ] && grep -q "npm install into" o3.txt && [ "$(stat -c %Y.%s npm/npm-install.log)" != "$log1" ]
    then ok npm-viewers-tries-again
    else bad npm-viewers-tries-again "exit $rc: $(tail -n 2 o3.txt)"; fi
fi
finish
