# H. Names agree across formats: code without a symbol is "0x<offset>" in the
#    callgrind file and in the pprof profile alike, with the same self and
#    inclusive cost (go tool pprof -top flat and cum).
# shellcheck shell=bash

check_unnamed_agree() { # B LABEL
    pycheck "$1" "$2" <<'PY' || true
import collections, sys
from cyc import *
from inclusive import inclusive_by_function
C = Checker()
path, label = sys.argv[1], sys.argv[2]
r = parse_callgrind(path)
selfc, incl = collections.Counter(), collections.Counter()
for (_o, _f, n), v in r.fn_self_key.items():
    selfc[n] += v
for (_o, n), v in inclusive_by_function(path)[0].items():
    incl[n] += v
top = pprof_top(path + ".pb.gz")
unnamed = sorted(n for n in set(selfc) | set(top) if n.startswith("0x"))
C.true(len(unnamed) > 0, "%s: no code without a symbol in either file" % label)
C.true(top.get("???", (0, 0))[0] == 0, "%s: pprof still has a '???' function (flat %d)" % (
    label, top.get("???", (0, 0))[0]))
bad = [(n, (selfc[n], incl[n]), top.get(n)) for n in unnamed if top.get(n) != (selfc[n], incl[n])]
C.true(not bad, "%s: %d of %d unnamed functions differ between the callgrind file (self, inclusive) "
       "and pprof (flat, cum), e.g. %s" % (label, len(bad), len(unnamed), bad[:3]))
C.done()
PY
}

t_pprof_unnamed_names() {
    need_tool
    need_prog mutual-stripped
    local b
    b=$(shared_profile -- "$BIN/mutual-stripped")
    check_run "$b"
    check_unnamed_agree "$b" mutual-stripped
    RUN_ENV=("${PY_ENV[@]}")
    b=$(shared_profile -- /usr/bin/python3 -S -s "$BIN/pyrec.py")
    check_run "$b"
    check_unnamed_agree "$b" python3
}
register pprof-unnamed-names t_pprof_unnamed_names
